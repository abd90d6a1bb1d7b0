"""`board repetitions`: how many turns so far started with the board as it stands
(docs/format.md 3.11), whoever was to move and whatever the variables said —
Go's positional superko, Lines of Action's repeated board."""
import random

import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from tests.helpers import stones_and_rocks, write_definition

# A line of three sites: each player's stone steps east or west, or the player
# passes (counting the passes, which are no part of the board).
YAML = stones_and_rocks(files=3, ranks=1, extra=(
    "variables:\n  passes: {}\n  seen: {}\n"
    "setup:\n  white:\n    stone: [a1]\n"
))
RULES = """\
    phase play:
        turn: move
        before each turn:
            seen = board repetitions
            if board repetitions >= 3:
                draw
    decision move:
        action step by stone:
            step e, w
            onto empty: move
        action pass:
            pass:
                passes += 1
"""


@pytest.fixture()
def shuffle(tmp_path):
    return load_game(write_definition(tmp_path, YAML, RULES))


def play(game, *notations):
    state = game.initial_state()
    for notation in notations:
        state = game.apply(state, notation)
    return state


def test_the_board_counts_whoever_is_to_move(shuffle):
    # White a1-b1 (black to move), black passes (white to move): b1 twice.
    state = play(shuffle, "a1-b1")
    assert shuffle.variables(state)["seen"] == 1
    state = play(shuffle, "a1-b1", "pass")
    assert shuffle.variables(state)["seen"] == 2
    # The passes counted are no part of the board; the third start with it draws.
    state = play(shuffle, "a1-b1", "pass", "pass")
    assert shuffle.is_terminal(state) and shuffle.result(state).winner is None


def test_a_board_left_and_found_again_counts_again(shuffle):
    # a1 started the first turn and the fourth; with the fifth it draws.
    state = play(shuffle, "a1-b1", "pass", "b1-a1")
    assert shuffle.variables(state)["seen"] == 2 and not shuffle.is_terminal(state)
    assert shuffle.is_terminal(play(shuffle, "a1-b1", "pass", "b1-a1", "pass"))


def test_after_an_action_it_counts_the_board_the_action_left(tmp_path):
    rules = RULES.replace("                passes += 1\n", "                passes += 1\n"
                          "        after each action:\n            passes = board repetitions\n")
    game = load_game(write_definition(tmp_path, YAML, rules))
    # a1-b1 leaves a board no turn started with; a pass the board its turn started
    # with; b1-a1 the board of the first turn.
    assert game.variables(play(game, "a1-b1"))["passes"] == 0
    assert game.variables(play(game, "a1-b1", "pass"))["passes"] == 1
    assert game.variables(play(game, "a1-b1", "pass", "b1-a1"))["passes"] == 1


SUPERKO = """\
    forbid result where to != none and board repetitions > 0
    phase play:
        turn: move
    decision move:
        action step by stone:
            step e, w
            onto empty: move
        action pass:
            pass
"""


def test_forbid_result_makes_a_move_that_repeats_a_board_illegal(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, SUPERKO))
    # After a1-b1 and a pass, b1-a1 would bring back the first board; b1-c1 is new.
    state = play(game, "a1-b1", "pass")
    assert game.legal_notations(state) == ["b1-c1", "pass"]
    # A pass, which recreates the board by definition, stays legal (`to` is none).
    assert "pass" in game.legal_notations(play(game, "a1-b1"))


def test_random_playouts_and_listings_see_the_same_boards(tmp_path):
    # Playouts check `forbid result` on the action they draw: the board of the
    # turn must be counted before, as when the actions are listed.
    game = load_game(write_definition(tmp_path, YAML, SUPERKO))
    engine = game.engine
    rng = random.Random(3)
    drawn = set()
    for _ in range(20):
        state = engine.initial_state()
        for _ in range(12):
            listed = engine.copy(state)  # (listed in full, apart)
            code = engine.random_legal(state, rng)  # (an unsettled position: checked as drawn)
            if code is None:
                break
            assert code in engine.legal(listed)
            drawn.add(engine.notation(code))
            engine.apply_in_place(state, code, settle=False)
    assert drawn == {"a1-b1", "b1-c1", "pass"}  # (going back would bring back a board)


