#!/usr/bin/env bash
# The recipe of Janus's default NNUE network, end to end, with its seeds:
#
#   tools/train-default-net.sh [--chunks N] [--install]
#
#   1. data:  tools/gen-nnue-data.sh --chunks N (seed 1000, 200 games of 5000 nodes per chunk,
#             resumable; skipped when the chunks exist). Chunks of the earlier one-seed-per-chunk
#             layout in data/nnue/selfplay-5k (seeds 1..14, distinct games) are used as well.
#   2. train: janus train-nnue, 768x2->256->8 SCReLU, lambda 0.3, sigmoid scale 187 cp (the
#             score -> result fit of Janus's own scores, printed by the trainer), 40 superbatches,
#             seed 1, into data/nnue/runs/default (resumable with the same command).
#   3. copy the network nn-<hash>.jnn to nets/; with --install also name it in nets/default.txt
#      (the build embeds it; decide with an SPRT against the hand-crafted evaluation first,
#      docs/nnue.md).
#
# Wall time on a 2-core machine: datagen ~450 positions/s (5000 nodes, 2 threads), training
# ~0.3-0.6 M positions/s (sparse trainer, 2 threads); see docs/nnue.md for measured runs.
set -euo pipefail
cd "$(dirname "$0")/.."

chunks=500
install=0
while (($#)); do
  case "$1" in
    --chunks) chunks=$2; shift 2 ;;
    --install) install=1; shift ;;
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done

[ -x build/janus ] || { echo "build/janus is missing: run ./dev.sh main or cmake --build build" >&2; exit 1; }
tools/gen-nnue-data.sh --chunks "$chunks" --threads 2 --seed 1000 --out data/nnue/selfplay-5k-v2

shopt -s nullglob
data=(data/nnue/selfplay-5k-v2/chunk-*.janusdat.zst data/nnue/selfplay-5k/chunk-*.janusdat.zst)
((${#data[@]})) || { echo "no training data" >&2; exit 1; }
run=data/nnue/runs/default
resume=()
[ -f "$run/checkpoint.bin" ] && resume=(--resume)
build/janus train-nnue --data "${data[@]}" --hidden 256 --buckets 8 --activation screlu --lambda 0.3 \
  --sigmoid-scale 187 --superbatches 40 --seed 1 --threads 2 --out-dir "$run" --description default "${resume[@]}"

net=$(ls -t "$run"/nn-*.jnn | head -1)
mkdir -p nets
cp "$net" nets/
echo "network: nets/$(basename "$net")"
if ((install)); then
  basename "$net" > nets/default.txt
  echo "nets/default.txt now names it; rebuild (cmake --build build) to embed it"
fi
