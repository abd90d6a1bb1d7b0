"""regelwerk against OpenSpiel (or python-chess): perft and random-game agreement.

Used by the slow tests in tests/oracles/ and usable by hand:

    python -m benchmarks.oracle chess --games 20 --seed 1
"""
from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field

from interpreter import DefinitionError
from interpreter.runtime.pieces import CHANCE

from .adapters import Adapter
from .catalog import DEFINITION_HELP, GAMES, BenchmarkGame, with_definitions

# Moves are single regelwerk actions, keyed by their notation.
BY_ACTION = Adapter("")


# pyspiel.PlayerId.CHANCE, without importing pyspiel where it is not installed.
SPIEL_CHANCE = -1


class Disagreement(AssertionError):
    """The two implementations differ at a position."""


class BoardRepeated(Disagreement):
    """A documented difference, not a defect: OpenSpiel ended the game in a draw
    because its board recurred with the other player to move, a repetition the
    format cannot count yet (`repetitions` counts a position with the player to
    move: Go's superko, Lines of Action; benchmarks/README.md)."""


@dataclass
class Match:
    """A game followed on both sides: OpenSpiel's state, regelwerk's, and the
    adapter's bookkeeping, with the moves played so far (for messages)."""

    bench: BenchmarkGame
    game: object  # regelwerk Game
    spiel_state: object
    state: object
    tracker: object
    history: list = field(default_factory=list)
    # How the comparison stopped: "" while the game goes on (or at a move limit),
    # else the regelwerk rule that ended it on both sides (its line of the rules).
    ended: str = ""
    # OpenSpiel's boards so far, for adapters whose game ends when a board recurs.
    boards: list = field(default_factory=list)

    @classmethod
    def start(cls, bench: BenchmarkGame, game=None, spiel_game=None, position: str | None = None) -> "Match":
        """From the start, or from a `position` the adapter reads (chess: a FEN)."""
        game = game or bench.load()
        spiel_game = spiel_game or bench.load_spiel()
        spiel_state, state, tracker = bench.adapter.start(game, spiel_game, position)
        match = cls(bench, game, spiel_state, state, tracker)
        match.note_board()
        return match

    def note_board(self) -> None:
        board = self.bench.adapter.board_text(self.spiel_state)
        if board is not None:
            self.boards.append(board)

    # -- both sides' legal moves, by key --------------------------------------
    def spiel_moves(self) -> dict[str, tuple[int, ...]]:
        adapter = self.bench.adapter
        if self.spiel_state.is_terminal():
            return {}
        return {adapter.spiel_key(self.tracker, self.spiel_state, move): move
                for move in adapter.spiel_moves(self.spiel_state)}

    def regel_moves(self) -> dict[str, tuple]:
        try:
            return self.bench.adapter.regel_moves(self.game.engine, self.state)
        except ValueError as e:
            self.fail(str(e))
            raise

    def fail(self, message: str) -> None:
        raise Disagreement(
            f"{self.bench.name}, after {len(self.history)} moves "
            f"({' '.join(self.history) or 'start'}): {message}"
        )

    # -- one move on both sides ---------------------------------------------------
    def play(self, key: str, spiel_move: tuple[int, ...], regel_codes: tuple) -> None:
        adapter = self.bench.adapter
        for action in spiel_move:
            adapter.spiel_applied(self.tracker, self.spiel_state, action)
            self.spiel_state.apply_action(action)
        for code in regel_codes:
            self.game.engine.apply_in_place(self.state, code)
        self.history.append(key)
        self.note_board()

    def regel_player(self, spiel_player: int) -> int:
        """regelwerk's index of an OpenSpiel player (chance as regelwerk's CHANCE,
        other negative values pass through)."""
        players = self.bench.adapter.spiel_players
        if spiel_player in players:
            return players.index(spiel_player)
        return CHANCE if spiel_player == SPIEL_CHANCE else spiel_player

    def check_position(self) -> dict[str, tuple[int, ...]] | None:
        """Compare the position; the shared legal moves, or None once the game is
        over on both sides. Raises Disagreement."""
        engine = self.game.engine
        spiel_moves = self.spiel_moves()
        regel_moves = self.regel_moves()
        spiel_over = self.spiel_state.is_terminal()
        regel_over = engine.is_over(self.state)
        if spiel_over or regel_over:
            self.check_end(spiel_over, regel_over)
            return None
        if self.regel_player(self.spiel_state.current_player()) != engine.to_move(self.state):
            self.fail(f"to move: OpenSpiel {self.spiel_state.current_player()}, "
                      f"regelwerk {engine.to_move(self.state)}")
        if set(spiel_moves) != set(regel_moves):
            self.fail(
                f"legal moves differ: only OpenSpiel {sorted(set(spiel_moves) - set(regel_moves))}, "
                f"only regelwerk {sorted(set(regel_moves) - set(spiel_moves))}"
            )
        return spiel_moves

    def check_end(self, spiel_over: bool, regel_over: bool) -> None:
        """Both sides must end here, with the same winner."""
        differs = self.end_difference(spiel_over, regel_over)
        if differs is not None:
            if (spiel_over and not regel_over and not any(self.spiel_state.returns())
                    and self.boards and self.boards[-1] in self.boards[:-1]):
                raise BoardRepeated(f"{self.bench.name}, after {len(self.history)} moves: "
                                    "OpenSpiel's board recurred (with the other player to move): a draw")
            self.fail(differs)
        ending = self.game.result(self.state).ending
        self.ended = f"line {ending.line}: {ending.text}" if ending is not None else "no legal action"

    def end_difference(self, spiel_over: bool, regel_over: bool) -> str | None:
        if spiel_over != regel_over:
            return f"game over: OpenSpiel {spiel_over}, regelwerk {regel_over}"
        returns = self.spiel_state.returns()
        winners = [p for p, r in enumerate(returns) if r > 0]
        spiel_winner = self.regel_player(winners[0]) if winners else -1
        winner, _scores = self.game.engine.outcome(self.state)
        if spiel_winner != winner:
            return f"winner: OpenSpiel {spiel_winner} (returns {returns}), regelwerk {winner}"
        return None


