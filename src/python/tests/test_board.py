"""janus.Board: FEN, moves, notation, game ends, perft, python-chess interop, bad input."""
import copy

import pytest

import janus

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def test_start_position():
    b = janus.Board()
    assert b.fen() == janus.STARTING_FEN
    assert b.turn is True and not b.chess960
    assert len(b.legal_moves) == 20 and "e2e4" in b.legal_moves and "g1f3" in b.legal_moves
    assert sorted(b.legal_moves_san()) == sorted(b.san(m) for m in b.legal_moves)
    assert repr(b) == f"janus.Board('{janus.STARTING_FEN}')"


def test_push_pop_and_san():
    b = janus.Board()
    assert b.push_san("e4") == "e2e4"
    b.push_uci("e7e5")
    assert b.push_san("Nf3") == "g1f3"
    assert b.san("b8c6") == "Nc6" and b.parse_san("Nc6") == "b8c6"
    assert b.move_stack == ["e2e4", "e7e5", "g1f3"] and b.peek() == "g1f3"
    assert b.turn is False and b.fullmove_number == 2 and b.ply == 3
    assert b.pop() == "g1f3" and b.pop() == "e7e5" and b.pop() == "e2e4"
    assert b.fen() == janus.STARTING_FEN
    with pytest.raises(IndexError, match="no pushed moves"):
        b.pop()


def test_copy_is_independent():
    b = janus.Board()
    b.push("d2d4")
    c = b.copy()
    c.push("d7d5")
    assert b.move_stack == ["d2d4"] and c.move_stack == ["d2d4", "d7d5"]
    assert copy.deepcopy(c) == c and copy.copy(b).fen() == b.fen()


def test_castling_and_promotion_notation():
    b = janus.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert "e1g1" in b.legal_moves and "e1c1" in b.legal_moves
    assert b.san("e1g1") == "O-O" and b.parse_san("O-O-O") == "e1c1"
    p = janus.Board("7k/P7/8/8/8/8/8/K7 w - - 0 1")
    assert {"a7a8q", "a7a8r", "a7a8b", "a7a8n"} <= set(p.legal_moves)
    assert p.san("a7a8q") == "a8=Q+"


def test_chess960_moves_are_king_takes_rook():
    b = janus.Board("4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1", chess960=True)
    assert b.chess960
    assert {"e1g1", "e1b1"} <= set(b.legal_moves)  # castling: the king takes its rook
    assert b.san("e1b1") == "O-O-O" and b.san("e1g1") == "O-O"
    b.push_san("O-O-O")
    assert b.fen().startswith("4k3/8/8/8/8/8/8/2KR2R1 b") and b.move_stack == ["e1b1"]


def test_game_ends():
    mate = janus.Board()
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        mate.push(m)
    assert mate.is_check() and mate.is_checkmate() and mate.is_game_over()
    assert mate.result() == "0-1"
    assert mate.outcome() == {"termination": "checkmate", "winner": False, "result": "0-1"}
    stalemate = janus.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.is_stalemate() and stalemate.result() == "1/2-1/2"
    assert stalemate.outcome()["termination"] == "stalemate"
    assert janus.Board("8/8/8/8/8/8/8/K1k4B w - - 0 1").is_insufficient_material()
    assert janus.Board("7R/8/8/8/8/8/8/K1k5 w - - 100 80").is_fifty_moves()
    rep = janus.Board()
    assert rep.outcome() is None and rep.result() == "*" and rep.is_repetition(1)
    for _ in range(2):
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"]:
            rep.push(m)
    assert rep.is_repetition(3) and not rep.is_repetition(4)
    assert rep.outcome()["termination"] == "threefold repetition"


@pytest.mark.parametrize("fen,depth,nodes", [
    (janus.STARTING_FEN, 1, 20), (janus.STARTING_FEN, 3, 8902), (janus.STARTING_FEN, 4, 197281),
    (KIWIPETE, 3, 97862), ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238),
])
def test_perft(fen, depth, nodes):
    assert janus.Board(fen).perft(depth) == nodes


def test_divide_sums_to_perft():
    split = janus.Board(KIWIPETE).divide(2)
    assert len(split) == 48 and sum(split.values()) == 2039


def test_bad_fen_raises_value_error_naming_the_problem():
    with pytest.raises(ValueError, match="en passant"):
        janus.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1")
    with pytest.raises(ValueError, match="king"):
        janus.Board("8/8/8/8/8/8/8/8 w - - 0 1")
    with pytest.raises(ValueError):
        janus.Board("not a fen")
    with pytest.raises(ValueError):
        janus.Board("")


def test_illegal_move_raises_value_error_and_keeps_the_board():
    b = janus.Board()
    with pytest.raises(ValueError, match="illegal move 'e2e5'"):
        b.push_uci("e2e5")
    with pytest.raises(ValueError, match="not a UCI move"):
        b.push("hello")
    with pytest.raises(ValueError):
        b.push_san("Qxf7")
    with pytest.raises(ValueError):
        b.san("e1e2")
    assert b.fen() == janus.STARTING_FEN and b.move_stack == []
    assert b.is_legal("e2e4") and not b.is_legal("e2e5") and not b.is_legal("zz")
    with pytest.raises(ValueError, match="outside 0..20"):
        b.perft(-1)
    with pytest.raises(TypeError):
        janus.Board(42)


class _Move:
    def __init__(self, uci):
        self._uci = uci

    def uci(self):
        return self._uci


class _DuckChessBoard:
    """What Board() reads of a python-chess Board: root().fen(), move_stack, chess960."""
    chess960 = False

    def __init__(self, root_fen, moves):
        self._root, self.move_stack = root_fen, [_Move(m) for m in moves]

    def root(self):
        return _DuckChessBoard(self._root, [])

    def fen(self):
        return self._root


def test_board_from_a_python_chess_like_object_keeps_the_history():
    b = janus.Board(_DuckChessBoard(janus.STARTING_FEN, ["g1f3", "g8f6", "f3g1", "f6g8"] * 2))
    assert b.move_stack[-1] == "f6g8" and b.is_repetition(3)
    assert b.planes()[12].all()  # the current position occurred before: repetition plane of h = 0
    with pytest.raises(ValueError, match="move 1 of the move stack"):
        janus.Board(_DuckChessBoard(janus.STARTING_FEN, ["e2e5"]))


def test_python_chess_round_trip():
    chess = pytest.importorskip("chess")
    cb = chess.Board()
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5"]:
        cb.push_san(san)
    b = janus.Board(cb)
    assert b.fen() == cb.fen() and b.move_stack == [m.uci() for m in cb.move_stack]
    assert sorted(b.legal_moves) == sorted(m.uci() for m in cb.legal_moves)
    assert b.to_chess().fen() == cb.fen()


def test_ctrl_c_interrupts_a_long_perft():
    import signal
    import threading
    import time
    threading.Timer(0.3, signal.raise_signal, args=(signal.SIGINT,)).start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        janus.Board().perft(8)  # 84,998,978,956 leaves: minutes
    assert time.monotonic() - start < 5.0
