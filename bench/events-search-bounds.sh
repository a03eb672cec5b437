#!/usr/bin/env bash
# /search's bounds at a small heap: the event service at -Xmx512m on a store of N events (100k, then
# 600k), pinned to core 0, the clients on core 1. For each N it measures the widest page (limit=10000:
# time and size, first render and cached, identity and gzip), then a one-day search every 20 ms (its
# p50/p99, counted from when each was due: bench/SearchProbe.java) alone, under ten wrk connections walking wide pages by their next links (every page
# a new render), and under ten asking for forty distinct wide first pages with gzip. It checks that the
# service is alive with no OutOfMemoryError, and reports the cache's bytes, wide answers admitted and
# refused, the heap after GC and the process's RSS. The provider is unreachable on purpose: no poll runs,
# the store is filled before the start by bench/EventsStoreLoad.java (the simulator's events written by
# the service's own store code, one transaction).
# Needs brisk-events built (./mvnw -B -ntp -pl brisk-events -am -DskipTests package), JAVA (a JDK 21+)
# and wrk. About two minutes per size with the default duration, most of it loading and measuring.
#
# Usage: JAVA=/path/to/jdk/bin/java bench/events-search-bounds.sh [--sizes 100000,600000] [--duration S]
#   --sizes     stored events per run, comma-separated (default 100000,600000)
#   --duration  seconds of each measured phase (default 15)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source bench/lib.sh
# run directly, not through ./brisk bench: its own usage line
bench_usage_error() { printf 'events-search-bounds: %s; see bench/events-search-bounds.sh --help\n' "$1" >&2; exit 2; }

SIZES=100000,600000
DURATION=15
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) need_value "$@"; SIZES="$2"; shift ;;
    --duration) need_value "$@"; DURATION="$2"; shift ;;
    -h|--help) print_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bench_usage_error "unknown option $1" ;;
  esac
  shift
done
[[ "$SIZES" =~ ^[1-9][0-9]{0,7}(,[1-9][0-9]{0,7})*$ ]] || bench_usage_error "--sizes must be whole numbers separated by commas, got $SIZES"
[[ "$DURATION" =~ ^[1-9][0-9]{0,3}$ ]] || bench_usage_error "--duration must be whole seconds from 1 to 9999, got $DURATION"
checked_args_only && exit 0
: "${JAVA:?JAVA must point to a JDK 21+ java}"
require_tool wrk wrk
EV_CP="brisk-events/target/brisk-events.jar:brisk-events/target/lib/*"
[ -f brisk-events/target/brisk-events.jar ] || { echo "bench: build brisk-events first (./mvnw -B -ntp -pl brisk-events -am -DskipTests package)" >&2; exit 1; }

OUT="bench/results/events-bounds-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
DATA="$(mktemp -d)"
# not the harness's 18080 nor engines.sh's 18180: another benchmark may be running on this machine
PORT="${BENCH_BOUNDS_PORT:-18280}" METRICS=$((PORT + 1))
JVM_FLAGS=(-Xms512m -Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError --enable-native-access=ALL-UNNAMED)
pin_cores
svc=""
cleanup() { [ -n "$svc" ] && stop_pid "$svc"; rm -rf "$DATA"; }
trap cleanup EXIT
describe_machine >"$OUT/environment.txt"

# probe NAME SECONDS: one-day searches, one every 20 ms, for SECONDS (bench/SearchProbe.java, on the
# client core); prints "n p50_ms p99_ms max_ms non200", latency counted from when each request was due
probe() {
  "${PIN_CLIENT[@]}" "$JAVA" -Xmx64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 bench/SearchProbe.java \
    "http://127.0.0.1:$PORT" "$2" 20 2>"$OUT/$1.probe.err" | tee "$OUT/$1.probe"
}

# wide NAME MODE [wrk options]: ten connections of wide pages for DURATION seconds, the probe alongside
wide() {
  local name="$1" mode="$2"; shift 2
  WIDE_MODE="$mode" WIDE_WINDOWS=40 "${PIN_CLIENT[@]}" wrk -t1 -c10 -d"${DURATION}s" --timeout 30s --latency \
    -s bench/wrk/wide-pages.lua "$@" "http://127.0.0.1:$PORT" >"$OUT/$name.wrk" 2>&1 &
  local w=$!
  local p
  p=$(probe "$name" "$DURATION")
  wait "$w" || true
  echo "$p $(grep '^WIDE' "$OUT/$name.wrk" || echo 'WIDE (no result)')"
}

