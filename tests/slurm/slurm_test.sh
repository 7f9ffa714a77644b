#!/usr/bin/env bash
# Slurm scale-out test (run by ./dev.sh test; docs/slurm.md): a chunked `janus datagen` run as a
# 4-task Slurm job array on a one-node cluster started on this machine, with one task cancelled
# midway and the run completed by resubmitting, checked against a local run of the same settings.
#
#   tests/slurm/slurm_test.sh [--janus BIN] [--trainer JANUS_TRAIN_AZ] [--keep]
#
# Steps (each a check that fails the test with a message):
#  1. tools/slurm/cluster.sh start --dir WORK/cluster (munged, slurmctld, slurmd, node idle).
#  2. tools/slurm/datagen.sh: a run of 24 chunks x 2 games at 1500 nodes/move, 4 shards = 4 array
#     tasks. As soon as task 2 has written its first chunk it is cancelled (scancel JOB_2); the
#     other tasks finish. The task must be CANCELLED and the run must lack chunks of shard 2 only.
#  3. datagen.sh --missing --wait resubmits exactly shard 2; tools/slurm/check-run.sh then finds
#     all 24 chunks, 48 games, every chunk whole, and no temporary files left.
#  4. The whole array submitted again changes nothing (every chunk file keeps its checksum).
#  5. A local run (tools/gen-nnue-data.sh, no Slurm) of the same settings into another directory:
#     its 24 chunk files must equal the Slurm run's byte for byte, with the same record count.
#  6. Self-play (janus selfplay, uniform backend, 12 chunks x 2 games) as a 4-task array with
#     tools/slurm/selfplay.sh --wait; check-run.sh must count 12 chunks and 24 games. Two chunks
#     (of shards 2 and 3) are deleted, as if lost; selfplay.sh --missing must resubmit exactly
#     shards 2 and 3, which must recreate them byte for byte; a local `janus selfplay` run of the
#     same settings must equal the Slurm run byte for byte.
#  7. `janus rl --launcher slurm`: a 2-generation tiny RL run (uniform start, 16 self-play games in
#     8 chunks per generation as 4 array tasks). Task 2 of generation 1's array is cancelled as
#     soon as the array is submitted (it must not have finished); the loop must resubmit exactly
#     shard 2. The loop itself is killed (SIGKILL) as soon as generation 2's array is submitted;
#     run again, it must not submit generation 2's self-play again (it waits for the earlier job or
#     finds its chunks) and must finish. Then each generation holds exactly 8 chunks and 16 games
#     (check-run.sh and rl-state.json), and the self-play chunks equal those of `janus rl
#     --launcher local` with the same settings byte for byte (generation 2 when both runs kept
#     the same best network; no 4-game gate has promoted a candidate in any run here).
# The cluster is stopped on exit (also on failure); WORK is removed unless --keep or a failure.
# Needs root (the cluster's daemons) and the packages slurm-wlm and munge; build/janus by default.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
janus=${JANUS_BIN:-$repo/build/janus}
keep=0
trainer=""
while (($#)); do
  case "$1" in
    --janus) janus=$(realpath -m -- "$2"); shift 2 ;;
    --trainer) trainer=$(realpath -m -- "$2"); shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "slurm_test.sh: unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done

fail() { echo "slurm_test.sh: FAIL: $*" >&2; exit 1; }
step() { printf '\n-- %s\n' "$*"; }
[ -x "$janus" ] || fail "no janus binary at $janus (cmake --build build --target janus, or --janus BIN)"
[ -n "$trainer" ] || trainer=$(dirname "$janus")/janus-train-az
[ -x "$trainer" ] || fail "no janus-train-az at $trainer (built with libtorch by ./dev.sh test; or --trainer BIN)"
[ "$(id -u)" -eq 0 ] || fail "needs root: the one-node Slurm cluster's daemons run as root"

CHUNKS=24
GAMES=2
NODES=1500
SEED=11
SHARDS=4
KILLED=2
BOOK=$repo/data/openings/janus-8moves-300.pgn
settings=(--chunks "$CHUNKS" --games-per-chunk "$GAMES" --nodes "$NODES" --seed "$SEED" --book "$BOOK" --janus "$janus")

