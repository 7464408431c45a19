#!/usr/bin/env bash
# PUBLISH throughput of kevy-server against Redis 7 with 1, 10 and 100 subscribers on the channel, side by
# side on this machine (results: the Pub/Sub section of docs/benchmarks.md).
#
# For each subscriber count it starts kevy and redis-server, connects that many subscribers to one channel
# (one Python process reading every socket and discarding what it reads, so subscribers keep up), and runs
# redis-benchmark PUBLISH against each server, alternating A B A B for ROUNDS rounds. It prints the median
# requests/s of each and the ratio kevy/Redis, and checks afterwards that every subscriber is still connected
# (a subscriber dropped at client-output-buffer-limit pubsub would make the figures meaningless: "DROPPED").
# Ratios from one run are the figure to compare; absolute numbers depend on the machine.
#
# Usage: bench/pubsub.sh [--help] [--csv] [--quick] [--rounds N] [--requests N] [--subscribers 1,10,100]
#                        [--pipeline N] [--size BYTES]
#   --quick        one round of 50,000 requests
#   --subscribers  the subscriber counts to measure (default 1,10,100)
#   --pipeline     redis-benchmark -P (default 1: one PUBLISH per round trip per client)
#   --size         the message's size in bytes (default 64)
#   --csv          machine-readable lines: subscribers,kevy_rps,redis_rps,ratio,kevy_received_mb,redis_received_mb
# Env: SERVER_JAVA_OPTS extra JVM options for the kevy server; KEVY_HEAP its heap (bench/common.sh).
# Needs: redis-benchmark and redis-cli (Debian redis-tools), python3; redis-server for the Redis side.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"

CSV=0; ROUNDS=3; REQUESTS=200000; SUBSCRIBERS="1,10,100"; PIPELINE=1; SIZE=64
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --csv) CSV=1 ;;
    --quick) ROUNDS=1; REQUESTS=50000 ;;
    --rounds) need_value pubsub.sh "$1" "$@"; ROUNDS="$2"; shift ;;
    --requests) need_value pubsub.sh "$1" "$@"; REQUESTS="$2"; shift ;;
    --subscribers) need_value pubsub.sh "$1" "$@"; SUBSCRIBERS="$2"; shift ;;
    --pipeline) need_value pubsub.sh "$1" "$@"; PIPELINE="$2"; shift ;;
    --size) need_value pubsub.sh "$1" "$@"; SIZE="$2"; shift ;;
    *) echo "pubsub.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
