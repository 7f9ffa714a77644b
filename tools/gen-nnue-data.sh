#!/usr/bin/env bash
# The recipe for Janus's NNUE training data: fixed-node self-play as a chunked `janus datagen` run.
#
#   tools/gen-nnue-data.sh [--chunks N] [--games-per-chunk G] [--nodes K] [--threads T]
#                          [--seed S] [--out DIR] [--janus BIN] [--book FILE] [--shard I/M]
#                          [--eval hce|FILE]
#
# One run of N chunks of G games with seed S (docs/tuning.md, "Chunked runs"): chunk k is
# DIR/chunk-<k, 6 digits>.janusdat.zst and holds games k*G .. (k+1)*G-1 of the run, written
# atomically (temporary name, fsync, rename) when its last game is over, so a chunk file that
# exists is complete. The script runs `janus datagen --output-dir DIR --resume`: killing it loses
# at most the chunks in progress, and running it again with the same arguments plays only the
# missing chunks. DIR/datagen-run.txt records the settings of the games; janus refuses to resume
# or extend a run with other ones. Raising --chunks later extends the run.
#
# Several jobs or machines share a run with --shard I/M: shard I plays the chunks k with
# k mod M = I-1, and the union of shards 1..M is the whole run (a chunk's games do not depend on
# M). Nothing coordinates them; any scheduler works, e.g.
#   parallel -j 8 tools/gen-nnue-data.sh --shard {}/8 ::: $(seq 8)
#   sbatch --array=1-64 --wrap 'tools/gen-nnue-data.sh --shard $SLURM_ARRAY_TASK_ID/64'
# (a Kubernetes indexed Job: --shard $((JOB_COMPLETION_INDEX + 1))/<completions>). On a shared
# file system all shards can write the same DIR; otherwise copy the chunk files together.
#
# Progress: one line per chunk (positions, positions/s, games/h), with a UTC time stamp, to
# DIR/progress.log and the terminal; janus's progress line (games, positions, positions/s, ETA)
# on stderr, redrawn on a terminal.
#
# Speed: --janus build-pgo/janus (tools/pgo-build.sh, a profile-guided build of the same code)
# plays the same chunks byte for byte about 14% faster (docs/lab/nnue-runs-log.md, thirteenth session).
# Builds from 4950be5 on keep the search thread from move to move (util/task_thread.h): 24% less
# wall time for the same bytes (thirty-second session). To replay a run made by an older commit
# faster, cherry-pick 4950be5 onto that commit (its Bench stays the same) and build that.
#
# Defaults (the default net's data, docs/lab/nnue-runs-log.md): 1000 chunks of 200 games, 5000 nodes per
# move, the 8moves_v3 book (data/openings/8moves_v3.epd.zst, 34,700 positions; --book FILE for
# another), 4 or 5 random plies checked within ±200 cp, seed 1, data/nnue/selfplay-5k-v2, the
# engine's default evaluation (the built-in network; --eval hce for the hand-crafted one, or a
# network file). The run records the evaluation: data/nnue/selfplay-5k-v2 was made with the HCE
# (before a network was built in), so continue it with --eval hce.
# (data/nnue/selfplay-5k holds the version 1 chunks of the earlier script, one seed per chunk:
# a different layout that this script does not continue.)
set -euo pipefail
cd "$(dirname "$0")/.."

chunks=1000
games=200
nodes=5000
threads=1
seed=1
out=data/nnue/selfplay-5k-v2
janus=build/janus
book=data/openings/8moves_v3.epd.zst
shard=1/1
evalArgs=()

while (($#)); do
  case "$1" in
    --chunks) chunks=$2; shift 2 ;;
    --games-per-chunk) games=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --janus) janus=$2; shift 2 ;;
    --book) book=$2; shift 2 ;;
    --shard) shard=$2; shift 2 ;;
    --eval) evalArgs=(--eval "$2"); shift 2 ;;
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done

[ -x "$janus" ] || { echo "no engine binary at $janus (run ./dev.sh main or cmake --build build)" >&2; exit 1; }
[ -f "$book" ] || { echo "gen-nnue-data: no opening book at $book (--book FILE)" >&2; exit 1; }
bookArgs=(--openings "$book")
mkdir -p "$out"
log="$out/progress.log"

stamp() { while IFS= read -r line; do printf '%s %s\n' "$(date -u +%FT%TZ)" "$line"; done; }

echo "shard $shard of a run of $chunks chunks x $games games, $nodes nodes/move, seed $seed, into $out" | stamp | tee -a "$log"
status=0
"$janus" datagen --output-dir "$out" --resume --shard "$shard" --games $((chunks * games)) --chunk-games "$games" \
  --nodes "$nodes" --threads "$threads" --seed "$seed" "${bookArgs[@]}" "${evalArgs[@]}" | stamp | tee -a "$log" || status=$?
if ((status != 0)); then
  echo "shard $shard: janus datagen failed (exit $status; its error is above)" | stamp | tee -a "$log" >&2
  exit "$status"
fi
