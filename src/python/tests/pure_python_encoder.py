"""The MCTS face's input planes of one position from its FEN, in plain Python (no numpy in the
loop, no python-chess): the comparison encoder of docs/python.md's speed figure. A FEN has no
history, so the result equals janus.Board(fen).planes() (history planes 14..111 zero, no
repetitions); standard castling letters KQkq only."""
PIECES = "PNBRQK"


def encode_fen(fen):
    """119 planes of 64 floats (list of lists), oriented to the side to move (docs/encoding.md)."""
    fields = fen.split()
    board, turn, castling = fields[0], fields[1], fields[2]
    halfmove = int(fields[4]) if len(fields) > 4 else 0
    black = turn == "b"
    planes = [[0.0] * 64 for _ in range(119)]
    rank, file = 7, 0
    for ch in board:
        if ch == "/":
            rank, file = rank - 1, 0
        elif ch.isdigit():
            file += int(ch)
        else:
            square = rank * 8 + file
            if black:
                square ^= 56
            own = ch.isupper() != black
            planes[PIECES.index(ch.upper()) + (0 if own else 6)][square] = 1.0
            file += 1
    ones = [1.0] * 64
    if black:
        planes[112] = ones[:]
    rights = "kqKQ" if black else "KQkq"  # own king side, own queen side, theirs
    for i, letter in enumerate(rights):
        if letter in castling:
            planes[113 + i] = ones[:]
    planes[117] = [halfmove / 100.0] * 64
    planes[118] = ones[:]
    return planes
