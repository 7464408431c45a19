#!/usr/bin/env bash
# A/B of kevy builds or JVM options ("measure before and after a change that claims speed"): each
# variant runs as its own kevy-server (feed on unless the variant sets KEVY_FEED, AOF as --aof), next to a
# Redis 7 with the same appendfsync, all started together and measured in turn, round after round, with
# redis-benchmark. Prints per test and pipelining the median requests/s of each, its ratio to Redis, and the
# median server CPU per request (utime + stime of the server process over the run / requests, µs): the
# steadier figure on a shared machine. With --sets N, the servers are started N times afresh (one JVM's JIT
# outcome moves a figure by several percent), and each variant's ratio to the first one is also given as the
# mean of the sets' own ratios with its 95% confidence interval (the sets are the independent samples).
#
# Usage: bench/compare.sh [--help] [--csv] [--rounds N] [--requests N] [--tests set,get] [--pipelines "1 16"]
#                         [--aof off|everysec|always] [--sets N] [--warmup N] [--pin on|off]
#                         [NAME=JAR[,JVM-OPTION...]...]
#   NAME=JAR    a kevy-server jar to measure under NAME; JVM options and KEVY_* settings may follow after
#               commas, e.g. par=kevy-server/target/kevy-server.jar,-XX:+UseParallelGC or
#               two=kevy-server/target/kevy-server.jar,KEVY_IO_THREADS=2,KEVY_TRANSPORT=epoll or, the feed
#               off, off=kevy-server/target/kevy-server.jar,KEVY_FEED=false
#               Without variants: the current build (kevy-server/target/kevy-server.jar) as "kevy".
#   --rounds    rounds of all variants in turn per set (default 3); --requests per run (default 200000)
#   --sets      times all servers are started afresh, warmed up and measured, 1 to 100 (default 1)
#   --warmup    unmeasured requests per server and test before the rounds, in runs of at most 1M at -P 16
#               (default 300000; 5000000 fills a feed server's 64 MiB backlogs with SETs, as feed.sh does)
#   --tests     redis-benchmark -t tests, and the scripted ones (each script loaded with SCRIPT LOAD, run by
#               EVALSHA with its keys declared, touching no other key):
#                 evalsha1  INCR, EXPIRE and TTL of KEYS[1] (one key: one shard)
#                 evalsha2  SET KEYS[1] ARGV[1], INCR KEYS[2], GET KEYS[1] (two keys, one or two shards)
#                 mixed     evalsha2 at -c 25 while a GET run at -c 25 goes on beside it: rows MIXED_EVALSHA2
#                           (its requests/s) and MIXED_GET (GETs answered meanwhile per second, from INFO
#                           commandstats), each with the CPU per request of both together
#   --pin       on: redis-benchmark on CPU 0, the servers on the other CPUs (taskset), as feed.sh; off (default)
#   --csv       machine-readable lines: name,pipeline,test,rps_median,cpu_us_median,ratio_to_redis,
#               then, with 2 or more sets, the mean of the sets' changes against the first variant in percent
#               (requests/s, CPU per request) and their 95% CIs
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

CSV=0; ROUNDS=3; REQUESTS=200000; TESTS="set,get"; PIPES="1 16"; AOF=everysec; SETS=1; WARMUP=300000; PIN=off; SPECS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --csv) CSV=1 ;;
    --rounds) need_value compare.sh "$1" "$@"; ROUNDS="$2"; shift ;;
    --requests) need_value compare.sh "$1" "$@"; REQUESTS="$2"; shift ;;
    --tests) need_value compare.sh "$1" "$@"; TESTS="$2"; shift ;;
    --pipelines) need_value compare.sh "$1" "$@"; PIPES="$2"; shift ;;
    --aof) need_value compare.sh "$1" "$@"; AOF="$2"; shift ;;
    --sets) need_value compare.sh "$1" "$@"; SETS="$2"; shift ;;
    --warmup) need_value compare.sh "$1" "$@"; WARMUP="$2"; shift ;;
    --pin) need_value compare.sh "$1" "$@"; PIN="$2"; shift ;;
    --*=*) echo "compare.sh: options take their value after a space (${1%%=*} ${1#*=}), not '='" >&2; exit 2 ;;
    *=*) SPECS+=("$1") ;;
    *) echo "compare.sh: unknown argument $1 (variants are NAME=JAR[,JVM-OPTION...]; see --help)" >&2; exit 2 ;;
  esac
  shift
