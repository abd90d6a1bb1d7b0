"""Variants that change single entries (docs/format.md 4): `change phase` and
`change decision` in a rules overlay, `change:` and `remove:` in a variant's YAML.
On the small base game of tests/broken/ (Fivefold: men step ahead on a 5x5 board,
a draw after `limit` turns without a capture)."""
from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from interpreter.loading.show import effective_definition
from interpreter.validation.diagnostics import DefinitionError

BASE = Path(__file__).resolve().parent.parent / "broken" / "_base"


@pytest.fixture
def folder(tmp_path) -> Path:
    shutil.copytree(BASE, tmp_path / "fivefold")
    return tmp_path / "fivefold"


def variant(folder: Path, yaml: str = "", rules: str = "", name: str = "v") -> str:
    text = f"variant: {name}\nextends: game.yaml\n"
    if rules:
        text += f"rules: {name}.rules\n"
        (folder / f"{name}.rules").write_text(textwrap.dedent(rules))
    (folder / f"{name}.yaml").write_text(text + textwrap.dedent(yaml))
    return str(folder / f"{name}.yaml")


def errors(path: str, capsys) -> str:
    assert main(["validate", path]) == 1
    return capsys.readouterr().err


def quiet_after(game, moves: list[str]) -> int:
    state = game.initial_state()
    for move in moves:
        state = game.apply(state, move)
    return game.variables(state)["quiet"]


# ------------------------------------------------------------------ change phase
def test_a_changed_phase_keeps_the_entries_not_given(folder):
    path = variant(folder, rules="""\
        change phase play:
            before each turn:
                if quiet >= 2:
                    win
        """)
    game = load_game(path)
    assert game.warnings == []
    phase = next(i for rules in game.definition.rules for i in rules.items if getattr(i, "name", "") == "play")
    assert phase.after_turn is not None and phase.before_turn is not None
    # The game's `after each turn` still draws after `limit` quiet turns: with the
    # option at 1, the first quiet turn draws before the new rule could win.
    game = load_game(path, options={"limit": 1})
    state = game.apply(game.initial_state(), "a2-a3")
    assert game.is_terminal(state) and game.result(state).winner is None


def test_a_change_removes_an_entry(folder):
    path = variant(folder, rules="change phase play:\n    remove after each turn\n")
    game = load_game(path, options={"limit": 1})
    state = game.apply(game.initial_state(), "a2-a3")
    assert not game.is_terminal(state)


def test_a_phase_replaced_whole_without_an_entry_of_the_game_is_a_warning(folder):
    path = variant(folder, rules="phase play:\n    turn: move\n")
    (warning,) = [w for w in load_game(path).warnings if "replaces the game's phase" in w.message]
    assert warning.file.endswith("v.rules") and (warning.line, warning.column) == (1, 1)
    assert "drops its 'after each turn'" in warning.message and "game.rules:7:5" in warning.message
    assert "change phase play:" in warning.hint and "remove after each turn" in warning.hint


def test_a_phase_replaced_whole_with_every_entry_is_quiet(folder):
    path = variant(folder, rules="phase play:\n    turn: move\n    after each turn:\n        draw\n")
    assert load_game(path).warnings == []


def test_changing_a_phase_that_does_not_exist_says_the_nearest(folder, capsys):
    err = errors(variant(folder, rules="change phase plya:\n    remove after each turn\n"), capsys)
    assert "v.rules:1:14: error: there is no phase 'plya' to change" in err
    assert "did you mean 'play'?" in err


def test_changing_a_new_name_says_how_to_add(folder, capsys):
    err = errors(variant(folder, rules="change phase endgame:\n    turn: move\n"), capsys)
    assert "there is no phase 'endgame' to change" in err and "write 'phase endgame:'" in err


def test_removing_an_entry_the_phase_has_not(folder, capsys):
    err = errors(variant(folder, rules="change phase play:\n    remove before each turn\n"), capsys)
    assert "v.rules:2:12: error: phase 'play' has no 'before each turn' to remove" in err
    assert "its entries: turn, after each turn" in err


