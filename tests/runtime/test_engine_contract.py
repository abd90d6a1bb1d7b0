"""What the runtime promises: reading a position never changes it, and one game can
serve several threads at once, each playing its own positions."""
import ast
import random
import threading

from interpreter import load_game
from tests.helpers import generated


def play(game, seed: int) -> list[str]:
    rng = random.Random(seed)
    state = game.initial_state()
    record = []
    while not game.is_terminal(state) and len(record) < 400:
        action = rng.choice(game.legal_actions(state))
        record.append(action.notation)
        state = game.apply(state, action)
    return record


def test_reading_a_position_changes_nothing():
    game = load_game("regibus")
    # A hand-built position where the player to move has no action: the game is
    # over, and asking so repeatedly must not change the position.
    state = game.make_state({"a1": ("white", "knight"), "a2": ("black", "knight")},
                            to_move="white", phase="play")
    before = state.copy()
    for _ in range(2):
        game.to_move(state)
        game.legal_actions(state)
        game.is_terminal(state)
        game.result(state)
        game.current_scores(state)
    assert state == before


def test_two_threads_share_one_game():
    game = load_game("royalfiz", {"players": 3})
    expected = {seed: play(game, seed) for seed in range(6)}
    found: dict = {}

    def worker(seeds):
        for seed in seeds:
            found[seed] = play(game, seed)

    threads = [threading.Thread(target=worker, args=(range(i, 6, 2),)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == expected


def test_a_generated_function_reads_and_writes_only_its_state():
    game = load_game("lielow")
    # No global state: the generated code keeps nothing between calls but constants.
    assert not list(generated(game, (ast.Global, ast.Nonlocal)))
    assert {type(node) for node in game.rules.module.body} == {ast.FunctionDef}


WEATHER = """\
game: weather
rules: game.rules
players: [white, black]
board:
  grid: {files: 3, ranks: 3}
pieces:
  man: {symbol: M}
variables:
  rain: {type: int, default: 0}
  days: {type: int, default: 0}
setup:
  white: {man: [a1]}
  black: {man: [c3]}
"""

WEATHER_RULES = """\
phase play:
    turn: weather
    after each turn:
        days += 1
        if days >= 1:
            end game

chance weather:
    outcomes "sun" weight 3, "rain", "snow" weight 6
    if outcome == "rain":
        rain = 1
"""


def test_a_weighted_chance_event_is_drawn_by_its_weights(tmp_path):
    (tmp_path / "game.yaml").write_text(WEATHER)
    (tmp_path / "game.rules").write_text(WEATHER_RULES)
    game = load_game(str(tmp_path))
    engine = game.engine
    state = game.initial_state()
    assert [(a.notation, round(p, 3)) for a, p in game.chance_outcomes(state)] == [
        ("weather:sun", 0.3), ("weather:rain", 0.1), ("weather:snow", 0.6)]
    rng = random.Random(4)
    drawn = [engine.notation(engine.pick_random(state, rng)) for _ in range(20000)]
    shares = [drawn.count(f"weather:{w}") / len(drawn) for w in ("sun", "rain", "snow")]
    assert all(abs(share - p) < 0.02 for share, p in zip(shares, (0.3, 0.1, 0.6))), shares
    # the probabilities' running sums end at 1: a draw just below 1 is the last outcome
    class AlmostOne:
        def random(self):
            return 0.9999999999999999
    assert engine.notation(engine.pick_random(state, AlmostOne())) == "weather:snow"


def test_an_outcome_a_record_cannot_hold_is_warned_of(tmp_path, capsys):
    from interpreter.frontends.cli import main

    (tmp_path / "game.yaml").write_text(WEATHER)
    (tmp_path / "game.rules").write_text(WEATHER_RULES.replace('"rain", "snow"', '"heavy rain", "snow"'))
    assert main(["validate", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "game.rules:9:36: warning: a chance outcome holds a space" in err
    assert err.count("warning:") == 1 and "error:" not in err  # (the outcomes keep their type)


def test_a_runtime_fault_crosses_processes():
    import pickle

    from interpreter import RuleRuntimeError

    fault = pickle.loads(pickle.dumps(RuleRuntimeError("game.rules:3:5", "division by zero")))
    assert isinstance(fault, RuleRuntimeError)
    assert (fault.pos, fault.message) == ("game.rules:3:5", "division by zero")
    assert str(fault) == "game.rules:3:5: division by zero"


def test_an_action_of_another_position_is_refused():
    import pytest

    from interpreter import IllegalActionError

    game = load_game("lielow")
    start = game.initial_state()
    first = game.legal_actions(start)[0]
    after = game.apply(start, first)
    with pytest.raises(IllegalActionError, match="not legal here"):
        game.apply(after, first)  # white's move, offered to black


def test_make_state_names_what_it_does_not_know():
    import pytest

    game = load_game("regibus")
    with pytest.raises(ValueError, match="unknown player 'whte'; did you mean 'white'"):
        game.make_state({"a1": ("whte", "knight")})
    with pytest.raises(ValueError, match="unknown phase 'plya'; did you mean 'play'"):
        game.make_state({"a1": ("white", "knight")}, phase="plya")
    with pytest.raises(ValueError, match="unknown site 'z9'"):
        game.make_state({"a1": ("white", "knight")}, phase="play", carry="z9")
    with pytest.raises(ValueError, match="unknown variable"):
        game.make_state({"a1": ("white", "knight")}, phase="play", variables={"nothing": 1})


def test_picking_in_a_finished_game_is_a_clear_error():
    import pytest

    game = load_game("lielow")
    state = game.initial_state()
    game.engine.random_playout(state, random.Random(2), 100_000)
    assert game.is_terminal(state)
    with pytest.raises(ValueError, match="the game is over"):
        game.engine.pick_random(state, random.Random(1))
