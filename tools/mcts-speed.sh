#!/usr/bin/env bash
# MCTS speed table (docs/mcts.md "Speed"; the tables measured so far are in docs/lab/mcts-log.md):
# runs `janus bench --search mcts` (the 30 bench positions, a
# new tree per position, smart pruning off) for a few batch sizes, thread counts and cache
# sizes, and prints a Markdown table of nodes (UCI nodes: playouts plus the alpha-beta hints'
# nodes) per second.
#   tools/mcts-speed.sh [janus binary] [playouts per position] [backend] [weights file]
# Defaults: build/janus, 20000, the engine's default backend, its default network. The binary may
# be janus-torch for the torch backend (a .jrn weights file):
#   THREADS="1 2" BATCHES="16 64" CACHES=0 tools/mcts-speed.sh build/janus-torch 100 torch rn-<hash>.jrn
# THREADS, BATCHES and CACHES (space-separated) replace the default grid (1 2; 1 16 64; 0 200000).
# Each row ends with the 1-minute load average read after it ran. The machine's load matters: run
# it on an idle machine, or compare only rows of one run.
set -euo pipefail
JANUS=${1:-build/janus}
NODES=${2:-20000}
BACKEND=${3:-}
WEIGHTS=${4:-}
backendArg=()
[ -n "$BACKEND" ] && backendArg=(--backend "$BACKEND")
[ -n "$WEIGHTS" ] && backendArg+=(--weights "$WEIGHTS")

echo "| threads | batch | cache (entries) | nodes | time (ms) | nodes/s | cache hits | load |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for threads in ${THREADS:-1 2}; do
  for batch in ${BATCHES:-1 16 64}; do
    for cache in ${CACHES:-0 200000}; do
      out=$("$JANUS" bench --search mcts --nodes "$NODES" --threads "$threads" --batch "$batch" --cache "$cache" \
        "${backendArg[@]}" 2>&1)
      nodes=$(sed -n 's/^Nodes searched *: //p' <<<"$out")
      ms=$(sed -n 's/^Total time (ms) : //p' <<<"$out")
      nps=$(sed -n 's/^Nodes\/second *: //p' <<<"$out")
      hits=$(sed -n 's/^Cache hits *: .*(\(.*\))$/\1/p' <<<"$out")
      load=$(cut -d' ' -f1 /proc/loadavg)
      echo "| $threads | $batch | $cache | $nodes | $ms | $nps | ${hits:--} | $load |"
    done
  done
done
