# Argument checks shared by the bench scripts (sourced, not run).

# need_value SCRIPT OPTION "$@": fails with a one-line message when OPTION has no value after it
need_value() { [[ $# -ge 4 && "$4" != --* ]] || { echo "$1: $2 needs a value (see --help)" >&2; exit 2; }; }
# check_tests SCRIPT a,b,...: every name must be a redis-benchmark -t test
REDIS_BENCHMARK_TESTS=" ping_inline ping_mbulk set get incr lpush rpush lpop rpop sadd hset spop zadd zpopmin lrange lrange_100 lrange_300 lrange_500 lrange_600 mset "
check_tests() {
  local t
  for t in ${2//,/ }; do
    [[ "$REDIS_BENCHMARK_TESTS" == *" ${t,,} "* ]] || { echo "$1: no redis-benchmark test named $t (one of:$REDIS_BENCHMARK_TESTS)" >&2; exit 2; }
  done
}
