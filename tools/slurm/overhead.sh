#!/usr/bin/env bash
# Throughput of a chunked `janus datagen` run as a Slurm job array on the one-node cluster
# (tools/slurm/cluster.sh) against the same run started locally, to measure what the scheduler
# costs (docs/slurm.md, "Overhead").
#
#   tools/slurm/overhead.sh [--chunks N] [--games-per-chunk G] [--nodes K] [--seed S]
#                           [--procs P] [--shards M1,M2,...] [--repeat R] [--janus BIN] [--dir WORK]
#
# Each round runs, one after the other, into fresh directories under WORK (default a temporary
# directory, removed at the end):
#   local    P processes of tools/gen-nnue-data.sh --shard i/P at once (P defaults to the CPUs
#            of `slurmd -C`, what the one-node cluster offers)
#   slurm-M  tools/slurm/datagen.sh --shards M --wait, for every M of --shards (default 2,8):
#            M array tasks of 1 CPU, as many at a time as the node has CPUs
# and prints wall time, games/s and positions/s of each. All runs use the same seed, so they
# produce the same chunk files (checked: the checksums must match) and only the time differs.
# --repeat R repeats the rounds (interleaved, so a change of the machine's load hits every
# variant). Also measured: the latency of an empty job (sbatch --wait --wrap true).
# Starts the one-node cluster in WORK/cluster and stops it at the end; needs root.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
chunks=16
games=4
nodes=1500
seed=5
procs=""
shardList=2,8
repeat=1
janus=$repo/build/janus
work=""
while (($#)); do
  case "$1" in
    --chunks) chunks=$2; shift 2 ;;
    --games-per-chunk) games=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --procs) procs=$2; shift 2 ;;
    --shards) shardList=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --janus) janus=$(realpath -m -- "$2"); shift 2 ;;
    --dir) work=$(realpath -m -- "$2"); shift 2 ;;
    *) echo "overhead.sh: unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
[ -x "$janus" ] || { echo "overhead.sh: no janus binary at $janus (--janus BIN)" >&2; exit 1; }
[ -n "$procs" ] || procs=$(slurmd -C | grep -o 'CPUs=[0-9]*' | cut -d= -f2)
IFS=, read -r -a shardCounts <<<"$shardList"

tmp=0
if [ -z "$work" ]; then work=$(mktemp -d /tmp/janus-slurm-overhead.XXXXXX); tmp=1; fi
mkdir -p "$work"
chmod 755 "$work"
export SLURM_CONF=$work/cluster/slurm.conf
cleanup() {
  "$repo/tools/slurm/cluster.sh" stop --dir "$work/cluster" >/dev/null || true
  ((tmp)) && rm -rf "$work"
  return 0
}
trap cleanup EXIT
"$repo/tools/slurm/cluster.sh" start --dir "$work/cluster" >/dev/null

settings=(--chunks "$chunks" --games-per-chunk "$games" --nodes "$nodes" --seed "$seed"
  --book "$repo/data/openings/janus-8moves-300.pgn" --janus "$janus")
now() { date +%s.%N; }
# report NAME START END DIR
report() {
  local line records
  line=$("$repo/tools/slurm/check-run.sh" "$4" --chunks "$chunks" --quiet | sed -n 1p)
  records=$(sed -n 's/.*records \([0-9]*\).*/\1/p' <<<"$line")
  [ -n "$records" ] || { echo "overhead.sh: $1: no record count from check-run.sh: $line" >&2; exit 1; }
  (cd "$4" && sha256sum chunk-*.janusdat.zst) >"$4.sha256"
  if [ -f "$work/reference.sha256" ]; then
    cmp -s "$4.sha256" "$work/reference.sha256" || { echo "overhead.sh: $1 produced other chunk files than the first run" >&2; exit 1; }
  else
    cp "$4.sha256" "$work/reference.sha256"
  fi
  awk -v n="$1" -v a="$2" -v b="$3" -v g=$((chunks * games)) -v r="$records" \
    'BEGIN { t = b - a; printf "%-9s %7.1f s  %6.3f games/s  %7.1f positions/s\n", n, t, g / t, r / t }'
}

# sbatch --wait polls the job's state at intervals growing up to 10 s (_job_wait in Slurm's
# src/sbatch/sbatch.c), which would add up to 10 s to a short run; here the end of a job is taken
# from squeue, polled every 0.2 s.
wait_job() { while [ -n "$(squeue -h -j "$1" -o %i 2>/dev/null)" ]; do sleep 0.2; done; }
# tasks_completed JOB M: every array task 1..M ended COMPLETED (scontrol keeps them for MinJobAge)
tasks_completed() {
  local i
  for ((i = 1; i <= $2; i++)); do
    scontrol -o show job "${1}_$i" | grep -q 'JobState=COMPLETED ' || return 1
  done
}
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
start=$(now)
job=$(sbatch --parsable --output=/dev/null --wrap true)
wait_job "$job"
echo "empty job, submission to end (squeue polled every 0.2 s): $(elapsed "$start") s"
start=$(now)
sbatch --wait --quiet --output=/dev/null --wrap true
echo "empty job with sbatch --wait: $(elapsed "$start") s"
echo "run: $chunks chunks x $games games, $nodes nodes/move, seed $seed; local: $procs processes; Slurm node: $(slurmd -C | grep -o 'CPUs=[0-9]*')"
for ((round = 1; round <= repeat; round++)); do
  dir=$work/local-$round
  start=$(now)
  pids=()
  for ((i = 1; i <= procs; i++)); do
    "$repo/tools/gen-nnue-data.sh" "${settings[@]}" --out "$dir" --shard "$i/$procs" >/dev/null 2>&1 & pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || { echo "overhead.sh: a local shard failed" >&2; exit 1; }; done
  report local "$start" "$(now)" "$dir"
  for m in "${shardCounts[@]}"; do
    dir=$work/slurm-$m-$round
    start=$(now)
    job=$("$repo/tools/slurm/datagen.sh" --shards "$m" "${settings[@]}" --out "$dir" 2>/dev/null) ||
      { echo "overhead.sh: submitting the Slurm array of $m tasks failed" >&2; exit 1; }
    wait_job "$job"
    tasks_completed "$job" "$m" || { echo "overhead.sh: a task of the Slurm array of $m tasks failed (logs in $dir/slurm-logs)" >&2; exit 1; }
    report "slurm-$m" "$start" "$(now)" "$dir"
  done
done
