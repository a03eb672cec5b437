#!/usr/bin/env bash
# What metrics cost: the example app's GET /hello (a) without the metrics port and (b) with
# BRISK_METRICS_PORT set and Prometheus /metrics scraped every second (so the Micrometer binding, the
# scrapes and the metrics server are all in the price), alternated a, b, a, b, ... round by round.
# Called by ./brisk bench --metrics-cost (which sets JAVA and builds first). See README "Benchmarks".
#
# Usage: ./brisk bench --metrics-cost [--quick] [--rounds N] [--duration S] [--warmup S]
#   --quick     a smoke check: 3 rounds of 4 s (about a minute)
#   --rounds    rounds; each runs a, then b, on a fresh server (default 3)
#   --duration  seconds measured per run, after the warm-up (default 10; --quick 4)
#   --warmup    seconds of warm-up per server start (default 5; --quick 3)
# Server on core 0, wrk -t1 -c50 and the scrapes on core 1; the harness's JVM flags. Medians of req/s
# and of the server's CPU time per request (/proc/<pid>/stat before and after), min-max, the ratio b/a;
# PASS when b costs less than 2 % more CPU per request. Output: bench/results/metrics-cost-<timestamp>/.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source bench/lib.sh
BENCH_MODE='bench --metrics-cost'

ARGS="$*"
ROUNDS=3
DURATION=""
WARMUP=""
QUICK=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --rounds) need_value "$@"; ROUNDS="$2"; shift ;;
    --duration) need_value "$@"; DURATION="$2"; shift ;;
    --warmup) need_value "$@"; WARMUP="$2"; shift ;;
    -h|--help) print_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bench_usage_error "unknown option $1" ;;
  esac
  shift
done
checked_args_only && exit 0
: "${JAVA:?JAVA must point to a JDK 21+ java}"
if [ "$QUICK" = 1 ]; then : "${DURATION:=4}" "${WARMUP:=3}"; else : "${DURATION:=10}" "${WARMUP:=5}"; fi
TARGET_PCT=2

require_tool wrk wrk
require_tool curl curl "the metrics scrapes"
pin_cores

OUT="bench/results/metrics-cost-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT/raw"
PORT=18080
METRICS_PORT=19090
URL="http://127.0.0.1:$PORT/hello"
EX_CP="brisk-examples/target/brisk-examples.jar:brisk-examples/target/lib/*"
CSV="$OUT/results.csv"
echo "round,variant,valid,rps,requests,cpu_us_per_req,p99_ms,scrapes_ok" > "$CSV"
SERVER_PID=""
SCRAPER_PID=""
cleanup() {
  [ -n "$SCRAPER_PID" ] && kill "$SCRAPER_PID" 2>/dev/null || true
  stop_pid "$SERVER_PID"
}
trap cleanup EXIT INT TERM

{
  describe_machine
  echo "wrk: $(wrk -v 2>&1 | head -n 1)"
  echo "jvm flags: ${BENCH_JVM_FLAGS[*]}"
  echo "pinning: server '${PIN_SERVER[*]:-none}', client (wrk -t1 -c50, scrapes) '${PIN_CLIENT[*]:-none}'"
  echo "rounds: $ROUNDS x (a, b), ${DURATION}s measured after ${WARMUP}s of warm-up per server start"
  echo "BRISK_* from the environment: $(env | grep '^BRISK_' | tr '\n' ' ' || true)"
  echo "command: ./brisk bench --metrics-cost $ARGS"
} > "$OUT/environment.txt"
cat "$OUT/environment.txt"

# scrape_every_second URL COUNT: COUNT scrapes, one a second; prints each one's HTTP status and size
scrape_every_second() {
  local i
  for ((i = 0; i < $2; i++)); do
    curl -s -o /dev/null --max-time 0.9 -w '%{http_code} %{size_download}\n' "$1" || echo "000 0"
    sleep 1
  done
}

