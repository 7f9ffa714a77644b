#!/usr/bin/env bash
# PGN ingest benchmark: `janus datagen --pgn` on large zstd-compressed PGN files, to show the
# conversion speed and that its memory does not grow with the file.
#
#   tools/pgn-ingest-bench.sh [--janus BIN] [--copies N] [--factor F] [--dir DIR] [--keep]
#
# Builds DIR/ingest-1x.pgn.zst from N copies (default 300) of tests/data/pgn/matetrack_masters.pgn
# (43 Lichess masters games with [%eval], 94 KB) each followed by the Lichess Crazyhouse game of
# knightvuillaume-jannlee-zh-lichess.pgn (a variant game: skipped and counted), and
# DIR/ingest-Fx.pgn.zst from F times as many copies (default F = 8). Each is converted with
# /usr/bin/time -v into a .janusdat.zst (default settings: every position from ply 8 on, with
# its flags); the script prints games, positions, wall time, positions/s and the peak resident
# set size (RSS) of both runs, and their RSS ratio (1.0 = constant memory). The repeated text
# compresses far better than real games (zstd finds the copies); the reader's work per byte of
# PGN is the same.
set -euo pipefail
cd "$(dirname "$0")/.."

janus=build/janus
copies=300
factor=8
dir=${TMPDIR:-/tmp}/janus-pgn-ingest
keep=0
while (($#)); do
  case "$1" in
    --janus) janus=$2; shift 2 ;;
    --copies) copies=$2; shift 2 ;;
    --factor) factor=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done

masters=tests/data/pgn/matetrack_masters.pgn
zh=tests/data/pgn/knightvuillaume-jannlee-zh-lichess.pgn
[ -x "$janus" ] || { echo "no engine binary at $janus (cmake --build build --target janus)" >&2; exit 1; }
[ -f "$masters" ] && [ -f "$zh" ] || { echo "missing $masters or $zh" >&2; exit 1; }
command -v zstd >/dev/null || { echo "needs the zstd command-line tool" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time, for -v)" >&2; exit 1; }
mkdir -p "$dir"
((keep)) || trap 'rm -f "$dir"/ingest-* "$dir"/unit.pgn' EXIT

# One copy: the masters games, a blank line, the Crazyhouse game, a blank line.
unit="$dir/unit.pgn"
{ cat "$masters"; echo; cat "$zh"; echo; } >"$unit"

make_input() {  # make_input NAME COPIES
  local out="$dir/ingest-$1.pgn.zst"
  if [ ! -f "$out" ]; then
    for ((i = 0; i < $2; i++)); do cat "$unit"; done | zstd -q -3 -o "$out"
  fi
  echo "$out"
}

run() {  # run NAME COPIES
  local input
  input=$(make_input "$1" "$2")
  local output="$dir/ingest-$1.janusdat.zst" report="$dir/ingest-$1.time"
  /usr/bin/time -v "$janus" datagen --pgn "$input" --output "$output" >"$dir/ingest-$1.out" 2>"$report"
  local games positions skipped seconds rss
  games=$(sed -nE 's/^.*: ([0-9]+) games .*/\1/p' "$dir/ingest-$1.out")
  positions=$(sed -nE 's/^wrote ([0-9]+) positions.*/\1/p' "$dir/ingest-$1.out")
  skipped=$(sed -nE 's/.*skipped games: (.*)$/\1/p' "$dir/ingest-$1.out")
  seconds=$(sed -nE 's/.*Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (.*)$/\1/p' "$report" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
  rss=$(sed -nE 's/.*Maximum resident set size \(kbytes\): ([0-9]+)/\1/p' "$report")
  printf '%-4s %5s MB of PGN (%s kB as .zst): %7d games, %9d positions, %6.2f s, %8.0f positions/s, peak RSS %6.1f MB (skipped: %s)\n' \
    "$1" \
    "$(awk -v b="$(($(stat -c %s "$unit") * $2))" 'BEGIN { printf "%.0f", b / 1e6 }')" \
    "$(awk -v b="$(stat -c %s "$input")" 'BEGIN { printf "%.0f", b / 1e3 }')" \
    "$games" "$positions" "$seconds" "$(awk -v p="$positions" -v s="$seconds" 'BEGIN { print (s > 0 ? p / s : 0) }')" \
    "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "$skipped"
  echo "$rss" >"$dir/ingest-$1.rss"
}

echo "janus datagen --pgn ingest: $copies copies of matetrack_masters.pgn + 1 Crazyhouse game (1x), and ${factor}x"
run 1x "$copies"
run "${factor}x" $((copies * factor))
awk -v a="$(cat "$dir/ingest-1x.rss")" -v b="$(cat "$dir/ingest-${factor}x.rss")" -v f="$factor" \
  'BEGIN { printf "peak RSS %sx / 1x: %.2f (input %sx larger)\n", f, b / a, f }'
