#!/usr/bin/env python3
"""Fits Janus's score-to-WDL model (UCI_ShowWDL) to self-play results.

usage: tools/wdl-fit.py FILE.jdat[.zst] [...]

Model (the form Stockfish publishes for its WDL output, "WDL model" in Stockfish's
src/uci.cpp and the fishtest WDL_model tool; the numbers here are Janus's own fit):

    P(win)  = 1 / (1 + exp((a - s) / b))        s = score in centipawns, side to move's view
    P(loss) = 1 / (1 + exp((a + s) / b))        P(draw) = 1 - P(win) - P(loss)
    m = material (P 1, N/B 3, R 5, Q 9), clamped to 17..78; a and b are fitted per material bucket
    (width 4) and interpolated linearly between bucket centres (a and b fall with material:
    endgames need a larger advantage to win)

Input: JANUSDAT files from `janus datagen` (docs/tuning.md: 40-byte records, 32 in versions 1 and
2; the first 32 bytes are the position; score White's view,
result 0/1/2 = Black win/draw/White win). Mate and missing scores are skipped. Prints the number
of positions, a per-material-bucket table (positions, fitted a and b, observed and model draw
rate), the mean log-loss of the interpolated model against the data, the same for the table now in
src/search/wdl.cpp (is a refit worth it?), and the C++ table for src/search/wdl.cpp. Then the
calibration of the expected score alone (MCTS's Q = 2E - 1 uses nothing else): the mean
cross-entropy of E against the result (1, 1/2, 0) for the fitted model and the table (E = W + D/2)
and for the logistic E = 1 / (1 + exp(-s / k)) of `MCTS Value Scale` k at k = 187 (train-nnue's
--sigmoid-scale) and at the best k. Pure Python: positions are binned (material, score) first.
"""
import math
import re
import struct
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

PIECE_VALUE = [1, 3, 3, 5, 9, 0, 5]  # codes 0-6: pawn, knight, bishop, rook, queen, king, castling rook
SCORE_BIN = 10  # centipawns per score bin
SCORE_MAX = 2000  # |score| beyond this is not used (the model is flat there anyway)
M_LO, M_HI = 17, 78


def records(path):
    raw = Path(path).read_bytes()
    if raw[:4] == b"\x28\xb5\x2f\xfd":
        raw = subprocess.run(["zstd", "-dc", path], capture_output=True, check=True).stdout
    if raw[:8] != b"JANUSDAT":
        sys.exit(f"{path}: not a JANUSDAT file")
    size = int.from_bytes(raw[10:12], "little")  # 40 in version 3, 32 in versions 1 and 2
    if size not in (32, 40):
        sys.exit(f"{path}: record size {size} (expected 32 or 40)")
    for off in range(32, len(raw) - size + 1, size):
        yield raw[off : off + 32]  # the position part: the fields used here


