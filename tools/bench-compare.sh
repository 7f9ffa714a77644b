#!/usr/bin/env bash
# Bench speed of Janus compared with Debian's Ethereal in the same run.
# Both run their own bench (fixed positions, fixed depth, one thread); the runs alternate and
# the best nps of each engine over N rounds is kept, so that a shared, noisy machine hurts
# both alike.
#   tools/bench-compare.sh [rounds]        (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
JANUS=${JANUS:-build/janus}
ETHEREAL=${ETHEREAL:-/usr/games/ethereal-chess}
ROUNDS=${1:-2}
best_janus=0 best_ethereal=0 janus_nodes=0 ethereal_nodes=0
for ((i = 1; i <= ROUNDS; i++)); do
  read -r janus_nodes nps < <("$JANUS" bench 2>/dev/null | tail -1 | awk '{print $1, $3}')
  ((nps > best_janus)) && best_janus=$nps
  out=$("$ETHEREAL" bench 2>/dev/null)
  ethereal_nodes=$(echo "$out" | awk '/^Nodes/ {print $3}')
  nps=$(echo "$out" | awk '/^NPS/ {print $3}')
  ((nps > best_ethereal)) && best_ethereal=$nps
  echo "round $i: janus $best_janus nps, ethereal $best_ethereal nps (best so far)"
done
echo "janus bench:    $janus_nodes nodes, $best_janus nps"
echo "ethereal bench: $ethereal_nodes nodes, $best_ethereal nps"
awk -v a="$best_janus" -v b="$best_ethereal" 'BEGIN { printf "nps ratio janus/ethereal: %.2f\n", a / b }'
