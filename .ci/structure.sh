#!/usr/bin/env bash
# Structure checks over compiled classes, with jdeps (ships with the JDK). Issue 24: "jdeps run from a script in
# the repo shows no package cycle in kevy-server and that feed-client's jar depends on no picocli, tomlj,
# Jackson, Prometheus or kevy-server class". Each check is a function named check_*; run_check runs one,
# prints "ok: <name>" or "FAIL: <name>" and what is wrong, and the script exits 1 when any check failed. To add a
# check, write a check_* function and one run_check line at the bottom.
#
# Usage: .ci/structure.sh            (compiles what is missing: ./mvnw -o -q -pl <module> -am compile)
#        KEVY_SERVER_CLASSES=dir .ci/structure.sh   (checks another classes directory, e.g. to see a failure)
# Needs: bash, awk, a JDK 17 (jdeps) on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

JDEPS=${JDEPS:-jdeps}
command -v "$JDEPS" >/dev/null || { echo "structure: $JDEPS not found (it ships in a JDK's bin)" >&2; exit 2; }
failed=0

# Compiles <module> unless its target/classes exists.
ensure_classes() {
  local module=$1
  if [[ ! -d "$module/target/classes" ]]; then
    ./mvnw -B -o -q -pl "$module" -am compile
  fi
}

# Prints "from-package to-package" for every dependency between two different io.kevy packages in <classes>.
# Fails (status 2, with a message) when jdeps fails or <classes> holds no class: a check must not pass on nothing.
package_edges() {
  local out
  if ! out=$("$JDEPS" -verbose:package -filter:none -e 'io\.kevy\..*' "$1" 2>&1); then
    echo "structure: jdeps failed on $1: $out" >&2
    exit 2
  fi
  if [[ -z $(find "$1" -name '*.class' -print -quit 2>/dev/null) ]]; then
    echo "structure: no classes in $1" >&2
    exit 2
  fi
  printf '%s\n' "$out" \
    | awk '$2 == "->" && $1 ~ /^io\.kevy\./ && $3 ~ /^io\.kevy\./ && $1 != $3 { print $1, $3 }' | sort -u
}

# Reads "a b" edges; prints one line per package cycle (a strongly connected set of 2+ packages), its packages
# sorted and space-separated. Transitive closure by Floyd-Warshall: kevy has a few dozen packages.
cycles() {
  awk 'BEGIN { n = 0 }
    { if (!($1 in id)) { id[$1] = n; name[n++] = $1 } if (!($2 in id)) { id[$2] = n; name[n++] = $2 }
      r[id[$1], id[$2]] = 1 }
    END {
      for (k = 0; k < n; k++) for (i = 0; i < n; i++) if (r[i, k]) for (j = 0; j < n; j++) if (r[k, j]) r[i, j] = 1
      for (i = 0; i < n; i++) {
        if (done[i]) continue
        line = ""; m = 0
        for (j = 0; j < n; j++) if (j == i || (r[i, j] && r[j, i])) { done[j] = 1; members[m++] = name[j] }
        if (m < 2) continue
        # insertion sort, for a stable message
        for (a = 1; a < m; a++) { v = members[a]; for (b = a - 1; b >= 0 && members[b] > v; b--) members[b + 1] = members[b]; members[b + 1] = v }
        for (a = 0; a < m; a++) line = line (a ? " " : "") members[a]
        print line
      }
    }'
}

# kevy-server: no cycle between its packages (io.kevy.*), so each package can be read, tested and replaced on
# top of the ones it uses (the map in docs/design.md, "Where things live in kevy-server").
check_kevy_server_package_cycles() {
  local classes=${KEVY_SERVER_CLASSES:-kevy-server/target/classes} edges found
  [[ -n ${KEVY_SERVER_CLASSES:-} ]] || ensure_classes kevy-server
  edges=$(package_edges "$classes") || return 1
  echo "  kevy-server: $(find "$classes" -name '*.class' -printf '%h\n' | sort -u | wc -l) packages," \
    "$(printf '%s\n' "$edges" | grep -c .) dependencies on other io.kevy packages"
  found=$(printf '%s\n' "$edges" | cycles)
  if [[ -z "$found" ]]; then
    return 0
  fi
  while read -r cycle; do
    echo "  package cycle: $cycle"
    # the class-level dependencies inside the cycle, so the message says what to move
    "$JDEPS" -verbose:class -filter:none -e 'io\.kevy\..*' "$classes" 2>/dev/null \
      | awk -v members="$cycle" '
          BEGIN { k = split(members, m, " "); for (i = 1; i <= k; i++) in_cycle[m[i]] = 1 }
          $2 == "->" { f = $1; sub(/\.[^.]*$/, "", f); t = $3; sub(/\.[^.]*$/, "", t)
            if (f != t && (f in in_cycle) && (t in in_cycle)) print "    " $1 " -> " $3 }' | sort -u
  done <<< "$found"
  return 1
}

# feed-client: the SDK's jar refers to no picocli, tomlj, Jackson, Prometheus or kevy-server package (issue 24,
# point 1: applications compile against the SDK alone). Every package jdeps lists must be feed-client's own or
# outside the forbidden set; kevy-server's packages are read from its sources, so a new one is covered unedited.
check_feed_client_deps() {
  local jar deps server bad="" p
  jar=$(ls feed-client/target/feed-client-*.jar 2>/dev/null | grep -v -- '-tests\.jar$' | head -n 1 || true)
  if [[ -z "$jar" ]]; then
    ./mvnw -B -o -q -pl feed-client -am package -DskipTests -DskipITs
    jar=$(ls feed-client/target/feed-client-*.jar | grep -v -- '-tests\.jar$' | head -n 1)
  fi
  deps=$("$JDEPS" -verbose:package --multi-release 17 "$jar" | awk '/^[[:space:]]/ && $2 == "->" { print $3 }' | sort -u)
  [[ -n "$deps" ]] || { echo "  jdeps listed no dependency of $jar"; return 1; }
  server=$(find kevy-server/src/main/java -name '*.java' -printf '%h\n' | sed 's|^kevy-server/src/main/java/||; s|/|.|g' | sort -u)
  local forbidden='^(picocli|org\.tomlj|com\.fasterxml\.jackson|io\.prometheus|io\.micrometer\.prometheus[a-z]*)(\.|$)'
  while IFS= read -r p; do
    [[ -z "$p" ]] && continue
    if [[ "$p" =~ $forbidden ]] || grep -qxF "$p" <<<"$server"; then bad+="  $p"$'\n'; fi
  done <<<"$deps"
  echo "  feed-client: $jar refers to $(grep -vc '^io\.kevy\.feed\.client' <<<"$deps") packages outside itself"
  if [[ -n "$bad" ]]; then
    echo "  the SDK depends on sidecar or kevy-server packages:"
    printf '%s' "$bad"
    return 1
  fi
}

run_check() {
  local name=$1
  if "check_$name"; then
    echo "ok: $name"
  else
    echo "FAIL: $name"
    failed=1
  fi
}

run_check kevy_server_package_cycles
run_check feed_client_deps

exit $failed