metric() { curl -fs "http://127.0.0.1:$METRICS/metrics" | awk -v m="$1" '$1 == m {print $2; exit}'; }

for n in ${SIZES//,/ }; do
  db="$DATA/events-$n.db"
  echo "== $n stored events"
  "${PIN_CLIENT[@]}" "$JAVA" -Xmx4g --enable-native-access=ALL-UNNAMED -cp "$EV_CP" bench/EventsStoreLoad.java "$n" \
    "jdbc:sqlite:$db" | tee "$OUT/load-$n.txt"
  BRISK_PORT=$PORT BRISK_METRICS_PORT=$METRICS EVENTS_PROVIDER_URL="http://127.0.0.1:1/feed" EVENTS_POLL_INTERVAL=PT1H \
    EVENTS_DB_URL="jdbc:sqlite:$db" "${PIN_SERVER[@]}" "$JAVA" "${JVM_FLAGS[@]}" -Xlog:gc:file="$OUT/gc-$n.log" \
    -cp "$EV_CP" dev.brisk.events.EventsMain >"$OUT/service-$n.log" 2>&1 &
  svc=$!
  wait_http "http://127.0.0.1:$PORT/ready" 300
  # ready comes just before the line saying how long the load took
  for _ in $(seq 1 50); do grep -q 'loaded .* ms' "$OUT/service-$n.log" && break; sleep 0.1; done
  {
    echo "$n stored events: $(grep -o 'loaded .* ms' "$OUT/service-$n.log")"
    # first render (streamed from a render thread), then from the cache; then its gzip form, made once
    for run in identity-1 identity-2 gzip-1 gzip-2; do
      "${PIN_CLIENT[@]}" curl -s -o "$OUT/widest-$run" -H "Accept-Encoding: ${run%-*}" -D "$OUT/widest-$run.head" \
        -w "widest page (limit=10000), $run: %{http_code} in %{time_total} s, %{size_download} bytes, " \
        "http://127.0.0.1:$PORT/search?limit=10000"
      grep -i -o -m1 'content-length: [0-9]*\|transfer-encoding: chunked' "$OUT/widest-$run.head" || echo
    done
    echo "events on it: $(grep -o '"id"' "$OUT/widest-identity-1" | wc -l)"
    # warm-up, not measured: wide renders and sends until the JIT has compiled them
    WIDE_MODE=walk "${PIN_CLIENT[@]}" wrk -t1 -c2 -d5s -s bench/wrk/wide-pages.lua "http://127.0.0.1:$PORT" >/dev/null 2>&1 || true
    echo "phase: n p50_ms p99_ms max_ms non200 (one-day probe) | wide wrk line; machine load before it"
    echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "alone: $(probe "alone-$n" "$DURATION")"
    echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "wide-walk: $(wide "walk-$n" walk)"
    echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "wide-gzip: $(wide "gzip-$n" windows -H 'Accept-Encoding: gzip')"
    echo "cache bytes: $(metric events_search_cache_bytes); wide admitted $(metric 'events_search_wide_total{result="admitted"}'), refused $(metric 'events_search_wide_total{result="refused"}')"
    # the heap still live at the end: a full collection asked for once the measuring is over
    "$(dirname "$JAVA")/jcmd" "$svc" GC.run >/dev/null 2>&1 || true
    echo "service RSS: $(awk '/VmRSS/ {print $2, $3}' "/proc/$svc/status" 2>/dev/null || echo gone), live heap after a full GC at the end: $(grep 'Pause Full' "$OUT/gc-$n.log" | grep -o '[0-9]*M->[0-9]*M([0-9]*M)' | tail -n 1)"
    if kill -0 "$svc" 2>/dev/null && ! grep -q OutOfMemoryError "$OUT/service-$n.log"; then
      echo "alive, no OutOfMemoryError"
    else
      echo "FAILED: the service died or ran out of memory (see $OUT/service-$n.log)"
    fi
  } | tee -a "$OUT/report.txt"
  stop_pid "$svc"
  svc=""
  rm -f "$db" "$db"-*
done
echo "events-search-bounds: results in $OUT"
