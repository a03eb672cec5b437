#!/usr/bin/env bash
# /search through Debian's nginx over 1, 2 and 3 event service instances in cluster mode (a throwaway
# PostgreSQL, the simulator changing its catalogue every 5 s so the leader commits and the followers
# follow during the load). This machine has two cores: the instances and nginx share core 0, wrk and
# the simulator core 1, so the report gives what it can show, not scaling: server CPU per request (all
# instances together, and nginx's apart) and the follow lag (commit to publication on a follower).
#
# Usage: ./brisk bench --cluster [--duration S] [--warmup S] [--events N]
#   --duration  seconds measured per instance count (default 15)
#   --warmup    seconds of the same load before each measurement (default 10: every JVM warms its own JIT)
#   --events    events in the provider's catalogue (default 5000, 20 zones each)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source bench/lib.sh
BENCH_MODE='bench --cluster'
DURATION=15
WARMUP=10
EVENTS=5000
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) need_value "$@"; DURATION="$2"; shift ;;
    --warmup) need_value "$@"; WARMUP="$2"; shift ;;
    --events) need_value "$@"; EVENTS="$2"; shift ;;
    -h|--help) print_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bench_usage_error "unknown option $1" ;;
  esac
  shift
done
[[ "$DURATION" =~ ^[1-9][0-9]{0,3}$ ]] || bench_usage_error "--duration must be 1 to 9999 seconds, got '$DURATION'"
[[ "$WARMUP" =~ ^[1-9][0-9]{0,3}$ ]] || bench_usage_error "--warmup must be 1 to 9999 seconds, got '$WARMUP'"
[[ "$EVENTS" =~ ^[1-9][0-9]{0,6}$ ]] || bench_usage_error "--events must be 1 to 9999999, got '$EVENTS'"
checked_args_only && exit 0
: "${JAVA:?JAVA must point to a JDK 21+ java}"
require_tool wrk wrk
source bench/cluster-lib.sh
trap cl_cleanup EXIT
cl_require_packages
cl_check_ports 3

OUT="bench/results/cluster-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
WINDOW="/search?starts_at=2021-03-01T00:00:00Z&ends_at=2021-03-04T00:00:00Z"
PIN0=(); PIN1=()
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null 2>&1; then PIN0=(taskset -c 0); PIN1=(taskset -c 1); fi

cl_pg_start
env SIM_PORT="$CL_SIM_PORT" SIM_EVENTS="$EVENTS" SIM_ZONES=20 SIM_CHURN_INTERVAL=PT5S SIM_CHURN_FRACTION=0.05 \
  SIM_FAILURE_RATE=0 SIM_LATENCY=PT0S SIM_MALFORMED_RATE=0 \
  "${PIN1[@]}" "$JAVA" -Xmx1g -cp "$CL_EV_CP" dev.brisk.events.sim.SimulatorMain >"$CL_DIR/simulator.log" 2>&1 &
CL_PIDS+=($!)
wait_http "http://127.0.0.1:$CL_SIM_PORT/health" 60

metric() { curl -s "http://127.0.0.1:$((CL_BASE_METRICS + $1))/metrics" | sed -n "s/^$2{.*} \(.*\)$/\1/p" | head -n 1; }

