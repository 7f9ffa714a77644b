"""JANUSDAT and JANUSSP files as numpy arrays, batch iterators and PyTorch datasets."""
import subprocess

import numpy as np
import pytest

import janus


def test_read_janusdat(janusdat):
    d = janus.read_janusdat(str(janusdat))
    n = len(d["fen"])
    assert n > 20 and all(len(d[k]) == n for k in d)
    assert d["score"].dtype == np.int16 and d["result"].dtype == np.uint8
    assert set(np.unique(d["result"])) <= {0, 1, 2} and (d["game_end"] >= 0).sum() == 2  # two games
    for fen, played, stm in zip(d["fen"], d["played"], d["stm"]):
        b = janus.Board(fen)
        assert b.turn == (stm == 0)
        assert played == "" or played in b.legal_moves
    assert len(janus.read_janusdat(str(janusdat), limit=5)["fen"]) == 5


def test_zstd_janusdat_reads_as_plain(janusdat, tmp_path):
    zst = tmp_path / "games.janusdat.zst"
    subprocess.run(["zstd", "-q", "-o", str(zst), str(janusdat)], check=True)
    plain, packed = janus.read_janusdat(str(janusdat)), janus.read_janusdat(str(zst))
    assert packed["fen"] == plain["fen"] and np.array_equal(packed["score"], plain["score"])
    assert [len(b["score"]) for b in janus.NnueBatches(zst, batch_size=64)] == \
        [len(b["score"]) for b in janus.NnueBatches(janusdat, batch_size=64)]


def test_nnue_batches_filter_as_the_trainer(janusdat):
    total = len(janus.read_janusdat(str(janusdat))["fen"])
    it = janus.NnueBatches(str(janusdat), batch_size=16)
    batches = list(it)
    stats = it.stats()
    assert stats["records"] == total and stats["kept"] == sum(len(b["score"]) for b in batches)
    assert stats["kept"] + sum(stats["dropped"].values()) == total and stats["kept"] > 0
    assert all(len(b["score"]) == 16 for b in batches[:-1]) and 0 < len(batches[-1]["score"]) <= 16
    b = batches[0]
    assert b["features"].shape == (16, 2, 32) and b["features"].dtype == np.int16
    assert (np.abs(b["score"]) <= 3000).all() and set(np.unique(b["result"])) <= {0.0, 0.5, 1.0}
    assert ((b["features"] >= 0).sum(axis=2) == b["piece_count"][:, None]).all()
    kept_all = janus.NnueBatches([janusdat, janusdat], batch_size=1000, max_score=30000, keep_noisy=True)
    assert sum(len(x["score"]) for x in kept_all) >= 2 * stats["kept"]


def test_truncated_and_wrong_data_files_raise_os_error(janusdat, janussp, tmp_path):
    data = janusdat.read_bytes()
    (tmp_path / "truncated.janusdat").write_bytes(data[: len(data) - 17])
    (tmp_path / "header.janusdat").write_bytes(data[:20])
    (tmp_path / "text.janusdat").write_text("not a data file\n" * 10)
    with pytest.raises(OSError, match="truncated"):
        janus.read_janusdat(str(tmp_path / "truncated.janusdat"))
    with pytest.raises(OSError, match="truncated"):
        list(janus.NnueBatches(str(tmp_path / "truncated.janusdat"), batch_size=8))
    with pytest.raises(OSError, match="header"):
        janus.read_janusdat(str(tmp_path / "header.janusdat"))
    with pytest.raises(OSError, match="not a Janus data file"):
        janus.NnueBatches(str(tmp_path / "text.janusdat"))
    with pytest.raises(OSError, match="cannot open"):
        janus.read_janusdat(str(tmp_path / "missing.janusdat"))
    with pytest.raises(OSError):
        janus.read_janusdat(str(janussp))  # a self-play file is not JANUSDAT
    sp = janussp.read_bytes()
    plain = tmp_path / "sp.janussp"
    plain.write_bytes(sp if not janussp.name.endswith(".zst") else _zstd_decompress(sp))
    (tmp_path / "truncated.janussp").write_bytes(plain.read_bytes()[:-7])
    with pytest.raises(OSError, match="truncated"):
        janus.read_selfplay(str(tmp_path / "truncated.janussp"))
    with pytest.raises(OSError, match="truncated"):
        list(janus.SelfplayBatches(str(tmp_path / "truncated.janussp")))
    with pytest.raises(OSError):
        janus.SelfplayBatches(str(janusdat))
    with pytest.raises(ValueError, match="batch_size"):
        janus.NnueBatches(str(janusdat), batch_size=0)


def _zstd_decompress(data):
    return subprocess.run(["zstd", "-dc"], input=data, check=True, capture_output=True).stdout


def test_read_selfplay(janussp):
    games = janus.read_selfplay(str(janussp))
    assert len(games) == 2
    for g in games:
        b = janus.Board(g["start_fen"])
        for m in g["moves"]:
            b.push(m)
        assert g["result"] in ("1-0", "0-1", "1/2-1/2") and len(g["q"]) == len(g["moves"]) > 0
        assert g["result"] == b.result() or not b.is_game_over()
        assert any(g["full_search"])


def test_selfplay_batches(janussp):
    games = janus.read_selfplay(str(janussp))
    full = sum(sum(g["full_search"]) for g in games)
    batches = list(janus.SelfplayBatches(str(janussp), batch_size=8))
    assert sum(len(b["value"]) for b in batches) == full
    b = batches[0]
    assert b["planes"].shape == (8, 119, 8, 8) and b["policy"].shape == (8, 1858)
    assert np.allclose(b["policy"].sum(axis=1), 1.0, atol=1e-3) and b["full_search"].all()
    assert not (b["policy"] * ~b["legal"]).any()  # visits only on legal moves
    assert set(np.unique(b["value"])) <= {-1.0, 0.0, 1.0}
    every = list(janus.SelfplayBatches(janussp, batch_size=10_000, all_positions=True))
    assert len(every) == 1 and len(every[0]["value"]) == sum(len(g["moves"]) for g in games)
    replay = janus.Board(games[0]["start_fen"])  # the planes carry the game's history
    for i, move in enumerate(games[0]["moves"][:12]):
        assert np.array_equal(every[0]["planes"][i], replay.planes()), i
        assert every[0]["policy"][i, replay.policy_index(move)] > 0 or every[0]["full_search"][i]
        replay.push(move)


def test_torch_datasets(janusdat, janussp):
    torch = pytest.importorskip("torch")
    from janus.torch_data import NnueDataset, SelfplayDataset
    loader = torch.utils.data.DataLoader(NnueDataset([janusdat], batch_size=32), batch_size=None)
    epochs = [[b["score"].shape[0] for b in loader] for _ in range(2)]
    assert epochs[0] == epochs[1] and sum(epochs[0]) > 0
    batch = next(iter(loader))
    assert batch["features"].dtype == torch.int64 and batch["features"].shape[1:] == (2, 32)
    sp = next(iter(torch.utils.data.DataLoader(SelfplayDataset(janussp, batch_size=4), batch_size=None)))
    assert sp["planes"].shape == (4, 119, 8, 8) and sp["legal"].dtype == torch.bool
