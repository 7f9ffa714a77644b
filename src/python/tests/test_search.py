"""Both search faces: results, limits, stop from another thread, Ctrl-C, the GIL, bad input."""
import signal
import threading
import time

import pytest

import janus

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"


def test_alphabeta_depth_search():
    r = janus.Engine().search(janus.Board(), depth=6)
    assert r["best"] in janus.Board().legal_moves and r["pv"][0] == r["best"]
    assert r["depth"] == 6 and r["nodes"] > 0 and r["mate"] is None and abs(r["score_cp"]) < 200
    assert sum(r["wdl"]) == 1000 and r["visits"] == []


def test_mate_score_and_hce_option():
    r = janus.Engine(options={"Use NNUE": False, "Hash": 8}).search(MATE_IN_ONE, depth=4)
    assert r["best"] == "a1a8" and r["mate"] == 1 and r["score_cp"] is None
    assert r["wdl"] == (1000, 0, 0)


def test_nodes_and_movetime_limits():
    engine = janus.Engine()
    r = engine.search(janus.Board(), nodes=2000)
    assert 0 < r["nodes"] <= 2100
    start = time.monotonic()
    engine.new_game()
    r = engine.search(janus.Board(), movetime=0.2)
    assert time.monotonic() - start < 2.0 and r["best"] is not None


def test_mcts_search_reports_root_visits():
    r = janus.Engine("mcts").search(janus.Board(), nodes=200)
    legal = set(janus.Board().legal_moves)
    moves = [m for m, _, _, _ in r["visits"]]
    assert r["best"] == moves[0] and set(moves) == legal, "every root move, the chosen one first"
    visits = [v for _, v, _, _ in r["visits"]]
    assert visits == sorted(visits, reverse=True)
    # N counts playouts: a new tree's root holds its own expansion plus one visit per playout below
    # it; go nodes bounds the playouts and the hints' alpha-beta nodes together.
    assert 0 < r["playouts"] <= r["nodes"] <= 200 and sum(visits) + 1 == r["playouts"]
    assert abs(sum(p for _, _, p, _ in r["visits"]) - 1.0) < 1e-3, "the network's priors, not raised by hints"
    assert all(0.0 <= p <= 1.0 and -1.0 <= q <= 1.0 for _, _, p, q in r["visits"])
    assert r["wdl"] is not None and sum(r["wdl"]) == 1000
    assert janus.Engine().search(janus.Board(), depth=3)["playouts"] is None


def test_stop_from_another_thread():
    engine = janus.Engine()
    threading.Timer(0.3, engine.stop).start()
    start = time.monotonic()
    r = engine.search(janus.Board(), infinite=True)
    assert time.monotonic() - start < 5.0 and r["best"] in janus.Board().legal_moves


def test_search_releases_the_gil():
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.005)

    t = threading.Thread(target=tick)
    t.start()
    try:
        janus.Engine().search(janus.Board(), movetime=0.5)
    finally:
        stop.set()
        t.join()
    assert len(ticks) > 20


def test_ctrl_c_interrupts_a_search():
    """SIGINT (Ctrl-C, a notebook's interrupt) stops a search that has no limit: KeyboardInterrupt."""
    threading.Timer(0.3, signal.raise_signal, args=(signal.SIGINT,)).start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        janus.Engine().search(janus.Board(), infinite=True)
    assert time.monotonic() - start < 5.0
    engine = janus.Engine("mcts")
    threading.Timer(0.3, signal.raise_signal, args=(signal.SIGINT,)).start()
    with pytest.raises(KeyboardInterrupt):
        engine.search(janus.Board(), infinite=True)
    assert engine.search(janus.Board(), nodes=50)["best"] is not None  # the engine is usable afterwards


def test_one_search_at_a_time():
    engine = janus.Engine()
    threading.Timer(0.5, engine.stop).start()
    errors = []

    def second():
        time.sleep(0.1)
        try:
            engine.search(janus.Board(), depth=1)
        except ValueError as e:
            errors.append(str(e))

    t = threading.Thread(target=second)
    t.start()
    engine.search(janus.Board(), infinite=True)
    t.join()
    assert errors and "already running" in errors[0]


def test_bad_search_input():
    engine = janus.Engine()
    with pytest.raises(ValueError, match="give depth, nodes or movetime"):
        engine.search(janus.Board())
    with pytest.raises(ValueError, match="depth"):
        engine.search(janus.Board(), depth=0)
    with pytest.raises(ValueError, match="movetime"):
        engine.search(janus.Board(), movetime=-1)
    with pytest.raises(ValueError):
        engine.search("8/8/8/8/8/8/8/8 w - - 0 1", depth=1)
    with pytest.raises(ValueError):
        janus.Engine(options={"No Such Option": 1})
    with pytest.raises(ValueError):
        janus.Engine("minimax")
    with pytest.raises(ValueError):
        engine.set_option("Hash", "lots")
    engine.set_option("Hash", 4)
    stalemate = engine.search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth=2)
    assert stalemate["best"] is None
