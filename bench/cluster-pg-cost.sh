#!/usr/bin/env bash
# What one more cluster instance costs PostgreSQL, measured on a throwaway cluster with pgbench (the
# numbers behind README's estimate of how many instances one PostgreSQL can feed): a follower's load of
# one commit (the service's own queries, REPEATABLE READ, over a table of --rows events of which 3 %
# changed in the last commit), a follower's idle check (the leader-lock queries and the change number),
# a notifying commit with no listener and with --listeners idle LISTEN sessions, and the memory (PSS) of
# an idle backend. No JVM involved.
#
# Usage: bash bench/cluster-pg-cost.sh [--rows N] [--listeners N]
#   --rows       events in the table (default 100000)
#   --listeners  idle sessions listening on the channel (default 200)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source bench/lib.sh
BENCH_MODE='bench'
ROWS=100000
LISTENERS=200
while [ $# -gt 0 ]; do
  case "$1" in
    --rows) need_value "$@"; ROWS="$2"; shift ;;
    --listeners) need_value "$@"; LISTENERS="$2"; shift ;;
    -h|--help) print_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bench_usage_error "unknown option $1" ;;
  esac
  shift
done
[[ "$ROWS" =~ ^[1-9][0-9]{0,7}$ ]] || bench_usage_error "--rows must be 1 to 99999999, got '$ROWS'"
[[ "$LISTENERS" =~ ^[1-9][0-9]{0,2}$ ]] || bench_usage_error "--listeners must be 1 to 999, got '$LISTENERS'"
checked_args_only && exit 0
CL_PG_PORT="${CL_PG_PORT:-25442}"
CL_PG_MAX_CONNECTIONS=$((LISTENERS + 120))
source bench/cluster-lib.sh
trap cl_cleanup EXIT
cl_require_packages
cl_pg_start
P=("$CL_PG_BIN/psql" -h 127.0.0.1 -p "$CL_PG_PORT" -U postgres -d postgres -qtAX)
PGB=("$CL_PG_BIN/pgbench" -h 127.0.0.1 -p "$CL_PG_PORT" -U postgres -n -c 1)
sessions() { "${P[@]}" -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"; }
# await_sessions N: until at least N client sessions are connected (at most 30 s)
await_sessions() { for _ in $(seq 1 300); do [ "$(sessions)" -ge "$1" ] && return 0; sleep 0.1; done; echo "only $(sessions) sessions" >&2; exit 1; }
avg() { grep -o 'latency average = [0-9.]* ms' | grep -o '[0-9.]*'; }

# the service's schema (store/Migrations.java) with ROWS events: all at change 1, 3 % at change 2
"${P[@]}" >/dev/null <<SQL
CREATE TABLE events (id VARCHAR(36) PRIMARY KEY, base_id VARCHAR(200) NOT NULL, plan_id VARCHAR(200) NOT NULL,
  title TEXT NOT NULL, starts_at VARCHAR(19) NOT NULL, ends_at VARCHAR(19) NOT NULL, min_price DOUBLE PRECISION NOT NULL,
  max_price DOUBLE PRECISION NOT NULL, first_seen VARCHAR(40) NOT NULL, updated_at VARCHAR(40) NOT NULL,
  change_seq BIGINT NOT NULL DEFAULT 0, UNIQUE (base_id, plan_id));
CREATE INDEX events_change_seq ON events (change_seq);
CREATE TABLE change_log (id INTEGER PRIMARY KEY, seq BIGINT NOT NULL, committed_at BIGINT NOT NULL);
INSERT INTO change_log VALUES (1, 2, 0);
INSERT INTO events SELECT gen_random_uuid()::text, 'b' || (i / 10), 'p' || i, 'A title of some forty characters, roughly',
  '2021-06-01T20:00:00', '2021-06-01T22:00:00', 10, 20, '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z', 1
  FROM generate_series(1, $ROWS) i;
UPDATE events SET change_seq = 2 WHERE random() < 0.03;
ANALYZE events;
SQL
changed=$("${P[@]}" -c "SELECT count(*) FROM events WHERE change_seq > 1")
cat >"$CL_DIR/load.sql" <<'SQL'
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT seq, committed_at, CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT) FROM change_log WHERE id = 1;
SELECT id, base_id, plan_id, title, starts_at, ends_at, min_price, max_price FROM events WHERE change_seq > 1;
COMMIT;
SQL
cat >"$CL_DIR/idle.sql" <<'SQL'
SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted AND classid = 1112689491 AND objid = 1 AND objsubid = 2);
SELECT pg_try_advisory_lock(1112689491, 2);
SELECT pg_advisory_unlock(1112689491, 2);
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT seq, committed_at, CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT) FROM change_log WHERE id = 1;
COMMIT;
SQL
echo "BEGIN; SELECT pg_notify('brisk_events_changed', '3'); COMMIT;" >"$CL_DIR/notify.sql"
load=$("${PGB[@]}" -f "$CL_DIR/load.sql" -t 200 postgres 2>&1 | avg)
idle=$("${PGB[@]}" -f "$CL_DIR/idle.sql" -t 2000 postgres 2>&1 | avg)
notify0=$("${PGB[@]}" -f "$CL_DIR/notify.sql" -t 500 postgres 2>&1 | avg)
base=$(sessions)
holders=()
for _ in $(seq 1 "$LISTENERS"); do ( (echo "LISTEN brisk_events_changed;"; sleep 60) | "${P[@]}" >/dev/null ) & holders+=($!); done
await_sessions $((base + LISTENERS))
notifyN=$("${PGB[@]}" -f "$CL_DIR/notify.sql" -t 500 postgres 2>&1 | avg)
pss=$(for p in $(pgrep -u postgres); do awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null; done |
  awk '{s += $1; n++} END {printf "%d processes, %.0f MB in all, %.2f MB each", n, s / 1024, s / 1024 / n}')
for p in "${holders[@]}"; do pkill -P "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true; done
{
  echo "# PostgreSQL's cost per cluster instance ($(date -u +%FT%TZ))"
  describe_machine 2>/dev/null | grep -v '^jdk' || true
  echo "PostgreSQL: $("$CL_PG_BIN/postgres" --version); fsync off; one pgbench client, round trips included"
  echo "- a follower's load of one commit ($changed of $ROWS rows changed): $load ms"
  echo "- a follower's idle check (lock queries + change number): $idle ms"
  echo "- a notifying commit: $notify0 ms with no listener, $notifyN ms with $LISTENERS idle listeners"
  echo "- memory with $LISTENERS idle sessions: $pss (PSS)"
}
