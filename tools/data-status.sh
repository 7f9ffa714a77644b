#!/usr/bin/env bash
# How far a chunked data run (tools/gen-nnue-data.sh) is: chunks and positions so far, the rate
# over a recent window, and the time to a target count at that rate.
#
#   tools/data-status.sh [DIR] [--target N] [--window MINUTES]
#
# DIR defaults to the current run, data/nnue/selfplay-nnue-v13; --target to 50,000,000 positions
# (issue 29's goal); --window to 60 minutes. Reads DIR/progress.log, where the script writes one
# time-stamped line per finished chunk ("<UTC> DIR/chunk-<k>.janusdat.zst: G games, P positions
# in ..."). A chunk made twice (a run replayed into the same folder) counts once, with its last
# line. Only chunks whose file exists are counted, so a log copied without its chunks says 0. The
# rate is that of the chunks finished within the window, from the first one's time to the last's.
# Printed by `tools/data-status.sh --window 2` on 2026-12-02 at 13:14 UTC (the v13 run replayed):
#   data/nnue/selfplay-nnue-v13: 77 chunks, 957650 positions (1.9% of 50000000)
#   last 2 min: 6 chunks, 73905 positions, 949 positions/s; 50000000 in 14h21m at that rate
set -euo pipefail
cd "$(dirname "$0")/.."

dir=data/nnue/selfplay-nnue-v13
target=50000000
window=60
while (($#)); do
  case "$1" in
    --target) target=$2; shift 2 ;;
    --window) window=$2; shift 2 ;;
    -*) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
    *) dir=$1; shift ;;
  esac
done
log=$dir/progress.log
[ -f "$log" ] || { echo "no $log: not a chunked run folder (tools/gen-nnue-data.sh --out DIR)" >&2; exit 1; }
[[ "$target" =~ ^[0-9]+$ && "$window" =~ ^[0-9]+$ && "$window" -gt 0 ]] ||
  { echo "--target and --window take positive whole numbers" >&2; exit 2; }

now=$(date -u +%s)
# One "<epoch> <file> <positions>" line per chunk line of the log whose chunk file exists.
grep -E '\.janusdat\.zst: [0-9]+ games, [0-9]+ positions in ' "$log" |
  while read -r stamp file _ _ positions _; do
    file=${file%:}
    [ -f "$file" ] && echo "$(date -u -d "$stamp" +%s) $file $positions"
  done |
  awk -v now="$now" -v window="$window" -v target="$target" -v dir="$dir" '
    { at[$2] = $1; n[$2] = $3 }
    END {
      chunks = 0; total = 0; recentChunks = 0; recent = 0; first = now; last = 0
      for (f in n) {
        chunks++; total += n[f]
        if (at[f] >= now - window * 60) {
          recentChunks++; recent += n[f]
          if (at[f] < first) { first = at[f]; firstN = n[f] }
          if (at[f] > last) last = at[f]
        }
      }
      printf "%s: %d chunks, %d positions (%.1f%% of %d)\n", dir, chunks, total, 100 * total / target, target
      # The rate from the first chunk of the window to the last: the chunks after the first over
      # that span (a run started within the window is not diluted by the time before it).
      rate = last > first ? (recent - firstN) / (last - first) : 0
      printf "last %d min: %d chunks, %d positions, %.0f positions/s", window, recentChunks, recent, rate
      if (total >= target) printf "; the target is reached\n"
      else if (rate > 0) {
        s = (target - total) / rate
        printf "; %d in %dh%02dm at that rate\n", target, s / 3600, (s % 3600) / 60
      } else printf "; fewer than two chunks in the window: no rate\n"
    }'
