"""Walks blocked by pieces of a kind (`forbid passing where site is KIND`): the
blocking sites are worked out per position, and remembered only where that is
sound — the answer must follow the kinds on the board, not only where neutral
pieces stand."""
import ast
import textwrap
from dataclasses import FrozenInstanceError

import pytest

from interpreter import load_game
from interpreter.runtime.walks import Blockers
from tests.helpers import generated, play, write_definition

YAML = """\
game: walkers
title: Walkers
description: Walks past rocks.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 5, ranks: 5}
pieces:
  man: {symbol: M, description: A walker.}
  rock: {symbol: R, owner: neutral, description: Blocks the way.}
  sand: {symbol: S, owner: neutral, description: Does not.}
setup:
  white: {man: [a1]}
  black: {man: [e5]}
  neutral: {rock: [b1]}
"""

WALK = """\
    forbid passing where site is rock
    phase play:
        turn: move
    decision move:
        action walk by man:
            walk 2 steps
            onto empty: move
"""


def _game(tmp_path, rules: str, yaml: str = YAML):
    return load_game(write_definition(tmp_path, yaml, rules))


def _walk_and(action: str) -> str:
    """WALK with one more action of the same decision."""
    return WALK + textwrap.indent(textwrap.dedent(action), " " * 8)


# Rocks the only neutral kind: the blockers are then the neutral pieces, unless a
# rule can change a kind or an owner where a piece stands.
ROCKS_ONLY = YAML.replace("  sand: {symbol: S, owner: neutral, description: Does not.}\n", "")


def _step_e5_e4_and(statement: str) -> str:
    """WALK with an action of black's man from e5 to e4 that then does `statement`."""
    return _walk_and(f"""\
        action change by man:
            where from in [e5]
            go to [e4]
            onto empty:
                move
                {statement}
        """)


def _walks_from_a1(game, state) -> list:
    return [n for n in game.legal_notations(state) if n.startswith("a1")]


def test_a_rock_blocks_and_sand_on_the_same_site_does_not(tmp_path):
    # The same neutral site in both positions, a different kind on it.
    game = _game(tmp_path, WALK)
    rock = game.make_state({"a1": ("white", "man"), "e5": ("black", "man"), "b1": ("neutral", "rock")})
    sand = game.make_state({"a1": ("white", "man"), "e5": ("black", "man"), "b1": ("neutral", "sand")})
    assert _walks_from_a1(game, rock) == ["a1-a3", "a1-b2"]
    assert _walks_from_a1(game, sand) == ["a1-a3", "a1-b2", "a1-c1"]
    assert _walks_from_a1(game, rock) == ["a1-a3", "a1-b2"]


def test_a_rock_promoted_where_it_stands_stops_blocking(tmp_path):
    game = _game(tmp_path, _step_e5_e4_and("promote b1 to man"), ROCKS_ONLY)
    state = game.initial_state()
    assert _walks_from_a1(game, state) == ["a1-a3", "a1-b2"]
    for action in ("a1-a3", "e5-e4", "a3-a1"):  # e5-e4: the rock on b1 becomes a (neutral) man
        state = game.apply(state, action)
    state = game.apply(state, game.legal_notations(state)[0])
    assert [p.kind for p in game.pieces(state) if p.site == "b1"] == ["man"]
    assert _walks_from_a1(game, state) == ["a1-a3", "a1-b2", "a1-c1"]


def test_a_man_made_neutral_does_not_block(tmp_path):
    # `X.owner = none` can put a piece of a kind that does not block among the
    # neutral ones.
    game = _game(tmp_path, _step_e5_e4_and("to.owner = none"), ROCKS_ONLY)
    state = game.make_state({"a1": ("white", "man"), "e5": ("black", "man"), "b1": ("neutral", "man")})
    assert _walks_from_a1(game, state) == ["a1-a3", "a1-b2", "a1-c1"]
    state = game.make_state({"a1": ("white", "man"), "e5": ("black", "man"), "b1": ("neutral", "rock")})
    assert _walks_from_a1(game, state) == ["a1-a3", "a1-b2"]


