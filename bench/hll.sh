#!/usr/bin/env bash
# PFADD throughput of kevy-server against Redis 7, side by side on this machine (results: the HyperLogLog
# section of docs/benchmarks.md).
#
# Two workloads, each run with redis-benchmark against kevy (feed off, then feed on: every changing PFADD emits
# the HyperLogLog's bytes, up to 12 KiB for a dense one) and against redis-server, alternating A B C A B C for
# ROUNDS rounds; it prints the median requests/s of each and the ratios kevy/Redis:
#   sparse  PFADD hll:__rand_int__ e:__rand_int__ over 10,000 keys (small, sparse HyperLogLogs edited in place)
#   dense   PFADD hll e:__rand_int__ on one key (dense after its first few thousand elements)
# Ratios from one run are the figure to compare; absolute numbers depend on the machine.
#
# Usage: bench/hll.sh [--help] [--csv] [--quick] [--rounds N] [--requests N] [--pipeline N]
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

redis_benchmark_options hll.sh "$@"

# rps PORT WORKLOAD -> requests/s of one redis-benchmark run
rps() {
  local args
  case "$2" in
    sparse) args=(-r 10000 PFADD hll:__rand_int__ e:__rand_int__) ;;
    dense) args=(-r 100000000 PFADD hll e:__rand_int__) ;;
  esac
  redis-benchmark -p "$1" -c 50 -n "$REQUESTS" -P "$PIPELINE" --csv "${args[@]}" 2>/dev/null \
    | tail -n +2 | head -1 | tr -d '"' | cut -d, -f2
}

redis_version=$( [[ $HAVE_REDIS == 1 ]] && redis-server --version | awk '{print $3}' || echo none)
if [[ $CSV == 1 ]]; then
  echo "# machine: $(machine) redis=$redis_version rounds=$ROUNDS requests=$REQUESTS pipeline=$PIPELINE"
  echo "workload,kevy_rps,kevy_feed_rps,redis_rps,ratio,ratio_feed"
else
  echo "machine: $(machine)"
  echo "redis $redis_version; $ROUNDS rounds x $REQUESTS PFADD, 50 clients, -P $PIPELINE"
fi

for w in sparse dense; do
  kport=$(free_port); start_kevy "$kport" --no-aof; kpid=$LAST_PID
  fport=$(free_port); start_kevy "$fport" --no-aof --feed; fpid=$LAST_PID
  rport=0; [[ $HAVE_REDIS == 1 ]] && { rport=$(free_port); start_redis "$rport" --appendonly no; rpid=$LAST_PID; }
  # warm up: a fresh JVM compiles PFADD's path only after it has run a while (and the keys exist after it)
  for p in "$kport" "$fport" "$rport"; do
    [[ $p != 0 ]] && redis-benchmark -p "$p" -c 50 -n 100000 -P 16 -r 10000 PFADD hll:__rand_int__ e:__rand_int__ >/dev/null 2>&1 || true
  done
  : >"$WORK/k.txt"; : >"$WORK/f.txt"; : >"$WORK/r.txt"
  for _ in $(seq 1 "$ROUNDS"); do
    rps "$kport" "$w" >>"$WORK/k.txt"
    rps "$fport" "$w" >>"$WORK/f.txt"
    [[ $rport != 0 ]] && rps "$rport" "$w" >>"$WORK/r.txt"
  done
  enc=$(redis-cli -p "$kport" PFDEBUG ENCODING "$( [[ $w == dense ]] && echo hll || echo hll:000000000001)" 2>/dev/null || true)
  stop_server "$kport" "$kpid"; stop_server "$fport" "$fpid"; [[ $rport != 0 ]] && stop_server "$rport" "$rpid"
  k=$(median <"$WORK/k.txt"); f=$(median <"$WORK/f.txt"); r=$( [[ -s $WORK/r.txt ]] && median <"$WORK/r.txt" || echo 0)
  ratio=$(awk -v k="$k" -v r="$r" 'BEGIN { if (r > 0) printf "%.2f", k / r; else print "n/a" }')
  ratiof=$(awk -v k="$f" -v r="$r" 'BEGIN { if (r > 0) printf "%.2f", k / r; else print "n/a" }')
  if [[ $CSV == 1 ]]; then echo "$w,$k,$f,$r,$ratio,$ratiof"
  else printf '%-6s kevy %10.0f/s  kevy+feed %10.0f/s  redis %10.0f/s  kevy/redis %s  kevy+feed/redis %s  (a key: %s)\n' \
         "$w" "$k" "$f" "$r" "$ratio" "$ratiof" "${enc:-?}"; fi
done