# run_variant ROUND a|b: a fresh server, warm-up, one measured wrk run; appends a line to the CSV
run_variant() {
  local round="$1" variant="$2" raw="$OUT/raw/r$1-$2" metrics=()
  [ "$variant" = b ] && metrics=(BRISK_METRICS_PORT=$METRICS_PORT)
  env -u BRISK_METRICS_PORT BRISK_PORT=$PORT "${metrics[@]}" \
    "${PIN_SERVER[@]}" "$JAVA" "${BENCH_JVM_FLAGS[@]}" -cp "$EX_CP" dev.brisk.examples.ExampleApp > "$raw-server.log" 2>&1 &
  SERVER_PID=$!
  wait_http "$URL" 60 || { echo "bench metrics-cost: the server did not start; see $raw-server.log" >&2; exit 1; }
  : > "$raw-scrapes.txt"
  if [ "$variant" = b ]; then
    wait_http "http://127.0.0.1:$METRICS_PORT/metrics" 10
    scrape_every_second "http://127.0.0.1:$METRICS_PORT/metrics" $((WARMUP + DURATION + 5)) > "$raw-scrapes.txt" &
    SCRAPER_PID=$!
    if [ ${#PIN_CLIENT[@]} -gt 0 ]; then taskset -p -c 1 "$SCRAPER_PID" > /dev/null; fi
  fi
  "${PIN_CLIENT[@]}" wrk -t1 -c50 -d"${WARMUP}s" "$URL" > /dev/null 2>&1 || true
  local cpu0 cpu1
  cpu0=$(proc_cpu_nanos "$SERVER_PID")
  "${PIN_CLIENT[@]}" wrk -t1 -c50 -d"${DURATION}s" --timeout 5s -s bench/wrk/scenario.lua "$URL" > "$raw-wrk.txt" 2>&1 || true
  cpu1=$(proc_cpu_nanos "$SERVER_PID")
  if [ -n "$SCRAPER_PID" ]; then kill "$SCRAPER_PID" 2>/dev/null || true; wait "$SCRAPER_PID" 2>/dev/null || true; SCRAPER_PID=""; fi
  stop_pid "$SERVER_PID"; SERVER_PID=""
  local requests bad dur errs=0 e v scrapes
  requests=$(field requests "$raw-wrk.txt"); requests=${requests:-0}
  bad=$(field status "$raw-wrk.txt"); dur=$(field duration_us "$raw-wrk.txt"); dur=${dur:-1}
  for e in connect read write status timeout; do v=$(field "$e" "$raw-wrk.txt"); errs=$((errs + ${v:-1})); done
  scrapes=$(grep -c '^200 ' "$raw-scrapes.txt" || true)
  awk -v r="$round" -v w="$variant" -v ok="$([ "$errs" = 0 ] && [ "$requests" -gt 0 ] && echo yes || echo no)" \
      -v n="$requests" -v b="${bad:-0}" -v d="$dur" -v c0="$cpu0" -v c1="$cpu1" -v p99="$(field p99_us "$raw-wrk.txt")" -v s="$scrapes" \
      'BEGIN { printf "%s,%s,%s,%.0f,%d,%.2f,%.3f,%d\n", r, w, ok, (n - b) / (d / 1e6), n, n ? (c1 - c0) / n / 1000 : 0, p99 / 1000, s }' >> "$CSV"
  tail -n 1 "$CSV" | awk -F, '{ printf "round %s %s: %8s req/s  %6s us/req CPU  p99 %s ms  scrapes %s  valid=%s\n",
                                    $1, ($2 == "a" ? "a (no metrics)  " : "b (metrics + 1/s)"), $4, $6, $7, $8, $3 }'
}

for round in $(seq 1 "$ROUNDS"); do
  run_variant "$round" a
  run_variant "$round" b
done

{
  echo "# Metrics cost ($(date -u +%FT%TZ))"
  echo
  echo '```'
  cat "$OUT/environment.txt"
  echo '```'
  echo
  echo "The example app's \`GET /hello\`: **a** without the metrics port, **b** with \`BRISK_METRICS_PORT\` set and"
  echo "\`/metrics\` scraped once a second (Micrometer's Prometheus registry bound to the engine's meters, the"
  echo "metrics server in the same JVM). Each run is a fresh server, warmed up, then measured; a and b alternate."
  echo "CPU µs/req is the server process's CPU time (user + system, /proc/<pid>/stat) over the measured run"
  echo "divided by its requests: it does not depend on how fast the client is."
  echo
  echo "| round | variant | req/s | server CPU µs/req | p99 ms | scrapes answered | valid |"
  echo "|---|---|---|---|---|---|---|"
  tail -n +2 "$CSV" | awk -F, '{ printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $4, $6, $7, ($2 == "b" ? $8 : "–"), $3 }'
  echo
  tail -n +2 "$CSV" | awk -F, -v target="$TARGET_PCT" '
    function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                                    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    $3 == "yes" { if ($2 == "a") { ra[++na] = $4; ca[na] = $6 } else { rb[++nb] = $4; cb[nb] = $6 }
                  cpu[$1, $2] = $6; if ($1 > rounds) rounds = $1 }
    END {
      if (!na || !nb) { print "FAIL: no valid run of " (na ? "b" : "a"); exit }
      mra = med(ra, na); mca = med(ca, na); mrb = med(rb, nb); mcb = med(cb, nb)
      # med() sorted the arrays: first and last are min and max
      printf "| variant | median req/s (min–max) | median server CPU µs/req (min–max) |\n|---|---|---|\n"
      printf "| a: no metrics | %.0f (%.0f–%.0f) | %.2f (%.2f–%.2f) |\n", mra, ra[1], ra[na], mca, ca[1], ca[na]
      printf "| b: metrics, scraped 1/s | %.0f (%.0f–%.0f) | %.2f (%.2f–%.2f) |\n", mrb, rb[1], rb[nb], mcb, cb[1], cb[nb]
      printf "| b / a | %.3f (%+.1f %%) | %.3f (%+.1f %%) |\n\n", mrb / mra, 100 * (mrb / mra - 1), mcb / mca, 100 * (mcb / mca - 1)
      printf "Round-to-round spread of a alone: req/s %.1f %%, CPU/req %.1f %% (max/min - 1): differences below that are noise.\n",
        100 * (ra[na] / ra[1] - 1), 100 * (ca[na] / ca[1] - 1)
      printf "CPU/req b / a within each round (b runs right after a, so slow drifts of the machine cancel):"
      for (r = 1; r <= rounds; r++) if ((r, "a") in cpu && (r, "b") in cpu) { pr[++np] = cpu[r, "b"] / cpu[r, "a"]; printf " %.3f", pr[np] }
      if (np) printf " (median %.3f)", med(pr, np)
      printf "\n\n"
      d = 100 * (mcb / mca - 1)
      printf "%s: metrics cost %+.1f %% server CPU per request (median b / median a; target < %d %%); req/s %+.1f %%\n",
        (d < target ? "PASS" : "FAIL"), d, target, 100 * (mrb / mra - 1)
    }'
} > "$OUT/report.md"
sed -n '/^| variant/,$p' "$OUT/report.md"
echo "bench metrics-cost: report in $OUT/report.md"
