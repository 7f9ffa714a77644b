#!/usr/bin/env bash
# Issue 15 section 1's time-forfeit check: games at concurrency 2 with a busy-loop CPU hog
# (`yes > /dev/null`) beside them, as on a player's loaded desktop. Run it on an otherwise
# quiet machine: other builds or tests beside it are load beyond the check's.
#   tools/forfeit-check.sh [self|ethereal|both] [SELF_GAMES] [ETHEREAL_GAMES]
# self:     SELF_GAMES (default 1000) games of build/janus against itself at 1+0.01.
# ethereal: ETHEREAL_GAMES (default 400) games against Debian's ethereal-chess at 10+0.1.
# Each match's log (forfeits with their overruns in ms, clock left at each move: min, 0.1%,
# 1%, 5%, median) and PGN go to results/. About 21 min per 1000 self games and 1 h 50 min per
# 400 Ethereal games on 2 cores.
# HOG=none starts no `yes` hog: the caller runs its own always-busy process instead (one
# process at nice 0 that keeps one core busy, e.g. a 1-thread `janus datagen`).
# JANUS=PATH checks another binary than build/janus (a copy survives rebuilds); PGN=FILE with
# `ethereal` names the match's PGN and resumes it (see tools/match.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-both}
selfGames=${2:-1000}
etherealGames=${3:-400}
janus=${JANUS:-build/janus}
[[ -x $janus ]] || { echo "$janus is missing: build Release first" >&2; exit 2; }
if [[ ${HOG:-yes} != none ]]; then
  yes > /dev/null &
  hog=$!
  trap 'kill $hog 2>/dev/null || true' EXIT
fi
stamp=$(date +%Y%m%d-%H%M%S)
if [[ $which == self || $which == both ]]; then
  "$janus" match --engine "name=JanusA cmd=$janus option.Hash=16" \
    --engine "name=JanusB cmd=$janus option.Hash=16" --tc 1+0.01 --games "$selfGames" \
    --concurrency 2 --pgnout "results/$stamp-forfeit-self-1+0.01-hog.pgn" 2>&1 |
    tee "results/$stamp-forfeit-self-1+0.01-hog.log"
fi
if [[ $which == ethereal || $which == both ]]; then
  # With PGN set, --resume plays only the games the file lacks (all of them if it is new).
  JANUS=$janus tools/match.sh ethereal "$etherealGames" 10+0.1 2 ${PGN:+--resume}
fi
