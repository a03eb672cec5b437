-- One wrk scenario, configured by environment variables, printing one machine-readable line.
--   BENCH_METHOD   GET or POST (default GET)
--   BENCH_BODY     request body size in bytes (default 0)
--   BENCH_PIPELINE requests sent back to back per batch (default 1)
--   BENCH_CLOSE    1 to send "Connection: close" (a new connection per request)
--   BENCH_HEADER   one more request header, "Name: value" (e.g. "Accept-Encoding: gzip")
local method = os.getenv("BENCH_METHOD") or "GET"
local body = tonumber(os.getenv("BENCH_BODY") or "0")
local pipeline = tonumber(os.getenv("BENCH_PIPELINE") or "1")

wrk.method = method
if body > 0 then
  wrk.body = string.rep("x", body)
  wrk.headers["Content-Type"] = "text/plain"
end
if os.getenv("BENCH_CLOSE") == "1" then
  wrk.headers["Connection"] = "close"
end
local header = os.getenv("BENCH_HEADER") or ""
local name, value = header:match("^([^:]+):%s*(.*)$")
if name then
  wrk.headers[name] = value
end

if pipeline > 1 then
  local batch
  init = function(args)
    batch = string.rep(wrk.format(), pipeline)
  end
  request = function()
    return batch
  end
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "BENCH requests=%d duration_us=%d connect=%d read=%d write=%d status=%d timeout=%d p50_us=%.1f p99_us=%.1f p999_us=%.1f max_us=%.1f\n",
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9), latency.max))
end
