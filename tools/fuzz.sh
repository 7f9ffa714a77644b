#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, -DJANUS_FUZZ=ON), writes their seed corpora from
# tests/data and data/openings and runs each target for a fixed time, one after the other, at low priority.
#
#   tools/fuzz.sh                       every target, 60 s each
#   tools/fuzz.sh --time 600 uci_fuzz   one target for 10 minutes
#   tools/fuzz.sh --list                the target names
#
# Options: --time S (seconds per target, default 60), --build DIR (default build-fuzz),
# --no-build (use the binaries as they are), --data DIR (default tests/data).
# Prints per target: seconds, executions, exec/s, coverage (libFuzzer's cov = edges, ft =
# features), corpus size and crashes. A crash stops that target; its input is saved as
# DIR/fuzz-artifacts/<target>-crash-<sha1> (replay: DIR/fuzz/<target> <file>). Each run is also
# appended to DIR/fuzz-ledger.tsv, and the totals over all runs are printed at the end.
# The working corpora (DIR/fuzz-corpus/<target>) grow from run to run; delete them to start over.
# Exit status: 1 if any target crashed.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGETS=(fen_fuzz san_fuzz pgn_fuzz pgn_zst_fuzz perft_suite_fuzz uci_fuzz openings_fuzz weights_fuzz record_fuzz
         polyglot_fuzz server_fuzz)
declare -A MAX_LEN=([fen_fuzz]=256 [san_fuzz]=1024 [pgn_fuzz]=16384 [pgn_zst_fuzz]=8192 [perft_suite_fuzz]=4096
                    [uci_fuzz]=4096 [openings_fuzz]=8192 [weights_fuzz]=16384
                    [record_fuzz]=8192 [polyglot_fuzz]=16384 [server_fuzz]=4096)
TIME=60
BUILD=build-fuzz
DATA=tests/data
DO_BUILD=1
SELECTED=()
while (($#)); do
  case "$1" in
    --time) TIME=$2; shift 2 ;;
    --build) BUILD=$2; shift 2 ;;
    --data) DATA=$2; shift 2 ;;
    --no-build) DO_BUILD=0; shift ;;
    --list) printf '%s\n' "${TARGETS[@]}"; exit 0 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) SELECTED+=("$1"); shift ;;
  esac
done
((${#SELECTED[@]})) || SELECTED=("${TARGETS[@]}")
for t in "${SELECTED[@]}"; do
  [[ -n "${MAX_LEN[$t]:-}" ]] || { echo "unknown target '$t' (see --list)" >&2; exit 2; }
done

if ((DO_BUILD)); then
  if ! command -v clang++ >/dev/null; then
    echo "clang++ is missing: apt-get install -y --no-install-recommends clang libclang-rt-14-dev" >&2
    exit 2
  fi
  echo "== building ${SELECTED[*]} in $BUILD"
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DJANUS_FUZZ=ON -DJANUS_BUILD_TESTS=OFF \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
  nice -n 10 cmake --build "$BUILD" -j 2 --target "${SELECTED[@]}"
fi

echo "== seeds from $DATA"
SEEDS="$BUILD/fuzz-seeds"
rm -rf "$SEEDS"
weights_args=()
for j in build/janus build-rel5/janus; do
  if [[ -x "$j" ]] && "$j" eval --print-weights >"$BUILD/default-weights.txt" 2>/dev/null; then
    weights_args=(--weights "$BUILD/default-weights.txt")
    break
  fi
done
# JANUSDAT seeds: the positions of a few PGN games, converted by the Release build.
jdat_args=()
for j in build/janus build-rel5/janus; do
  if [[ -x "$j" ]] && "$j" datagen --quiet --pgn "$DATA/pgn/kasparov-deep-blue-1997.pgn" --output "$BUILD/seed.jdat" \
      >/dev/null 2>&1; then
    jdat_args=(--jdat "$BUILD/seed.jdat")
    break
  fi
done
python3 tools/fuzz-seeds.py "$DATA" "$SEEDS" "${weights_args[@]}" "${jdat_args[@]}"

mkdir -p "$BUILD/fuzz-artifacts" "$BUILD/fuzz-logs"
LEDGER="$BUILD/fuzz-ledger.tsv"
[[ -f "$LEDGER" ]] || printf 'date\ttarget\tseconds\texecutions\tcov\tft\tcrashes\n' >"$LEDGER"
status=0
rows=()
for t in "${SELECTED[@]}"; do
  corpus="$BUILD/fuzz-corpus/$t"
  log="$BUILD/fuzz-logs/$t.log"
  mkdir -p "$corpus"
  echo "== $t: ${TIME}s"
  before=$(ls "$BUILD/fuzz-artifacts" | grep -c "^$t-" || true)
  start=$(date +%s)
  set +e
  nice -n 10 "$BUILD/fuzz/$t" -max_total_time="$TIME" -max_len="${MAX_LEN[$t]}" -timeout=30 -rss_limit_mb=2560 \
    -print_final_stats=1 -artifact_prefix="$BUILD/fuzz-artifacts/$t-" "$corpus" "$SEEDS/$t" >"$log" 2>&1
  rc=$?
  set -e
  secs=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  [[ -n "$execs" ]] || execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.*corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p' <<<"$last")
  after=$(ls "$BUILD/fuzz-artifacts" | grep -c "^$t-" || true)
  crashes=$((after - before))
  if ((rc != 0)) && ((crashes == 0)); then crashes=1; fi
  if ((crashes > 0)); then
    status=1
    echo "   CRASH (exit $rc): see $log"
    grep -E 'ERROR: |FUZZ PROPERTY FAILED|^terminate|Test unit written' "$log" | head -5 | sed 's/^/   /'
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$secs" "${execs:-0}" "${cov:-0}" "${ft:-0}" \
    "$crashes" >>"$LEDGER"
  rows+=("$(printf '%-18s %6s %12s %8s %6s %7s %10s %7s' "$t" "$secs" "${execs:-0}" \
    "$(( ${execs:-0} / (secs > 0 ? secs : 1) ))" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$crashes")")
done

echo
echo "== this run"
printf '%-18s %6s %12s %8s %6s %7s %10s %7s\n' target secs executions exec/s cov ft corpus crashes
printf '%s\n' "${rows[@]}"
echo
echo "== all runs recorded in $LEDGER (cov/ft: the latest run)"
printf '%-18s %8s %14s %6s %7s %7s\n' target secs executions cov ft crashes
awk -F'\t' 'NR > 1 { s[$2] += $3; e[$2] += $4; c[$2] += $7; cov[$2] = $5; ft[$2] = $6 }
  END { for (t in s) printf "%-18s %8d %14d %6s %7s %7d\n", t, s[t], e[t], cov[t], ft[t], c[t] }' "$LEDGER" | sort
exit $status
