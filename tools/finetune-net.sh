#!/usr/bin/env bash
# One fine-tuning step of an NNUE network, end to end, with its seeds: new self-play data played
# with the network itself, then training that starts from its weights (train-nnue --init).
#
#   tools/finetune-net.sh --base nets/nn-<hash>.jnn --seed S --chunks M
#                         [--games-per-chunk 100] [--data-dir DIR] [--superbatches 10]
#                         [--lr 0.0002] [--threads 2] [--janus BIN] [--data-only]
#                         [--also DIR:K]... [--qat] [--train-only] [--val-chunks V]
#                         [--king-buckets K]
#
#   1. data:  tools/gen-nnue-data.sh --chunks M --games-per-chunk G --seed S --eval BASE
#             (5000 nodes a move, the 8moves_v3 book, 4-5 random plies; resumable: only missing
#             chunks are played) into DIR (default data/nnue/ft-<base hash>-s<S>). Chunks
#             0..M-1 are trained on, so a longer data run does not change the result.
#   2. train: janus train-nnue --init BASE on those chunks (and those of --also), the base's
#             shape, lambda 0.3, sigmoid scale 187 cp, --mirror, cosine lr from --lr to 1e-5 over
#             --superbatches superbatches of 1M positions, seed 1, --threads T, into
#             data/nnue/runs/ft-<base hash>-s<S>-<M>[+<also dir>-<K>]-sb<superbatches>-lr<lr>
#             (resumable with the same command).
#   3. copy the network nn-<hash>.jnn to nets/ and print its name. It becomes the default only
#      after an SPRT against the current default (docs/nnue.md); nets/default.txt is not touched.
#
# Why: the data of a session may be gone on the next machine, the committed network is not.
# Each step carries what the network learnt into the next one, as the Stockfish networks are each
# trained from the previous one. docs/lab/nnue-runs-log.md lists the steps made so far (base, seed, chunks,
# losses, SPRT); the chain of those commands rebuilds the current network from the first one.
# --also DIR:K also trains on chunks 0..K-1 of DIR, e.g. the previous step's data while they exist
# (repeatable; they are not regenerated, so a step that used them names them in docs/lab/nnue-runs-log.md).
# --qat trains quantisation-aware (train-nnue --qat; the run directory's name ends in -qat).
# With --data-only the script stops after step 1 (e.g. to make data on several machines with
# tools/gen-nnue-data.sh --shard and train once). With --train-only it skips step 1: the chunks of
# --data-dir must exist, whoever played them (e.g. issue 29's v11 run, played by nn-5a0c while the
# run goes on in the background; docs/lab/nnue-runs-log.md, fifteenth session).
# --val-chunks V holds chunks 0..V-1 of --data-dir out of training as the validation set
# (train-nnue --validation; the run directory's name gets -v<V>) and prints the base's loss on
# them (train-nnue --evaluate), the reference for the new network's.
# --king-buckets K (2, 4, 8 or 16) expands a base without king buckets into a K-bucket network with
# the factoriser (train-nnue --init with --king-buckets K --factoriser: every bucket starts from
# the base's weights, "net expansion"; the run directory's name gets -kbK). Such a net mirrors the
# board itself, so --mirror is not passed.
set -euo pipefail
cd "$(dirname "$0")/.."

base=""
seed=""
chunks=""
games=100
dataDir=""
superbatches=10
lr=0.0002
threads=2
janus=build/janus
dataOnly=0
also=()
qat=()
trainOnly=0
valChunks=0
kingBuckets=0
while (($#)); do
  case "$1" in
    --base) base=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --chunks) chunks=$2; shift 2 ;;
    --games-per-chunk) games=$2; shift 2 ;;
    --data-dir) dataDir=$2; shift 2 ;;
    --superbatches) superbatches=$2; shift 2 ;;
    --lr) lr=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --janus) janus=$2; shift 2 ;;
    --data-only) dataOnly=1; shift ;;
    --also) also+=("$2"); shift 2 ;;
    --qat) qat=(--qat); shift ;;
    --train-only) trainOnly=1; shift ;;
    --val-chunks) valChunks=$2; shift 2 ;;
    --king-buckets) kingBuckets=$2; shift 2 ;;
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
[ -n "$base" ] && [ -n "$seed" ] && [ -n "$chunks" ] || { echo "usage: $0 --base NET --seed S --chunks M (see the header)" >&2; exit 2; }
[[ "$valChunks" =~ ^[0-9]+$ ]] && ((valChunks < chunks)) || { echo "--val-chunks wants a number below --chunks ($chunks), got '$valChunks'" >&2; exit 2; }
((dataOnly && trainOnly)) && { echo "--data-only and --train-only exclude each other" >&2; exit 2; }
[ -f "$base" ] || { echo "no network file '$base'" >&2; exit 1; }
[ -x "$janus" ] || { echo "no engine binary at $janus (run ./dev.sh main or cmake --build build)" >&2; exit 1; }
[ "$(head -c 7 "$base")" = "JANUSNN" ] || { echo "'$base' is not a Janus network file (magic JANUSNN)" >&2; exit 1; }

