#!/usr/bin/env bash
# The side-by-side load harness: every server, every scenario, alternated round by round.
# Called by ./brisk bench (which sets JAVA and builds first). See README "Benchmarks".
#
# Usage: ./brisk bench [--quick] [--servers a,b] [--scenarios x,y] [--rounds N] [--duration S]
#                      [--baseline REV | --baseline-dir DIR]
#   --quick         about 15 minutes: 2 rounds x 4 s of hello,json,users,echo,health,hello-rate
#                   (the full run: about 85 minutes)
#   --servers       which servers, comma-separated (default: every server in brisk-bench and brisk-bench-spark, and nginx)
#   --scenarios     which scenarios (hello,json,users,echo,consume,health,churn,pipelined,hello-c1000,
#                   hello-rate,static-1k,static-1m,static-gzip; default: all; also, on request only:
#                   h2c-hello and h2c-hello-m100: HTTP/2 in the clear with h2load (prior knowledge), 1 or
#                   100 streams per connection; tls-hello: HTTP/1.1 over TLS with wrk; tls-churn: the
#                   same with "Connection: close", a TLS handshake per request; h2-hello-m100: h2 over
#                   TLS (ALPN) with h2load, 100 streams per connection; each for the servers that speak
#                   it (ServerMain --list-h2c, --list-tls, and nginx), with a throwaway self-signed EC
#                   key made for the run in raw/tls, TLS on port 18443, or BENCH_PORT + 363). static-*: each server's own
#                   static-file handler over bench/results/<run>/raw/static (a 1 KiB text file, a 1 MiB
#                   file, gzip of a 100 KiB JSON file), only servers that have one (brisk-*, jetty,
#                   undertow, vertx, nginx)
#   --rounds        rounds; each runs every server on every scenario (default 2)
#   --duration      seconds measured per run (default 10)
#   --baseline      this tree against commit REV: servers named baseline/<name> run <name> built at REV
#                   (once, in .brisk/baseline-<sha>); defaults brisk-event-loop and baseline/brisk-event-loop,
#                   hello,users,echo,pipelined,churn, 3 rounds x 8 s; the report says which differences
#                   exceed the round-to-round spread
#   --baseline-dir  as --baseline, from a tree whose brisk-bench is already built
#   --smoke         for ./brisk test: two servers and the baseline path, one short scenario, not timed
# Output: bench/results/<timestamp>/ (report.md, results.csv, charts, environment.txt, raw/).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source bench/lib.sh
BENCH_MODE='bench'

ARGS="$*"
QUICK=0
SMOKE=0
SERVERS=""
SCENARIOS=""
ROUNDS=""
DURATION=""
BASELINE_REV=""
BASELINE_DIR=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --smoke) SMOKE=1 ;; # for ./brisk test: two servers and the baseline path, one short scenario, not timed
    --servers) need_value "$@"; SERVERS="$2"; shift ;;
    --scenarios) need_value "$@"; SCENARIOS="$2"; shift ;;
    --rounds) need_value "$@"; ROUNDS="$2"; shift ;;
    --duration) need_value "$@"; DURATION="$2"; shift ;;
    --baseline) need_value "$@"; BASELINE_REV="$2"; shift ;;     # servers named baseline/<name> run from REV's build
    --baseline-dir) need_value "$@"; BASELINE_DIR="$2"; shift ;; # ... or from a tree whose brisk-bench is already built
    -h|--help) print_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bench_usage_error "unknown option $1" ;;
  esac
  shift
done
if [ -n "$BASELINE_REV" ] && [ -n "$BASELINE_DIR" ]; then
  bench_usage_error "--baseline and --baseline-dir exclude each other"
fi
checked_args_only && exit 0
: "${JAVA:?JAVA must point to a JDK 21+ java}"

