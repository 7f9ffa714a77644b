#!/usr/bin/env bash
# The alpha-beta face's self-play generations (issue 74, docs/rl.md "The alpha-beta face"): the
# recipe of `janus rl --face ab` whose state is committed in runs/ab, so that any session on any
# machine continues it from the repository alone:
#
#   tools/rl-ab.sh [--generations G] [--hours H] [--games-per-gen N] [--nodes N] [--train-args "..."] [--janus BIN]
#   tools/rl-ab.sh --snapshot     (before a commit: every match PGN of runs/ab as its .pgn.zst)
#
# Generation g: 30,000 games (--games-per-gen, a multiple of 100; 300 chunks of 100, about 3.6M
# positions, about 70 minutes of both cores of an idle 2-core machine) of self-play data played by
# the best network at --nodes a move (10,000 from generation 5; generations 1-4 were played at 5,000:
# give --nodes 5000 to replay one of them; generation 4's 5,000-node data taught nn-f3de, which had
# learnt 5,000-node scores, 0.6% of held-out loss and +3.2 ± 7.8 Elo in 4,000 games, so the labels go deeper)
# (the 8moves_v3 book, 4-5 random plies; seed 7 * 1000003 + g;
# data/rl/ab/gen-NNN/data, disposable: a lost chunk is played again byte for byte from its seed by
# a binary with the same Bench), then `train-nnue --init BEST` on the data of generations g-3..g
# still on the machine (--train-args; from generation 3: the search score alone (lambda 0), 10
# superbatches of 1M, cosine lr 0.0001 -> 1e-6, QAT: on generations 1-2's data that recipe made
# nn-f3de7acacb005fae, +21.0 +- 14.5 against nn-cd95 (SPRT H1), while lambda 0.3 at lr 0.001 (generation
# 2) and at 0.0005 (generation 1) lost; watch its centipawn scale, docs/lab/rl-log.md),
# the candidate copied to nets/, then the gate: SPRT(0, 10) against the best at 25,000
# nodes a move (8moves_v3, 34,700 positions, in the order of seed 1 + g: fixed-node games repeat
# when a book runs out; at most 4,000 games, 2 at a time) and, for a
# promoted candidate, 400 games against generation 0 (nn-cd95) at the same nodes.
#
# Resumable at every step: datagen keeps its finished chunks, training continues from its
# checkpoint, a gate or generation-0 match continues from the PGN in runs/ab/gen-NNN/. Git keeps
# its zstd snapshot gate.pgn.zst (written when a match ends, or by --snapshot while one runs: do
# that and commit runs/ab and the candidate in nets/ at the end of a session); in a new clone the
# loop unpacks the snapshot and the match resumes from its games. The binary is
# copied to data/rl/janus-<hash> so that a rebuild of build/janus during the run changes nothing.
# Log: data/rl/ab/rl.log (also on the terminal).
#
# A generation's size can be cut while its self-play runs: stop the script and give a smaller
# --games-per-gen (a multiple of 100, at least 100 x (the highest chunk number + 1), so that every
# chunk on disk belongs to the run; chunks are played in order and missing ones below it are played),
# and the run trains on what exists; the state records the generation's games.
#
# A promoted network is the loop's best from then on; it becomes the engine's default (nets/default.txt,
# a new Bench) in a commit of its own, with its row in docs/nnue-runs.md.
set -euo pipefail
cd "$(dirname "$0")/.."

generations=1
hours=0
gamesPerGen=30000
nodes=10000
janus=build/janus
trainArgs="--lambda 0.0 --sigmoid-scale 187 --mirror --superbatches 10 --lr 0.0001 --lr-final 0.000001 --qat"
while (($#)); do
  case "$1" in
    --snapshot)
      for f in runs/ab/gen-*/*.pgn; do [ -f "$f" ] && zstd -q -19 -f "$f" -o "$f.zst" && echo "snapshot: $f.zst"; done
      exit 0 ;;
    --generations) generations=$2; shift 2 ;;
    --hours) hours=$2; shift 2 ;;
    --games-per-gen) gamesPerGen=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --janus) janus=$2; shift 2 ;;
    --train-args) trainArgs=$2; shift 2 ;;
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
[ -x "$janus" ] || { echo "no engine binary at $janus (run ./dev.sh main or cmake --build build)" >&2; exit 1; }
mkdir -p data/rl/ab
copy=data/rl/janus-$(sha256sum "$janus" | cut -c1-12)
[ -x "$copy" ] || cp "$janus" "$copy"

"$copy" rl --face ab --dir runs/ab --data-dir data/rl/ab --nets-dir nets \
  --init-net nets/nn-cd9597845822c91a.jnn --generations "$generations" --hours "$hours" \
  --games-per-gen "$gamesPerGen" --train-args "$trainArgs" --chunk-games 100 --threads 2 --nodes "$nodes" \
  --data-book data/openings/8moves_v3.epd.zst --seed 7 --window 4 \
  --openings data/openings/8moves_v3.epd.zst --gate-nodes 25000 --gate-games 4000 --gen0-games 400 \
  --concurrency 2 --match-seed 1 2>&1 | tee -a data/rl/ab/rl.log
