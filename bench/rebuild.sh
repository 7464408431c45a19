#!/usr/bin/env bash
# ScanRebuild time (results: docs/benchmarks.md): a FeedConsumer (feed-client) rebuilding 1M string keys under the prefix rb:
# from a kevy server that also holds 1M other keys, over the network (loopback). One line per figure: the
# rebuild's duration, the wall time from consumer start, keys/s. Runs io.kevy.bench.RebuildBench from
# bench/target/benchmarks.jar against a fresh server process (feed on, AOF off, snapshots off).
#
# Usage: bench/rebuild.sh [--csv] [--quick] [--keys N] [--others N] [--read exact|plain|nomulti]
#   --read    exact (default): FEED.VALUE per key (exact rebuilds); plain: the reads of a server without FEED.VALUE
#             (upstream kevy): TYPE per page, then per shard MULTI, each key's TYPE/PEXPIRETIME/value read, FEED.TAIL,
#             EXEC (exact too where EXEC is atomic); nomulti: the reads of a server without MULTI either, FEED.TAIL
#             per page, then TYPE and the value reads (not exact; the reads before exact rebuilds)
#   --quick   200k keys among 200k others
#   --csv     machine-readable: a "# machine: ..." line, then figure,value,unit,params
# Env: SERVER_JAVA_OPTS, HARNESS_JAVA_OPTS extra JVM options for the kevy server and the Java harness
#      (e.g. -XX:StartFlightRecording=filename=x.jfr,settings=profile).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"

CSV=0; KEYS=1000000; OTHERS=1000000; READ=exact
while [[ $# -gt 0 ]]; do
  case "$1" in
    --csv) CSV=1 ;;
    --quick) KEYS=200000; OTHERS=200000 ;;
    --keys) need_value rebuild.sh "$1" "$@"; KEYS="$2"; shift ;;
    --others) need_value rebuild.sh "$1" "$@"; OTHERS="$2"; shift ;;
    --read) need_value rebuild.sh "$1" "$@"; READ="$2"; shift
            [[ $READ == exact || $READ == plain || $READ == nomulti ]] || { echo "rebuild.sh: --read is exact, plain or nomulti, got $READ" >&2; exit 2; } ;;
    -h|--help) usage; exit 0 ;;
    *) echo "rebuild.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
check_count rebuild.sh --keys "$KEYS" 1 20000000; check_count rebuild.sh --others "$OTHERS" 0 20000000
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
build_if_stale

CSVFLAG=(); [[ $CSV == 1 ]] && CSVFLAG=(--csv)
if [[ $CSV == 1 ]]; then echo "# machine: $(machine)"; echo "figure,value,unit,params"; else echo "machine: $(machine)"; fi
port=$(free_port); start_kevy "$port" --no-aof --feed; pid=$LAST_PID
harness io.kevy.bench.RebuildBench --port "$port" --keys "$KEYS" --others "$OTHERS" --read "$READ" "${CSVFLAG[@]}"
stop_server "$port" "$pid"
if [[ $CSV == 1 ]]; then echo "# done, load $(load1)"; else echo "done, load $(load1)"; fi
