#!/usr/bin/env bash
# ./brisk demo --cluster: the event service as a cluster on this machine. A throwaway PostgreSQL, the
# provider simulator, three instances in cluster mode (one leader polls, two follow) and Debian's nginx
# in front balancing them; prints the URLs and runs until Ctrl-C, then removes everything.
#
# Usage: ./brisk demo --cluster
#   Ports: nginx 28080 (CL_LB_PORT), instances 28181-28183 (CL_BASE_PORT+i), their metrics 29191-29193
#   (CL_BASE_METRICS+i), simulator 28081 (CL_SIM_PORT), PostgreSQL 25432 (CL_PG_PORT). CL_KEEP=1 keeps
#   the logs. Kill the leader (kill -9 <pid>, printed) and watch /ready of the others.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source bench/lib.sh
BENCH_MODE='demo --cluster'
case "${1:-}" in
  -h|--help) print_usage "${BASH_SOURCE[0]}"; exit 0 ;;
  "") ;;
  *) bench_usage_error "unknown option $1" ;;
esac
checked_args_only && exit 0
: "${JAVA:?JAVA must point to a JDK 21+ java}"
source bench/cluster-lib.sh
trap cl_cleanup EXIT
trap 'exit 0' INT TERM

cl_require_packages
cl_check_ports 3
cl_pg_start
echo "PostgreSQL on 127.0.0.1:$CL_PG_PORT ($CL_DB_URL)"
cl_sim_start SIM_EVENTS=2000 SIM_ZONES=5 SIM_CHURN_INTERVAL=PT10S
for i in 1 2 3; do cl_instance_start "$i" EVENTS_POLL_INTERVAL=PT5S; done
for i in 1 2 3; do wait_http "http://127.0.0.1:$((CL_BASE_PORT + i))/ready" 60; done
cl_nginx_start 3
wait_http "http://127.0.0.1:$CL_LB_PORT/ready" 30
leader=""
for _ in $(seq 1 100); do leader="$(cl_leader 3)"; [ -n "$leader" ] && break; sleep 0.1; done
cat <<TEXT

Brisk event search cluster (logs in $CL_DIR):
  through nginx   http://localhost:$CL_LB_PORT/search?starts_at=2021-06-01T00:00:00&limit=5
                  http://localhost:$CL_LB_PORT/dashboard
TEXT
for i in 1 2 3; do
  echo "  events-$i        http://localhost:$((CL_BASE_PORT + i))/ready  (pid ${CL_INSTANCE_PID[$i]}, metrics http://localhost:$((CL_BASE_METRICS + i))/metrics)$([ "$i" = "$leader" ] && echo '  <- leader')"
done
cat <<TEXT
  simulator       http://localhost:$CL_SIM_PORT/feed
  PostgreSQL      psql -h 127.0.0.1 -p $CL_PG_PORT -U postgres  (SELECT * FROM change_log;)
Try: kill -9 ${CL_INSTANCE_PID[${leader:-1}]} (the leader), then curl the others' /ready. Stop with Ctrl-C.
TEXT
wait "$CL_NGINX_PID"
