#!/usr/bin/env bash
# The recipe of the MCTS face's default policy/value network (pvnet backend,
# mcts/pvnet_format.h), with its seeds:
#
#   tools/train-default-pvnet.sh [--build DIR] [--install]
#
#   1. data:  chunks 0-39 of data/nnue/selfplay-5k-v2 (tools/gen-nnue-data.sh, seed 1000, 200
#             games of 5000 nodes per chunk, JANUSDAT v2: every position of every game; 8000
#             games, 994,903 positions). The move played from each position is the one that
#             leads to the next record (99.2% of the records; the last position of each game is
#             used for the value only).
#   2. train: janus train-az, 772 -> 256 -> value 32 -> 3, policy 1858, batch 1024, 2 epochs
#             over the 940,082 training positions, AdamW lr 0.002 cosine to 0.00002, wd 0.01,
#             value target 0.5 x result + 0.5 x WDL(score) with a = 250, b = 170 (the trainer
#             fits a = 250, b = 175 on these data), 5% of the games held out, seed 1, 1 torch
#             thread, into data/az/runs/v2-40-h256 (resumable with the same command).
#   3. copy the network pv-<hash>.jpv to nets/; with --install also name it in
#      nets/default-pvnet.txt (the build embeds it; decide by a match first, docs/lab/mcts-log.md).
#
# Result (docs/lab/mcts-log.md): pv-9b261da7cc867547.jpv, validation policy CE 2.476, value CE 0.840,
# top-1 24.8%; 8m41s wall at 3,606 positions/s on one core of the loaded development machine.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
install=0
while (($#)); do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --install) install=1; shift ;;
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done

[ -x "$build/janus" ] || { echo "$build/janus is missing: run ./dev.sh main or cmake --build $build" >&2; exit 1; }
shopt -s nullglob
data=(data/nnue/selfplay-5k-v2/chunk-0000[0-3][0-9].janusdat.zst)
((${#data[@]} == 40)) || {
  echo "need chunks 0-39 of data/nnue/selfplay-5k-v2 (found ${#data[@]}): tools/gen-nnue-data.sh --chunks 40" >&2
  exit 1
}
run=data/az/runs/v2-40-h256
resume=()
[ -f "$run/checkpoint.pt" ] && resume=(--resume)
"$build/janus" train-az --data "${data[@]}" --hidden 256 --value-hidden 32 --batch 1024 --epochs 2 \
  --epoch-positions 0 \
  --lr 0.002 --lr-final 0.00002 --wd 0.01 --lambda 0.5 --wdl-a 250 --wdl-b 170 --val-fraction 0.05 --seed 1 \
  --threads 1 --out-dir "$run" --description v2-40-h256 "${resume[@]}"

net=$(ls -t "$run"/pv-*.jpv | head -1)
mkdir -p nets
cp "$net" nets/
echo "network: nets/$(basename "$net")"
if ((install)); then
  basename "$net" > nets/default-pvnet.txt
  echo "nets/default-pvnet.txt now names it; rebuild (cmake --build $build) to embed it"
fi
