"""A pass that does something: `pass:` with statements (docs/format.md 3.5) —
counting passes in a row, clearing a ko point, resigning."""
import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from tests.helpers import stones_and_rocks, write_definition

YAML = stones_and_rocks(files=2, ranks=1, extra="variables:\n  passes: {}\n  last: {type: site}\n")
RULES = """\
    phase play:
        turn: move
        before each turn:
            if passes >= 2:
                end game
    decision move:
        action stone:
            drop stone on sites
            notation "{to}"
            onto empty:
                place
                passes = 0
                last = to
        action pass:
            pass:
                passes += 1
                last = none
        action resign:
            pass: lose
            notation "resign"
        after each action:
            if to == none and passes == 0:
                lose
    score: count(pieces of player)
"""


@pytest.fixture()
def game(tmp_path):
    return load_game(write_definition(tmp_path, YAML, RULES))


def test_its_statements_run_when_it_is_taken(game):
    state = game.apply(game.initial_state(), "a1")
    assert game.variables(state) == {"passes": 0, "last": "a1"}
    state = game.apply(state, "pass")
    assert game.variables(state) == {"passes": 1, "last": None}
    state = game.apply(game.apply(state, "b1"), "pass")
    assert game.variables(state)["passes"] == 1
    state = game.apply(state, "pass")
    assert game.is_terminal(state) and game.result(state).winner == "white"  # white's two stones


def test_a_pass_may_end_the_game_and_carry_its_notation(game):
    state = game.apply(game.initial_state(), "resign")
    result = game.result(state)
    assert result.winner == "black" and result.ending.text == "pass: lose"
    assert sorted(game.legal_notations(game.initial_state())) == ["a1", "b1", "pass", "resign"]


def test_after_each_action_sees_no_landing_site(game):
    # `to` is none after a pass: the decision's rule ends the game only if no pass
    # was counted (the resignation's own `lose` came first).
    state = game.apply(game.initial_state(), "pass")
    assert not game.is_terminal(state)


def test_coverage_counts_it_as_the_pass_case(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES), coverage=True)
    game.apply(game.initial_state(), "pass")
    fired = {probe.label: count for probe, count in game.coverage.fired()}
    assert fired["action 'pass', pass"] == 1 and fired["action 'resign', pass"] == 0


def test_a_block_after_pass_if_no_other_action(tmp_path):
    rules = RULES.replace("            pass:\n                passes += 1", "            pass if no other action:\n"
                                                                        "                passes += 1")
    rules = rules.replace("        action resign:\n            pass: lose\n            notation \"resign\"\n", "")
    game = load_game(write_definition(tmp_path, YAML, rules))
    state = game.apply(game.apply(game.initial_state(), "a1"), "b1")
    assert game.legal_notations(state) == ["pass"]
    assert game.variables(game.apply(state, "pass"))["passes"] == 1


@pytest.mark.parametrize("old, new, message", [
    ("                last = none\n", "                last = to\n",
     "'to' (the landing or chosen site) has no meaning in action 'pass', pass"),
    ("                last = none\n", "                move\n", "'move' needs 'to', which has no meaning"),
    ("            pass: lose\n", "            pass\n            onto empty: lose\n",
     "'onto empty': a pass has no landing site: its statements follow 'pass:'"),
])
def test_what_a_pass_block_cannot_say(tmp_path, capsys, old, new, message):
    assert old in RULES
    write_definition(tmp_path, YAML, RULES.replace(old, new))
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert message in err, err


NIM_YAML = stones_and_rocks(files=1, ranks=1, extra="variables:\n  pile1: {default: 2}\n  pile2: {default: 3}\n")
NIM_RULES = """\
    phase play:
        turn: take
        if no action:
            lose
    decision take:
        action first for each k in [1, 2, 3]:
            where k <= pile1
            pass: pile1 -= k
            notation "1:{k}"
        action second for each k in [1, 2, 3]:
            where k <= pile2
            pass: pile2 -= k
            notation "2:{k}/{pile2}"
"""


def test_a_pass_made_for_each_value_uses_and_shows_it(tmp_path):
    game = load_game(write_definition(tmp_path, NIM_YAML, NIM_RULES))
    start = game.initial_state()
    assert game.legal_notations(start) == ["1:1", "1:2", "2:1/3", "2:2/3", "2:3/3"]
    after = game.apply(start, "2:2/3")
    assert game.variables(after) == {"pile1": 2, "pile2": 1}
    assert game.legal_notations(after) == ["1:1", "1:2", "2:1/1"]
    # the two piles emptied, the player to move has nothing left and loses
    end = game.apply(game.apply(after, "1:2"), "2:1/1")
    assert game.is_terminal(end) and game.legal_notations(end) == []
