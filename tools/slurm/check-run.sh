#!/usr/bin/env bash
# Check a chunked `janus datagen` run directory (docs/tuning.md, "Chunked runs"): what is there,
# what is missing, and that every chunk file is whole.
#
#   tools/slurm/check-run.sh DIR [--chunks N] [--shards M] [--quiet] [--missing-shards]
#
# Reads DIR/datagen-run.txt for the chunk size G and every DIR/chunk-K.janusdat.zst: the JANUSDAT
# header (magic, version 3, 40-byte records, the declared record count) must match the records in
# the file, and the file must hold exactly G games (a game's last record has a nonzero gameEnd
# byte, docs/tuning.md "The JANUSDAT format"). Prints one line per chunk (unless --quiet), then
#   chunks C/N, games X, records Y
# and the missing chunk indices (0..N-1 when --chunks is given, else the gaps below the highest
# chunk present), with the shards I/M that own them when --shards M is given (chunk k belongs to
# shard k mod M + 1). Leftover temporary files (`*.tmp`, a chunk being written when its process
# was killed) are reported; the next --resume of that shard overwrites them.
# With --missing-shards the only output is the list of shards with missing chunks (one per line),
# for resubmitting them (tools/slurm/datagen.sh --missing does this).
# Exit status: 0 when the run is complete and every chunk is valid, 1 when chunks are missing or a
# file is bad, 2 on a usage error.
set -euo pipefail

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

dir=""
chunks=""
shards=""
quiet=0
missingShards=0
while (($#)); do
  case "$1" in
    --chunks) chunks=$2; shift 2 ;;
    --shards) shards=$2; shift 2 ;;
    --quiet) quiet=1; shift ;;
    --missing-shards) missingShards=1; shift ;;
    -h|--help) usage ;;
    -*) echo "check-run.sh: unknown option: $1" >&2; usage ;;
    *) [ -z "$dir" ] || { echo "check-run.sh: one run directory only" >&2; usage; }; dir=$1; shift ;;
  esac
done
[ -n "$dir" ] || usage
[ -d "$dir" ] || { echo "check-run.sh: no directory $dir" >&2; exit 2; }
[ -f "$dir/datagen-run.txt" ] || { echo "check-run.sh: $dir/datagen-run.txt missing: not a chunked janus datagen run" >&2; exit 1; }
[[ -z "$chunks" || "$chunks" =~ ^[1-9][0-9]*$ ]] || { echo "check-run.sh: --chunks needs a positive number" >&2; exit 2; }
[[ -z "$shards" || "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "check-run.sh: --shards needs a positive number" >&2; exit 2; }
command -v zstd >/dev/null || { echo "check-run.sh: zstd not found (apt-get install zstd)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "check-run.sh: python3 not found" >&2; exit 1; }

exec python3 - "$dir" "${chunks:-0}" "${shards:-0}" "$quiet" "$missingShards" <<'PY'
import os, re, struct, subprocess, sys

run_dir, want_chunks, shards, quiet, missing_shards_only = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1", sys.argv[5] == "1"
out = (lambda *a: None) if missing_shards_only else print

settings = {}
with open(os.path.join(run_dir, "datagen-run.txt")) as f:
    for line in f:
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition(" ")
            settings[key] = value
if "chunk-games" not in settings:
    sys.exit(f"check-run.sh: {run_dir}/datagen-run.txt has no chunk-games line")
games_per_chunk = int(settings["chunk-games"])

HEADER, RECORD = 32, 40
chunk_re = re.compile(r"^chunk-(\d{6,})\.janusdat\.zst$")
present, bad, strays = {}, [], []
for name in sorted(os.listdir(run_dir)):
    m = chunk_re.match(name)
    if not m:
        if name.endswith(".tmp"):
            strays.append(name)
        continue
    k = int(m.group(1))
    path = os.path.join(run_dir, name)
    proc = subprocess.run(["zstd", "-dcq", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        bad.append(f"{name}: zstd could not decompress it: {proc.stderr.decode().strip()}")
        continue
    data = proc.stdout
    if len(data) < HEADER or data[:8] != b"JANUSDAT":
        bad.append(f"{name}: not a JANUSDAT file (bad magic or truncated header)")
        continue
    version, record_size, flags, count, reserved = struct.unpack_from("<HHIQQ", data, 8)
    if version != 3 or record_size != RECORD:
        bad.append(f"{name}: version {version}, record size {record_size} (expected 3 and {RECORD})")
        continue
    body = len(data) - HEADER
    if body % RECORD != 0 or body // RECORD != count:
        bad.append(f"{name}: header declares {count} records, the file holds {body / RECORD:g}")
        continue
    games = sum(1 for i in range(count) if data[HEADER + i * RECORD + 36] != 0)
    if games != games_per_chunk:
        bad.append(f"{name}: {games} games, the run has {games_per_chunk} per chunk")
        continue
    present[k] = (count, games)
    if not quiet:
        out(f"{name}: {games} games, {count} records")

top = want_chunks if want_chunks else (max(present) + 1 if present else 0)
missing = [k for k in range(top) if k not in present]
beyond = sorted(k for k in present if want_chunks and k >= want_chunks)
records = sum(c for c, _ in present.values())
games = sum(g for _, g in present.values())
shard_of = lambda k: k % shards + 1

if missing_shards_only:
    if shards == 0:
        sys.exit("check-run.sh: --missing-shards needs --shards M")
    for s in sorted({shard_of(k) for k in missing}):
        print(s)
    sys.exit(1 if bad else 0)

total = f"/{want_chunks}" if want_chunks else ""
out(f"{run_dir}: chunks {len(present)}{total}, games {games}, records {records} ({games_per_chunk} games per chunk, seed {settings.get('seed', '?')}, nodes {settings.get('nodes', '?')})")
if missing:
    shown = ", ".join(map(str, missing[:50])) + (" ..." if len(missing) > 50 else "")
    out(f"missing {len(missing)} chunk(s): {shown}")
    if shards:
        out("shards with missing chunks: " + " ".join(f"{s}/{shards}" for s in sorted({shard_of(k) for k in missing})))
if beyond:
    out(f"note: {len(beyond)} chunk(s) beyond --chunks {want_chunks} (the run was extended): {beyond[:10]}")
for s in strays:
    out(f"leftover temporary file (a chunk in progress when its process died): {s}")
for b in bad:
    out(f"BAD {b}")
if bad or missing:
    sys.exit(1)
out("complete")
PY
