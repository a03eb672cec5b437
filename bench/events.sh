#!/usr/bin/env bash
# The event service's performance target, measured: /search over a large stored catalogue against
# /hello of the same server (the example app), with polls of the full feed running during the load.
# Called by ./brisk bench --events (which sets JAVA and builds first). See README "Event search".
#
# Usage: ./brisk bench --events [--events N] [--zones N] [--duration S] [--rounds N] [--churn PT10S]
#   --events    events in the provider's catalogue (default 10000)
#   --zones     zones per event (default 100)
#   --duration  seconds measured per run (default 20)
#   --rounds    rounds of /search and /hello, alternated (default 2)
#   --churn     how often the provider's catalogue changes, ISO-8601 (default PT10S; PT0S: never)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source bench/lib.sh
BENCH_MODE='bench --events'

EVENTS=10000
ZONES=100
DURATION=20
ROUNDS=2
CHURN=PT10S
while [ $# -gt 0 ]; do
  case "$1" in
    --events) need_value "$@"; EVENTS="$2"; shift ;;
    --zones) need_value "$@"; ZONES="$2"; shift ;;
    --duration) need_value "$@"; DURATION="$2"; shift ;;
    --rounds) need_value "$@"; ROUNDS="$2"; shift ;;
    --churn) need_value "$@"; CHURN="$2"; shift ;; # how often the provider's catalogue changes (ISO-8601), or PT0S for never
    -h|--help) print_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bench_usage_error "unknown option $1" ;;
  esac
  shift
done
checked_args_only && exit 0
: "${JAVA:?JAVA must point to a JDK 21+ java}"
require_tool wrk wrk
require_tool h2load nghttp2-client

OUT="bench/results/events-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
DATA="$(mktemp -d)"
PORT=18080 SIM=18081
WINDOW="/search?starts_at=2021-03-01T00:00:00Z&ends_at=2021-04-01T00:00:00Z"
JVM_FLAGS=(-Xms1g -Xmx1g -XX:+UseG1GC -XX:+AlwaysPreTouch --enable-native-access=ALL-UNNAMED)
EV_CP="brisk-events/target/brisk-events.jar:brisk-events/target/lib/*"
EX_CP="brisk-examples/target/brisk-examples.jar:brisk-examples/target/lib/*"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$DATA"; }
trap cleanup EXIT

# the provider on the client's core: it renders the feed once per generation (every $CHURN, 30 % churn),
# so every poll after a change parses and diffs the whole feed on the server's core, under the load
SIM_PORT=$SIM SIM_EVENTS=$EVENTS SIM_ZONES=$ZONES SIM_CHURN_INTERVAL=$CHURN SIM_CHURN_FRACTION=0.3 \
  taskset -c 1 "$JAVA" -Xmx2g -cp "$EV_CP" dev.brisk.events.sim.SimulatorMain >"$OUT/simulator.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$SIM/health" 60

# run_wrk NAME URL SERVER-PID [wrk options]: prints "name req/s p99 cpu-us-per-request valid". The server's
# CPU time per request is the client-independent cost: wrk reading 71 KB answers on one core can
# saturate before the server does, and then req/s measures the client.
run_wrk() {
  local name="$1" url="$2" pid="$3"; shift 3
  taskset -c 1 wrk -t1 -c50 -d3s "$@" "$url" >/dev/null # warm-up
  local cpu0 cpu1
  cpu0=$(proc_cpu_nanos "$pid")
  taskset -c 1 wrk -t1 -c50 -d"${DURATION}s" --latency "$@" "$url" >"$OUT/$name.wrk"
  cpu1=$(proc_cpu_nanos "$pid")
  awk -v n="$name" -v cpu=$((cpu1 - cpu0)) '/Requests\/sec/ {rps=$2} / requests in / {req=$1} /^ +99%/ {p99=$2}
       /Non-2xx/ {bad=$NF} /Socket errors/ {err=$0}
       END {printf "%s %s %s %.1f %s\n", n, rps, p99, req ? cpu / req / 1000 : 0, (bad || err) ? "INVALID" : "ok"}' "$OUT/$name.wrk"
}

# run_h2load NAME URL SERVER-PID: the same line as run_wrk from h2load --h1 (50 connections, one thread).
# A second client because wrk reads in 8 KiB pieces and saturates its core on large answers first: a
# server's req/s then depends on the tool, so the report gives the ratio by each tool and by server CPU.
# h2load prints no percentiles: its p99 column is "-".
run_h2load() {
  local name="$1" url="$2" pid="$3"
  taskset -c 1 h2load --h1 -c50 -t1 -D 3 "$url" >/dev/null # warm-up
  local cpu0 cpu1
  cpu0=$(proc_cpu_nanos "$pid")
  taskset -c 1 h2load --h1 -c50 -t1 -D "$DURATION" "$url" >"$OUT/$name.h2load"
  cpu1=$(proc_cpu_nanos "$pid")
  awk -v n="$name" -v cpu=$((cpu1 - cpu0)) '/^finished in/ {rps=$4} /^requests:/ {done=$6; bad=$10 + $12 + $14}
       /^status codes:/ {bad += $5 + $7 + $9}
       END {printf "%s %s - %.1f %s\n", n, rps, done ? cpu / done / 1000 : 0, (bad || !done) ? "INVALID" : "ok"}' "$OUT/$name.h2load"
}

