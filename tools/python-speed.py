#!/usr/bin/env python3
"""Speed of the janus Python module against the engine and against plain Python (docs/python.md):

1. perft 5 of the start position through the module (janus.Board().perft(5)) and `janus perft 5`,
   alternately in the same run, best of --repeats each;
2. input planes per second of janus.encode_planes (from janus.Board objects and from FEN strings)
   and of a plain-Python encoder of the same planes from the FEN (src/python/tests/
   pure_python_encoder.py; python-chess is not used: it is not packaged for Debian 12), on the
   positions of seeded random games.

  PYTHONPATH=build/python /usr/bin/python3 tools/python-speed.py [--janus build/janus] [--positions 4000]
"""
import argparse
import pathlib
import random
import re
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "src" / "python" / "tests"))
import janus  # noqa: E402
from pure_python_encoder import encode_fen  # noqa: E402


def perft_binary(binary, depth):
    start = time.perf_counter()
    out = subprocess.run([binary, "perft", str(depth)], check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    nodes = int(re.search(r"Nodes searched: (\d+)", out).group(1))
    ms = int(re.search(r"Time: (\d+) ms", out).group(1))
    return nodes, ms / 1000.0, wall


def perft_module(depth):
    start = time.perf_counter()
    nodes = janus.Board().perft(depth)
    return nodes, time.perf_counter() - start


def random_positions(count, seed):
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        b = janus.Board()
        for _ in range(rng.randrange(10, 120)):
            moves = b.legal_moves
            if not moves or b.is_game_over():
                break
            b.push(rng.choice(moves))
            boards.append(b.copy())
    return boards[:count]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--janus", default="build/janus")
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--positions", type=int, default=4000)
    a = ap.parse_args()

    print(f"== perft {a.depth} of the start position, best of {a.repeats}")
    binary, module = [], []
    for _ in range(a.repeats):
        nodes_b, secs_b, wall_b = perft_binary(a.janus, a.depth)
        nodes_m, secs_m = perft_module(a.depth)
        assert nodes_b == nodes_m, (nodes_b, nodes_m)
        binary.append(secs_b)
        module.append(secs_m)
        print(f"janus perft: {secs_b * 1000:.0f} ms (process {wall_b * 1000:.0f} ms); module: {secs_m * 1000:.0f} ms")
    b, m = min(binary), min(module)
    print(f"nodes {nodes_m}: janus perft {nodes_m / b / 1e6:.1f} Mnps, module {nodes_m / m / 1e6:.1f} Mnps, "
          f"module / binary time = {m / b:.3f}")

    print(f"== input planes of {a.positions} positions of seeded random games (119 planes each)")
    boards = random_positions(a.positions, 1)
    fens = [bd.fen() for bd in boards]
    start = time.perf_counter()
    pure = np.asarray([encode_fen(f) for f in fens], dtype=np.float32).reshape(len(fens), 119, 8, 8)
    t_pure = time.perf_counter() - start
    times = {}
    for name, arg in (("Boards", boards), ("FENs", fens)):
        best = float("inf")
        for _ in range(a.repeats):
            start = time.perf_counter()
            planes = janus.encode_planes(arg)
            best = min(best, time.perf_counter() - start)
        times[name] = best
    assert np.array_equal(janus.encode_planes(fens), pure), "the two encoders disagree"
    n = len(fens)
    print(f"pure Python from FEN: {n / t_pure:,.0f} positions/s ({119 * n / t_pure:,.0f} planes/s)")
    for name, t in times.items():
        print(f"janus.encode_planes from {name}: {n / t:,.0f} positions/s ({119 * n / t:,.0f} planes/s), "
              f"{t_pure / t:.0f}x the pure-Python encoder")
    del planes


if __name__ == "__main__":
    main()
