"""Janus chess engine from Python (docs/python.md).

Positions and rules (Board, with python-chess's method names; moves are UCI strings), perft,
the MCTS face's input planes and 1858-entry policy vector (Board.planes, encode_planes,
legal_masks, Board.policy_index / policy_move), the NNUE inputs (nnue_features), the hand-crafted
evaluation with its terms (hce) and NNUE networks (Nnue), both search faces (Engine), Janus
training data (read_janusdat, NnueBatches, read_selfplay, SelfplayBatches; PyTorch datasets in
janus.torch_data when torch is importable), and the way back: write_nnue writes a network trained
in PyTorch as a .jnn that the engine plays (EvalFile), through the C++ trainer's quantisation and
file writer.

Errors: ValueError for a bad FEN, move or argument, OSError for a file that cannot be read or
written or whose content is malformed, each naming the problem. Searches release the GIL; Ctrl-C
or Engine.stop() from another thread stops them.

python-chess is optional: Board(chess_board) and Board.to_chess() use it when it is installed.
"""
from ._janus import (  # noqa: F401
    __version__,
    BASE_PLANES,
    Board,
    Engine,
    EVAL_SCALE,
    NNUE_INPUTS,
    Nnue,
    NnueBatches,
    POLICY_SIZE,
    SCORE_NONE,
    STARTING_FEN,
    SelfplayBatches,
    WEIGHT_CLIP,
    encode_planes,
    hce,
    legal_masks,
    nnue_features,
    plane_names,
    policy_move_name,
    read_janusdat,
    read_nnue,
    read_selfplay,
    write_nnue,
)

__all__ = [
    "BASE_PLANES", "Board", "Engine", "EVAL_SCALE", "NNUE_INPUTS", "Nnue", "NnueBatches", "POLICY_SIZE",
    "SCORE_NONE", "STARTING_FEN", "SelfplayBatches", "WEIGHT_CLIP", "encode_planes", "hce", "legal_masks",
    "nnue_features", "plane_names", "policy_move_name", "read_janusdat", "read_nnue", "read_selfplay",
    "write_nnue",
]