# name|path|method|body bytes|connections|pipeline|close|fixed rate (req/s; 0 = as fast as possible)|protocol|header
# protocol: h1 (default); h2c (h2load with prior knowledge; "pipeline" is then streams per connection);
# tls (wrk over https: HTTP/1.1 with TLS); h2 (h2load over https, ALPN h2; "pipeline" as for h2c)
# header: one extra request header field (wrk only)
# hello-rate: latency at a fixed offered load (h2load --rps), where a closed-loop tool would hide queueing;
# BENCH_RATE defaults to about half the slowest peer's hello peak measured on this machine.
RATE="${BENCH_RATE:-15000}"
ALL_SCENARIOS="hello|/hello|GET|0|50|1|0
json|/json|GET|0|50|1|0
users|/users/42?active=true|GET|0|50|1|0
echo|/echo|POST|1024|50|1|0
consume|/consume|POST|1024|50|1|0
health|/health|GET|0|50|1|0
churn|/hello|GET|0|50|1|1
pipelined|/hello|GET|0|50|16|0
hello-c1000|/hello|GET|0|1000|1|0
hello-rate|/hello|GET|0|50|1|0|$RATE
static-1k|/static/1k.txt|GET|0|50|1|0|0
static-1m|/static/1m.bin|GET|0|50|1|0|0
static-gzip|/static/data.json|GET|0|50|1|0|0|h1|Accept-Encoding: gzip
h2c-hello|/hello|GET|0|50|1|0|0|h2c
h2c-hello-m100|/hello|GET|0|4|100|0|0|h2c
tls-hello|/hello|GET|0|50|1|0|0|tls
tls-churn|/hello|GET|0|50|1|1|0|tls
h2-hello-m100|/hello|GET|0|4|100|0|0|h2"
# the servers with a static-file handler (BenchServer: /static/<file>)
STATIC_SERVERS=",brisk-event-loop,brisk-virtual-threads,brisk-worker-pool,brisk-blocking-virtual,brisk-blocking-platform,netty,jetty,undertow,vertx,nginx,"

if [ "$SMOKE" = 1 ]; then
  # the baseline path without a second build (CI time): the current build stands in for the other commit
  if [ -z "$BASELINE_REV$BASELINE_DIR" ]; then BASELINE_DIR="$ROOT"; fi
  : "${SERVERS:=brisk-event-loop,jdk-httpserver,baseline/brisk-event-loop}"
elif [ -n "$BASELINE_REV$BASELINE_DIR" ]; then
  # two commits of the engine (issue 13): the scenarios where its CPU and allocation per request show
  : "${SERVERS:=brisk-event-loop,baseline/brisk-event-loop}" "${SCENARIOS:=hello,users,echo,pipelined,churn}"
  if [ "$QUICK" = 0 ]; then : "${ROUNDS:=3}" "${DURATION:=8}"; fi
fi

if [ "$SMOKE" = 1 ]; then
  : "${ROUNDS:=1}" "${DURATION:=1}"; WARMUP=1
  : "${SCENARIOS:=hello}"
elif [ "$QUICK" = 1 ]; then
  : "${ROUNDS:=2}" "${DURATION:=4}"; WARMUP=3
  : "${SCENARIOS:=hello,json,users,echo,health,hello-rate}"
else
  : "${ROUNDS:=2}" "${DURATION:=10}"; WARMUP=10 # 13 servers x 13 scenarios: about 85 minutes
  : "${SCENARIOS:=hello,json,users,echo,consume,health,churn,pipelined,hello-c1000,hello-rate,static-1k,static-1m,static-gzip}"
fi
CP="brisk-bench/target/brisk-bench.jar:brisk-bench/target/lib/*"
# Spark runs on Jetty 9.4, which cannot share that class path with Jetty 12: a module of its own
SPARK_CP="brisk-bench-spark/target/brisk-bench-spark.jar:brisk-bench-spark/target/lib/*"
if [ -z "$SERVERS" ]; then
  SERVERS="$("$JAVA" -cp "$CP" dev.brisk.bench.ServerMain --list),spark,nginx"
fi
JVM_FLAGS=("${BENCH_JVM_FLAGS[@]}")

# A file name for a server: baseline/<name> would be a directory under raw/ (Report.fileName does the same).
file_name() { echo "${1//\//_}"; }

