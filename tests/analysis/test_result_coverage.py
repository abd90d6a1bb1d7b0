"""Rule coverage of `forbid result` (docs/design/format-reach-3.md, section 11): a
line counts once for each candidate it rejects, when the actions are listed and
when a playout checks the candidates it draws — though the trial plays of the
check count nothing else."""
import random

from interpreter import load_game
from tests.helpers import REPO, stones_and_rocks, write_definition

# The 4 x 4 game: a man may not end on b1 (nor on a3, a second line).
RULES = """\
    forbid result where exists(pieces, it == b1)
    forbid result where exists(pieces, it == a3) or exists(pieces, it == b1)
    phase play:
        turn: move
    decision move:
        action step by stone:
            step n, e, s, w
            onto empty: move
"""


def corner(tmp_path):
    yaml = stones_and_rocks(extra="setup:\n  white:\n    stone: [a1]\n  black:\n    stone: [d4]\n")
    return load_game(write_definition(tmp_path, yaml, RULES), coverage=True)


def fired(game) -> dict:
    return {(probe.kind, probe.line): count for probe, count in game.coverage.fired()}


def test_each_rejected_candidate_counts_for_the_first_line_that_rejects_it(tmp_path):
    game = corner(tmp_path)
    state = game.initial_state()
    assert game.legal_notations(state) == ["a1-a2"]
    counts = fired(game)
    # a1-b1 was rejected by the first line (the second would have too); the cases
    # played on the copies to check them are not counted.
    assert counts[("forbid", 1)] == 1 and counts[("forbid", 2)] == 0 and counts[("case", 8)] == 0
    game.apply(game.apply(state, "a1-a2"), "d4-d3")
    counts = fired(game)
    assert counts[("forbid", 2)] == 1  # a2-a3
    assert counts[("case", 8)] == 2  # the two steps played


def test_playouts_count_the_rejections_of_the_candidates_they_draw(tmp_path):
    game = corner(tmp_path)
    engine = game.engine
    rng = random.Random(1)
    state = engine.initial_state()
    game.coverage.reset()
    engine.random_playout(state, rng, 40)
    counts = fired(game)
    assert counts[("case", 8)] == 40
    assert counts[("forbid", 1)] + counts[("forbid", 2)] > 0


def test_the_check_rule_of_chess_fires_in_random_games():
    game = load_game(str(REPO / "docs" / "examples" / "chess"), coverage=True)
    engine = game.engine
    rng = random.Random(2)
    for _ in range(3):
        engine.random_playout(engine.initial_state(), rng, 200)
    results = [count for probe, count in game.coverage.fired() if probe.kind == "forbid" and "result" in probe.label]
    assert results and all(count > 0 for count in results)