# munged wants every directory above its socket searchable by all (mktemp -d makes 0700).
work=$(mktemp -d /tmp/janus-slurm-test.XXXXXX)
chmod 755 "$work"
cluster=$work/cluster
run=$work/slurm-run
export SLURM_CONF=$cluster/slurm.conf
status=1
cleanup() {
  "$repo/tools/slurm/cluster.sh" stop --dir "$cluster" || echo "slurm_test.sh: warning: cluster.sh stop failed" >&2
  if ((status == 0 && keep == 0)); then rm -rf "$work"; else echo "slurm_test.sh: files kept in $work"; fi
}
trap cleanup EXIT

# wait_until SECONDS WHAT COMMAND...: poll every 0.1 s; fail after SECONDS.
wait_until() {
  local seconds=$1 what=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    ((SECONDS < deadline)) || fail "timed out after $seconds s waiting for $what"
    sleep 0.1
  done
}
array_gone() { [ -z "$(squeue -h -j "$1" -o %i 2>/dev/null)" ]; }
# chunks of shard I (1-based) of M present in the run directory
shard_chunks() {
  local i=$1 n=0 k
  for ((k = i - 1; k < CHUNKS; k += SHARDS)); do
    [ -f "$(printf '%s/chunk-%06d.janusdat.zst' "$run" "$k")" ] && n=$((n + 1))
  done
  echo "$n"
}
shard_started() { (($(shard_chunks "$1") >= 1)); }
checksums() { (cd "$1" && sha256sum chunk-*.janus*.zst); }
# "games X, records Y" of check-run.sh's summary line
counts() { "$repo/tools/slurm/check-run.sh" "$1" --chunks "$CHUNKS" --quiet | sed -n 's/.*chunks \([0-9]*\)\/[0-9]*, games \([0-9]*\), records \([0-9]*\).*/\1 \2 \3/p'; }

step "1. one-node cluster in $cluster"
"$repo/tools/slurm/cluster.sh" start --dir "$cluster"

step "2. $SHARDS-task datagen array: $CHUNKS chunks x $GAMES games, $NODES nodes/move, seed $SEED; cancel task $KILLED midway"
t0=$(date +%s.%N)
job=$("$repo/tools/slurm/datagen.sh" --shards "$SHARDS" "${settings[@]}" --out "$run")
[[ "$job" =~ ^[0-9]+$ ]] || fail "datagen.sh printed '$job', not a job id"
echo "array job $job"
wait_until 120 "task ${job}_$KILLED to write its first chunk" shard_started "$KILLED"
scancel "${job}_$KILLED"
before=$(shard_chunks "$KILLED")
echo "cancelled ${job}_$KILLED after $before of its $((CHUNKS / SHARDS)) chunks"
wait_until 180 "array job $job to end" array_gone "$job"
t1=$(date +%s.%N)
state=$(scontrol -o show job "${job}_$KILLED" | grep -o 'JobState=[A-Z_]*' || true)
[ "$state" = JobState=CANCELLED ] || fail "task ${job}_$KILLED ended as '$state', expected JobState=CANCELLED"
for ((i = 1; i <= SHARDS; i++)); do
  state=$(scontrol -o show job "${job}_$i" | grep -o 'JobState=[A-Z_]*' || true)
  echo "task ${job}_$i: $state, $(shard_chunks "$i") chunks"
  ((i == KILLED)) && continue
  [ "$state" = JobState=COMPLETED ] || fail "task ${job}_$i ended as '$state'"
  [ "$(shard_chunks "$i")" -eq $((CHUNKS / SHARDS)) ] || fail "shard $i/$SHARDS has $(shard_chunks "$i") chunks, expected $((CHUNKS / SHARDS))"
done
(($(shard_chunks "$KILLED") < CHUNKS / SHARDS)) ||
  fail "task $KILLED finished all its chunks before scancel took effect: nothing was killed midway (make its shard longer)"
if "$repo/tools/slurm/check-run.sh" "$run" --chunks "$CHUNKS" --shards "$SHARDS"; then
  fail "check-run.sh calls the run complete with shard $KILLED cancelled"