def material(rec):
    occ = int.from_bytes(rec[:8], "little")
    n = bin(occ).count("1")
    total = 0
    for i in range(n):
        nib = (rec[8 + i // 2] >> (4 * (i % 2))) & 0xF
        total += PIECE_VALUE[nib & 7] if (nib & 7) < 7 else 0
    return total


def sigmoid(x):
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def nll(a, b, bins):
    """Mean negative log-likelihood of (score, w, d, l) bins under the model with a, b."""
    total, n = 0.0, 0
    for s, (w, d, l) in bins.items():
        pw = sigmoid((s - a) / b)
        pl = sigmoid((-s - a) / b)
        pd = max(1e-9, 1.0 - pw - pl)
        total -= w * math.log(max(pw, 1e-9)) + d * math.log(pd) + l * math.log(max(pl, 1e-9))
        n += w + d + l
    return total / max(n, 1)


def fit(bins, a=150.0, b=60.0):
    """Minimises nll over (a, b) by coordinate search with shrinking steps."""
    best = nll(a, b, bins)
    step_a, step_b = 40.0, 20.0
    while step_a > 0.05:
        improved = False
        for da, db in ((step_a, 0), (-step_a, 0), (0, step_b), (0, -step_b)):
            na, nb = a + da, max(5.0, b + db)
            v = nll(na, nb, bins)
            if v < best:
                a, b, best, improved = na, nb, v, True
        if not improved:
            step_a /= 2
            step_b /= 2
    return a, b, best


def interp(m, xs, ys):
    """Linear interpolation of ys between bucket centres xs, constant beyond them."""
    if m <= xs[0]:
        return ys[0]
    if m >= xs[-1]:
        return ys[-1]
    k = next(i for i in range(1, len(xs)) if xs[i] >= m)
    t = (m - xs[k - 1]) / (xs[k] - xs[k - 1])
    return ys[k - 1] + t * (ys[k] - ys[k - 1])


def mean_loss(buckets, xs, as_, bs):
    """Mean log-loss per position of the table (bucket centres xs, a, b) on every bucket's bins."""
    loss, n = 0.0, 0
    for m, bins in buckets.items():
        k = sum(sum(v) for v in bins.values())
        loss += nll(interp(m, xs, as_), interp(m, xs, bs), bins) * k
        n += k
    return loss / max(n, 1)


def score_ce(buckets, expected):
    """Mean cross-entropy of the expected score expected(m, s) against the results (win 1, draw 1/2, loss 0)."""
    total, n = 0.0, 0
    for m, bins in buckets.items():
        for sc, (w, d, l) in bins.items():
            e = min(1 - 1e-9, max(1e-9, expected(m, sc)))
            total -= w * math.log(e) + l * math.log(1 - e) + d * 0.5 * (math.log(e) + math.log(1 - e))
            n += w + d + l
    return total / max(n, 1)


def model_score(xs, as_, bs):
    """E = P(win) + P(draw) / 2 of the model with bucket centres xs and parameters as_, bs."""
    def e(m, s):
        a, b = interp(m, xs, as_), interp(m, xs, bs)
        pw, pl = sigmoid((s - a) / b), sigmoid((-s - a) / b)
        return pw + (1 - pw - pl) / 2
    return e


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    # by material bucket (width 4): score bin (stm view, centre) -> [w, d, l] from the stm's view
    buckets = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    used = skipped = 0
    for path in sys.argv[1:]:
        for rec in records(path):
            score, wdl = struct.unpack_from("<hB", rec, 28)
            if score == -32768 or abs(score) > SCORE_MAX:
                skipped += 1
                continue
            black = rec[24] & 0x80
            s, res = (-score, 2 - wdl) if black else (score, wdl)  # side to move's view
            m = min(M_HI, max(M_LO, material(rec)))
            sb = int(round(s / SCORE_BIN)) * SCORE_BIN
            buckets[m // 4 * 4 + 2][sb][2 - res] += 1  # index 0 win, 1 draw, 2 loss
            used += 1
    print(f"positions used {used}, skipped {skipped} (no score, mate, |score| > {SCORE_MAX})")
    print(f"{'material':>8} {'positions':>9} {'a':>7} {'b':>7} {'draws':>6} {'model':>6}")
    xs, as_, bs = [], [], []
    for m in sorted(buckets):
        bins = buckets[m]
        n = sum(sum(v) for v in bins.values())
        if n < 2000:
            continue
        a, b, _ = fit(bins)
        draws = sum(v[1] for v in bins.values()) / n
        model = sum(sum(v) * (1 - sigmoid((s - a) / b) - sigmoid((-s - a) / b)) for s, v in bins.items()) / n
        print(f"{m:>8} {n:>9} {a:>7.1f} {b:>7.1f} {draws:>6.3f} {model:>6.3f}")
        xs.append(m)
        as_.append(a)
        bs.append(b)
    if not xs:
        sys.exit("no material bucket has 2,000 positions: too few positions to fit")
    print(f"mean log-loss of the interpolated model: {mean_loss(buckets, xs, as_, bs):.4f} per position ({used} positions)")
    current = Path(__file__).resolve().parent.parent / "src" / "search" / "wdl.cpp"
    if current.exists():
        table = [tuple(map(float, t)) for t in re.findall(r"\{(\d+), ([\d.]+), ([\d.]+)\}", current.read_text())]
        if table:
            cx, ca, cb = zip(*table)
            print(f"mean log-loss of the table in {current.name}: {mean_loss(buckets, cx, ca, cb):.4f} per position")
            print(f"expected-score cross-entropy of the table: {score_ce(buckets, model_score(cx, ca, cb)):.4f}")
    print(f"expected-score cross-entropy of the fitted model: {score_ce(buckets, model_score(xs, as_, bs)):.4f}")
    logistic = lambda k: score_ce(buckets, lambda m, sc: sigmoid(sc / k))
    best_k = min(range(50, 1001, 5), key=logistic)
    print(f"expected-score cross-entropy of sigmoid(s / 187): {logistic(187):.4f}; best k {best_k}: {logistic(best_k):.4f}")
    print("C++ (src/search/wdl.cpp): {material, a, b}")
    print("  " + ", ".join(f"{{{m}, {a:.1f}, {b:.1f}}}" for m, a, b in zip(xs, as_, bs)))


if __name__ == "__main__":
    main()