def test_only_the_starts_of_turns_count(tmp_path):
    # A turn of two decisions: the board between them is never counted.
    rules = """\
        phase play:
            turn: first, second
            before each turn:
                seen = board repetitions
        decision first:
            action step by stone:
                step e
                onto empty: move
            after each action:
                passes = board repetitions
        decision second:
            action back by stone:
                step w
                onto empty: move
    """
    game = load_game(write_definition(tmp_path, YAML, rules))
    state = play(game, "a1-b1")
    assert game.variables(state)["passes"] == 0  # b1 never started a turn
    state = play(game, "a1-b1", "b1-a1")
    assert game.variables(state)["seen"] == 2  # a1 started both turns


@pytest.mark.parametrize("place", [
    "    action step by stone:\n        where board repetitions > 1\n        step e\n        onto empty: move\n",
    "    action step by stone:\n        step e\n        onto empty:\n            passes = board repetitions\n",
])
def test_it_means_nothing_while_an_action_is_listed_or_applied(tmp_path, capsys, place):
    rules = "phase play:\n    turn: move\ndecision move:\n" + place
    write_definition(tmp_path, YAML, rules)
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert ("error: 'board repetitions' has no meaning in action 'step'" in err
            and "it means something only in before each turn, if no action, after each action, after each turn "
                "and forbid result" in err), err


def test_a_define_is_judged_where_it_is_used(tmp_path):
    rules = "    define again = board repetitions >= 2\n" + RULES.replace("board repetitions >= 3", "again")
    game = load_game(write_definition(tmp_path, YAML, rules))
    assert game.is_terminal(play(game, "a1-b1", "pass"))


def test_copies_keep_their_own_boards(shuffle):
    state = play(shuffle, "a1-b1")
    copy = shuffle.engine.copy(state)
    shuffle.engine.apply_in_place(copy, shuffle.engine.legal(copy)[-1])  # pass
    assert shuffle.variables(copy)["seen"] == 2
    after = play(shuffle, "a1-b1", "pass", "b1-c1")
    assert shuffle.variables(after)["seen"] == 1 and shuffle.variables(state)["seen"] == 1


def test_board_is_a_word_of_the_language(tmp_path, capsys):
    # A name `board` could never be read in an expression: the YAML says so, and a
    # use of it says why it does not parse.
    write_definition(tmp_path, YAML.replace("  seen: {}\n", "  seen: {}\n  board: {}\n"), RULES)
    assert main(["validate", str(tmp_path)]) == 1
    assert "'board' is a word of the rules language (in expressions it always means itself): it cannot name a " \
           "variable" in capsys.readouterr().err
    write_definition(tmp_path, YAML, RULES.replace("board repetitions >= 3", "board >= 3"))
    assert main(["validate", str(tmp_path)]) == 1
    assert "hint: 'board' starts 'board repetitions' in an expression: a name 'board' cannot be read there" \
        in capsys.readouterr().err


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_playout_counts_the_boards_as_its_actions_applied_one_by_one(shuffle, seed):
    # The playout's loop counts a board never counted itself (Engine.random_playout,
    # State.count_board written out); the same actions applied one by one count
    # through State.count_board: the same boards, counts and end (a third start
    # with one board draws).
    engine = shuffle.engine
    played = []

    def recorded(run):
        def run_recorded(s, code):
            played.append(code)
            return run(s, code)
        return run_recorded

    runs = engine.runs
    engine.runs = [[recorded(run) for run in row] for row in runs]
    state = engine.initial_state()
    engine.random_playout(state, random.Random(seed), 40)
    engine.runs = runs
    again = engine.initial_state()
    for code in played:
        engine.apply_in_place(again, code)
    assert played and state.boards == again.boards and state.board_firsts == again.board_firsts
    assert (state.result is None) == (again.result is None)
    assert max(state.boards.values()) >= 2  # (boards came back: the counting path too)
