#!/usr/bin/env bash
# A/B of kevy builds or JVM options ("measure before and after a change that claims speed"): each
# variant runs as its own kevy-server (feed on, AOF as --aof), next to a Redis 7 with the same appendfsync, all
# started once and measured in turn, round after round, with redis-benchmark. Prints per test and pipelining the
# median requests/s of each, its ratio to Redis, and the median server CPU per request (utime + stime of the
# server process over the run / requests, µs): the steadier figure on a shared machine.
#
# Usage: bench/compare.sh [--help] [--csv] [--rounds N] [--requests N] [--tests set,get] [--pipelines "1 16"]
#                         [--aof off|everysec|always] [NAME=JAR[,JVM-OPTION...]...]
#   NAME=JAR    a kevy-server jar to measure under NAME; JVM options and KEVY_* settings may follow after
#               commas, e.g. par=kevy-server/target/kevy-server.jar,-XX:+UseParallelGC or
#               two=kevy-server/target/kevy-server.jar,KEVY_IO_THREADS=2,KEVY_TRANSPORT=epoll
#               Without variants: the current build (kevy-server/target/kevy-server.jar) as "kevy".
#   --rounds    rounds of all variants in turn (default 3); --requests per run (default 200000)
#   --csv       machine-readable lines: name,pipeline,test,rps_median,cpu_us_median,ratio_to_redis
# KEVY_HEAP: the kevy servers' heap and memory options, default -Xms3g -Xmx3g -XX:+UseTransparentHugePages
#   -XX:+AlwaysPreTouch (each server holds 3 GiB from its start; "" for the JVM's defaults); a variant's or
#   SERVER_JAVA_OPTS's -Xms/-Xmx replace its heap sizes.
# A jar of an older commit: git stash (or worktree), ./mvnw -q -o -DskipTests -DskipITs package -pl kevy-server -am,
# cp kevy-server/target/kevy-server.jar /tmp/before.jar. Needs redis-benchmark; Redis is skipped when missing.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"
for a in "$@"; do [[ "$a" == -h || "$a" == --help ]] && { usage; exit 0; }; done
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"

CSV=0; ROUNDS=3; REQUESTS=200000; TESTS="set,get"; PIPES="1 16"; AOF=everysec; SPECS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --csv) CSV=1 ;;
    --rounds) need_value compare.sh "$1" "$@"; ROUNDS="$2"; shift ;;
    --requests) need_value compare.sh "$1" "$@"; REQUESTS="$2"; shift ;;
    --tests) need_value compare.sh "$1" "$@"; TESTS="$2"; shift ;;
    --pipelines) need_value compare.sh "$1" "$@"; PIPES="$2"; shift ;;
    --aof) need_value compare.sh "$1" "$@"; AOF="$2"; shift ;;
    --*=*) echo "compare.sh: options take their value after a space (${1%%=*} ${1#*=}), not '='" >&2; exit 2 ;;
    *=*) SPECS+=("$1") ;;
    *) echo "compare.sh: unknown argument $1 (variants are NAME=JAR[,JVM-OPTION...]; see --help)" >&2; exit 2 ;;
  esac
  shift
