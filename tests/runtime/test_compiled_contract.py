"""The compiled game as the runtime gets it (runtime/compiled.py): frozen, built
once and complete after the module is compiled; action codes read by name; one
CHANCE and one NEUTRAL, with their names for the API in one place."""
from dataclasses import FrozenInstanceError

import pytest

from interpreter import CHANCE_NAME, NEUTRAL_NAME, bundled_games, load_game
from interpreter.compilation.source import Source, UnsafeSource, bind_later, compile_module
from interpreter.runtime.compiled import CasePattern
from interpreter.runtime.pieces import CHANCE, NEUTRAL, NO_CHOICE, NO_SITE, ActionCode
from interpreter.runtime.results import EndingKind
from tests.helpers import REPO, play

CHESS = str(REPO / "docs" / "examples" / "chess")
CHECKERS = str(REPO / "docs" / "examples" / "checkers")
BENCHMARK_GAMES = REPO / "benchmarks" / "games"


def test_the_compiled_rules_and_their_parts_cannot_be_changed():
    rules = load_game("royalfiz").rules
    for part, field in ((rules, "runs"), (rules.decisions[0], "legal"), (rules.cases[0], "pattern"),
                        (rules.phases[0], "no_action")):
        with pytest.raises(FrozenInstanceError):
            setattr(part, field, None)
    for table in (rules.decisions, rules.cases, rules.phases, rules.runs, rules.initial_board, rules.initial_vars,
                  rules.players, rules.site_names):
        assert isinstance(table, tuple)
    with pytest.raises(TypeError):
        rules.source_map["f0"] = None  # type: ignore[index]
    with pytest.raises(FrozenInstanceError):
        rules.results.score = None  # type: ignore[misc]


@pytest.mark.parametrize("name", bundled_games())
def test_every_decision_phase_and_case_is_complete_once_loaded(name):
    rules = load_game(name).rules
    for decision in rules.decisions:
        if decision.is_chance:
            assert decision.legal is None and decision.codes
            assert len(decision.codes) == len(decision.outcome_labels) == len(decision.probabilities)
        else:
            assert callable(decision.legal) and callable(decision.legal_with_duplicates)
    for phase in rules.phases:
        assert callable(phase.no_action)
    assert all(len(row) == len(rules.cases) and all(map(callable, row)) for row in rules.runs)
    assert all(isinstance(case.pattern, CasePattern) for case in rules.cases)


def test_each_case_says_how_its_action_moves():
    patterns = {(case.action, case.pattern) for case in load_game("royalfiz").rules.cases}
    assert patterns == {
        ("start", CasePattern.CHANCE), ("roll", CasePattern.CHANCE), ("walk", CasePattern.MOVE),
        ("jump_moat", CasePattern.MOVE), ("no_move", CasePattern.PASS), ("place", CasePattern.DROP),
    }
    morris = {(case.action, case.pattern) for case in load_game("morris").rules.cases}
    assert {("place", CasePattern.DROP), ("remove", CasePattern.SELECT), ("slide", CasePattern.MOVE)} <= morris
    checkers = {case.pattern for case in load_game(CHECKERS).rules.cases if case.action == "man_jump"}
    assert checkers == {CasePattern.JUMP}
    assert [p for p in CasePattern if p.moves] == [CasePattern.MOVE, CasePattern.JUMP, CasePattern.SCREEN]
    assert [p for p in CasePattern if not p.lands] == [CasePattern.PASS, CasePattern.CHANCE]


def test_the_constructs_of_issue_27_are_in_the_contract():
    # xiangqi's cannon captures over one piece (a screen); backgammon plays the
    # longest turn (its filter picks for playouts; no draws, no candidates) and
    # bears off showing the die (values carried by its codes after the choice).
    xiangqi = {case.pattern for case in load_game(str(BENCHMARK_GAMES / "xiangqi")).rules.cases}
    assert CasePattern.SCREEN in xiangqi
    rules = load_game(str(BENCHMARK_GAMES / "backgammon")).rules
    longest = [d for d in rules.decisions if d.pick is not None]
    assert longest and all(d.draws is None and d.candidates is None for d in longest)
    shown = [case for case in rules.cases if case.shown]
    assert shown and all(isinstance(case.shown, tuple) and len(case.shown_values) == len(case.shown)
                         for case in shown)


