"""Hand-crafted evaluation, NNUE networks and the .jnn writer (the trainer's quantisation)."""
import pathlib
import re
import subprocess

import numpy as np
import pytest

import janus

NETS = pathlib.Path(__file__).resolve().parents[3] / "nets"
FENS = [
    janus.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
]


def janus_eval(janus_bin, fen, *extra):
    out = subprocess.run([janus_bin, "eval", fen, *extra], check=True, capture_output=True, text=True).stdout
    hce = int(re.search(r"Total \(side to move, \w+\): ([+-]?\d+) cp", out).group(1))
    nnue = re.search(r"NNUE: [+-]?\d+ cp \(White's view\), ([+-]?\d+) cp", out)
    return hce, int(nnue.group(1)) if nnue else None


@pytest.mark.parametrize("fen", FENS)
def test_hce_and_nnue_equal_janus_eval(janus_bin, fen):
    hce, nnue = janus_eval(janus_bin, fen)
    report = janus.hce(fen)
    assert report["cp"] == hce
    assert report["white_cp"] == (hce if janus.Board(fen).turn else -hce)
    assert 0 <= report["phase"] <= 24 and 0 <= report["scale"] <= 128
    assert {"Material", "Mobility"} <= set(report["terms"])
    net = janus.Nnue()
    assert net.evaluate(janus.Board(fen)) == nnue
    assert list(net.evaluate_batch([fen, fen])) == [nnue, nnue]


def test_hce_terms_add_up_to_the_total():
    report = janus.hce(janus.Board(FENS[3]))
    total = sum(t["cp"] for t in report["terms"].values())
    assert abs(total - report["white_cp"]) <= len(report["terms"])  # each term's taper rounds once


def test_default_network_is_the_embedded_one():
    net = janus.Nnue()
    default = (NETS / "default.txt").read_text().strip()
    assert net.file == "embedded " + default and default.startswith(net.name)
    assert janus.Nnue(str(NETS / default)).name == net.name
    assert net.hidden % 16 == 0 and net.output_buckets >= 1 and net.king_buckets >= 1
    assert net.name in net.describe()


def test_python_writer_rewrites_the_default_network_byte_for_byte(tmp_path):
    """read_nnue (dequantise) then write_nnue (the trainer's quantise + writeNetFile) gives the same
    payload, hence the same content hash and name."""
    default = NETS / (NETS / "default.txt").read_text().strip()
    w = janus.read_nnue(str(default))
    assert w["ft_weight"].shape == (768 * w["king_buckets"], janus.Nnue().hidden)
    path = janus.write_nnue(str(tmp_path) + "/", w["ft_weight"], w["ft_bias"], w["out_weight"], w["out_bias"],
                            activation=w["activation"], description="again")
    assert pathlib.Path(path).name == default.name
    assert pathlib.Path(path).read_bytes()[64:] == default.read_bytes()[64:]