done
check_tests compare.sh "$TESTS"
check_count compare.sh --rounds "$ROUNDS" 1 1000; check_count compare.sh --requests "$REQUESTS"
for p in $PIPES; do check_count compare.sh --pipelines "$p" 1 1000; done
[[ -n "${PIPES// /}" ]] || { echo "compare.sh: --pipelines takes pipeline depths, e.g. \"1 16\"" >&2; exit 2; }
case "$AOF" in off|everysec|always) ;; *) echo "compare.sh: --aof must be off, everysec or always, not $AOF" >&2; exit 2 ;; esac
command -v redis-benchmark >/dev/null || { echo "compare.sh: redis-benchmark not found (apt-get install redis-tools)" >&2; exit 2; }
if [[ ${#SPECS[@]} -eq 0 ]]; then
  build_if_stale
  SPECS=("kevy=$KEVY_JAR")
fi

# every variant checked before any server starts: a name of letters, digits, . _ -, unique, not redis; a jar
seen=" redis "
for spec in "${SPECS[@]}"; do
  name="${spec%%=*}"; jar="${spec#*=}"; jar="${jar%%,*}"
  [[ "$name" =~ ^[A-Za-z0-9._-]+$ ]] || { echo "compare.sh: a variant's name is letters, digits, '.', '_' or '-' before '='; not '$name' in $spec" >&2; exit 2; }
  [[ "$name" != redis ]] || { echo "compare.sh: the name redis is the reference server's; call the variant otherwise" >&2; exit 2; }
  [[ "$seen" != *" $name "* ]] || { echo "compare.sh: variant name $name is used twice" >&2; exit 2; }
  seen+="$name "
  [[ -f "$jar" ]] || { echo "compare.sh: $name: no such jar $jar" >&2; exit 2; }
done
NAMES=(); PORTS=(); PIDS=()
for spec in "${SPECS[@]}"; do
  name="${spec%%=*}"; rest="${spec#*=}"; jar="${rest%%,*}"; opts=""; settings=()
  if [[ "$rest" == *,* ]]; then
    IFS=, read -r -a items <<<"${rest#*,}"
    for item in "${items[@]}"; do
      if [[ "$item" =~ ^KEVY_[A-Z0-9_]+= ]]; then settings+=("$item"); else opts="$opts $item"; fi
    done
  fi
  [[ -f "$jar" ]] || { echo "compare.sh: $name: no such jar $jar" >&2; exit 2; }
  port=$(free_port)
  aof_args=(--appendfsync "$AOF"); [[ "$AOF" == off ]] && aof_args=(--no-aof)
  for kv in "${settings[@]}"; do export "${kv?}"; done
  KEVY_JAR="$(readlink -f "$jar")" SERVER_JAVA_OPTS="$SERVER_JAVA_OPTS $opts" start_kevy "$port" --feed "${aof_args[@]}"
  for kv in "${settings[@]}"; do unset "${kv%%=*}"; done
  NAMES+=("$name"); PORTS+=("$port"); PIDS+=("$LAST_PID")
done
REF=""
if command -v redis-server >/dev/null; then
  port=$(free_port)
  if [[ "$AOF" == off ]]; then start_redis "$port" --appendonly no; else start_redis "$port" --appendonly yes --appendfsync "$AOF"; fi
  NAMES+=(redis); PORTS+=("$port"); PIDS+=("$LAST_PID"); REF=redis
fi

if [[ $CSV == 1 ]]; then echo "# machine: $(machine) rounds=$ROUNDS requests=$REQUESTS aof=$AOF"; echo "name,pipeline,test,rps_median,cpu_us_median,ratio_to_redis"
else echo "machine: $(machine), $ROUNDS rounds x $REQUESTS requests, 50 clients, keys over 100k, 3-byte values, feed on, AOF $AOF"; fi
# one discarded run per server: the JVMs compile the hot path
for i in "${!PORTS[@]}"; do redis-benchmark -p "${PORTS[$i]}" -c 50 -n 300000 -r 100000 -P 16 -t "$TESTS" -q >/dev/null 2>&1; done
RES="$WORK/compare.csv"; : >"$RES"
for _ in $(seq 1 "$ROUNDS"); do
  for p in $PIPES; do
    for t in ${TESTS//,/ }; do
      for i in "${!PORTS[@]}"; do
        t0=$(ticks "${PIDS[$i]}")
        rps=$(redis-benchmark -p "${PORTS[$i]}" -c 50 -n "$REQUESTS" -r 100000 -P "$p" -d 3 -t "$t" --csv 2>/dev/null \
          | tail -n +2 | head -1 | tr -d '"' | cut -d, -f2)
        t1=$(ticks "${PIDS[$i]}")
        cpu=$(cpu_us $((t1 - t0)) "$REQUESTS")
        echo "${NAMES[$i]},$p,${t^^},$rps,$cpu" >>"$RES"
      done
    done
  done
done
[[ $CSV == 1 ]] || echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
for p in $PIPES; do
  for t in ${TESTS//,/ }; do
    T=${t^^}; line=$(printf '%-6s -P %-3s' "$T" "$p")
    ref_rps=0; [[ -n $REF ]] && ref_rps=$(awk -F, -v n=redis -v p="$p" -v t="$T" '$1==n && $2==p && $3==t {print $4}' "$RES" | median)
    for n in "${NAMES[@]}"; do
      rps=$(awk -F, -v n="$n" -v p="$p" -v t="$T" '$1==n && $2==p && $3==t {print $4}' "$RES" | median)
      cpu=$(awk -F, -v n="$n" -v p="$p" -v t="$T" '$1==n && $2==p && $3==t {print $5}' "$RES" | median)
      ratio=$(awk -v a="$rps" -v b="$ref_rps" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "n/a" }')
      if [[ $CSV == 1 ]]; then echo "$n,$p,$T,$rps,$cpu,${ratio%x}"
      else line+=$(printf '  %s %.0f/s (%s) cpu %s us' "$n" "$rps" "$ratio" "$cpu"); fi
    done
    [[ $CSV == 1 ]] || echo "$line"
  done
done