@pytest.mark.parametrize("rules, expected", [
    ("change phase play:\n    remove turn\n", "v.rules:2:12: error: a phase cannot do without its 'turn'"),
    ("change phase play:\n    after each turn:\n        draw\n    remove after each turn\n",
     "v.rules:4:12: error: the change of 'play' both gives 'after each turn' (line 2) and removes it"),
    ("change phase play:\n    remove order\n    remove order\n",
     "v.rules:3:12: error: 'remove order' is written twice in the change of 'play'"),
])
def test_contradictory_changes_are_errors(folder, capsys, rules, expected):
    assert expected in errors(variant(folder, rules=rules), capsys)


def test_change_belongs_in_a_variant(folder, capsys):
    (folder / "game.rules").write_text((folder / "game.rules").read_text() + "\nchange phase play:\n    turn: move\n")
    err = errors(str(folder), capsys)
    assert "error: 'change phase' belongs in a variant's rules, not in a game's" in err


def test_add_to_runs_after_the_entrys_own_statements(folder):
    path = variant(folder, rules="""\
        change phase play:
            add to after each turn:
                if quiet >= 1:
                    win
        """)
    # The game's draw after `limit` quiet turns comes first and ends the game ...
    game = load_game(path, options={"limit": 1})
    state = game.apply(game.initial_state(), "a2-a3")
    assert game.is_terminal(state) and game.result(state).winner is None
    # ... and otherwise the added statements run after it.
    game = load_game(path, options={"limit": 5})
    state = game.apply(game.initial_state(), "a2-a3")
    assert game.is_terminal(state) and game.result(state).winner == "white"


def test_add_to_an_entry_the_phase_has_not_gives_it(folder):
    path = variant(folder, rules="change phase play:\n    add to before each turn:\n        if quiet >= 1:\n"
                                 "            win\n")
    game = load_game(path, options={"limit": 5})
    state = game.apply(game.initial_state(), "a2-a3")
    assert game.is_terminal(state) and game.result(state).winner == "black"  # quiet is 1 at its turn


def test_add_to_after_each_action_of_a_decision(folder):
    path = variant(folder, rules="change decision move:\n    add to after each action:\n        quiet += 100\n")
    assert quiet_after(load_game(path), ["a2-a3"]) == 101
    (folder / "game.rules").write_text((folder / "game.rules").read_text().replace(
        "decision move:\n", "decision move:\n    after each action:\n        quiet += 10\n", 1))
    assert quiet_after(load_game(path), ["a2-a3"]) == 111


@pytest.mark.parametrize("rules, expected", [
    ("change phase play:\n    add to after each turn:\n        draw\n    add to after each turn:\n        win\n",
     "v.rules:4:5: error: 'add to after each turn' is written twice in the change of 'play' (first on line 2)"),
    ("change phase play:\n    after each turn:\n        draw\n    add to after each turn:\n        win\n",
     "v.rules:4:5: error: the change of 'play' both gives 'after each turn' (line 2) and adds to it"),
    ("change phase play:\n    remove after each turn\n    add to after each turn:\n        win\n",
     "v.rules:3:5: error: the change of 'play' both removes 'after each turn' (line 2) and adds to it"),
    ("change decision move:\n    after each action:\n        quiet += 1\n    add to after each action:\n"
     "        quiet += 2\n",
     "v.rules:4:5: error: the change of 'move' both gives 'after each action' (line 2) and adds to it"),
])
def test_contradictory_additions_are_errors(folder, capsys, rules, expected):
    assert expected in errors(variant(folder, rules=rules), capsys)


def test_show_marks_an_addition_beside_the_games_entry(folder):
    path = variant(folder, rules="change phase play:\n    add to after each turn:\n        if quiet > 3:\n"
                                 "            win\n")
    text = effective_definition(load_game(path).definition).replace(str(folder) + "/", "")
    assert ("    # game.rules:7:5\n    after each turn:\n        if quiet >= limit:\n            draw\n"
            "    # v.rules:2:5\n    add to after each turn:\n        if quiet > 3:\n            win") in text


