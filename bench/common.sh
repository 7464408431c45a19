# Helpers shared by every bench script (sourced, not run; callers set ROOT): the --help text, argument checks,
# and rebuilding a jar when a source it depends on is newer.

# usage: prints the calling script's header comment (line 2 up to `set -euo pipefail`) as its --help
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

# The kevy servers' heap and memory options, as docs/operations.md recommends for production: a fixed heap,
# touched at start (-XX:+AlwaysPreTouch) and backed by transparent huge pages where the kernel allows
# (madvise or always in /sys/kernel/mm/transparent_hugepage/enabled). Measured in docs/benchmarks.md against
# -Xms1g -Xmx4g: SET -P 16 1.47 -> 1.13 us of server CPU per request, GET -P 16 1.00 -> 0.87 (fewer TLB misses).
# Each kevy server holds the whole heap from its start (feed.sh runs two at a time: 6 GiB). KEVY_HEAP="" runs the JVM's
# defaults; bench/memory.sh sets its own (a small start, so RSS follows the live heap).
KEVY_HEAP="${KEVY_HEAP--Xms3g -Xmx3g -XX:+UseTransparentHugePages -XX:+AlwaysPreTouch}"

# extra JVM options for kevy server processes, e.g. SERVER_JAVA_OPTS="-XX:StartFlightRecording=filename=k.jfr"
SERVER_JAVA_OPTS="${SERVER_JAVA_OPTS:-}"

# kevy_jvm [OPTION...]: the JVM options of a kevy server: KEVY_HEAP, then OPTIONs (SERVER_JAVA_OPTS, a
# compare.sh variant's); when an OPTION sets the heap (-Xms/-Xmx), KEVY_HEAP's -Xms/-Xmx are left out, so
# -Xmx1g does not meet -Xms3g
kevy_jvm() {
  local heap="$KEVY_HEAP" o
  if [[ " $* " =~ \ -Xm[sx] ]]; then
    heap=""
    for o in $KEVY_HEAP; do [[ "$o" == -Xm[sx]* ]] || heap+="$o "; done
  fi
  echo $heap "$@"
}
# kevy_jvm_label [OPTION...]: kevy_jvm for a machine line, "JVM defaults" when it is empty
kevy_jvm_label() { local o; o=$(kevy_jvm "$@"); echo "${o:-JVM defaults}"; }

# mean_ci95: reads one number per line; prints the mean and its 95% confidence interval "lo..hi" (Student's t for
# n - 1 degrees of freedom, 2.0 beyond 30), or "n/a" for fewer than two numbers
mean_ci95() {
  awk 'BEGIN { split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 " \
                     "2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ") }
       { x[NR] = $1; s += $1 }
       END {
         if (NR == 0) { print "0 n/a"; exit }
         m = s / NR
         if (NR < 2) { printf "%.1f n/a\n", m; exit }
         for (i = 1; i <= NR; i++) v += (x[i] - m) ^ 2
         h = (NR - 1 <= 30 ? t[NR - 1] : 2.0) * sqrt(v / (NR - 1) / NR)
         printf "%.1f %.1f..%.1f\n", m, m - h, m + h
       }'
}

# check_count SCRIPT OPTION VALUE [MIN=1] [MAX=100000000]: VALUE must be a whole number from MIN to MAX (decimal,
# no leading zeros: checked as text first, so a 30-digit number cannot wrap bash's 64-bit arithmetic)
check_count() {
  local min="${4:-1}" max="${5:-100000000}"
  [[ "$3" =~ ^(0|[1-9][0-9]{0,9})$ ]] && (( $3 >= min && $3 <= max )) \
    || { echo "$1: $2 takes a whole number from $min to $max; not $3" >&2; exit 2; }
}

# check_words SCRIPT OPTION VALUE WORD...: VALUE must be a comma-separated, non-empty list of the WORDs
check_words() {
  local script="$1" option="$2" value="$3" w ok a; shift 3
  [[ "$value" =~ ^[a-z]+(,[a-z]+)*$ ]] || { echo "$script: $option takes a comma-separated list of: $*; not '$value'" >&2; exit 2; }
  for w in ${value//,/ }; do
    ok=0; for a in "$@"; do [[ "$w" == "$a" ]] && ok=1; done
    [[ $ok == 1 ]] || { echo "$script: $option takes a comma-separated list of: $*; not $w" >&2; exit 2; }
  done
}

# need_value SCRIPT OPTION "$@": fails with a one-line message when OPTION has no (or an empty) value after it
need_value() { [[ $# -ge 4 && -n "$4" && "$4" != --* ]] || { echo "$1: $2 needs a value (see --help)" >&2; exit 2; }; }
# wait_ping PORT [PID]: waits up to 20 s for PING; fails at once when process PID has exited
wait_ping() {
  for _ in $(seq 1 400); do
    redis-cli -p "$1" PING >/dev/null 2>&1 && return 0
    if [[ -n "${2:-}" ]] && ! kill -0 "$2" 2>/dev/null; then echo "$(basename "$0"): the server for port $1 exited at start" >&2; return 1; fi
    sleep 0.05
  done
  echo "$(basename "$0"): the server on port $1 did not answer PING in 20 s" >&2; return 1
}

# check_tests SCRIPT a,b,...: every name must be a redis-benchmark -t test
REDIS_BENCHMARK_TESTS=" ping_inline ping_mbulk set get incr lpush rpush lpop rpop sadd hset spop zadd zpopmin lrange lrange_100 lrange_300 lrange_500 lrange_600 mset "
check_tests() {
  local t
  [[ "$2" =~ ^[A-Za-z0-9_]+(,[A-Za-z0-9_]+)*$ ]] || { echo "$1: tests are comma-separated names, e.g. set,get; not '$2'" >&2; exit 2; }
  for t in ${2//,/ }; do
    [[ "$REDIS_BENCHMARK_TESTS" == *" ${t,,} "* ]] || { echo "$1: no redis-benchmark test named $t (one of:$REDIS_BENCHMARK_TESTS)" >&2; exit 2; }
  done
}

# package_if_stale JAR MODULE [DEPENDENCY...]: builds MODULE (with -am) when JAR is missing or older than the root
# pom or a pom or main source of MODULE and its DEPENDENCYs; offline first, online when that fails.
package_if_stale() {
  local jar="$1" module="$2" m paths=("$ROOT/pom.xml")
  shift
  for m in "$@"; do paths+=("$ROOT/$m/pom.xml" "$ROOT/$m/src/main"); done
  [[ -f "$jar" && -z "$(find "${paths[@]}" -newer "$jar" -print -quit 2>/dev/null)" ]] && return 0
  echo "$(basename "$0"): building $module..." >&2
  (cd "$ROOT" && { ./mvnw -q -B -o -DskipTests -DskipITs package -pl "$module" -am >/dev/null 2>&1 \
    || ./mvnw -q -B -DskipTests -DskipITs package -pl "$module" -am >/dev/null; })
}
