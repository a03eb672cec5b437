#!/usr/bin/env bash
# Full TLS handshakes: each server of the harness that speaks TLS (ServerMain --list-tls) answers
# `openssl s_time -new` (a new session per connection, no resumption, no request: the handshake
# alone), one connection at a time, servers alternated round by round. wrk cannot measure this (it
# speaks TLS 1.2 and resumes sessions) and h2load has no connection-per-request mode.
# Called by ./brisk bench --tls-handshakes (which sets JAVA and builds first). See README "TLS".
#
# Usage: ./brisk bench --tls-handshakes [--servers a,b] [--rounds N] [--duration S] [--warmup S] [--tls 1.3|1.2]
#   --servers   default brisk-event-loop,brisk-virtual-threads,netty,jetty,undertow,vertx,helidon
#   --rounds    rounds; each starts every server afresh (default 4)
#   --duration  seconds of handshakes measured per server and round (default 10)
#   --warmup    seconds of handshakes first, not measured (default 20: the JDK's TLS code is large,
#               and at a few hundred handshakes a second it is still being compiled after 10 s)
#   --tls       the protocol version (default 1.3)
# Server on core 0 with the harness's JVM flags, openssl on core 1; a throwaway self-signed EC P-256 key
# (BenchTls). Prints per server and round: handshakes per second and the server's CPU time per
# handshake (/proc/<pid>/stat before and after), then the medians. Output: bench/results/tls-handshakes-<timestamp>/.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source bench/lib.sh
BENCH_MODE='bench --tls-handshakes'

SERVERS=brisk-event-loop,brisk-virtual-threads,netty,jetty,undertow,vertx,helidon
ROUNDS=4
DURATION=10
WARMUP=20
TLS=1.3
while [ $# -gt 0 ]; do
  case "$1" in
    --servers) need_value "$@"; SERVERS="$2"; shift ;;
    --rounds) need_value "$@"; ROUNDS="$2"; shift ;;
    --duration) need_value "$@"; DURATION="$2"; shift ;;
    --warmup) need_value "$@"; WARMUP="$2"; shift ;;
    --tls) need_value "$@"; TLS="$2"; shift ;;
    -h|--help) print_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bench_usage_error "unknown option $1" ;;
  esac
  shift
done
case "$TLS" in 1.3) TLS_FLAG=-tls1_3 ;; 1.2) TLS_FLAG=-tls1_2 ;; *) bench_usage_error "--tls must be 1.3 or 1.2" ;; esac
checked_args_only && exit 0
: "${JAVA:?JAVA must point to a JDK 21+ java}"
require_tool openssl openssl "openssl s_time"
CP="brisk-bench/target/brisk-bench.jar:brisk-bench/target/lib/*"
[ -f brisk-bench/target/brisk-bench.jar ] || { echo "bench tls-handshakes: build first (./brisk build)" >&2; exit 1; }
pin_cores

OUT="bench/results/tls-handshakes-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
{ describe_machine; echo "openssl: $(openssl version)"; echo "TLS $TLS, rounds $ROUNDS, ${WARMUP}s warm-up, ${DURATION}s measured"; } > "$OUT/environment.txt"
cat "$OUT/environment.txt"
"$JAVA" -cp "$CP" dev.brisk.bench.BenchTls "$ROOT/$OUT/tls" > /dev/null
PORT=18480
TLS_PORT=18843
echo "round,server,handshakes,seconds,per_s,server_cpu_us_per_handshake" > "$OUT/results.csv"

SERVER_PID=""
trap '[ -n "$SERVER_PID" ] && stop_pid "$SERVER_PID"' EXIT
for round in $(seq 1 "$ROUNDS"); do
  order=$(echo "$SERVERS" | tr ',' ' ')
  [ $((round % 2)) = 0 ] && order=$(echo "$order" | tr ' ' '\n' | tac | tr '\n' ' ')
  for server in $order; do
    BENCH_TLS_DIR="$ROOT/$OUT/tls" BENCH_TLS_PORT=$TLS_PORT "${PIN_SERVER[@]}" "$JAVA" -Xms512m -Xmx512m -XX:+UseG1GC \
      -cp "$CP" dev.brisk.bench.ServerMain "$server" "$PORT" $((PORT + 1)) > "$OUT/$server-$round.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 150); do grep -q '^ready' "$OUT/$server-$round.log" && break; sleep 0.1; done
    grep -q '^ready' "$OUT/$server-$round.log" || { echo "bench tls-handshakes: $server did not start; see $OUT/$server-$round.log" >&2; exit 1; }
    "${PIN_CLIENT[@]}" openssl s_time -connect 127.0.0.1:$TLS_PORT -new "$TLS_FLAG" -time "$WARMUP" > /dev/null 2>&1 || true
    c0=$(proc_cpu_nanos "$SERVER_PID")
    result=$("${PIN_CLIENT[@]}" openssl s_time -connect 127.0.0.1:$TLS_PORT -new "$TLS_FLAG" -time "$DURATION" 2>&1 || true)
    c1=$(proc_cpu_nanos "$SERVER_PID")
    stop_pid "$SERVER_PID"
    SERVER_PID=""
    # "N connections in T real seconds, ..."
    read -r n secs < <(echo "$result" | sed -n 's/^\([0-9]*\) connections in \([0-9.]*\) real.*/\1 \2/p' | head -n 1) || true
    if [ -z "${n:-}" ] || [ "$n" = 0 ]; then
      echo "bench tls-handshakes: no handshakes with $server (openssl said: $(echo "$result" | tail -n 2 | tr '\n' ' '))" >&2
      continue
    fi
    line=$(awk -v r="$round" -v s="$server" -v n="$n" -v t="$secs" -v c0="$c0" -v c1="$c1" \
      'BEGIN { printf "%s,%s,%d,%s,%.1f,%.1f", r, s, n, t, n / t, (c1 - c0) / 1000 / n }')
    echo "$line" >> "$OUT/results.csv"
    echo "$line" | awk -F, '{ printf "round %s %-24s %6d handshakes  %7.1f /s  %8.1f us of server CPU each\n", $1, $2, $3, $5, $6 }'
  done
done

# median_range: the median and the range of the numbers on stdin, one per line: "median min max"
median_range() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit; m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.1f %.1f %.1f", m, v[1], v[NR] }'
}
echo "medians (min-max) over the rounds:" | tee "$OUT/summary.txt"
for server in $(echo "$SERVERS" | tr ',' ' '); do
  rate=$(awk -F, -v s="$server" '$2 == s { print $5 }' "$OUT/results.csv" | median_range)
  cpu=$(awk -F, -v s="$server" '$2 == s { print $6 }' "$OUT/results.csv" | median_range)
  if [ -z "$rate" ]; then printf "%-24s no results\n" "$server"; continue; fi
  read -r rm r0 r1 <<< "$rate"
  read -r cm c0 c1 <<< "$cpu"
  printf "%-24s %7s handshakes/s (%s-%s)  %8s us of server CPU each (%s-%s)\n" "$server" "$rm" "$r0" "$r1" "$cm" "$c0" "$c1"
done | tee -a "$OUT/summary.txt"
echo "results: $OUT"
