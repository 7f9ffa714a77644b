#!/usr/bin/env python3
"""An EPD suite of the positions where a player collapsed in its own games, labelled by a
reference engine: `janus epdtest` then measures at fixed nodes whether a search avoids the
collapse (docs/lab/mcts-log.md, "The collapse suite and alpha-beta hints").

A collapse: one of the player's own moves with a score >= --before (pawns, the player's view, as
the engines print it in the PGN comments `{+0.25/9 0.156s}`) followed within --window own moves
by a score --drop-by pawns lower. The first collapse of each game counts: every own move from
the last one before the fall up to the one before the lower score is a candidate. The reference engine (UCI, fixed nodes, MultiPV) searches each
candidate position and the played move alone (`go searchmoves`) when it is not among the MultiPV lines; a candidate is kept when the
played move scores --min-loss centipawns or more below the best one, the best one is not
itself lost (>= -150 cp) and the played one not still winning (<= --max-after cp). Its line is

    EPD bm <the reference's moves within --tolerance cp of its best>; hmvc H; fmvn F;
    id "<file> game G ply P";
    c0 "best <cp>, played <SAN> <cp>";

Mates count as +-10000 cp minus the distance. SAN comes from Janus's own rules through the GUI
server's JSON API (`janus gui`, docs/gui.md): a load of the game gives every ply's FEN, a move
played from a FEN gives its SAN.

Usage:
  tools/collapse-suite.py --pgn A.pgn[.zst] [--pgn B.pgn ...] --player Janus --out suite.epd
      [--engine /usr/games/stockfish] [--nodes 1000000] [--multipv 5] [--janus build/janus]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from janus_tools import GuiApi, Uci, start_gui  # noqa: E402

MATE_CP = 10000


def read_text(path):
    if path.endswith(".zst"):
        return subprocess.run(["zstd", "-dc", path], check=True, capture_output=True, text=True).stdout
    with open(path) as f:
        return f.read()


def split_games(text):
    """PGN games as (headers dict, full game text)."""
    games = []
    for chunk in re.split(r"\n(?=\[Event )", text.strip()):
        if not chunk.strip():
            continue
        headers = dict(re.findall(r'^\[(\w+) "(.*)"\]\s*$', chunk, re.M))
        games.append((headers, chunk))
    return games


def ply_scores(game_text):
    """The score (pawns, mover's view) of every ply, None where the comment has none (book)."""
    movetext = game_text.split("\n\n", 1)[1] if "\n\n" in game_text else ""
    scores = []
    for comment in re.findall(r"\{([^}]*)\}", movetext):
        m = re.match(r"\s*([+-]?)(?:(\d+(?:\.\d+)?)|M(\d+))/", comment)
        if not m:
            scores.append(None)
        elif m.group(3):  # "+M5": mate
            scores.append((1 if m.group(1) != "-" else -1) * 100.0)
        else:
            scores.append(float(m.group(1) + m.group(2)))
    return scores


def candidates(scores, own_parity, before, drop_by, window):
    """Own plies (indices) of the first collapse: from the last own ply with a score >= before
    that lies drop_by or more above a score of the next `window` own plies, to the ply before
    that lower score."""
    own = [i for i in range(len(scores)) if i % 2 == own_parity and scores[i] is not None]
    for k, j in enumerate(own):
        earlier = [i for i in own[max(0, k - window):k] if scores[i] >= before and scores[i] - scores[j] >= drop_by]
        if earlier:
            start = own.index(earlier[-1])
            return own[start:k]
    return []


def reference(engine, fen, nodes, multipv, searchmoves=None):
    """[(cp, uci move)] of the MultiPV lines, best first (side to move's view)."""
    engine.send(f"setoption name MultiPV value {1 if searchmoves else multipv}")
    engine.send(f"position fen {fen}")
    engine.send(f"go nodes {nodes}" + (f" searchmoves {searchmoves}" if searchmoves else ""))
    lines = engine.read_until("bestmove")
    best = {}
    for line in lines:  # Stockfish: "info depth D ... multipv K score cp X [lowerbound] ... pv M ..."
        m = re.search(r" multipv (\d+) score (cp|mate) (-?\d+)( lowerbound| upperbound)? .* pv (\S+)", line)
        if not m or m.group(4):
            continue
        value = int(m.group(3))
        cp = value if m.group(2) == "cp" else (MATE_CP - abs(value)) * (1 if value > 0 else -1)
        best[int(m.group(1))] = (cp, m.group(5))
    return [best[k] for k in sorted(best)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pgn", action="append", required=True)
    ap.add_argument("--player", required=True, help="the player's name in the PGN tags")
    ap.add_argument("--out", required=True)
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--multipv", type=int, default=5)
    ap.add_argument("--tolerance", type=int, default=50, help="cp below the best that still counts as bm")
    ap.add_argument("--min-loss", type=int, default=150)
    ap.add_argument("--max-after", type=int, default=200,
                    help="cp: the played move's score at most (a fall from +8 to +6 decides nothing)")
    ap.add_argument("--before", type=float, default=-1.0, help="pawns: the score before the collapse at least")
    ap.add_argument("--drop-by", type=float, default=1.5, help="pawns: the fall of the collapse at least")
    ap.add_argument("--window", type=int, default=3)
    ap.add_argument("--janus", default="build/janus")
    args = ap.parse_args()

    engine = Uci([args.engine], {"Hash": 64, "Threads": 1})
    with tempfile.TemporaryDirectory() as data_dir:
        server, port = start_gui(args.janus, data_dir)
        try:
            api = GuiApi(port)
            sid = api.ok("POST", "/api/sessions", {})["id"]
            base = f"/api/sessions/{sid}"
            api.ok("POST", base + "/mode", {"mode": "analysis", "color": "white"})

            def san_of(fen, uci):
                api.ok("POST", base + "/load", {"fen": fen})
                return api.ok("POST", base + "/move", {"uci": uci})["moves"][-1]["san"]

            out_lines, seen, n_cand, n_collapse = [], set(), 0, 0
            for path in args.pgn:
                for g, (headers, text) in enumerate(split_games(read_text(path)), 1):
                    if args.player not in (headers.get("White"), headers.get("Black")):
                        continue
                    parity = 0 if headers.get("White") == args.player else 1
                    plies = candidates(ply_scores(text), parity, args.before, args.drop_by, args.window)
                    if not plies:
                        continue
                    n_collapse += 1
                    state = api.ok("POST", base + "/load", {"pgn": text})
                    for p in plies:
                        fen, played = state["fens"][p], state["moves"][p]
                        key = " ".join(fen.split()[:4])
                        if key in seen:
                            continue
                        seen.add(key)
                        n_cand += 1
                        lines = reference(engine, fen, args.nodes, args.multipv)
                        if not lines:
                            continue
                        best_cp = lines[0][0]
                        # The played move's score: its MultiPV line's if it has one (one search
                        # ranks them), else the lower of its own search's and the last line's.
                        listed = [cp for cp, m in lines if m == played["uci"]]
                        if listed:
                            played_cp = listed[0]
                        else:
                            mine = reference(engine, fen, args.nodes, 1, played["uci"])
                            played_cp = min(mine[0][0] if mine else -MATE_CP, lines[-1][0])
                        if best_cp < -150 or best_cp - played_cp < args.min_loss or played_cp > args.max_after:
                            continue
                        bm = [san_of(fen, m) for cp, m in lines if cp >= best_cp - args.tolerance]
                        f = fen.split()  # EPD: four FEN fields, the counters as hmvc and fmvn
                        out_lines.append(f'{" ".join(f[:4])} bm {" ".join(bm)}; hmvc {f[4]}; fmvn {f[5]}; id "{os.path.basename(path)} game {g} ply {p + 1}"; '
                                         f'c0 "best {best_cp}, played {played["san"]} {played_cp}";')
                        print(out_lines[-1], flush=True)
            api.ok("DELETE", base)
        finally:
            server.terminate()
            server.wait()
    engine.close()
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(out_lines) + "\n")
    os.replace(tmp, args.out)
    print(f"{n_collapse} collapses, {n_cand} candidate positions, {len(out_lines)} blunders -> {args.out}")


if __name__ == "__main__":
    main()
