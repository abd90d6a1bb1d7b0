"""Many identical men on one site (docs/format.md 2.9, 2.14, 3.10): a setup
`height`, `move one`, `move one X to Y`, `remove one X`, `return one X to POOL` on
hand-built positions, the owners' site lists kept in step with the board."""
import textwrap

import pytest

from interpreter import load_game
from interpreter.frontends.cli import main

YAML = """\
game: probe
title: Probe
description: Men on points.
rules: game.rules
players:
  - {{name: white}}
  - {{name: black}}
board:
  grid: {{files: 5, ranks: 1}}
{stacks}pieces:
  man: {{symbol: M}}
pools:
  bar: {{kind: man, sites: {{white: a1, black: e1}}}}
setup:
{setup}
"""


def make(tmp_path, rules: str, setup: str, stacks: bool = True):
    text = YAML.format(stacks="stacks: true\n" if stacks else "", setup=textwrap.indent(setup, "  "))
    (tmp_path / "game.yaml").write_text(text)
    (tmp_path / "game.rules").write_text("phase play:\n    turn: move\ndecision move:\n"
                                         + textwrap.indent(textwrap.dedent(rules), "    "))
    return load_game(str(tmp_path))


def stacks(game, state) -> dict[str, str]:
    """site -> the colours of its stones, bottom first ("wwb"); the owners' lists
    agree with the board (a stack belongs to its top stone's colour)."""
    found = {}
    for site, piece in enumerate(state.board[:-1]):
        if piece is not None:
            assert piece[0] == piece[2][-1]
            found[game.rules.site_names[site]] = "".join("wb"[c] for c in piece[2])
    for owner, sites in enumerate(state.occ[:-1]):
        assert sorted(sites) == sorted(s for s, p in enumerate(state.board[:-1]) if p is not None and p[0] == owner)
    return found


RUN = """\
action run by man, from bar:
    step e distance 1 to 2
    onto empty: move one
    onto own: move one
    onto enemy:
        return one target to bar
        move one
"""


def test_a_setup_height_is_a_stack_of_the_owner_colour(tmp_path):
    game = make(tmp_path, RUN, "white:\n  man: [{site: b1, height: 3}]\nblack:\n  man: {sites: [d1], height: 2}\n")
    state = game.initial_state()
    assert stacks(game, state) == {"b1": "www", "d1": "bb"}
    # The stack is one piece: one choice per landing site.
    assert sorted(game.legal_notations(state)) == ["b1-c1", "b1xd1"]


def test_move_one_takes_the_top_stone(tmp_path):
    game = make(tmp_path, RUN, "white:\n  man: [{site: b1, height: 3}]\nblack:\n  man: [{site: d1, height: 2}]\n")
    state = game.apply(game.initial_state(), "b1-c1")
    assert stacks(game, state) == {"b1": "ww", "c1": "w", "d1": "bb"}


def test_one_man_hit_goes_to_the_pool_and_the_mover_lands(tmp_path):
    game = make(tmp_path, RUN, "white:\n  man: [{site: b1, height: 2}]\nblack:\n  man: [d1]\n")
    state = game.apply(game.initial_state(), "b1xd1")
    assert stacks(game, state) == {"b1": "w", "d1": "w"}
    bar = game.model.pools["bar"].offset
    assert state.vars[bar + 1] == 1 and state.vars[bar] == 0


def test_onto_a_stack_a_stone_goes_on_top(tmp_path):
    rules = """\
        action run by man:
            step e
            onto own: move one
            onto enemy: move one
        """
    game = make(tmp_path, rules, "white:\n  man: [{site: b1, height: 2}]\nblack:\n  man: [{site: c1, height: 2}]\n")
    state = game.apply(game.initial_state(), "b1xc1")
    # The stack on c1 now belongs to white, its top stone's colour.
    assert stacks(game, state) == {"b1": "w", "c1": "bbw"}


def test_a_man_waiting_in_the_pool_enters(tmp_path):
    game = make(tmp_path, RUN.replace("step e distance 1 to 2", "step e"), "black:\n  man: [e1]\n")
    bar = game.model.pools["bar"].offset
    state = game.engine.blank_state()
    state.vars[bar] = 2  # two white men wait at a1
    game.engine.settle(state)
    state = game.apply(state, "a1-b1")
    assert stacks(game, state) == {"b1": "w", "e1": "b"} and state.vars[bar] == 1


def test_move_one_x_to_y_and_remove_one(tmp_path):
    rules = """\
        action shuffle by man:
            step e
            onto empty:
                move one from to to
                move one c1 to d1
                remove one b1
        """
    game = make(tmp_path, rules, "white:\n  man: [{site: b1, height: 2}, e1]\nblack:\n  man: [d1]\n")
    state = game.initial_state()
    # b1 -> c1: one stone moves (b1 keeps one); c1's stone goes on d1's black one;
    # then b1's last stone is removed.
    state = game.apply(state, "b1-c1")
    assert stacks(game, state) == {"d1": "bw", "e1": "w"}


def test_remove_one_of_the_acting_piece_follows_what_is_left(tmp_path):
    rules = """\
        action split by man:
            step e
            onto empty:
                move one
                remove one piece
                if piece == none:
                    win
        """
    game = make(tmp_path, rules, "white:\n  man: [{site: a1, height: 2}]\n")
    state = game.apply(game.initial_state(), "a1-b1")
    assert stacks(game, state) == {"a1": "w"}
    assert game.result(state).winner == "white"


@pytest.mark.parametrize("yaml_stacks,rules,message", [
    (False, "action a by man:\n    step e\n    onto empty: move one\n",
     "game.rules:6:21: error: 'move one' works on stacks; declare 'stacks: true' in the YAML"),
    (True, "action a:\n    drop man on sites\n    onto empty: move one\n",
     "error: 'move one' moves a stone of a piece on the board; a drop puts its new piece down with 'place'"),
    (False, "action a by man:\n    step e\n    onto empty:\n        remove one piece\n",
     "error: 'remove one' works on stacks"),
])
def test_errors(tmp_path, capsys, yaml_stacks, rules, message):
    make_yaml = YAML.format(stacks="stacks: true\n" if yaml_stacks else "", setup="  white:\n    man: [b1]\n")
    (tmp_path / "game.yaml").write_text(make_yaml)
    (tmp_path / "game.rules").write_text("phase play:\n    turn: move\ndecision move:\n"
                                         + textwrap.indent(rules, "    "))
    assert main(["validate", str(tmp_path)]) == 1
    assert message in capsys.readouterr().err


def test_a_height_needs_stacks(tmp_path, capsys):
    (tmp_path / "game.yaml").write_text(YAML.format(stacks="", setup="  white:\n    man: [{site: b1, height: 2}]\n"))
    (tmp_path / "game.rules").write_text("phase play:\n    turn: move\ndecision move:\n    action a by man:\n"
                                         "        step e\n        onto empty: move\n")
    assert main(["validate", str(tmp_path)]) == 1
    assert "'height' starts a stack of several stones: the game needs 'stacks: true'" in capsys.readouterr().err