done
SCRIPTED=" evalsha1 evalsha2 mixed "
PLAIN=""; for t in ${TESTS//,/ }; do [[ "$SCRIPTED" == *" $t "* ]] || PLAIN+="${PLAIN:+,}$t"; done
[[ -z "$PLAIN" ]] || check_tests compare.sh "$PLAIN"
# the scripts of the scripted tests, and their EVALSHA arguments after the SHA1
SCRIPT1="return {redis.call('incr', KEYS[1]), redis.call('expire', KEYS[1], 3600), redis.call('ttl', KEYS[1])}"
SCRIPT2="redis.call('set', KEYS[1], ARGV[1]) redis.call('incr', KEYS[2]) return redis.call('get', KEYS[1])"
ARGS1=(1 c:__rand_int__); ARGS2=(2 k:__rand_int__ n:__rand_int__ v)
check_count compare.sh --rounds "$ROUNDS" 1 1000; check_count compare.sh --requests "$REQUESTS"
check_count compare.sh --sets "$SETS" 1 100; check_count compare.sh --warmup "$WARMUP" 0
case "$PIN" in on|off) ;; *) echo "compare.sh: --pin must be on or off, not $PIN" >&2; exit 2 ;; esac
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
NAMES=(); for spec in "${SPECS[@]}"; do NAMES+=("${spec%%=*}"); done
command -v redis-server >/dev/null && NAMES+=(redis)
pin_servers "$PIN" || echo "compare.sh: --pin on needs 2 or more CPUs and taskset; not pinned" >&2

# start_set: every variant's server, then Redis when installed; sets PORTS and PIDS in the order of NAMES
start_set() {
  PORTS=(); PIDS=()
  local spec name rest jar opts settings items item kv port aof_args feed
  for spec in "${SPECS[@]}"; do
    name="${spec%%=*}"; rest="${spec#*=}"; jar="${rest%%,*}"; opts=""; settings=()
    if [[ "$rest" == *,* ]]; then
      IFS=, read -r -a items <<<"${rest#*,}"
      for item in "${items[@]}"; do
        if [[ "$item" =~ ^KEVY_[A-Z0-9_]+= ]]; then settings+=("$item"); else opts="$opts $item"; fi
      done
    fi
    port=$(free_port)
    aof_args=(--appendfsync "$AOF"); [[ "$AOF" == off ]] && aof_args=(--no-aof)
    feed=(--feed); [[ " ${settings[*]} " == *" KEVY_FEED="* ]] && feed=() # the variant's KEVY_FEED decides
    for kv in "${settings[@]}"; do export "${kv?}"; done
    KEVY_JAR="$(readlink -f "$jar")" SERVER_JAVA_OPTS="$SERVER_JAVA_OPTS $opts" start_kevy "$port" "${feed[@]}" "${aof_args[@]}"
    for kv in "${settings[@]}"; do unset "${kv%%=*}"; done
    PORTS+=("$port"); PIDS+=("$LAST_PID")
  done
  if command -v redis-server >/dev/null; then
    port=$(free_port)
    if [[ "$AOF" == off ]]; then start_redis "$port" --appendonly no; else start_redis "$port" --appendonly yes --appendfsync "$AOF"; fi
    PORTS+=("$port"); PIDS+=("$LAST_PID")
  fi
}
REF=""; command -v redis-server >/dev/null && REF=redis

