"""The benchmark games: a regelwerk definition and the OpenSpiel game it follows."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import adapters

GAMES_DIR = Path(__file__).resolve().parent / "games"


@dataclass(frozen=True)
class BenchmarkGame:
    name: str
    # A folder under benchmarks/games/, or the name of a bundled game.
    definition: str
    adapter: adapters.Adapter
    # python-chess is a second baseline for chess.
    python_chess: bool = False

    def load(self):
        from interpreter import load_game

        return load_game(self.definition)

    def load_spiel(self):
        import pyspiel

        return pyspiel.load_game(self.adapter.spiel_name)


def _own(name: str, adapter: adapters.Adapter, **more) -> BenchmarkGame:
    return BenchmarkGame(name, str(GAMES_DIR / name), adapter, **more)


GAMES: dict[str, BenchmarkGame] = {
    game.name: game
    for game in (
        _own("connect_four", adapters.ConnectFour("connect_four")),
        _own("clobber", adapters.Adapter("clobber")),
        _own("breakthrough", adapters.Adapter("breakthrough")),
        _own("checkers", adapters.Adapter("checkers")),
        _own("othello", adapters.Adapter("othello")),
        _own("kalah", adapters.Kalah("mancala")),
        _own("amazons", adapters.Amazons("amazons")),
        # The bundled morris follows OpenSpiel's rules with its default options.
        BenchmarkGame("morris", "morris", adapters.Morris("nine_mens_morris")),
        _own("chess", adapters.Chess("chess"), python_chess=True),
    )
}
