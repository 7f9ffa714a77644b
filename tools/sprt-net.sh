#!/usr/bin/env bash
# SPRT of a candidate NNUE network against a base: another network, or the hand-crafted
# evaluation (HCE). One command for every step of the network chain (docs/nnue.md), resumable.
#
#   tools/sprt-net.sh CANDIDATE.jnn BASE.jnn|hce [--tc 10+0.1] [--games 2000] [--elo0 0] [--elo1 10]
#                     [--seed 7] [--concurrency 2] [--janus BIN]
#
# Both sides run the same binary: a copy of BIN (default build/janus) at data/nnue/janus-sprt-<hash
# of the binary>, so that rebuilding build/janus while the match runs changes nothing. The
# candidate plays with option.EvalFile=CANDIDATE; the base with option.EvalFile=BASE, or, for
# `hce`, with 'option.Use NNUE=false'. Hash 64 MiB each; openings of the shipped book in the
# random order of --seed, each played twice with colours swapped; GSPRT with the pentanomial
# model (janus match, src/match/stats.h), alpha = beta = 0.05.
#
# Output: results/sprt-<candidate>-vs-<base>-<tc>.pgn and .log (results/ is not in git). If the
# PGN exists the match resumes from it (janus match --resume, same seed), so the same command
# continues a match that a session's end or a kill stopped. The score of a finished or stopped
# match: build/janus score --engine <candidate name> results/sprt-....pgn
#
# Exit status: janus match's (0 also when the SPRT stopped the match).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n 5,6p "$0" | sed 's/^# *//' >&2; exit 2; }
(($# >= 2)) || usage
candidate=$1
base=$2
shift 2
tc=10+0.1
games=2000
elo0=0
elo1=10
seed=7
concurrency=2
janus=build/janus
while (($#)); do
  case "$1" in
    --tc) tc=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --elo0) elo0=$2; shift 2 ;;
    --elo1) elo1=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --janus) janus=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; usage ;;
  esac
done

isNet() { [ -f "$1" ] && [ "$(head -c 7 "$1")" = "JANUSNN" ]; }
isNet "$candidate" || { echo "'$candidate' is not a Janus network file (magic JANUSNN)" >&2; exit 1; }
[ "$base" = hce ] || isNet "$base" || { echo "'$base' is neither 'hce' nor a Janus network file" >&2; exit 1; }
[ -x "$janus" ] || { echo "no engine binary at $janus (run ./dev.sh main or cmake --build build)" >&2; exit 1; }

# Short names: nn-<first 4 hex digits> of the content hash in the file name.
shortName() { local b; b=$(basename "$1" .jnn); b=${b#nn-}; echo "nn-${b:0:4}"; }
candName=$(shortName "$candidate")
candSpec="name=$candName cmd=BIN option.Hash=64 option.EvalFile=$(realpath "$candidate")"
if [ "$base" = hce ]; then
  baseName=hce
  baseSpec="name=hce cmd=BIN option.Hash=64 'option.Use NNUE=false'"
else
  baseName=$(shortName "$base")
  baseSpec="name=$baseName cmd=BIN option.Hash=64 option.EvalFile=$(realpath "$base")"
fi
[ "$candName" != "$baseName" ] || { echo "candidate and base have the same short name $candName" >&2; exit 1; }

mkdir -p data/nnue results
copy=data/nnue/janus-sprt-$(sha256sum "$janus" | head -c 12)
[ -x "$copy" ] || { cp "$janus" "$copy.tmp" && mv "$copy.tmp" "$copy"; }
bin=$(realpath "$copy")

pgn=results/sprt-$candName-vs-$baseName-$tc.pgn
log=${pgn%.pgn}.log
resume=()
[ -s "$pgn" ] && resume=(--resume)
echo "$(date -u +%FT%TZ) $candName ($candidate) vs $baseName ($base), $tc, SPRT [$elo0, $elo1], binary $copy${resume[*]:+, resuming}" | tee -a "$log"
"$bin" match --engine "${candSpec/BIN/$bin}" --engine "${baseSpec/BIN/$bin}" --tc "$tc" --games "$games" \
  --concurrency "$concurrency" --random-opening --seed "$seed" --sprt "$elo0" "$elo1" --pgnout "$pgn" "${resume[@]}" \
  2>&1 | tee -a "$log"
