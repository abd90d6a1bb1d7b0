"""The fakes follow the real `Game` contract: `contract.FrontendGame` is offered by
the real `Game` and by every fake, with the same signatures, and the front ends
that take any game use nothing outside it."""
from __future__ import annotations

import ast
import inspect
import typing
from pathlib import Path
from typing import Any

import pytest

from interpreter import load_game
from interpreter.api import Game
from interpreter.frontends import agents, render_svg, render_text
from interpreter.runtime.state import State
from interpreter.runtime.views import Action, BoardView, PieceView
from tests.helpers import REPO

from .contract import DATA_MEMBERS, MEMBERS, METHODS, FrontendGame
from .fakes import CoinRace, EndlessPoints, StaticGame, TicTacToe, TreeGame, end, grid_board, move


def fakes() -> list:
    return [
        TicTacToe(),
        CoinRace(),
        TreeGame(("a", "b"), move("a", x=end("a"))),
        StaticGame(grid_board(2, 2), ("white", "black"), [PieceView("a1", "stone", "white")],
                   kinds={"stone": {"symbol": "S", "owner": "player"}}, player_colors={"white": "#fff"}),
        EndlessPoints(),
    ]


GAMES = [*fakes(), load_game("lielow"), load_game("royalfiz", options={"players": 2})]


def hints(function) -> dict[str, Any]:
    return typing.get_type_hints(function)


def compatible(expected, actual) -> bool:
    """`actual` may say less than `expected` (a bare `dict` for `dict[str, int]`, or
    `Any`), never something else; where the contract takes or gives a position (the
    runtime's `State`), a fake has positions of its own."""
    if expected is Any or actual is Any or expected == actual or expected is State:
        return True
    return typing.get_origin(expected) is actual


@pytest.mark.parametrize("game", GAMES, ids=lambda g: type(g).__name__ + ":" + g.name)
def test_every_member_of_the_contract_is_offered(game):
    assert isinstance(game, FrontendGame)
    declared = {name: hints(MEMBERS[name].fget)["return"] for name in DATA_MEMBERS}
    for name in DATA_MEMBERS:
        kind = typing.get_origin(declared[name]) or declared[name]
        assert isinstance(getattr(game, name), kind), name
    for name in METHODS:
        assert callable(getattr(game, name)), name


@pytest.mark.parametrize("game", GAMES, ids=lambda g: type(g).__name__ + ":" + g.name)
def test_every_method_has_the_contract_signature(game):
    for name in METHODS:
        wanted = inspect.signature(getattr(FrontendGame, name))
        offered = inspect.signature(getattr(type(game), name))
        shape = [(p.name, p.kind, p.default is p.empty) for p in wanted.parameters.values()]
        assert [(p.name, p.kind, p.default is p.empty) for p in offered.parameters.values()] == shape, name
        expected, actual = hints(getattr(FrontendGame, name)), hints(getattr(type(game), name))
        for key, annotation in actual.items():
            assert compatible(expected[key], annotation), (name, key, expected[key], annotation)


def test_the_contract_is_part_of_the_documented_game():
    members = {name for name, _ in inspect.getmembers(Game)} | set(Game.__annotations__)
    assert set(DATA_MEMBERS) | set(METHODS) <= members
    text = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    assert all(f"`{name}" in text for name in (*DATA_MEMBERS, *METHODS))


def members_used(source: str) -> set[str]:
    """The attributes read from `game` or `self.game` in a module's source, and the
    names asked for with `getattr(game, "name", ...)`."""
    used = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and is_game(node.value):
            used.add(node.attr)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
              and len(node.args) >= 2 and is_game(node.args[0]) and isinstance(node.args[1], ast.Constant)):
            used.add(node.args[1].value)
    return used


def is_game(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id == "game"
    return isinstance(node, ast.Attribute) and node.attr == "game" and isinstance(node.value, ast.Name)


def test_the_front_ends_that_take_any_game_use_only_the_contract():
    modules = [Path(render_text.__file__), Path(render_svg.__file__), *Path(agents.__file__).parent.glob("*.py")]
    used = set().union(*(members_used(path.read_text(encoding="utf-8")) for path in modules))
    assert used, "the scan found no use of a game at all"
    assert used <= set(DATA_MEMBERS) | set(METHODS), sorted(used - set(DATA_MEMBERS) - set(METHODS))


def test_the_scan_sees_attributes_and_getattr():
    source = "def f(game, self):\n    game.pieces(s)\n    self.game.board\n    getattr(game, 'title', '')\n    x.y\n"
    assert members_used(source) == {"pieces", "board", "title"}


def test_compatible_annotations():
    assert compatible(dict[str, int], dict) and compatible(Any, int) and compatible(Action | None, Action | None)
    assert compatible(State, TicTacToe)
    assert not compatible(list[Action], list[str]) and not compatible(BoardView, dict)
