"""What a definition can make the interpreter do is bounded: the work of one
position (checked before play), the size of numbers, faults of the rules at run
time (located errors, never Python's), and memory that grows with the board, not
with its square."""
import textwrap
import time
import tracemalloc

import pytest

from interpreter import RuleRuntimeError, load_game
from interpreter.frontends.cli import main

GRID = """\
game: probe
rules: game.rules
players: [white, black]
board:
  grid: {{files: {files}, ranks: {ranks}}}
pieces:
  man: {{symbol: M}}
variables:
  big: {{type: int, default: 1}}
setup:
  white: {{man: [a1]}}
  black: {{man: [b2]}}
"""


def write(tmp_path, rules: str, files: int = 26, ranks: int = 26) -> str:
    (tmp_path / "game.yaml").write_text(GRID.format(files=files, ranks=ranks))
    (tmp_path / "game.rules").write_text(textwrap.dedent(rules))
    return str(tmp_path)


def validate(path: str, capsys) -> tuple[int, str]:
    status = main(["validate", path])
    return status, capsys.readouterr().err


MOVE = """\
    phase play:
        turn: move
    decision move:
        action go:
            where {where}
            step all
            onto empty: move
"""


def test_nested_loops_over_the_board_are_refused_before_play(tmp_path, capsys):
    where = "count(sites, count(sites, count(sites, count(sites, it is empty) > 0) > 0) > 0) > 0"
    status, err = validate(write(tmp_path, MOVE.format(where=where)), capsys)
    assert status == 1
    assert "game.rules:4:5: error: listing the actions of 'go' may take about" in err
    assert "the limit is 1e+09" in err


def test_loops_over_loops_in_statements_are_refused(tmp_path, capsys):
    rules = """\
        phase play:
            turn: move
            after each turn:
                for each a in sites:
                    for each b in sites:
                        for each c in sites:
                            for each d in sites:
                                big += 1
        decision move:
            action go:
                step all
                onto empty: move
    """
    status, err = validate(write(tmp_path, rules), capsys)
    assert status == 1
    assert "after each turn may take about" in err


DROPS = """\
        action put:
            drop man on sites
            onto empty: place
"""


def test_a_large_but_bounded_rule_is_a_warning(tmp_path, capsys):
    # asked for every candidate (it reads `to`; a neighbour of each site, no
    # mask of sites): 256 x 256 steps each, for 8
    # candidates of up to 256 pieces on a 16 x 16 board (men are dropped)
    where = "count(sites, count(sites, neighbour(it, n) == to) > 0) > 0"
    path = write(tmp_path, MOVE.format(where=where) + DROPS, 16, 16)
    status, err = validate(path, capsys)
    assert status == 0
    # located at the action, its hint says what the bound assumes and where real costs are seen
    assert f"{path}/game.rules:4:5: warning: listing the actions of 'go' may take about" in err
    assert "hint: a worst case: 256 pieces acting (all the board's sites for a kind a rule may add" in err, err
    assert "`regelwerk bench GAME`" in err


def test_the_pieces_that_may_act_are_those_the_setup_gives_when_no_rule_adds_any(tmp_path, capsys):
    # The same rule, but men are never dropped, created or promoted to: two men
    # at most, not 256, list their candidates (2 x 8 x 256 x 256 steps).
    where = "count(sites, count(sites, neighbour(it, n) == to) > 0) > 0"
    status, err = validate(write(tmp_path, MOVE.format(where=where), 16, 16), capsys)
    assert status == 0
    assert "may take about" not in err


def test_a_number_that_grows_too_large_is_a_located_error(tmp_path):
    rules = """\
        phase play:
            turn: move
        decision move:
            action go:
                step all
                onto empty:
                    move
                    big = big * 100000
    """
    game = load_game(write(tmp_path, rules, 5, 5))
    state = game.initial_state()
    with pytest.raises(RuleRuntimeError) as caught:
        for _ in range(10):
            state = game.apply(state, game.legal_notations(state)[0])
    assert "a number grew beyond 1e+15" in str(caught.value)
    assert caught.value.pos.line == 8


def test_division_by_zero_in_the_rule_for_no_action(tmp_path, capsys):
    rules = """\
        phase play:
            turn: move
            if no action:
                end game
        decision move:
            action go by man:
                step n
                onto enemy: move
        score: 1 // (count(pieces) - count(pieces))
    """
    path = write(tmp_path, rules, 5, 5)
    for command in (["moves", path], ["perft", path, "--depth", "1"], ["bench", path, "--playouts", "1"]):
        assert main(command) == 1
        err = capsys.readouterr().err
        assert "game.rules:9:8: error: division by zero" in err and "internal error" not in err