for ((r = 1; r <= ROUNDS; r++)); do
  echo "round $r/$ROUNDS: event service (polling every 5 s) on core 0"
  BRISK_PORT=$PORT BRISK_METRICS_PORT=off EVENTS_PROVIDER_URL="http://127.0.0.1:$SIM/feed" EVENTS_POLL_INTERVAL=PT5S \
    EVENTS_DATA_DIR="$DATA" taskset -c 0 "$JAVA" "${JVM_FLAGS[@]}" -cp "$EV_CP" dev.brisk.events.EventsMain \
    >"$OUT/service-$r.log" 2>&1 &
  svc=$!; pids+=($svc)
  wait_http "http://127.0.0.1:$PORT/ready" 60
  for ((i = 0; i < 600; i++)); do grep -q "searchable" "$OUT/service-$r.log" && break; sleep 0.1; done
  curl -fs "http://127.0.0.1:$PORT$WINDOW" -o "$OUT/window.json"
  curl -fs -H "Accept-Encoding: gzip" "http://127.0.0.1:$PORT$WINDOW" -o "$OUT/window.json.gz"
  run_wrk "search-$r" "http://127.0.0.1:$PORT$WINDOW" "$svc" | tee -a "$OUT/results.txt"
  run_wrk "search-gzip-$r" "http://127.0.0.1:$PORT$WINDOW" "$svc" -H "Accept-Encoding: gzip" | tee -a "$OUT/results.txt"
  run_h2load "search-h2load-$r" "http://127.0.0.1:$PORT$WINDOW" "$svc" | tee -a "$OUT/results.txt"
  kill "$svc"; wait "$svc" 2>/dev/null || true

  echo "round $r/$ROUNDS: example app /hello on core 0"
  BRISK_PORT=$PORT taskset -c 0 "$JAVA" "${JVM_FLAGS[@]}" -cp "$EX_CP" dev.brisk.examples.ExampleApp >"$OUT/example-$r.log" 2>&1 &
  ex=$!; pids+=($ex)
  wait_http "http://127.0.0.1:$PORT/hello" 60
  run_wrk "hello-$r" "http://127.0.0.1:$PORT/hello" "$ex" | tee -a "$OUT/results.txt"
  run_h2load "hello-h2load-$r" "http://127.0.0.1:$PORT/hello" "$ex" | tee -a "$OUT/results.txt"
  kill "$ex"; wait "$ex" 2>/dev/null || true
done

{
  echo "# Event search performance ($(date -u +%FT%TZ))"
  echo
  describe_machine
  echo "Provider churn: $CHURN (30 % of the catalogue per change); the service polls every 5 s"
  echo "Catalogue: $EVENTS events x $ZONES zones ($(grep -o 'feed: [0-9.]* MB' "$OUT/simulator.log" | head -n1)); window $WINDOW ($(grep -o '"id"' "$OUT/window.json" | wc -l) events, $(wc -c <"$OUT/window.json") bytes, $(wc -c <"$OUT/window.json.gz") gzipped)"
  echo "Server pinned to core 0; wrk -t1 -c50 -d${DURATION}s, h2load --h1 -t1 -c50 -D $DURATION and the simulator on core 1; JVM ${JVM_FLAGS[*]}"
  echo
  echo "| run | req/s | p99 | server CPU µs/request | valid |"
  echo "|---|---|---|---|---|"
  awk '{printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}' "$OUT/results.txt"
  awk '/^search-[0-9]/ {s[++ns]=$2; sc[ns]=$4} /^search-gzip/ {g[++ng]=$2; gc[ng]=$4} /^hello-[0-9]/ {h[++nh]=$2; hc[nh]=$4}
       /^search-h2load/ {s2[++ns2]=$2} /^hello-h2load/ {h2[++nh2]=$2}
       function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                                       return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
       END { ms = med(s, ns); mg = med(g, ng); mh = med(h, nh); cs = med(sc, ns); cg = med(gc, ng); ch = med(hc, nh)
             ms2 = med(s2, ns2); mh2 = med(h2, nh2)
             if (!mh || !mh2 || !cs || !cg) { print "\nA run measured nothing (see the raw outputs): no ratios"; exit }
             printf "\nMedians, wrk: /search %.0f req/s (%.2fx /hello), /search with gzip %.0f req/s (%.2fx), /hello %.0f req/s\n", ms, ms / mh, mg, mg / mh, mh
             printf "Medians, h2load: /search %.0f req/s (%.2fx /hello), /hello %.0f req/s\n", ms2, ms2 / mh2, mh2
             printf "Server CPU per request (wrk runs): /search %.1f µs, with gzip %.1f µs, /hello %.1f µs: by server capacity, /search is %.2fx /hello (%.2fx with gzip)\n", cs, cg, ch, ch / cs, ch / cg }' "$OUT/results.txt"
  echo
  echo "Polls during the runs (fetch + parse + store + publish, wall time):"
  grep -ho "poll [0-9]*: .*changed events stored.*" "$OUT"/service-*.log | sed 's/^/- /' | head -n 20
} | tee "$OUT/report.md"
echo "bench events: results in $OUT"