hash=$(basename "$base" .jnn)
hash=${hash#nn-}
dataDir=${dataDir:-data/nnue/ft-$hash-s$seed}

((trainOnly)) || tools/gen-nnue-data.sh --chunks "$chunks" --games-per-chunk "$games" --threads "$threads" \
  --seed "$seed" --eval "$base" --out "$dataDir" --janus "$janus"
((dataOnly)) && exit 0

# train-nnue --init takes the base's shape from the file. King-bucketed networks mirror the board
# themselves (src/nnue/format.h), so --mirror is for the plain ones: king buckets are header byte 11
# (src/nnue/format.h NetHeader; 0 = none).
read -r kingByte < <(od -A n -t u1 -j 11 -N 1 "$base")
mirror=()
expand=()
if ((kingBuckets > 1)); then
  ((kingByte <= 1)) || { echo "--king-buckets expands a base without king buckets; '$base' has them" >&2; exit 2; }
  expand=(--king-buckets "$kingBuckets" --factoriser)
elif ((kingByte <= 1)); then
  mirror=(--mirror)
fi

chunkFile() { printf '%s/chunk-%06d.janusdat.zst' "$1" "$2"; }  # chunkFile DIR K
data=()
validation=()
for ((k = 0; k < valChunks; k++)); do validation+=("$(chunkFile "$dataDir" "$k")"); done
for ((k = valChunks; k < chunks; k++)); do data+=("$(chunkFile "$dataDir" "$k")"); done
runName=ft-$hash-s$seed-$chunks
((valChunks)) && runName+=-v$valChunks
((kingBuckets > 1)) && runName+=-kb$kingBuckets
for spec in "${also[@]}"; do
  [[ "$spec" =~ ^(.+):([0-9]+)$ ]] || { echo "--also wants DIR:K (chunks 0..K-1 of DIR), got '$spec'" >&2; exit 2; }
  for ((k = 0; k < BASH_REMATCH[2]; k++)); do data+=("$(chunkFile "${BASH_REMATCH[1]}" "$k")"); done
  runName+="+$(basename "${BASH_REMATCH[1]}")-${BASH_REMATCH[2]}"
done
for f in "${validation[@]}" "${data[@]}"; do [ -f "$f" ] || { echo "missing training data: $f" >&2; exit 1; }; done

run=data/nnue/runs/$runName-sb$superbatches-lr$lr${qat[*]:+-qat}
resume=()
[ -f "$run/checkpoint.bin" ] && resume=(--resume)
valArgs=()
((valChunks)) && valArgs=(--validation "${validation[@]}")
"$janus" train-nnue --init "$base" --data "${data[@]}" "${valArgs[@]}" --lambda 0.3 --sigmoid-scale 187 "${mirror[@]}" "${expand[@]}" \
  --superbatches "$superbatches" --lr "$lr" --lr-final 0.00001 --seed 1 --threads "$threads" --out-dir "$run" \
  --description "ft-s$seed" "${qat[@]}" "${resume[@]}"

net=$(ls -t "$run"/nn-*.jnn | head -1)
mkdir -p nets
cp "$net" nets/
echo "network: nets/$(basename "$net") (fine-tuned from $base on chunks $valChunks..$((chunks - 1)) of $dataDir${also[*]:+ and ${also[*]}})"
if ((valChunks)); then
  echo "the base on the same held-out chunks 0..$((valChunks - 1)):"
  "$janus" train-nnue --evaluate "$base" --data "${validation[@]}" --lambda 0.3 --sigmoid-scale 187 --threads "$threads"
fi
