#!/usr/bin/env bash
# XADD and XREADGROUP throughput of kevy-server against Redis 7, side by side on this machine (results: the
# Streams section of docs/benchmarks.md).
#
# Two workloads, each run with redis-benchmark against kevy (feed off, then feed on) and against redis-server,
# alternating A B C for ROUNDS rounds; it prints the median requests/s of each and the ratios kevy/Redis:
#   xadd        XADD s MAXLEN ~ 100000 * f v   on one stream (appends, trimming whole nodes now and then)
#   xreadgroup  XREADGROUP GROUP g c:__rand_int__ COUNT 1 STREAMS q >   over 50 consumers of one group, on a
#               stream pre-filled with enough entries for every round (each read delivers one entry and makes it
#               pending; with the feed on it emits an XCLAIM and an XGROUP SETID frame)
# Ratios from one run are the figure to compare; absolute numbers depend on the machine.
#
# Usage: bench/streams.sh [--help] [--csv] [--quick] [--rounds N] [--requests N] [--pipeline N]
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

redis_benchmark_options streams.sh "$@"

# rps PORT WORKLOAD -> requests/s of one redis-benchmark run
rps() {
  local args
  case "$2" in
    xadd) args=(XADD s MAXLEN '~' 100000 '*' f v) ;;
    xreadgroup) args=(-r 50 XREADGROUP GROUP g c:__rand_int__ COUNT 1 STREAMS q '>') ;;
  esac
  redis-benchmark -p "$1" -c 50 -n "$REQUESTS" -P "$PIPELINE" --csv "${args[@]}" 2>/dev/null \
    | tail -n +2 | head -1 | tr -d '"' | cut -d, -f2
}

# prepare PORT: the warm-up, and for xreadgroup the stream q with enough entries and the group g
prepare() {
  redis-benchmark -p "$1" -c 50 -n 100000 -P 16 XADD w MAXLEN '~' 1000 '*' f v >/dev/null 2>&1 || true
  if [[ $2 == xreadgroup ]]; then
    redis-benchmark -p "$1" -c 50 -n $((ROUNDS * REQUESTS + 200000)) -P 64 XADD q '*' f v >/dev/null 2>&1
    redis-cli -p "$1" XGROUP CREATE q g 0 >/dev/null
    redis-benchmark -p "$1" -c 50 -n 100000 -P 16 -r 50 XREADGROUP GROUP g c:__rand_int__ COUNT 1 STREAMS q '>' \
      >/dev/null 2>&1 || true
  fi
}

redis_version=$( [[ $HAVE_REDIS == 1 ]] && redis-server --version | awk '{print $3}' || echo none)
if [[ $CSV == 1 ]]; then
  echo "# machine: $(machine) redis=$redis_version rounds=$ROUNDS requests=$REQUESTS pipeline=$PIPELINE"
  echo "workload,kevy_rps,kevy_feed_rps,redis_rps,ratio,ratio_feed"
else
  echo "machine: $(machine)"
  echo "redis $redis_version; $ROUNDS rounds x $REQUESTS requests, 50 clients, -P $PIPELINE"
fi

for w in xadd xreadgroup; do
  kport=$(free_port); start_kevy "$kport" --no-aof; kpid=$LAST_PID
  fport=$(free_port); start_kevy "$fport" --no-aof --feed; fpid=$LAST_PID
  rport=0; [[ $HAVE_REDIS == 1 ]] && { rport=$(free_port); start_redis "$rport" --appendonly no; rpid=$LAST_PID; }
  for p in "$kport" "$fport" "$rport"; do
    [[ $p != 0 ]] && prepare "$p" "$w"
  done
  : >"$WORK/k.txt"; : >"$WORK/f.txt"; : >"$WORK/r.txt"
  for _ in $(seq 1 "$ROUNDS"); do
    rps "$kport" "$w" >>"$WORK/k.txt"
    rps "$fport" "$w" >>"$WORK/f.txt"
    [[ $rport != 0 ]] && rps "$rport" "$w" >>"$WORK/r.txt"
  done
  check=$(redis-cli -p "$kport" XLEN "$( [[ $w == xadd ]] && echo s || echo q)" 2>/dev/null || true)
  stop_server "$kport" "$kpid"; stop_server "$fport" "$fpid"; [[ $rport != 0 ]] && stop_server "$rport" "$rpid"
  k=$(median <"$WORK/k.txt"); f=$(median <"$WORK/f.txt"); r=$( [[ -s $WORK/r.txt ]] && median <"$WORK/r.txt" || echo 0)
  ratio=$(awk -v k="$k" -v r="$r" 'BEGIN { if (r > 0) printf "%.2f", k / r; else print "n/a" }')
  ratiof=$(awk -v k="$f" -v r="$r" 'BEGIN { if (r > 0) printf "%.2f", k / r; else print "n/a" }')
  if [[ $CSV == 1 ]]; then echo "$w,$k,$f,$r,$ratio,$ratiof"
  else printf '%-10s kevy %10.0f/s  kevy+feed %10.0f/s  redis %10.0f/s  kevy/redis %s  kevy+feed/redis %s  (kevy XLEN: %s)\n' \
         "$w" "$k" "$f" "$r" "$ratio" "$ratiof" "${check:-?}"; fi
done
