#!/usr/bin/env bash
# Memory per key (results: docs/benchmarks.md): kevy vs Redis 7 on the same data, one line per figure.
#   strings: N small string keys, SET key:<i> <10-byte value> (default 1M)
#   hashes:  M hashes of 10 fields, HSET h:<i> f0 <8 bytes> ... f9 <8 bytes> (default 100k)
# Each data set is loaded with redis-cli --pipe into a fresh server (kevy: feed and AOF off, snapshots off;
# Redis: no persistence). kevy is measured after a full GC (jcmd GC.run): "used" is INFO used_memory (the
# live heap), "rss" is VmRSS from /proc; Redis: INFO used_memory and used_memory_rss. Each figure is
# (after load - empty server) / keys, in bytes, and the ratio kevy/Redis.
#
# Usage: bench/memory.sh [--csv] [--quick] [--strings N] [--hashes M]
#   --quick   200k strings, 20k hashes
#   --csv     machine-readable: a "# machine: ..." line, then figure,value,unit,params
# Needs: java 17 (jcmd), redis-cli, redis-server, awk.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"

CSV=0; STRINGS=1000000; HASHES=100000
while [[ $# -gt 0 ]]; do
  case "$1" in
    --csv) CSV=1 ;;
    --quick) STRINGS=200000; HASHES=20000 ;;
    --strings) need_value memory.sh "$1" "$@"; STRINGS="$2"; shift ;;
    --hashes) need_value memory.sh "$1" "$@"; HASHES="$2"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "memory.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
check_count memory.sh --strings "$STRINGS" 1 20000000; check_count memory.sh --hashes "$HASHES" 1 5000000
KEVY_HEAP="-Xms64m -Xmx8g"
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
command -v redis-server >/dev/null || { echo "memory.sh: redis-server not found" >&2; exit 2; }
build_if_stale

if [[ $CSV == 1 ]]; then echo "# machine: $(machine) redis=$(redis-server --version | awk '{print $3}')"; echo "figure,value,unit,params"
else echo "machine: $(machine) redis $(redis-server --version | awk '{print $3}')"; fi
line() { # figure value unit params
  if [[ $CSV == 1 ]]; then echo "$1,$2,$3,\"$4\""; else printf '%-34s %14s %-9s %s\n' "$1" "$2" "$3" "$4"; fi
}

# RESP for the data sets (written once, loaded into both servers)
awk -v n="$STRINGS" 'BEGIN { for (i = 0; i < n; i++) { k = "key:" i; printf "*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$10\r\nvalue12345\r\n", length(k), k } }' >"$WORK/strings.resp"
awk -v n="$HASHES" 'BEGIN { for (i = 0; i < n; i++) { k = "h:" i; printf "*22\r\n$4\r\nHSET\r\n$%d\r\n%s\r\n", length(k), k;
  for (f = 0; f < 10; f++) printf "$2\r\nf%d\r\n$8\r\nv%07d\r\n", f, f } }' >"$WORK/hashes.resp"

info_field() { redis-cli -p "$1" INFO memory | tr -d '\r' | awk -F: -v f="$2" '$1 == f {print $2}'; }
rss_of() { awk '/^VmRSS:/ {print $2 * 1024}' "/proc/$1/status"; }
kevy_gc() { jcmd "$1" GC.run >/dev/null; sleep 1; jcmd "$1" GC.run >/dev/null; sleep 0.5; }

# measure SYSTEM DATASET KEYS -> sets USED RSS (bytes added by the data set)
measure() {
  local sys="$1" set="$2" port pid u0 r0 u1 r1
  port=$(free_port)
  if [[ $sys == kevy ]]; then
    start_kevy "$port" --no-aof; pid=$LAST_PID
    kevy_gc "$pid"; u0=$(info_field "$port" used_memory); r0=$(rss_of "$pid")
  else
    start_redis "$port" --appendonly no; pid=$LAST_PID
    u0=$(info_field "$port" used_memory); r0=$(info_field "$port" used_memory_rss)
  fi
  redis-cli -p "$port" --pipe <"$WORK/$set.resp" >"$WORK/pipe.log"
  grep -q "errors: 0" "$WORK/pipe.log" || { cat "$WORK/pipe.log" >&2; echo "memory.sh: load into $sys failed" >&2; exit 1; }
  if [[ $sys == kevy ]]; then
    kevy_gc "$pid"; u1=$(info_field "$port" used_memory); r1=$(rss_of "$pid")
  else
    sleep 0.5; u1=$(info_field "$port" used_memory); r1=$(info_field "$port" used_memory_rss)
  fi
  KEYS_NOW=$(redis-cli -p "$port" DBSIZE)
  stop_server "$port" "$pid"
  USED=$((u1 - u0)); RSS=$((r1 - r0))
}

for set in strings hashes; do
  n=$STRINGS; [[ $set == hashes ]] && n=$HASHES
  measure kevy "$set"; k_used=$USED; k_rss=$RSS; k_keys=$KEYS_NOW
  measure redis "$set"; r_used=$USED; r_rss=$RSS; r_keys=$KEYS_NOW
  [[ $k_keys == "$n" && $r_keys == "$n" ]] || { echo "memory.sh: $set: kevy has $k_keys keys, redis $r_keys, expected $n" >&2; exit 1; }
  desc="$n keys"; [[ $set == hashes ]] && desc="$n hashes x 10 fields"
  per() { awk -v b="$1" -v n="$n" 'BEGIN { printf "%.1f", b / n }'; }
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
  line "memory.$set.kevy.used" "$(per "$k_used")" "B/key" "$desc, INFO used_memory after full GC minus empty server, load $(load1)"
  line "memory.$set.kevy.rss" "$(per "$k_rss")" "B/key" "$desc, VmRSS after full GC minus empty server"
  line "memory.$set.redis.used" "$(per "$r_used")" "B/key" "$desc, INFO used_memory minus empty server"
  line "memory.$set.redis.rss" "$(per "$r_rss")" "B/key" "$desc, INFO used_memory_rss minus empty server"
  line "memory.$set.ratio.used" "$(ratio "$k_used" "$r_used")" "x" "kevy/Redis"
  line "memory.$set.ratio.rss" "$(ratio "$k_rss" "$r_rss")" "x" "kevy/Redis"
done
