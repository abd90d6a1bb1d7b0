"""A notation without `{to}` for an action that can land on several sites.

Every legal action is listed once (docs/interface.md, "each once"): where the rules
show two landings written alike, `validate` says so at the notation; where only
play can tell (a `where` reads the landing site), the candidates written alike are
merged while listing, the first kept, and `moves`, `perft` and records agree.
"""
from __future__ import annotations

import json

import pytest

from interpreter import load_game
from interpreter.validation.diagnostics import DefinitionError

from .conftest import GameCopy, assert_clean, run_cli

STEP = "    action step by man, chief:\n        step ahead\n"


def with_step_notation(game: GameCopy, notation: str, where: str = "") -> GameCopy:
    extra = f"        notation \"{notation}\"\n" + (f"        where {where}\n" if where else "")
    return game.edit("game.rules", STEP, STEP + extra)


@pytest.mark.parametrize("notation", ["{from}", "{from}-", "move", "{from}{from}"])
def test_validate_refuses_a_notation_that_writes_two_landings_alike(base_game, notation):
    with_step_notation(base_game, notation)
    with pytest.raises(DefinitionError) as caught:
        load_game(str(base_game))
    [error] = [d for d in caught.value.diagnostics if d.severity == "error"]
    assert (error.line, error.column) == (14, 9)  # the notation line
    assert error.message.startswith("the notation of action 'step' leaves out {to}: from a1 it can land on b1 and a2")
    assert error.hint == 'put {to} in the notation, e.g. "{from}-{to}"'


@pytest.mark.parametrize("targets, refused", [
    ("home[player]", True), ("[c1, d1]", True), ("home[player] - [a1, b1, c1, d1, a5, b5, c5, d5]", False),
    ("[c1]", False),
    ("centre", False), ("sites - home[opponent]", True),
])
def test_drops_are_refused_when_their_sites_are_known_and_several(base_game, targets, refused):
    base_game.edit("game.rules", "        drop man from reserve on home[player]\n",
                   f"        drop man from reserve on {targets}\n        notation \"enter\"\n")
    if not refused:
        load_game(str(base_game))
        return
    with pytest.raises(DefinitionError, match=r"the notation of action 'enter' leaves out \{to\}: it can choose"):
        load_game(str(base_game))


def test_one_landing_per_start_needs_no_to(base_game):
    base_game.edit("game.rules", STEP, "    action push by man:\n        step forward\n        notation \"{from}^\"\n"
                                       "        onto empty: advance\n" + STEP)
    game = load_game(str(base_game))
    assert "a2^" in game.legal_notations(game.initial_state())


def test_where_play_decides_each_action_is_listed_once(capsys, base_game, tmp_path):
    # (the landing is read by a `where`: validate cannot prove two landings, play finds them)
    with_step_notation(base_game, "{from}", where="to not in centre")
    record = tmp_path / "r.txt"
    record.write_text("@d1 @c5\n")  # d1 can step to c1 and to e1: both are written 'd1'
    code, out, err = run_cli(capsys, "moves", base_game, record, "--json")
    assert code == 0, err
    legal = json.loads(out)["legal"]
    assert len(legal) == len(set(legal)) and "d1" in legal
    code, out, _ = run_cli(capsys, "perft", base_game, record, "--depth", "1", "--json")
    assert json.loads(out.splitlines()[0])["count"] == len(legal)


def test_the_first_of_the_actions_written_alike_is_played(base_game):
    with_step_notation(base_game, "{from}", where="to not in centre")
    game = load_game(str(base_game))
    state = game.initial_state()
    for action in ["@d1", "@c5"]:
        state = game.apply(state, action)
    after = game.apply(state, "d1")
    # the first candidate of d1's steps, in the order they are listed, is the one played
    sites = {p.site for p in game.pieces(after) if p.owner == "white"}
    assert "d1" not in sites and len(sites & {"c1", "e1"}) == 1


def test_validate_names_the_case_notation_that_leaves_to_out(capsys, base_game):
    base_game.edit("game.rules", "        jump ahead\n        over enemy: take\n",
                   "        jump ahead\n        over enemy:\n            notation \"{from}x\"\n            take\n")
    code, _, err = run_cli(capsys, "validate", base_game)
    assert_clean(code, err)
    assert "game.rules:19:13: error: the notation of action 'capture' leaves out {to}: from a1 it can land on c1 " \
           "and a3, both written 'a1x'" in err
