#!/usr/bin/env python3
"""Writes the seed corpora of the libFuzzer targets (tools/fuzz.sh calls this).

usage: tools/fuzz-seeds.py DATA_DIR OUT_DIR [--weights FILE] [--jdat FILE]

DATA_DIR is the repository's tests/data (perft suites, EPD suites, PGN games; data/openings gives
the opening books); any folder of the same layout with more files gives more seeds. OUT_DIR gets one
folder per target (fen_fuzz/, san_fuzz/, ...) of small files, each one input. The corpora are
generated, never committed. Deterministic: the same data gives the same seeds.
"""
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

MAX_PER_SOURCE = 150  # seeds taken from one data file (evenly spread over it)


def spread(items, n=MAX_PER_SOURCE):
    """At most n items, evenly spaced over the list (keeps first and last)."""
    if len(items) <= n:
        return list(items)
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


class Corpus:
    def __init__(self, root, name):
        self.dir = Path(root) / name
        self.dir.mkdir(parents=True, exist_ok=True)
        self.count = 0

    def add(self, data):
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        name = hashlib.sha1(data).hexdigest()
        path = self.dir / name
        if not path.exists():
            path.write_bytes(data)
            self.count += 1


def lines(path):
    """The lines of a text file; a .zst file is unpacked with the zstd command-line tool."""
    if path.suffix == ".zst":
        raw = subprocess.run(["zstd", "-dc", str(path)], check=True, capture_output=True).stdout
        text = raw.decode("utf-8", errors="surrogateescape")
    else:
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
    return text.replace("\r\n", "\n").split("\n")


def epd_fens(path):
    """(fen, rest) from an EPD or perft-EPD file: the first 4 fields and what follows."""
    out = []
    for line in lines(path):
        f = line.split()
        if len(f) >= 4 and "/" in f[0]:
            out.append((" ".join(f[:4]), " ".join(f[4:])))
    return out


def pgn_games(path):
    """The games of a PGN file as text (split before each tag section that follows movetext)."""
    games, cur, in_moves = [], [], False
    for line in lines(path):
        if line.startswith("[") and in_moves:
            games.append("\n".join(cur) + "\n")
            cur, in_moves = [], False
        if line.strip() and not line.startswith("["):
            in_moves = True
        cur.append(line)
    if any(l.strip() for l in cur):
        games.append("\n".join(cur) + "\n")
    return games


SAN_TOKEN = re.compile(r"^(?:[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=?[QRBN])?|O-O(?:-O)?|0-0(?:-0)?)[+#]?[!?]*$")


