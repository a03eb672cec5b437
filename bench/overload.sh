#!/usr/bin/env bash
# Overload: the example app's GET /cpu?work=N (a fixed CPU cost per request) offered 4x its peak
# goodput, open loop, without load shedding and with it; goodput and p99 over time.
# Called by ./brisk bench --overload (which sets JAVA and builds first). See README "Benchmarks".
#
# Usage: ./brisk bench --overload [--quick] [--duration S] [--work N] [--clients N] [--factor F]
#                                 [--configs none,fixed,adaptive]
#   --quick      a smoke check of about a minute: 10 s per configuration, short peak measurement
#   --duration   seconds of offered load per configuration (default 30; --quick 10)
#   --work       units of CPU work per request, about 2.85 us each (default 250: about 0.7 ms)
#   --clients    h2load connections for the offered load (default 1000)
#   --factor     offered load as a multiple of the measured peak (default 4)
#   --configs    which server configurations, in order (default: all three)
#       none      no load shedding (the defaults: unlimited in-flight requests)
#       fixed     BRISK_MAX_CONCURRENT_REQUESTS=4 (a small multiple of the server's one core), queue 8
#       adaptive  BRISK_CONCURRENCY_LIMIT=adaptive, at most 1000 in flight, queue 8
# Other BRISK_* variables in the environment (BRISK_DISPATCH, ...) reach every server.
#
# Phase 1: the peak, closed loop (wrk -c50 on a server without shedding), and the p99 at a quarter of it.
# Phase 2: per configuration a fresh server, a warm-up, then h2load --rps at factor x peak while
# /metrics is scraped every second; figures over the last two thirds (the steady window).
# Output: bench/results/overload-<timestamp>/ (report.md, timeseries.csv, goodput.svg, p99.svg,
# p99-server.svg, raw/). PASS/FAIL lines are printed; they never fail the script.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source bench/lib.sh
BENCH_MODE='bench --overload'

ARGS="$*"
QUICK=0
DURATION=""
WORK=250
CLIENTS=1000
FACTOR=4
CONFIGS=none,fixed,adaptive
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --duration) need_value "$@"; DURATION="$2"; shift ;;
    --work) need_value "$@"; WORK="$2"; shift ;;
    --clients) need_value "$@"; CLIENTS="$2"; shift ;;
    --factor) need_value "$@"; FACTOR="$2"; shift ;;
    --configs) need_value "$@"; CONFIGS="$2"; shift ;;
    -h|--help) print_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bench_usage_error "unknown option $1" ;;
  esac
  shift
done
checked_args_only && exit 0
: "${JAVA:?JAVA must point to a JDK 21+ java}"
if [ "$QUICK" = 1 ]; then
  : "${DURATION:=10}"; PEAK_SECS=5; WARMUP=3; UNLOADED_SECS=3
else
  : "${DURATION:=30}"; PEAK_SECS=12; WARMUP=5; UNLOADED_SECS=5
fi
# the figures are taken over the last two thirds: the first third is the transient (connections opening,
# an adaptive limit coming down from its maximum, which takes about 10 s from 1000 here)
STEADY_FROM=$((DURATION / 3))

# name|label|server settings|bound on the p99 of admitted requests in ms: an awk expression of P (the peak,
# req/s) and U (the unloaded p99, ms); empty for no verdict|why that bound
ALL_CONFIGS="none|no shedding|||
fixed|fixed limit 4 + queue 8|BRISK_MAX_CONCURRENT_REQUESTS=4 BRISK_REQUEST_QUEUE_SIZE=8 BRISK_REQUEST_QUEUE_TIMEOUT=100ms|U + 3 * (4 + 8) * 1000 / P|the unloaded p99 plus 3x the wait behind 4 running and 8 queued requests of 1/peak each
adaptive|adaptive limit (max 1000) + queue 8|BRISK_CONCURRENCY_LIMIT=adaptive BRISK_MAX_CONCURRENT_REQUESTS=1000 BRISK_REQUEST_QUEUE_SIZE=8 BRISK_REQUEST_QUEUE_TIMEOUT=100ms|500|2x the 250 ms latency threshold where the adaptive limit settles"
for c in $(echo "$CONFIGS" | tr ',' ' '); do
  echo "$ALL_CONFIGS" | grep -q "^$c|" || { echo "bench overload: unknown config $c (none, fixed, adaptive)" >&2; exit 2; }
done

require_tool wrk wrk
require_tool h2load nghttp2-client "the open-loop load"
require_tool curl curl "the metrics scrapes"
pin_cores

OUT="bench/results/overload-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT/raw"
PORT=18080
METRICS_PORT=19090
URL="http://127.0.0.1:$PORT/cpu?work=$WORK"
EX_CP="brisk-examples/target/brisk-examples.jar:brisk-examples/target/lib/*"
SERVER_PID=""
SCRAPER_PID=""
cleanup() {
  [ -n "$SCRAPER_PID" ] && kill "$SCRAPER_PID" 2>/dev/null || true
  stop_pid "$SERVER_PID"
}
trap cleanup EXIT INT TERM

