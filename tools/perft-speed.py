#!/usr/bin/env python3
"""Perft speed of Janus compared with Debian's Stockfish in the same run.

Both engines run as UCI processes and get the same "position ... / go perft N" commands; the
time is measured from sending "go perft" to reading "Nodes searched", so start-up costs are
excluded. Each measurement is repeated (interleaved, to share the machine's noise) and the
fastest run of each engine is kept. Prints nodes/s of both and the ratio Janus / Stockfish.

usage: tools/perft-speed.py [--janus build/janus] [--stockfish /usr/games/stockfish] [--repeat 3]
"""
import argparse
import sys
import time

from janus_tools import Uci

CASES = [
    ("startpos perft 6", "startpos", 6, 119060324),
    ("Kiwipete perft 5", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193690690),
]


def perft(uci, position, depth):
    """(nodes, seconds) of `go perft DEPTH` on `position`, timed from the go to the node count."""
    uci.send("position " + position)
    uci.sync()
    start = time.perf_counter()
    uci.send("go perft %d" % depth)
    line = uci.wait_for("Nodes searched")
    elapsed = time.perf_counter() - start
    return int(line.split(":")[1]), elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--janus", default="build/janus")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    engines = {"janus": Uci([args.janus]), "stockfish": Uci([args.stockfish])}
    ok = True
    ratios = []
    for name, position, depth, expected in CASES:
        best = {}
        for _ in range(args.repeat):
            for engine, uci in engines.items():
                nodes, secs = perft(uci, position, depth)
                if nodes != expected:
                    print("%s: %s returned %d nodes, expected %d" % (name, engine, nodes, expected))
                    ok = False
                best[engine] = min(best.get(engine, 1e9), secs)
        nps = {e: expected / s for e, s in best.items()}
        ratio = nps["janus"] / nps["stockfish"]
        ratios.append(ratio)
        print("%-17s janus %6.0f ms %7.1f Mnps | stockfish %6.0f ms %7.1f Mnps | ratio %.2f" % (
            name, best["janus"] * 1000, nps["janus"] / 1e6, best["stockfish"] * 1000, nps["stockfish"] / 1e6, ratio))
    for uci in engines.values():
        uci.close()
    print("minimum ratio janus/stockfish: %.2f (goal >= 2.0)" % min(ratios))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
