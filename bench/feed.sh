#!/usr/bin/env bash
# The change feed's costs (results: docs/benchmarks.md), one line per figure:
#   (a) overhead: SET requests/s of kevy with the feed on vs off (AOF off in both by default, so only the feed
#       differs; --aof everysec for the configuration of the throughput targets), and the servers' CPU per
#       request; redis-benchmark against N pairs of servers (feed off, feed on), a fresh pair after the other
#       (one JVM's JIT outcome moves a figure by several percent, so each side gets N JVMs), A B alternating
#       within a pair, medians over pairs x rounds, the range of the pairs' own ratios, and the mean of the
#       pairs' own figures with its 95% confidence interval (the pairs are the independent samples), and every
#       pair's own ratios (pair_ratios: to pool several runs of the same code); 50 clients,
#       -P 1 and 16 (-P 16 runs 5x the requests), after 5M unmeasured SETs per server in 5 runs that fill the
#       feed server's backlog (the steady state) and 2 unmeasured -P 1 runs (past the JIT's deoptimisations);
#       with 2 or more CPUs, redis-benchmark runs on CPU 0 and the servers on the others (taskset), so neither
#       takes the other's core (--pin off: the scheduler places them);
#   (b) drain: frames/s one reader takes from a full backlog at COUNT 4096, remote (FEED.READ against a server
#       process) and embedded (io.kevy.embedded.Store), raw reads and through a FeedConsumer;
#   (c) latency: a write's acknowledgement to the FeedConsumer handler, p50/p99/p99.9 at 1k, 10k and 50k
#       writes/s, with BLOCK and with polling (the consumer's block(Duration.ZERO)), AOF everysec; mode durable
#       (not in the default --modes) is BLOCK with durableOnly(true): FEED.READ ... DURABLE, the fsync's wait.
# (b) and (c) run io.kevy.bench.FeedBench from bench/target/benchmarks.jar. Each section prints the load
# average it started at; ratios within one section are the figures to compare.
#
# Usage: bench/feed.sh [--csv] [--quick] [--only overhead|drain|latency] [--rounds N] [--requests N]
#                      [--servers N] [--aof off|everysec] [--pin on|off] [--frames N] [--seconds S] [--rates R1,R2,...] [--modes block,poll,durable]
#   --servers   pairs of kevy servers in (a), one pair at a time, default 6; --rounds per pair, default 3
#   --aof       persistence of the servers in (a): off (default) or everysec
#   --pin       in (a), client on CPU 0 and servers on CPUs 1..n-1: on (default with 2+ CPUs and taskset) or off
#   --quick     (a smoke test: its 500k warm-up does not fill the backlog) 2 rounds x 100k requests, 1 pair, 200k frames, 2 s per latency point
#   --csv       machine-readable: a "# machine: ..." line, then figure,value,unit,params
# Env: SERVER_JAVA_OPTS, HARNESS_JAVA_OPTS extra JVM options for the kevy servers and the Java harness
#      (e.g. -XX:StartFlightRecording=filename=x.jfr,settings=profile).
# KEVY_HEAP: the kevy servers' heap and memory options, default -Xms3g -Xmx3g -XX:+UseTransparentHugePages
#   -XX:+AlwaysPreTouch (each server holds 3 GiB from its start, so section (a) takes 6 GiB; "" for the
#   JVM's defaults); -Xms/-Xmx in SERVER_JAVA_OPTS replace its heap sizes.
# Needs: java 17, redis-benchmark and redis-cli (Debian redis-tools).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"

CSV=0; ROUNDS=3; REQUESTS=200000; SERVERS=6; AOF=off; PIN=on; WARMUP=5000000; FRAMES=1000000; SECONDS_PER=5; RATES="1000,10000,50000"; MODES="block,poll"; ONLY=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --csv) CSV=1 ;;
    --quick) ROUNDS=2; REQUESTS=100000; SERVERS=1; WARMUP=500000; FRAMES=200000; SECONDS_PER=2 ;;
    --only) need_value feed.sh "$1" "$@"; ONLY="$2"; shift ;;
    --rounds) need_value feed.sh "$1" "$@"; ROUNDS="$2"; shift ;;
    --requests) need_value feed.sh "$1" "$@"; REQUESTS="$2"; shift ;;
    --servers) need_value feed.sh "$1" "$@"; SERVERS="$2"; shift ;;
    --aof) need_value feed.sh "$1" "$@"; AOF="$2"; shift ;;
    --pin) need_value feed.sh "$1" "$@"; PIN="$2"; shift ;;
    --frames) need_value feed.sh "$1" "$@"; FRAMES="$2"; shift ;;
    --seconds) need_value feed.sh "$1" "$@"; SECONDS_PER="$2"; shift ;;
    --rates) need_value feed.sh "$1" "$@"; RATES="$2"; shift ;;
    --modes) need_value feed.sh "$1" "$@"; MODES="$2"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "feed.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
