#!/usr/bin/env bash
# Durability gates (issue 5) against kevy-server child processes. One line per check:
#   PASS|FAIL <check> <figures>
# Checks: the restore drill of feed contract §10 (snapshot + frames from its cursor = the exact state),
# kill -9 under load with appendfsync always (every acknowledged write present, generation changed),
# a clean SIGTERM restart under load (generation and offset kept; a lagging reader continues without
# FEEDRESYNC and sees every frame exactly once), a torn AOF tail (truncated with a log line), and kill -9 during
# AOF rewrites (BGREWRITEAOF and by growth; killed while a rewrite runs, right after BGREWRITEAOF is acknowledged,
# while an .next file exists, or at a random moment): every acknowledged INCR and SET present, no corrupt-record
# log line at boot, no stale .next/.tmp file after it.
#
# Usage: bench/diskgate.sh [--runs KILLS=10] [REPETITIONS=20] [SEED]
#   --runs: the kills of kill-9-during-aof-rewrite; REPETITIONS: the kills of kill-9-appendfsync-always.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
runs=10
positional=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --runs) [[ $# -ge 2 ]] || { echo "diskgate.sh: --runs needs a value" >&2; exit 2; }; runs="$2"; shift 2 ;;
    --runs=*) runs="${1#--runs=}"; shift ;;
    -*) echo "diskgate.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
[[ ${#positional[@]} -le 2 ]] || { echo "diskgate.sh: at most REPETITIONS and SEED after the options; not ${positional[*]}" >&2; exit 2; }
reps="${positional[0]:-20}"
seed="${positional[1]:-$(date +%s%N)}"
[[ "$runs" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "diskgate.sh: --runs takes a number of kills from 1 to 9999; not $runs" >&2; exit 2; }
[[ "$reps" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "diskgate.sh: REPETITIONS is a number from 1 to 9999; not $reps" >&2; exit 2; }
# SEED: a java long; 19 digits compared as text (bash arithmetic would wrap)
digits="${seed#-}"
[[ "$seed" =~ ^-?[0-9]+$ && ( "$digits" =~ ^[0-9]{1,18}$ || ( "$digits" =~ ^[0-9]{19}$ && ! "$digits" > 9223372036854775807 ) ) ]] \
  || { echo "diskgate.sh: SEED is a whole number (a java long); not $seed" >&2; exit 2; }

echo "diskgate: building (tests compiled, not run)..." >&2
# one reactor build: the sibling modules resolve to their target/classes, so nothing is installed into ~/.m2
# (every module writes the classpath file in turn; kevy-server, built last, leaves its own)
cp_file="$(mktemp)"
./mvnw -q -B -pl kevy-server -am test-compile dependency:build-classpath -Dmdep.outputFile="$cp_file" \
  -Dmdep.includeScope=test >/dev/null
CP="$ROOT/kevy-server/target/test-classes:$ROOT/kevy-server/target/classes:$(cat "$cp_file")"
rm -f "$cp_file"

echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
exec java -cp "$CP" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn io.kevy.persist.DiskGate "$reps" "$seed" "$runs"
