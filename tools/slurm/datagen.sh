#!/usr/bin/env bash
# Submit a chunked `janus datagen` run (tools/gen-nnue-data.sh) to Slurm as a job array, one task
# per shard (tools/slurm/datagen-array.sbatch; docs/slurm.md).
#
#   tools/slurm/datagen.sh --shards M [--chunks N] [--games-per-chunk G] [--nodes K] [--threads T]
#                          [--seed S] [--out DIR] [--janus BIN] [--book FILE] [--eval hce|FILE]
#                          [--partition P] [--account A] [--time LIMIT] [--mem SIZE]
#                          [--sbatch-arg ARG]... [--missing] [--wait]
#
# Task I of the array runs `tools/gen-nnue-data.sh --shard I/M` with the other options; all tasks
# write the same run directory DIR (it must be on a file system every node mounts) and use the
# same seed, so the union of the shards is the run of N chunks of G games (chunk k is played by
# shard k mod M + 1; a chunk depends only on the seed and k). Defaults are gen-nnue-data.sh's
# (N 1000, G 200, nodes 5000, seed 1, DIR data/nnue/selfplay-5k-v2 of this checkout, build/janus).
# Relative paths are taken from the current directory. --threads T asks Slurm for T CPUs per task
# (--cpus-per-task) and plays T games at a time.
#
# Resubmitting: submitting the same command again is always safe (each shard resumes and plays
# only its missing chunks; a shard whose chunks all exist ends at once). --missing first asks
# tools/slurm/check-run.sh which shards still have missing chunks and submits only those (nothing
# when the run is complete).
# --wait: sbatch --wait, i.e. return when every task has ended, with the highest exit status of
# the tasks. The Slurm logs of the tasks go to DIR/slurm-logs/<job>_<task>.log.
# Prints the array job id on stdout (nothing when --missing finds the run complete).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "datagen.sh: $*" >&2; exit 1; }
# shellcheck source=tools/slurm/lib.sh
. "$repo/tools/slurm/lib.sh"
usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
abspath() { realpath -m -- "$1"; }

shards=""
chunks=1000
out=$repo/data/nnue/selfplay-5k-v2
threads=1
janus=$repo/build/janus
genArgs=()
sbatchArgs=()
missing=0
wait=0
while (($#)); do
  case "$1" in
    --shards) shards=$2; shift 2 ;;
    --chunks) chunks=$2; shift 2 ;;
    --out) out=$(abspath "$2"); shift 2 ;;
    --janus) janus=$(abspath "$2"); shift 2 ;;
    --book) genArgs+=(--book "$(abspath "$2")"); shift 2 ;;
    --eval) if [ "$2" = hce ]; then genArgs+=(--eval hce); else genArgs+=(--eval "$(abspath "$2")"); fi; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --games-per-chunk|--nodes|--seed) genArgs+=("$1" "$2"); shift 2 ;;
    --partition|--account|--time|--mem) sbatchArgs+=("$1=$2"); shift 2 ;;
    --sbatch-arg) sbatchArgs+=("$2"); shift 2 ;;
    --missing) missing=1; shift ;;
    --wait) wait=1; shift ;;
    --shard) die "--shard is set per array task; give the number of shards with --shards M" ;;
    -h|--help) usage ;;
    *) echo "datagen.sh: unknown argument: $1" >&2; usage ;;
  esac
done
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || die "--shards M (the number of array tasks) is required"
[[ "$chunks" =~ ^[1-9][0-9]*$ ]] || die "--chunks needs a positive number"
[[ "$threads" =~ ^[1-9][0-9]*$ ]] || die "--threads needs a positive number"
((shards <= chunks)) || die "--shards $shards is more than --chunks $chunks: some tasks would have nothing to play"
[ -x "$janus" ] || die "no engine binary at $janus (build it: cmake --build build --target janus; or --janus BIN)"
command -v sbatch >/dev/null || die "sbatch not found (Slurm's client commands: apt-get install slurm-client)"

array=$(shards_to_submit "$out" datagen-run.txt "$chunks" "$shards" "$missing")
if [ -z "$array" ]; then
  echo "datagen.sh: $out is complete ($chunks chunks); nothing to submit" >&2
  exit 0
fi

mkdir -p "$out/slurm-logs"
((wait)) && sbatchArgs+=(--wait)
echo "datagen.sh: submitting shards $array of $shards: $chunks chunks into $out" >&2
JANUS_REPO=$repo exec sbatch --parsable --array="$array" --cpus-per-task="$threads" --chdir="$repo" \
  --output="$out/slurm-logs/%A_%a.log" --export=ALL,JANUS_REPO="$repo" "${sbatchArgs[@]}" \
  "$repo/tools/slurm/datagen-array.sbatch" "$shards" \
  --chunks "$chunks" --threads "$threads" --out "$out" --janus "$janus" "${genArgs[@]}"
