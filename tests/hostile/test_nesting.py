"""Rules nested past what the generated code may nest: a located error, never an
internal one (the parser bounds the rules' own nesting at 200 levels; Python
compiles loops at most 20 blocks deep)."""
from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.api import CheckedGame
from interpreter.compilation.items import collect_items
from interpreter.loading.definition import load_definition
from interpreter.validation.diagnostics import DefinitionError
from interpreter.validation.nesting import DEEP_ENOUGH_TO_WRITE, loop_depth

from .conftest import GameCopy, assert_clean, run_cli

TAIL = "    if in_goal:\n        win\n\nprocedure take"
LOOPS = "the rules nest more loops (for each, exists, count, ...) one inside another than can be compiled"


def nested_loops(game, levels: int) -> None:
    loops = "".join("    " * (i + 1) + f"for each s{i} in centre:\n" for i in range(levels))
    game.edit("game.rules", TAIL, "    if in_goal:\n        win\n" + loops + "    " * (levels + 1)
              + "quiet += 1\n\nprocedure take")


def test_for_each_nested_past_python_s_blocks_is_located(capsys, base_game):
    nested_loops(base_game, 21)
    code, _, err = run_cli(capsys, "validate", base_game)
    assert_clean(code, err)
    # (which of the case's functions Python refuses first differs between versions: the
    # case's own, or perft's last ply played in place, whose name then follows)
    assert err.splitlines()[0].startswith(f"{base_game}/game.rules:14:9: error: {LOOPS}, in the code of action "
                                          "'step', onto empty, in phase 'play'")


@pytest.mark.parametrize("quantifier", ["count", "exists"])
def test_quantifiers_nested_past_python_s_blocks_are_located(base_game, quantifier):
    nested = "".join(f"{quantifier}(s{i} in centre, " for i in range(30)) + "true" + ")" * 30
    base_game.edit("game.rules", "define in_goal = to in goal[player]",
                   f"define in_goal = to in goal[player] and {nested}{' > 0' if quantifier == 'count' else ''}")
    with pytest.raises(DefinitionError) as caught:
        load_game(str(base_game))
    first = caught.value.diagnostics[0]
    assert (first.line, first.column) == (14, 9) and first.message.startswith(LOOPS)


def test_loops_nested_as_deep_as_python_compiles_still_play(base_game):
    nested_loops(base_game, 19)
    game = load_game(str(base_game))
    state = game.initial_state()
    assert len(game.legal_notations(state)) == 10
    state = game.apply(state, "a2-a3")
    assert game.variables(state)["quiet"] == 2  # (1 for the step, 1 in the innermost loop, over one site)


def test_checking_alone_finds_loops_nested_past_python_s_blocks(base_game):
    # (what `validate` runs at the other board sizes: a definition that checks must load)
    nested_loops(base_game, 21)
    with pytest.raises(DefinitionError) as loading:
        load_game(str(base_game))
    with pytest.raises(DefinitionError) as checking:
        CheckedGame(load_definition(str(base_game)), {})
    first = checking.value.diagnostics[0]
    assert first == loading.value.diagnostics[0]
    assert (first.line, first.column) == (14, 9) and first.message.startswith(LOOPS)


@pytest.mark.parametrize("levels", [3, DEEP_ENOUGH_TO_WRITE])
def test_the_loops_counted_are_those_the_procedure_nests(tmp_path, levels):
    game = GameCopy(tmp_path / "game")
    nested_loops(game, levels)
    items = collect_items(load_definition(str(game)).rules, [])
    assert loop_depth(items) == levels  # (the case's statements stand beside its pattern, not in it)