check_count pubsub.sh --rounds "$ROUNDS" 1 1000; check_count pubsub.sh --requests "$REQUESTS"
check_count pubsub.sh --pipeline "$PIPELINE" 1 1000; check_count pubsub.sh --size "$SIZE" 1 1048576
[[ "$SUBSCRIBERS" =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "pubsub.sh: --subscribers takes counts like 1,10,100; not '$SUBSCRIBERS'" >&2; exit 2; }
for n in ${SUBSCRIBERS//,/ }; do check_count pubsub.sh --subscribers "$n" 1 1000; done
for c in redis-benchmark redis-cli python3; do
  command -v "$c" >/dev/null || { echo "pubsub.sh: $c not found" >&2; exit 2; }
done
HAVE_REDIS=1; command -v redis-server >/dev/null || HAVE_REDIS=0
package_if_stale "$KEVY_JAR" kevy-server kevy-common

# The subscribers: N connections SUBSCRIBEd to "bench", read without pause until SIGTERM, which prints the bytes
# received. Writes READY_FILE once every subscription is confirmed.
cat >"$WORK/subscribers.py" <<'PY'
import selectors, signal, socket, sys
port, n, ready = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
sel, total, socks = selectors.DefaultSelector(), 0, []
for _ in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"*2\r\n$9\r\nSUBSCRIBE\r\n$5\r\nbench\r\n")
    want = b"*3\r\n$9\r\nsubscribe\r\n$5\r\nbench\r\n:1\r\n"
    got = b""
    while len(got) < len(want):
        got += s.recv(len(want) - len(got))
    s.setblocking(False)
    sel.register(s, selectors.EVENT_READ)
    socks.append(s)
open(ready, "w").close()
stop = False
def on_term(*_):
    global stop
    stop = True
signal.signal(signal.SIGTERM, on_term)
buf = bytearray(1 << 20)
while not stop:
    for key, _ in sel.select(timeout=0.2):
        try:
            total += key.fileobj.recv_into(buf)
        except BlockingIOError:
            pass
print(total)
PY

# measure PORT SUBSCRIBERS -> "rps received_bytes connected_after"
measure() {
  local port="$1" n="$2" ready="$WORK/ready-$1" subs rps connected received
  rm -f "$ready"
  python3 "$WORK/subscribers.py" "$port" "$n" "$ready" >"$WORK/received-$port" &
  subs=$!
  for _ in $(seq 1 600); do [[ -f "$ready" ]] && break; sleep 0.05; done
  rps=$(redis-benchmark -p "$port" -c 50 -n "$REQUESTS" -P "$PIPELINE" --csv PUBLISH bench "$MESSAGE" 2>/dev/null \
    | tail -n +2 | head -1 | tr -d '"' | cut -d, -f2)
  connected=$(redis-cli -p "$port" PUBSUB NUMSUB bench | tail -1)
  kill -TERM "$subs"; wait "$subs" || true
  received=$(cat "$WORK/received-$port")
  echo "${rps:-0} ${received:-0} $connected"
}

MESSAGE=$(head -c "$SIZE" /dev/zero | tr '\0' 'm')
redis_version=$( [[ $HAVE_REDIS == 1 ]] && redis-server --version | awk '{print $3}' || echo none)
if [[ $CSV == 1 ]]; then
  echo "# machine: $(machine) redis=$redis_version rounds=$ROUNDS requests=$REQUESTS pipeline=$PIPELINE size=$SIZE"
  echo "subscribers,kevy_rps,redis_rps,ratio,kevy_received_mb,redis_received_mb"
else
  echo "machine: $(machine)"
  echo "redis $redis_version; $ROUNDS rounds x $REQUESTS PUBLISH of $SIZE bytes, 50 clients, -P $PIPELINE"
fi

for n in ${SUBSCRIBERS//,/ }; do
  kport=$(free_port); start_kevy "$kport" --no-aof; kpid=$LAST_PID
  rport=0; [[ $HAVE_REDIS == 1 ]] && { rport=$(free_port); start_redis "$rport" --appendonly no; rpid=$LAST_PID; }
  # warm up: a fresh JVM compiles PUBLISH's path only after it has run a while
  redis-benchmark -p "$kport" -c 50 -n 100000 -P 16 PUBLISH warm "$MESSAGE" >/dev/null 2>&1 || true
  : >"$WORK/k.txt"; : >"$WORK/r.txt"; status=ok
  for _ in $(seq 1 "$ROUNDS"); do
    read -r rps rcv conn < <(measure "$kport" "$n"); echo "$rps $rcv" >>"$WORK/k.txt"; [[ $conn == "$n" ]] || status=DROPPED
    if [[ $rport != 0 ]]; then
      read -r rps rcv conn < <(measure "$rport" "$n"); echo "$rps $rcv" >>"$WORK/r.txt"; [[ $conn == "$n" ]] || status=DROPPED
    fi
  done
  stop_server "$kport" "$kpid"; [[ $rport != 0 ]] && stop_server "$rport" "$rpid"
  k=$(cut -d' ' -f1 "$WORK/k.txt" | median); r=$(cut -d' ' -f1 "$WORK/r.txt" | median)
  kmb=$(cut -d' ' -f2 "$WORK/k.txt" | median | awk '{printf "%.1f", $1 / 1048576}')
  rmb=$(cut -d' ' -f2 "$WORK/r.txt" | median | awk '{printf "%.1f", $1 / 1048576}')
  ratio=$(awk -v k="$k" -v r="$r" 'BEGIN { if (r > 0) printf "%.2f", k / r; else print "n/a" }')
  if [[ $CSV == 1 ]]; then echo "$n,$k,$r,$ratio,$kmb,$rmb"
  else printf 'subscribers=%-4s kevy %10.0f/s  redis %10.0f/s  kevy/redis %s  received MB kevy %s redis %s  %s\n' \
         "$n" "$k" "$r" "$ratio" "$kmb" "$rmb" "$status"; fi
done
