#!/usr/bin/env python3
"""How much clock would Janus keep with another sudden-death plan? A replay of a match PGN.

usage: tools/clock-replay.py MATCH.pgn[.zst] [--engine Janus] [--mtg 35 30 25]

Reads the per-move times of `janus match` PGNs (comments "{score/depth 0.362s}", "{book}" for
book moves; the clock of --base and --inc, 10+0.1 by default), and for each of ENGINE's moves
the ratio of the time it used to the optimum that src/search/timeman.cpp planned for it (reserve
max(3 x inc, 5 x 10 ms overhead), optimum min(usable / moves-to-go + 3/4 inc, 6/10 usable + 3/4 inc);
the search's own stability factors make the ratio). Then it replays every game with the same
ratios under other moves-to-go values (--mtg; the maximum min(5 x optimum, 8/10 usable + 3/4 inc,
8/10 available) caps a move) and prints the median and 10th-percentile clock at the end of the
game, with the opponent's actual median. An estimate for choosing what to SPRT, not a result: a
different plan changes the moves and therefore the ratios. Mirrors TimeManager::init (keep the two
in step).
"""
import argparse
import re
import statistics as st
import subprocess


def games(path):
    text = subprocess.run(["zstd", "-dcf", path], capture_output=True, text=True, check=True).stdout
    return text.split("[Event ")[1:]


def optimum(clockMs, base):
    """TimeManager::init's optimum and maximum (ms) for `clockMs` on the clock, base (inc, mtg)."""
    inc, mtg = base
    avail = max(1.0, clockMs - 10)
    usable = max(0.0, avail - max(3 * inc, 50))
    opt = min(usable / mtg + 0.75 * inc, usable * 0.6 + 0.75 * inc)
    return opt, min(opt * 5, usable * 0.8 + 0.75 * inc, avail * 0.8)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn")
    ap.add_argument("--engine", default="Janus")
    ap.add_argument("--base", type=float, default=10.0, help="seconds on the clock at the start (10)")
    ap.add_argument("--inc", type=float, default=0.1, help="increment in seconds (0.1)")
    ap.add_argument("--mtg", type=int, nargs="+", default=[35, 30, 28, 25, 22])
    a = ap.parse_args()
    inc = a.inc * 1000
    sequences, opponentEnd = [], []
    for g in games(a.pgn):
        white = re.search(r'\[White "([^"]+)"', g).group(1) == a.engine
        clock = [a.base * 1000, a.base * 1000]
        side, seq = 0, []
        for comment in re.findall(r"\{([^}]*)\}", g[g.index("\n\n"):]):
            used = re.search(r"([\d.]+)s$", comment.strip())
            if used and "book" not in comment:
                ms = float(used.group(1)) * 1000
                if (side == 0) == white:
                    seq.append(ms / max(1.0, optimum(clock[side], (inc, 35))[0]))
                clock[side] += inc - ms
            side ^= 1
        sequences.append(seq)
        opponentEnd.append(clock[1 if white else 0] / 1000)
    print(f"{len(sequences)} games; the opponent's median clock at the end {st.median(opponentEnd):.2f} s")
    ratios = sorted(r for s in sequences for r in s)
    print(f"{a.engine}'s used / planned optimum: median {ratios[len(ratios) // 2]:.2f}, mean {st.mean(ratios):.2f}")
    for mtg in a.mtg:
        ends = []
        for seq in sequences:
            c = a.base * 1000
            for r in seq:
                opt, mx = optimum(c, (inc, mtg))
                c += inc - min(opt * r, mx)
            ends.append(c / 1000)
        ends.sort()
        print(f"moves to go {mtg}: median clock at the end {st.median(ends):.2f} s, 10th percentile {ends[len(ends) // 10]:.2f} s")


if __name__ == "__main__":
    main()