def test_an_action_code_reads_by_name_whatever_fields_it_leaves_out():
    assert ActionCode.of((3, 10, 12)) == ActionCode(3, 10, 12, NO_SITE, NO_CHOICE)
    assert ActionCode.of((3, 10, 12, NO_SITE, NO_CHOICE, 4)) == ActionCode(3, 10, 12, NO_SITE, NO_CHOICE)
    assert ActionCode.of((3, 10, 14, 12)).jumped == 12
    assert ActionCode.of((5, NO_SITE, NO_SITE, NO_SITE, 2)).choice == 2
    game = load_game(CHECKERS)
    state = play(game, "c3-d4", "f6-e5")
    jumps = [a.code for a in game.legal_actions(state)]
    assert [(ActionCode.of(code).origin, ActionCode.of(code).jumped, ActionCode.of(code).destination)
            for code in jumps] == [(game.board.sites.index("d4"), game.board.sites.index("e5"),
                                    game.board.sites.index("f6"))]
    assert game.engine.landing_site(jumps[0]) == game.board.sites.index("f6")


def test_chance_and_neutral_have_one_value_each_and_one_name():
    game = load_game("royalfiz")
    state = game.initial_state()
    assert game.engine.to_move(state) == game.engine.actor(state) == CHANCE
    assert game.to_move(state) == CHANCE_NAME == "chance"
    barricades = [p for p in game.pieces(state) if p.kind == "barricade"]
    assert barricades and all(p.owner is None for p in barricades)
    site = game.board.sites.index(barricades[0].site)
    assert state.board[site][0] == NEUTRAL
    assert game.kinds["barricade"]["owner"] == NEUTRAL_NAME
    assert "=neutral.barricade" in game.position_text(state)


def test_endings_are_kinds_with_the_words_the_api_gives():
    assert [kind.word for kind in EndingKind] == ["win", "lose", "draw", "end game", "no legal action"]
    game = load_game("lielow")
    state = game.make_state({"a1": ("white", "piece")}, to_move="black")
    assert game.is_terminal(state)
    how, _ = game.engine.ending(state)
    assert game.result(state).ending.how == how
    assert how in {kind.word for kind in EndingKind}


def test_the_forbid_result_checks_are_bound_once_the_module_is_compiled():
    rules = load_game(CHESS).rules
    assert rules.result_checks and all(len(row) == len(rules.cases) for row in rules.result_checks)
    # The generated listers read the very table the engine holds.
    assert any(value is rules.result_checks for value in rules.constants.values())


def test_a_name_bound_later_must_be_bound_once_and_all_of_them():
    src = Source()
    table = src.bound_later(src.fresh("k"))
    src.function(src.fresh("f"), ["s"], [_return(table)])
    namespace = compile_module(src)
    with pytest.raises(UnsafeSource):
        bind_later(src, namespace, {})
    with pytest.raises(UnsafeSource):
        bind_later(src, namespace, {table.id: (), "h_end": print})
    bind_later(src, namespace, {table.id: (1, 2)})
    assert namespace["f0"](None) == (1, 2)
    with pytest.raises(UnsafeSource):
        bind_later(src, namespace, {table.id: ()})
    with pytest.raises(UnsafeSource):
        src.bound_later(table.id)  # (a name already made)


def _return(value):
    import ast

    return ast.Return(value=value)


def test_board_repetitions_pass_blocks_and_alike_actions_reach_the_runtime_through_the_contract(tmp_path):
    from tests.helpers import write_definition
    from tests.language.test_names_and_checks import COUNTED, JUDGED_BY_RESULT, _alike
    from tests.language.test_pass_blocks import RULES, YAML

    lines = load_game(str(REPO / "benchmarks" / "games" / "lines_of_action")).rules
    assert lines.keeps_boards and lines.turn_hooks
    assert not load_game("royalfiz").rules.keeps_boards
    (tmp_path / "pass").mkdir()
    (tmp_path / "alike").mkdir()
    passing = load_game(write_definition(tmp_path / "pass", YAML, RULES)).rules
    bodies = {case.action: case.body for case in passing.cases if case.pattern is CasePattern.PASS}
    assert set(bodies) == {"pass", "resign"} and all(bodies.values())  # (their statements, compiled)
    judged, _ = _alike(tmp_path / "alike", JUDGED_BY_RESULT, COUNTED)
    keys = [d.alike_keys for d in judged.rules.decisions if d.alike_keys is not None]
    assert len(keys) == 1 and len(keys[0]) == len(judged.rules.cases)
    assert {type(key) for key in keys[0]} == {tuple, type(None)}
    assert all(d.alike_keys is None for d in load_game("lielow").rules.decisions)
