# shellcheck shell=bash
# Shared by tools/slurm/datagen.sh and tools/slurm/selfplay.sh (sourced; needs $repo and die()).
#
# shards_to_submit OUT RUN_FILE CHUNKS SHARDS MISSING
#   Prints the --array of the tasks to submit (sbatch(1): "1-M", or a list "2,5"): all M shards,
#   or with MISSING=1 and an existing run (OUT/RUN_FILE) only the shards that lack chunks, as
#   tools/slurm/check-run.sh --missing-shards finds them; nothing when the run is complete.
#   Dies when check-run.sh finds a bad chunk file.
shards_to_submit() {
  local out=$1 runFile=$2 chunks=$3 shards=$4 missing=$5 list
  if ((missing)) && [ -f "$out/$runFile" ]; then
    list=$("$repo/tools/slurm/check-run.sh" "$out" --chunks "$chunks" --shards "$shards" --missing-shards) ||
      die "check-run.sh found bad chunk files in $out (run tools/slurm/check-run.sh $out to see them)"
    [ -z "$list" ] || paste -sd, <<<"$list"
  else
    echo "1-$shards"
  fi
}
