"""Klondike solitaire against OpenSpiel's solitaire, move by move.

python benchmarks/outsiders/solitaire/agree.py --games 300 --seed 1
python benchmarks/outsiders/solitaire/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/solitaire/agree.py perft --depth 3 --random-plies 31
python benchmarks/outsiders/solitaire/agree.py speed --form first   (or marks: the earlier forms)

Besides what the shared harness compares (legal sets, chance outcomes and their odds,
the player to move, the end), every position compares OpenSpiel's return so far with
the definition's `points`, and the final return with the score.
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import Disagreement, arguments, games_from, main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# `--form NAME` (anywhere in the arguments) compares an earlier form of the definition:
# `first` (moves onto a column land on its first free site), `marks` (onto a mark of the
# column's top card); without it, the definition of this folder (moves by anchors).
FORM = sys.argv[sys.argv.index("--form") + 1] if "--form" in sys.argv else "anchors"
FIRST_FORM = FORM == "first"
DEFINITION = HERE if FORM == "anchors" else os.path.join(HERE, f"{FORM}_form")
DEAL = 31                       # 7 tableau tops and 24 waste cards turn up first
END = 0
MOVE_OFFSET = 52
HIDDEN = None


def card_index(rank: int, suit: int) -> int:
    return (suit - 1) * 13 + rank


def rank_suit(index: int) -> tuple[int, int]:
    return (index - 1) % 13 + 1, (index - 1) // 13 + 1


def opposite(suit: int) -> list[int]:
    return [2, 4] if suit in (1, 3) else [1, 3]


def decode(action: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """OpenSpiel's Move(Action): ((target rank, target suit), (source rank, source suit));
    rank 0 is an empty pile (suit 0: a tableau column)."""
    a = action - MOVE_OFFSET
    if 1 <= a <= 132:
        target_rank, target_suit, residual = ((a - 1) // 3) % 11 + 2, (a - 1) // 33 + 1, (a - 1) % 3
        if residual == 0:
            return (target_rank, target_suit), (target_rank + 1, target_suit)
        return (target_rank, target_suit), (target_rank - 1, opposite(target_suit)[residual - 1])
    if 133 <= a <= 136:
        return (0, a - 132), (1, a - 132)
    if 137 <= a <= 140:
        return (0, 0), (13, a - 136)
    if 141 <= a <= 144:
        return (1, a - 140), (2, a - 140)
    target_suit, residual = (a - 143) // 2, (a - 143) % 2
    return (13, target_suit), (12, opposite(target_suit)[residual])


class Layout:
    """Where each card lies in an OpenSpiel state, followed from its history."""

    def __init__(self) -> None:
        self.tableau: list[list] = [[HIDDEN] * (column + 1) for column in range(7)]
        self.waste: list = [HIDDEN] * 24
        self.foundation: list[list] = [[] for _ in range(4)]

    def reveal(self, index: int) -> None:
        for pile in self.tableau:
            if pile and pile[-1] is HIDDEN:
                pile[-1] = index
                return
        self.waste[self.waste.index(HIDDEN)] = index

    def site(self, index: int) -> str:
        for column, pile in enumerate(self.tableau):
            if index in pile:
                return f"{'abcdefg'[column]}{pile.index(index) + 2}"
        if index in self.waste:
            return f"h{self.waste.index(index) + 1}"
        rank, suit = rank_suit(index)
        return f"{'ijkl'[suit - 1]}{rank + 1}"

    def landing(self, target: tuple[int, int], source: int) -> str:
        rank, suit = target
        if rank == 0 and suit == 0:
            column = next(c for c, pile in enumerate(self.tableau) if not pile)
            return f"{'abcdefg'[column]}2"
        if rank == 0 or any(card_index(rank, suit) in pile for pile in self.foundation):
            source_rank, source_suit = rank_suit(source)
            return f"{'ijkl'[source_suit - 1]}{source_rank + 1}"
        if FIRST_FORM:
            column = next(c for c, pile in enumerate(self.tableau) if card_index(rank, suit) in pile)
            return f"{'abcdefg'[column]}{len(self.tableau[column]) + 2}"
        # Onto a column's top card: the move lands on that card's mark (files q-t).
        return f"{'qrst'[suit - 1]}{rank}"

    def move(self, target: tuple[int, int], source: int) -> None:
        for pile in self.tableau + self.foundation:
            if source in pile:
                run = pile[pile.index(source):]
                del pile[pile.index(source):]
                break
        else:
            self.waste.remove(source)
            run = [source]
        rank, suit = target
        if rank == 0 and suit == 0:
            destination = next(pile for pile in self.tableau if not pile)
        elif rank == 0:
            destination = self.foundation[suit - 1]
        else:
            destination = next(pile for pile in self.tableau + self.foundation if card_index(rank, suit) in pile)
        destination.extend(run)


def layout_of(state) -> Layout:
    layout = Layout()
    for action in state.history():
        if 1 <= action <= 52:
            layout.reveal(action)
        elif action > MOVE_OFFSET:
            target, source = decode(action)
            layout.move(target, card_index(*source))
    return layout


def write(state, action: int) -> str:
    if state.is_chance_node():
        rank, suit = rank_suit(action)
        event = "deal" if len(state.history()) < DEAL else "reveal"
        return f"{event}:{'mnop'[suit - 1]}{rank}"
    if action == END:
        return "end"
    target, source = decode(action)
    if FORM == "anchors":
        return anchored(target, source)
    layout = layout_of(state)
    index = card_index(*source)
    return f"{layout.site(index)}-{layout.landing(target, index)}"


def anchored(target: tuple[int, int], source: tuple[int, int]) -> str:
    """An anchor onto the locator of the card that moves (solitaire.yaml)."""
    (target_rank, target_suit), (source_rank, source_suit) = target, source
    locator = f"{'qrst'[source_suit - 1]}{source_rank}"
    if target_rank == 0 and target_suit == 0:
        return f"z1x{locator}"
    if target_suit == source_suit:
        return f"y{source_suit}x{locator}"
    return f"{'uvwx'[target_suit - 1]}{target_rank}x{locator}"


def compare(argv) -> int:
    """Random games: at every position the player to move, the legal sets (chance:
    outcomes and odds), the end, and OpenSpiel's return so far against `points`."""
    parser = arguments("solitaire against OpenSpiel's solitaire, move by move, returns every step")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rw_game, os_game = games_from(DEFINITION, "solitaire", args, None, None)
    rng = random.Random(args.seed)
    problems: list[Disagreement] = []
    plies = 0
    ends = []
    for number in range(args.games):
        os_state, rw_state = os_game.new_initial_state(), rw_game.initial_state()
        history: list[str] = []
        while True:
            ply = len(history)

            def fail(what: str) -> None:
                problems.append(Disagreement(number, ply, what, list(history)))
            mine_points = rw_game.variables(rw_state)["points"]
            if os_state.returns()[0] != mine_points:
                fail(f"return so far: OpenSpiel {os_state.returns()[0]}, regelwerk {mine_points}")
                break
            if os_state.is_terminal() or rw_game.is_terminal(rw_state):
                if os_state.is_terminal() != rw_game.is_terminal(rw_state):
                    fail(f"over: OpenSpiel {os_state.is_terminal()}, regelwerk {rw_game.is_terminal(rw_state)}")
                    break
                score = rw_game.result(rw_state).scores[rw_game.players[0]]
                if score != os_state.returns()[0]:
                    fail(f"final: OpenSpiel {os_state.returns()[0]}, regelwerk score {score}")
                ends.append(score)
                break
            if os_state.is_chance_node():
                if rw_game.to_move(rw_state) != "chance":
                    fail(f"to move: OpenSpiel chance, regelwerk {rw_game.to_move(rw_state)}")
                    break
                outcomes = os_state.chance_outcomes()
                expected = {write(os_state, a): p for a, p in outcomes}
                mine = {a.notation: p for a, p in rw_game.chance_outcomes(rw_state)}
                if expected.keys() != mine.keys() or any(abs(expected[k] - mine[k]) > 1e-12 for k in mine):
                    fail(f"chance outcomes: only OpenSpiel {sorted(set(expected) - set(mine))[:5]}, "
                         f"only regelwerk {sorted(set(mine) - set(expected))[:5]}")
                    break
                action = rng.choice([a for a, _ in outcomes])
            else:
                if rw_game.to_move(rw_state) != rw_game.players[0]:
                    fail(f"to move: OpenSpiel the player, regelwerk {rw_game.to_move(rw_state)}")
                    break
                legal = os_state.legal_actions()
                theirs = sorted(write(os_state, a) for a in legal)
                mine_moves = sorted(rw_game.legal_notations(rw_state))
                if theirs != mine_moves:
                    fail(f"legal moves: OpenSpiel {theirs}, regelwerk {mine_moves}")
                    break
                action = rng.choice(legal)
            notation = write(os_state, action)
            history.append(notation)
            rw_state = rw_game.apply(rw_state, notation)
            os_state.apply_action(action)
            plies += 1
    for problem in problems[:10]:
        print(problem)
    print(f"{args.games} games, {plies} plies, seed {args.seed}: {len(problems)} disagreements; "
          f"final returns from {min(ends, default=0)} to {max(ends, default=0)}, mean "
          f"{sum(ends) / max(len(ends), 1):.1f}")
    return 1 if problems else 0


if __name__ == "__main__":
    arguments_given = sys.argv[1:]
    if "--form" in arguments_given:
        at = arguments_given.index("--form")
        del arguments_given[at:at + 2]
    if arguments_given and arguments_given[0] in ("speed", "perft", "harness"):
        if arguments_given[0] == "harness":   # the shared comparison (its winner check included)
            arguments_given = arguments_given[1:]
        sys.exit(main(DEFINITION, "solitaire", write, arguments_given))
    sys.exit(compare(arguments_given))
