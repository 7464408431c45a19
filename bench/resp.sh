#!/usr/bin/env bash
# RESP throughput of kevy-server against Redis 7, side by side on this machine (results: docs/benchmarks.md).
#
# For each configuration (pipelining x value size x persistence, and kevy's feed off/on) it runs
# redis-benchmark against kevy and against redis-server with comparable persistence, alternating
# A B A B for ROUNDS rounds, and prints one line per test: the median requests/s of each and the
# ratio kevy/Redis. Ratios from one run are the figure to compare; absolute numbers depend on the machine.
#
# Usage: bench/resp.sh [--help] [--csv] [--quick] [--rounds N] [--requests N]
#                      [--aof off,everysec,always] [--feed off,on] [--tests set,get,...]
#   --quick     one round, pipelined and not, 3-byte values, AOF off and everysec only
#   --aof, --feed, --tests  only these configurations / tests (comma-separated); e.g. the issue's target rows:
#               bench/resp.sh --aof everysec --feed on --tests set,get
#   --csv       machine-readable lines: config,test,kevy_rps,redis_rps,ratio
# Env: SERVER_JAVA_OPTS extra JVM options for the kevy server.
# KEVY_HEAP: the kevy servers' heap and memory options, default -Xms3g -Xmx3g -XX:+UseTransparentHugePages
#   -XX:+AlwaysPreTouch (each server holds 3 GiB from its start; "" for the
#   JVM's defaults); -Xms/-Xmx in SERVER_JAVA_OPTS replace its heap sizes.
# Needs: redis-benchmark (Debian redis-tools); redis-server for the Redis side (skipped when missing).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"

CSV=0; QUICK=0; ROUNDS=5; REQUESTS=200000; ONLY_AOF=""; ONLY_FEED=""; ONLY_TESTS=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --csv) CSV=1 ;;
    --quick) QUICK=1; ROUNDS=1 ;;
    --rounds) need_value resp.sh "$1" "$@"; ROUNDS="$2"; shift ;;
    --requests) need_value resp.sh "$1" "$@"; REQUESTS="$2"; shift ;;
    --aof) need_value resp.sh "$1" "$@"; ONLY_AOF="${2//,/ }"; shift ;;
    --feed) need_value resp.sh "$1" "$@"; ONLY_FEED="${2//,/ }"; shift ;;
    --tests) need_value resp.sh "$1" "$@"; ONLY_TESTS="$2"; shift ;;
    *) echo "resp.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

check_count resp.sh --rounds "$ROUNDS" 1 1000; check_count resp.sh --requests "$REQUESTS"
[[ -z "$ONLY_AOF" ]] || check_words resp.sh --aof "${ONLY_AOF// /,}" off everysec always
[[ -z "$ONLY_FEED" ]] || check_words resp.sh --feed "${ONLY_FEED// /,}" off on
[[ -z "$ONLY_TESTS" ]] || check_tests resp.sh "$ONLY_TESTS"
command -v redis-benchmark >/dev/null || { echo "resp.sh: redis-benchmark not found (apt-get install redis-tools)" >&2; exit 2; }
HAVE_REDIS=1; command -v redis-server >/dev/null || HAVE_REDIS=0

JAR="$ROOT/kevy-server/target/kevy-server.jar"
package_if_stale "$JAR" kevy-server kevy-common
TESTS="set,get,incr,hset,lpush,sadd,zadd,mset"
WORK="$(mktemp -d)"
# stop the servers and wait for them before removing their directories (a server still writing its AOF would
# otherwise leave the temp dir behind)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

start_kevy() { # $1 port, $2 feed on|off, $3 aof off|everysec|always
  local dir="$WORK/kevy-$1"; mkdir -p "$dir"
  : >"$WORK/empty.toml"   # --config: a kevy.toml in the repository root stays out of the figures
  local args=(--config "$WORK/empty.toml" --port "$1" --dir "$dir")
  [[ "$2" == on ]] && args+=(--feed)
  if [[ "$3" == off ]]; then args+=(--no-aof); else args+=(--appendfsync "$3"); fi
  # shellcheck disable=SC2086
  KEVY_SAVE="" java $(kevy_jvm $SERVER_JAVA_OPTS) -jar "$JAR" "${args[@]}" >"$dir/log" 2>&1 &
  wait_ping "$1" $! || { echo "--- the end of its log:" >&2; tail -n 5 "$dir/log" >&2; return 1; }
}
start_redis() { # $1 port, $2 aof off|everysec|always
  local dir="$WORK/redis-$1"; mkdir -p "$dir"
  local aof=(--appendonly no)
  [[ "$2" != off ]] && aof=(--appendonly yes --appendfsync "$2")
  redis-server --port "$1" --bind 127.0.0.1 --save "" --dir "$dir" "${aof[@]}" --daemonize no >"$dir/log" 2>&1 &
  wait_ping "$1"
}
stop() { redis-cli -p "$1" SHUTDOWN NOSAVE >/dev/null 2>&1 || true; sleep 0.3; }

