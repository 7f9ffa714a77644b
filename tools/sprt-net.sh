#!/usr/bin/env bash
# SPRT of a candidate NNUE network against a base: another network, or the hand-crafted
# evaluation (HCE). One command for every step of the network chain (docs/nnue.md), resumable.
#
#   tools/sprt-net.sh CANDIDATE.jnn BASE.jnn|hce [--tc 10+0.1 | --nodes N [--nps-scaled | --candidate-nodes M]]
#                     [--games 2000] [--elo0 0] [--elo1 10] [--seed 7] [--concurrency 2] [--janus BIN] [--book FILE]
#
# --nodes N plays N nodes a move instead of a clock: the result does not depend on the machine's
# load, so it can run beside the data run, but a slower network gets its nodes for free. With
# --nps-scaled the candidate plays N x (its bench nps / the base's) nodes, the speeds measured by
# three alternating `bench` runs of each side before the match (printed and logged): a load-proof
# stand-in for equal time (docs/lab/nnue-runs-log.md, fourteenth session: a 1024-hidden net at 78% of the
# speed went from +2 at equal nodes to -98 with scaled nodes). A resumed match reuses the node
# counts in its log, so the games of one PGN all have the same limits. On a loaded machine the bench
# runs are too noisy for that (one run measured a 512-hidden net faster than a 256-hidden one);
# --candidate-nodes M then gives the candidate's limit from a speed measured on an idle machine
# (e.g. M = N x 0.92 for 512 hidden against 256, docs/lab/nnue-runs-log.md) and the base keeps N.
#
# Both sides run the same binary: a copy of BIN (default build/janus) at data/nnue/janus-sprt-<hash
# of the binary>, so that rebuilding build/janus while the match runs changes nothing. The
# candidate plays with option.EvalFile=CANDIDATE; the base with option.EvalFile=BASE, or, for
# `hce`, with 'option.Use NNUE=false'. Hash 64 MiB each; openings of --book FILE (default
# data/openings/8moves_v3.epd.zst, 34,700 positions: fixed-node games are a function of their
# opening, and with the shipped 300-position book used before 2026-12-07 every SPRT past game 600
# replayed the same games) in the random order of --seed, each played twice with colours swapped; GSPRT with the pentanomial
# model (janus match, src/match/stats.h), alpha = beta = 0.05.
#
# Output: results/sprt-<candidate>-vs-<base>-<tc, nN or nN-scaled>.pgn and .log (results/ is not in git). If the
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
nodes=""
npsScaled=0
candNodes=""
games=2000
elo0=0
elo1=10
seed=7
concurrency=2
janus=build/janus
book=data/openings/8moves_v3.epd.zst
while (($#)); do
  case "$1" in
    --tc) tc=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --nps-scaled) npsScaled=1; shift ;;
    --candidate-nodes) candNodes=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --elo0) elo0=$2; shift 2 ;;
    --elo1) elo1=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --janus) janus=$2; shift 2 ;;
    --book) book=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; usage ;;
  esac
done

isNet() { [ -f "$1" ] && [ "$(head -c 7 "$1")" = "JANUSNN" ]; }
isNet "$candidate" || { echo "'$candidate' is not a Janus network file (magic JANUSNN)" >&2; exit 1; }
[ "$base" = hce ] || isNet "$base" || { echo "'$base' is neither 'hce' nor a Janus network file" >&2; exit 1; }
[ -x "$janus" ] || { echo "no engine binary at $janus (run ./dev.sh main or cmake --build build)" >&2; exit 1; }
if [ -n "$nodes" ]; then
  [[ "$nodes" =~ ^[1-9][0-9]*$ ]] || { echo "--nodes '$nodes' is not a positive whole number" >&2; exit 2; }
  if [ -n "$candNodes" ]; then
    [[ "$candNodes" =~ ^[1-9][0-9]*$ ]] || { echo "--candidate-nodes '$candNodes' is not a positive whole number" >&2; exit 2; }
    ((npsScaled == 0)) || { echo "--nps-scaled and --candidate-nodes exclude each other" >&2; exit 2; }
  fi
else
  ((npsScaled == 0)) && [ -z "$candNodes" ] || { echo "--nps-scaled and --candidate-nodes need --nodes N" >&2; exit 2; }
fi

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

limit=$tc
if [ -n "$nodes" ]; then
  limit=n$nodes
  ((npsScaled)) && limit+=-scaled
  [ -n "$candNodes" ] && limit+=-c$candNodes
fi
pgn=results/sprt-$candName-vs-$baseName-$limit.pgn
log=${pgn%.pgn}.log
resume=()
[ -s "$pgn" ] && resume=(--resume)

# Bench speed of one side: the mean nps of its runs (bench prints "<nodes> nodes <nps> nps").
benchNps() {  # benchNps <evalfile|hce>
  if [ "$1" = hce ]; then "$bin" bench --use-nnue false 2>&1; else "$bin" bench --evalfile "$1" 2>&1; fi |
    awk '/ nodes .* nps$/ {print $3}' | tail -1
}
limits=(--tc "$tc")
candLimit=""
baseLimit=""
if [ -n "$nodes" ]; then
  limits=(--nodes "$nodes")
  if ((npsScaled)); then
    [ -n "${resume[*]}" ] && [ -f "$log" ] &&
      candNodes=$(sed -n 's/.*node limits: candidate \([0-9]*\), base.*/\1/p' "$log" | tail -1)
    if [ -z "$candNodes" ]; then
      candSum=0; baseSum=0
      for run in 1 2 3; do
        c=$(benchNps "$(realpath "$candidate")"); b=$(benchNps "$([ "$base" = hce ] && echo hce || realpath "$base")")
        [ -n "$c" ] && [ -n "$b" ] || { echo "bench printed no nps (candidate '$c', base '$b')" >&2; exit 1; }
        echo "bench run $run: $candName $c nps, $baseName $b nps" | tee -a "$log"
        candSum=$((candSum + c)); baseSum=$((baseSum + b))
      done
      candNodes=$(((nodes * candSum + baseSum / 2) / baseSum))
    fi
    ((candNodes > 0)) || candNodes=1
  fi
  if [ -n "$candNodes" ]; then  # from --nps-scaled or --candidate-nodes
    echo "node limits: candidate $candNodes, base $nodes" | tee -a "$log"
    candLimit=" nodes=$candNodes"
    baseLimit=" nodes=$nodes"
  fi
fi
echo "$(date -u +%FT%TZ) $candName ($candidate) vs $baseName ($base), $limit, SPRT [$elo0, $elo1], binary $copy${resume[*]:+, resuming}" | tee -a "$log"
"$bin" match --engine "${candSpec/BIN/$bin}$candLimit" --engine "${baseSpec/BIN/$bin}$baseLimit" "${limits[@]}" \
  --games "$games" --concurrency "$concurrency" --openings "$book" --random-opening --seed "$seed" --sprt "$elo0" "$elo1" --pgnout "$pgn" \
  "${resume[@]}" 2>&1 | tee -a "$log"
