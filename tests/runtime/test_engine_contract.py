"""What the runtime promises: reading a position never changes it, and one game can
serve several threads at once, each playing its own positions."""
import random
import threading

from interpreter import load_game


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
    text = game.rules.source
    # No global state: the generated code keeps nothing between calls but constants.
    assert "global" not in text and "nonlocal" not in text
