"""A loop's body runs again on what its last pass wrote (format.md 3.10): the
landing of an `onto empty` case is empty on the first pass only, and the acting
piece a pass removed is not moved by the next — each pass leaves the board and
the pieces' lists in step (a definition that loops so once corrupted both, or
stopped with a Python error)."""
from interpreter import load_game
from tests.helpers import placing, stones_and_rocks, write_definition

RULES = """\
phase play:
    turn: place
    if no action:
        end game
decision place:
    action stone:
        drop stone on sites
        notation "{to}"
        onto empty:
            LOOP:
                place
    action shift:
        step e
        notation "{from}-{to}"
        onto empty:
            LOOP:
                move
                remove to
score: count(pieces of player)
"""
LOOPS = ["repeat 2 times", "for each k in 1 to 2", "for each p in players"]


def _game(tmp_path, loop):
    return load_game(write_definition(tmp_path, stones_and_rocks(files=3, ranks=1), RULES.replace("LOOP", loop)))


def test_a_place_repeated_on_the_landing_leaves_one_stone(tmp_path):
    for loop in LOOPS:
        game = _game(tmp_path, loop)
        state = game.apply(game.initial_state(), "a1")
        assert state.occ[0] == [0], loop
        assert game.engine.scores(state) == (1, 0), loop
        assert sorted(game.legal_notations(state)) == ["b1", "c1"], loop


def test_a_piece_removed_by_a_pass_is_not_moved_by_the_next(tmp_path):
    for loop in LOOPS:
        game = _game(tmp_path, loop)
        state = game.initial_state()
        for notation in ("a1", "c1", "a1-b1"):
            state = game.apply(state, notation)
        assert state.board[0] is None and state.board[1] is None and state.board[2][0] == 1, loop
        assert state.occ[0] == [] and state.occ[1] == [2], loop
        assert game.engine.scores(state) == (0, 1), loop


def test_a_let_reading_a_variable_the_loop_writes_is_read_in_every_pass(tmp_path):
    rules = placing("""\
        for each k in 1 to 3:
            let seen = total
            total = seen + k
    """) + "score: total\n"
    yaml = stones_and_rocks(files=3, ranks=1, extra="variables:\n  total: {}\n")
    game = load_game(write_definition(tmp_path, yaml, rules))
    state = game.apply(game.initial_state(), "@a1")
    assert game.engine.scores(state) == (6, 6)  # 0 + 1 + 2 + 3, not 3 (the first pass's value read again)
