#!/usr/bin/env bash
# Plays build/janus against a reference engine from Debian's packages and prints W/D/L and Elo.
#   tools/match.sh OPPONENT [GAMES] [TC] [CONCURRENCY] [extra janus match options...]
# OPPONENT: stockfish-<elo> (Stockfish with UCI_LimitStrength and UCI_Elo), stockfish,
#           ethereal, toga2, glaurung, phalanx, gnuchess (UCI mode)
# Defaults: 100 games, 10+0.1, concurrency 1. Both sides get 64 MiB of hash (Phalanx: 64 MiB
# through its -t option). PGN and log go to results/.
# JANUS_SPEC adds spec fields to Janus's side, e.g. JANUS_SPEC="option.UCI_LimitStrength=true
# option.UCI_Elo=1800" to measure a playing level against stockfish-1800.
# JANUS=PATH plays another binary than build/janus (a copy, so that a long match survives
# rebuilds). PGN=FILE names the PGN (log: FILE with .log); with it, extra option --resume
# continues a stopped match.
set -euo pipefail
cd "$(dirname "$0")/.."
opponent=${1:?usage: tools/match.sh OPPONENT [GAMES] [TC] [CONCURRENCY]}
games=${2:-100}
tc=${3:-10+0.1}
concurrency=${4:-1}
shift $(($# < 4 ? $# : 4))
hash=64  # MiB, both sides
case "$opponent" in
  stockfish-*) spec="name=Stockfish-${opponent#stockfish-} cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=${opponent#stockfish-}" ;;
  stockfish) spec="name=Stockfish cmd=/usr/games/stockfish" ;;
  ethereal) spec="name=Ethereal cmd=/usr/games/ethereal-chess" ;;
  toga2) spec="name=Toga2 cmd=/usr/games/toga2" ;;
  glaurung) spec="name=Glaurung cmd=/usr/games/glaurung" ;;
  # Phalanx speaks only CECP (xboard): janus cecp bridges it; own book and learning off, hash in KiB.
  phalanx) spec="name=Phalanx cmd=build/janus arg=cecp arg=/usr/games/phalanx arg=-b- arg=-l- arg=-t arg=$((hash * 1024))" ;;
  gnuchess) spec="name=GNUChess cmd=/usr/games/gnuchess arg=--uci" ;;
  *) echo "unknown opponent '$opponent'" >&2; exit 2 ;;
esac
[[ $opponent == phalanx ]] || spec+=" option.Hash=$hash"
mkdir -p results
stamp=$(date +%Y%m%d-%H%M%S)
pgn=${PGN:-results/$stamp-janus-vs-$opponent.pgn}
janus=${JANUS:-build/janus}
spec=${spec//cmd=build\/janus/cmd=$janus}
"$janus" match --engine "name=Janus cmd=$janus option.Hash=$hash ${JANUS_SPEC:-}" --engine "$spec" \
  --tc "$tc" --games "$games" --concurrency "$concurrency" --pgnout "$pgn" "$@" 2>&1 | tee -a "${pgn%.pgn}.log"
