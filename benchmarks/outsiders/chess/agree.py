"""Chess against OpenSpiel's chess, move by move.

python benchmarks/outsiders/chess/agree.py --games 200 --seed 1
python benchmarks/outsiders/chess/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/chess/agree.py perft --depth 3
python benchmarks/outsiders/chess/agree.py perft --depth 3 --random-plies 30 --seed 4
python benchmarks/outsiders/chess/agree.py perft --depth 3 --fen kiwipete

OpenSpiel writes SAN (`Nf3`, `exd6`, `O-O`, `e8=Q+`); its moves' long algebraic form
(`g1f3`, `e1g1`, `e7e8q`) is the definition's notation, with the promotion's letter in
upper case as the pieces' symbols are (`e7e8Q`).
"""

import os
import sys

import pyspiel

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

FENS = {
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
}
KINDS = {"k": "king", "q": "queen", "r": "rook", "b": "bishop", "n": "knight", "p": "pawn"}


def write(state, action: int) -> str:
    lan = pyspiel.chess.action_to_move(action, state.board()).to_lan()
    return lan[:4] + lan[4:].upper()


def position_text(rw_game, fen: str) -> str:
    """The definition's position for a FEN, counted once among those seen, as OpenSpiel
    counts a start position. Its en-passant square is kept only where an enemy pawn
    stands beside the pawn that stepped (as OpenSpiel keeps it)."""
    rows, side, rights, ep_square, quiet = fen.split()[:5]
    board = []
    for row, text in enumerate(rows.split("/")):
        column = 0
        for letter in text:
            if letter.isdigit():
                column += int(letter)
                continue
            site = f"{'abcdefgh'[column]}{8 - row}"
            owner = "white" if letter.isupper() else "black"
            castles = {"a1": "Q", "h1": "K", "a8": "q", "h8": "k"}.get(site, "")
            flag = "[castling=1]" if letter.lower() == "r" and castles and castles in rights else ""
            board.append(f"{site}={owner}.{KINDS[letter.lower()]}{flag}")
            column += 1
    mover = "white" if side == "w" else "black"
    ep = "-"
    if ep_square != "-":
        ep = ep_square[0] + ("4" if ep_square[1] == "3" else "5")
    text = (f"rw2; game chess; ply 0; phase play; turn {mover} move 0; board {' '.join(board)}; "
            f"variables ep={ep} fresh=0 quiet={quiet}")
    made = rw_game.position_text(rw_game.apply(rw_game.initial_state(), "e2e4")).split("seen keys=")[1].split()[0]
    key = rw_game.engine.history_key(rw_game.parse_position(text))
    return f"{text}; seen keys={made} {key}:1"


class FromPosition:
    """A game whose start is another position: OpenSpiel's from a FEN, the
    definition's from the same position as text."""

    def __init__(self, game, start):
        self.game, self.start = game, start

    def __getattr__(self, name):
        return getattr(self.game, name)

    def new_initial_state(self):
        return self.start()

    def initial_state(self):
        return self.start()


def from_fen(fen: str):
    def wrap(rw_game, os_game):
        text = position_text(rw_game, fen)
        return (FromPosition(rw_game, lambda: rw_game.parse_position(text)),
                FromPosition(os_game, lambda: os_game.new_initial_state(fen)))
    return wrap


def main() -> int:
    argv = sys.argv[1:]
    wrap = None
    if "--fen" in argv:
        at = argv.index("--fen")
        fen = argv[at + 1]
        wrap = from_fen(FENS.get(fen, fen))
        del argv[at:at + 2]
    return oracle.main(HERE, "chess", write, argv, wrap=wrap)


if __name__ == "__main__":
    sys.exit(main())