fi
missingShards=$("$repo/tools/slurm/check-run.sh" "$run" --chunks "$CHUNKS" --shards "$SHARDS" --missing-shards)
[ "$missingShards" = "$KILLED" ] || fail "shards with missing chunks: '$missingShards', expected only $KILLED"

step "3. resubmit the missing shard (datagen.sh --missing --wait)"
t2=$(date +%s.%N)
job2=$("$repo/tools/slurm/datagen.sh" --shards "$SHARDS" "${settings[@]}" --out "$run" --missing --wait 2>"$work/resubmit.err") ||
  { cat "$work/resubmit.err" >&2; fail "the resubmitted array failed"; }
echo "resubmitted as array job $job2"
t3=$(date +%s.%N)
cat "$work/resubmit.err"
grep -q "submitting shards $KILLED of $SHARDS:" "$work/resubmit.err" || fail "datagen.sh --missing did not submit exactly shard $KILLED"
"$repo/tools/slurm/check-run.sh" "$run" --chunks "$CHUNKS" --shards "$SHARDS" --quiet || fail "the run is not complete after resubmitting"
read -r nChunks nGames nRecords <<<"$(counts "$run")"
files=$(find "$run" -maxdepth 1 -name 'chunk-*' | wc -l)
tmps=$(find "$run" -maxdepth 1 -name '*.tmp' | wc -l)
[ "$files" -eq "$CHUNKS" ] || fail "$files chunk files in $run, expected $CHUNKS"
[ "$nChunks" -eq "$CHUNKS" ] || fail "check-run.sh counts $nChunks valid chunks, expected $CHUNKS"
[ "$nGames" -eq $((CHUNKS * GAMES)) ] || fail "$nGames games, expected $((CHUNKS * GAMES))"
[ "$tmps" -eq 0 ] || fail "$tmps temporary files left in $run"
echo "Slurm run: $files chunk files, $nGames games, $nRecords records"

step "4. the whole array again: nothing changes"
checksums "$run" >"$work/slurm.sha256"
"$repo/tools/slurm/datagen.sh" --shards "$SHARDS" "${settings[@]}" --out "$run" --wait >/dev/null ||
  fail "submitting the complete run again failed"
checksums "$run" | cmp -s - "$work/slurm.sha256" || fail "submitting the complete run again changed chunk files"
[ "$(find "$run" -maxdepth 1 -name 'chunk-*' | wc -l)" -eq "$CHUNKS" ] || fail "submitting the complete run again added files"
echo "unchanged: $CHUNKS chunk files, same checksums"

step "5. the same run locally (tools/gen-nnue-data.sh, no Slurm) and compared byte for byte"
t4=$(date +%s.%N)
"$repo/tools/gen-nnue-data.sh" "${settings[@]}" --out "$work/local-run" >"$work/local.log" 2>&1 ||
  { tail -n 20 "$work/local.log" >&2; fail "the local run failed"; }
t5=$(date +%s.%N)
checksums "$work/local-run" >"$work/local.sha256"
diff "$work/local.sha256" "$work/slurm.sha256" >&2 || fail "the Slurm run's chunk files differ from the local run's (diff above)"
read -r lChunks lGames lRecords <<<"$(counts "$work/local-run")"
[ "$lChunks $lGames $lRecords" = "$nChunks $nGames $nRecords" ] ||
  fail "local run: $lChunks chunks, $lGames games, $lRecords records; Slurm run: $nChunks, $nGames, $nRecords"
echo "local run: $lChunks chunk files, $lGames games, $lRecords records, all $CHUNKS checksums equal"

step "6. self-play: $SHARDS-task array of janus selfplay, two chunks lost and resubmitted, compared with a local run"
SP_CHUNKS=12
spArgs=(--backend uniform --visits 48 --fast-visits 12 --seed 9)
sp=$work/selfplay-run
job=$("$repo/tools/slurm/selfplay.sh" --shards "$SHARDS" --out "$sp" --games $((SP_CHUNKS * GAMES)) --chunk-games "$GAMES" \
  --janus "$janus" --wait -- "${spArgs[@]}") || fail "the self-play array failed (logs in $sp/slurm-logs)"
