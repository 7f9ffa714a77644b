#!/usr/bin/env bash
# The MCTS face's self-play generations (issue 74, docs/rl.md "A value network of the MCTS face's
# own"): the recipe of `janus rl --face mcts --value nnue --value-init` whose state is committed in
# runs/mcts, so that any session on any machine continues it from the repository alone:
#
#   tools/rl-mcts.sh [--generations G] [--hours H] [--games-per-gen N] [--gate-visits N] [--gate-games N]
#                    [--train-args "..."] [--value-train-args "..."] [--janus BIN]
#   tools/rl-mcts.sh --snapshot     (before a commit: every match PGN of runs/mcts as its .pgn.zst)
#
# Generation 0 is the engine's default MCTS face with its networks: the policy network
# nets/default-pvnet.txt names (pv-9b261da7cc867547) and the default alpha-beta network
# nets/default.txt names (nn-f3de7acacb005fae) as the leaves' value network, read as the expected
# score sigmoid(cp / 187) of its training (MCTS Value Scale 187; the engine's default face reads
# it through the UCI_ShowWDL model instead), the alpha-beta hints searching with the same network.
# Generation g: --games-per-gen games (default 1,500, chunks of 50) of the default face's
# self-play (NNUE one-ply and quiescence leaves, hints; 800 full / 100 fast playouts, 25% full
# searches; seed 7401 * 1000003 + g) into data/rl/mcts/gen-NNN/selfplay (disposable: a lost
# chunk is played again from its seed by a binary with the same Bench), then
#   - the policy: janus-train-az --init BEST on the window's (4 generations) records, run 3's
#     recipe (2 epochs, lr 0.0003 -> 1e-5, value weight 0.25: the value head is unused by this face);
#   - the value network: train-nnue --init BEST_VALUE on the window's game results (lambda 1,
#     sigmoid scale 187, mirrored, 3 superbatches of 1M, lr 0.0001 -> 1e-6, QAT: nn-3cfb's recipe
#     with fewer passes, since a generation holds ~170,000 positions);
# the two candidates copied to nets/, then the gate: the candidate pair against the best pair at
# --gate-visits playouts a move (default 600; the face gets 500-2,000 a move at 10+0.1), the
# book data/openings/8moves_v3.epd.zst, SPRT(0, 15), at most --gate-games games (default 800),
# 2 at a time; a promoted pair plays 400 games against generation 0. Sized so that a generation
# fits a session of two free cores (measured rates: docs/lab/rl-log.md).
#
# Resumable at every step, as tools/rl-ab.sh: self-play keeps its finished chunks, training
# continues from its checkpoint, a gate continues from its PGN (git keeps its zstd snapshot
# gate.pgn.zst: run --snapshot and commit runs/mcts and the candidates in nets/ at the end of a
# session). janus and janus-train-az are copied to data/rl/ under the hash of the janus binary,
# so that a rebuild of build/ during the run changes nothing. Log: data/rl/mcts/rl.log.
set -euo pipefail
cd "$(dirname "$0")/.."

generations=1
hours=0
gamesPerGen=1500
gateVisits=600
gateGames=800
janus=build/janus
trainArgs="--epochs 2 --batch 512 --lr 0.0003 --lr-final 0.00001 --threads 2 --val-fraction 0.05 --value-weight 0.25"
valueTrainArgs="--lambda 1.0 --sigmoid-scale 187 --mirror --superbatches 3 --lr 0.0001 --lr-final 0.000001 --qat"
while (($#)); do
  case "$1" in
    --snapshot)
      for f in runs/mcts/gen-*/*.pgn; do [ -f "$f" ] && zstd -q -19 -f "$f" -o "$f.zst" && echo "snapshot: $f.zst"; done
      exit 0 ;;
    --generations) generations=$2; shift 2 ;;
    --hours) hours=$2; shift 2 ;;
    --games-per-gen) gamesPerGen=$2; shift 2 ;;
    --gate-visits) gateVisits=$2; shift 2 ;;
    --gate-games) gateGames=$2; shift 2 ;;
    --train-args) trainArgs=$2; shift 2 ;;
    --value-train-args) valueTrainArgs=$2; shift 2 ;;
    --janus) janus=$2; shift 2 ;;
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
[ -x "$janus" ] || { echo "no engine binary at $janus (run ./dev.sh main or cmake --build build)" >&2; exit 1; }
trainerSource=$(dirname "$janus")/janus-train-az
[ -x "$trainerSource" ] || { echo "no janus-train-az beside $janus (built with libtorch)" >&2; exit 1; }
mkdir -p data/rl/mcts
hash=$(sha256sum "$janus" | cut -c1-12)
copy=data/rl/janus-$hash
trainer=data/rl/janus-train-az-$hash
[ -x "$copy" ] || cp "$janus" "$copy"
[ -x "$trainer" ] || cp "$trainerSource" "$trainer"

"$copy" rl --face mcts --dir runs/mcts --data-dir data/rl/mcts --nets-dir nets \
  --init-net "nets/$(cat nets/default-pvnet.txt)" --value nnue --value-init "nets/$(cat nets/default.txt)" \
  --mcts-option "MCTS Value Scale=187" --generations "$generations" --hours "$hours" \
  --games-per-gen "$gamesPerGen" --chunk-games 50 --threads 2 --visits 800 --fast-visits 100 --full-fraction 0.25 \
  --seed 7401 --window 4 --trainer "$trainer" --train-args "$trainArgs" --value-train-args "$valueTrainArgs" \
  --openings data/openings/8moves_v3.epd.zst --gate-visits "$gateVisits" --gate-games "$gateGames" --gate-sprt 0 15 \
  --gen0-games 400 --concurrency 2 2>&1 | tee -a data/rl/mcts/rl.log
