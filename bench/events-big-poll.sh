#!/usr/bin/env bash
# Usage: JAVA=/path/to/java bench/events-big-poll.sh [--stored N]
#
# One poll of a large feed at a small heap (issue 14): N events stored (default 600,000, written by
# bench/EventsStoreLoad.java from the simulator's catalogue), the simulator serving the same catalogue
# and more (about N / 0.85 records, one zone each, of which some are offline), and the event service at
# -Xmx512m polling it once. Before the poll kept only the records that differ from the catalogue, this
# poll ran out of heap; the report says how the poll went, its full GCs and whether the service lived.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source bench/lib.sh
bench_usage_error() { printf 'events-big-poll: %s; see bench/events-big-poll.sh --help\n' "$1" >&2; exit 2; }

STORED=600000
while [ $# -gt 0 ]; do
  case "$1" in
    --stored) need_value "$@"; STORED="$2"; shift ;;
    -h|--help) print_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bench_usage_error "unknown option $1" ;;
  esac
  shift
done
[[ "$STORED" =~ ^[1-9][0-9]{0,7}$ ]] || bench_usage_error "--stored must be a whole number from 1 to 99999999, got $STORED"
checked_args_only && exit 0
: "${JAVA:?JAVA must point to a JDK 21+ java}"
EV_CP="brisk-events/target/brisk-events.jar:brisk-events/target/lib/*"
[ -f brisk-events/target/brisk-events.jar ] || { echo "bench: build brisk-events first (./mvnw -B -ntp -pl brisk-events -am -DskipTests package)" >&2; exit 1; }

OUT="bench/results/events-big-poll-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
DATA="$(mktemp -d)"
PORT="${BENCH_POLL_PORT:-18680}" METRICS=$((PORT + 1)) SIM_PORT=$((PORT + 2))
RECORDS=$(( STORED * 100 / 85 + 100 )) # as EventsStoreLoad asks the simulator for
pin_cores
sim="" svc=""
cleanup() { [ -n "$svc" ] && stop_pid "$svc"; [ -n "$sim" ] && stop_pid "$sim"; rm -rf "$DATA"; }
trap cleanup EXIT
describe_machine >"$OUT/environment.txt"

db="$DATA/events.db"
"${PIN_CLIENT[@]}" "$JAVA" -Xmx4g --enable-native-access=ALL-UNNAMED -cp "$EV_CP" bench/EventsStoreLoad.java "$STORED" \
  "jdbc:sqlite:$db" | tee "$OUT/load.txt"
SIM_PORT=$SIM_PORT SIM_EVENTS=$RECORDS SIM_ZONES=1 SIM_FAILURE_RATE=0 SIM_MALFORMED_RATE=0 SIM_BAD_RECORD_RATE=0 \
  SIM_LATENCY=PT0S SIM_LATENCY_JITTER=PT0S "${PIN_CLIENT[@]}" "$JAVA" -Xmx4g -cp "$EV_CP" dev.brisk.events.sim.SimulatorMain \
  >"$OUT/simulator.log" 2>&1 &
sim=$!
wait_http "http://127.0.0.1:$SIM_PORT/health" 600
feed=$(grep -o 'http://[^ ]*' "$OUT/simulator.log" | head -n 1)
BRISK_PORT=$PORT BRISK_METRICS_PORT=$METRICS EVENTS_PROVIDER_URL="$feed" EVENTS_POLL_INTERVAL=PT1H \
  EVENTS_DB_URL="jdbc:sqlite:$db" "${PIN_SERVER[@]}" "$JAVA" -Xms512m -Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError \
  --enable-native-access=ALL-UNNAMED -Xlog:gc:file="$OUT/gc.log" -cp "$EV_CP" dev.brisk.events.EventsMain >"$OUT/service.log" 2>&1 &
svc=$!
# the first poll's line (or the service's end), at most 10 minutes
for _ in $(seq 1 6000); do
  grep -q 'poll .*\(stored\|nothing changed\|failed\)' "$OUT/service.log" && break
  kill -0 "$svc" 2>/dev/null || break
  sleep 0.1
done
{
  echo "stored $STORED, feed of $RECORDS records (one zone each): $(grep -o 'feed: .*' "$OUT/simulator.log" | head -n 1)"
  echo "first poll: $(grep -m1 'poll .*\(stored\|nothing changed\|failed\)' "$OUT/service.log" || echo 'none')"
  echo "full GCs: $(grep -c 'Pause Full' "$OUT/gc.log" || true); heap after the last GC: $(grep -o '[0-9]*M->[0-9]*M([0-9]*M)' "$OUT/gc.log" | tail -n 1)"
  if kill -0 "$svc" 2>/dev/null && ! grep -q OutOfMemoryError "$OUT/service.log"; then
    echo "alive, no OutOfMemoryError"
  else
    echo "FAILED: the service died or ran out of memory (see $OUT/service.log)"
  fi
} | tee "$OUT/report.txt"
