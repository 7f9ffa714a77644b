#!/usr/bin/env python3
"""An opening book of balanced five-piece endgames, for matches where tablebases matter.

    tools/endgame-book.py [--count N] [--seed S] [--janus BIN] [--depth D] [--max-score CP] [--out FILE]

Each position places the pieces of one material signature (KRPvKR, KPPvKP, KBPvKB, ...; colours
drawn at random) on random squares (seeded Python `random`: the same arguments give the same
book), pawns on ranks 2-7. Janus checks each one: `position fen` rejects illegal positions (kings
in contact, the side not to move in check, ...; the engine answers "info string error"), and a
`go depth D` search (alpha-beta, default evaluation) must score it within +-CP centipawns and not
as a mate, so that neither side starts lost. Positions where the side to move is in check are
skipped too (an opening should not start with a forced reply).

With five pieces no position of the book is in the 3-4 piece tables itself; the first capture or
promotion that leaves four pieces is. Written for the Syzygy match of issue 28
(docs/tablebases.md); the output is an EPD file (FEN per line) for `janus match --openings`.
"""

import argparse
import random
import sys

from janus_tools import Uci

SIGNATURES = ["KRPvKR", "KPPvKP", "KBPvKB", "KNPvKB", "KBPvKN", "KNPvKN", "KRvKBP", "KRvKNP", "KQvKRP",
              "KBNvKB", "KRBvKR", "KRNvKR"]


def random_fen(rng: random.Random, signature: str) -> str:
    """A random placement of `signature` (the first side's pieces, 'v', the second's)."""
    strong, weak = signature.split("v")
    white_first = rng.random() < 0.5
    board = [None] * 64
    for side, pieces in ((white_first, strong), (not white_first, weak)):
        for p in pieces:
            while True:
                sq = rng.randrange(64)
                rank = sq // 8
                if board[sq] is None and not (p == "P" and rank in (0, 7)):
                    board[sq] = p if side else p.lower()
                    break
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            piece = board[rank * 8 + file]
            if piece is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + piece
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    stm = "w" if rng.random() < 0.5 else "b"
    return "/".join(rows) + f" {stm} - - 0 1"


class Janus(Uci):
    """A janus process spoken to over UCI (Janus([path]))."""

    def check(self, fen: str, depth: int):
        """(score in cp or None for a mate, in check?) or None when janus rejects the FEN."""
        self.send("ucinewgame")
        self.send("position fen " + fen)
        self.send("isready")
        if any(l.startswith("info string error") for l in self.read_until("readyok")):
            return None
        self.send(f"go depth {depth}")
        score, in_check = None, False
        for line in self.read_until("bestmove"):
            words = line.split()
            if "score" in words:
                i = words.index("score")
                score = int(words[i + 2]) if words[i + 1] == "cp" else None
        # In check: the same placement with the other side to move is illegal exactly then
        # (the side not to move would be in check), which janus says.
        other = fen.replace(" w ", " x ").replace(" b ", " w ").replace(" x ", " b ")
        self.send("position fen " + other)
        self.send("isready")
        in_check = any("is in check" in l for l in self.read_until("readyok"))
        return score, in_check



def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--janus", default="build/janus")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--max-score", type=int, default=150)
    ap.add_argument("--out", default="-")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    janus = Janus([a.janus])
    book, tried = [], 0
    while len(book) < a.count:
        signature = SIGNATURES[len(book) % len(SIGNATURES)]
        fen = random_fen(rng, signature)
        tried += 1
        r = janus.check(fen, a.depth)
        if r is None:
            continue
        score, in_check = r
        if score is None or abs(score) > a.max_score or in_check:
            continue
        book.append(fen)
    janus.close()
    text = "".join(f + "\n" for f in book)
    if a.out == "-":
        sys.stdout.write(text)
    else:
        with open(a.out, "w") as f:
            f.write(text)
    print(f"{len(book)} positions from {tried} random placements (seed {a.seed}, depth {a.depth}, "
          f"|score| <= {a.max_score} cp)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