check_count feed.sh --rounds "$ROUNDS" 1 1000; check_count feed.sh --requests "$REQUESTS"
check_count feed.sh --servers "$SERVERS" 1 50; check_count feed.sh --frames "$FRAMES"
check_count feed.sh --seconds "$SECONDS_PER" 1 3600
case "$AOF" in off) AOF_ARGS=(--no-aof) ;; everysec) AOF_ARGS=(--appendfsync everysec) ;; *) echo "feed.sh: --aof takes off or everysec; not $AOF" >&2; exit 2 ;; esac
case "$PIN" in on|off) ;; *) echo "feed.sh: --pin takes on or off; not $PIN" >&2; exit 2 ;; esac
case "$ONLY" in ""|overhead|drain|latency) ;; *) echo "feed.sh: --only takes overhead, drain or latency; not $ONLY" >&2; exit 2 ;; esac
[[ "$RATES" =~ ^[1-9][0-9]{0,6}(,[1-9][0-9]{0,6})*$ ]] || { echo "feed.sh: --rates takes writes/s from 1 to 9999999 separated by commas, e.g. 1000,10000; not $RATES" >&2; exit 2; }
check_words feed.sh --modes "$MODES" block poll durable
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
  pin_servers "$PIN" || true # on (the default) with one CPU or no taskset: not pinned, as --help says
  pairs="$SERVERS pairs"; [[ $SERVERS == 1 ]] && pairs="1 pair"
  say "(a) feed overhead, AOF $AOF, $PINNED, load $(load1)"
  for pipe in 1 16; do : >"$WORK/off.$pipe"; : >"$WORK/on.$pipe"; : >"$WORK/pairs.$pipe"; : >"$WORK/cpu_pairs.$pipe"; done
  for _ in $(seq 1 "$SERVERS"); do
    # one pair at a time (2 x 3 GiB): a fresh JVM per side, since one JVM's JIT outcome moves a figure by several %
    port_off=$(free_port); start_kevy "$port_off" "${AOF_ARGS[@]}"; pid_off=$LAST_PID
    port_on=$(free_port); start_kevy "$port_on" "${AOF_ARGS[@]}" --feed; pid_on=$LAST_PID
    # warm-up, not measured: the JIT compiles the write path, and the feed server's backlog fills to its budget
    # (64mb per shard, ~1.1M redis-benchmark SET frames), so the rounds measure the steady state: a backlog that evicts its
    # oldest frames and reuses its chunks, rather than one growing into heap pages touched for the first time.
    # In 5 runs, then 2 at -P 1: each run's connections and its CONFIG GET take paths the previous code never did,
    # and the JIT replaces code compiled without them (PrintCompilation, 1M-request runs: 318 methods "made not
    # entrant" in the first, 88, 22, 9, 4, then 1-23 per run; of C2 code 16, 20, 10, 1, 0, then 0-1), each time
    # some time in slower code; after these runs that happens in the warm-up, not in the measured rounds
    for port in "$port_off" "$port_on"; do
      for _ in 1 2 3 4 5; do
        "${CLIENT[@]}" redis-benchmark -p "$port" -c 50 -n $((WARMUP / 5)) -r 100000 -P 16 -d 3 -t set -q >/dev/null 2>&1
      done
      for _ in 1 2; do
        "${CLIENT[@]}" redis-benchmark -p "$port" -c 50 -n "$REQUESTS" -r 100000 -P 1 -d 3 -t set -q >/dev/null 2>&1
      done
    done
    for pipe in 1 16; do
      n=$REQUESTS; [[ $pipe == 16 ]] && n=$((REQUESTS * 5))
      : >"$WORK/pair.off"; : >"$WORK/pair.on"
      for _ in $(seq 1 "$ROUNDS"); do
        for side in off on; do
          if [[ $side == on ]]; then port=$port_on; pid=$pid_on; else port=$port_off; pid=$pid_off; fi
          t0=$(ticks "$pid")
          rate=$("${CLIENT[@]}" redis-benchmark -p "$port" -c 50 -n "$n" -r 100000 -P "$pipe" -d 3 -t set --csv 2>/dev/null \
            | tail -n +2 | tr -d '"' | cut -d, -f2)
          echo "$rate $(cpu_us $(($(ticks "$pid") - t0)) "$n")" >>"$WORK/$side.$pipe"
          echo "$rate" >>"$WORK/pair.$side"
        done
      done
      awk -v a="$(median <"$WORK/pair.on")" -v b="$(median <"$WORK/pair.off")" 'BEGIN { printf "%.3f\n", a / b }' >>"$WORK/pairs.$pipe"
      tail -n "$ROUNDS" "$WORK/on.$pipe" | cut -d' ' -f2 | median >"$WORK/pair.cpu_on"
      tail -n "$ROUNDS" "$WORK/off.$pipe" | cut -d' ' -f2 | median >"$WORK/pair.cpu_off"
      awk -v a="$(cat "$WORK/pair.cpu_on")" -v b="$(cat "$WORK/pair.cpu_off")" 'BEGIN { printf "%.4f\n", a / b }' >>"$WORK/cpu_pairs.$pipe"
    done
    stop_server "$port_off" "$pid_off"; stop_server "$port_on" "$pid_on"
  done
  for pipe in 1 16; do
    n=$REQUESTS; [[ $pipe == 16 ]] && n=$((REQUESTS * 5))
    k_off=$(cut -d' ' -f1 "$WORK/off.$pipe" | median); k_on=$(cut -d' ' -f1 "$WORK/on.$pipe" | median)
    c_off=$(cut -d' ' -f2 "$WORK/off.$pipe" | median); c_on=$(cut -d' ' -f2 "$WORK/on.$pipe" | median)
    ratio=$(awk -v a="$k_on" -v b="$k_off" 'BEGIN { printf "%.3f", a / b }')
    spread=$(sort -n "$WORK/pairs.$pipe" | sed -n '1p;$p' | paste -sd- -)
    params="SET -c 50 -P $pipe -d 3, AOF $AOF, $PINNED, $pairs of servers one after another x $ROUNDS rounds x $n requests, A B alternating, medians: off $k_off/s $c_off us on $k_on/s $c_on us; the pairs' own ratios $spread"
    line "overhead.set.P$pipe.ratio_on_off" "$ratio" "x" "$params"
    line "overhead.set.P$pipe.percent" "$(awk -v r="$ratio" 'BEGIN { printf "%.1f", (1 - r) * 100 }')" "%" "throughput lost with the feed on"
    line "overhead.set.P$pipe.cpu_percent" "$(awk -v a="$c_on" -v b="$c_off" 'BEGIN { printf "%.1f", (a / b - 1) * 100 }')" "%" "server CPU per request added by the feed"
    read -r mean ci <<<"$(awk '{ print (1 - $1) * 100 }' "$WORK/pairs.$pipe" | mean_ci95)"
    line "overhead.set.P$pipe.percent_mean" "$mean" "%" "mean of the pairs' own ratios ($pairs), 95% CI $ci"
    read -r mean ci <<<"$(awk '{ print ($1 - 1) * 100 }' "$WORK/cpu_pairs.$pipe" | mean_ci95)"
    line "overhead.set.P$pipe.cpu_percent_mean" "$mean" "%" "mean of the pairs' own CPU-per-request ratios ($pairs), 95% CI $ci"
    # every pair's own ratio, in run order, so that runs of the same code can be pooled
    line "overhead.set.P$pipe.pair_ratios" "$SERVERS" "${pairs#* }" \
      "throughput on/off per pair: $(paste -sd' ' "$WORK/pairs.$pipe"); CPU per request on/off: $(paste -sd' ' "$WORK/cpu_pairs.$pipe")"
  done
  SERVER_CPUS=""
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
