#!/usr/bin/env bash
# Check a chunked run directory of `janus datagen` (docs/tuning.md, "Chunked runs") or
# `janus selfplay` (docs/rl.md): what is there, what is missing, and that every chunk is whole.
#
#   tools/slurm/check-run.sh DIR [--chunks N] [--shards M] [--quiet] [--missing-shards]
#
# The run's kind comes from its settings file: DIR/datagen-run.txt (chunks
# chunk-K.janusdat.zst) or DIR/selfplay-run.txt (chunks chunk-K.janussp.zst); its chunk-games
# line is the chunk size G. Every chunk file is read in full:
#   JANUSDAT (docs/tuning.md, "The JANUSDAT format"): magic, version 3, 40-byte records, the
#     declared record count equal to the records in the file, and exactly G games (a game's last
#     record has a nonzero gameEnd byte). Records = positions.
#   JANUSSP (src/records/janussp_format.h): magic, version 1, a declared game count of G, then G games
#     (40-byte game header with the ply count, 8 bytes + 4 per visit entry per ply) that end
#     exactly at the end of the file. Records = positions (plies); targets = full-search plies.
# Prints one line per chunk (unless --quiet), then
#   DIR: chunks C/N, games X, records Y (...)
# and the missing chunk indices (0..N-1 when --chunks is given, else the gaps below the highest
# chunk present), with the shards I/M that own them when --shards M is given (chunk k belongs to
# shard k mod M + 1). Leftover temporary files (`*.tmp`, a chunk being written when its process
# was killed) are reported; the next --resume of that shard overwrites them.
# With --missing-shards the only output is the list of shards with missing chunks (one per line),
# for resubmitting them (the --missing option of tools/slurm/datagen.sh and selfplay.sh).
# Exit status: 0 when the run is complete and every chunk is valid (with --missing-shards: when
# no chunk file is bad), 1 when chunks are missing or a file is bad, 2 on a usage error.
set -euo pipefail

usage() { sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

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
[ -f "$dir/datagen-run.txt" ] || [ -f "$dir/selfplay-run.txt" ] ||
  { echo "check-run.sh: neither $dir/datagen-run.txt nor $dir/selfplay-run.txt: not a chunked janus datagen or selfplay run" >&2; exit 1; }
[[ -z "$chunks" || "$chunks" =~ ^[1-9][0-9]*$ ]] || { echo "check-run.sh: --chunks needs a positive number" >&2; exit 2; }
[[ -z "$shards" || "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "check-run.sh: --shards needs a positive number" >&2; exit 2; }
command -v zstd >/dev/null || { echo "check-run.sh: zstd not found (apt-get install zstd)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "check-run.sh: python3 not found" >&2; exit 1; }

exec python3 - "$dir" "${chunks:-0}" "${shards:-0}" "$quiet" "$missingShards" <<'PY'
import os, re, struct, subprocess, sys

run_dir, want_chunks, shards, quiet, missing_shards_only = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1", sys.argv[5] == "1"
out = (lambda *a: None) if missing_shards_only else print

kind = "datagen" if os.path.exists(os.path.join(run_dir, "datagen-run.txt")) else "selfplay"
settings = {}
with open(os.path.join(run_dir, f"{kind}-run.txt")) as f:
    for line in f:
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition(" ")
            settings[key] = value
if "chunk-games" not in settings:
    sys.exit(f"check-run.sh: {run_dir}/{kind}-run.txt has no chunk-games line")
games_per_chunk = int(settings["chunk-games"])


def check_janusdat(data):
    """(games, records, targets) of a JANUSDAT chunk, or an error string."""
    HEADER, RECORD = 32, 40
    if len(data) < HEADER or data[:8] != b"JANUSDAT":
        return "not a JANUSDAT file (bad magic or truncated header)"
    version, record_size, flags, count, reserved = struct.unpack_from("<HHIQQ", data, 8)
    if version != 3 or record_size != RECORD:
        return f"version {version}, record size {record_size} (expected 3 and {RECORD})"
    body = len(data) - HEADER
    if body % RECORD != 0 or body // RECORD != count:
        return f"header declares {count} records, the file holds {body / RECORD:g}"
    games = sum(1 for i in range(count) if data[HEADER + i * RECORD + 36] != 0)
    return games, count, 0


def check_janussp(data):
    """(games, positions, targets) of a JANUSSP chunk, or an error string."""
    HEADER, GAME = 32, 40
    if len(data) < HEADER or data[:8] != b"JANUSSP\0":
        return "not a JANUSSP file (bad magic or truncated header)"
    version, reserved16, flags, count, reserved = struct.unpack_from("<HHIQQ", data, 8)
    if version != 1:
        return f"version {version} (expected 1)"
    pos, plies_total, targets = HEADER, 0, 0
    for game in range(count):
        if pos + GAME > len(data):
            return f"game {game}: truncated game header"
        (plies,) = struct.unpack_from("<I", data, pos)
        pos += GAME
        for ply in range(plies):
            if pos + 8 > len(data):
                return f"game {game}, ply {ply}: truncated"
            ply_flags = data[pos + 2]
            (entries,) = struct.unpack_from("<H", data, pos + 6)
            pos += 8 + 4 * entries
            targets += ply_flags & 1
        plies_total += plies
    if pos != len(data):
        return f"{len(data) - pos} bytes after the {count} declared games" if pos < len(data) else "truncated"
    return count, plies_total, targets


check = check_janusdat if kind == "datagen" else check_janussp
chunk_re = re.compile(r"^chunk-(\d{6,})\.janus" + ("dat" if kind == "datagen" else "sp") + r"\.zst$")
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
    result = check(proc.stdout)
    if isinstance(result, str):
        bad.append(f"{name}: {result}")
        continue
    games, count, targets = result
    if games != games_per_chunk:
        bad.append(f"{name}: {games} games, the run has {games_per_chunk} per chunk")
        continue
    present[k] = (count, games, targets)
    if not quiet:
        out(f"{name}: {games} games, {count} records" + (f", {targets} targets" if kind == "selfplay" else ""))

top = want_chunks if want_chunks else (max(present) + 1 if present else 0)
missing = [k for k in range(top) if k not in present]
beyond = sorted(k for k in present if want_chunks and k >= want_chunks)
records = sum(c for c, _, _ in present.values())
games = sum(g for _, g, _ in present.values())
targets = sum(t for _, _, t in present.values())
shard_of = lambda k: k % shards + 1

if missing_shards_only:
    if shards == 0:
        sys.exit("check-run.sh: --missing-shards needs --shards M")
    for s in sorted({shard_of(k) for k in missing}):
        print(s)
    sys.exit(1 if bad else 0)

total = f"/{want_chunks}" if want_chunks else ""
if kind == "datagen":
    detail = f"nodes {settings.get('nodes', '?')}"
else:
    detail = f"{targets} targets, visits {settings.get('visits', '?')}/{settings.get('fast-visits', '?')}"
out(f"{run_dir}: chunks {len(present)}{total}, games {games}, records {records} ({kind}, {games_per_chunk} games per chunk, seed {settings.get('seed', '?')}, {detail})")
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
