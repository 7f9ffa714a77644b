"""Shared fixtures of the janus module's tests: the janus binary of the same build (JANUS_BIN, set
by CTest) and small data files it writes once per test session."""
import os
import pathlib
import shutil
import subprocess

import pytest


@pytest.fixture(scope="session")
def janus_bin():
    path = os.environ.get("JANUS_BIN") or shutil.which("janus")
    if not path or not os.access(path, os.X_OK):
        pytest.fail("the janus binary is needed: set JANUS_BIN (CTest does) or put janus on PATH")
    return path


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="session")
def janusdat(janus_bin, tmp_path_factory):
    """A JANUSDAT file of 2 self-play games at 300 nodes a move (version 3 records)."""
    path = tmp_path_factory.mktemp("datagen") / "games.janusdat"
    run(janus_bin, "datagen", "--games", "2", "--nodes", "300", "--threads", "1", "--seed", "7",
        "--max-plies", "60", "--output", str(path), "--quiet")
    return path


@pytest.fixture(scope="session")
def janussp(janus_bin, tmp_path_factory):
    """The JANUSSP chunk of 2 MCTS self-play games (uniform backend, 24 playouts, 30 plies)."""
    out = tmp_path_factory.mktemp("selfplay")
    run(janus_bin, "selfplay", "--output-dir", str(out), "--games", "2", "--chunk-games", "2", "--threads", "1",
        "--backend", "uniform", "--value", "net", "--visits", "24", "--fast-visits", "6", "--max-plies", "30",
        "--seed", "3", "--quiet")
    chunks = sorted(pathlib.Path(out).glob("chunk-*.janussp*"))
    assert len(chunks) == 1, list(pathlib.Path(out).iterdir())
    return chunks[0]
