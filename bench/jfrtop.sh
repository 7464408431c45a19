#!/usr/bin/env bash
# Summarises the CPU samples (jdk.ExecutionSample) of a JFR recording, for docs/benchmarks.md's profiles:
# the top N leaf frames (self time) and the top N frames of our own code (io.kevy.*, nearest to the leaf).
# Record with e.g. SERVER_JAVA_OPTS="-XX:StartFlightRecording=filename=s.jfr,settings=profile,dumponexit=true".
#
# Usage: bench/jfrtop.sh RECORDING.jfr [N=15] [THREAD-SUBSTRING]
set -euo pipefail
help() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
[[ "${1:-}" != -h && "${1:-}" != --help ]] || { help; exit 0; }
[[ $# -ge 1 && $# -le 3 ]] || { help >&2; exit 2; }
file="$1"; n="${2:-15}"; thread="${3:-}"
[[ -f "$file" ]] || { echo "jfrtop.sh: no such recording $file" >&2; exit 2; }
[[ "$n" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "jfrtop.sh: N is a number of frames from 1 to 9999; not $n" >&2; exit 2; }
jfr print --events jdk.ExecutionSample "$file" | awk -v want="$thread" '
  /sampledThread = / { t = $0; keep = (want == "" || index(t, want) > 0) }
  /stackTrace = \[/ { depth = 0; own = ""; next }
  keep && depth >= 0 && /^[ \t]+[a-zA-Z_$][^ ]*\(.*\)/ {
    f = $1; sub(/\(.*/, "", f)
    if (depth == 0) leaf[f]++
    if (own == "" && f ~ /^io\.kevy\./) { own = f; ours[f]++ }
    depth++
  }
  /^[ \t]*\]/ { if (keep && depth > 0) total++; depth = -1 }
  END {
    printf "samples %d\n", total
    print "-- leaf frames (self)"; for (f in leaf) printf "%6d %5.1f%%  %s\n", leaf[f], 100 * leaf[f] / total, f | "sort -rn | head -'"$n"'"
    close("sort -rn | head -'"$n"'")
    print "-- nearest io.kevy frame"; for (f in ours) printf "%6d %5.1f%%  %s\n", ours[f], 100 * ours[f] / total, f | "sort -rn | head -'"$n"'"
  }'