def float_eval(w, boards):
    """The float network of write_nnue's docstring in numpy, centipawns for the side to move."""
    feats = janus.nnue_features(boards)
    out = []
    for f, pieces in zip(feats["features"], feats["piece_count"]):
        acc = [w["ft_bias"] + w["ft_weight"][side[side >= 0]].sum(axis=0) for side in f]
        a = np.concatenate([np.clip(x, 0, 1) ** 2 for x in acc])
        buckets = len(w["out_bias"])
        k = min(max(((int(pieces) - 2) * buckets) // 31, 0), buckets - 1)
        out.append(float(a @ w["out_weight"][k] + w["out_bias"][k]) * janus.EVAL_SCALE)
    return np.array(out)


def random_net(rng, hidden=32, buckets=2):
    return {
        "ft_weight": rng.uniform(-0.06, 0.06, (768, hidden)).astype(np.float32),
        "ft_bias": rng.uniform(0.0, 0.3, hidden).astype(np.float32),
        "out_weight": rng.uniform(-0.4, 0.4, (buckets, 2 * hidden)).astype(np.float32),
        "out_bias": rng.uniform(-0.05, 0.05, buckets).astype(np.float32),
    }


def test_written_network_plays_its_float_function(tmp_path):
    w = random_net(np.random.default_rng(5))
    path = janus.write_nnue(str(tmp_path / "net.jnn"), **w)
    net = janus.Nnue(path)
    assert net.hidden == 32 and net.output_buckets == 2 and re.fullmatch(r"nn-[0-9a-f]{16}", net.name)
    boards = [janus.Board(f) for f in FENS]
    engine_cp = net.evaluate_batch(boards)
    assert np.abs(engine_cp - float_eval(w, boards)).max() <= 8, (engine_cp, float_eval(w, boards))
    back = janus.read_nnue(path)
    assert np.abs(back["ft_weight"] - w["ft_weight"]).max() <= 0.5 / 255 + 1e-6
    assert np.abs(back["out_weight"] - w["out_weight"]).max() <= 0.5 / back["qb"] + 1e-6
    result = janus.Engine(options={"EvalFile": path}).search(janus.Board(), depth=3)
    assert result["best"] in janus.Board().legal_moves


def test_write_nnue_rejects_bad_weights(tmp_path):
    w = random_net(np.random.default_rng(1))
    with pytest.raises(ValueError, match=r"ft_bias: shape \(16\), expected \(32\)"):
        janus.write_nnue(str(tmp_path / "a.jnn"), **{**w, "ft_bias": w["ft_bias"][:16]})
    with pytest.raises(ValueError, match="768 x king buckets"):
        janus.write_nnue(str(tmp_path / "a.jnn"), **{**w, "ft_weight": w["ft_weight"][:700]})
    with pytest.raises(ValueError, match="WEIGHT_CLIP"):
        janus.write_nnue(str(tmp_path / "a.jnn"), **{**w, "out_bias": w["out_bias"] + 5})
    with pytest.raises(ValueError, match="not finite"):
        janus.write_nnue(str(tmp_path / "a.jnn"), **{**w, "ft_bias": w["ft_bias"] * np.nan})
    with pytest.raises(ValueError, match="hidden"):
        janus.write_nnue(str(tmp_path / "a.jnn"), w["ft_weight"][:, :20], w["ft_bias"][:20],
                         w["out_weight"][:, :40], w["out_bias"])
    with pytest.raises(ValueError, match="activation"):
        janus.write_nnue(str(tmp_path / "a.jnn"), **w, activation="relu")
    with pytest.raises(OSError):
        janus.write_nnue(str(tmp_path / "no" / "such" / "dir" / "a.jnn"), **w)
    assert not list(tmp_path.iterdir())


def test_wrong_network_files_raise_os_error(tmp_path, janusdat):
    good = janus.write_nnue(str(tmp_path / "good.jnn"), **random_net(np.random.default_rng(2)))
    data = pathlib.Path(good).read_bytes()
    (tmp_path / "truncated.jnn").write_bytes(data[: len(data) // 2])
    (tmp_path / "garbage.jnn").write_bytes(b"\x00" * 200)
    corrupted = bytearray(data)
    corrupted[100] ^= 0xFF
    (tmp_path / "corrupted.jnn").write_bytes(bytes(corrupted))
    cases = {"missing.jnn": "cannot open", "truncated.jnn": "truncated", "garbage.jnn": "magic",
             "corrupted.jnn": "corrupted"}
    for name, why in cases.items():
        for load in (janus.Nnue, janus.read_nnue):
            with pytest.raises(OSError, match=why):
                load(str(tmp_path / name))
    with pytest.raises(OSError, match="magic"):
        janus.Nnue(str(janusdat))  # a data file is not a network
    with pytest.raises(OSError, match="truncated"):
        janus.Engine(options={"EvalFile": str(tmp_path / "truncated.jnn")})
    engine = janus.Engine()
    with pytest.raises(OSError, match="cannot open"):
        engine.set_option("EvalFile", str(tmp_path / "missing.jnn"))
    assert engine.search(janus.Board(), depth=2)["best"] is not None  # the engine kept its network
