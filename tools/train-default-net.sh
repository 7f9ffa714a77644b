#!/usr/bin/env bash
# The recipe of Janus's default NNUE network, end to end, with its seeds:
#
#   tools/train-default-net.sh [--chunks N] [--nnue-chunks M] [--install]
#
#   1. data:  tools/gen-nnue-data.sh --chunks N (seed 1000, 200 games of 5000 nodes per chunk,
#             resumable: only missing chunks are played), plus the 14 chunks of the first
#             layout in data/nnue/selfplay-5k (one datagen run per seed 1..14, 500 games of 5000
#             nodes each), made here when missing. Only chunks 0..N-1 of the run are trained on,
#             so a longer data run elsewhere does not change the result. Both were played with
#             the hand-crafted evaluation (--eval hce), before the build embedded a network.
#             With --nnue-chunks M > 0 also chunks 0..M-1 of data/nnue/selfplay-nnue-v3: seed
#             2000, 100 games of 5000 nodes per chunk, played with the first network
#             nets/nn-5c756e31d238b167.jnn as the evaluation (--eval names the file, so the
#             result does not depend on the network the build embeds).
#   2. train: janus train-nnue, 768x2->256->8 SCReLU, lambda 0.3, sigmoid scale 187 cp (the
#             score -> result fit of Janus's own scores, printed by the trainer), --mirror (a<->h
#             mirror of positions without castling rights), 60 superbatches, seed 1, into
#             data/nnue/runs/default-<N> (resumable with the same command).
#   3. copy the network nn-<hash>.jnn to nets/; with --install also name it in nets/default.txt
#      (the build embeds it; decide with an SPRT against the current default first,
#      docs/nnue.md).
#
# The first default network nn-5c756e31d238b167 was made with --chunks 139 --nnue-chunks 0
# (4.1M records, 3.2M kept by the loader, 6.0M with the mirror); the defaults below are its
# recipe. The chain from there to the current default (docs/lab/nnue-runs-log.md, seventh and eighth sessions):
#   a. --nnue-chunks 153 gives nn-ab8baee1c03eebca;
#   b. tools/finetune-net.sh --base nets/nn-ab8baee1c03eebca.jnn --seed 3000 --chunks 168
#        --data-dir data/nnue/selfplay-nnue-v4 gives nn-4dd54cd3281e7a19;
#   c. tools/finetune-net.sh --base nets/nn-4dd54cd3281e7a19.jnn --seed 3001 --chunks 150
#        --data-dir data/nnue/selfplay-nnue-v5 --also data/nnue/selfplay-nnue-v4:168
#        --superbatches 20 --qat gives nn-f2da73d9ce775d49;
#   d. tools/finetune-net.sh --base nets/nn-f2da73d9ce775d49.jnn --seed 3002 --chunks 168
#        --data-dir data/nnue/selfplay-nnue-v6 --also data/nnue/selfplay-nnue-v5:168
#        --also data/nnue/selfplay-nnue-v4:168 --superbatches 20 --lr 0.0005 --qat
#        gives nn-bcd830fc38286f06;
#   e. tools/finetune-net.sh --base nets/nn-bcd830fc38286f06.jnn --seed 3003 --chunks 168
#        --data-dir data/nnue/selfplay-nnue-v7 --also data/nnue/selfplay-nnue-v6:168
#        --also data/nnue/selfplay-nnue-v5:168 --also data/nnue/selfplay-nnue-v4:168
#        --superbatches 20 --lr 0.0005 --qat gives nn-5a0ce0cd7cc4c1c3;
#   f. tools/finetune-net.sh --base nets/nn-5a0ce0cd7cc4c1c3.jnn --seed 3004 --chunks 168
#        --data-dir data/nnue/selfplay-nnue-v8 --also data/nnue/selfplay-nnue-v7:168
#        --also data/nnue/selfplay-nnue-v6:168 --also data/nnue/selfplay-nnue-v5:168
#        --also data/nnue/selfplay-nnue-v4:168 --superbatches 20 --lr 0.0005 --qat
#        gives nn-3ed0e83923af3b97 (never tested alone);
#   g. tools/finetune-net.sh --base nets/nn-3ed0e83923af3b97.jnn --seed 4001 --chunks 676
#        --data-dir data/nnue/selfplay-nnue-v11 --train-only --val-chunks 10 --superbatches 20
#        --lr 0.0005 --qat gives nn-00b6fb26afba8af1, the default from 2026-11-30 to 12-02
#        (SPRT(0, 10) H1 against nn-5a0c at 25,000 nodes: +11.1 ± 8.8 in 3273 games,
#        docs/lab/nnue-runs-log.md);
#   h. tools/finetune-net.sh --base nets/nn-00b6fb26afba8af1.jnn --seed 6001 --chunks 1000
#        --data-dir data/nnue/selfplay-nnue-v13 --train-only --val-chunks 10 --superbatches 100
#        --lr 0.001 --qat --threads 1 gives nn-cd9597845822c91a, the default since 2026-12-02
#        (SPRT(0, 10) H1 against nn-00b6 at 25,000 nodes: +23.2 ± 15.6 in 1156 games,
#        docs/lab/nnue-runs-log.md). Its data: chunks 0-999 (12.4M records; 0-9 held out) of issue 29's
#        v13 run (tools/train-scratch-net.sh's header: seed 6001, played by 3938d8a with nn-00b6).
#   The same step from the 512-hidden nn-c584d2cb1361ee10 (tools/train-scratch-net.sh --chunks
#   1100 --train-only --data-dir data/nnue/selfplay-nnue-v12 --hidden 512 --superbatches 200)
#   gives nn-72a1ae47c48c3d65: as strong at its 92% speed (+27.4 ± 17.4 against nn-00b6 at
#   23,000 nodes against 25,000; -4.8 ± 16.9 against nn-cd95 in 937 games), so not the default.
#   Neither network is in nets/ any more (docs/artifacts.md): git show 0d8357a:nets/nn-c584d2cb1361ee10.jnn
#   and git show 29fa00f:nets/nn-72a1ae47c48c3d65.jnn restore them.
# The data of steps b-f: tools/gen-nnue-data.sh --chunks 168 --games-per-chunk 100 --threads 2
#   --seed S --eval nets/NET.jnn --out data/nnue/selfplay-nnue-vK with (S, NET, K) = (3000,
#   nn-ab8baee1c03eebca, v4), (3001, nn-4dd54cd3281e7a19, v5), (3002, nn-f2da73d9ce775d49, v6),
#   (3003, nn-bcd830fc38286f06, v7), (3004, nn-5a0ce0cd7cc4c1c3, v8); a chunk depends only on the
#   seed and its index, so --chunks 176 adds chunks 168-175, the held-out games of docs/lab/nnue-runs-log.md.
# Step g's data is chunks 0-675 (8.5M records; 0-9 held out) of tools/gen-nnue-data.sh --chunks
#   4200 --games-per-chunk 100 --threads 2 --seed 4001 --out data/nnue/selfplay-nnue-v11, played
#   by the build of da6daf5 (its embedded nn-5a0c, Bench 5009104's search; tools/pgo-build.sh
#   gives the same chunks faster).
# Each step plays its own data with its base network and a fixed seed. Rebuilds from these
# commands with the data present: step a gave the same file (content hash) when checked, and so
# did step c (tenth session, docs/lab/nnue-runs-log.md); step b repeats its training exactly (the same
# metrics.csv), but today's exporter rounds the output layer with a scale per network (eighth
# session), so it writes nn-b82182dfcf880270 instead of nn-4dd54cd3281e7a19; step c starts from
# the committed file. Wall time on a 2-core machine: datagen ~450-900 positions/s with 2 threads
# (about 15 s per chunk of 100 games, 12,000 positions, on the idle machine), training
# 1.1-1.3M positions/s (under a minute for 60 superbatches, plus about 1 s of loading per million records);
# docs/lab/nnue-runs-log.md has the measured runs.
set -euo pipefail
cd "$(dirname "$0")/.."