echo "self-play array job $job"
read -r sChunks sGames sRecords <<<"$("$repo/tools/slurm/check-run.sh" "$sp" --chunks "$SP_CHUNKS" --quiet |
  sed -n 's/.*chunks \([0-9]*\)\/[0-9]*, games \([0-9]*\), records \([0-9]*\).*/\1 \2 \3/p')"
{ [ "${sChunks:-0}" -eq "$SP_CHUNKS" ] && [ "${sGames:-0}" -eq $((SP_CHUNKS * GAMES)) ]; } ||
  fail "self-play run: '${sChunks:-?}' chunks and '${sGames:-?}' games, expected $SP_CHUNKS and $((SP_CHUNKS * GAMES))"
[ "$(find "$sp" -maxdepth 1 -name 'chunk-*' | wc -l)" -eq "$SP_CHUNKS" ] || fail "not exactly $SP_CHUNKS chunk files in $sp"
checksums "$sp" >"$work/sp-before.sha256"
rm "$sp/chunk-000001.janussp.zst" "$sp/chunk-000006.janussp.zst"
"$repo/tools/slurm/selfplay.sh" --shards "$SHARDS" --out "$sp" --games $((SP_CHUNKS * GAMES)) --chunk-games "$GAMES" \
  --janus "$janus" --missing --wait -- "${spArgs[@]}" >/dev/null 2>"$work/sp-resubmit.err" ||
  { cat "$work/sp-resubmit.err" >&2; fail "the resubmitted self-play shards failed"; }
cat "$work/sp-resubmit.err"
grep -q "submitting shards 2,3 of $SHARDS:" "$work/sp-resubmit.err" || fail "selfplay.sh --missing did not submit exactly shards 2 and 3"
checksums "$sp" | cmp -s - "$work/sp-before.sha256" || fail "the resubmitted shards did not recreate the lost chunks byte for byte"
"$janus" selfplay --output-dir "$work/selfplay-local" --resume --games $((SP_CHUNKS * GAMES)) --chunk-games "$GAMES" \
  --quiet "${spArgs[@]}" >"$work/sp-local.log" 2>&1 || { tail -n 20 "$work/sp-local.log" >&2; fail "the local self-play run failed"; }
checksums "$work/selfplay-local" | diff - "$work/sp-before.sha256" >&2 || fail "the Slurm self-play run differs from the local run (diff above)"
echo "self-play: $sChunks chunk files, $sGames games, $sRecords positions; lost chunks recreated and all equal to the local run"

step "7. janus rl --launcher slurm: 2 generations, a task cancelled, the loop killed and resumed; compared with --launcher local"
rlArgs=(--generations 2 --games-per-gen 16 --chunk-games 2 --threads 1 --visits 96 --fast-visits 24 --max-plies 60
  --gate-games 4 --gate-visits 24 --gen0-games 2 --trainer "$trainer"
  --train-args "--epochs 1 --hidden 32 --value-hidden 8 --batch 64 --threads 1 --val-fraction 0")
rl=$work/rl-slurm
slurmArgs=(--launcher slurm --slurm-shards "$SHARDS" --slurm-poll 0.5)
file_exists() { [ -s "$1" ]; }
"$janus" rl --dir "$rl" "${rlArgs[@]}" "${slurmArgs[@]}" >"$work/rl-1.log" 2>&1 &
rlPid=$!
wait_until 60 "generation 1's self-play array" file_exists "$rl/gen-001/selfplay/slurm-job.txt"
job=$(<"$rl/gen-001/selfplay/slurm-job.txt")
scancel "${job}_$KILLED"
# shard 2 of 8 chunks in 4 shards: chunks 1 and 5
[ -f "$rl/gen-001/selfplay/chunk-000001.janussp.zst" ] && [ -f "$rl/gen-001/selfplay/chunk-000005.janussp.zst" ] &&
  fail "task ${job}_$KILLED of the RL self-play had finished before scancel: nothing was cancelled midway"