{
  describe_machine
  echo "wrk: $(wrk -v 2>&1 | head -n 1); h2load: $(h2load --version 2>&1 | head -n 1); curl: $(curl --version | head -n 1 | cut -d' ' -f1-2)"
  echo "jvm flags: ${BENCH_JVM_FLAGS[*]}"
  echo "pinning: server '${PIN_SERVER[*]:-none}', client (wrk, h2load, scrapes) '${PIN_CLIENT[*]:-none}'"
  echo "handler: GET /cpu?work=$WORK; offered load: ${FACTOR}x peak over $CLIENTS connections for ${DURATION}s per config"
  echo "configs: $CONFIGS"
  echo "BRISK_* from the environment: $(env | grep '^BRISK_' | tr '\n' ' ' || true)"
  echo "command: ./brisk bench --overload $ARGS"
} > "$OUT/environment.txt"
cat "$OUT/environment.txt"

# start_server NAME SETTINGS: the example app on core 0 with the metrics port; SETTINGS are BRISK_* assignments
start_server() {
  local name="$1" settings="$2"
  mkdir -p "$OUT/raw/$name"
  # shellcheck disable=SC2086 # SETTINGS is a list of NAME=value words
  env -u BRISK_MAX_CONCURRENT_REQUESTS -u BRISK_CONCURRENCY_LIMIT -u BRISK_REQUEST_QUEUE_SIZE -u BRISK_REQUEST_QUEUE_TIMEOUT \
    BRISK_PORT=$PORT BRISK_METRICS_PORT=$METRICS_PORT $settings \
    "${PIN_SERVER[@]}" "$JAVA" "${BENCH_JVM_FLAGS[@]}" -cp "$EX_CP" dev.brisk.examples.ExampleApp \
    > "$OUT/raw/$name/server.log" 2>&1 &
  SERVER_PID=$!
  wait_http "http://127.0.0.1:$PORT/hello" 60 && wait_http "http://127.0.0.1:$METRICS_PORT/metrics" 10 || {
    echo "bench overload: the server did not start; see $OUT/raw/$name/server.log" >&2; exit 1; }
}

# h2load_open DIR RATE SECONDS CLIENTS: RATE req/s for SECONDS, open loop as far as h2load goes: every
# connection has its own --rps timer, and the connections are opened over the first second (-r per 1 ms)
# so the timers do not all fire at once. h2load sends a connection's next request only after its answer,
# and then spreads a connection's share (-n) over a longer time: it is stopped SECONDS + 3 s after the
# start (SIGINT: no summary then, but its per-request log is complete up to there).
h2load_open() {
  local dir="$1" rate="$2" secs="$3" clients="$4" per_client n per_ms
  per_client=$(awk -v r="$rate" -v c="$clients" 'BEGIN { printf "%.3f", r / c }')
  n=$(awk -v r="$rate" -v s="$secs" 'BEGIN { printf "%d", r * s }')
  per_ms=$(( (clients + 999) / 1000 ))
  rm -f "$dir/h2load.log"
  local rc=0
  timeout -s INT $((secs + 3)) "${PIN_CLIENT[@]}" h2load --h1 -c "$clients" -m 1 -r "$per_ms" --rate-period 1ms \
    --rps "$per_client" -n "$n" --log-file="$dir/h2load.log" "$URL" > "$dir/h2load.txt" 2>&1 || rc=$?
  if [ "$rc" = 124 ]; then
    echo "h2load: stopped after $((secs + 3)) s with requests still unsent or unanswered" | tee -a "$dir/h2load.txt"
  fi
}

# scrape_loop URL T0_US COUNT: COUNT scrapes of URL's brisk_* lines, one a second from T0_US, each after "# t_us=<now>"
scrape_loop() {
  local url="$1" t0="$2" count="$3" i wait
  for ((i = 0; i < count; i++)); do
    echo "# t_us=$(date +%s%6N)"
    curl -s --max-time 0.8 "$url" | grep '^brisk_' || true
    wait=$(( t0 + (i + 1) * 1000000 - $(date +%s%6N) ))
    if [ "$wait" -gt 0 ]; then sleep "$(printf '%d.%06d' $((wait / 1000000)) $((wait % 1000000)))"; fi
  done
}

