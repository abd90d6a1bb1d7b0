"""Defines and procedures that double at every level: refused before compiling.

Each use of a define or procedure is compiled in full, so `define d1 = d0 and d0`,
`define d2 = d1 and d1`, ... forty levels deep would keep every command busy for
ever; validation counts the terms from the syntax tree and stops at once.
"""
from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.validation.diagnostics import DefinitionError
from interpreter.validation.expansion import MAX_EXPANDED_TERMS

from ..helpers import GAMES
from .conftest import assert_clean, run_cli

DEFINE = "define in_goal = to in goal[player]"


def first_level_past_the_bound(size_of_level) -> int:
    return next(level for level in range(100) if size_of_level(level) > MAX_EXPANDED_TERMS)


def doubling_defines(levels: int, with_parameter: bool = False) -> str:
    if with_parameter:
        lines = ["define d0(s) = s in goal[player]"]
        lines += [f"define d{i}(s) = d{i - 1}(s) and d{i - 1}(s)" for i in range(1, levels + 1)]
        return "\n".join(lines) + f"\ndefine in_goal = d{levels}(to)"
    lines = ["define d0 = to in goal[player]"]
    lines += [f"define d{i} = d{i - 1} and d{i - 1}" for i in range(1, levels + 1)]
    return "\n".join(lines) + f"\ndefine in_goal = d{levels}"


@pytest.mark.parametrize("command", [["validate"], ["moves"], ["perft", "--depth", "1"], ["lint", "--playouts", "1"]])
def test_forty_six_doubling_defines_stop_every_command_at_once(capsys, base_game, command):
    base_game.edit("game.rules", DEFINE, doubling_defines(46))
    code, _, err = run_cli(capsys, command[0], base_game, *command[1:])
    assert_clean(code, err)
    # d0 is 5 terms (to in goal[player]), d(i) is 3 + 2 d(i - 1): the first past the
    # bound is reported, on its line (the define of d0 is on line 3)
    n = first_level_past_the_bound(lambda i: 2 ** (i + 3) - 3)
    first = err.splitlines()[0]
    assert first.endswith(f"game.rules:{3 + n}:1: error: '{n}' stands for {2 ** (n + 3) - 3} terms with every define "
                          f"and procedure in it written out, more than {MAX_EXPANDED_TERMS} "
                          f"(d{n} -> 2 × d{n - 1} -> 2 × d{n - 2} -> 2 × d{n - 3} -> 2 × d{n - 4} -> 2 × d{n - 5} -> …)"
                          .replace(f"'{n}'", f"'d{n}'"))
    assert err.count(": error:") == 1


def test_defines_with_a_parameter_are_counted_alike(base_game):
    base_game.edit("game.rules", DEFINE, doubling_defines(39, with_parameter=True))
    with pytest.raises(DefinitionError) as caught:
        load_game(str(base_game))
    first = caught.value.diagnostics[0]
    n = first_level_past_the_bound(lambda i: 10 * 2 ** i - 5)  # d(i) = 5 + 2 d(i - 1)
    assert first.message.startswith(f"'d{n}' stands for {10 * 2 ** n - 5} terms")
    assert f"(d{n} -> 2 × d{n - 1} -> " in first.message
    assert (first.line, first.column) == (3 + n, 1)


def test_procedures_calling_procedures_twice_are_counted_too(base_game):
    procedures = "\n".join(["procedure p0:\n    quiet += 1"]
                           + [f"procedure p{i}:\n    p{i - 1}\n    p{i - 1}" for i in range(1, 41)])
    base_game.edit("game.rules", "    if in_goal:\n        win\n\nprocedure take",
                   "    if in_goal:\n        win\n    p40\n\nprocedure take")
    (base_game.path / "game.rules").write_text((base_game.path / "game.rules").read_text() + "\n" + procedures + "\n")
    with pytest.raises(DefinitionError) as caught:
        load_game(str(base_game))
    first = caught.value.diagnostics[0]
    n = first_level_past_the_bound(lambda i: 5 * 2 ** i - 2)  # p(i) = 2 + 2 p(i - 1) (two calls), p0 is 3
    assert first.message.startswith(f"'p{n}' stands for {5 * 2 ** n - 2} terms")
    assert f"(p{n} -> 2 × p{n - 1} -> " in first.message


def test_a_large_define_used_in_many_places_passes_the_bound_of_all_the_rules(base_game):
    # the largest define below the bound (more than half of it), used twice: in
    # procedure advance and in procedure take
    n = first_level_past_the_bound(lambda i: 2 ** (i + 3) - 3) - 1
    base_game.edit("game.rules", DEFINE, doubling_defines(n))
    with pytest.raises(DefinitionError) as caught:
        load_game(str(base_game))
    [error] = caught.value.diagnostics
    assert error.message.startswith(f"the rules stand for more than {MAX_EXPANDED_TERMS} terms")
    assert f"passed at 'move' (advance -> in_goal -> d{n} -> 2 × d{n - 1} -> " in error.message
    assert (error.line, error.column) == (3 + n + 9, 1)  # (d0 to dn, in_goal, the phase: 8 lines)


def test_a_define_below_the_bound_still_compiles(base_game):
    base_game.edit("game.rules", DEFINE, doubling_defines(8))
    assert load_game(str(base_game)).players == ("white", "black")


def test_recursion_is_left_to_the_compilers_message(base_game):
    base_game.edit("game.rules", DEFINE, "define in_goal = to in goal[player] or in_goal")
    with pytest.raises(DefinitionError, match=r"'in_goal' is defined in terms of itself \(in_goal -> in_goal\)"):
        load_game(str(base_game))


def test_the_bundled_games_are_far_below_the_bound():
    from interpreter.compilation.items import collect_items
    from interpreter.loading.definition import load_definition
    from interpreter.validation.expansion import expanded_size

    for folder in sorted(p for p in GAMES.iterdir() if p.is_dir()):
        definition = load_definition(str(folder))
        assert expanded_size(collect_items(definition.rules, [])) < MAX_EXPANDED_TERMS // 20, folder.name


@pytest.mark.parametrize("pattern", ["step e distance 99999", "step e distance 2 to 99999"])
def test_a_step_longer_than_the_board_writes_no_loop_of_its_length(pattern):
    # (found by the CLI fuzz campaign: the chess example's castling spoilt to
    # `step e distance 99999` took half a minute to compile, a test per site passed)
    import shutil
    import tempfile
    from pathlib import Path

    from ..helpers import REPO

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "chess"
        shutil.copytree(REPO / "docs" / "examples" / "chess", folder)
        rules = folder / "chess.rules"
        text = rules.read_text()
        assert "step e distance 2\n" in text
        rules.write_text(text.replace("step e distance 2\n", pattern + "\n", 1))
        game = load_game(str(folder))
        assert len(game.legal_notations(game.initial_state())) == 20
        assert len(game.rules.source) < 2_000_000
