#!/usr/bin/env bash
# The event service's performance target, measured: /search over a large stored catalogue against
# /hello of the same server (the example app), with polls of the full feed running during the load.
# Called by ./brisk bench --events (which sets JAVA and builds first). See README "Event search".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
: "${JAVA:?JAVA must point to a JDK 21+ java}"

EVENTS=10000
ZONES=100
DURATION=20
ROUNDS=2
while [ $# -gt 0 ]; do
  case "$1" in
    --events) EVENTS="$2"; shift ;;
    --zones) ZONES="$2"; shift ;;
    --duration) DURATION="$2"; shift ;;
    --rounds) ROUNDS="$2"; shift ;;
    *) echo "bench events: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
command -v wrk >/dev/null || { echo "bench events: wrk is missing (apt-get install -y wrk)"; exit 1; }

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

wait_http() { # url, seconds
  local i
  for ((i = 0; i < $2 * 10; i++)); do curl -fs -o /dev/null "$1" && return 0; sleep 0.1; done
  echo "bench events: $1 not answering after $2 s" >&2; return 1
}

# the provider on the client's core: it renders the feed once per generation (every 10 s, 30 % churn)
SIM_PORT=$SIM SIM_EVENTS=$EVENTS SIM_ZONES=$ZONES SIM_CHURN_INTERVAL=PT10S SIM_CHURN_FRACTION=0.3 \
  taskset -c 1 "$JAVA" -Xmx2g -cp "$EV_CP" dev.brisk.events.sim.SimulatorMain >"$OUT/simulator.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$SIM/health" 60

run_wrk() { # name url
  taskset -c 1 wrk -t1 -c50 -d3s "$2" >/dev/null # warm-up
  taskset -c 1 wrk -t1 -c50 -d"${DURATION}s" --latency "$2" >"$OUT/$1.wrk"
  awk -v n="$1" '/Requests\/sec/ {rps=$2} /^ +99%/ {p99=$2} /Non-2xx/ {bad=$NF}
                 /Socket errors/ {err=$0} END {printf "%s %s %s %s\n", n, rps, p99, (bad || err) ? "INVALID" : "ok"}' "$OUT/$1.wrk"
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
  run_wrk "search-$r" "http://127.0.0.1:$PORT$WINDOW" | tee -a "$OUT/results.txt"
  kill "$svc"; wait "$svc" 2>/dev/null || true

  echo "round $r/$ROUNDS: example app /hello on core 0"
  BRISK_PORT=$PORT taskset -c 0 "$JAVA" "${JVM_FLAGS[@]}" -cp "$EX_CP" dev.brisk.examples.ExampleApp >"$OUT/example-$r.log" 2>&1 &
  ex=$!; pids+=($ex)
  wait_http "http://127.0.0.1:$PORT/hello" 60
  run_wrk "hello-$r" "http://127.0.0.1:$PORT/hello" | tee -a "$OUT/results.txt"
  kill "$ex"; wait "$ex" 2>/dev/null || true
done

{
  echo "# Event search performance ($(date -u +%FT%TZ))"
  echo
  echo "Machine: $(nproc) cores, $(uname -r); JDK: $("$JAVA" -version 2>&1 | head -n1); commit $(git rev-parse --short HEAD)"
  echo "Catalogue: $EVENTS events x $ZONES zones (feed $(grep -o 'feed: [0-9.]* MB' "$OUT/simulator.log" | head -n1)); window $WINDOW ($(grep -o '"id"' "$OUT/window.json" | wc -l) events, $(wc -c <"$OUT/window.json") bytes)"
  echo "Server pinned to core 0, wrk -t1 -c50 -d${DURATION}s and the simulator on core 1; JVM ${JVM_FLAGS[*]}"
  echo
  echo "| run | req/s | p99 | valid |"
  echo "|---|---|---|---|"
  awk '{printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4}' "$OUT/results.txt"
  awk '/^search/ {s[++ns]=$2} /^hello/ {h[++nh]=$2}
       function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                                       return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
       END { ms = med(s, ns); mh = med(h, nh); printf "\nMedian /search %.0f req/s, /hello %.0f req/s: ratio %.2f\n", ms, mh, ms / mh }' "$OUT/results.txt"
  echo
  echo "Polls during the runs (fetch + parse + store + publish, wall time):"
  grep -ho "poll stored .*" "$OUT"/service-*.log | sed 's/^/- /' | head -n 20
} | tee "$OUT/report.md"
echo "bench events: results in $OUT"
