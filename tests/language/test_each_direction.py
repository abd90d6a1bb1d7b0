"""`action NAME for each D in DIRECTIONS:` with D as a pattern's direction
(docs/format.md 3.4): `step d distance 2`, `slide d`, `jump d`; hand-checked
positions, perft equal to the same game written with the direction set in the
pattern, and the errors where D is no fixed direction."""
import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from tests.helpers import stones_and_rocks, write_definition
from tests.language.test_constructs import make, one_action


def test_step_by_the_value_of_for_each(tmp_path):
    # b2 steps two sites in each orthogonal direction over empty sites: b4 and d2;
    # b0 and the edge west are off the board; the enemy on b3 blocks nothing
    # north (a step passes empty sites only: b3 is not empty, so b4 is out).
    rules = one_action("""\
        action step by man for each d in orthogonal:
            step d distance 2
            notation "{from}-{to}"
            onto empty: move
        """)
    game = make(tmp_path, rules, {"white": {"man": ["b2"]}, "black": {"man": ["b3", "e5"]}})
    assert sorted(game.legal_notations(game.initial_state())) == ["b2-d2"]


def test_slide_and_jump_by_the_value_of_for_each(tmp_path):
    rules = one_action("""\
        action slide by man for each d in [n, e]:
            slide d
            notation "{from}-{to}"
            onto empty: move
        action jump by man for each d in diagonal:
            jump d
            notation "{from}x{to}"
            over enemy:
                remove jumped
                move
        """)
    game = make(tmp_path, rules, {"white": {"man": ["a1"]}, "black": {"man": ["a4", "b2", "e5"]}})
    assert sorted(game.legal_notations(game.initial_state())) == [
        "a1-a2", "a1-a3", "a1-b1", "a1-c1", "a1-d1", "a1-e1", "a1xc3"]


RULES = """\
    phase play:
        turn: move
    decision move:
        action step by man{each}:
            step {dirs} distance 1 to 2
            onto empty: move
            onto enemy: move
        action jump by king{each2}:
            jump {dirs2}
            over enemy:
                remove jumped
                move
    """


def test_perft_equal_written_both_ways(tmp_path):
    # The same game, its patterns once over a direction set and once once per
    # direction: the same counts (each copy's candidates are the set's, direction by direction).
    setup = {"white": {"man": ["a1", "c1", "e1"], "king": ["c2"]}, "black": {"man": ["a5", "c5", "e5"],
                                                                            "king": ["c4"]}}
    counts = []
    for each, dirs, each2, dirs2 in ((" for each d in orthogonal", "d", " for each e in lines", "e"),
                                     ("", "orthogonal", "", "lines")):
        folder = tmp_path / ("each" if each else "set")
        folder.mkdir()
        game = make(folder, RULES.format(each=each, dirs=dirs, each2=each2, dirs2=dirs2), setup)
        counts.append(game.engine.perft(game.initial_state(), 4))
    assert counts[0] == counts[1]
    # By hand: a1 to a2, a3, b1; c1 to b1, d1 (its own pieces on a1, c2, e1 stop it);
    # e1 to e2, e3, d1; the king jumps no enemy.
    assert counts[0][0] == 8


@pytest.mark.parametrize("each,message", [
    ("for each d in [1, 2]", "'d' (the value of 'for each') is a number, not a direction"),
    ("for each d in [opposite(forward)]", "'d' is known only while playing"),
])
def test_errors_where_the_value_is_no_fixed_direction(tmp_path, capsys, each, message):
    rules = one_action(f"""\
        action step by man {each}:
            step d
            onto empty: move
        """)
    with pytest.raises(Exception) as caught:
        make(tmp_path, rules, {"white": {"man": ["b2"]}, "black": {"man": ["e5"]}})
    assert message in str(caught.value)
    assert main(["validate", str(tmp_path)]) == 1
    assert "game.rules:5:" in capsys.readouterr().err


def test_the_notation_shows_the_direction_by_name(tmp_path):
    # One pass per direction, told apart by `{d}` alone: a set's values by their
    # compass names, a list's as the list writes them.
    rules = one_action("""\
        action shift for each d in orthogonal:
            pass
            notation "{d}"
        action turn for each d in [ne, w]:
            pass
            notation "turn-{d}"
        """)
    game = make(tmp_path, rules, {"white": {"man": ["b2"]}, "black": {"man": ["e5"]}})
    assert sorted(game.legal_notations(game.initial_state())) == ["e", "n", "s", "turn-ne", "turn-w", "w"]


def test_a_set_of_one_direction_is_shown_by_its_own_name(tmp_path):
    yaml = stones_and_rocks(files=2, ranks=2) + "setup:\n  white: {stone: [a1]}\ndirections:\n  up: [n]\n"
    rules = one_action("""\
        action go by stone for each d in [up, e]:
            step d
            notation "{d}"
            onto empty: move
        """)
    game = load_game(write_definition(tmp_path, yaml, rules))
    state = game.initial_state()
    assert sorted(game.legal_notations(state)) == ["e", "up"]
    assert [p.site for p in game.pieces(game.apply(state, "up"))] == ["a2"]


@pytest.mark.parametrize("values,message", [
    ("[ne, lines]", "takes one direction per value, found a set of directions"),
    ("[forward, n]", "takes one direction per value, found a direction that differs per player"),
])
def test_errors_where_a_value_is_more_than_one_direction(tmp_path, capsys, values, message):
    rules = one_action(f"""\
        action step by man for each d in {values}:
            step d
            notation "{{d}}"
            onto empty: move
        """)
    with pytest.raises(Exception) as caught:
        make(tmp_path, rules, {"white": {"man": ["b2"]}, "black": {"man": ["e5"]}})
    assert message in str(caught.value)
    assert main(["validate", str(tmp_path)]) == 1
    assert "game.rules:4:" in capsys.readouterr().err