def test_a_large_graph_board_compiles_in_little_memory(tmp_path):
    sites = ", ".join(f"s{i}: null" for i in range(5000))
    (tmp_path / "game.yaml").write_text(
        "game: big\nrules: game.rules\nplayers: [red, blue]\n"
        f"board:\n  graph:\n    sites: {{{sites}}}\n    edges: [[s0, s1]]\n"
        "pieces:\n  man: {symbol: M}\nsetup:\n  red: {man: [s0]}\n  blue: {man: [s4999]}\n"
    )
    (tmp_path / "game.rules").write_text(textwrap.dedent("""\
        phase play:
            turn: move
        decision move:
            action fly:
                go to sites
                onto empty: move
    """))
    tracemalloc.start()
    started = time.process_time()  # (this process's time: a busy machine must not fail it)
    game = load_game(str(tmp_path))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 200 * 1024 * 1024  # not a table of sites x sites
    assert time.process_time() - started < 60
    assert len(game.legal_notations(game.initial_state())) == 4998


@pytest.mark.parametrize("where, doing", [
    ("before each turn", "in the 'before each turn' rules of phase 'play'"),
    ("after each turn", "while applying action 'go', onto empty"),
])
def test_a_fault_in_a_playout_is_located_at_its_rule(tmp_path, where, doing):
    rules = f"""\
        phase play:
            turn: move
            {where}:
                if big > 3:
                    big = big // (big - big)
                big += 1
        decision move:
            action go:
                step all
                onto empty: move
    """
    import random

    game = load_game(write(tmp_path, rules, 5, 5))
    with pytest.raises(RuleRuntimeError) as caught:
        game.engine.random_playout(game.initial_state(), random.Random(1), 100)
    assert "division by zero" in str(caught.value) and doing in str(caught.value)
    assert caught.value.pos.line == 5


def test_with_stacks_the_pieces_that_may_act_are_at_most_the_setups_stones(tmp_path, capsys):
    # With stacks a stone leaving a stack is a piece of the stack's kind; with no
    # create, drop or pool the pieces are still at most the setup's two stones.
    where = "count(sites, count(sites, neighbour(it, n) == to) > 0) > 0"
    path = write(tmp_path, MOVE.format(where=where), 16, 16)
    with open(tmp_path / "game.yaml", "a") as yaml:
        yaml.write("stacks: true\n")
    status, err = validate(path, capsys)
    assert (status, "may take about" in err) == (0, False), err
    # a rule that makes stones (a drop): every site may hold a piece that acts
    (tmp_path / "game.rules").write_text(textwrap.dedent(MOVE.format(where=where) + DROPS))
    status, err = validate(path, capsys)
    assert status == 0 and "warning: listing the actions of 'go' may take about" in err, err


GO = """\
    forbid passing where count(sites, count(sites, count(sites, neighbour(it, n) == site) > 0) > 0) > 0
    phase play:
        turn: move
    decision move:
        action go:
            go to sites
            onto empty: move
"""


def test_forbid_passing_is_not_charged_to_an_action_that_passes_nothing(tmp_path, capsys):
    # format.md 3.7: `go`, `drop` and `select` pass nothing; the costly forbid is
    # charged to a step (it passes sites), not to the `go` (2 x 256 steps)
    status, err = validate(write(tmp_path, GO, 16, 16), capsys)
    assert (status, "may take about" in err) == (0, False), err
    step = GO + "        action slide:\n            step all\n            onto empty: move\n"
    status, err = validate(write(tmp_path, step, 16, 16), capsys)
    assert status == 1 and "game.rules:8:5: error: listing the actions of 'slide' may take about" in err, err
    # the error names the line that makes most of the steps, and the candidates asking it
    assert f"most are 'forbid passing' at {tmp_path}/game.rules:1:1: about 8.4e+07 steps asked of each of " \
           "about 16 candidates; the limit is 1e+09" in err, err


def test_the_work_estimates_error_names_the_costliest_where(tmp_path, capsys):
    where = "count(sites, count(sites, count(sites, neighbour(it, n) == to) > 0) > 0) > 0"
    status, err = validate(write(tmp_path, MOVE.format(where="to != a1 and " + where)), capsys)
    assert status == 1
    assert f"most are a 'where' condition at {tmp_path}/game.rules:5:28: about" in err, err
