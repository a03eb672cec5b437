#!/usr/bin/env bash
# Hostile request bodies: the example app in a small heap, hit at once with large uploads held whole,
# medium ones and many slow ones (bench/hostile/HostileBodies.java), while GET /hello is timed on a
# connection of its own by a prober process (at a higher priority than the load generator). Prints
# whether the server ran out of memory, the slowest /hello, the statuses per group, the request-body
# memory reserved after the load, and the heap after it.
# Called by ./brisk bench --hostile-bodies (which sets JAVA and builds first); see README "Request bodies".
#
# Usage: ./brisk bench --hostile-bodies [--io nio|blocking|uring] [--heap SIZE] [--spool]
#                                       [--big N] [--mid N] [--slow N] [--slow-rate B/s] [--min-body-rate B/s]
#                                       [--bursts N]
#   --io      the engine (default nio; blocking runs a virtual thread per connection; uring: io_uring)
#   --heap    the server's -Xmx (default 256m); body-memory-budget is its default, a quarter of it
#   --spool   keep spooling on (bodies over 1 MiB go to temporary files); by default it is off, so
#             every body is held in memory and only the memory budget stands between them and the heap
#   --big N   uploads of 10 MiB (default 60), --mid N of 1 MiB (default 200), --slow N of 32 KiB sent at
#             4 KiB/s (default 1000); all to POST /upload (16 MiB at most), all at once
#   --slow-rate B/s  the slow uploads' pace (default 4096: above the server's min-body-rate; below it,
#             e.g. 100, they are answered 408 at the end of rate-grace)
#   --min-body-rate B/s  the server's min-body-rate (default: its own default, 240; 0: none)
#   --bursts N  the whole load N times, one after another, on the same server (default 1); each burst's
#             /hello figures are printed apart, so a first burst that meets code the JIT has not compiled
#             yet can be told from the later ones (the memory checks are made after the last)
# Extra JVM flags for the server (after the script's own): BRISK_JAVA_OPTS="-Xlog:gc:file=gc.log ...".
# Output: bench/results/hostile-bodies-<timestamp>/ (summary.txt, client.txt, metrics.txt, heap.txt, server.log).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source bench/lib.sh
BENCH_MODE='bench --hostile-bodies'

IO=nio
HEAP=256m
SPOOL=0
BIG=60
MID=200
SLOW=1000
SLOW_RATE=4096
MIN_BODY_RATE=
BURSTS=1
while [ $# -gt 0 ]; do
  case "$1" in
    --io) need_value "$@"; IO="$2"; shift ;;
    --heap) need_value "$@"; HEAP="$2"; shift ;;
    --spool) SPOOL=1 ;;
    --big) need_value "$@"; BIG="$2"; shift ;;
    --mid) need_value "$@"; MID="$2"; shift ;;
    --slow) need_value "$@"; SLOW="$2"; shift ;;
    --slow-rate) need_value "$@"; SLOW_RATE="$2"; shift ;;
    --min-body-rate) need_value "$@"; MIN_BODY_RATE="$2"; shift ;;
    --bursts) need_value "$@"; BURSTS="$2"; shift ;;
    -h|--help) print_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bench_usage_error "unknown option $1" ;;
  esac
  shift
