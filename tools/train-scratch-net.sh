#!/usr/bin/env bash
# Issue 29's network recipe: a network trained from scratch (random weights, no chain of
# fine-tuning steps) on the records of one data run, judged on held-out chunks of that run.
#
#   tools/train-scratch-net.sh --chunks N [--val-chunks V] [--hidden 256] [--king-buckets 1]
#                              [--factoriser] [--superbatches S] [--lr 0.001] [--qat] [--threads 2]
#                              [--data-dir data/nnue/selfplay-nnue-v13] [--seed 6001]
#                              [--data-bench 2943800] [--janus build/janus] [--data-janus BIN]
#                              [--train-only]
#
#   1. data:  tools/gen-nnue-data.sh --chunks N --games-per-chunk 100 --seed S --out DIR (100
#             games of 5000 nodes a move per chunk, the 8moves_v3 book, 4-5 random plies, played
#             by the embedded default network). Resumable: only missing chunks are played; a
#             chunk depends only on the seed, its index, the network and the search, so the games
#             are played by --data-janus (default: --janus), which must search --data-bench nodes
#             in `janus bench`. The runs of docs/nnue-runs.md:
#               v13 (the default): seed 6001, bench 2943800, commit 3938d8a (nn-00b6), 2026-12-01;
#               v12 (lost with its machine): seed 5001, bench 2711631, f14fee1 + e46b3dc (nn-00b6);
#               v11: seed 4001, bench 5009104, da6daf5 (nn-5a0c).
#             Build the commit with tools/pgo-build.sh (14% faster, same games), e.g.
#             git worktree add ../janus-v11 da6daf5. With --train-only this step is skipped and
#             the chunks must exist (e.g. while the data run goes on in the background, or after
#             copying it from other machines).
#   2. train: janus train-nnue from random weights (seed 1) on chunks V..N-1, validation on
#             chunks 0..V-1 (default V = 10, about 125k positions: the same held-out games for
#             every data size, so validation losses compare across runs); 768 K x 2 -> hidden ->
#             8 output buckets, SCReLU, lambda 0.3, sigmoid scale 187 cp (the fit of Janus's own
#             scores), --mirror when K = 1 (king-bucket nets mirror by themselves), with
#             --factoriser 768 shared inputs that export adds into every bucket, cosine lr
#             from --lr to 1e-5, superbatches of 1M positions (default S: 0.11 per training chunk,
#             at least 40; about 6 passes over the positions of a mirrored K = 1 net: on 1,090
#             chunks of v12 a 256-hidden net reached 0.013663 with 43, 0.013102 with 120 and
#             0.013058 with 300 superbatches, docs/lab/nnue-runs-log.md), into
#             data/nnue/runs/scratch-<data folder>-<N>-k<K>-h<hidden>-sb<S>-lr<lr>[-f][-qat]
#             (resumable with the same command; the data folder in the name keeps a run on other
#             data from resuming its checkpoint).
#   3. print the path of the network nn-<hash>.jnn (it stays in the run's folder) and the
#      validation loss of the default network on the same held-out chunks (train-nnue
#      --evaluate), the reference of docs/nnue-runs.md's table. Nothing is copied into nets/: a
#      network that becomes a candidate is copied there by hand and committed, and becomes the
#      default (nets/default.txt) only after an SPRT against the current one (tools/sprt-net.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