echo "== phase 1: peak goodput, closed loop (wrk -c50, ${PEAK_SECS}s after a ${WARMUP}s warm-up)"
start_server peak ""
"${PIN_CLIENT[@]}" wrk -t1 -c50 -d"${WARMUP}s" "$URL" > /dev/null 2>&1 || true
cpu0=$(proc_cpu_nanos "$SERVER_PID")
"${PIN_CLIENT[@]}" wrk -t1 -c50 -d"${PEAK_SECS}s" --timeout 5s -s bench/wrk/scenario.lua "$URL" > "$OUT/raw/peak/wrk.txt" 2>&1 || true
cpu1=$(proc_cpu_nanos "$SERVER_PID")
requests=$(field requests "$OUT/raw/peak/wrk.txt"); requests=${requests:-0}
bad=$(field status "$OUT/raw/peak/wrk.txt"); bad=${bad:-0}
dur=$(field duration_us "$OUT/raw/peak/wrk.txt"); dur=${dur:-1}
PEAK=$(awk -v n="$requests" -v b="$bad" -v d="$dur" 'BEGIN { printf "%.0f", (n - b) / (d / 1e6) }')
CPU_US=$(awk -v n="$requests" -v c0="$cpu0" -v c1="$cpu1" 'BEGIN { printf "%.1f", n ? (c1 - c0) / n / 1000 : 0 }')
BUSY=$(awk -v d="$dur" -v c0="$cpu0" -v c1="$cpu1" 'BEGIN { printf "%.0f", 100 * (c1 - c0) / (d * 1000) }')
P99=$(awk -v p="$(field p99_us "$OUT/raw/peak/wrk.txt")" 'BEGIN { printf "%.2f", p / 1000 }')
[ "$PEAK" -gt 0 ] || { echo "bench overload: no successful request in the peak run; see $OUT/raw/peak/wrk.txt" >&2; exit 1; }
echo "peak: $PEAK req/s, server CPU $CPU_US us/request, server busy $BUSY% of one core, p99 $P99 ms"
if [ "$BUSY" -lt 85 ]; then
  echo "bench overload: warning: the server used only $BUSY% of its core at the peak (client-bound, or the machine is busy)"
fi
echo "== unloaded p99: h2load at a quarter of the peak for ${UNLOADED_SECS}s"
mkdir -p "$OUT/raw/unloaded"
h2load_open "$OUT/raw/unloaded" $((PEAK / 4)) "$UNLOADED_SECS" 50
UNLOADED_P99=$(awk '$2 >= 200 && $2 < 300 { print $3 / 1000 }' "$OUT/raw/unloaded/h2load.log" 2>/dev/null | sort -n |
  awk '{ v[NR] = $1 } END { r = int(0.99 * NR); if (r < 0.99 * NR) r++; if (r < 1) r = 1; printf "%.2f", NR ? v[r] : 0 }')
echo "unloaded p99 (2xx): $UNLOADED_P99 ms ($(grep -E '^status codes:' "$OUT/raw/unloaded/h2load.txt" || echo 'no summary'))"
stop_pid "$SERVER_PID"; SERVER_PID=""

cat > "$OUT/run.properties" <<PROPS
work=$WORK
peak_rps=$PEAK
peak_cpu_us=$CPU_US
peak_busy_pct=$BUSY
peak_p99_ms=$P99
peak_connections=50
peak_duration_s=$PEAK_SECS
clients=$CLIENTS
factor=$FACTOR
duration_s=$DURATION
steady_from_s=$STEADY_FROM
configs=$CONFIGS
PROPS

OFFERED=$(awk -v p="$PEAK" -v f="$FACTOR" 'BEGIN { printf "%.0f", p * f }')
for name in $(echo "$CONFIGS" | tr ',' ' '); do
  IFS='|' read -r _ label settings bound why <<< "$(echo "$ALL_CONFIGS" | grep "^$name|")"
  echo "== phase 2: $label (${settings:-defaults}): $OFFERED req/s offered for ${DURATION}s"
  start_server "$name" "$settings"
  # 50 connections: more than a limit lets in, so the refusal path is warmed up too
  "${PIN_CLIENT[@]}" wrk -t1 -c50 -d"${WARMUP}s" "$URL" > /dev/null 2>&1 || true
  dir="$OUT/raw/$name"
  t0=$(date +%s%6N)
  bound_ms=""
  [ -n "$bound" ] && bound_ms=$(awk -v P="$PEAK" -v U="$UNLOADED_P99" "BEGIN { printf \"%.1f\", $bound }")
  queue_timeout=$(echo "$settings" | sed -n 's/.*BRISK_REQUEST_QUEUE_TIMEOUT=\([0-9]*\)ms.*/\1/p')
  cat > "$dir/run.properties" <<PROPS
label=$label
env=$settings
offered_rps=$OFFERED
duration_s=$DURATION
t0_us=$t0
queue_timeout_ms=${queue_timeout:-100}
bound_ms=$bound_ms
bound_why=$why
PROPS
  scrape_loop "http://127.0.0.1:$METRICS_PORT/metrics" "$t0" $((DURATION + 6)) > "$dir/scrapes.txt" &
  SCRAPER_PID=$!
  [ ${#PIN_CLIENT[@]} -gt 0 ] && taskset -p -c 1 "$SCRAPER_PID" > /dev/null
  h2load_open "$dir" "$OFFERED" "$DURATION" "$CLIENTS"
  sleep 1.2 # one more scrape after the last response
  kill "$SCRAPER_PID" 2>/dev/null || true; wait "$SCRAPER_PID" 2>/dev/null || true; SCRAPER_PID=""
  grep -E '^(finished|requests|status codes):?' "$dir/h2load.txt" || true
  stop_pid "$SERVER_PID"; SERVER_PID=""
done

echo "== results"
"$JAVA" -cp "brisk-bench/target/brisk-bench.jar:brisk-bench/target/lib/*" dev.brisk.bench.OverloadReport "$OUT"
echo "bench overload: report in $OUT/report.md (charts: goodput.svg, p99.svg, p99-server.svg; per second: timeseries.csv)"