def random_game(bench: BenchmarkGame, seed: int, game=None, spiel_game=None,
                max_moves: int = 100_000, position: str | None = None) -> Match:
    """Play one game with moves drawn uniformly from OpenSpiel's legal actions,
    comparing both sides at every position (from the start or from `position`)."""
    rng = random.Random(seed)
    match = Match.start(bench, game, spiel_game, position)
    while len(match.history) < max_moves:
        moves = match.check_position()
        if moves is None:
            break
        key = rng.choice(sorted(moves))
        match.play(key, moves[key], match.regel_moves()[key])
    return match


def replay(bench: BenchmarkGame, moves: int, seed: int, game=None, spiel_game=None) -> Match:
    """The position after `moves` random moves (fixed by `seed`), compared all the
    way; stops early if the game ends."""
    return random_game(bench, seed, game, spiel_game, max_moves=moves)


# -- perft -------------------------------------------------------------------------
def spiel_perft(adapter, spiel_state, depth: int) -> int:
    """Leaves at `depth` moves, a move being what regelwerk plays as one action
    (the adapter groups OpenSpiel's actions)."""
    if depth == 0:
        return 1
    if spiel_state.is_terminal():
        return 0
    moves = adapter.spiel_moves(spiel_state)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = spiel_state.clone()
        for action in move:
            child.apply_action(action)
        total += spiel_perft(adapter, child, depth - 1)
    return total


def chess_perft(board, depth: int) -> int:
    """python-chess perft, ending games as OpenSpiel does at these depths (mate and
    stalemate only: the draws by rule need long games)."""
    if depth == 0:
        return 1
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += chess_perft(board, depth - 1)
        board.pop()
    return total


def regel_perft(engine, state, depth: int, adapter=None) -> int:
    """Leaves at `depth` moves, on the fast layer, a move being what the adapter
    makes one OpenSpiel action of (by default one action)."""
    if depth == 0:
        return 1
    if engine.is_over(state):
        return 0
    moves = (adapter or BY_ACTION).regel_moves(engine, state).values()
    if depth == 1:
        return len(moves)
    total = 0
    for codes in moves:
        child = engine.copy(state)
        for code in codes:
            engine.apply_in_place(child, code)
        total += regel_perft(engine, child, depth - 1, adapter)
    return total


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES), metavar="GAME")
    parser.add_argument("--games", dest="count", type=int, default=10, help="random games per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--definition", action="append", default=[], metavar="GAME=PATH", help=DEFINITION_HELP)
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; known: {', '.join(GAMES)}")
    try:
        games = with_definitions(args.definition)
    except ValueError as e:
        parser.error(str(e))
    failures = 0
    for name in args.games:
        bench = games[name]
        try:
            game = bench.load()
        except DefinitionError as e:
            parser.exit(1, f"{e}\n")
        spiel_game = bench.load_spiel()
        plies = known = 0
        endings: dict[str, int] = {}
        for i in range(args.count):
            try:
                match = random_game(bench, args.seed + i, game, spiel_game)
            except BoardRepeated as e:
                known += 1
                print(f"KNOWN {e}")
                continue
            except Disagreement as e:
                failures += 1
                print(f"DISAGREE {e}")
                continue
            plies += len(match.history)
            endings[match.ended] = endings.get(match.ended, 0) + 1
        print(f"{name}: {args.count} games, {plies} moves compared"
              + (f", {known} ended by OpenSpiel's board repetition (known)" if known else "") + "; endings:")
        for rule, count in sorted(endings.items(), key=lambda item: -item[1]):
            print(f"  {count:5}  {rule or '(not over)'}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
