#!/usr/bin/env bash
# The cluster's failover under load: three instances (cluster mode, a throwaway PostgreSQL) behind
# Debian's nginx; wrk sends GET /search through nginx while the leader is killed with SIGKILL. Checks:
# no 5xx through nginx beyond the killed instance's in-flight requests (at most the connections wrk
# holds; nginx passes a failed GET to the next instance), a new leader within the bound (the check
# interval after PostgreSQL frees the lock) that polls, nothing committed lost and every survivor at
# the database's change number, serving as many events as it stores. Exit 1 when a check fails.
# Too slow for the default test run (~40 s); ClusterKillTest covers the kill without nginx or load.
#
# Usage: ./brisk bench --cluster-failover [--duration S] [--connections N]
#   --duration     seconds of load (default 15); the leader is killed a third of the way in
#   --connections  wrk connections (default 16)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source bench/lib.sh
BENCH_MODE='bench --cluster-failover'
DURATION=15
CONNECTIONS=16
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) need_value "$@"; DURATION="$2"; shift ;;
    --connections) need_value "$@"; CONNECTIONS="$2"; shift ;;
    -h|--help) print_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bench_usage_error "unknown option $1" ;;
  esac
  shift
done
[[ "$DURATION" =~ ^[1-9][0-9]{0,3}$ ]] && [ "$DURATION" -ge 6 ] || bench_usage_error "--duration must be 6 to 9999 seconds, got '$DURATION'"
[[ "$CONNECTIONS" =~ ^[1-9][0-9]{0,2}$ ]] || bench_usage_error "--connections must be 1 to 999, got '$CONNECTIONS'"
checked_args_only && exit 0
: "${JAVA:?JAVA must point to a JDK 21+ java}"
require_tool wrk wrk
source bench/cluster-lib.sh
trap cl_cleanup EXIT
cl_require_packages
cl_check_ports 3

OUT="bench/results/cluster-failover-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
CHECK_MS=1000   # EVENTS_CLUSTER_CHECK_INTERVAL (the default)
POLL_MS=1000    # EVENTS_POLL_INTERVAL here
BOUND_MS=$((CHECK_MS + POLL_MS + 1000)) # the check interval, then the catch-up and the first poll; 1 s of slack on 2 shared cores
now_ms() { echo $(($(date +%s%N) / 1000000)); }

cl_pg_start
# churn every second: commits keep coming during the kill
cl_sim_start SIM_EVENTS=2000 SIM_ZONES=5 SIM_CHURN_INTERVAL=PT1S SIM_CHURN_FRACTION=0.05 SIM_FAILURE_RATE=0 SIM_LATENCY=PT0S \
  SIM_MALFORMED_RATE=0
for i in 1 2 3; do cl_instance_start "$i" EVENTS_POLL_INTERVAL=PT1S; done
for i in 1 2 3; do wait_http "http://127.0.0.1:$((CL_BASE_PORT + i))/ready" 60; done
cl_nginx_start 3
wait_http "http://127.0.0.1:$CL_LB_PORT/ready" 30
leader=""
for _ in $(seq 1 100); do leader="$(cl_leader 3)"; [ -n "$leader" ] && break; sleep 0.1; done
[ -n "$leader" ] || { echo "cluster: no leader after 10 s" >&2; exit 1; }
for _ in $(seq 1 100); do grep -q "poll 1: .*stored" "$CL_DIR/events-$leader.log" && break; sleep 0.1; done
echo "leader: events-$leader (pid ${CL_INSTANCE_PID[$leader]}); load: wrk -t1 -c$CONNECTIONS -d${DURATION}s through nginx"