# load_scripts: SCRIPT LOAD of both scripts on every server of the set; sets SHA1 and SHA2 (the same everywhere)
load_scripts() {
  local port
  for port in "${PORTS[@]}"; do
    SHA1=$(redis-cli -p "$port" SCRIPT LOAD "$SCRIPT1"); SHA2=$(redis-cli -p "$port" SCRIPT LOAD "$SCRIPT2")
  done
}
# bench PORT CLIENTS REQUESTS PIPELINE TEST [--csv]: one redis-benchmark run of TEST (a -t test or evalsha1/2)
bench() {
  local port="$1" c="$2" n="$3" p="$4" t="$5"; shift 5
  case "$t" in
    evalsha1) "${CLIENT[@]}" redis-benchmark -p "$port" -c "$c" -n "$n" -r 100000 -P "$p" "$@" EVALSHA "$SHA1" "${ARGS1[@]}" ;;
    evalsha2) "${CLIENT[@]}" redis-benchmark -p "$port" -c "$c" -n "$n" -r 100000 -P "$p" "$@" EVALSHA "$SHA2" "${ARGS2[@]}" ;;
    *) "${CLIENT[@]}" redis-benchmark -p "$port" -c "$c" -n "$n" -r 100000 -P "$p" -d 3 -t "$t" "$@" ;;
  esac
}
csv_rps() { tail -n +2 | head -1 | tr -d '"' | cut -d, -f2; }
get_calls() { redis-cli -p "$1" INFO commandstats | tr -d '\r' | sed -n 's/^cmdstat_get:calls=\([0-9]*\),.*/\1/p'; }
now_ns() { date +%s%N; }
# measure I PIPELINE TEST SET: the rows of one measured run of TEST on server I, appended to RES
measure() {
  local i="$1" p="$2" t="$3" set="$4" port="${PORTS[$1]}" pid="${PIDS[$1]}" t0 t1 rps cpu g0 g1 w0 w1 bg get_rps
  t0=$(ticks "$pid")
  if [[ "$t" == mixed ]]; then
    # started directly (not through bench, a function: its subshell would be the process killed below)
    "${CLIENT[@]}" redis-benchmark -p "$port" -c 25 -n 1000000000 -r 100000 -P "$p" -d 3 -t get -q >/dev/null 2>&1 &
    bg=$!
    sleep 1
    g0=$(get_calls "$port"); w0=$(now_ns); t0=$(ticks "$pid")
    rps=$(bench "$port" 25 "$REQUESTS" "$p" evalsha2 --csv 2>/dev/null | csv_rps)
    g1=$(get_calls "$port"); w1=$(now_ns); t1=$(ticks "$pid")
    kill "$bg" 2>/dev/null || true; wait "$bg" 2>/dev/null || true
    get_rps=$(awk -v a="${g0:-0}" -v b="${g1:-0}" -v w="$((w1 - w0))" 'BEGIN { printf "%.1f", (b - a) * 1e9 / w }')
    cpu=$(cpu_us $((t1 - t0)) "$((REQUESTS + ${g1:-0} - ${g0:-0}))")
    echo "${NAMES[$i]},$p,MIXED_EVALSHA2,$rps,$cpu,$set" >>"$RES"
    echo "${NAMES[$i]},$p,MIXED_GET,$get_rps,$cpu,$set" >>"$RES"
    return
  fi
  rps=$(bench "$port" 50 "$REQUESTS" "$p" "$t" --csv 2>/dev/null | csv_rps)
  t1=$(ticks "$pid")
  cpu=$(cpu_us $((t1 - t0)) "$REQUESTS")
  echo "${NAMES[$i]},$p,${t^^},$rps,$cpu,$set" >>"$RES"
}

