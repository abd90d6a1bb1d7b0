"""Chess against OpenSpiel's chess, move by move.

python benchmarks/outsiders/chess/agree.py --games 200 --seed 1
python benchmarks/outsiders/chess/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/chess/agree.py perft --depth 3
python benchmarks/outsiders/chess/agree.py perft --depth 3 --random-plies 30 --seed 4
python benchmarks/outsiders/chess/agree.py perft --depth 3 --fen kiwipete
python benchmarks/outsiders/chess/agree.py positions --games 20 --seed 1
python benchmarks/outsiders/chess/agree.py speed --first-form   (any mode: the first form)

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
# Positions random games from the start seldom reach, for `agree.py positions`: the
# material draws one capture away (bishops on one colour or on both, a knight each,
# two knights), a mate on the hundredth quiet move (a mate, not a draw), castling
# rights with attacked squares and rooks to be taken, en passant (with the double
# step past an enemy pawn and not), a stalemate one move away.
POSITIONS = [
    "8/8/3bk3/8/2b5/8/4KB2/8 w - - 0 1",
    "8/8/4kb2/8/8/3B4/4KB2/8 b - - 0 1",
    "8/2n5/4k3/8/8/3N4/4K3/6N1 w - - 0 1",
    "8/8/4k3/3b4/8/2NN4/4K3/8 w - - 0 1",
    "k7/8/1K6/8/8/8/8/7R w - - 99 80",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/3b4/8/8/3B4/8/R3K2R b Kq - 0 1",
    "4k3/2p5/8/3P4/8/8/4P3/4K3 b - - 0 1",
    "4k3/8/8/8/5p2/8/4P1P1/4K3 w - - 0 1",
    "7k/8/6Q1/8/8/8/8/K7 w - - 0 1",
]
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


def positions(definition: str, argv) -> int:
    parser = oracle.arguments("chess from chosen positions against OpenSpiel")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    failures = 0
    for number, fen in enumerate(POSITIONS):
        rw_game, os_game = oracle.games_from(definition, "chess", args, None, None, from_fen(fen))
        plies, problems = oracle.play_and_compare(rw_game, os_game, write, args.games, args.seed + number)
        print(f"position {number} ({fen}): {args.games} games, {plies} plies, {len(problems)} disagreements")
        for problem in problems[:3]:
            print(problem)
        failures += len(problems)
    return 1 if failures else 0


def main() -> int:
    argv = sys.argv[1:]
    definition = HERE
    if "--first-form" in argv:
        argv.remove("--first-form")
        definition = os.path.join(HERE, "first_form")
    if argv[:1] == ["positions"]:
        return positions(definition, argv[1:])
    wrap = None
    if "--fen" in argv:
        at = argv.index("--fen")
        fen = argv[at + 1]
        wrap = from_fen(FENS.get(fen, fen))
        del argv[at:at + 2]
    return oracle.main(definition, "chess", write, argv, wrap=wrap)


if __name__ == "__main__":
    sys.exit(main())
