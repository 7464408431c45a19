#!/usr/bin/env bash
# Durability gates (issue 5) against kevy-server child processes. One line per check:
#   PASS|FAIL <check> <figures>
# Checks: the restore drill of feed contract §10 (snapshot + frames from its cursor = the exact state),
# kill -9 under load with appendfsync always (every acknowledged write present, generation changed),
# a clean SIGTERM restart under load (generation and offset kept; a lagging reader continues without
# FEEDRESYNC and sees every frame exactly once), and a torn AOF tail (truncated with a log line).
#
# Usage: bench/diskgate.sh [REPETITIONS=20] [SEED]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
reps="${1:-20}"
seed="${2:-$(date +%s%N)}"

echo "diskgate: building (tests compiled, not run)..." >&2
./mvnw -q -B -pl kevy-server -am install -DskipTests -DskipITs >/dev/null
cp_file="$(mktemp)"
./mvnw -q -B -pl kevy-server dependency:build-classpath -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=test >/dev/null
CP="$ROOT/kevy-server/target/test-classes:$ROOT/kevy-server/target/classes:$(cat "$cp_file")"
rm -f "$cp_file"

echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
exec java -cp "$CP" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn io.kevy.persist.DiskGate "$reps" "$seed"
