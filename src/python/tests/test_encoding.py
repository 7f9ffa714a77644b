"""Input planes, policy indices, legal masks and NNUE inputs."""
import numpy as np
import pytest

import janus
from pure_python_encoder import encode_fen

FENS = [
    janus.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 13 20",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
]


def test_planes_shape_dtype_and_orientation():
    p = janus.Board().planes()
    assert p.shape == (119, 8, 8) and p.dtype == np.float32 and p.flags.c_contiguous
    assert p[0, 1].all() and p[0].sum() == 8  # own pawns on the mover's second rank
    assert p[5, 0, 4] == 1 and p[11, 7, 4] == 1  # own king e1, their king e8
    assert not p[112].any() and p[113:117].all() and p[118].all()
    b = janus.Board()
    b.push("e2e4")
    q = b.planes()
    assert q[112].all()  # Black to move
    assert q[0, 1].sum() == 8  # Black's view: its own pawns on its second rank
    assert q[6, 4, 4] == 1 and q[6, 6, 4] == 0  # White's e4 pawn, ranks mirrored (e4 -> index 4)
    assert q[14 + 6, 6].sum() == 8 and q[14 + 6, 6, 4] == 1  # one ply earlier: White's pawn still on e2
    assert janus.Board().planes(pins=True, control=True, pawns=True, mobility=True).shape == (129, 8, 8)
    assert len(janus.plane_names()) == 119 and janus.plane_names()[118][0] == "ones"
    assert len(janus.plane_names(pawns=True)) == 123
    with pytest.raises(ValueError, match="history"):
        janus.Board().planes(history=9)


@pytest.mark.parametrize("fen", FENS)
def test_pure_python_encoder_matches(fen):
    assert np.array_equal(np.asarray(encode_fen(fen), dtype=np.float32).reshape(119, 8, 8), janus.Board(fen).planes())


def test_batch_equals_single_and_accepts_fens():
    boards = [janus.Board(f) for f in FENS]
    batch = janus.encode_planes(boards)
    assert batch.shape == (len(FENS), 119, 8, 8)
    for i, b in enumerate(boards):
        assert np.array_equal(batch[i], b.planes())
    assert np.array_equal(janus.encode_planes(FENS), batch)
    assert janus.encode_planes([]).shape == (0, 119, 8, 8)
    with pytest.raises(ValueError):
        janus.encode_planes([janus.STARTING_FEN, "bad fen"])
    with pytest.raises(TypeError, match="one position"):
        janus.encode_planes(janus.STARTING_FEN)


@pytest.mark.parametrize("fen", FENS)
def test_policy_index_round_trip_and_masks(fen):
    b = janus.Board(fen)
    indices = [b.policy_index(m) for m in b.legal_moves]
    assert len(set(indices)) == len(indices) and all(0 <= i < janus.POLICY_SIZE for i in indices)
    assert [b.policy_move(i) for i in indices] == b.legal_moves
    mask = b.legal_mask()
    assert mask.dtype == np.bool_ and mask.shape == (1858,) and mask.sum() == len(indices)
    assert np.array_equal(np.flatnonzero(mask), sorted(indices))


def test_policy_layout_and_errors():
    assert janus.policy_move_name(0) == "a1b1" and janus.policy_move_name(1857) == "h7h8b"
    b = janus.Board()
    assert b.policy_index("g1f3") == b.policy_index("g1f3")
    black = janus.Board()
    black.push("e2e4")
    assert black.policy_index("e7e5") == b.policy_index("e2e4")  # the side to move's view
    masks = janus.legal_masks([b, black])
    assert masks.shape == (2, 1858) and masks.sum() == 40
    with pytest.raises(ValueError, match="not a legal move"):
        b.policy_move(0)  # a1b1: the rook is blocked
    with pytest.raises(ValueError, match="outside 0..1857"):
        b.policy_move(1858)
    with pytest.raises(ValueError, match="illegal"):
        b.policy_index("e2e5")


def test_nnue_features():
    f = janus.nnue_features([janus.Board()])
    feats, pieces = f["features"], f["piece_count"]
    assert feats.shape == (1, 2, 32) and feats.dtype == np.int16 and pieces[0] == 32
    white = sorted(feats[0, 0])
    assert white[0] == 8 and (feats >= 0).all() and (feats < 768).all()  # a2 pawn: 0 * 64 + 8
    b = janus.Board()
    b.push("e2e4")
    g = janus.nnue_features([b])["features"][0]
    assert 384 + 36 in g[0]  # Black to move: White's e4 pawn is an opponent pawn on e5 in Black's view
    assert 28 in g[1]  # and White's own pawn on e4 in White's view
    assert (janus.nnue_features(["8/8/8/8/8/8/8/K1k5 w - - 0 1"])["features"][0, :, 2:] == -1).all()
    assert janus.nnue_features([janus.Board()], king_buckets=4)["features"].max() < 4 * 768
    with pytest.raises(ValueError, match="king_buckets"):
        janus.nnue_features([janus.Board()], king_buckets=3)
