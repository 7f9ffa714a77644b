#!/usr/bin/env bash
# SPSA of the MCTS face's PUCT constants (tools/spsa/mcts-puct.txt) at fixed playouts, on this
# machine, with `janus spsa run` (src/tune/spsa.h). Resumable: the same command continues a run
# that a session's end or a kill stopped (at most the iteration in progress is lost).
#
#   tools/spsa-mcts.sh [--iterations 600] [--nodes 1500] [--seed 1] [--janus BIN] [--out DIR]
#
# Both sides run a copy of BIN (default build/janus) at data/bin/janus-<hash of the binary>, so
# rebuilding build/janus while it runs changes nothing. Hash 16 MiB, `Search=mcts`, 1 thread
# each, the two games of a pair at once, resign/draw adjudication as `janus match --resign
# --draw`. Output in DIR (default data/spsa/mcts-puct-s<seed>, not in git): state.json (every
# iteration's result and values), spsa.log (progress lines with games/h and ETA), games.pgn.
# The tuned values are the last lines of spsa.log; verify them at 10+0.1 with an SPRT.
set -euo pipefail
cd "$(dirname "$0")/.."

iterations=600
nodes=1500
seed=1
janus=build/janus
out=
while (($#)); do
  case $1 in
    --iterations) iterations=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --janus) janus=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) sed -n 6p "$0" | sed 's/^# *//' >&2; exit 2 ;;
  esac
done
out=${out:-data/spsa/mcts-puct-s$seed}
mkdir -p "$out" data/bin
bin=data/bin/janus-$(sha256sum "$janus" | cut -c1-12)
[[ -x $bin ]] || cp "$janus" "$bin"
resume=()
[[ -f $out/state.json ]] && resume=(--resume)
"$bin" spsa run --params tools/spsa/mcts-puct.txt \
  --engine "cmd=$bin arg=--show-hidden option.Search=mcts option.Hash=16" \
  --iterations "$iterations" --nodes "$nodes" --concurrency 2 --seed "$seed" --adjudicate \
  --state "$out/state.json" --pgnout "$out/games.pgn" "${resume[@]}" 2>&1 | tee -a "$out/spsa.log"