done
case "$IO" in nio|blocking|uring) ;; *) bench_usage_error "--io must be nio, blocking or uring" ;; esac
case "$BURSTS" in ''|*[!0-9]*) bench_usage_error "--bursts must be a whole number from 1" ;; esac
BURSTS=$((10#$BURSTS))
[ "$BURSTS" -ge 1 ] || bench_usage_error "--bursts must be a whole number from 1"
[ "$BURSTS" -le 10 ] || bench_usage_error "--bursts must be at most 10"
checked_args_only && exit 0
: "${JAVA:?JAVA must point to a JDK 21+ java}"
JCMD="$(dirname "$JAVA")/jcmd"
[ -x "$JCMD" ] || { echo "bench hostile-bodies: $JCMD not found (a JDK is needed, not a JRE)" >&2; exit 1; }
require_tool curl curl "the metrics scrape"
EX_CP="brisk-examples/target/brisk-examples.jar:brisk-examples/target/lib/*"
[ -f brisk-examples/target/brisk-examples.jar ] || { echo "bench hostile-bodies: build first (./brisk build)" >&2; exit 1; }
pin_cores

OUT="bench/results/hostile-bodies-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
PORT=18082
METRICS_PORT=19092
{ describe_machine; echo "server: -Xmx$HEAP ${BRISK_JAVA_OPTS:+$BRISK_JAVA_OPTS }io=$IO spool=$([ "$SPOOL" = 1 ] && echo on || echo off) min-body-rate=${MIN_BODY_RATE:-default}"
  echo "client: slow uploads at $SLOW_RATE B/s"; } > "$OUT/environment.txt"
cat "$OUT/environment.txt"

SERVER_ENV=(BRISK_BODY_SPOOL_DISK=0)
[ "$SPOOL" = 1 ] && SERVER_ENV=()
[ -n "$MIN_BODY_RATE" ] && SERVER_ENV+=(BRISK_MIN_BODY_RATE="$MIN_BODY_RATE")
env BRISK_PORT=$PORT BRISK_METRICS_PORT=$METRICS_PORT BRISK_IO="$IO" "${SERVER_ENV[@]}" \
  "${PIN_SERVER[@]}" "$JAVA" -Xmx"$HEAP" -XX:+UseG1GC ${BRISK_JAVA_OPTS:-} -cp "$EX_CP" dev.brisk.examples.ExampleApp \
  > "$OUT/server.log" 2>&1 &
SERVER_PID=$!
trap 'stop_pid "$SERVER_PID"' EXIT
wait_http "http://127.0.0.1:$PORT/hello" 60 && wait_http "http://127.0.0.1:$METRICS_PORT/metrics" 10 || {
  echo "bench hostile-bodies: the server did not start; see $OUT/server.log" >&2; exit 1; }
# a short warm-up, so the JIT's first compilations are not what /hello's latency shows
for _ in $(seq 1 200); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/hello"; done
curl -fs -o /dev/null --data-binary @README.md "http://127.0.0.1:$PORT/upload"

# /hello is timed by a process of its own, ahead of the load generator on the client's core (nice -n -10
# where allowed): the load's 2,500 threads and its collector would otherwise delay the prober itself,
# and that delay would be counted as the server's
PRIORITY=()
nice -n -10 true 2>/dev/null && PRIORITY=(nice -n -10)
echo "prober: a process of its own on the client's core$([ ${#PRIORITY[@]} -gt 0 ] && echo ", nice -10" || echo " (nice -10 not allowed here: same priority)")" >> "$OUT/environment.txt"
: > "$OUT/client.txt"
for burst in $(seq 1 "$BURSTS"); do
  [ "$BURSTS" -gt 1 ] && echo "## burst $burst of $BURSTS" | tee -a "$OUT/client.txt"
  STOP_PROBE="$OUT/.stop-probe-$burst"
  "${PIN_CLIENT[@]}" "${PRIORITY[@]}" "$JAVA" -Xmx64m bench/hostile/HostileBodies.java "$PORT" --probe-until "$STOP_PROBE" \
    > "$OUT/prober.txt" 2>&1 &
  PROBER_PID=$!
  trap 'touch "$STOP_PROBE"; stop_pid "$SERVER_PID"' EXIT
  # the load starts once the prober has warmed up its own code (its cold first request is not the server's)
  for _ in $(seq 1 600); do
    [ -e "$STOP_PROBE.ready" ] && break
    kill -0 "$PROBER_PID" 2>/dev/null || break
    sleep 0.1
  done
  [ -e "$STOP_PROBE.ready" ] || { echo "bench hostile-bodies: the prober did not get ready; see $OUT/prober.txt" >&2; exit 1; }
  "${PIN_CLIENT[@]}" "$JAVA" -Xmx512m bench/hostile/HostileBodies.java "$PORT" --big "$BIG" --mid "$MID" \
    --slow "$SLOW" --slow-rate "$SLOW_RATE" --no-probe | tee -a "$OUT/client.txt" || true
  touch "$STOP_PROBE"
  wait "$PROBER_PID" || true
  if [ "$BURSTS" -gt 1 ]; then
    sed "s/^hello:/hello (burst $burst):/" "$OUT/prober.txt" >> "$OUT/client.txt"
  else
    cat "$OUT/prober.txt" >> "$OUT/client.txt"
  fi
  if [ "$burst" -lt "$BURSTS" ]; then
    # the next burst starts once the server holds no body memory from this one (bounded: 30 s)
    for _ in $(seq 1 300); do
      reserved=$(curl -fs --max-time 5 "http://127.0.0.1:$METRICS_PORT/metrics" | awk '/^brisk_body_memory_reserved/ {print $2}' || true)
      [ "${reserved%.*}" = 0 ] && break
      sleep 0.1
    done
  fi
done

# what the server holds once the load is over (the last slow uploads may still be finishing: wait a little)
for _ in $(seq 1 50); do
  reserved=$(curl -fs --max-time 5 "http://127.0.0.1:$METRICS_PORT/metrics" | awk '/^brisk_body_memory_reserved/ {print $2}' || true)
  [ "${reserved%.*}" = 0 ] && break
  sleep 0.1
done
curl -fs --max-time 5 "http://127.0.0.1:$METRICS_PORT/metrics" | grep -E '^brisk_(body|requests_shed|requests_total|connections_too_slow)' > "$OUT/metrics.txt" || true
{ echo "## after the load"; timeout 30 "$JCMD" "$SERVER_PID" GC.heap_info; timeout 30 "$JCMD" "$SERVER_PID" GC.run >/dev/null;
  echo "## after a full GC"; timeout 30 "$JCMD" "$SERVER_PID" GC.heap_info; } > "$OUT/heap.txt" 2>&1 || true
ALIVE=no; kill -0 "$SERVER_PID" 2>/dev/null && ALIVE=yes
HELLO_OK=no; curl -fs -o /dev/null --max-time 5 "http://127.0.0.1:$PORT/hello" && HELLO_OK=yes
stop_pid "$SERVER_PID"
trap - EXIT

OOM=no
grep -q OutOfMemoryError "$OUT/server.log" && OOM=yes
[ "$ALIVE" = yes ] || OOM="$OOM (server died)"
# heap_used SECTION: the G1 heap's "used" figure in heap.txt after the line '## SECTION'
heap_used() {
  awk -v s="## $1" '$0 == s {on = 1; next} /^## / {on = 0}
    on && /heap/ && /used/ {for (i = 1; i <= NF; i++) if ($i == "used") {sub(",", "", $(i+1)); print $(i+1); exit}}' "$OUT/heap.txt"
}
{
  echo "OutOfMemoryError: $OOM"
  echo "server alive after the load: $ALIVE, /hello answers: $HELLO_OK"
  grep -E '^hello( \(burst [0-9]+\))?:' "$OUT/client.txt" | sed 's/^hello/\/hello during the load/' || echo "/hello during the load: no figures"
  grep '^uploads' "$OUT/client.txt" || true
  grep '^load:' "$OUT/client.txt" || true
  echo "request-body memory reserved after the load: $(awk '/^brisk_body_memory_reserved/ {print $2}' "$OUT/metrics.txt" || true) bytes"
  echo "cut below a minimum data rate: $(grep '^brisk_connections_too_slow_total' "$OUT/metrics.txt" | sed 's/.*direction="\([^"]*\)".* \(.*\)/\1=\2/' | tr '\n' ' ')"
  echo "shed: $(grep '^brisk_requests_shed_total' "$OUT/metrics.txt" | sed 's/.*reason="\([^"]*\)".* \(.*\)/\1=\2/' | tr '\n' ' ')"
  echo "heap used after the load: $(heap_used 'after the load') (of -Xmx$HEAP)"
  echo "heap used after a full GC: $(heap_used 'after a full GC')"
} | tee "$OUT/summary.txt"
echo "results: $OUT"
