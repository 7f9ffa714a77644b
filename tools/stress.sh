#!/usr/bin/env bash
# Stress test: janus match between two Janus builds at very short time controls, with Lazy SMP
# (Threads=2) and pondering on, looking for crashes, illegal moves, time forfeits and hangs.
#
#   tools/stress.sh [--games-a N] [--games-b N] [--out DIR] [ENGINE_A [ENGINE_B]]
#
# ENGINE_A and ENGINE_B default to build/janus (the same build twice); pass e.g. a build of the
# previous commit as ENGINE_B. Two parts, both with Ponder on for both engines:
#   A: --games-a games (default 300) at 2+0.02, Threads=2, one game at a time
#      (2 engines x 2 threads on the machine while one ponders);
#   B: --games-b games (default 700) at 1+0.01, Threads=1, two games at a time
#      (again up to 4 busy threads).
# Strict clocks (no time margin), Move Overhead at its default. Every game goes to DIR/stress-*.pgn
# and DIR/stress-*.log (default DIR: results/). Incidents are read from the runner's summary of
# time forfeits, illegal moves, crashes and stalls (a stall, an engine that stops answering, is a
# hang); the script also bounds each part with `timeout` and counts an overrun as a hang.
# Last line: "stress: G games, C crashes, I illegal moves, F time forfeits, H hangs: PASS|FAIL".
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES_A=300
GAMES_B=700
OUT=results
ENGINES=()
while (($#)); do
  case "$1" in
    --games-a) GAMES_A=$2; shift 2 ;;
    --games-b) GAMES_B=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) ENGINES+=("$1"); shift ;;
  esac
done
A=${ENGINES[0]:-build/janus}
B=${ENGINES[1]:-$A}
for e in "$A" "$B"; do [[ -x "$e" ]] || { echo "not an executable: $e" >&2; exit 2; }; done
mkdir -p "$OUT"

games=0 crashes=0 illegal=0 forfeits=0 hangs=0

# part <name> <games> <tc> <threads> <concurrency>
part() {
  local name=$1 n=$2 tc=$3 threads=$4 conc=$5
  local log="$OUT/stress-$name.log" pgn="$OUT/stress-$name.pgn"
  rm -f "$pgn"
  echo "== part $name: $n games at $tc, Threads=$threads, Ponder on, concurrency $conc"
  # Generous bound for the whole part: 4x the clock time of every game plus a minute.
  local base=${tc%+*} inc=${tc#*+}
  local bound
  bound=$(python3 -c "print(int(60 + 4 * $n * 2 * ($base + 150 * $inc) / $conc))")
  local rc=0
  timeout "$bound" build/janus match \
    --engine "name=Janus-A cmd=$A" --engine "name=Janus-B cmd=$B" \
    --each "option.Threads=$threads option.Hash=16 ponder" \
    --tc "$tc" --games "$n" --concurrency "$conc" --pgnout "$pgn" >"$log" 2>&1 || rc=$?
  tail -n 20 "$log"
  if ((rc == 124)); then
    echo "part $name did not finish within ${bound}s: counted as a hang"
    hangs=$((hangs + 1))
  fi
  local played
  played=$(grep -c '^\[Result ' "$pgn" 2>/dev/null || true)
  games=$((games + played))
  # Incidents from the runner's summary: one line per engine after the header, either
  # '<name>: none' or '<name>: F time forfeits, I illegal moves, C crashes, S stalls'.
  local counts
  counts=$(awk '/^Time forfeits, illegal moves, crashes and stalls:/ {on = 2; next}
               on > 0 { on--; if ($0 !~ /: none$/) {
                 for (i = 1; i <= NF; i++) {
                   if ($(i+1) ~ /^time/) f += $i; if ($(i+1) ~ /^illegal/) il += $i;
                   if ($(i+1) ~ /^crash/) c += $i; if ($(i+1) ~ /^stall/) st += $i } } }
               END { printf "%d %d %d %d\n", f, il, c, st }' "$log")
  read -r f il c st <<<"$counts"
  if ! grep -q '^Time forfeits, illegal moves, crashes and stalls:' "$log"; then
    echo "part $name: no summary in $log (the match runner failed)"
    hangs=$((hangs + 1))
  fi
  forfeits=$((forfeits + f)) illegal=$((illegal + il)) crashes=$((crashes + c)) hangs=$((hangs + st))
}

start=$(date +%s)
((GAMES_A > 0)) && part a "$GAMES_A" 2+0.02 2 1
((GAMES_B > 0)) && part b "$GAMES_B" 1+0.01 1 2
secs=$(($(date +%s) - start))

status=PASS
((crashes + illegal + forfeits + hangs == 0)) || status=FAIL
((games >= GAMES_A + GAMES_B)) || status=FAIL
echo "stress: $games games in ${secs}s, $crashes crashes, $illegal illegal moves, $forfeits time forfeits, $hangs hangs: $status"
[[ $status == PASS ]]
