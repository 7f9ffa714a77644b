#!/usr/bin/env bash
# A profile-guided (PGO) Release build of the `janus` binary for the long jobs (data generation,
# matches): the same code and the same results, compiled with GCC's profile of Janus's own
# search (GCC manual, "Options That Control Optimization": -fprofile-generate / -fprofile-use).
#
#   tools/pgo-build.sh [--out build-pgo] [--jobs 2]
#
#   1. configure OUT (Release, -fprofile-generate=OUT/profile) and build the target janus;
#   2. profile: OUT/janus bench, and janus datagen of 8 games at 5000 nodes a move on 2 threads
#      (the data generation's own path: self-play, record writing, zstd);
#   3. reconfigure OUT with -fprofile-use=OUT/profile and rebuild janus (the profile files are
#      named after the object files' paths, so both builds use the same directory);
#   4. check: the PGO binary's bench node count must equal the profiling build's (search and
#      evaluation are integer code, so the optimisation must not change a node); print both
#      binaries' bench nps alternately when build/janus exists.
#
# Measured 2026-11-29 (2-core AVX2 machine, datagen at nice 19 beside): bench 5009104 nodes,
# build/janus 1.24M nps vs PGO 1.30M nps (mean of 8 alternating runs); janus datagen 10 games
# at 5000 nodes on 1 thread 5.35 s vs 4.60 s (-14%); chunk 0 of the v11 run
# (tools/gen-nnue-data.sh --seed 4001) came out byte for byte the same from the PGO binary.
set -euo pipefail
cd "$(dirname "$0")/.."

out=build-pgo
jobs=2
while (($#)); do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
profile=$out/profile

rm -rf "$profile"
cmake -S . -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DJANUS_TORCH=OFF -DJANUS_PYTHON=OFF \
  -DCMAKE_CXX_FLAGS="-fprofile-generate=$profile -fprofile-update=atomic" > "$out/pgo-configure.log"
cmake --build "$out" -j "$jobs" --target janus
genNodes=$("$out/janus" bench 2>&1 | awk '/nodes .* nps/ {print $1}')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$out/janus" datagen --games 8 --nodes 5000 --threads 2 --seed 1 --output "$tmp/profile.janusdat.zst" --quiet > /dev/null
echo "profile: $(find "$profile" -name '*.gcda' | wc -l) files; bench of the profiling build: $genNodes nodes"

cmake -S . -B "$out" -DCMAKE_CXX_FLAGS="-fprofile-use=$profile -fprofile-correction -Wno-missing-profile" \
  > "$out/pgo-configure.log"
cmake --build "$out" -j "$jobs" --target janus
pgoNodes=$("$out/janus" bench 2>&1 | awk '/nodes .* nps/ {print $1}')
if [ "$pgoNodes" != "$genNodes" ]; then
  echo "error: the PGO binary's bench searched $pgoNodes nodes, the profiling build's $genNodes" >&2
  exit 1
fi
echo "PGO binary: $out/janus (bench $pgoNodes nodes)"
if [ -x build/janus ]; then
  for _ in 1 2 3; do
    echo "build/janus $(build/janus bench 2>&1 | awk '/nodes .* nps/ {print $3, "nps"}')   $out/janus $("$out/janus" bench 2>&1 | awk '/nodes .* nps/ {print $3, "nps"}')"
  done
fi
