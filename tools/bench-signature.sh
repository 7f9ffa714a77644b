#!/usr/bin/env bash
# Checks that `janus bench` reproduces the node count of the last "Bench: N" line in the git
# log (the functional fingerprint of search and evaluation).
#   tools/bench-signature.sh [path/to/janus]
set -euo pipefail
cd "$(dirname "$0")/.."
JANUS=${1:-build/janus}
expected=$(git log --format=%B 2>/dev/null | grep -m1 -oE '^Bench: [0-9]+' | awk '{print $2}' || true)
actual=$("$JANUS" bench 2>/dev/null | tail -1 | awk '{print $1}')
if [ -z "$expected" ]; then
  echo "bench signature: no 'Bench: N' in the git log; janus bench gives $actual"
  exit 0
fi
if [ "$expected" != "$actual" ]; then
  echo "bench signature MISMATCH: git log says $expected, $JANUS bench gives $actual"
  exit 1
fi
echo "bench signature ok: $actual nodes"
