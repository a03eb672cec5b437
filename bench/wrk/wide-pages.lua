-- Wide /search pages for bench/events-search-bounds.sh: every request asks for WIDE_LIMIT events.
--   WIDE_MODE=walk     follow each answer's next link (a finished or refused walk starts over at
--                      another window), so every page is a new one: renders, not cache hits
--   WIDE_MODE=windows  cycle through WIDE_WINDOWS first pages, windows starting a day apart from
--                      2021-01-01 (for gzip clients, whose bodies this script cannot read)
--   WIDE_LIMIT         events per page (default 10000, the maximum)
--   WIDE_WINDOWS       distinct windows (default 10)
-- Prints one line at the end: "WIDE requests=.. non2xx=.. p50_ms=.. p99_ms=.. max_ms=.. mb=..".
local limit = os.getenv("WIDE_LIMIT") or "10000"
local mode = os.getenv("WIDE_MODE") or "walk"
local windows = tonumber(os.getenv("WIDE_WINDOWS") or "10")
local queue = {}
local started = 0

-- the first page of window i: starts_at 2021-01-01 plus i days
local function first(i)
  return string.format("/search?starts_at=%s&limit=%s", os.date("!%Y-%m-%dT00:00:00", 1609459200 + i * 86400), limit)
end

local function restart()
  started = started + 1
  return first(started % windows)
end

init = function(args)
  for i = 1, windows do
    queue[#queue + 1] = restart()
  end
end

request = function()
  local path
  if #queue > 0 then
    path = table.remove(queue, 1)
  else
    path = restart()
  end
  return wrk.format("GET", path)
end

if mode == "walk" then
  response = function(status, headers, body)
    -- next is at the very end of the body: look only there, or this client spends its core scanning
    -- megabytes (and a one-day probe sharing that core measures the client, not the server)
    local nextLink = status == 200 and body and string.match(string.sub(body, -512), '"next":"([^"]*)"')
    if nextLink then
      queue[#queue + 1] = nextLink
    else
      queue[#queue + 1] = restart()
    end
  end
end

done = function(summary, latency, requests)
  local e = summary.errors
  local bad = e.status + e.connect + e.read + e.write + e.timeout
  io.write(string.format("WIDE requests=%d non2xx=%d errors=%d p50_ms=%.1f p99_ms=%.1f max_ms=%.1f mb=%.1f\n",
    summary.requests, e.status, bad - e.status, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, summary.bytes / 1e6))
end
