#!/usr/bin/env bash
# Submit a chunked `janus selfplay` run (MCTS self-play for the reinforcement-learning loop,
# docs/rl.md) to Slurm as a job array, one task per shard (tools/slurm/selfplay-array.sbatch;
# docs/slurm.md).
#
#   tools/slurm/selfplay.sh --shards M --out DIR --games N [--chunk-games G] [--threads T]
#                           [--janus BIN] [--partition P] [--account A] [--time LIMIT] [--mem SIZE]
#                           [--sbatch-arg ARG]... [--missing] [--wait] [-- janus selfplay options]
#
# Task I runs `janus selfplay --output-dir DIR --resume --shard I/M --games N --chunk-games G
# --threads T` plus the options after `--` (e.g. --weights NET.jpv --visits 800 --seed 3; every
# task gets the same ones, so the union of the shards is the run of N/G chunks). DIR, BIN (default
# build/janus of this checkout) and any file named after `--` must be on a file system every node
# mounts; the tasks start in the current directory, so relative paths after `--` work from there.
# --threads T asks for T CPUs per task (--cpus-per-task) and plays T games at once.
# --missing submits only the shards that still have missing chunks (tools/slurm/check-run.sh;
# nothing when the run is complete); submitting the same command again is always safe.
# --wait: sbatch --wait (return when every task has ended, with the highest exit status).
# Task logs: DIR/slurm-logs/<job>_<task>.log. Prints the array job id on stdout.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "selfplay.sh: $*" >&2; exit 1; }
# shellcheck source=tools/slurm/lib.sh
. "$repo/tools/slurm/lib.sh"
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

shards=""
out=""
games=""
chunkGames=200
threads=1
janus=$repo/build/janus
sbatchArgs=()
missing=0
wait=0
while (($#)); do
  case "$1" in
    --shards) shards=$2; shift 2 ;;
    --out) out=$(realpath -m -- "$2"); shift 2 ;;
    --games) games=$2; shift 2 ;;
    --chunk-games) chunkGames=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --janus) janus=$(realpath -m -- "$2"); shift 2 ;;
    --partition|--account|--time|--mem) sbatchArgs+=("$1=$2"); shift 2 ;;
    --sbatch-arg) sbatchArgs+=("$2"); shift 2 ;;
    --missing) missing=1; shift ;;
    --wait) wait=1; shift ;;
    --) shift; break ;;
    -h|--help) usage ;;
    *) echo "selfplay.sh: unknown argument: $1 (janus selfplay options go after --)" >&2; usage ;;
  esac
done
for opt in "$@"; do
  case "$opt" in
    --output-dir|--shard|--resume|--games|--chunk-games|--threads) die "$opt is set by selfplay.sh (see its header); give it before --" ;;
  esac
done
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || die "--shards M (the number of array tasks) is required"
[ -n "$out" ] || die "--out DIR (the run directory, on a shared file system) is required"
[[ "$games" =~ ^[1-9][0-9]*$ ]] || die "--games N (games of the whole run) is required"
[[ "$chunkGames" =~ ^[1-9][0-9]*$ ]] || die "--chunk-games needs a positive number"
[[ "$threads" =~ ^[1-9][0-9]*$ ]] || die "--threads needs a positive number"
((games % chunkGames == 0)) || die "--games $games is not a multiple of --chunk-games $chunkGames"
chunks=$((games / chunkGames))
((shards <= chunks)) || die "--shards $shards is more than the run's $chunks chunks: some tasks would have nothing to play"
[ -x "$janus" ] || die "no engine binary at $janus (build it: cmake --build build --target janus; or --janus BIN)"
command -v sbatch >/dev/null || die "sbatch not found (Slurm's client commands: apt-get install slurm-client)"

array=$(shards_to_submit "$out" selfplay-run.txt "$chunks" "$shards" "$missing")
if [ -z "$array" ]; then
  echo "selfplay.sh: $out is complete ($chunks chunks); nothing to submit" >&2
  exit 0
fi

mkdir -p "$out/slurm-logs"
((wait)) && sbatchArgs+=(--wait)
echo "selfplay.sh: submitting shards $array of $shards: $games games in $chunks chunks into $out" >&2
exec sbatch --parsable --array="$array" --cpus-per-task="$threads" --chdir="$PWD" \
  --output="$out/slurm-logs/%A_%a.log" "${sbatchArgs[@]}" \
  "$repo/tools/slurm/selfplay-array.sbatch" "$shards" "$janus" "$out" \
  --games "$games" --chunk-games "$chunkGames" --threads "$threads" "$@"
