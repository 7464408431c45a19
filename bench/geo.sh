#!/usr/bin/env bash
# GEOADD and GEOSEARCH throughput of kevy-server against Redis 7, side by side on this machine (results: the
# geo section of docs/benchmarks.md).
#
# Each workload runs with redis-benchmark against kevy (feed off, then feed on: a changing GEOADD emits
# ZADD k <score> m) and against redis-server, alternating A B C A B C for ROUNDS rounds; it prints the median
# requests/s of each and the ratios kevy/Redis. Every __rand_int__ is drawn on its own, from 0..99,999, so a
# coordinate __rand_int__e-5 is in [0, 1) degrees on a 1.1 m grid (a square of about 111 x 111 km at 0,0):
#   geoadd    GEOADD geo __rand_int__e-5 __rand_int__e-5 m:__rand_int__ (100,000 members, moved at random)
#   geosearch GEOSEARCH geo FROMLONLAT <random point> BYRADIUS 1 km ASC WITHDIST (about 25 hits in a
#             set of about 86,000 points: the warm-up's 200,000 adds)
# Ratios from one run are the figure to compare; absolute numbers depend on the machine.
#
# Usage: bench/geo.sh [--help] [--csv] [--quick] [--rounds N] [--requests N] [--pipeline N]
#   --quick     one round of 100,000 requests
#   --pipeline  redis-benchmark -P (default 1)
#   --csv       machine-readable lines: workload,kevy_rps,kevy_feed_rps,redis_rps,ratio,ratio_feed
# Env: SERVER_JAVA_OPTS extra JVM options for the kevy server; KEVY_HEAP its heap (bench/common.sh).
# Needs: redis-benchmark and redis-cli (Debian redis-tools), python3; redis-server for the Redis side.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"

redis_benchmark_options geo.sh "$@"

ADD=(GEOADD geo __rand_int__e-5 __rand_int__e-5 m:__rand_int__)
SEARCH=(GEOSEARCH geo FROMLONLAT __rand_int__e-5 __rand_int__e-5 BYRADIUS 1 km ASC WITHDIST)

# rps PORT WORKLOAD -> requests/s of one redis-benchmark run
rps() {
  local args
  case "$2" in
    geoadd) args=("${ADD[@]}") ;;
    geosearch) args=("${SEARCH[@]}") ;;
  esac
  redis-benchmark -p "$1" -c 50 -n "$REQUESTS" -P "$PIPELINE" -r 100000 --csv "${args[@]}" 2>/dev/null \
    | tail -n +2 | head -1 | tr -d '"' | cut -d, -f2
}

redis_version=$( [[ $HAVE_REDIS == 1 ]] && redis-server --version | awk '{print $3}' || echo none)
if [[ $CSV == 1 ]]; then
  echo "# machine: $(machine) redis=$redis_version rounds=$ROUNDS requests=$REQUESTS pipeline=$PIPELINE"
  echo "workload,kevy_rps,kevy_feed_rps,redis_rps,ratio,ratio_feed"
else
  echo "machine: $(machine)"
  echo "redis $redis_version; $ROUNDS rounds x $REQUESTS requests per workload, 50 clients, -P $PIPELINE"
fi

for w in geoadd geosearch; do
  kport=$(free_port); start_kevy "$kport" --no-aof; kpid=$LAST_PID
  fport=$(free_port); start_kevy "$fport" --no-aof --feed; fpid=$LAST_PID
  rport=0; [[ $HAVE_REDIS == 1 ]] && { rport=$(free_port); start_redis "$rport" --appendonly no; rpid=$LAST_PID; }
  # warm up (a fresh JVM compiles the paths only after a while) and fill the set the searches read
  for p in "$kport" "$fport" "$rport"; do
    if [[ $p != 0 ]]; then
      redis-benchmark -p "$p" -c 50 -n 200000 -P 16 -r 100000 "${ADD[@]}" >/dev/null 2>&1 || true
      redis-benchmark -p "$p" -c 50 -n 50000 -P 16 -r 100000 "${SEARCH[@]}" >/dev/null 2>&1 || true
    fi
  done
  : >"$WORK/k.txt"; : >"$WORK/f.txt"; : >"$WORK/r.txt"
  for _ in $(seq 1 "$ROUNDS"); do
    rps "$kport" "$w" >>"$WORK/k.txt"
    rps "$fport" "$w" >>"$WORK/f.txt"
    [[ $rport != 0 ]] && rps "$rport" "$w" >>"$WORK/r.txt"
  done
  size=$(redis-cli -p "$kport" ZCARD geo 2>/dev/null || true)
  hits=$(redis-cli -p "$kport" GEOSEARCH geo FROMLONLAT 0.5 0.5 BYRADIUS 1 km 2>/dev/null | wc -l || true)
  stop_server "$kport" "$kpid"; stop_server "$fport" "$fpid"; [[ $rport != 0 ]] && stop_server "$rport" "$rpid"
  k=$(median <"$WORK/k.txt"); f=$(median <"$WORK/f.txt"); r=$( [[ -s $WORK/r.txt ]] && median <"$WORK/r.txt" || echo 0)
  ratio=$(awk -v k="$k" -v r="$r" 'BEGIN { if (r > 0) printf "%.2f", k / r; else print "n/a" }')
  ratiof=$(awk -v k="$f" -v r="$r" 'BEGIN { if (r > 0) printf "%.2f", k / r; else print "n/a" }')
  if [[ $CSV == 1 ]]; then echo "$w,$k,$f,$r,$ratio,$ratiof"
  else printf '%-9s kevy %10.0f/s  kevy+feed %10.0f/s  redis %10.0f/s  kevy/redis %s  kevy+feed/redis %s  (set: %s members, %s hits at 0.5,0.5)\n' \
         "$w" "$k" "$f" "$r" "$ratio" "$ratiof" "${size:-?}" "${hits:-?}"; fi
done
