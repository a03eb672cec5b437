#!/usr/bin/env bash
# The engine matrix: NIO + event-loop dispatch, NIO + virtual-thread dispatch, blocking + virtual threads,
# blocking + platform threads, on the example app: hello, a CPU-bound handler, connection churn, a handler
# that sleeps 20 ms under 1,000 connections; memory per idle keep-alive connection; the first seconds of a
# fresh server. Called by ./brisk bench --engines (which sets JAVA and builds first). See README "Benchmarks".
#
# Usage: ./brisk bench --engines [--quick] [--rounds N] [--duration S] [--warmup S] [--configs a,b]
#                                [--cpu-work N] [--idle N] [--idle-peers a,b]
#   --quick     a short check: 1 round of 4 s per measurement
#   --rounds    rounds (default 3)
#   --duration  seconds per measurement (default 10)
#   --warmup    seconds of warm-up per workload and server start (default 5)
#   --configs   of nio-event-loop,nio-virtual-threads,blocking-virtual,blocking-platform (default: these
#               four), and uring (io=uring-only, handlers on the loop; experimental, not in the default)
#   --cpu-work  units of /cpu work per request, about 2.85 us each (default 200)
#   --idle      idle keep-alive connections for the memory measurement (default 10000)
#   --idle-peers harness servers (dev.brisk.bench.ServerMain) measured with the same idle connections, for
#               comparison (default: helidon, a virtual thread per connection like blocking-virtual; none: no peer)
# Output: bench/results/<timestamp>-engines/.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source bench/lib.sh
BENCH_MODE='bench --engines'

ARGS="$*"
QUICK=0 ROUNDS="" DURATION="" WARMUP="" CONFIGS="" CPU_WORK=200 IDLE_N=10000 IDLE_PEERS=helidon
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --rounds) need_value "$@"; ROUNDS="$2"; shift ;;
    --duration) need_value "$@"; DURATION="$2"; shift ;;
    --warmup) need_value "$@"; WARMUP="$2"; shift ;;
    --configs) need_value "$@"; CONFIGS="$2"; shift ;;
    --cpu-work) need_value "$@"; CPU_WORK="$2"; shift ;;
    --idle) need_value "$@"; IDLE_N="$2"; shift ;;
    --idle-peers) need_value "$@"; IDLE_PEERS="$2"; shift ;;
    -h|--help) print_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bench_usage_error "unknown option $1" ;;
  esac
  shift
done
checked_args_only && exit 0
: "${JAVA:?JAVA must point to a JDK 21+ java}"
JDK_BIN="$(dirname "$JAVA")"
if [ "$QUICK" = 1 ]; then
  : "${ROUNDS:=1}" "${DURATION:=4}" "${WARMUP:=2}"; IDLE_OPEN=20
else
  : "${ROUNDS:=3}" "${DURATION:=10}" "${WARMUP:=5}"; IDLE_OPEN=30
fi
: "${CONFIGS:=nio-event-loop,nio-virtual-threads,blocking-virtual,blocking-platform}"
PROBE_SECONDS=5 PROBE_CONNS=50

# configuration -> the server's environment (every other BRISK_* variable is cleared below)
config_env() {
  case "$1" in
    nio-event-loop) echo "BRISK_IO=nio BRISK_DISPATCH=event-loop" ;;
    nio-virtual-threads) echo "BRISK_IO=nio BRISK_DISPATCH=virtual-threads" ;;
    blocking-virtual) echo "BRISK_IO=blocking BRISK_THREADS=virtual" ;;
    blocking-platform) echo "BRISK_IO=blocking BRISK_THREADS=platform" ;;
    uring) echo "BRISK_IO=uring-only BRISK_DISPATCH=event-loop" ;;
    *) echo "bench engines: unknown configuration $1" >&2; exit 2 ;;
  esac
}
# the label of a configuration in one session: platform threads are labelled with their count
label_for() { # config threads
  if [ "$1" = blocking-platform ]; then echo "blocking-platform-$2"; else echo "$1"; fi
}
threads_env() { # config threads: the platform thread count, for platform threads only
  if [ "$1" = blocking-platform ]; then echo " BRISK_PLATFORM_THREADS=$2"; fi
}
for c in $(echo "$CONFIGS" | tr ',' ' '); do config_env "$c" >/dev/null; done