# ------------------------------------------------------------------ change decision
def test_a_changed_decision_removes_actions_and_its_after_block(folder):
    (folder / "game.rules").write_text((folder / "game.rules").read_text().replace(
        "decision move:\n", "decision move:\n    prefer: capture\n    after each action:\n        quiet += 10\n", 1))
    assert quiet_after(load_game(str(folder)), ["a2-a3"]) == 11
    path = variant(folder, rules="""\
        change decision move:
            remove after each action
            remove prefer
            remove action enter
        """)
    game = load_game(path)
    assert [w.message for w in game.warnings] == ["region 'home' is never used in the rules"]  # by 'enter' only
    assert quiet_after(game, ["a2-a3"]) == 1
    decision = next(i for rules in game.definition.rules for i in rules.items if getattr(i, "name", "") == "move")
    assert [a.name for a in decision.actions] == ["step", "capture"] and decision.prefer == []


def test_removing_a_missing_action_in_a_change_points_at_its_name(folder, capsys):
    err = errors(variant(folder, rules="change decision move:\n    remove action stpe\n"), capsys)
    assert "v.rules:2:19: error: decision 'move' has no action 'stpe'" in err and "did you mean 'step'?" in err


def test_removing_after_each_action_the_decision_has_not(folder, capsys):
    err = errors(variant(folder, rules="change decision move:\n    remove after each action\n"), capsys)
    assert "v.rules:2:12: error: decision 'move' has no 'after each action' to remove" in err


# ------------------------------------------------------------------ YAML entries
def test_change_adds_and_replaces_single_entries(folder):
    path = variant(folder, yaml="""\
        change:
          variables:
            bonus: {type: int, default: 3}
          regions:
            centre: [c3, c4]
          setup:
            white:
              chief: [c1]
          options:
            limit: {type: int, default: 7, min: 1}
            speed: {values: [slow, fast], default: slow}
        options:
          speed: fast
        """, rules="""\
        change phase play:
            after each turn:
                bonus += 1
                if quiet >= limit:
                    draw
        """)
    game = load_game(path)
    assert game.warnings == []
    data = game.definition.data
    assert list(data["variables"]) == ["captures", "quiet", "bonus"]
    assert data["regions"]["centre"] == ["c3", "c4"] and list(data["regions"]) == ["goal", "home", "centre"]
    assert data["setup"]["white"] == {"man": ["a2", "b2", "c2", "d2", "e2"], "chief": ["c1"]}
    assert data["options"]["limit"]["default"] == 7 and data["options"]["speed"]["default"] == "fast"
    state = game.apply(game.initial_state(), "a2-a3")
    assert game.variables(state)["bonus"] == 4
    assert ("c1", "chief") in [(p.site, p.kind) for p in game.pieces(state)]
    assert load_game(path, options={"speed": "slow"}).model.options["speed"] == "slow"


def test_remove_drops_single_entries(folder):
    path = variant(folder, yaml="""\
        remove:
          regions: [centre]
          setup:
            black: [man]
        """, rules="""\
        procedure advance:
            move
            if in_goal:
                win
        """)
    game = load_game(path)
    assert "centre" not in game.definition.data["regions"]
    assert [p.owner for p in game.pieces(game.initial_state())] == ["white"] * 5


def test_remove_a_whole_owner_of_the_setup(folder):
    game = load_game(variant(folder, yaml="remove:\n  setup: [black]\n"))
    assert {p.owner for p in game.pieces(game.initial_state())} == {"white"}


def test_removing_what_is_not_there_says_the_nearest(folder, capsys):
    err = errors(variant(folder, yaml="remove:\n  regions: [centr]\n  setup:\n    blak: [man]\n    white: [chief]\n"),
                 capsys)
    assert "v.yaml:4:13: error: the game has no region 'centr' to remove" in err and "did you mean 'centre'?" in err
    assert "v.yaml:6:5: error: the setup has no pieces of 'blak' to remove" in err and "did you mean 'black'?" in err
    assert "v.yaml:7:13: error: the setup has no 'chief' of 'white' to remove" in err


