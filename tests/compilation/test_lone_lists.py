"""`first(pieces of P)` read from the list where each player has one piece at most
(compilation/lone_lists.py): the calls rewritten and left alone by hand, the
games it applies to and not, and both Quoridors listing and counting the same
with the pass on and off."""
from __future__ import annotations

import ast
import shutil

import pytest

from interpreter import load_game
from interpreter.compilation import lone_lists
from interpreter.runtime.helpers import first
from interpreter.runtime.state import masked
from tests.helpers import REPO, assert_same_play

FUNCTION = """\
def f0(s):
    o = s.occ
    return (h_first(o[0]), h_first(o[1]), h_first(o[-1]), h_first(o[p]), h_first(o[2]))
"""


def _read(text: str, players: int = 2) -> str:
    function = ast.parse(text).body[0]
    assert isinstance(function, ast.FunctionDef)
    return ast.unparse(ast.fix_missing_locations(lone_lists.firsts_read(function, players)))


def test_the_players_lists_are_read_the_neutral_list_and_others_are_asked():
    text = _read(FUNCTION)
    assert "o[0][0] if o[0] else -1," in text and "o[1][0] if o[1] else -1," in text
    # (the neutral pieces', a list chosen at run time, a number that is no player's)
    assert "h_first(o[-1])" in text and "h_first(o[p])" in text and "h_first(o[2])" in text
    assert "h_first(o[1])" in _read(FUNCTION, players=1)


@pytest.mark.parametrize("change", [
    ("    o = s.occ\n", "    o = s.occ\n    o = s.board\n"),
    ("    o = s.occ\n", "    o = t.occ\n"),
    ("    o = s.occ\n", "    o = s.occ\n    s = t\n"),
    ("def f0(s):", "def f0(t):"),
])
def test_lists_that_may_not_be_the_positions_are_left_alone(change):
    assert change[0] in FUNCTION
    assert _read(FUNCTION.replace(*change)).count("h_first(") == 5


@pytest.mark.parametrize("sites", [[], [7], [0]])
def test_the_read_is_first_for_a_list_of_one_site_at_most(sites):
    read = eval(compile("o[0][0] if o[0] else -1", "<test>", "eval"), {"o": [sites]})  # noqa: S307 - the test's own
    kept = masked(sites)
    kept.mask = sum(1 << site for site in sites)
    assert read == first(sites) == first(kept)


CHOSEN = """\
def f0(s):
    o = s.occ
    for i3 in k52:
        t6 = h_first(o[i3] if i3 >= 0 else ())
    return (t6, h_first(o[i3] if i3 > 0 else ()), h_first(o[i4] if i3 >= 0 else ()), h_first(o[i3] if i3 >= 0 else o),
            h_first(b[i3] if i3 >= 0 else ()), h_first(o[i3 + 1] if i3 + 1 >= 0 else ()))
"""


def test_a_player_chosen_at_run_time_is_read_from_the_list_and_other_shapes_are_asked():
    text = _read(CHOSEN)
    assert "t6 = o[i3][0] if i3 >= 0 and o[i3] else -1" in text
    # (another test, another name tested, another list when none, not the lists, not a name)
    assert text.count("h_first(") == 5


@pytest.mark.parametrize("player", [-1, 0, 1])
@pytest.mark.parametrize("sites", [[], [5]])
def test_the_read_of_a_chosen_player_is_first_of_the_list_or_of_none(player, sites):
    lists = [masked(sites), masked([9])]
    read = eval(compile("o[i3][0] if i3 >= 0 and o[i3] else -1", "<test>", "eval"),  # noqa: S307 - the test's own
                {"o": lists, "i3": player})
    assert read == first(lists[player] if player >= 0 else ())


def _named(game, name: str) -> int:
    return sum(1 for node in ast.walk(game.rules.module) if isinstance(node, ast.Name) and node.id == name)


def test_a_game_whose_players_have_many_pieces_keeps_the_call():
    game = load_game(str(REPO / "benchmarks" / "games" / "lines_of_action"))
    assert _named(game, "h_first") > 0


QUORIDORS = [REPO / "benchmarks" / "games" / "quoridor", REPO / "benchmarks" / "outsiders" / "quoridor",
             REPO / "benchmarks" / "outsiders" / "quoridor_fresh"]


@pytest.mark.parametrize("folder", QUORIDORS, ids=["benchmark", "outsiders", "fresh"])
def test_quoridor_lists_and_counts_the_same_with_the_firsts_read_or_asked(folder, tmp_path, monkeypatch):
    options = {"board_size": 5, "wall_count": 6} if "outsiders" in str(folder) else {}
    if folder.name == "quoridor_fresh":
        options["players"] = 4  # (the pawns' search asks each player in a loop: `pieces of p`)
    on = load_game(str(folder), options)
    assert _named(on, "h_first") == 0
    copy = tmp_path / "off"
    shutil.copytree(folder, copy)
    monkeypatch.setattr(lone_lists, "ENABLED", False)
    off = load_game(str(copy), options)
    assert _named(off, "h_first") > 0
    assert_same_play(on.engine, off.engine, seed=3)
