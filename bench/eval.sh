#!/usr/bin/env bash
# EVALSHA of a 3-command script on kevy-server against Redis 7, side by side on this machine (results: the
# scripting section of docs/benchmarks.md).
#
# The script (loaded by SCRIPT LOAD on each server): SET KEYS[1] ARGV[1], INCR KEYS[1]..':n', GET KEYS[1], over
# 10,000 keys, run with redis-benchmark against kevy (feed off, then feed on: the SET and the INCR emit their
# frames) and against redis-server, alternating A B C for ROUNDS rounds; it prints the median requests/s of each
# and the ratios kevy/Redis. Ratios from one run are the figure to compare; absolute numbers depend on the machine.
#
# Usage: bench/eval.sh [--help] [--csv] [--quick] [--rounds N] [--requests N] [--pipeline N]
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

redis_benchmark_options eval.sh "$@"

SCRIPT="redis.call('set', KEYS[1], ARGV[1]) redis.call('incr', KEYS[1] .. ':n') return redis.call('get', KEYS[1])"

# rps PORT SHA -> requests/s of one redis-benchmark run
rps() {
  redis-benchmark -p "$1" -c 50 -n "$REQUESTS" -P "$PIPELINE" --csv -r 10000 EVALSHA "$2" 1 k:__rand_int__ v \
    2>/dev/null | tail -n +2 | head -1 | tr -d '"' | cut -d, -f2
}

redis_version=$( [[ $HAVE_REDIS == 1 ]] && redis-server --version | awk '{print $3}' || echo none)
if [[ $CSV == 1 ]]; then
  echo "# machine: $(machine) redis=$redis_version rounds=$ROUNDS requests=$REQUESTS pipeline=$PIPELINE"
  echo "workload,kevy_rps,kevy_feed_rps,redis_rps,ratio,ratio_feed"
else
  echo "machine: $(machine)"
  echo "redis $redis_version; $ROUNDS rounds x $REQUESTS EVALSHA (3 calls), 50 clients, -P $PIPELINE"
fi

w=evalsha3
kport=$(free_port); start_kevy "$kport" --no-aof; kpid=$LAST_PID
fport=$(free_port); start_kevy "$fport" --no-aof --feed; fpid=$LAST_PID
rport=0; [[ $HAVE_REDIS == 1 ]] && { rport=$(free_port); start_redis "$rport" --appendonly no; rpid=$LAST_PID; }
sha=""
for p in "$kport" "$fport" "$rport"; do
  if [[ $p != 0 ]]; then
    sha=$(redis-cli -p "$p" SCRIPT LOAD "$SCRIPT")
    redis-benchmark -p "$p" -c 50 -n 100000 -P 16 -r 10000 EVALSHA "$sha" 1 k:__rand_int__ v >/dev/null 2>&1 || true
  fi
done
: >"$WORK/k.txt"; : >"$WORK/f.txt"; : >"$WORK/r.txt"
for _ in $(seq 1 "$ROUNDS"); do
  rps "$kport" "$sha" >>"$WORK/k.txt"
  rps "$fport" "$sha" >>"$WORK/f.txt"
  [[ $rport != 0 ]] && rps "$rport" "$sha" >>"$WORK/r.txt"
done
stop_server "$kport" "$kpid"; stop_server "$fport" "$fpid"; [[ $rport != 0 ]] && stop_server "$rport" "$rpid"
k=$(median <"$WORK/k.txt"); f=$(median <"$WORK/f.txt"); r=$( [[ -s $WORK/r.txt ]] && median <"$WORK/r.txt" || echo 0)
ratio=$(awk -v k="$k" -v r="$r" 'BEGIN { if (r > 0) printf "%.2f", k / r; else print "n/a" }')
ratiof=$(awk -v k="$f" -v r="$r" 'BEGIN { if (r > 0) printf "%.2f", k / r; else print "n/a" }')
if [[ $CSV == 1 ]]; then echo "$w,$k,$f,$r,$ratio,$ratiof"
else printf '%-8s kevy %10.0f/s  kevy+feed %10.0f/s  redis %10.0f/s  kevy/redis %s  kevy+feed/redis %s\n' \
       "$w" "$k" "$f" "$r" "$ratio" "$ratiof"; fi