def test_removing_and_changing_one_entry_is_an_error(folder, capsys):
    err = errors(variant(folder, yaml="remove:\n  regions: [centre]\nchange:\n  regions:\n    centre: [c4]\n"), capsys)
    assert "v.yaml:4:13: error: 'centre' is both removed and changed (at line 7)" in err


def test_a_mistake_in_a_changed_entry_is_reported_in_the_variant(folder, capsys):
    err = errors(variant(folder, yaml="change:\n  regions:\n    centre: [c3, z9]\n"), capsys)
    assert "v.yaml:5:18: error: unknown site 'z9'" in err


def test_a_new_entry_one_typo_from_an_old_one_is_a_warning(folder):
    game = load_game(variant(folder, yaml="change:\n  variables:\n    qiuet: {type: int}\n"))
    messages = [w.message for w in game.warnings]
    assert "variable 'qiuet' is added next to 'quiet', which it does not replace" in messages


def test_a_section_replaced_whole_by_a_later_variant_forgets_the_entries_changed(folder, capsys):
    variant(folder, yaml="change:\n  regions:\n    wing: [a1]\n", name="first")
    (folder / "second.yaml").write_text("variant: second\nextends: first.yaml\nregions:\n  centre: [c3]\n"
                                        "  goal: {per_player: {white: [z5], black: [a1]}}\n"
                                        "  home: {per_player: {white: [a1], black: [a5]}}\n")
    err = errors(str(folder / "second.yaml"), capsys)
    assert "second.yaml:5:31: error: unknown site 'z5'" in err


def test_show_marks_each_section_and_changed_entry_with_file_and_line(folder):
    path = variant(folder, yaml="change:\n  variables:\n    bonus: {type: int}\n"
                               "  setup:\n    white:\n      chief: [c1]\n",
                   rules="change phase play:\n    before each turn:\n        if bonus > 3:\n            draw\n")
    shown = effective_definition(load_game(path).definition)
    assert "# from game.yaml:49\nvariables:\n  # from game.yaml:50\n  captures:" in shown.replace(str(folder) + "/", "")
    text = shown.replace(str(folder) + "/", "")
    assert "  # from v.yaml:6\n  bonus:\n    type: int\n" in text
    assert "  # from game.yaml:71\n  white:\n    # from game.yaml:72\n    man:" in text
    assert "    # from v.yaml:9\n    chief:\n    - c1\n" in text
    assert "phase play:\n    # game.rules:6:5\n    turn: move\n    # game.rules:7:5\n    after each turn:" in text
    assert "    # v.rules:2:5\n    before each turn:\n        if bonus > 3:" in text


def test_change_and_remove_follow_the_schema(folder):
    with pytest.raises(DefinitionError) as caught:
        load_game(variant(folder, yaml="change:\n  board: {grid: {files: 3, ranks: 3}}\nremove:\n  regions: centre\n"))
    text = str(caught.value)
    assert "unknown field 'board' in change" in text
    assert "remove.regions must be a list" in text


# ------------------------------------------------------------------ names added on purpose
@pytest.mark.parametrize("new, old, slip", [
    ("steps", "step", True), ("stpe", "step", True), ("Step", "step", True), ("pawncapture", "pawn_capture", True),
    ("pawn_captures", "pawn_capture", True),
    ("diagonal_capture", "pawn_capture", False), ("move_n", "move_s", False), ("leap3", "leap2", False),
    ("king_capture", "king_move", False), ("castle_long", "castle_short", False),
])
def test_a_new_name_is_a_slip_only_one_typo_from_an_old_one(new, old, slip):
    from interpreter.loading.namesakes import near_namesake

    assert near_namesake(new, [old, "unrelated"]) == (old if slip else None)


def test_an_action_added_beside_a_namesake_on_purpose_is_quiet(folder):
    path = variant(folder, rules="""\
        decision move:
            action diagonal_capture by man:
                jump forward_diagonal
                over enemy: take
        """)
    rules = (folder / "game.rules").read_text()
    (folder / "game.rules").write_text(rules.replace("action capture", "action pawn_capture"))
    assert [w for w in load_game(path).warnings if "does not replace" in w.message] == []
