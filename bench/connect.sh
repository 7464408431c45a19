#!/usr/bin/env bash
# records/s from a full backlog into Kafka: the sidecar against the Kafka Connect source connector (results:
# docs/benchmarks.md, "Kafka Connect connector vs sidecar"). Runs ConnectBenchIT (bridge-kafka) once: a 4-shard
# kevy server holding N SETs, the in-process KRaft broker, then the sidecar and one distributed Connect worker
# (tasks.max = 4) each draining the backlog from its oldest change; prints one line with both figures.
#
# Usage: bench/connect.sh [--changes N]   (default 200000)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CHANGES=200000
while [[ $# -gt 0 ]]; do
  case "$1" in
    --changes) CHANGES="${2:?--changes needs a number}"; shift ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "connect.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[[ "$CHANGES" =~ ^[0-9]+$ ]] && (( CHANGES >= 10000 && CHANGES <= 5000000 )) \
  || { echo "connect.sh: --changes must be 10000..5000000" >&2; exit 2; }
cd "$ROOT"
./mvnw -B -o -q -pl bridge-kafka -am verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=ConnectBenchIT -Dfailsafe.failIfNoSpecifiedTests=false -Dkevy.connect.bench=true \
  -Dkevy.connect.bench.changes="$CHANGES" 2>&1 | grep '^ConnectBenchIT:' \
  || { echo "connect.sh: the run printed no figure (see the failsafe report in bridge-kafka/target)" >&2; exit 1; }
echo "# machine: $(nproc) cpu(s), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr), $(java -version 2>&1 | head -1)"