# run PORT PIPELINE SIZE -> "test,rps" lines
run() {
  redis-benchmark -p "$1" -c 50 -n "$REQUESTS" -r 100000 -P "$2" -d "$3" -t "$TESTS" --csv 2>/dev/null \
    | tail -n +2 | tr -d '"' | cut -d, -f1,2
}
# One discarded run per server before the measured rounds, of every test measured (pipelined, then not): a fresh
# JVM runs interpreted code at first and compiles each command's path only once it has run for a while, and the
# figures are meant to compare warm servers.
warm_up() {
  redis-benchmark -p "$1" -c 50 -n 300000 -r 100000 -P 16 -d "$2" -t "$TESTS" >/dev/null 2>&1 || true
  redis-benchmark -p "$1" -c 50 -n 50000 -r 100000 -d "$2" -t "$TESTS" >/dev/null 2>&1 || true
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print 0; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

cores=$(nproc); jvm=$(java -version 2>&1 | head -1); commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
redis_version=$( [[ $HAVE_REDIS == 1 ]] && redis-server --version | awk '{print $3}' || echo none)
if [[ $CSV == 1 ]]; then
  echo "# machine: cores=$cores jvm=\"$jvm\" commit=$commit redis=$redis_version kevy_jvm=\"$(kevy_jvm_label $SERVER_JAVA_OPTS)\" rounds=$ROUNDS requests=$REQUESTS load=\"$(cut -d' ' -f1-3 /proc/loadavg)\""
  echo "config,test,kevy_rps,redis_rps,ratio"
else
  echo "machine: $cores cores, $jvm, commit $commit, $redis_version, $ROUNDS rounds x $REQUESTS requests, 50 clients, keys over 100k, kevy JVM: $(kevy_jvm_label $SERVER_JAVA_OPTS), load $(cut -d' ' -f1-3 /proc/loadavg)"
fi

if [[ $QUICK == 1 ]]; then PIPES="1 16"; SIZES="3"; PERSIST="off everysec"; FEEDS="on"
else PIPES="1 16"; SIZES="3 1024"; PERSIST="off everysec always"; FEEDS="off on"; fi
[[ -n "$ONLY_AOF" ]] && PERSIST="$ONLY_AOF"
[[ -n "$ONLY_FEED" ]] && FEEDS="$ONLY_FEED"
[[ -n "$ONLY_TESTS" ]] && TESTS="$ONLY_TESTS"

for aof in $PERSIST; do
  for feed in $FEEDS; do
    for pipe in $PIPES; do
      for size in $SIZES; do
        config="aof=$aof feed=$feed P=$pipe d=$size"
        kport=$(free_port); start_kevy "$kport" "$feed" "$aof"
        rport=0; [[ $HAVE_REDIS == 1 ]] && { rport=$(free_port); start_redis "$rport" "$aof"; }
        warm_up "$kport" "$size"; [[ $rport != 0 ]] && warm_up "$rport" "$size"
        : >"$WORK/k.txt"; : >"$WORK/r.txt"
        for _ in $(seq 1 "$ROUNDS"); do
          run "$kport" "$pipe" "$size" >>"$WORK/k.txt"
          [[ $rport != 0 ]] && run "$rport" "$pipe" "$size" >>"$WORK/r.txt"
        done
        stop "$kport"; [[ $rport != 0 ]] && stop "$rport"
        while IFS= read -r t; do
          k=$(awk -F, -v t="$t" '$1 == t {print $2}' "$WORK/k.txt" | median)
          r=$(awk -F, -v t="$t" '$1 == t {print $2}' "$WORK/r.txt" | median)
          ratio=$(awk -v k="$k" -v r="$r" 'BEGIN { if (r > 0) printf "%.2f", k / r; else print "n/a" }')
          if [[ $CSV == 1 ]]; then echo "\"$config\",\"$t\",$k,$r,$ratio"
          else printf '%-34s %-16s kevy %12.0f/s  redis %12.0f/s  kevy/redis %s\n' "$config" "$t" "$k" "$r" "$ratio"; fi
        done < <(cut -d, -f1 "$WORK/k.txt" | awk '!seen[$0]++')
      done
    done
  done
done
