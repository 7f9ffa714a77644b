#!/usr/bin/env bash
# The AlphaZero reinforcement-learning run of the MCTS face with the network's own value head
# (`janus rl --value net`, docs/lab/rl-log.md, "Second run"): generation 0 is the supervised default
# pvnet network, every generation plays 2000 self-play games (400 full / 80 fast playouts), trains
# on the last 4 generations, is gated by an SPRT(0, 25) at 200 playouts (at most 600 games) and,
# when promoted, plays 400 games against generation 0: the Elo per generation is that direct match.
# Resumable: the same command continues a run a session's end or a kill stopped.
#
#   tools/rl-net.sh [--generations 6] [--seed 2001] [--janus BIN] [--out DIR] [--games 2000]
#                   [--visits 400] [--fast-visits 80] [--gate-visits 200] [--gate-games 600]
#                   [--gen0-games 400] [--train-args "..."] [--heldout FILES] [--value net|nnue]
#                   [--init-net NET.jpv]
#
# --value nnue plays self-play and every match with the engine's default face (NNUE one-ply and
# quiescence values, the network's priors): RL then trains the policy the default face uses (and
# the value head, unused by that face); default net, run 2's AlphaZero face.
# --init-net is generation 0's network (default: nets/default-pvnet.txt's, the supervised default).
# The defaults are run 2's settings. --heldout (comma-separated JANUSDAT/PGN files, e.g. the last
# chunks of data/nnue/selfplay-nnue-v10: alpha-beta games) evaluates every candidate on games
# the run did not play (policy CE, top-1, value CE in the report); run 2's value head got worse
# on them at every generation while its gates passed (docs/lab/rl-log.md).
#
# janus and janus-train-az are copied to data/bin/ under the hash of the janus binary, so that
# rebuilding build/ while the run goes on changes nothing. Output in DIR (default
# data/rl/run-net-s<seed>, not in git): rl-state.json, rl-report.md, rl-elo.svg, gen-NNN/ (self-play
# chunks, the trainer's output and networks, gate.pgn, gen0.pgn); the log in DIR.log.
set -euo pipefail
cd "$(dirname "$0")/.."

generations=6
seed=2001
janus=build/janus
out=
games=2000
visits=400
fastVisits=80
gateVisits=200
gateGames=600
gen0Games=400
trainArgs="--epochs 2 --batch 512 --lr 0.0003 --lr-final 0.00001 --threads 2 --val-fraction 0.05"
heldout=()
value=net
initNet=nets/$(cat nets/default-pvnet.txt)
while (($#)); do
  case $1 in
    --generations) generations=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --janus) janus=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --visits) visits=$2; shift 2 ;;
    --fast-visits) fastVisits=$2; shift 2 ;;
    --gate-visits) gateVisits=$2; shift 2 ;;
    --gate-games) gateGames=$2; shift 2 ;;
    --gen0-games) gen0Games=$2; shift 2 ;;
    --train-args) trainArgs=$2; shift 2 ;;
    --heldout) heldout=(--heldout "$2"); shift 2 ;;
    --value) value=$2; shift 2 ;;
    --init-net) initNet=$2; shift 2 ;;
    *) sed -n 9,12p "$0" | sed 's/^# *//' >&2; exit 2 ;;
  esac
done
out=${out:-data/rl/run-net-s$seed}
mkdir -p "$(dirname "$out")" data/bin
hash=$(sha256sum "$janus" | cut -c1-12)
bin=data/bin/janus-$hash
trainer=data/bin/janus-train-az-$hash
[[ -x $bin ]] || cp "$janus" "$bin"
[[ -x $trainer ]] || cp "$(dirname "$janus")/janus-train-az" "$trainer"
"$bin" rl --dir "$out" --generations "$generations" --value "$value" --init-net "$initNet" \
  --games-per-gen "$games" --chunk-games 100 --threads 2 --visits "$visits" --fast-visits "$fastVisits" --window 4 \
  --seed "$seed" --trainer "$trainer" --train-args "$trainArgs" "${heldout[@]}" \
  --gate-games "$gateGames" --gate-visits "$gateVisits" --gate-sprt 0 25 --gen0-games "$gen0Games" --concurrency 2 2>&1 |
  tee -a "$out.log"
