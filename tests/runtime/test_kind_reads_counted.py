"""Kind tests of sites read from constant tables in a lister's count over a loop's
constant values, written as the kind's mask so that the count is answered for all
the values at once (compilation/counted_masks.kind_reads_counted): the same legal
actions with the rewriting and without it."""
from interpreter import load_game
from interpreter.compilation import decisions
from tests.helpers import random_games_seen, stones_and_rocks, write_definition

# A stone or a rock on the middle sites; a stone only where at most one of three
# terms holds: a rock (or the edge) north or east, a rock two sites south, a rock west.
RULES = """
define solid(s) = s == none or s is rock
define crowded(c) = (1 if solid(neighbour(c, n)) or solid(neighbour(c, e)) else 0) \\
    + (1 if neighbour(neighbour(c, s), s) is rock else 0) + (1 if neighbour(c, w) is rock else 0)
phase play:
    turn: place
    after each action:
        moves += 1
        if moves >= 12:
            end game
decision place:
    action stone:
        drop stone on middle
        where crowded(to) <= 1
        notation "{to}"
        onto empty: place
    action rock:
        drop rock on middle
        notation "{to}r"
        onto empty: place
    action pass:
        pass
score: count(pieces of player)
"""
EXTRA = ("regions:\n  middle: {files: [b, c, d, e], only: {ranks: [2, 3, 4]}}\n"
         "variables:\n  moves: {hidden: true, description: Actions so far.}\n"
         "setup:\n  neutral:\n    rock: [a3, c5, f2]\n")


def _counted(game) -> bool:
    return "h_counted_over" in game.rules.source and "h_kind_mask" in game.rules.source


def test_a_count_of_kind_tests_lists_as_without_the_rewriting(tmp_path, monkeypatch):
    path = write_definition(tmp_path, stones_and_rocks(files=6, ranks=5, extra=EXTRA), RULES)
    game = load_game(path)
    assert _counted(game)
    seen = random_games_seen(game, range(15))
    # (stones were refused somewhere: the count mattered)
    assert any(len(legal) < 2 * 12 + 1 and sum(not n.endswith("r") for n in legal) < sum(n.endswith("r") for n in legal)
               for games in seen for legal in games[0])
    monkeypatch.setattr(decisions, "kind_reads_counted", lambda body, *rest: body)
    without = load_game(path)
    assert not _counted(without)
    assert random_games_seen(without, range(15)) == seen


def test_first_of_lists_tuples_and_other_iterables():
    from interpreter.runtime.helpers import first

    assert first([40]) == 40 and first([7, 3, 9]) == 3 and first([]) == -1
    assert first((5, 2)) == 2 and first(()) == -1
    assert first(s for s in (8, 4)) == 4 and first(s for s in ()) == -1 and first({6, 1}) == 1


def test_counted_over_at_most_one_as_counted_bit_by_bit():
    import random

    from interpreter.runtime.helpers import counted_over

    rng = random.Random(5)
    for _ in range(200):
        count, width = rng.randrange(1, 5), rng.randrange(1, 40)
        packed = rng.getrandbits(count * width)
        for most in (0, 1, 2):
            held = [sum(packed >> (term * width + value) & 1 for term in range(count)) for value in range(width)]
            assert counted_over(most, count, width, packed) == sum(1 << v for v in range(width) if held[v] > most)
