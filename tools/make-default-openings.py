#!/usr/bin/env python3
"""Make Janus's default match opening book (data/openings/janus-8moves-300.pgn).

Takes every 115th game (games 1, 116, 231, ...; 300 games) of Stockfish's 8moves_v3.pgn, a CC0
book of balanced 8-move (16-ply) openings, and copies them byte for byte. The source is
8moves_v3.pgn of official-stockfish/books (see data/openings/README.md); its
SHA-256 is checked so the output is reproducible. SOURCE_PGN is the unzipped 8moves_v3.pgn of the
GitHub repository official-stockfish/books (data/openings/README.md gives the snapshot and checksum).

Usage: tools/make-default-openings.py SOURCE_PGN [OUTPUT_PGN]
"""
import hashlib
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
if len(sys.argv) < 2:
    sys.exit("usage: tools/make-default-openings.py SOURCE_PGN [OUTPUT_PGN] (SOURCE_PGN: the unzipped 8moves_v3.pgn "
             "of official-stockfish/books)")
SOURCE = pathlib.Path(sys.argv[1])
OUTPUT = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else ROOT / "data/openings/janus-8moves-300.pgn")
SOURCE_SHA256 = "04fcce1488a94f3b7795cef6f74d89016eb278328897c1018e6162c5967273f5"
COUNT = 300
STEP = 115

data = SOURCE.read_bytes()
digest = hashlib.sha256(data).hexdigest()
if digest != SOURCE_SHA256:
    sys.exit(f"{SOURCE}: sha256 {digest} is not the expected {SOURCE_SHA256}")

# Games start at lines beginning with '[Event '.
text = data.decode("utf-8")
starts = [i for i in range(len(text)) if text.startswith("[Event ", i) and (i == 0 or text[i - 1] == "\n")]
games = [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]
picked = games[::STEP][:COUNT]
if len(picked) != COUNT:
    sys.exit(f"only {len(picked)} games picked from {len(games)}")
out = "".join(g if g.endswith("\n\n") else g.rstrip("\n") + "\n\n" for g in picked)
OUTPUT.write_text(out, encoding="utf-8")
print(f"{OUTPUT}: {COUNT} of {len(games)} games, sha256 {hashlib.sha256(out.encode()).hexdigest()}")
