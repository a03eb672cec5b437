#!/usr/bin/env bash
# WebSocket echo benchmark: Brisk (event loop), Netty and Vert.x serve /ws/echo; WsLoad (one selector
# thread, a closed loop per connection: send a binary message, wait for its echo, send the next) drives
# each with 32 B and 4 KiB messages over 100 and 1,000 connections. Server on core 0, client on core 1.
# Per run: messages/s, round-trip p50 and p99, the server's CPU µs and allocated bytes per message.
#
# Usage: bench/ws.sh [--seconds N] [--warmup N] [--servers a,b,c]
#   (built first with: ./mvnw -q -pl brisk-bench -am -DskipTests package)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/lib.sh
source bench/lib.sh
BENCH_MODE="bench/ws.sh"

SECONDS_RUN=10
WARMUP=5
SERVERS="brisk-event-loop,netty,vertx"
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) need_value "$@"; SECONDS_RUN="$2"; shift 2 ;;
    --warmup) need_value "$@"; WARMUP="$2"; shift 2 ;;
    --servers) need_value "$@"; SERVERS="$2"; shift 2 ;;
    -h|--help) print_usage "$0"; exit 0 ;;
    *) bench_usage_error "unknown option $1" ;;
  esac
done

JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
CP="brisk-bench/target/brisk-bench.jar:brisk-bench/target/lib/*"
[ -f brisk-bench/target/brisk-bench.jar ] || { echo "bench: build first (./mvnw -q -pl brisk-bench -am -DskipTests package)" >&2; exit 1; }
pin_cores
PORT=18080
STATS_PORT=18081
OUT="bench/results/ws-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "machine: $(nproc) cores, $(awk '/MemTotal/ {print $2 " kB"}' /proc/meminfo)"
  echo "jdk: $("$JAVA" -version 2>&1 | head -n 1)"
  echo "run: ${SECONDS_RUN} s after ${WARMUP} s of warm-up; server ${PIN_SERVER[*]:-unpinned}, client ${PIN_CLIENT[*]:-unpinned}"
} | tee "$OUT/environment.txt"

IFS=',' read -r -a names <<<"$SERVERS"
for name in "${names[@]}"; do
  "${PIN_SERVER[@]}" "$JAVA" "${BENCH_JVM_FLAGS[@]}" -cp "$CP" dev.brisk.bench.ServerMain "$name" "$PORT" "$STATS_PORT" \
    >"$OUT/$name.server.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do grep -q '^ready' "$OUT/$name.server.log" 2>/dev/null && break; sleep 0.1; done
  grep -q '^ready' "$OUT/$name.server.log" || { echo "bench: $name did not start" >&2; stop_pid "$pid"; exit 1; }
  for size in 32 4096; do
    for conns in 100 1000; do
      line=$("${PIN_CLIENT[@]}" "$JAVA" -cp "$CP" dev.brisk.bench.WsLoad "$PORT" "$size" "$conns" "$SECONDS_RUN" "$WARMUP" "$STATS_PORT")
      echo "server=$name $line" | tee -a "$OUT/results.txt"
    done
  done
  stop_pid "$pid"
done
echo "bench: results in $OUT/results.txt"
