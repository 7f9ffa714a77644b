#!/usr/bin/env bash
# The recipe for Janus's NNUE training data: fixed-node self-play (`janus datagen`) in chunks.
#
#   tools/gen-nnue-data.sh [--chunks N] [--games-per-chunk G] [--nodes K] [--threads T]
#                          [--seed S] [--out DIR] [--janus BIN]
#
# Chunk i is one `janus datagen` run with seed S + i written to DIR/chunk-NNNNN.janusdat.zst.
# datagen writes a file atomically (temporary name, fsync, rename), so a chunk file that exists
# is complete: killing this script loses at most the chunk in progress, and running it again
# with the same arguments resumes at the first missing chunk. Different machines can share the
# work with disjoint seed ranges (e.g. --seed 1000000 on the second one) and the chunk files
# concatenated in any order. Progress (one line per chunk: positions, positions/s, games/h) goes
# to DIR/progress.log and the terminal.
#
# Defaults (the default net's data, docs/nnue.md): 5000 nodes per move, the 8moves_v3 book from
# ../shared/data/openings when present (else the shipped 300-line book), 4 or 5 random plies
# checked within ±200 cp, 200 games per chunk.
set -euo pipefail
cd "$(dirname "$0")/.."

chunks=1000
games=200
nodes=5000
threads=1
seed=1
out=data/nnue/selfplay-5k
janus=build/janus
book=../shared/data/openings/8moves_v3.epd

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
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done

[ -x "$janus" ] || { echo "no engine binary at $janus (run ./dev.sh main or cmake --build build)" >&2; exit 1; }
bookArgs=()
[ -f "$book" ] && bookArgs=(--openings "$book")
mkdir -p "$out"
log="$out/progress.log"

for ((i = 0; i < chunks; i++)); do
  s=$((seed + i))
  file=$(printf '%s/chunk-%06d.janusdat.zst' "$out" "$s")
  [ -f "$file" ] && continue
  t0=$(date +%s.%N)
  summary=$("$janus" datagen --quiet --games "$games" --nodes "$nodes" --threads "$threads" --seed "$s" \
    "${bookArgs[@]}" --output "$file" | grep '^wrote' || true)
  t1=$(date +%s.%N)
  n=$(sed -E 's/^wrote ([0-9]+) positions.*/\1/' <<<"$summary")
  [ -n "$n" ] || { echo "chunk seed $s failed" | tee -a "$log" >&2; exit 1; }
  line=$(awk -v n="$n" -v g="$games" -v a="$t0" -v b="$t1" -v f="$file" \
    'BEGIN { d = b - a; printf "%s: %d games, %d positions in %.0f s: %.0f positions/s, %.0f games/h", f, g, n, d, n / d, g * 3600 / d }')
  echo "$(date -u +%FT%TZ) $line" | tee -a "$log"
done
