#!/usr/bin/env bash
# Runs the perft suites of tests/data/perft (or JANUS_DATA=DIR) with build/janus perftsuite.
#   tools/perft-suite.sh             every (position, depth) entry of every suite (about 5.4e11
#                                    nodes, mostly chess960.epd: tens of minutes on one core)
#   tools/perft-suite.sh --quick     entries up to 2,000,000 nodes (CI)
#   tools/perft-suite.sh --jobs N    split each EPD suite into N interleaved parts run at once
# Exit status 1 if any entry does not match. Each perftsuite run prints its own summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
JANUS=${JANUS:-build/janus}
DATA=${JANUS_DATA:-tests/data/perft}
[ -d "$DATA" ] || { echo "perft-suite: no perft suites at $DATA (set JANUS_DATA=DIR)" >&2; exit 1; }
LIMIT=()
JOBS=1
while (($#)); do
  case "$1" in
    --quick) LIMIT=(--max-nodes 2000000); shift ;;
    --jobs) JOBS=$2; shift 2 ;;
    *) echo "usage: $0 [--quick] [--jobs N]" >&2; exit 2 ;;
  esac
done

# suite <file> [perftsuite options...]: runs one suite, in JOBS parts when it is an EPD file.
suite() {
  local file=$1
  shift
  if ((JOBS == 1)) || [[ $file != *.epd ]]; then
    "$JANUS" perftsuite "$file" "$@" "${LIMIT[@]}"
    return
  fi
  local tmp pids=() rc=0
  tmp=$(mktemp -d)
  for ((j = 0; j < JOBS; j++)); do
    awk -v n="$JOBS" -v j="$j" '(NR - 1) % n == j' "$file" >"$tmp/part$j.epd"
    "$JANUS" perftsuite "$tmp/part$j.epd" "$@" "${LIMIT[@]}" >"$tmp/part$j.log" 2>&1 &
    pids+=($!)
  done
  for ((j = 0; j < JOBS; j++)); do
    wait "${pids[$j]}" || rc=1
    echo "-- $(basename "$file") part $((j + 1))/$JOBS"
    cat "$tmp/part$j.log"
  done
  rm -rf "$tmp"
  return $rc
}

status=0
for f in standard.epd cpw.epd ep-extra.epd tricky.perft; do
  suite "$DATA/$f" || status=1
done
suite "$DATA/chess960.epd" --chess960 || status=1
exit $status