: >"$OUT/results.txt"
for n in 1 2 3; do
  echo "instances: $n"
  pids=()
  for ((i = 1; i <= n; i++)); do
    env BRISK_PORT=$((CL_BASE_PORT + i)) BRISK_METRICS_PORT=$((CL_BASE_METRICS + i)) \
      EVENTS_PROVIDER_URL="http://127.0.0.1:$CL_SIM_PORT/feed" EVENTS_DB_URL="$CL_DB_URL" EVENTS_CLUSTER=true \
      EVENTS_INSTANCE_ID="events-$i" EVENTS_DATA_DIR="$CL_DIR/data-$i" EVENTS_POLL_INTERVAL=PT2S \
      "${PIN0[@]}" "$JAVA" "${BENCH_JVM_FLAGS[@]}" -Xms256m -Xmx256m -cp "$CL_EV_CP" dev.brisk.events.EventsMain \
      >"$OUT/events-$n-$i.log" 2>&1 &
    pids+=($!); CL_PIDS+=($!); CL_INSTANCE_PID[$i]=$!
  done
  for ((i = 1; i <= n; i++)); do wait_http "http://127.0.0.1:$((CL_BASE_PORT + i))/ready" 60; done
  # every instance serving the database's change number before the load
  for _ in $(seq 1 200); do
    db_seq=$(cl_psql "SELECT seq FROM change_log WHERE id = 1")
    ok=1
    for ((i = 1; i <= n; i++)); do [ "$(cl_json_field sequence "$(cl_ready "$i")")" = "$db_seq" ] || ok=""; done
    [ "$db_seq" != 0 ] && [ -n "$ok" ] && break
    sleep 0.1
  done
  cl_nginx_start "$n"
  wait_http "http://127.0.0.1:$CL_LB_PORT/ready" 30
  # nginx runs on core 0 with the instances: moved there once started (taskset -p on its processes)
  if [ ${#PIN0[@]} -gt 0 ]; then for p in $(pgrep -f "nginx.*$CL_DIR/nginx.conf") $(pgrep -P "$CL_NGINX_PID"); do taskset -pc 0 "$p" >/dev/null; done; fi
  nginx_pids=$(pgrep -f "nginx.*$CL_DIR/nginx.conf" | tr '\n' ' ')$(pgrep -P "$CL_NGINX_PID" | tr '\n' ' ')
  "${PIN1[@]}" wrk -t1 -c32 -d"${WARMUP}s" "http://127.0.0.1:$CL_LB_PORT$WINDOW" >/dev/null # warm-up
  seq0=$(cl_psql "SELECT seq FROM change_log WHERE id = 1")
  cpu0=$(proc_cpu_nanos "${pids[@]}"); ncpu0=$(proc_cpu_nanos $nginx_pids)
  "${PIN1[@]}" wrk -t1 -c32 -d"${DURATION}s" --latency "http://127.0.0.1:$CL_LB_PORT$WINDOW" >"$OUT/wrk-$n.txt"
  cpu1=$(proc_cpu_nanos "${pids[@]}"); ncpu1=$(proc_cpu_nanos $nginx_pids)
  seq1=$(cl_psql "SELECT seq FROM change_log WHERE id = 1")
  lags=""
  for ((i = 1; i <= n; i++)); do
    body="$(cl_ready "$i")"
    [[ "$body" == *'"role":"follower"'* ]] && lags="$lags $(metric "$i" events_cluster_follow_lag_max_seconds)"
  done
  awk -v n="$n" -v cpu=$((cpu1 - cpu0)) -v ncpu=$((ncpu1 - ncpu0)) -v commits=$((seq1 - seq0)) -v lags="${lags:- -}" '
       /Requests\/sec/ {rps=$2} / requests in / {req=$1} /^ +99%/ {p99=$2} /Non-2xx/ {bad=$NF} /Socket errors/ {err=1}
       END {printf "%s %s %s %.1f %.1f %d %s %s\n", n, rps, p99, req ? cpu / req / 1000 : 0, req ? ncpu / req / 1000 : 0,
            commits, (bad || err) ? "INVALID" : "ok", lags}' "$OUT/wrk-$n.txt" | tee -a "$OUT/results.txt"
  kill "$CL_NGINX_PID" 2>/dev/null || true; wait "$CL_NGINX_PID" 2>/dev/null || true
  for p in "${pids[@]}"; do stop_pid "$p"; done
done

{
  echo "# /search through nginx over 1, 2, 3 cluster instances ($(date -u +%FT%TZ))"
  echo
  describe_machine
  echo "Catalogue: $EVENTS events x 20 zones, 5 % churn every 5 s; window $WINDOW; leader polls every 2 s"
  echo "Instances (-Xmx256m each) and nginx (1 worker) on core 0; wrk -t1 -c32 -d${DURATION}s after ${WARMUP}s of warm-up, and the simulator, on core 1"
  echo
  echo "| instances | req/s | p99 | instances' CPU µs/request | nginx CPU µs/request | commits during the run | valid | followers' max follow lag (s) |"
  echo "|---|---|---|---|---|---|---|---|"
  awk '{l=""; for (i = 8; i <= NF; i++) l = l (l ? ", " : "") $i; printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, l}' "$OUT/results.txt"
  echo
  echo "Two cores shared by everything: req/s cannot grow with instances here; CPU per request shows what one"
  echo "more instance costs (its share of polling is nil: only the leader polls; a follower loads each commit's rows)."
} | tee "$OUT/report.md"
echo "bench cluster: results in $OUT"