# name|path|connections|Connection: close|errors are a result (else a run with errors is invalid)|title
WORKLOADS="hello|/hello|50|0|0
cpu|/cpu?work=$CPU_WORK|50|0|0
churn|/hello|50|1|1
sleep|/sleep?ms=20|1000|0|1"
workload_title() {
  case "$1" in
    hello) echo 'hello: `GET /hello`, 50 keep-alive connections (pure overhead)' ;;
    cpu) echo "cpu: \`GET /cpu?work=$CPU_WORK\` (about $((CPU_WORK * 285 / 100)) µs of CPU per request), 50 keep-alive connections" ;;
    churn) echo 'churn: `GET /hello` with `Connection: close` (a new connection per request), 50 at a time' ;;
    sleep) echo 'sleep: `GET /sleep?ms=20` (the handler blocks its thread 20 ms), 1,000 keep-alive connections' ;;
  esac
}

require_tool wrk wrk
[ -x "$JDK_BIN/jcmd" ] || { echo "bench engines: $JDK_BIN/jcmd is missing (a full JDK is needed)" >&2; exit 1; }

pin_cores # server on core 0, every client on core 1

# 10,000 idle connections need 10,000 descriptors in the server and as many in the client
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
NOFILE=$(ulimit -n)
IDLE_NOTE=""
if [ "$NOFILE" != unlimited ] && [ "$NOFILE" -lt $((IDLE_N + 1100)) ]; then
  IDLE_NOTE="open files limited to $NOFILE (ulimit -n): idle connections lowered from $IDLE_N"
  IDLE_N=$((NOFILE - 1100)); IDLE_NOTE="$IDLE_NOTE to $IDLE_N"
  echo "bench engines: $IDLE_NOTE" >&2
fi

IDLE_FMT=$(echo "$IDLE_N" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta') # 10,000

# the server's options are exactly those of its label
for v in $(compgen -e | grep '^BRISK_' || true); do [ "$v" = BRISK_JAVA_OPTS ] || unset "$v"; done

JVM_FLAGS=("${BENCH_JVM_FLAGS[@]}")
EX_CP="brisk-examples/target/brisk-examples.jar:brisk-examples/target/lib/*"
BENCH_CP="brisk-bench/target/brisk-bench.jar:brisk-bench/target/lib/*"
# not the harness's 18080: another benchmark may be running on this machine; never share its port
PORT="${BENCH_ENGINES_PORT:-18180}"
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  echo "bench engines: port $PORT is already in use (set BENCH_ENGINES_PORT)" >&2; exit 1
fi
OUT="bench/results/$(date -u +%Y%m%dT%H%M%SZ)-engines"
mkdir -p "$OUT/raw"
CSV="$OUT/results.csv"
echo "round,config,workload,connections,valid,rps,requests,non2xx,connect_err,read_err,write_err,timeout_err,p50_ms,p99_ms,max_ms,cpu_us_per_req,rss_mb,threads,accept_queue_mid,accept_queue_end" > "$CSV"
echo "round,config,connections,ok,status503,other_status,failed,unanswered,open_ms,held,closed_by_server,heap_before_kb,heap_after_kb,rss_before_kb,rss_after_kb,threads_before,threads_after" > "$OUT/idle.csv"
echo "round,config,probe_ready_ms,port_open_ms,first_response_ms,second,ok,errors,p50_ms,p99_ms,max_ms,unanswered" > "$OUT/warmup.csv"
: > "$OUT/workloads.txt"
while IFS='|' read -r name _ _ _ tolerant; do echo "$name|$(workload_title "$name")|$tolerant" >> "$OUT/workloads.txt"; done <<< "$WORKLOADS"

SERVER_PID="" CLIENT_PID=""
stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 150); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "bench engines: server $SERVER_PID still running 15 s after SIGTERM: killed" | tee -a "$OUT/anomalies.txt" >&2
      kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
  fi
  [ -n "$SERVER_PID" ] && { wait "$SERVER_PID" 2>/dev/null || true; }
  SERVER_PID=""
}
cleanup() {
  [ -n "$CLIENT_PID" ] && kill "$CLIENT_PID" 2>/dev/null || true
  stop_server
}
trap cleanup EXIT INT TERM

