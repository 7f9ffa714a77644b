#!/usr/bin/env bash
# Training speed of the NNUE trainer: positions/s of the sparse CPU backend (janus train-nnue)
# and of the libtorch reference backend (janus-train-torch) on the same data with the same
# network, batch size and thread count, in one run. See docs/nnue.md, section "Trainer".
#
#   tools/bench-train-nnue.sh [--build DIR] [--data FILE[,FILE...]] [--hidden N] [--buckets B]
#                             [--batch N] [--threads T] [--sparse-superbatches K]
#                             [--torch-superbatches K] [--dense]
#
# Without --data it uses data/nnue/selfplay-5k/chunk-000001.janusdat.zst when present, else it
# makes /tmp/janus-bench-train.janusdat.zst with janus datagen (250 games at 2000 nodes, kept for
# the next run). A superbatch is one pass over the data (--superbatch-size 0); the speed is that
# of the optimiser steps (validation and loading excluded), as the trainer prints it.
# --dense also measures the torch backend with a dense [batch, 768] input and matmul.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=build DATA="" HIDDEN=256 BUCKETS=8 BATCH=16384 THREADS=2 SPARSE_SB=10 TORCH_SB=1 DENSE=0
while (($#)); do
  case "$1" in
    --build) BUILD=$2; shift 2 ;;
    --data) DATA=$2; shift 2 ;;
    --hidden) HIDDEN=$2; shift 2 ;;
    --buckets) BUCKETS=$2; shift 2 ;;
    --batch) BATCH=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --sparse-superbatches) SPARSE_SB=$2; shift 2 ;;
    --torch-superbatches) TORCH_SB=$2; shift 2 ;;
    --dense) DENSE=1; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

JANUS="$BUILD/janus"
TORCH="$BUILD/janus-train-torch"
[ -x "$JANUS" ] || { echo "no $JANUS: build it first (cmake --build $BUILD --target janus)" >&2; exit 1; }
if [ -z "$DATA" ]; then
  if [ -f data/nnue/selfplay-5k/chunk-000001.janusdat.zst ]; then
    DATA=data/nnue/selfplay-5k/chunk-000001.janusdat.zst
  else
    DATA=/tmp/janus-bench-train.janusdat.zst
    if [ ! -f "$DATA" ]; then
      echo "making $DATA (janus datagen, 250 games at 2000 nodes)" >&2
      "$JANUS" datagen --quiet --games 250 --nodes 2000 --threads "$THREADS" --output "$DATA" >/dev/null
    fi
  fi
fi

WORK=$(mktemp -d /tmp/janus-bench-train.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
COMMON=(--data "$DATA" --hidden "$HIDDEN" --buckets "$BUCKETS" --batch "$BATCH" --threads "$THREADS"
        --superbatch-size 0 --val-fraction 0 --seed 1)

# run <name> <command...>: prints "<name>: <positions/s>" from the trainer's "speed:" line.
run() {
  local name=$1; shift
  local log="$WORK/$name.log"
  if ! "$@" >"$log" 2>&1; then
    echo "$name: failed (see below)" >&2; cat "$log" >&2; return 1
  fi
  local speed
  speed=$(sed -n 's/^speed: \([0-9]*\) positions\/s.*/\1/p' "$log")
  printf '%-14s %10s positions/s   %s\n' "$name" "$speed" "$(grep '^speed:' "$log" | sed 's/^speed: [0-9]* positions\/s //')"
  echo "$speed" >"$WORK/$name.speed"
}

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
run sparse "$JANUS" train-nnue "${COMMON[@]}" --superbatches "$SPARSE_SB" --out-dir "$WORK/sparse"
positions=$(sed -n 's/.*kept [0-9]*: \([0-9]*\) train.*/\1/p' "$WORK/sparse.log")
echo "data: $DATA (${positions:-?} training positions); network 768x2->$HIDDEN->$BUCKETS SCReLU; batch $BATCH; $THREADS threads"
if [ -x "$TORCH" ]; then
  run torch "$TORCH" "${COMMON[@]}" --superbatches "$TORCH_SB" --out-dir "$WORK/torch"
  if ((DENSE)); then
    run torch-dense "$TORCH" "${COMMON[@]}" --torch-input dense --superbatches "$TORCH_SB" --out-dir "$WORK/torch-dense"
  fi
  awk -v s="$(cat "$WORK/sparse.speed")" -v t="$(cat "$WORK/torch.speed")" \
    'BEGIN { if (t > 0) printf "sparse / torch: %.1fx\n", s / t }'
else
  echo "torch: $TORCH not built (CMake builds it when it finds libtorch, Debian package libtorch-dev)"
fi