URL="http://127.0.0.1:$CL_LB_PORT/search?starts_at=2021-06-01T00:00:00&limit=50"
wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency "$URL" >"$OUT/wrk.txt" 2>&1 &
wrk_pid=$!
sleep $((DURATION / 3)) # the moment of the kill within the load, not a wait for a condition
kill -KILL "${CL_INSTANCE_PID[$leader]}"
killed_at=$(now_ms)
wait "${CL_INSTANCE_PID[$leader]}" 2>/dev/null || true # reaped here: bash would report the kill later
old=$leader
new=""
while [ -z "$new" ] && [ $(($(now_ms) - killed_at)) -lt 10000 ]; do new="$(cl_leader 3)"; [ -z "$new" ] && sleep 0.02; done
takeover_ms=$(($(now_ms) - killed_at))
polled_ms=""
if [ -n "$new" ]; then
  while [ $(($(now_ms) - killed_at)) -lt 10000 ]; do
    if grep -q "poll 1: " "$CL_DIR/events-$new.log"; then polled_ms=$(($(now_ms) - killed_at)); break; fi
    sleep 0.02
  done
fi
wait "$wrk_pid" || true

# convergence: every survivor at the database's change number and serving every stored event
converged=""
for _ in $(seq 1 200); do
  db_seq=$(cl_psql "SELECT seq FROM change_log WHERE id = 1")
  db_count=$(cl_psql "SELECT count(*) FROM events")
  ok=1
  for i in 1 2 3; do
    [ "$i" = "$old" ] && continue
    body="$(cl_ready "$i")"
    stored=$(curl -s "http://127.0.0.1:$((CL_BASE_METRICS + i))/metrics" | sed -n 's/^events_stored \([0-9.E]*\)$/\1/p' | awk '{printf "%d", $1}')
    [ "$(cl_json_field sequence "$body")" = "$db_seq" ] && [ "$stored" = "$db_count" ] || ok=""
  done
  [ -n "$ok" ] && { converged=1; break; }
  sleep 0.05
done

requests=$(awk '/ requests in / {print $1}' "$OUT/wrk.txt")
non2xx=$(awk '/Non-2xx/ {print $NF}' "$OUT/wrk.txt"); non2xx=${non2xx:-0}
errors=$(awk '/Socket errors/ {print}' "$OUT/wrk.txt")
five=$(awk '$1 >= 500' "$CL_DIR/nginx-access.log" | wc -l)
# "$upstream_addr" lists every instance tried, comma-separated: a request passed on has a comma after its first
retried=$(awk '$2 ~ /,$/' "$CL_DIR/nginx-access.log" | wc -l)
cp "$CL_DIR"/events-*.log "$CL_DIR/nginx-access.log" "$OUT/" 2>/dev/null || true
lag=""
for i in 1 2 3; do
  [ "$i" = "$old" ] && continue
  lag="$lag events-$i: last $(cl_json_field lag_ms "$(cl_ready "$i")") ms, max $(curl -s "http://127.0.0.1:$((CL_BASE_METRICS + i))/metrics" | sed -n 's/^events_cluster_follow_lag_max_seconds{.*} \(.*\)$/\1/p') s;"
done
{
  echo "# Cluster failover under load ($(date -u +%FT%TZ))"
  describe_machine
  echo "wrk -t1 -c$CONNECTIONS -d${DURATION}s $URL"
  echo "requests through nginx: $requests; non-2xx seen by wrk: $non2xx; 5xx in nginx's log: $five (bound: $CONNECTIONS in flight); requests nginx passed on to another instance: $retried${errors:+; $errors}"
  echo "leader events-$old SIGKILLed; new leader: events-${new:-none} after $takeover_ms ms (bound $BOUND_MS ms); its first poll logged after ${polled_ms:-never} ms"
  echo "converged: $([ -n "$converged" ] && echo yes || echo NO) (database change ${db_seq:-?}, $db_count events stored; every survivor at that change, serving that many)"
  echo "follow lag:$lag"
} | tee "$OUT/report.md"
status=0
[ "$five" -le "$CONNECTIONS" ] && [ "$non2xx" -le "$CONNECTIONS" ] || { echo "FAIL: more 5xx than requests in flight"; status=1; }
[ -n "$new" ] && [ "$takeover_ms" -le "$BOUND_MS" ] || { echo "FAIL: no new leader within $BOUND_MS ms"; status=1; }
[ -n "$polled_ms" ] || { echo "FAIL: the new leader did not poll"; status=1; }
[ -n "$converged" ] || { echo "FAIL: the survivors did not converge on the database"; status=1; }
echo "cluster failover: results in $OUT"
exit "$status"