echo "cancelled task ${job}_$KILLED of generation 1's self-play array"
gen2_submitted() { [ -s "$rl/gen-002/selfplay/slurm-job.txt" ] || ! kill -0 "$rlPid" 2>/dev/null; }
wait_until 240 "generation 2's self-play array" gen2_submitted
kill -0 "$rlPid" 2>/dev/null || { cat "$work/rl-1.log" >&2; fail "janus rl ended before generation 2's self-play (log above)"; }
kill -9 "$rlPid"
wait "$rlPid" 2>/dev/null || true
echo "killed janus rl (pid $rlPid) while it waited for Slurm job $(<"$rl/gen-002/selfplay/slurm-job.txt") of generation 2"
grep '^rl:' "$work/rl-1.log"
grep -q "^rl: generation 1 selfplay: Slurm array job [0-9]* (shards $KILLED of $SHARDS)" "$work/rl-1.log" ||
  fail "janus rl did not resubmit exactly shard $KILLED of generation 1 (log above)"
"$janus" rl --dir "$rl" "${rlArgs[@]}" "${slurmArgs[@]}" >"$work/rl-2.log" 2>&1 || { cat "$work/rl-2.log" >&2; fail "the resumed janus rl failed"; }
grep '^rl:' "$work/rl-2.log"
! grep -q "^rl: generation 2 selfplay: Slurm array job" "$work/rl-2.log" ||
  fail "the resumed janus rl submitted generation 2's self-play again instead of keeping the earlier job's chunks"
"$janus" rl --dir "$work/rl-local" "${rlArgs[@]}" >"$work/rl-local.log" 2>&1 ||
  { cat "$work/rl-local.log" >&2; fail "janus rl --launcher local failed"; }
for g in 1 2; do
  d=$(printf 'gen-%03d/selfplay' "$g")
  "$repo/tools/slurm/check-run.sh" "$rl/$d" --chunks 8 --quiet >"$work/rl-check.txt" || { cat "$work/rl-check.txt" >&2; fail "generation $g's self-play is incomplete"; }
  grep -q "chunks 8/8, games 16," "$work/rl-check.txt" || fail "generation $g: $(head -n 1 "$work/rl-check.txt"), expected 8 chunks and 16 games"
  [ "$(find "$rl/$d" -maxdepth 1 -name 'chunk-*' | wc -l)" -eq 8 ] || fail "generation $g: not exactly 8 chunk files"
done
python3 - "$rl/rl-state.json" "$work/rl-local/rl-state.json" >"$work/rl-state.txt" <<'PY' || fail "rl-state.json: $(cat "$work/rl-state.txt")"
import json, sys
slurm, local = (json.load(open(p)) for p in sys.argv[1:3])
gens = {g["number"]: g for g in slurm["history"]}
for n in (1, 2):
    if gens.get(n, {}).get("selfplay_games") != 16:
        print(f"generation {n}: selfplay_games {gens.get(n, {}).get('selfplay_games')}, expected 16"); sys.exit(1)
same = [g["net"] for g in slurm["history"][:2]] == [g["net"] for g in local["history"][:2]]
print("same-best" if same else "other-best")
PY
checksums "$rl/gen-001/selfplay" | diff - <(checksums "$work/rl-local/gen-001/selfplay") >&2 ||
  fail "generation 1's self-play under Slurm differs from --launcher local"
if grep -q same-best "$work/rl-state.txt"; then
  checksums "$rl/gen-002/selfplay" | diff - <(checksums "$work/rl-local/gen-002/selfplay") >&2 ||
    fail "generation 2's self-play under Slurm differs from --launcher local (same best network)"
  echo "rl: 2 generations x 8 chunks, 16 games each; both generations' self-play equal to --launcher local"
else
  echo "rl: 2 generations x 8 chunks, 16 games each; generation 1 equal to --launcher local (the runs promoted different networks)"
fi

awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v e="$t4" -v f="$t5" 'BEGIN {
  printf "\nwall time: Slurm array %.1f s until the cancelled array ended + %.1f s for the resubmitted shard; local run (1 process) %.1f s\n", b - a, d - c, f - e }'
status=0
echo "slurm_test.sh: PASS"
