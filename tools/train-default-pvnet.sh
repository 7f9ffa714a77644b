#!/usr/bin/env bash
# The recipe of the MCTS face's first policy/value network (pvnet backend, mcts/pvnet_format.h),
# with its seeds:
#
#   tools/train-default-pvnet.sh [--build DIR] [--epochs N] [--install]
#
#   1. data:  the first 10 chunks of data/nnue/selfplay-5k-v2 (tools/gen-nnue-data.sh, seed 1000,
#             200 games of 5000 nodes per chunk, JANUSDAT v2: every position of every game;
#             2000 games, 252k positions). The move played from each position is the one that
#             leads to the next record (99.2% of the records; the last position of each game is
#             used for the value only).
#   2. train: janus train-az, 772 -> 256 -> value 32 -> 3, policy 1858, batch 1024, one epoch
#             of 120,000 positions (half a pass: the first net was made on a machine loaded by
#             other jobs; --epoch-positions 0 --epochs N trains longer),
#             AdamW lr 0.002 cosine to 0.00002, wd 0.01, value target 0.5 x result + 0.5 x
#             WDL(score) with a = 250, b = 170 (the trainer fits a = 250, b = 175 on these data),
#             5% of the games held out, seed 1, 1 torch thread (faster than 2 on a loaded 2-core
#             machine, docs/mcts.md), into data/az/runs/default-h256 (resumable with the same
#             command).
#   3. copy the network pv-<hash>.jpv to nets/; with --install also name it in
#      nets/default-pvnet.txt (the build embeds it; decide by a match first, docs/mcts.md).
#
# Wall time: about 4,900 positions/s on one core (30 s for the epoch) when the process gets it;
# on the loaded development machine (load average 10, nice 10) it got a tenth of that.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
epochs=1
install=0
while (($#)); do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --epochs) epochs=$2; shift 2 ;;
    --install) install=1; shift ;;
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done

[ -x "$build/janus" ] || { echo "$build/janus is missing: run ./dev.sh main or cmake --build $build" >&2; exit 1; }
shopt -s nullglob
data=(data/nnue/selfplay-5k-v2/chunk-00000[0-9].janusdat.zst)
((${#data[@]} == 10)) || {
  echo "need chunks 0-9 of data/nnue/selfplay-5k-v2 (found ${#data[@]}): tools/gen-nnue-data.sh --chunks 10" >&2
  exit 1
}
run=data/az/runs/default-h256
resume=()
[ -f "$run/checkpoint.pt" ] && resume=(--resume)
"$build/janus" train-az --data "${data[@]}" --hidden 256 --value-hidden 32 --batch 1024 --epochs "$epochs" \
  --epoch-positions 120000 \
  --lr 0.002 --lr-final 0.00002 --wd 0.01 --lambda 0.5 --wdl-a 250 --wdl-b 170 --val-fraction 0.05 --seed 1 \
  --threads 1 --out-dir "$run" --description default-h256 "${resume[@]}"

net=$(ls -t "$run"/pv-*.jpv | head -1)
mkdir -p nets
cp "$net" nets/
echo "network: nets/$(basename "$net")"
if ((install)); then
  basename "$net" > nets/default-pvnet.txt
  echo "nets/default-pvnet.txt now names it; rebuild (cmake --build $build) to embed it"
fi