# start_server label "ENV=..." log: in the background, pinned; SERVER_PID is the JVM (env and taskset exec)
start_server() {
  local label="$1" envs="$2" log="$3"
  echo "env: $envs" > "$log"
  # shellcheck disable=SC2086
  env $envs BRISK_HOST=127.0.0.1 BRISK_PORT=$PORT "${PIN_SERVER[@]}" "$JAVA" "${JVM_FLAGS[@]}" -cp "$EX_CP" \
    dev.brisk.examples.ExampleApp >> "$log" 2>&1 &
  SERVER_PID=$!
}
# start_peer name log: a harness peer (its /hello), in the background, pinned, on PORT (statistics on PORT + 1)
start_peer() {
  echo "peer: $1 (dev.brisk.bench.ServerMain)" > "$2"
  "${PIN_SERVER[@]}" "$JAVA" "${JVM_FLAGS[@]}" -cp "$BENCH_CP" dev.brisk.bench.ServerMain "$1" "$PORT" $((PORT + 1)) >> "$2" 2>&1 &
  SERVER_PID=$!
}
wait_ready() { # log: true once /hello answers (30 s at most)
  for _ in $(seq 1 300); do
    curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/hello" && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "bench engines: the server did not answer; see $1" | tee -a "$OUT/anomalies.txt" >&2
  return 1
}
check_alive() { # label context
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "bench engines: $1 died during $2; see its log" | tee -a "$OUT/anomalies.txt" >&2
    return 1
  fi
}
ticks() { awk '{print $14 + $15}' "/proc/$SERVER_PID/stat" 2>/dev/null || echo 0; }
status_kb() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$SERVER_PID/status" 2>/dev/null || echo 0; }
heap_used_kb() { # after a full GC
  timeout 60 "$JDK_BIN/jcmd" "$SERVER_PID" GC.run >/dev/null 2>&1 || true
  timeout 60 "$JDK_BIN/jcmd" "$SERVER_PID" GC.heap_info 2>/dev/null | sed -n 's/.*heap .* used \([0-9]*\)K.*/\1/p' | head -n 1
}
accept_queue() { ss -Hltn "( sport = :$PORT )" 2>/dev/null | awk '{print $2; exit}'; } # the listen socket's Recv-Q
# unlike lib.sh's: a name preceded by a space, and negative numbers (the clients' lines)
field() { sed -n "s/.*[ ]$1=\([-0-9.]*\).*/\1/p" "$2" | head -n 1; }

run_wrk() { # path connections close seconds rawfile
  BENCH_CLOSE="$3" "${PIN_CLIENT[@]}" wrk -t1 -c"$2" -d"$4s" --timeout 5s --latency -s bench/wrk/scenario.lua \
    "http://127.0.0.1:$PORT$1" < /dev/null > "$5" 2>&1 || true
}

