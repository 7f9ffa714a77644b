#!/usr/bin/env bash
# SPRT of a search or evaluation patch (git format-patch, as kept in docs/ladder/patches/)
# against the revision it applies to, at a node limit. One command from a fresh clone to a
# running, resumable test: the two binaries are built and cached, a committed PGN snapshot is
# unpacked, and the match resumes from whatever games exist (docs/lab/search-sprts.md, the end of the page).
#
#   tools/sprt-patch.sh NAME PATCH [--base REV] [--seed S] [--nodes 25000] [--games 10000]
#                       [--elo0 0] [--elo1 8] [--concurrency 1] [--hash 16] [--book FILE] [--tc 10+0.1]
#
# 1. The base: REV (default HEAD) built in the worktree ../wt-base-<hash> (Release, target janus),
#    copied to data/bin/janus-main-<hash>; reused when that file exists.
# 2. The candidate: the worktree ../wt-NAME at REV with PATCH applied by `git am` (an existing
#    worktree ../wt-NAME is reused as it is), built and copied to data/bin/janus-NAME-<hash>.
# 3. Check: when PATCH's commit message has a `Bench: N` line, the candidate's `janus bench` must
#    print N nodes; else the patch did not land on REV as it was tested (another base, a conflict
#    resolved differently) and the script stops before playing a game.
# 4. The PGN is data/matches/sprt-NAME-main-n<nodes/1000>k.pgn (sprt-NAME-main-<tc>.pgn with --tc); when docs/ladder/ holds the same
#    name as .pgn.zst with more games than the file in data/matches/, the snapshot is unpacked
#    first. With games in it the match goes on with --resume (same seed, same openings order).
# 5. janus match: the candidate and the base, Hash 16 MiB each, --nodes N a move (or the clock of
#    --tc, for time management and for ideas whose verdict is at the clock: run it beside fixed-node
#    jobs at nice 19 with --concurrency 1, which leaves one core to the two engines), the book
#    (--book FILE, default data/openings/8moves_v3.epd.zst, 34,700 positions; before 2026-12-07
#    the shipped 300-position book, whose fixed-node games repeated after game 600) in the
#    random order of --seed, GSPRT(elo0, elo1) with the pentanomial model,
#    alpha = beta = 0.05; the log is data/matches/sprt-NAME.log (appended).
#
# Run it with nohup for a long test; to pause, kill the match and give the same command again
# (a SIGSTOPped match resumes with its wall clock gone, which a stall check can count against a
# side). Throughput: 20-35 games a minute at 25,000 nodes, 1 game at a time, beside another SPRT
# on a 2-core machine (2026-12-03).
# Exit status: janus match's (0 also when the SPRT stopped the match), 1 on a build or check error.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n 7,8p "$0" | sed 's/^# *//' >&2; exit 2; }
(($# >= 2)) || usage
name=$1
patch=$(realpath "$2")
shift 2
base=HEAD seed=1 nodes=25000 games=10000 elo0=0 elo1=8 concurrency=1 hash=16 tc=
book=data/openings/8moves_v3.epd.zst
while (($#)); do
  case "$1" in
    --base) base=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --elo0) elo0=$2; shift 2 ;;
    --elo1) elo1=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --hash) hash=$2; shift 2 ;;
    --book) book=$2; shift 2 ;;
    --tc) tc=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; usage ;;
  esac
done
[[ "$name" =~ ^[A-Za-z0-9_.-]+$ ]] || { echo "NAME '$name' must be letters, digits, '.', '_' or '-'" >&2; exit 2; }
[ -f "$patch" ] || { echo "no patch file at '$patch'" >&2; exit 2; }
[[ "$nodes" =~ ^[1-9][0-9]*$ ]] || { echo "--nodes '$nodes' is not a positive whole number" >&2; exit 2; }
[[ -z "$tc" || "$tc" =~ ^[0-9.]+(\+[0-9.]+)?$ ]] || { echo "--tc '$tc' is not SECONDS[+INCREMENT]" >&2; exit 2; }
rev=$(git rev-parse --short=7 --verify "$base^{commit}") || { echo "--base '$base' is not a commit" >&2; exit 2; }

# build <worktree> <copy>: Release build of the target janus in the worktree, copied atomically.
build() {
  cmake -S "$1" -B "$1/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$1/build" -j "$(nproc)" --target janus >/dev/null
  cp "$1/build/janus" "$2.tmp" && mv "$2.tmp" "$2"
}
benchNodes() { "$1" bench 2>&1 | awk '/ nodes .* nps$/ {print $1}' | tail -1; }

mkdir -p data/bin data/matches
baseBin=data/bin/janus-main-$rev
if [ ! -x "$baseBin" ]; then
  echo "building the base $rev"
  [ -d "../wt-base-$rev" ] || git worktree add --detach "../wt-base-$rev" "$rev" >/dev/null
  build "../wt-base-$rev" "$baseBin"
fi

wt=../wt-$name
if [ ! -d "$wt" ]; then
  git worktree add --detach "$wt" "$rev" >/dev/null
  git -C "$wt" -c user.name=Janus -c user.email=janus@localhost am -q "$patch" ||
    { git -C "$wt" am --abort; echo "$patch does not apply to $rev" >&2; exit 1; }
fi
candRev=$(git -C "$wt" rev-parse --short=7 HEAD)
candBin=data/bin/janus-$name-$candRev
if [ ! -x "$candBin" ]; then
  echo "building the candidate $name ($candRev)"
  build "$wt" "$candBin"
fi
want=$(sed -n 's/^Bench: \([0-9]*\)$/\1/p' "$patch" | tail -1)
got=$(benchNodes "$candBin")
if [ -n "$want" ] && [ "$got" != "$want" ]; then
  echo "$name: bench $got nodes on $rev, the patch says Bench: $want (another base, or not the tested code)" >&2
  exit 1
fi
echo "base $baseBin (bench $(benchNodes "$baseBin")), candidate $candBin (bench $got)"

pgn=data/matches/sprt-$name-main-n$((nodes / 1000))k.pgn
limit=(--nodes "$nodes")
if [ -n "$tc" ]; then
  pgn=data/matches/sprt-$name-main-$tc.pgn
  limit=(--tc "$tc")
fi
snapshot=docs/ladder/$(basename "$pgn").zst
count() { grep -c '^\[Result ' "$1" 2>/dev/null || true; }
if [ -f "$snapshot" ]; then
  have=$(count "$pgn"); have=${have:-0}
  inSnapshot=$(zstd -dc "$snapshot" | grep -c '^\[Result ' || true)
  if ((inSnapshot > have)); then
    echo "unpacking $snapshot ($inSnapshot games; $pgn had $have)"
    zstd -q -d -f "$snapshot" -o "$pgn"
  fi
fi
resume=()
[ -s "$pgn" ] && resume=(--resume)

echo "match log: data/matches/sprt-$name.log, PGN: $pgn"
exec "$baseBin" match --engine "name=$name cmd=$candBin" --engine "name=main cmd=$baseBin" \
  --each "option.Hash=$hash" "${limit[@]}" --games "$games" --concurrency "$concurrency" \
  --openings "$book" --random-opening --seed "$seed" --sprt "$elo0" "$elo1" --pgnout "$pgn" "${resume[@]}" >>"data/matches/sprt-$name.log" 2>&1