if [[ $CSV == 1 ]]; then echo "# machine: $(machine) rounds=$ROUNDS requests=$REQUESTS aof=$AOF sets=$SETS warmup=$WARMUP pin=\"$PINNED\""; echo "name,pipeline,test,rps_median,cpu_us_median,ratio_to_redis$([[ $SETS -ge 2 ]] && echo ",rps_change_vs_first_pct_mean,rps_change_vs_first_pct_ci95,cpu_change_vs_first_pct_mean,cpu_change_vs_first_pct_ci95")"
else echo "machine: $(machine), $SETS set(s) of servers x $ROUNDS rounds x $REQUESTS requests, warm-up $WARMUP, 50 clients, keys over 100k, 3-byte values, AOF $AOF, $PINNED"; fi
RES="$WORK/compare.csv"; : >"$RES"
for set in $(seq 1 "$SETS"); do
  start_set
  load_scripts
  # unmeasured: the JVMs compile the hot path (and, with a large --warmup, feed servers fill their backlogs)
  warm=(); [[ -n "$PLAIN" ]] && warm+=("$PLAIN") # the -t tests warm up in one run
  for t in ${TESTS//,/ }; do
    case "$t" in evalsha1|evalsha2) warm+=("$t") ;; mixed) warm+=(evalsha2 get) ;; esac
  done
  for i in "${!PORTS[@]}"; do
    for w in "${warm[@]}"; do
      left=$WARMUP
      while [[ $left -gt 0 ]]; do
        n=$((left < 1000000 ? left : 1000000)); left=$((left - n))
        bench "${PORTS[$i]}" 50 "$n" 16 "$w" -q >/dev/null 2>&1
      done
    done
  done
  for _ in $(seq 1 "$ROUNDS"); do
    for p in $PIPES; do
      for t in ${TESTS//,/ }; do
        for i in "${!PORTS[@]}"; do
          measure "$i" "$p" "$t" "$set"
        done
      done
    done
  done
  for i in "${!PORTS[@]}"; do stop_server "${PORTS[$i]}" "${PIDS[$i]}"; done
done
[[ $CSV == 1 ]] || echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
# set_ratios NAME PIPELINE TEST COLUMN: per set, (NAME's median / the first variant's median - 1) * 100 of
# COLUMN (4 requests/s, 5 CPU per request), one line per set
set_ratios() {
  local s a b
  for s in $(seq 1 "$SETS"); do
    a=$(awk -F, -v n="$1" -v p="$2" -v t="$3" -v s="$s" -v c="$4" '$1==n && $2==p && $3==t && $6==s {print $c}' "$RES" | median)
    b=$(awk -F, -v n="${NAMES[0]}" -v p="$2" -v t="$3" -v s="$s" -v c="$4" '$1==n && $2==p && $3==t && $6==s {print $c}' "$RES" | median)
    awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.4f\n", (a / b - 1) * 100 }'
  done
}
ROWS=""; for t in ${TESTS//,/ }; do if [[ "$t" == mixed ]]; then ROWS+=" MIXED_EVALSHA2 MIXED_GET"; else ROWS+=" ${t^^}"; fi; done
for p in $PIPES; do
  for T in $ROWS; do
    line=$(printf '%-6s -P %-3s' "$T" "$p"); sets_line=""
    ref_rps=0; [[ -n $REF ]] && ref_rps=$(awk -F, -v n=redis -v p="$p" -v t="$T" '$1==n && $2==p && $3==t {print $4}' "$RES" | median)
    for n in "${NAMES[@]}"; do
      rps=$(awk -F, -v n="$n" -v p="$p" -v t="$T" '$1==n && $2==p && $3==t {print $4}' "$RES" | median)
      cpu=$(awk -F, -v n="$n" -v p="$p" -v t="$T" '$1==n && $2==p && $3==t {print $5}' "$RES" | median)
      ratio=$(awk -v a="$rps" -v b="$ref_rps" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "n/a" }')
      per_set=""
      if [[ $SETS -ge 2 && "$n" != "${NAMES[0]}" && "$n" != redis ]]; then
        # each set's medians against the first variant's in the same set, in percent; their mean and 95% CI
        read -r r_mean r_ci <<<"$(set_ratios "$n" "$p" "$T" 4 | mean_ci95)"
        read -r c_mean c_ci <<<"$(set_ratios "$n" "$p" "$T" 5 | mean_ci95)"
        per_set="$r_mean,$r_ci,$c_mean,$c_ci"
        sets_line+=$(printf '\n    %s vs %s, mean of %s sets: requests/s %+.1f%% (95%% CI %s), CPU per request %+.1f%% (%s)' \
          "$n" "${NAMES[0]}" "$SETS" "$r_mean" "$r_ci" "$c_mean" "$c_ci")
      fi
      [[ $SETS -ge 2 && -z "$per_set" ]] && per_set=",,," # the first variant and Redis: empty columns
      if [[ $CSV == 1 ]]; then echo "$n,$p,$T,$rps,$cpu,${ratio%x}${per_set:+,$per_set}"
      else line+=$(printf '  %s %.0f/s (%s) cpu %s us' "$n" "$rps" "$ratio" "$cpu"); fi
    done
    [[ $CSV == 1 ]] || echo "$line$sets_line"
  done
done