measure() { # round label workload-line
  local round="$1" label="$2" name path conns close tolerant
  IFS='|' read -r name path conns close tolerant <<< "$3"
  local raw="$OUT/raw/r$round-$label-$name.txt" t0 t1 wrk_pid q_mid q_end half=$((DURATION / 2))
  t0=$(ticks)
  run_wrk "$path" "$conns" "$close" "$DURATION" "$raw" &
  wrk_pid=$!
  # connections the server has not accepted yet: wrk never counts a request that gets no answer
  sleep "$half"; q_mid=$(accept_queue)
  sleep $((DURATION - half > 1 ? DURATION - half - 1 : 0)); q_end=$(accept_queue)
  wait "$wrk_pid" || true
  t1=$(ticks)
  local rss threads requests dur non2xx errs=0 e
  rss=$(status_kb VmRSS); threads=$(status_kb Threads)
  requests=$(field requests "$raw"); requests=${requests:-0}
  dur=$(field duration_us "$raw"); dur=${dur:-1}
  non2xx=$(field status "$raw"); non2xx=${non2xx:-0}
  for e in connect read write status timeout; do v=$(field "$e" "$raw"); errs=$((errs + ${v:-1})); done
  local valid=no
  if [ "$requests" -gt 0 ] && { [ "$tolerant" = 1 ] || [ "$errs" = 0 ]; }; then valid=yes; fi
  awk -v r="$round" -v l="$label" -v w="$name" -v c="$conns" -v ok="$valid" -v n="$requests" -v d="$dur" -v bad="$non2xx" \
      -v ce="$(field connect "$raw")" -v re="$(field read "$raw")" -v we="$(field write "$raw")" -v te="$(field timeout "$raw")" \
      -v p50="$(field p50_us "$raw")" -v p99="$(field p99_us "$raw")" -v mx="$(field max_us "$raw")" \
      -v t0="$t0" -v t1="$t1" -v hz="$(getconf CLK_TCK)" -v rss="${rss:-0}" -v th="${threads:-0}" -v qm="$q_mid" -v qe="$q_end" \
      'BEGIN { n += 0; printf "%s,%s,%s,%s,%s,%.0f,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.2f,%.0f,%d,%s,%s\n", r, l, w, c, ok,
               (n - bad) / (d / 1e6), n, bad, ce, re, we, te, p50 / 1000, p99 / 1000, mx / 1000,
               n ? (t1 - t0) * 1e6 / hz / n : 0, rss / 1024, th, qm, qe }' >> "$CSV"
  printf '  round %d %-24s %-6s %s\n' "$round" "$label" "$name" \
    "$(tail -n 1 "$CSV" | awk -F, '{printf "%8s req/s  p99 %8s ms  %7s CPU us/req  errors c/r/w/t/non2xx %s/%s/%s/%s/%s  threads %s  accept queue %s/%s  valid=%s",
       $6, $14, $16, $9, $10, $11, $12, $8, $18, $19, $20, $5}')"
}

# A fresh server with the warm-up probe started at once, then the per-workload warm-up and measurements.
session_main() { # round config
  local round="$1" config="$2" label envs started
  label=$(label_for "$config" 200)
  envs="$(config_env "$config")$(threads_env "$config" 200)"
  started=$(date +%s%3N)
  start_server "$label" "$envs" "$OUT/raw/server-r$round-$label-main.log"
  local raw="$OUT/raw/r$round-$label-warmup.txt"
  timeout $((PROBE_SECONDS + 90)) "${PIN_CLIENT[@]}" "$JAVA" -cp "$BENCH_CP" dev.brisk.bench.WarmupProbe \
    "$PORT" "$started" "$PROBE_CONNS" "$PROBE_SECONDS" /hello > "$raw" 2>&1 || true
  awk -v r="$round" -v l="$label" '
    /^WARMUP / { for (i = 2; i <= NF; i++) { split($i, kv, "="); w[kv[1]] = kv[2] } }
    /^SECOND / { for (i = 2; i <= NF; i++) { split($i, kv, "="); s[kv[1]] = kv[2] }
                 line[++n] = s["n"] "," s["ok"] "," s["errors"] "," s["p50_ms"] "," s["p99_ms"] "," s["max_ms"] }
    /^WARMUP_END / { split($2, kv, "="); un = kv[2] }
    END { for (i = 1; i <= n; i++) printf "%s,%s,%s,%s,%s,%s,%s\n", r, l, w["probe_ready_ms"], w["port_open_ms"], w["first_response_ms"], line[i], un + 0 }' \
    "$raw" >> "$OUT/warmup.csv"
  printf '  round %d %-24s warm-up probe: %s\n' "$round" "$label" \
    "$(awk -F, -v l="$label" -v r="$round" '$1 == r && $2 == l {ok = ok " " $7; err += $8} $1 == r && $2 == l && $6 == 1 {ttfr = $5}
       END {printf "first response %s ms, per second%s, errors %d", ttfr, ok, err}' "$OUT/warmup.csv")"
  check_alive "$label" "the warm-up probe" || { stop_server; return; }
  wait_ready "$OUT/raw/server-r$round-$label-main.log" || { stop_server; return; }
  local line
  while IFS= read -r line; do
    IFS='|' read -r name path conns close _ <<< "$line"
    [ "$name" = sleep ] && continue
    run_wrk "$path" "$conns" "$close" "$WARMUP" /dev/null
  done <<< "$WORKLOADS"
  while IFS= read -r line; do
    [ "${line%%|*}" = sleep ] && continue
    measure "$round" "$label" "$line"
    check_alive "$label" "${line%%|*}" || break
  done <<< "$WORKLOADS"
  stop_server
}

