#!/usr/bin/env bash
# What TLS adds to an HTTP/1.1 keep-alive request, in the steady state: each server answers GET /hello
# with wrk -t1 -c50 in plain HTTP and over TLS, alternated round by round, and the server's CPU time per
# request is taken over the measured run only. Unlike the harness's tls-hello, the measured run comes
# after two unmeasured ones: the first compiles the TLS code, the second opens new connections once
# it is compiled (their handshakes take paths the compiled code has not seen, and the JIT recompiles:
# a few seconds of compiler work that the harness's measured run of tls-hello includes).
# The floor to compare with is the cipher alone: ./brisk bench --jmh SslEngineBenchmark (README "TLS").
#
# Called by ./brisk bench --tls-keepalive (which sets JAVA and builds first). See README "TLS".
#
# Usage: ./brisk bench --tls-keepalive [--servers a,b] [--rounds N] [--duration S] [--warmup S]
#   --servers   default brisk-event-loop (any of ServerMain --list-tls, e.g. netty,undertow)
#   --rounds    rounds; each starts every server afresh for each scheme (default 3)
#   --duration  seconds measured per run (default 20)
#   --warmup    seconds of the first unmeasured run (default 20; the second is 5 s)
# Server on core 0 (the harness's JVM flags), wrk on core 1; a throwaway self-signed EC P-256 key
# (BenchTls). Prints per run req/s and server CPU µs per request (user and kernel), then the medians
# and TLS − plain per server. Output: bench/results/tls-keepalive-<timestamp>/.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source bench/lib.sh
BENCH_MODE='bench --tls-keepalive'

SERVERS=brisk-event-loop
ROUNDS=3
DURATION=20
WARMUP=20
while [ $# -gt 0 ]; do
  case "$1" in
    --servers) need_value "$@"; SERVERS="$2"; shift ;;
    --rounds) need_value "$@"; ROUNDS="$2"; shift ;;
    --duration) need_value "$@"; DURATION="$2"; shift ;;
    --warmup) need_value "$@"; WARMUP="$2"; shift ;;
    -h|--help) print_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bench_usage_error "unknown option $1" ;;
  esac
  shift
done
case "$ROUNDS" in ''|*[!0-9]*|0) bench_usage_error "--rounds must be a whole number from 1" ;; esac
checked_args_only && exit 0
: "${JAVA:?JAVA must point to a JDK 21+ java}"
require_tool wrk wrk "the load"
CP="brisk-bench/target/brisk-bench.jar:brisk-bench/target/lib/*"
[ -f brisk-bench/target/brisk-bench.jar ] || { echo "bench tls-keepalive: build first (./brisk build)" >&2; exit 1; }
pin_cores

OUT="bench/results/tls-keepalive-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
{ describe_machine; echo "wrk -t1 -c50, rounds $ROUNDS, ${WARMUP}s + 5s unmeasured, ${DURATION}s measured"; } > "$OUT/environment.txt"
cat "$OUT/environment.txt"
"$JAVA" -cp "$CP" dev.brisk.bench.BenchTls "$ROOT/$OUT/tls" > /dev/null
PORT=18480
TLS_PORT=18843
echo "round,server,scheme,requests,rps,cpu_us_per_req,user_us_per_req,kernel_us_per_req" > "$OUT/results.csv"

SERVER_PID=""
trap '[ -n "$SERVER_PID" ] && stop_pid "$SERVER_PID"' EXIT
for round in $(seq 1 "$ROUNDS"); do
  schemes="http https"
  [ $((round % 2)) = 0 ] && schemes="https http"
  for server in $(echo "$SERVERS" | tr ',' ' '); do
    for scheme in $schemes; do
      url="http://127.0.0.1:$PORT/hello"
      [ "$scheme" = https ] && url="https://127.0.0.1:$TLS_PORT/hello"
      log="$OUT/$server-$scheme-$round.log"
      BENCH_TLS_DIR="$ROOT/$OUT/tls" BENCH_TLS_PORT=$TLS_PORT "${PIN_SERVER[@]}" "$JAVA" "${BENCH_JVM_FLAGS[@]}" \
        -cp "$CP" dev.brisk.bench.ServerMain "$server" "$PORT" $((PORT + 1)) > "$log" 2>&1 &
      SERVER_PID=$!
      for _ in $(seq 1 150); do grep -q '^ready' "$log" && break; sleep 0.1; done
      grep -q '^ready' "$log" || { echo "bench tls-keepalive: $server did not start; see $log" >&2; exit 1; }
      "${PIN_CLIENT[@]}" wrk -t1 -c50 -d"${WARMUP}s" "$url" > /dev/null
      "${PIN_CLIENT[@]}" wrk -t1 -c50 -d5s "$url" > /dev/null
      c0=$(proc_cpu_nanos "$SERVER_PID"); k0=$(proc_kernel_nanos "$SERVER_PID")
      "${PIN_CLIENT[@]}" wrk -t1 -c50 -d"${DURATION}s" "$url" > "$OUT/wrk-$server-$scheme-$round.txt"
      c1=$(proc_cpu_nanos "$SERVER_PID"); k1=$(proc_kernel_nanos "$SERVER_PID")
      stop_pid "$SERVER_PID"
      SERVER_PID=""
      n=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$OUT/wrk-$server-$scheme-$round.txt")
      rps=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' "$OUT/wrk-$server-$scheme-$round.txt")
      if [ -z "$n" ] || [ "$n" = 0 ]; then
        echo "bench tls-keepalive: no requests answered by $server over $scheme" >&2
        continue
      fi
      line=$(awk -v r="$round" -v s="$server" -v sc="$scheme" -v n="$n" -v rps="$rps" -v c0="$c0" -v c1="$c1" -v k0="$k0" -v k1="$k1" \
        'BEGIN { printf "%s,%s,%s,%d,%s,%.2f,%.2f,%.2f", r, s, sc, n, rps, (c1 - c0) / 1000 / n, (c1 - c0 - (k1 - k0)) / 1000 / n, (k1 - k0) / 1000 / n }')
      echo "$line" >> "$OUT/results.csv"
      echo "$line" | awk -F, '{ printf "round %s %-22s %-5s %9.0f req/s  %6.2f us CPU/request (user %.2f, kernel %.2f)\n", $1, $2, $3, $5, $6, $7, $8 }'
    done
  done
done

# median_range: the median and the range of the numbers on stdin, one per line: "median min max"
median_range() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit; m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f %.2f %.2f", m, v[1], v[NR] }'
}
echo "medians (min-max) over the rounds, server CPU µs per request:" | tee "$OUT/summary.txt"
for server in $(echo "$SERVERS" | tr ',' ' '); do
  plain=$(awk -F, -v s="$server" '$2 == s && $3 == "http" { print $6 }' "$OUT/results.csv" | median_range)
  tls=$(awk -F, -v s="$server" '$2 == s && $3 == "https" { print $6 }' "$OUT/results.csv" | median_range)
  if [ -z "$plain" ] || [ -z "$tls" ]; then printf "%-22s no results\n" "$server"; continue; fi
  read -r pm p0 p1 <<< "$plain"
  read -r tm t0 t1 <<< "$tls"
  printf "%-22s plain %s (%s-%s)  TLS %s (%s-%s)  TLS - plain %s\n" "$server" "$pm" "$p0" "$p1" "$tm" "$t0" "$t1" \
    "$(awk -v a="$tm" -v b="$pm" 'BEGIN { printf "%.2f", a - b }')"
done | tee -a "$OUT/summary.txt"
echo "results: $OUT"
