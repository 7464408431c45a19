#!/usr/bin/env bash
# The change feed's costs (issue 10), one line per figure:
#   (a) overhead: SET requests/s of kevy with the feed on vs off (AOF off in both, so only the feed differs),
#       redis-benchmark against two servers alternating A B A B, medians, ratio on/off, 50 clients, -P 1 and 16,
#       after 5M unmeasured SETs per server that fill the feed server's backlog (the steady state);
#   (b) drain: frames/s one reader takes from a full backlog at COUNT 4096, remote (FEED.READ against a server
#       process) and embedded (io.kevy.embedded.Store), raw reads and through a FeedConsumer;
#   (c) latency: a write's acknowledgement to the FeedConsumer handler, p50/p99/p99.9 at 1k, 10k and 50k
#       writes/s, with BLOCK and with polling (the consumer's block(Duration.ZERO)), AOF everysec.
# (b) and (c) run io.kevy.bench.FeedBench from bench/target/benchmarks.jar. Each section prints the load
# average it started at; ratios within one section are the figures to compare.
#
# Usage: bench/feed.sh [--csv] [--quick] [--only overhead|drain|latency] [--rounds N] [--requests N]
#                      [--frames N] [--seconds S] [--rates R1,R2,...] [--modes block,poll]
#   --quick     2 rounds x 100k requests, 200k frames, 2 s per latency point
#   --csv       machine-readable: a "# machine: ..." line, then figure,value,unit,params
# Env: SERVER_JAVA_OPTS, HARNESS_JAVA_OPTS extra JVM options for the kevy servers and the Java harness
#      (e.g. -XX:StartFlightRecording=filename=x.jfr,settings=profile).
# Needs: java 17, redis-benchmark and redis-cli (Debian redis-tools).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"

CSV=0; ROUNDS=4; REQUESTS=200000; WARMUP=5000000; FRAMES=1000000; SECONDS_PER=5; RATES="1000,10000,50000"; MODES="block,poll"; ONLY=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --csv) CSV=1 ;;
    --quick) ROUNDS=2; REQUESTS=100000; WARMUP=500000; FRAMES=200000; SECONDS_PER=2 ;;
    --only) ONLY="$2"; shift ;;
    --rounds) ROUNDS="$2"; shift ;;
    --requests) REQUESTS="$2"; shift ;;
    --frames) FRAMES="$2"; shift ;;
    --seconds) SECONDS_PER="$2"; shift ;;
    --rates) RATES="$2"; shift ;;
    --modes) MODES="$2"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
case "$ONLY" in ""|overhead|drain|latency) ;; *) echo "feed.sh: --only takes overhead, drain or latency; not $ONLY" >&2; exit 2 ;; esac
for m in ${MODES//,/ }; do
  case "$m" in block|poll) ;; *) echo "feed.sh: --modes takes block and/or poll; not $m" >&2; exit 2 ;; esac
done
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
command -v redis-benchmark >/dev/null || { echo "feed.sh: redis-benchmark not found (apt-get install redis-tools)" >&2; exit 2; }
build_if_stale

CSVFLAG=(); [[ $CSV == 1 ]] && CSVFLAG=(--csv)
if [[ $CSV == 1 ]]; then echo "# machine: $(machine)"; echo "figure,value,unit,params"; else echo "machine: $(machine)"; fi
say() { if [[ $CSV == 1 ]]; then echo "# $*"; else echo "$*"; fi; }
line() { # figure value unit params
  if [[ $CSV == 1 ]]; then echo "$1,$2,$3,\"$4\""; else printf '%-34s %14s %-9s %s\n' "$1" "$2" "$3" "$4"; fi
}
want() { [[ -z "$ONLY" || "$ONLY" == "$1" ]]; }

if want overhead; then
  say "(a) feed overhead, load $(load1)"
  off=$(free_port); start_kevy "$off" --no-aof; off_pid=$LAST_PID
  on=$(free_port); start_kevy "$on" --no-aof --feed; on_pid=$LAST_PID
  # warm-up, not measured: the JIT compiles the write path, and the feed server's backlog fills to its budget
  # (64mb per shard, ~1.9M SET frames each), so the rounds measure the steady state: a backlog that evicts
  # its oldest frames and reuses its chunks, rather than one growing into heap pages touched for the first time
  for port in "$off" "$on"; do
    redis-benchmark -p "$port" -c 50 -n "$WARMUP" -r 100000 -P 16 -d 3 -t set -q >/dev/null 2>&1
  done
  for pipe in 1 16; do
    : >"$WORK/off.txt"; : >"$WORK/on.txt"
    for _ in $(seq 1 "$ROUNDS"); do
      for side in off on; do
        port=$off; [[ $side == on ]] && port=$on
        redis-benchmark -p "$port" -c 50 -n "$REQUESTS" -r 100000 -P "$pipe" -d 3 -t set --csv 2>/dev/null \
          | tail -n +2 | tr -d '"' | cut -d, -f2 >>"$WORK/$side.txt"
      done
    done
    k_off=$(median <"$WORK/off.txt"); k_on=$(median <"$WORK/on.txt")
    ratio=$(awk -v a="$k_on" -v b="$k_off" 'BEGIN { printf "%.3f", a / b }')
    params="SET -c 50 -P $pipe -d 3, $ROUNDS rounds A B alternating, medians: off $k_off/s on $k_on/s"
    line "overhead.set.P$pipe.ratio_on_off" "$ratio" "x" "$params"
    line "overhead.set.P$pipe.percent" "$(awk -v r="$ratio" 'BEGIN { printf "%.1f", (1 - r) * 100 }')" "%" "$params"
  done
  stop_server "$off" "$off_pid"; stop_server "$on" "$on_pid"
fi

if want drain; then
  say "(b) drain, load $(load1)"
  port=$(free_port); start_kevy "$port" --no-aof --feed; pid=$LAST_PID
  harness io.kevy.bench.FeedBench drain --port "$port" --frames "$FRAMES" "${CSVFLAG[@]}"
  stop_server "$port" "$pid"
  harness io.kevy.bench.FeedBench drain-embedded --frames "$FRAMES" "${CSVFLAG[@]}"
fi

if want latency; then
  say "(c) write-to-handler latency, load $(load1)"
  port=$(free_port); start_kevy "$port" --feed --appendfsync everysec; pid=$LAST_PID
  harness io.kevy.bench.FeedBench latency --port "$port" --rates "$RATES" --modes "$MODES" --seconds "$SECONDS_PER" "${CSVFLAG[@]}"
  stop_server "$port" "$pid"
fi
say "done, load $(load1)"