# The 20 ms handler at 1,000 connections; platform threads twice: 1,000 threads, and the default 200.
session_sleep() { # round config
  local round="$1" config="$2" threads label envs line
  line=$(echo "$WORKLOADS" | grep '^sleep|')
  for threads in $([ "$config" = blocking-platform ] && echo "1000 200" || echo "-"); do
    label=$(label_for "$config" "$threads")
    envs="$(config_env "$config")$(threads_env "$config" "$threads")"
    start_server "$label" "$envs" "$OUT/raw/server-r$round-$label-sleep.log"
    if wait_ready "$OUT/raw/server-r$round-$label-sleep.log"; then
      run_wrk "/sleep?ms=20" 1000 0 "$WARMUP" /dev/null
      measure "$round" "$label" "$line"
      check_alive "$label" sleep || true
    fi
    stop_server
  done
}

# Memory per idle connection: heap (after a full GC) and RSS, before and while IDLE_N connections are held.
session_idle() { # round config
  local round="$1" config="$2" threads label envs
  for threads in $([ "$config" = blocking-platform ] && echo "10000 200" || echo "-"); do
    label=$(label_for "$config" "$threads")
    envs=""
    [[ $config == peer-* ]] || envs="$(config_env "$config") BRISK_MAX_CONNECTIONS=20000 BRISK_IDLE_TIMEOUT=10m$(threads_env "$config" "$threads")"
    local log="$OUT/raw/server-r$round-$label-idle.log" raw="$OUT/raw/r$round-$label-idle.txt"
    if [[ $config == peer-* ]]; then start_peer "${config#peer-}" "$log"; else start_server "$label" "$envs" "$log"; fi
    if ! wait_ready "$log"; then stop_server; continue; fi
    run_wrk /hello 50 0 2 /dev/null # the request path loaded and compiled before the baseline
    sleep 1
    local heap0 rss0 th0 heap1 rss1 th1 fifo
    heap0=$(heap_used_kb); rss0=$(status_kb VmRSS); th0=$(status_kb Threads)
    fifo=$(mktemp -u); mkfifo "$fifo"
    timeout $((IDLE_OPEN + 180)) "${PIN_CLIENT[@]}" "$JAVA" -cp "$BENCH_CP" dev.brisk.bench.IdleConnections \
      "$PORT" "$IDLE_N" 1000 "$IDLE_OPEN" 120 < "$fifo" > "$raw" 2>&1 &
    CLIENT_PID=$!
    exec 4> "$fifo"
    for _ in $(seq 1 $(((IDLE_OPEN + 30) * 10))); do
      grep -q '^HOLDING' "$raw" 2>/dev/null && break
      kill -0 "$CLIENT_PID" 2>/dev/null || break
      sleep 0.1
    done
    sleep 2
    if grep -q '^HOLDING' "$raw" && kill -0 "$SERVER_PID" 2>/dev/null; then
      heap1=$(heap_used_kb); rss1=$(status_kb VmRSS); th1=$(status_kb Threads)
    else
      echo "bench engines: round $round $label: the idle client or the server failed; see $raw" | tee -a "$OUT/anomalies.txt" >&2
      heap1=""; rss1=""; th1=""
    fi
    exec 4>&-
    wait "$CLIENT_PID" 2>/dev/null || true
    CLIENT_PID=""
    rm -f "$fifo"
    awk -v r="$round" -v l="$label" -v n="$IDLE_N" -v h0="$heap0" -v h1="$heap1" -v r0="$rss0" -v r1="$rss1" \
        -v t0="$th0" -v t1="$th1" '
      /^IDLE / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
      /^HELD / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
      END { printf "%s,%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%s,%s,%s,%s,%s,%s\n", r, l, n, v["ok"], v["status503"], v["other_status"],
              v["failed"], v["unanswered"], v["elapsed_ms"], v["ok"], v["closed_by_server"], h0, h1, r0, r1, t0, t1 }' \
      "$raw" >> "$OUT/idle.csv"
    printf '  round %d %-24s idle: %s\n' "$round" "$label" "$(tail -n 1 "$OUT/idle.csv" | awk -F, '{
      printf "held %s of %s (503: %s, failed: %s, unanswered: %s) in %.1f s; heap %s -> %s KiB, RSS %s -> %s KiB, threads %s -> %s",
      $4, $3, $5, $7, $8, $9 / 1000, $12, $13, $14, $15, $16, $17}')"
    stop_server
  done
}

