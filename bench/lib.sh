# Shared by bench/feed.sh, compare.sh, memory.sh, rebuild.sh and the throughput scripts (hll, geo, streams, eval) (sourced, not run): building
# the benchmark jar when stale, the machine line, pinning, kevy/redis server processes on free ports, and their
# cleanup on exit.
# Callers set ROOT and `set -euo pipefail` first.

# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"
BENCH_JAR="$ROOT/bench/target/benchmarks.jar"
KEVY_JAR="$ROOT/kevy-server/target/kevy-server.jar"
WORK="$(mktemp -d)"
SERVER_PIDS=()
SERVER_CPUS="" # set by a script to pin the servers it starts next (start_kevy); never taken from the environment
# extra JVM options for the harness JVM (FeedBench, RebuildBench), e.g. a JFR recording of the client side
HARNESS_JAVA_OPTS="${HARNESS_JAVA_OPTS:-}"

cleanup() {
  local pid
  for pid in "${SERVER_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${SERVER_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# Rebuilds bench/target/benchmarks.jar (and kevy-server.jar) when a source or pom is newer than it.
build_if_stale() {
  package_if_stale "$BENCH_JAR" bench kevy-common kevy-server feed-client feed-client-embedded
  package_if_stale "$KEVY_JAR" kevy-server kevy-common
}

# "cores=2 cpu=... jvm=... commit=... load=..." (load = the 1-minute load average now)
machine() {
  local cpu jvm
  cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
  jvm=$(java -version 2>&1 | head -1 | tr -d '"')
  echo "cores=$(nproc) cpu=\"$cpu\" jvm=\"$jvm\" commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown) kevy_jvm=\"$(kevy_jvm_label $SERVER_JAVA_OPTS)\" load=$(cut -d' ' -f1 /proc/loadavg)"
}
load1() { cut -d' ' -f1 /proc/loadavg; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# start_kevy PORT [server options...]: a kevy-server process with its own data dir, snapshots off; sets LAST_PID.
# When it does not answer PING, prints the end of its log (the reason) and fails.
# An empty config file (--config) keeps a kevy.toml in the caller's directory out of the figures.
# SERVER_CPUS (a taskset CPU list, e.g. 1-3): when set, the server runs on those CPUs only, with the GC, shard
# count and io_threads it would choose unpinned.
start_kevy() {
  local port="$1"; shift
  local dir="$WORK/kevy-$port"; mkdir -p "$dir"; : >"$WORK/empty.toml"
  # pinned, the JVM would see only those CPUs and pick another GC (Serial on one CPU) and fewer shards:
  # ActiveProcessorCount keeps the configuration an unpinned server gets on this machine
  local pin=() cpus=(); [[ -n "$SERVER_CPUS" ]] && pin=(taskset -c "$SERVER_CPUS") && cpus=("-XX:ActiveProcessorCount=$(nproc)")
  # shellcheck disable=SC2086
  KEVY_SAVE="" "${pin[@]}" java "${cpus[@]}" $(kevy_jvm $SERVER_JAVA_OPTS) -jar "$KEVY_JAR" --config "$WORK/empty.toml" --port "$port" --dir "$dir" "$@" >"$dir/log" 2>&1 &
  LAST_PID=$!; SERVER_PIDS+=("$LAST_PID")
  wait_ping "$port" "$LAST_PID" || { echo "--- the end of its log:" >&2; tail -n 5 "$dir/log" >&2; return 1; }
}
# pin_servers on|off: with on, 2 or more CPUs and taskset, redis-benchmark runs on CPU 0 (CLIENT, a command prefix)
# and the servers started next on the others (SERVER_CPUS), so neither takes the other's core; sets PINNED to a
# description of either outcome. Returns 1 when on was asked and could not be done.
pin_servers() {
  CLIENT=(); SERVER_CPUS=""; PINNED="not pinned"
  [[ $1 == on ]] || return 0
  local cpus; cpus=$(nproc)
  [[ $cpus -ge 2 ]] && command -v taskset >/dev/null || return 1
  CLIENT=(taskset -c 0); SERVER_CPUS=1; PINNED="redis-benchmark on CPU 0, servers on CPU 1"
  [[ $cpus -gt 2 ]] && SERVER_CPUS="1-$((cpus - 1))" && PINNED="redis-benchmark on CPU 0, servers on CPUs $SERVER_CPUS"
  return 0
}
# start_redis PORT [redis options...]; sets LAST_PID. SERVER_CPUS pins it as start_kevy does.
start_redis() {
  local port="$1"; shift
  local dir="$WORK/redis-$port"; mkdir -p "$dir"
  local pin=(); [[ -n "$SERVER_CPUS" ]] && pin=(taskset -c "$SERVER_CPUS")
  "${pin[@]}" redis-server --port "$port" --bind 127.0.0.1 --save "" --dir "$dir" --daemonize no "$@" >"$dir/log" 2>&1 &
  LAST_PID=$!; SERVER_PIDS+=("$LAST_PID")
  wait_ping "$port"
}
# stop_server PORT PID: SHUTDOWN NOSAVE, then waits for the process
stop_server() {
  redis-cli -p "$1" SHUTDOWN NOSAVE >/dev/null 2>&1 || true
  kill "$2" 2>/dev/null || true
  wait "$2" 2>/dev/null || true
}
# ticks PID: the CPU time (user + system) a process has used so far, in clock ticks (getconf CLK_TCK per second)
ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; }
# cpu_us TICKS REQUESTS: server CPU microseconds per request
cpu_us() { awk -v d="$1" -v n="$2" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.3f\n", d * 1e6 / hz / n}'; }
median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print 0; else if (NR%2) print a[(NR+1)/2]; else printf "%.10g\n", (a[NR/2]+a[NR/2+1])/2}'; }
# harness MAIN-CLASS args...: runs a class of the benchmark jar
# shellcheck disable=SC2086
harness() { java -Xms512m -Xmx2g $HARNESS_JAVA_OPTS -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$BENCH_JAR" "$@"; }

# redis_benchmark_options SCRIPT ARGS...: the options of the redis-benchmark throughput scripts (hll.sh, geo.sh,
# streams.sh, eval.sh): sets CSV, ROUNDS, REQUESTS, PIPELINE and HAVE_REDIS, checks the tools, and builds the
# server jar when stale. Errors name SCRIPT.
redis_benchmark_options() {
  local name="$1"; shift
  CSV=0; ROUNDS=3; REQUESTS=300000; PIPELINE=1
  while [[ $# -gt 0 ]]; do
    case "$1" in
      -h|--help) usage; exit 0 ;;
      --csv) CSV=1 ;;
      --quick) ROUNDS=1; REQUESTS=100000 ;;
      --rounds) need_value "$name" "$1" "$@"; ROUNDS="$2"; shift ;;
      --requests) need_value "$name" "$1" "$@"; REQUESTS="$2"; shift ;;
      --pipeline) need_value "$name" "$1" "$@"; PIPELINE="$2"; shift ;;
      *) echo "$name: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
  done
  check_count "$name" --rounds "$ROUNDS" 1 1000; check_count "$name" --requests "$REQUESTS"
  check_count "$name" --pipeline "$PIPELINE" 1 1000
  for c in redis-benchmark redis-cli python3; do
    command -v "$c" >/dev/null || { echo "$name: $c not found" >&2; exit 2; }
  done
  HAVE_REDIS=1; command -v redis-server >/dev/null || HAVE_REDIS=0
  package_if_stale "$KEVY_JAR" kevy-server kevy-common
}