# build_baseline REV: brisk-bench (and what it needs) built at REV in .brisk/baseline-<sha>, outside this
# tree's modules; package, never install, so the local repository keeps this tree's snapshot. A build
# that finished is reused: the directory gets its final name only then.
build_baseline() {
  local sha dir tmp log
  sha=$(git rev-parse --verify --quiet "$1^{commit}") || { echo "bench: --baseline $1 is not a commit" >&2; exit 2; }
  dir="$ROOT/.brisk/baseline-$sha"
  BASELINE_DESC="$1 = $(git log -1 --format='%h %s' "$sha" | cut -c1-100)"
  if [ -f "$dir/brisk-bench/target/brisk-bench.jar" ]; then
    echo "bench: baseline $BASELINE_DESC: reusing the build in .brisk/baseline-$sha"
    BASELINE_DIR="$dir"; return 0
  fi
  tmp="$dir.tmp.$$"
  log="$ROOT/.brisk/baseline-$sha.log"
  echo "bench: baseline $BASELINE_DESC: building brisk-bench at $sha (log: .brisk/baseline-$sha.log)"
  rm -rf "$tmp" && mkdir -p "$tmp"
  git archive "$sha" | tar -x -C "$tmp"
  [ -f "$tmp/brisk-bench/pom.xml" ] || { rm -rf "$tmp"; echo "bench: $1 has no brisk-bench module" >&2; exit 2; }
  # JAVA_HOME for the wrapper: ./brisk exports it; a direct call of this script may set only JAVA
  if ! (cd "$tmp" && JAVA_HOME="${JAVA_HOME:-$(dirname "$(dirname "$JAVA")")}" \
        ./mvnw -B -q -DskipTests -Djacoco.skip=true -pl brisk-bench -am package) > "$log" 2>&1; then
    tail -n 20 "$log" >&2; rm -rf "$tmp"
    echo "bench: the baseline build at $sha failed (full log: $log)" >&2; exit 1
  fi
  rm -rf "$dir" && mv "$tmp" "$dir"
  BASELINE_DIR="$dir"
}

BASELINE_CP=""
if [ -n "$BASELINE_REV" ]; then
  build_baseline "$BASELINE_REV"
elif [ -n "$BASELINE_DIR" ]; then
  BASELINE_DIR="$(cd "$BASELINE_DIR" && pwd)"
  BASELINE_DESC="the build in $BASELINE_DIR ($(git -C "$BASELINE_DIR" log -1 --format='%h %s' 2>/dev/null | cut -c1-100 || echo 'no git'))"
  [ -f "$BASELINE_DIR/brisk-bench/target/brisk-bench.jar" ] || {
    echo "bench: no brisk-bench/target/brisk-bench.jar under $BASELINE_DIR (build it there first)" >&2; exit 2; }
fi
if [ -n "$BASELINE_DIR" ]; then
  BASELINE_CP="$BASELINE_DIR/brisk-bench/target/brisk-bench.jar:$BASELINE_DIR/brisk-bench/target/lib/*"
