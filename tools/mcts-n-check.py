#!/usr/bin/env python3
"""Does the MCTS face's N count playouts after a long analysis? (issue 73's acceptance check)

Runs the MCTS face (`Search=mcts`, every other option at its default: NNUE leaves, alpha-beta
hints, the evaluation cache) through the Python module as a GUI's "go infinite" would, stops it
after --minutes, and checks what the search returns:

  - the root's N (1 for the root's own expansion + the sum of its children's N, docs/mcts.md
    "Visits count playouts") equals the playouts the search reports, within the playouts that
    can be in flight when it stops (--in-flight, default Threads x 256: the largest batch);
  - no count exceeds the playouts (no virtual or hint visits) nor 2^32 - 1 (the counters are u32);
  - the priors are the network's: a second search of the same position in a new game
    (--prior-seconds, 10) reports the same prior for every root move.

Prints the playouts, playouts/s, hint nodes, the root's N, and the top moves (N, share of the root's
visits, prior P, Q); exit status 1 when a check fails. Position: the Two Knights Defence (1. e4 e5
2. Nf3 Nc6 3. Bc4 Nf6) unless --fen.

    PYTHONPATH=build/python tools/mcts-n-check.py [--minutes 3] [--threads 1] [--tree-mib 1024]
"""
import argparse
import sys
import threading
import time

import janus

TWO_KNIGHTS = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


def search(engine, board, seconds):
    """An infinite search stopped after `seconds` (as `go infinite` + `stop`); the result dict."""
    timer = threading.Timer(seconds, engine.stop)
    timer.start()
    try:
        return engine.search(board, infinite=True)
    finally:
        timer.cancel()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=3.0, help="length of the analysis (default 3)")
    ap.add_argument("--threads", type=int, default=1, help="search threads (default 1)")
    ap.add_argument("--tree-mib", type=int, default=1024, help="MCTS Tree MiB (default 1024, the option's default)")
    ap.add_argument("--fen", default=TWO_KNIGHTS, help="position (default: the Two Knights Defence)")
    ap.add_argument("--prior-seconds", type=float, default=10.0, help="length of the second search (default 10)")
    ap.add_argument("--in-flight", type=int, default=0, help="playouts allowed in flight (default Threads x 256)")
    args = ap.parse_args()
    inFlight = args.in_flight or 256 * args.threads

    options = {"Threads": args.threads, "MCTS Tree MiB": args.tree_mib}
    board = janus.Board(args.fen)
    engine = janus.Engine("mcts", options)
    start = time.monotonic()
    r = search(engine, board, 60 * args.minutes)
    seconds = time.monotonic() - start
    stats = r["visits"]
    playouts = r["playouts"]
    rootN = 1 + sum(v for _, v, _, _ in stats)
    failures = []
    print(f"position {args.fen}; Threads {args.threads}, MCTS Tree MiB {args.tree_mib}; {seconds:.0f} s")
    print(f"playouts {playouts} ({playouts / seconds:.0f}/s), nodes {r['nodes']} (hint nodes {r['nodes'] - playouts}), "
          f"root N {rootN}, best {r['best']}, score {r['score_cp']} cp, wdl {r['wdl']}")
    for move, n, p, q in stats[:8]:
        print(f"  {move:6} N {n:>10}  share {100 * n / max(1, rootN - 1):5.1f}%  P {100 * p:5.2f}%  Q {q:+.4f}")
    if abs(rootN - playouts) > inFlight:
        failures.append(f"root N {rootN} differs from the playouts {playouts} by more than {inFlight}")
    if any(n > playouts or n >= 2**32 for _, n, _, _ in stats):
        failures.append("a move's N exceeds the playouts or 2^32 - 1")

    engine.new_game()
    second = search(engine, board, args.prior_seconds)
    first = {m: p for m, _, p, _ in stats}
    again = {m: p for m, _, p, _ in second["visits"]}
    changed = [m for m in first if m in again and first[m] != again[m]]
    print(f"second search ({args.prior_seconds:.0f} s, new game): {second['playouts']} playouts; "
          f"priors of {len(first)} moves: {len(changed)} changed")
    if set(first) != set(again) or changed:
        failures.append(f"priors differ between the two searches: {changed or 'not the same moves'}")

    for f in failures:
        print("FAIL:", f)
    print("ok" if not failures else "failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
