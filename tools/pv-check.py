#!/usr/bin/env python3
"""Checks Janus's info lines the way match runners do (fastchess's PV checks), over an EPD file.

Every position of the file is searched with every time limit ("position fen ..." + "go movetime
T"). For each search it checks that the last "info ... pv" line before "bestmove" begins with the
move played, and that every PV is a legal move sequence that does not go on after a checkmate or
stalemate. Legality comes from a second Janus process ("go perft 1" lists the legal moves after
each PV prefix), so no chess library is needed. With --check-mate-pvs it also counts mate scores
whose PV is not the whole mate (2N-1 plies ending in mate for "mate N", 2N for "mate -N"), as
fastchess's -check-mate-pvs does; those are reported as notes, not defects (a PV may stop early at
a transposition table or tablebase cutoff). Prints each finding and a summary line; exits 1 if
there was a defect.

usage: tools/pv-check.py [--janus build/janus] [--epd tests/data/tactics/wac.epd]
                         [--movetimes 5,20,50,100] [--limit N] [--multipv 1] [--option NAME=VALUE ...]
                         [--check-mate-pvs]
"""
import argparse
import sys

from janus_tools import Uci


class LegalMoves:
    """Legal moves after a move sequence from a FEN, from the engine's "go perft 1"."""

    def __init__(self, cmd):
        self.uci = Uci(cmd)
        self.cache = {}

    def after(self, fen, moves):
        key = (fen, tuple(moves))
        if key not in self.cache:
            self.uci.send("position fen %s moves %s" % (fen, " ".join(moves)) if moves else "position fen " + fen)
            self.uci.send("go perft 1")
            lines = self.uci.read_until("Nodes searched")
            if any("error" in l for l in lines):
                raise ValueError(" ".join(l for l in lines if "error" in l))
            self.cache[key] = {l.split(":")[0] for l in lines if l.count(":") == 1 and not l.startswith("Nodes")}
        return self.cache[key]


def check_pv(legal, fen, pv):
    """The defect of one PV, or None."""
    for k, move in enumerate(pv):
        moves = legal.after(fen, pv[:k])
        if not moves:
            return "pv continues after checkmate or stalemate with %s" % move
        if move not in moves:
            return "illegal pv move %s" % move
    return None


def mate_pv_note(legal, fen, line, pv):
    """Why a "score mate N" line's PV is not the whole mate, or None (also None without a mate score)."""
    words = line.split()
    if "mate" not in words or "score" not in words or words[words.index("score") + 1] != "mate":
        return None
    n = int(words[words.index("score") + 2])
    plies = 2 * n - 1 if n > 0 else -2 * n
    if len(pv) < plies:
        return "incomplete mating pv (%d plies for mate %d)" % (len(pv), n)
    if len(pv) > plies:
        return "too long mating pv (%d plies for mate %d)" % (len(pv), n)
    if legal.after(fen, pv):
        return "mating pv does not end with checkmate"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--janus", default="build/janus")
    ap.add_argument("--epd", default="tests/data/tactics/wac.epd")
    ap.add_argument("--movetimes", default="5,20,50,100", help="comma-separated milliseconds")
    ap.add_argument("--limit", type=int, default=0, help="first N positions only (0: all)")
    ap.add_argument("--multipv", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], help="UCI option NAME=VALUE (repeatable)")
    ap.add_argument("--check-mate-pvs", action="store_true", help="also note mate scores with a partial PV")
    a = ap.parse_args()

    fens = []
    with open(a.epd, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 4:
                fens.append(" ".join(fields[:4]) + " 0 1")
    if a.limit:
        fens = fens[: a.limit]
    movetimes = [int(t) for t in a.movetimes.split(",")]

    engine = Uci([a.janus])
    engine.send("setoption name MultiPV value %d" % a.multipv)
    for o in a.option:
        name, _, value = o.partition("=")
        engine.send("setoption name %s value %s" % (name, value))
    legal = LegalMoves([a.janus])
    searches = defects = notes = 0
    for fen in fens:
        engine.send("ucinewgame")
        for t in movetimes:
            engine.send("position fen " + fen)
            engine.send("go movetime %d" % t)
            lines = engine.read_until("bestmove")
            searches += 1
            found = []
            last_pv = None
            for line in lines:
                if line.startswith("info") and not line.startswith("info string") and " pv " in line:
                    last_pv = line.split(" pv ", 1)[1].split()
                    why = check_pv(legal, fen, last_pv)
                    if why:
                        found.append("%s: %s" % (why, line))
                    elif a.check_mate_pvs:
                        note = mate_pv_note(legal, fen, line, last_pv)
                        if note:
                            print("position fen %s / go movetime %d: note: %s: %s" % (fen, t, note, line))
                            notes += 1
            best = lines[-1].split()[1]
            if best != "(none)" and (not last_pv or last_pv[0] != best):
                found.append("bestmove %s does not begin the last pv %s" % (best, last_pv))
            for d in found:
                print("position fen %s / go movetime %d: %s" % (fen, t, d))
            defects += len(found)
    engine.close()
    legal.uci.close()
    print("%d searches, %d defects" % (searches, defects) + (", %d mate pv notes" % notes if a.check_mate_pvs else ""))
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