chunks=139
nnueChunks=0
install=0
while (($#)); do
  case "$1" in
    --chunks) chunks=$2; shift 2 ;;
    --nnue-chunks) nnueChunks=$2; shift 2 ;;
    --install) install=1; shift ;;
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done

[ -x build/janus ] || { echo "build/janus is missing: run ./dev.sh main or cmake --build build" >&2; exit 1; }
book=data/openings/8moves_v3.epd.zst  # the 8moves_v3 book the recipe was run with
[ -f "$book" ] || { echo "train-default-net: no opening book at $book" >&2; exit 1; }
bookArgs=(--openings "$book")

# The first layout: one datagen run per seed (written atomically by janus datagen --output).
mkdir -p data/nnue/selfplay-5k
for s in $(seq 1 14); do
  file=$(printf 'data/nnue/selfplay-5k/chunk-%06d.janusdat.zst' "$s")
  [ -f "$file" ] && continue
  echo "first-layout chunk seed $s -> $file"
  build/janus datagen --quiet --games 500 --nodes 5000 --threads 2 --seed "$s" --eval hce "${bookArgs[@]}" \
    --output "$file"
done

tools/gen-nnue-data.sh --chunks "$chunks" --threads 2 --seed 1000 --eval hce --out data/nnue/selfplay-5k-v2

firstNet=nets/nn-5c756e31d238b167.jnn
if ((nnueChunks > 0)); then
  tools/gen-nnue-data.sh --chunks "$nnueChunks" --games-per-chunk 100 --threads 2 --seed 2000 --eval "$firstNet" \
    --out data/nnue/selfplay-nnue-v3
fi

data=()
for ((k = 0; k < chunks; k++)); do data+=("$(printf 'data/nnue/selfplay-5k-v2/chunk-%06d.janusdat.zst' "$k")"); done
for s in $(seq 1 14); do data+=("$(printf 'data/nnue/selfplay-5k/chunk-%06d.janusdat.zst' "$s")"); done
for ((k = 0; k < nnueChunks; k++)); do data+=("$(printf 'data/nnue/selfplay-nnue-v3/chunk-%06d.janusdat.zst' "$k")"); done
for f in "${data[@]}"; do [ -f "$f" ] || { echo "missing training data: $f" >&2; exit 1; }; done

run=data/nnue/runs/default-$chunks-$nnueChunks
resume=()
[ -f "$run/checkpoint.bin" ] && resume=(--resume)
build/janus train-nnue --data "${data[@]}" --hidden 256 --buckets 8 --activation screlu --lambda 0.3 \
  --sigmoid-scale 187 --mirror --superbatches 60 --seed 1 --threads 2 --out-dir "$run" --description default \
  "${resume[@]}"

net=$(ls -t "$run"/nn-*.jnn | head -1)
mkdir -p nets
cp "$net" nets/
echo "network: nets/$(basename "$net")"
if ((install)); then
  basename "$net" > nets/default.txt
  echo "nets/default.txt now names it; rebuild (cmake --build build) to embed it"
fi