def test_rocks_set_down_and_taken_block_from_then_on(tmp_path):
    # With rocks the only neutral pieces, the position keeps their mask from one
    # listing to the next: a rock set down must block at once, a rock taken away
    # must stop blocking at once.
    game = _game(tmp_path, _walk_and("""\
        action zap by man:
            walk 2 steps
            onto neutral: remove target
        action set:
            drop rock on [a2]
            onto empty: place
        """), ROCKS_ONLY)
    state = game.make_state({
        "a1": ("white", "man"), "d1": ("white", "man"), "e5": ("black", "man"), "c1": ("neutral", "rock"),
    })
    assert _walks_from_a1(game, state) == ["a1-a3", "a1-b2", "a1xc1"]
    assert "d1-b1" not in game.legal_notations(state)  # (only by way of c1)
    for action in ("@a2", "e5-e3"):
        state = game.apply(state, action)
    assert _walks_from_a1(game, state) == ["a1-b2", "a1xc1"]
    for action in ("a1xc1", "e3-e5"):
        state = game.apply(state, action)
    assert _walks_from_a1(game, state) == ["a1-b2", "a1-c1"]
    assert "d1-b1" in game.legal_notations(state)


def test_walks_of_no_steps_or_fewer_go_nowhere(tmp_path):
    # The length is the position's: 0 and -2 list no walk (and raise nothing),
    # 2 lists the walks of two steps; one length for every piece, or the piece's own.
    yaml = YAML + "variables:\n  far: {type: int, default: 0, title: far, description: How far walks go.}\n"
    rules = WALK.replace("walk 2 steps", "walk far steps") + textwrap.indent(textwrap.dedent("""\
        action farther:
            select [c5]
            notation "farther"
            onto empty: far += 1
        action nearer:
            select [d5]
            notation "nearer"
            onto empty: far -= 1
        """), " " * 8)
    for own_length in (False, True):
        if own_length:  # (a length that depends on the piece: worked out piece by piece)
            rules = rules.replace("walk far steps", "walk (far if from != e5 else far) steps")
        game = _game(tmp_path, rules, yaml)
        state = game.initial_state()
        assert _walks_from_a1(game, state) == []  # (far = 0)
        state = play(game, "nearer", "nearer", state=state)
        assert game.to_move(state) == "white"
        assert _walks_from_a1(game, state) == []  # (far = -2)
        state = play(game, "farther", "farther", "farther", "farther", state=state)
        assert _walks_from_a1(game, state) == ["a1-a3", "a1-b2"]  # (far = 2)


def test_a_walk_passes_no_site_a_general_condition_forbids(tmp_path):
    # `site is occupied` is neither a kind nor a region: the walk asks the
    # condition of each site it would pass, by a function of the site.
    game = _game(tmp_path, WALK.replace("site is rock", "site is occupied"))
    blocked = game.make_state({"a1": ("white", "man"), "b1": ("black", "man"), "e5": ("black", "man")})
    free = game.make_state({"a1": ("white", "man"), "e5": ("black", "man")})
    assert _walks_from_a1(game, blocked) == ["a1-a3", "a1-b2"]
    assert _walks_from_a1(game, free) == ["a1-a3", "a1-b2", "a1-c1"]


def _blockers(game) -> list:
    return [value for value in game.rules.constants.values() if isinstance(value, Blockers)]


def test_the_walks_read_the_neutral_mask_only_where_no_rule_changes_an_owner(tmp_path):
    # The walks' blockers are made once the rules are compiled, when it is known
    # whether a rule can change an owner: only then is the neutral sites' mask,
    # kept with the position, the mask of the blocking pieces.
    (tmp_path / "kept").mkdir()
    (tmp_path / "changed").mkdir()
    kept = _game(tmp_path / "kept", WALK, ROCKS_ONLY)
    changed = _game(tmp_path / "changed", _step_e5_e4_and("to.owner = none"), ROCKS_ONLY)
    assert [b.neutral_only for b in _blockers(kept)] == [True]
    assert [b.neutral_only for b in _blockers(changed)] == [False]
    assert {n.attr for n in generated(kept, ast.Attribute, ": the legal actions")} >= {"mask"}
    assert "mask" not in {n.attr for n in generated(changed, ast.Attribute, ": the legal actions")}
    with pytest.raises(FrozenInstanceError):
        _blockers(kept)[0].neutral_only = False