chunks=""
valChunks=10
hidden=256
kingBuckets=1
superbatches=""
lr=0.001
qat=()
factoriser=()
threads=2
dataDir=data/nnue/selfplay-nnue-v13
seed=6001
janus=build/janus
dataJanus=""
dataBench=2943800  # the search that plays the v13 run (commit 3938d8a)
trainOnly=0
while (($#)); do
  case "$1" in
    --chunks) chunks=$2; shift 2 ;;
    --val-chunks) valChunks=$2; shift 2 ;;
    --hidden) hidden=$2; shift 2 ;;
    --king-buckets) kingBuckets=$2; shift 2 ;;
    --superbatches) superbatches=$2; shift 2 ;;
    --lr) lr=$2; shift 2 ;;
    --qat) qat=(--qat); shift ;;
    --factoriser) factoriser=(--factoriser); shift ;;
    --threads) threads=$2; shift 2 ;;
    --data-dir) dataDir=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --data-bench) dataBench=$2; shift 2 ;;
    --janus) janus=$2; shift 2 ;;
    --data-janus) dataJanus=$2; shift 2 ;;
    --train-only) trainOnly=1; shift ;;
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
[ -n "$chunks" ] || { echo "usage: $0 --chunks N [options] (see the header)" >&2; exit 2; }
((chunks > valChunks)) || { echo "--chunks ($chunks) must exceed --val-chunks ($valChunks)" >&2; exit 2; }
[ -x "$janus" ] || { echo "no engine binary at $janus (run ./dev.sh main or cmake --build build)" >&2; exit 1; }

if ((!trainOnly)); then
  dataJanus=${dataJanus:-$janus}
  nodes=$("$dataJanus" bench 2>&1 | awk '/nodes .* nps/ {print $1}')
  if [ "$nodes" != "$dataBench" ]; then
    echo "$dataJanus searches bench $nodes nodes, the games of $dataDir need the search of bench $dataBench" >&2
    echo "(see the header for the commit): build it and pass --data-janus BIN, or --train-only with the chunks present" >&2
    exit 1
  fi
  tools/gen-nnue-data.sh --chunks "$chunks" --games-per-chunk 100 --threads "$threads" --seed "$seed" \
    --out "$dataDir" --janus "$dataJanus"
fi

chunkFile() { printf '%s/chunk-%06d.janusdat.zst' "$dataDir" "$1"; }
train=()
validation=()
for ((k = 0; k < valChunks; k++)); do validation+=("$(chunkFile "$k")"); done
for ((k = valChunks; k < chunks; k++)); do train+=("$(chunkFile "$k")"); done
for f in "${validation[@]}" "${train[@]}"; do [ -f "$f" ] || { echo "missing data: $f" >&2; exit 1; }; done

# About 12,500 records a chunk, 74% kept by the loader's filters, 1.9x that with --mirror: 17,500
# positions a chunk, so 0.11 superbatches a chunk make about 6 passes (3 for an unmirrored K > 1 net).
if [ -z "$superbatches" ]; then
  superbatches=$(((chunks - valChunks) * 11 / 100))
  ((superbatches >= 40)) || superbatches=40
fi
mirror=()
((kingBuckets == 1)) && mirror=(--mirror)

run=data/nnue/runs/scratch-$(basename "$dataDir")-$chunks-k$kingBuckets-h$hidden-sb$superbatches-lr$lr${factoriser[*]:+-f}${qat[*]:+-qat}
resume=()
[ -f "$run/checkpoint.bin" ] && resume=(--resume)
"$janus" train-nnue --data "${train[@]}" --validation "${validation[@]}" --hidden "$hidden" --buckets 8 \
  --king-buckets "$kingBuckets" "${factoriser[@]}" --activation screlu --lambda 0.3 --sigmoid-scale 187 "${mirror[@]}" \
  --superbatches "$superbatches" --lr "$lr" --lr-final 0.00001 --seed 1 --threads "$threads" \
  --out-dir "$run" --description "scratch-k$kingBuckets${factoriser[*]:+f}-h$hidden" "${qat[@]}" "${resume[@]}"

net=$(ls -t "$run"/nn-*.jnn | head -1)
echo "network: $net (from scratch on chunks $valChunks..$((chunks - 1)) of $dataDir)"
echo "the default network on the same held-out chunks:"
"$janus" train-nnue --evaluate "nets/$(cat nets/default.txt)" --data "${validation[@]}" --lambda 0.3 \
  --sigmoid-scale 187 --threads "$threads"