fi
# every baseline/<name> must be a server of the baseline's own ServerMain (checked now, not minutes in)
if [[ ",$SERVERS," == *,baseline/* ]]; then
  [ -n "$BASELINE_CP" ] || { echo "bench: servers named baseline/... need --baseline REV or --baseline-dir DIR" >&2; exit 2; }
  baseline_names=",$("$JAVA" -cp "$BASELINE_CP" dev.brisk.bench.ServerMain --list),"
  for server in $(echo "$SERVERS" | tr ',' ' '); do
    if [[ $server == baseline/* ]] && [[ $baseline_names != *",${server#baseline/},"* ]]; then
      echo "bench: the baseline has no server ${server#baseline/}; it has ${baseline_names:1:-1}" >&2; exit 2
    fi
  done
fi

require_tool wrk wrk
if [[ ",$SCENARIOS," == *-rate,* ]]; then require_tool h2load nghttp2-client hello-rate; fi
if [[ ",$SCENARIOS," == *,h2c-* ]] || [[ ",$SCENARIOS," == *,h2-* ]]; then require_tool h2load nghttp2-client h2c-hello; fi
# the scenarios' protocols, and the servers that speak the HTTP/2 and TLS ones (nginx too)
proto_of() { echo "$ALL_SCENARIOS" | grep "^$1|" | cut -d'|' -f9; }
H2C_SERVERS=",$("$JAVA" -cp "$CP" dev.brisk.bench.ServerMain --list-h2c),nginx,"
TLS_SERVERS=",$("$JAVA" -cp "$CP" dev.brisk.bench.ServerMain --list-tls),nginx,"
NEED_TLS=0
for sc in $(echo "$SCENARIOS" | tr ',' ' '); do
  case "$(proto_of "$sc")" in tls|h2) NEED_TLS=1 ;; esac
done
# speaks SERVER SCENARIO: whether the server can run the scenario (its protocol, its static-file handler)
speaks() {
  local name="${1#baseline/}"
  if [[ $2 == static-* ]] && [[ $STATIC_SERVERS != *",$name,"* ]]; then return 1; fi
  case "$(proto_of "$2")" in
    h2c) [[ $H2C_SERVERS == *",$name,"* ]] ;;
    tls|h2) [[ $TLS_SERVERS == *",$name,"* ]] ;;
    *) return 0 ;;
  esac
}

# server on core 0, load generator on core 1 (when there are two cores)
pin_cores

STAMP=$(date -u +%Y%m%dT%H%M%SZ)
PREFIX=""
if [ "$SMOKE" = 1 ]; then PREFIX=smoke-; fi # (an `[ ] && echo` here failed every non-smoke run under set -e)
OUT="bench/results/$PREFIX$STAMP"
mkdir -p "$OUT/raw"
CSV="$OUT/results.csv"

# The files of the static-* scenarios, written for this run (nothing binary is committed). Every server
# reads BENCH_STATIC_DIR; nginx gets the same directory as its /static/ alias.
STATIC_DIR="$ROOT/$OUT/raw/static"
mkdir -p "$STATIC_DIR"
head -c 768 /dev/urandom | base64 -w 0 | head -c 1024 > "$STATIC_DIR/1k.txt"
head -c 1048576 /dev/urandom > "$STATIC_DIR/1m.bin"
awk 'BEGIN { printf "["; for (i = 0; n < 102400; i++) { s = sprintf("%s{\"id\":%d,\"name\":\"event %d\",\"venue\":\"Hall %d\",\"tags\":[\"music\",\"live\"]}", i ? "," : "", i, i, i % 17); printf "%s", s; n += length(s) } print "]" }' > "$STATIC_DIR/data.json"
export BENCH_STATIC_DIR="$STATIC_DIR"
PORT="${BENCH_PORT:-18080}"
STATS_PORT="${BENCH_STATS_PORT:-19080}"
# The TLS scenarios: a throwaway self-signed key made now under the run's directory (never committed);
# the servers that speak TLS serve it on TLS_PORT beside their plain port (BenchTls)
TLS_PORT=$((PORT + 363)) # 18443 with the default port
H2C_NGINX_PORT=$((PORT + 2)) # 18082 with the default port; nginx serves h2c only on a listener of its own ("listen ... http2" without ssl)
if [ "$NEED_TLS" = 1 ]; then
  "$JAVA" -cp "$CP" dev.brisk.bench.BenchTls "$ROOT/$OUT/raw/tls"
  export BENCH_TLS_DIR="$ROOT/$OUT/raw/tls" BENCH_TLS_PORT="$TLS_PORT"
fi
echo "round,server,scenario,connections,valid,rps,requests,p50_ms,p99_ms,p999_ms,cpu_us_per_req,bytes_per_req,rss_mb,kernel_us_per_req" > "$CSV"
SERVER_PID=""
CURRENT=""

stop_server() {
  stop_pid "$SERVER_PID"
  SERVER_PID=""
}
trap stop_server EXIT INT TERM

stats() { # prints "allocatedBytes cpuNanos kernelNanos"
  if [ "$CURRENT" = nginx ]; then # not a JVM: CPU of master and worker from /proc, no heap
    local pids
    pids="$SERVER_PID $(pgrep -P "$SERVER_PID" | tr '\n' ' ')"
    # shellcheck disable=SC2086 # one pid per word
    echo "0 $(proc_cpu_nanos $pids) $(proc_kernel_nanos $pids)"
    return
  fi
  local line=""
  exec 3<>"/dev/tcp/127.0.0.1/$STATS_PORT" && line=$(head -n 1 <&3); exec 3<&- 3>&- || true
  echo "${line:-0 0} $(proc_kernel_nanos "$SERVER_PID")" # a failed read: zeros, never shifted columns
}

# nginx: the limit of this machine for fixed answers (one worker, same core), not a peer
start_nginx() {
  if ! command -v nginx >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      (apt-get update -qq && apt-get install -y -qq nginx-light || apt-get install -y -qq nginx) >/dev/null 2>&1 || true
    fi
    command -v nginx >/dev/null 2>&1 || { echo "bench: nginx not installed; skipping it" >&2; return 1; }
  fi
  local dir="$ROOT/$OUT/raw/nginx"
  mkdir -p "$dir"
  # h2c with prior knowledge on a port of its own; TLS (h2 and http/1.1 by ALPN) when a TLS scenario runs
  local NGINX_LISTEN="    listen 127.0.0.1:$H2C_NGINX_PORT http2 backlog=1024;"
  if [ "$NEED_TLS" = 1 ]; then
    NGINX_LISTEN="$NGINX_LISTEN
    listen 127.0.0.1:$TLS_PORT ssl http2 backlog=1024;
    ssl_certificate $BENCH_TLS_DIR/cert.pem;
    ssl_certificate_key $BENCH_TLS_DIR/key.pem;
    ssl_protocols TLSv1.3 TLSv1.2;"
  fi
  cat > "$dir/nginx.conf" <<CONF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $dir;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$PORT backlog=1024;
$NGINX_LISTEN
    default_type text/plain;
    location = /hello { return 200 "Hello, World!"; }
    location = /json { default_type application/json; return 200 '{"message":"Hello, World!"}'; }
    location ~ ^/users/([^/]+)\$ { return 200 \$1; }
    location = /health { return 200 "OK"; }
    location = /consume { client_body_buffer_size 64k; return 204; }
    # the static-* scenarios: sendfile, and gzip at the level and threshold the JVM servers use
    location /static/ {
      alias $STATIC_DIR/;
      sendfile on;
      tcp_nopush on;
      gzip on;
      gzip_comp_level 6;
      gzip_min_length 1024;
      gzip_types application/json text/plain;
      types { text/plain txt; application/json json; application/octet-stream bin; }
    }
  }
}
CONF
  "${PIN_SERVER[@]}" nginx -c "$dir/nginx.conf" -g 'daemon off;' > "$OUT/raw/server-nginx.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "bench: nginx did not start; see $OUT/raw/server-nginx.log" >&2
  return 1
}

start_server() {
  local name="$1" cp="$CP" log
  CURRENT="$name"
  log="$OUT/raw/server-$(file_name "$name").log"
  if [ "$name" = nginx ]; then start_nginx; return; fi
  # baseline/<name>: the same server and flags, from the baseline's classes and dependencies
  if [[ $name == baseline/* ]]; then cp="$BASELINE_CP"; name="${name#baseline/}"; fi
  local main=(dev.brisk.bench.ServerMain "$name")
  if [ "$name" = spark ]; then cp="$SPARK_CP"; main=(dev.brisk.bench.spark.SparkMain); fi
  "${PIN_SERVER[@]}" "$JAVA" "${JVM_FLAGS[@]}" -cp "$cp" "${main[@]}" "$PORT" "$STATS_PORT" \
    > "$log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 300); do
    if grep -q '^ready' "$log" 2>/dev/null; then return 0; fi
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "bench: $CURRENT did not start; see $log" >&2
  return 1
}

# base_url PROTOCOL: where the current server serves it
base_url() {
  case "$1" in
    tls|h2) echo "https://127.0.0.1:$TLS_PORT" ;;
    h2c) if [ "$CURRENT" = nginx ]; then echo "http://127.0.0.1:$H2C_NGINX_PORT"; else echo "http://127.0.0.1:$PORT"; fi ;;
    *) echo "http://127.0.0.1:$PORT" ;;
  esac
}

run_wrk() { # scenario-line duration-seconds rawfile
  local line="$1" secs="$2" raw="$3" name path method body conns pipeline close rate proto header
  IFS='|' read -r name path method body conns pipeline close rate proto header <<< "$line"
  local threads=1
  BENCH_METHOD="$method" BENCH_BODY="$body" BENCH_PIPELINE="$pipeline" BENCH_CLOSE="$close" BENCH_HEADER="$header" \
    "${PIN_CLIENT[@]}" wrk -t"$threads" -c"$conns" -d"${secs}s" --timeout 5s -s bench/wrk/scenario.lua \
    "$(base_url "${proto:-h1}")$path" > "$raw" 2>&1 || true
}

# A fixed-rate run: h2load logs every request (start, status, microseconds); this prints the same
# BENCH line as scenario.lua, counting every non-2xx status and unanswered request as an error.
# An h2c scenario: as fast as the server goes, "pipeline" streams at once per connection.
run_h2load() { # scenario-line duration-seconds rawfile
  local line="$1" secs="$2" raw="$3" name path method body conns pipeline close rate proto
  IFS='|' read -r name path method body conns pipeline close rate proto <<< "$line"
  local log opts=()
  if [ "${proto:-h1}" = h2c ] || [ "${proto:-h1}" = h2 ]; then
    opts=(-m "$pipeline")
  else
    opts=(--h1 -m 1 --rps "$(( (rate + conns - 1) / conns ))")
  fi
  log=$(mktemp)
  "${PIN_CLIENT[@]}" h2load "${opts[@]}" -c "$conns" -D "$secs" -T 5 \
    --log-file="$log" "$(base_url "${proto:-h1}")$path" > "$raw" 2>&1 || true
  if [ "$raw" = /dev/null ]; then rm -f "$log"; return; fi
  local failed
  failed=$(sed -n 's/^requests:.* \([0-9]*\) failed.*/\1/p' "$raw" | head -n 1)
  sort -t$'\t' -k3,3n "$log" | awk -F'\t' -v secs="$secs" -v failed="${failed:-0}" '
    function pct(q,   i) { i = int(n * q) + 1; if (i > n) i = n; return lat[i] }
    { lat[NR] = $3; if ($2 < 200 || $2 > 299) bad++ }
    END {
      n = NR
      if (n == 0) { print "BENCH requests=0 duration_us=1 connect=1 read=0 write=0 status=0 timeout=0"; exit }
      printf "BENCH requests=%d duration_us=%d connect=0 read=0 write=0 status=%d timeout=%d p50_us=%.1f p99_us=%.1f p999_us=%.1f max_us=%.1f\n",
        n, secs * 1e6, bad + 0, failed, pct(0.5), pct(0.99), pct(0.999), lat[n] }' >> "$raw"
  rm -f "$log"
}

run_scenario() { # like run_wrk, choosing the tool by the scenario's fixed rate and protocol
  local rate proto
  rate=$(echo "$1" | cut -d'|' -f8)
  proto=$(echo "$1" | cut -d'|' -f9)
  if { [ -n "$rate" ] && [ "$rate" != 0 ]; } || [ "$proto" = h2c ] || [ "$proto" = h2 ]; then run_h2load "$@"; else run_wrk "$@"; fi
}

{
  describe_machine
  echo "wrk: $(wrk -v 2>&1 | head -n 1); h2load: $(h2load --version 2>&1 | head -n 1), fixed rate $RATE req/s"
  echo "jvm flags: ${JVM_FLAGS[*]}"
  echo "pinning: server '${PIN_SERVER[*]:-none}', client '${PIN_CLIENT[*]:-none}'"
  echo "rounds: $ROUNDS, duration: ${DURATION}s per scenario, warm-up: ${WARMUP}s per server start"
  echo "servers: $SERVERS"
  echo "scenarios: $SCENARIOS"
  if [ -n "$BASELINE_DIR" ]; then echo "baseline: $BASELINE_DESC"; fi
  echo "command: ./brisk bench $ARGS"
} > "$OUT/environment.txt"
cat "$OUT/environment.txt"

total=0
for _ in $(seq 1 "$ROUNDS"); do for _ in $(echo "$SERVERS" | tr ',' ' '); do
  for _ in $(echo "$SCENARIOS" | tr ',' ' '); do total=$((total + 1)); done; done; done
done_count=0
for round in $(seq 1 "$ROUNDS"); do
  order=$(echo "$SERVERS" | tr ',' ' ')
  # comparing with a baseline: every other round in reverse (A B, B A, ...), so neither side always runs
  # first after the other's load, and a slow drift of the machine hits both alike
  if [ -n "$BASELINE_DIR" ] && [ $((round % 2)) = 0 ]; then order=$(echo "$order" | tr ' ' '\n' | tac | tr '\n' ' '); fi
  for server in $order; do
    if ! start_server "$server"; then stop_server; continue; fi
    # warm-up: every scenario briefly, then the measurements
    for sc in $(echo "$SCENARIOS" | tr ',' ' '); do
      speaks "$server" "$sc" || continue
      line=$(echo "$ALL_SCENARIOS" | grep "^$sc|")
      run_scenario "$line" "$(( (WARMUP + 1) / 2 ))" /dev/null
    done
    for sc in $(echo "$SCENARIOS" | tr ',' ' '); do
      line=$(echo "$ALL_SCENARIOS" | grep "^$sc|") || { echo "bench: unknown scenario $sc" >&2; exit 2; }
      # nginx answers only fixed routes; it does not echo bodies
      if [ "$server" = nginx ] && [ "$sc" = echo ]; then done_count=$((done_count + 1)); continue; fi
      # the static-file scenarios need a static-file handler of the server's own; the HTTP/2 and TLS
      # ones a server that speaks them
      if ! speaks "$server" "$sc"; then done_count=$((done_count + 1)); continue; fi
      # microhttp ignores "Connection: close" (ScenarioConformanceTest.closesAfterConnectionClose), so
      # wrk would reuse its connections and "churn" would measure keep-alive
      if [ "${server#baseline/}" = microhttp ] && [ "$sc" = churn ]; then done_count=$((done_count + 1)); continue; fi
      conns=$(echo "$line" | cut -d'|' -f5)
      raw="$OUT/raw/r$round-$(file_name "$server")-$sc.txt"
      read -r alloc0 cpu0 sys0 < <(stats)
      run_scenario "$line" "$DURATION" "$raw"
      read -r alloc1 cpu1 sys1 < <(stats)
      rss_kb=$(awk '/VmRSS/ {print $2}' "/proc/$SERVER_PID/status" 2>/dev/null || echo 0)
      requests=$(field requests "$raw"); requests=${requests:-0}
      dur=$(field duration_us "$raw"); dur=${dur:-1}
      errs=0
      for e in connect read write status timeout; do v=$(field "$e" "$raw"); errs=$((errs + ${v:-1})); done
      valid=$([ "$errs" = 0 ] && [ "$requests" -gt 0 ] && echo yes || echo no)
      awk -v r="$round" -v s="$server" -v sc="$sc" -v c="$conns" -v ok="$valid" -v n="$requests" -v d="$dur" \
          -v p50="$(field p50_us "$raw")" -v p99="$(field p99_us "$raw")" -v p999="$(field p999_us "$raw")" \
          -v a0="${alloc0:-0}" -v a1="${alloc1:-0}" -v c0="${cpu0:-0}" -v c1="${cpu1:-0}" -v rss="$rss_kb" \
          -v k0="${sys0:-0}" -v k1="${sys1:-0}" \
          'BEGIN { n = n + 0; rps = n / (d / 1e6);
                   printf "%s,%s,%s,%s,%s,%.0f,%d,%.3f,%.3f,%.3f,%.2f,%.0f,%.0f,%.2f\n", r, s, sc, c, ok, rps, n,
                     p50 / 1000, p99 / 1000, p999 / 1000, n ? (c1 - c0) / n / 1000 : 0, n ? (a1 - a0) / n : 0, rss / 1024,
                     n ? (k1 - k0) / n / 1000 : 0 }' \
          >> "$CSV"
      done_count=$((done_count + 1))
      printf '[%3d/%d] round %d %-26s %-12s %s\n' "$done_count" "$total" "$round" "$server" "$sc" \
        "$(tail -n 1 "$CSV" | awk -F, '{printf "%8s req/s  p99 %6s ms  %6s us/req  %6s B/req  valid=%s", $6, $9, $11, $12, $5}')"
    done
    stop_server
  done
done

"$JAVA" -cp "$CP" dev.brisk.bench.Report "$OUT"
echo "bench: report in $OUT/report.md"
if [ "$SMOKE" = 1 ]; then
  rows=$(tail -n +2 "$CSV" | wc -l); bad=$(tail -n +2 "$CSV" | awk -F, '$5 != "yes"' | wc -l)
  expected=$(( $(echo "$SERVERS" | tr ',' '\n' | wc -l) * $(echo "$SCENARIOS" | tr ',' '\n' | wc -l) ))
  if [ "$rows" != "$expected" ] || [ "$bad" != 0 ] || ! grep -q '^| \*\*brisk' "$OUT/report.md" ||
     { [[ ",$SERVERS," == *,baseline/* ]] && ! grep -q '^## This tree against the baseline' "$OUT/report.md"; }; then
    echo "bench smoke: FAILED ($rows of $expected runs, $bad invalid)" >&2; exit 1
  fi
  echo "bench smoke: passed ($rows runs, report and charts written)"
fi
