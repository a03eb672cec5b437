# Shared by the bench scripts (harness.sh, overload.sh, metrics-cost.sh, engines.sh): sourced, never run.
# Pinning, the JVM flags every server gets, tools installed when missing, CPU time from /proc.

# Usage mistakes, as the launcher reports them: one line on stderr, exit 2. BENCH_MODE is set by the
# script ("bench", "bench --events", ...).
bench_usage_error() {
  printf "brisk: %s for '%s'; see ./brisk %s --help\n" "$1" "$BENCH_MODE" "$BENCH_MODE" >&2
  exit 2
}

# need_value OPTION [NEXT...]: the option's value must follow it (set -u would otherwise stop the script
# with an unbound-variable message).
need_value() {
  [ $# -ge 2 ] && [ -n "$2" ] && [ "${2#--}" = "$2" ] || bench_usage_error "$1 needs a value"
}

# print_usage SCRIPT: the script's header comment (line 2 up to 'set -euo pipefail'), as its --help.
print_usage() { sed -n '2,/^set -euo/p' "$1" | sed '$d; s/^# \{0,1\}//'; }

# The launcher runs each script with BRISK_CHECK_ARGS=1 first, so that a usage mistake is reported
# before it builds: the script stops right after parsing its options.
checked_args_only() { [ -n "${BRISK_CHECK_ARGS:-}" ]; }

# every JVM server in every bench script gets these (README "Benchmarks", method)
# native access: the io_uring transport calls the kernel through FFM (no warning, and no refusal later)
# AutoBoxCacheMax: the JDK's epoll selector boxes every ready descriptor number (a map lookup); above 127
# that is 16 B per ready connection, for every NIO server alike (README "Allocation")
BENCH_JVM_FLAGS=(-Xms512m -Xmx512m -XX:+UseG1GC -XX:+AlwaysPreTouch -XX:AutoBoxCacheMax=65536 --enable-native-access=ALL-UNNAMED)

# require_tool TOOL PACKAGE [WHAT FOR]: installs the Debian package when TOOL is missing and we are
# root with apt-get; otherwise exits with how to install it.
require_tool() {
  local tool="$1" package="$2" why="${3:-}"
  command -v "$tool" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "bench: installing $tool (Debian package $package)"
    (apt-get update -qq && apt-get install -y -qq "$package") >/dev/null
  else
    echo "bench: $tool is required${why:+ for $why} (apt-get install $package)" >&2; exit 1
  fi
}

# Sets PIN_SERVER and PIN_CLIENT (command prefixes): the server on core 0, the load generator on
# core 1, when there are two cores and taskset.
pin_cores() {
  if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null 2>&1; then
    PIN_SERVER=(taskset -c 0); PIN_CLIENT=(taskset -c 1)
  else
    PIN_SERVER=(); PIN_CLIENT=(); echo "bench: fewer than 2 cores: not pinning (results are less meaningful)"
  fi
}

# proc_nanos FIELDS PID...: the awk sum FIELDS of /proc/<pid>/stat (clock ticks) over the processes, in
# nanoseconds (clock-tick resolution, usually 10 ms); a process that is gone counts 0.
proc_nanos() {
  local fields="$1" ticks=0 pid
  shift
  for pid in "$@"; do
    ticks=$((ticks + $(awk "{print $fields}" "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo $((ticks * 1000000000 / $(getconf CLK_TCK)))
}

# proc_cpu_nanos PID...: user + system CPU time of the processes so far, in nanoseconds.
proc_cpu_nanos() { proc_nanos '$14 + $15' "$@"; }

# proc_kernel_nanos PID...: the system (kernel) part only: the share of a server's CPU that no user-space
# change can save (socket reads and writes, epoll, loopback TCP).
proc_kernel_nanos() { proc_nanos '$15' "$@"; }

# wait_http URL SECONDS: until URL answers 2xx; fails (with a message) after SECONDS.
wait_http() {
  local i
  for ((i = 0; i < $2 * 10; i++)); do curl -fs -o /dev/null "$1" && return 0; sleep 0.1; done
  echo "bench: $1 not answering after $2 s" >&2; return 1
}

# stop_pid PID: SIGTERM, up to 10 s for a graceful stop, then SIGKILL.
stop_pid() {
  local pid="$1"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# The first lines of every run's environment.txt: date, commit, machine, JDK ($JAVA).
describe_machine() {
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (dirty)')"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/ {print $2}') GiB, kernel $(uname -r)"
  echo "jdk: $("$JAVA" -version 2>&1 | head -n 1)"
}

# field NAME FILE: the number after NAME= in FILE (the BENCH lines of wrk/scenario.lua), first match.
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" "$2" | head -n 1; }
