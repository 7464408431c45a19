#!/usr/bin/env bash
# Replication figures of kevy-server (results: the Replication section of docs/benchmarks.md):
#   lag         replication lag p50/p99 at 10k and 50k writes/s (RATES): one writer sends SET at a fixed rate to
#               the primary while a FeedConsumer reads a replica's feed (same shard count: the replica mirrors the
#               primary's feed); lag = from the primary's acknowledgement to the replica's feed serving the change
#               (FeedBench latency --read-port, block mode, 1 s warm-up per rate not recorded)
#   full sync   time for a new replica to hold all KEYS keys of a primary (DEBUG POPULATE), from REPLICAOF to
#               master_link_status:up with DBSIZE equal
#   throughput  SET requests/s of redis-benchmark against the primary with 0 replicas, then with 2 (same shard
#               count: the replicas mirror its feed), and the ratio
# Ratios from one run are the figure to compare; absolute numbers depend on the machine (every process shares it).
#
# Usage: bench/replication.sh [--help] [--quick] [--keys N] [--requests N] [--pipeline N] [--rates R1,R2]
#                              [--seconds S]
#   --quick     shorter runs: --requests 100000 --seconds 3 (the full sync stays at --keys)
#   --keys      keys for the full sync (default 1000000)
#   --requests  redis-benchmark requests per throughput run (default 300000)
#   --pipeline  redis-benchmark -P (default 16)
#   --rates     writes/s of the lag runs (default 10000,50000)
#   --seconds   measured seconds per lag rate (default 5)
# Env: SERVER_JAVA_OPTS extra JVM options for the kevy servers; KEVY_HEAP their heap (bench/common.sh).
# Needs: redis-benchmark and redis-cli (Debian redis-tools), python3.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"

KEYS=1000000; REQUESTS=300000; PIPELINE=16; RATES=10000,50000; SECS=5
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --quick) REQUESTS=100000; SECS=3 ;;
    --rates) need_value replication.sh "$1" "$@"; RATES="$2"; shift ;;
    --seconds) need_value replication.sh "$1" "$@"; SECS="$2"; shift ;;
    --keys) need_value replication.sh "$1" "$@"; KEYS="$2"; shift ;;
    --requests) need_value replication.sh "$1" "$@"; REQUESTS="$2"; shift ;;
    --pipeline) need_value replication.sh "$1" "$@"; PIPELINE="$2"; shift ;;
    *) echo "replication.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
check_count replication.sh --keys "$KEYS"; check_count replication.sh --requests "$REQUESTS"
check_count replication.sh --pipeline "$PIPELINE" 1 1000; check_count replication.sh --seconds "$SECS" 1 600
[[ "$RATES" =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "replication.sh: --rates wants R1,R2,... (writes/s), got $RATES" >&2; exit 2; }
for c in redis-benchmark redis-cli python3 java; do
  command -v "$c" >/dev/null || { echo "replication.sh: $c not found" >&2; exit 2; }
done
package_if_stale "$KEVY_JAR" kevy-server kevy-common kevy-config
package_if_stale "$BENCH_JAR" bench kevy-common kevy-server feed-client feed-client-embedded
echo "machine: $(machine)"
SHARDS=(--shards 2 --feed --no-aof)

now_ms() { date +%s%3N; }
link_up() { redis-cli -p "$1" INFO replication | grep -q '^master_link_status:up'; }

# lag: primary + one mirroring replica, a fixed-rate writer on the primary, a FeedConsumer on the replica
p=$(free_port); start_kevy "$p" "${SHARDS[@]}"; primary=$LAST_PID
r=$(free_port); start_kevy "$r" "${SHARDS[@]}"; replica=$LAST_PID
redis-cli -p "$r" REPLICAOF 127.0.0.1 "$p" >/dev/null
until link_up "$r"; do sleep 0.05; done
harness io.kevy.bench.FeedBench latency --port "$p" --read-port "$r" --modes block --rates "$RATES" \
  --seconds "$SECS" --warmup 2
stop_server "$r" "$replica"; stop_server "$p" "$primary"

up_with() { # PORT KEYS: link up and DBSIZE = KEYS
  redis-cli -p "$1" INFO replication | grep -q '^master_link_status:up' && [[ $(redis-cli -p "$1" DBSIZE) == "$2" ]]
}

p=$(free_port); start_kevy "$p" "${SHARDS[@]}"; primary=$LAST_PID
redis-cli -p "$p" DEBUG POPULATE "$KEYS" >/dev/null
r=$(free_port); start_kevy "$r" "${SHARDS[@]}"
t0=$(now_ms); redis-cli -p "$r" REPLICAOF 127.0.0.1 "$p" >/dev/null
until up_with "$r" "$KEYS"; do sleep 0.05; done
echo "full sync: $KEYS keys in $(( $(now_ms) - t0 )) ms"
stop_server "$r" "$LAST_PID"
redis-cli -p "$p" FLUSHALL >/dev/null

rps() { redis-benchmark -p "$p" -t set -n "$REQUESTS" -P "$PIPELINE" -r 100000 -q 2>/dev/null \
  | tr '\r' '\n' | awk '/requests per second/ {print $2}' | tail -1; }
zero=$(rps)
for _ in 1 2; do
  r=$(free_port); start_kevy "$r" "${SHARDS[@]}"; redis-cli -p "$r" REPLICAOF 127.0.0.1 "$p" >/dev/null
  until redis-cli -p "$r" INFO replication | grep -q '^master_link_status:up'; do sleep 0.05; done
done
two=$(rps)
echo "SET throughput (P=$PIPELINE, $REQUESTS requests): 0 replicas $zero/s, 2 replicas $two/s, ratio $(awk -v a="$two" -v b="$zero" 'BEGIN {printf "%.2f", a / b}')"
stop_server "$p" "$primary"