{
  describe_machine
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "wrk: $(wrk -v 2>&1 | head -n 1)"
  echo "server: the example app (dev.brisk.examples.ExampleApp), jvm flags ${JVM_FLAGS[*]}"
  echo "pinning: server '${PIN_SERVER[*]:-none}', clients '${PIN_CLIENT[*]:-none}' (wrk -t1, WarmupProbe, IdleConnections)"
  echo "rounds: $ROUNDS, duration: ${DURATION}s per measurement, warm-up: ${WARMUP}s per workload after each server start"
  for c in $(echo "$CONFIGS" | tr ',' ' '); do echo "config $c: $(config_env "$c")"; done
  echo "idle connections: $IDLE_N (open files: $NOFILE)${IDLE_NOTE:+; $IDLE_NOTE}; peers measured idle: $IDLE_PEERS"
  echo "command: ./brisk bench --engines $ARGS"
} > "$OUT/environment.txt"
cat "$OUT/environment.txt"

cat > "$OUT/notes.md" <<NOTES
Method. The server (the example app) is pinned to core 0 and every client to core 1; each configuration
runs in its own JVM with the harness's flags. Configurations alternate within each round (in the order
above, $ROUNDS round(s)); each server start is followed by ${WARMUP} s of every workload it is measured on
before the ${DURATION} s measurements (\`wrk -t1 --timeout 5s\`, \`bench/wrk/scenario.lua\`). Figures are medians
over rounds, with min–max in brackets where they differ. *req/s* counts responses other than 4xx/5xx;
*CPU µs/req* is the server process's user + system time (\`/proc/<pid>/stat\`) over the run divided by the
responses; *server threads* is the JVM's thread count at the end of the run. On hello and cpu a run with
any error is invalid and left out; on churn and sleep the errors are part of the result and have columns.

- \`nio-event-loop\` runs \`/cpu\` on its one selector thread, but \`/sleep\` is declared with
  \`.dispatch(VIRTUAL_THREADS)\` in the example app, so on NIO it always runs on a virtual thread:
  nio-event-loop and nio-virtual-threads differ only in dispatch of the other routes.
- The blocking engine ignores \`dispatch\`: each handler runs on its connection's thread.
- \`blocking-platform-N\`: \`BRISK_THREADS=platform BRISK_PLATFORM_THREADS=N\` (200 is the default). At 1,000
  connections the sleep workload is measured with 1,000 threads and with the default 200 (which can serve
  only 200 connections at once: the others wait in the backlog, and one accepted connection at a time
  waits \`connection-wait-timeout\` (1 s) for a thread before a \`503\`).
- wrk counts completed requests only. Its *timeout* is a response that came after more than 5 s (and is
  left out of the latency figures); a request that is never answered is counted nowhere. So each run
  also samples the listen socket's accept queue (\`ss\`, Recv-Q) half-way and 1 s before the end:
  *accept queue* is how many connections were still waiting for the server to accept them.
- Idle memory: a fresh server gets 2 s of \`/hello\` (so the request path is loaded and compiled), then a
  full GC (\`jcmd GC.run\`) and heap used (\`GC.heap_info\`) and RSS (\`VmRSS\`) are read; \`IdleConnections\`
  (one thread, non-blocking) then opens $IDLE_FMT keep-alive connections, 1,000 at most being opened at a
  time, sends one \`GET /hello\` on each, reads the answer and holds the answered ones idle; 2 s later the
  same is read again. Per connection = (held − baseline) ÷ connections held. The heap is pre-touched
  (\`-Xms = -Xmx\`, \`AlwaysPreTouch\`), so RSS growth is memory *outside* the Java heap (thread stacks,
  native buffers, metadata): add the two. Server options for this test: \`BRISK_MAX_CONNECTIONS=20000\`,
  \`BRISK_IDLE_TIMEOUT=10m\`; platform threads with 10,000 threads and with the default 200 (opening stops
  after ${IDLE_OPEN} s: *unanswered* connections were still waiting then; its per-connection figures are
  over the connections it held, which are all it could take). \`peer-<name>\` is a harness server
  (\`dev.brisk.bench.ServerMain <name>\`, the peers' own set-up as in \`./brisk bench\`) measured the same way,
  with its own defaults (\`--idle-peers\`).
- Warm-up: the server process and \`WarmupProbe\` start together; the probe polls the port every 2 ms,
  then keeps ${PROBE_CONNS} keep-alive connections busy with \`GET /hello\` for ${PROBE_SECONDS} s (one request in flight
  on each) and counts per second (from the moment the port accepted) responses, errors (non-2xx,
  refused or closed connections) and latency. *port open* and *first response* are ms after the
  server process was started (JVM start-up included); *stuck > 1 s*: requests still unanswered after a
  second when the probe stopped. The JIT compiles on the server's core during this test, as it would.
NOTES

configs=$(echo "$CONFIGS" | tr ',' ' ')
idle_peers=""
[ "$IDLE_PEERS" = none ] || idle_peers=$(echo "$IDLE_PEERS" | tr ',' '\n' | sed 's/^/peer-/' | tr '\n' ' ')
for round in $(seq 1 "$ROUNDS"); do
  echo "round $round/$ROUNDS: warm-up probe, hello, cpu, churn"
  for c in $configs; do session_main "$round" "$c"; done
  echo "round $round/$ROUNDS: sleep 20 ms at 1,000 connections"
  for c in $configs; do session_sleep "$round" "$c"; done
  echo "round $round/$ROUNDS: $IDLE_FMT idle connections"
  for c in $configs $idle_peers; do session_idle "$round" "$c"; done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/environment.txt"

# anything the servers logged at WARNING or above, or a stack trace, is worth a look
PROBLEMS='WARNING|SEVERE|ERROR|Exception|OutOfMemory|Error:'
for f in "$OUT"/raw/server-*.log; do
  n=$(grep -c -E "$PROBLEMS" "$f" || true)
  [ "${n:-0}" -gt 0 ] && echo "$(basename "$f"): $n warning/error line(s), first: $(grep -m1 -E "$PROBLEMS" "$f")" >> "$OUT/anomalies.txt"
done
if [ -s "$OUT/anomalies.txt" ]; then
  { echo; echo "Anomalies (also in anomalies.txt):"; echo; sed 's/^/- /' "$OUT/anomalies.txt"; } >> "$OUT/notes.md"
fi

"$JAVA" -cp "$BENCH_CP" dev.brisk.bench.EnginesReport "$OUT"
echo "bench engines: report in $OUT/report.md"