def main():
    args = sys.argv[1:]
    weights = None
    jdat = []
    if "--jdat" in args:
        i = args.index("--jdat")
        jdat.append(args[i + 1])
        del args[i : i + 2]
    if "--weights" in args:
        i = args.index("--weights")
        weights = args[i + 1]
        del args[i : i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    data, out = Path(args[0]), Path(args[1])

    perft = sorted((data / "perft").glob("*.epd"))
    epd_suites = sorted((data / "tactics").glob("*.epd")) + sorted((data / "mates").glob("*.epd")) + \
        sorted((data / "sts").glob("*.epd")) + sorted((data / "openings").glob("*.epd"))
    pgns = sorted((data / "pgn").glob("*.pgn"))
    repo = Path(__file__).resolve().parent.parent
    books = [repo / "data" / "openings" / "janus-8moves-300.pgn"]

    # fen_fuzz: flag byte (bit 0 = Chess960) + FEN.
    c = Corpus(out, "fen_fuzz")
    for path in perft + epd_suites:
        chess960 = b"\x01" if "960" in path.name else b"\x00"
        for fen, _ in spread(epd_fens(path)):
            c.add(chess960 + fen.encode())
    for line in lines(data / "perft" / "tricky.perft"):
        if line.startswith("epd "):
            c.add(b"\x01" + line[4:].encode())
    for fen in ["8/8/8/8/8/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - -",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
                "3kK3/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"]:
        c.add(b"\x00" + fen.encode())
    print(f"fen_fuzz: {c.count}")

    # san_fuzz: "<fen>\n<moves>": EPD best moves, and PGN / ECO move lists from the start.
    c = Corpus(out, "san_fuzz")
    for path in sorted((data / "tactics").glob("*.epd")):
        for fen, rest in spread(epd_fens(path), 60):
            m = re.search(r"\bbm ([^;]*);", rest)
            if m:
                c.add(fen + "\n" + m.group(1) + "\n")
    for path in sorted((data / "mates").glob("*.epd")):
        for fen, rest in spread(epd_fens(path), 60):
            m = re.search(r"PV: ([^;]*);", rest)
            if m:
                c.add(fen + "\n" + m.group(1) + "\n")  # UCI moves
    for tsv in sorted((data / "openings-eco").glob("*.tsv")):
        rows = [l.split("\t") for l in lines(tsv)[1:] if l.count("\t") == 2]
        for eco, name, moves in spread(rows, 60):
            c.add(Position_start() + "\n" + moves + "\n")
    for path in pgns:
        for game in pgn_games(path):
            fen = re.search(r'\[FEN "([^"]*)"\]', game)
            words = [w for w in re.sub(r"\{[^}]*\}|\([^)]*\)", " ", game).split() if SAN_TOKEN.match(re.sub(r"^\d+\.+", "", w))]
            c.add((fen.group(1) if fen else Position_start()) + "\n" + " ".join(words[:60]) + "\n")
    print(f"san_fuzz: {c.count}")

    # pgn_fuzz: whole small files and single games.
    c = Corpus(out, "pgn_fuzz")
    for path in pgns:
        if path.stat().st_size <= 64 * 1024:
            c.add(path.read_bytes())
        for game in spread(pgn_games(path), 40):
            c.add(game)
    for path in books:
        if path.exists():
            games = pgn_games(path)
            for i in range(0, min(len(games), 200), 10):
                c.add("".join(games[i : i + 3]))
    print(f"pgn_fuzz: {c.count}")

    # pgn_zst_fuzz: the pgn_fuzz seeds, zstd-compressed (and two plain ones).
    c = Corpus(out, "pgn_zst_fuzz")
    for path in spread(sorted((out / "pgn_fuzz").iterdir()), 60):
        raw = path.read_bytes()
        if len(raw) > 16 * 1024:
            continue
        try:
            z = subprocess.run(["zstd", "-q", "-c", "-3", "--check"], input=raw, capture_output=True, check=True).stdout
            c.add(z)
            c.add(z + z)  # two frames
        except (OSError, subprocess.CalledProcessError):
            pass
    for path in pgns[:2]:
        c.add(path.read_bytes()[:4096])
    print(f"pgn_zst_fuzz: {c.count}")

    # perft_suite_fuzz: slices of the suites in both formats.
    c = Corpus(out, "perft_suite_fuzz")
    for path in perft:
        ls = [l for l in lines(path) if l.strip()]
        for i in range(0, len(ls), max(1, len(ls) // 20)):
            c.add("\n".join(ls[i : i + 4]) + "\n")
    tricky = lines(data / "perft" / "tricky.perft")
    for i in range(0, len(tricky), 12):
        c.add("\n".join(tricky[i : i + 16]) + "\n")
    print(f"perft_suite_fuzz: {c.count}")

    # uci_fuzz: GUI-like scripts.
    c = Corpus(out, "uci_fuzz")
    scripts = [
        "uci\nisready\nucinewgame\nposition startpos\ngo depth 2\n",
        "uci\nsetoption name Hash value 2\nsetoption name MultiPV value 3\nposition startpos moves e2e4 e7e5\ngo depth 3\nisready\n",
        "setoption name UCI_Chess960 value true\nposition fen 1k6/8/8/8/8/8/8/RK5R w HA - 0 1 moves b1a1\nd\ngo nodes 100\n",
        "position startpos\ngo infinite\nisready\nstop\n",
        "setoption name Ponder value true\nposition startpos moves e2e4\ngo ponder wtime 1000 btime 1000 winc 10 binc 10\nponderhit\n",
        "position startpos\ngo wtime 100 btime 100 movestogo 5\n",
        "position startpos\ngo movetime 10\n",
        "position startpos\ngo perft 2\n",
        "position startpos\ngo depth 2 searchmoves e2e4 d2d4\n",
        "position startpos\ngo mate 2\n",
        "position fen 6k1/4Rppp/8/8/8/8/5PPP/6K1 w - - 0 1\ngo depth 3\neval\nd\n",
        "setoption name Clear Hash\nsetoption name Move Overhead value 50\nsetoption name Threads value 2\ngo depth 2\n",
        "debug on\nregister later\nflibbertigibbet\ngo depth x\nposition sideways\nsetoption value 3\nquit\n",
        "position startpos moves " + " ".join(["g1f3 g8f6 f3g1 f6g8"] * 20) + "\ngo depth 2\n",
        "go depth 1\n",
        "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 2\n",
    ]
    for s in scripts:
        c.add(s)
    for fen, rest in spread([e for p in sorted((data / "mates").glob("*.epd")) for e in epd_fens(p)], 40):
        m = re.search(r"PV: ([^;]*);", rest)
        if m:
            c.add(f"position fen {fen} 0 1 moves {m.group(1)}\ngo depth 2\nposition fen {fen}\ngo nodes 50\n")
    print(f"uci_fuzz: {c.count}")

    # openings_fuzz: 9 header bytes (flags, start, seed) + an EPD or PGN snippet.
    c = Corpus(out, "openings_fuzz")
    epd = lines(repo / "data" / "openings" / "8moves_v3.epd.zst")
    for i in range(0, min(len(epd), 2000), 100):
        c.add(bytes([0, i % 7, 0, 0, 0, 1, 2, 3, 4]) + "\n".join(epd[i : i + 5]).encode() + b"\n")
    c.add(bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]) + "\n".join(l.split(";")[0] for l in lines(data / "perft" / "chess960.epd")[:5]).encode())
    for path in books + [data / "pgn" / "cutechess-fischerrandom.pgn"]:
        if path.exists():
            games = pgn_games(path)
            for i in range(0, min(len(games), 300), 30):
                c.add(bytes([2 | (i % 2), 3, 0, 0, 0, i % 256, 0, 0, 0]) + "".join(games[i : i + 3]).encode())
    print(f"openings_fuzz: {c.count}")

    # weights_fuzz: the default weights (from janus eval --print-weights) whole and by block.
    c = Corpus(out, "weights_fuzz")
    c.add("material[pawn] 100 100\n")
    c.add("# comment\n\ntempo 10 10\n")
    if weights and Path(weights).exists():
        text = Path(weights).read_text()
        c.add(text)
        blocks = re.split(r"(?m)^(?=# )", text)
        for b in blocks:
            if b.strip():
                c.add(b)
    print(f"weights_fuzz: {c.count}")

    # record_fuzz: JANUSDAT files (from `janus datagen --pgn`, made by tools/fuzz.sh), whole,
    # cut short, with a few records, zstd-compressed, and with single bytes changed.
    c = Corpus(out, "record_fuzz")
    for path in jdat:
        if Path(path).exists():
            raw = Path(path).read_bytes()
            header, records = raw[:32], raw[32:]
            size = int.from_bytes(header[10:12], "little")  # 40 (version 3) or 32
            c.add(raw[: 32 + size * 64])
            # A version 1 file (32-byte records, streaming count) from the position parts.
            old = b"".join(records[i : i + 32] for i in range(0, min(len(records), size * 16), size))
            c.add(header[:8] + b"\x01\x00\x20\x00" + bytes(4) + b"\xff" * 8 + bytes(8) + old)
            c.add(raw[:32 + size * 4 + 7])
            for i in range(0, min(len(records), size * 40), size * 5):
                one = bytearray(header[:16] + (1).to_bytes(8, "little") + bytes(8) + records[i : i + size])
                c.add(bytes(one))
                # Position fields, then the version 3 move fields (played, best, gameEnd, flags2, reserved).
                for off in (0, 9, 24, 25, 30, 31, 32, 33, 35, 36, 37, 38):
                    if off >= size:
                        continue
                    mutated = bytearray(one)
                    mutated[32 + off] ^= 0x5A
                    c.add(bytes(mutated))
            try:
                z = subprocess.run(["zstd", "-q", "-c"], input=raw[: 32 + size * 32], capture_output=True, check=True)
                c.add(z.stdout)
            except (OSError, subprocess.CalledProcessError):
                pass
    print(f"record_fuzz: {c.count}")

    # polyglot_fuzz: slices of the shipped books (whole 16-byte entries, keys in order).
    c = Corpus(out, "polyglot_fuzz")
    for path in sorted((data / "books").glob("*.bin")):
        raw = path.read_bytes()
        n = len(raw) // 16
        for start in range(0, n, max(1, n // 40)):
            c.add(raw[start * 16 : (start + 64) * 16])
        c.add(raw[: 16 * 512])
    print(f"polyglot_fuzz: {c.count}")

    # server_fuzz: request scripts as the page sends them ("METHOD PATH BODY" per line).
    c = Corpus(out, "server_fuzz")
    scripts = [
        "GET /api/info\nGET /api/sessions/{sid}\nGET /\nGET /assets/app.js\n",
        'POST /api/sessions/{sid}/new {"color":"white","level":1}\nPOST /api/sessions/{sid}/move {"uci":"e2e4"}\n'
        "POST /api/sessions/{sid}/undo\nPOST /api/sessions/{sid}/hint\nGET /api/sessions/{sid}/pgn\n",
        'POST /api/sessions/{sid}/new {"color":"black","moveTimeMs":10}\nPOST /api/sessions/{sid}/resign\n',
        'POST /api/sessions/{sid}/load {"fen":"' + Position_start() + '"}\n'
        'POST /api/sessions/{sid}/load {"pgn":"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *"}\n'
        'POST /api/sessions/{sid}/mode {"mode":"analysis"}\nPOST /api/sessions/{sid}/analysis {"on":true,"multiPv":3}\n'
        'POST /api/sessions/{sid}/analysis {"on":false}\nPOST /api/sessions/{sid}/evaluate {}\n'
        'POST /api/sessions/{sid}/review {"depth":2,"moveTimeMs":10}\n',
        'POST /api/sessions/{sid}/move {"uci":"e2e5"}\nPOST /api/sessions/{sid}/move {"from":"e2"}\n'
        'POST /api/sessions/{sid}/load {"fen":"8/8/8/8/8/2R5/1R6/6k1 w - - 0 1"}\nPOST /api/sessions/{sid}/new [1,2]\n'
        "POST /api/sessions/{sid}/new {bad json\n!POST /api/sessions/{sid}/undo\n",
        "GET /../secret.txt\nGET /%2e%2e/secret.txt\nGET /..%2fsecret.txt\nGET //etc/passwd\nGET /%00\n"
        "GET /api/reports/../../secret.txt\nGET /api/sessions/nosuch\nDELETE /api/sessions/nosuch\n",
        'POST /api/sessions/{sid}/new {"color":"random","elo":1500,"clock":{"minutes":1,"increment":1}}\n'
        'POST /api/sessions/{sid}/leave\nDELETE /api/sessions/{sid}\nGET /api/sessions/{sid}\n',
    ]
    for s in scripts:
        c.add(s)
    print(f"server_fuzz: {c.count}")


def Position_start():
    return "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


if __name__ == "__main__":
    main()
