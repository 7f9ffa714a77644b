#!/usr/bin/env bash
# Runs the perft suites of ../shared/data/perft with build/janus perftsuite.
#   tools/perft-suite.sh           every (position, depth) entry of every suite (takes minutes)
#   tools/perft-suite.sh --quick   entries up to 2,000,000 nodes (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
JANUS=${JANUS:-build/janus}
DATA=${JANUS_DATA:-../shared/data/perft}
LIMIT=()
[ "${1:-}" = "--quick" ] && LIMIT=(--max-nodes 2000000)
status=0
for f in standard.epd cpw.epd ep-extra.epd tricky.perft; do
  "$JANUS" perftsuite "$DATA/$f" "${LIMIT[@]}" || status=1
done
"$JANUS" perftsuite "$DATA/chess960.epd" --chess960 "${LIMIT[@]}" || status=1
exit $status
