#!/usr/bin/env python3
"""Strategic Test Suite (STS 1-15, v3 points) score of Janus and, in the same run, Stockfish.

Each engine gets every position ("position fen ..." + "go movetime T") and earns the points of
its move (c9 = moves in UCI, c8 = their points; 10 for the best move, 0 for unlisted moves).
STS is by Dann Corbit and Swaminathan; the suite is not in the repository: give its file with
--file or JANUS_STS (STS1-STS15_LAN_v3.epd of the GitHub repository fsmosca/STS-Rating, MIT). Prints the points per theme and the total (out of 15000) for each engine.

usage: tools/sts.py [--movetime 200] [--janus build/janus] [--stockfish /usr/games/stockfish]
                    --file STS1-STS15_LAN_v3.epd (or JANUS_STS=FILE) [--limit N] [--threads 1]
"""
import argparse
import collections
import os
import re
import sys
import time

from janus_tools import Uci


def parse(path):
    cases = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            fen = " ".join(line.split()[:4])
            ops = dict(re.findall(r'(\w+) "([^"]*)"', line))
            # The file holds the 15 suites in order, 100 positions each; ids spell some themes
            # differently ("AKPC", "AT"), so the suite number comes from the line position.
            theme = "STS%d" % (len(cases) // 100 + 1)
            points = dict(zip(ops["c9"].split(), map(int, ops["c8"].split())))
            cases.append((theme, fen, points))
    return cases


# Theme names of STS1..STS15 as published with the suite (Corbit and Swaminathan).
THEMES = ["Undermining", "Open Files and Diagonals", "Knight Outposts", "Square Vacancy", "Bishop vs Knight",
          "Recapturing", "Offer of Simplification", "Advancement of f/g/h Pawns", "Advancement of a/b/c Pawns",
          "Simplification", "Activity of the King", "Center Control", "Pawn Play in the Center",
          "Queens and Rooks to the 7th Rank", "Avoid Pointless Exchange"]


def best_move(engine, fen, movetime):
    """The engine's move (UCI) for `fen` (4 fields) after `go movetime MOVETIME`, in a new game."""
    engine.send("ucinewgame")
    engine.send("position fen %s 0 1" % fen)
    engine.sync()
    engine.send("go movetime %d" % movetime)
    return engine.wait_for("bestmove").split()[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--movetime", type=int, default=200)
    ap.add_argument("--janus", default="build/janus")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--file", default=os.environ.get("JANUS_STS"),
                    help="STS1-STS15_LAN_v3.epd (fsmosca/STS-Rating); default: $JANUS_STS")
    ap.add_argument("--limit", type=int, default=0, help="only the first N positions of each theme")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()

    if not args.file or not os.path.isfile(args.file):
        sys.exit(f"sts.py: the STS suite file is missing ({args.file or 'no --file and no JANUS_STS'}): give "
                 "STS1-STS15_LAN_v3.epd of fsmosca/STS-Rating with --file or JANUS_STS")
    cases = parse(args.file)
    if args.limit:
        seen = collections.Counter()
        kept = []
        for c in cases:
            seen[c[0]] += 1
            if seen[c[0]] <= args.limit:
                kept.append(c)
        cases = kept
    themes = list(dict.fromkeys(c[0] for c in cases))
    results = {}
    for name, cmd in (("Janus", [args.janus]), ("Stockfish", [args.stockfish])):
        engine = Uci(cmd, {"Threads": args.threads, "Hash": 64})
        score = collections.Counter()
        start = time.time()
        for i, (theme, fen, points) in enumerate(cases, 1):
            score[theme] += points.get(best_move(engine, fen, args.movetime), 0)
            if i % 100 == 0:
                print("%s: %d/%d positions, %d points, %.0f s" % (name, i, len(cases), sum(score.values()),
                                                                time.time() - start), file=sys.stderr)
        engine.close()
        results[name] = score
    print("| theme | positions | Janus | Stockfish |\n|---|---|---|---|")
    for theme in themes:
        n = sum(1 for c in cases if c[0] == theme)
        label = "%s %s" % (theme, THEMES[int(theme[3:]) - 1])
        print("| %s | %d | %d | %d |" % (label, n, results["Janus"][theme], results["Stockfish"][theme]))
    total = len(cases) * 10
    print("| **total** | %d | **%d / %d (%.1f%%)** | **%d / %d (%.1f%%)** |" % (
        len(cases), sum(results["Janus"].values()), total, 100.0 * sum(results["Janus"].values()) / total,
        sum(results["Stockfish"].values()), total, 100.0 * sum(results["Stockfish"].values()) / total))
    print("movetime %d ms per position, %d thread(s)" % (args.movetime, args.threads))


if __name__ == "__main__":
    main()
