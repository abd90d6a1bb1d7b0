"""The benchmark games: a regelwerk definition and the OpenSpiel game it follows."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from . import adapters

GAMES_DIR = Path(__file__).resolve().parent / "games"
# The bundled morris has a repetition rule that OpenSpiel's nine_mens_morris lacks;
# its `openspiel` variant plays OpenSpiel's rules (no repetition rule, a draw after
# 200 turns).
MORRIS_OPENSPIEL = Path(__file__).resolve().parent.parent / "games" / "morris" / "variants" / "openspiel.yaml"
# The example games of the documentation, written with the whole format.
EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "docs" / "examples"


@dataclass(frozen=True)
class BenchmarkGame:
    name: str
    # A folder under benchmarks/games/ or docs/examples/, the name of a bundled
    # game, or a variant file.
    definition: str
    adapter: adapters.Adapter
    # The runner's perft: regelwerk's depth (its `perft`) and OpenSpiel's (moves as
    # the adapter groups them) that count the same leaves; deep enough for
    # OpenSpiel to take a tenth of a second where regelwerk can follow.
    perft: tuple[int, int] = (3, 3)
    # python-chess is a second baseline for chess.
    python_chess: bool = False

    def load(self):
        from interpreter import load_game

        return load_game(self.definition)

    def load_spiel(self):
        import pyspiel

        return pyspiel.load_game(self.adapter.spiel_name, self.adapter.spiel_params)


def _own(name: str, adapter: adapters.Adapter, **more) -> BenchmarkGame:
    return BenchmarkGame(name, str(GAMES_DIR / name), adapter, **more)


def _example(name: str, adapter: adapters.Adapter, **more) -> BenchmarkGame:
    return BenchmarkGame(name, str(EXAMPLES_DIR / name), adapter, **more)


def _chess_variant(name: str, adapter: adapters.Adapter, file: str = "", **more) -> BenchmarkGame:
    return BenchmarkGame(name, str(EXAMPLES_DIR / "chess" / "variants" / f"{file or name}.yaml"), adapter, **more)


GAMES: dict[str, BenchmarkGame] = {
    game.name: game
    for game in (
        _example("connect_four", adapters.ConnectFour("connect_four"), perft=(6, 6)),
        _own("clobber", adapters.Adapter("clobber"), perft=(4, 4)),
        _own("breakthrough", adapters.Adapter("breakthrough"), perft=(4, 4)),
        _own("checkers", adapters.Adapter("checkers"), perft=(7, 7)),
        _own("othello", adapters.Adapter("othello"), perft=(7, 7)),
        _example("kalah", adapters.Kalah("mancala"), perft=(7, 7)),
        # A move and a shot: two regelwerk actions, grouped from OpenSpiel's three.
        _example("amazons", adapters.Amazons("amazons"), perft=(3, 3)),
        # The bundled morris's variant with OpenSpiel's rules.
        BenchmarkGame("morris", str(MORRIS_OPENSPIEL), adapters.Morris("nine_mens_morris"), perft=(4, 4)),
        _example("chess", adapters.Chess("chess"), perft=(4, 4), python_chess=True),
        _own("go", adapters.Go("go", board_size=9), perft=(3, 3)),
        # A marble and a quarter turn: two regelwerk decisions, one OpenSpiel action.
        _own("pentago", adapters.Turns("pentago"), perft=(6, 3)),
        _own("xiangqi", adapters.Xiangqi("xiangqi"), perft=(4, 4)),
        _own("lines_of_action", adapters.LinesOfAction("lines_of_action"), perft=(4, 4)),
        _own("quoridor", adapters.Quoridor("quoridor"), perft=(3, 3)),
        # Roll, move, roll, move: a move is two regelwerk actions (a checker each).
        _own("backgammon", adapters.Backgammon("backgammon"), perft=(6, 4)),
        # Overlays on the chess example: a variant lives in its game's folder.
        # OpenSpiel's antichess: the lichess rules of variants/antichess.yaml with its order of
        # endings and en passant not compulsory (variants/antichess-openspiel.yaml).
        _chess_variant("antichess", adapters.Chess("antichess", board="AntichessBoard"), "antichess-openspiel",
                       perft=(5, 5)),
        _chess_variant("crazyhouse", adapters.Chess("crazyhouse", board="CrazyhouseBoard"), perft=(4, 4)),
    )
}


def with_definitions(given: list[str]) -> dict[str, BenchmarkGame]:
    """GAMES with the definitions `given` as GAME=PATH in place of their own (the
    same OpenSpiel game and adapter). Raises ValueError saying what is wrong."""
    games = dict(GAMES)
    for item in given:
        name, sep, path = item.partition("=")
        if not sep or not path:
            raise ValueError(f"--definition wants GAME=PATH, not {item!r}")
        if name not in GAMES:
            raise ValueError(f"--definition: unknown game {name!r}; known: {', '.join(GAMES)}")
        if not Path(path).exists():
            raise ValueError(f"--definition: no such file or folder: {path}")
        games[name] = dataclasses.replace(GAMES[name], definition=path)
    return games


DEFINITION_HELP = ("play PATH (a game folder, YAML or variant file) in place of the benchmark's own "
                   "definition of GAME, against the same OpenSpiel game (repeatable)")
