"""Variables that hold a site (`type: site`, docs/format.md 2.11): none by
default or a named site, assigned with `=`, read wherever a site is, written
by name in positions and drawings — Go's ko point."""
import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from tests.helpers import stones_and_rocks, validate_says, write_definition

VARIABLES = """\
variables:
  last: {type: site, description: Where the last stone was dropped.}
  mine: {type: site, per_player: true, default: b2}
  dropped: {in_position: false}
"""
# Drop a stone anywhere but on the last drop and north of it; remember both.
RULES = """\
    phase play:
        turn: place
    decision place:
        action stone:
            drop stone on sites
            where to != last and neighbour(last, n) != to
            notation "{to}"
            onto empty:
                place
                last = to
                mine[player] = to
                if last in top and mine[opponent] != none:
                    dropped = 1
"""


@pytest.fixture()
def game(tmp_path):
    yaml = stones_and_rocks(files=3, ranks=3, extra=VARIABLES + "regions:\n  top: {ranks: [3]}\n")
    return load_game(write_definition(tmp_path, yaml, RULES))


def test_a_site_variable_starts_as_none_or_its_default(game):
    state = game.initial_state()
    assert game.variables(state) == {"last": None, "mine": {"white": "b2", "black": "b2"}, "dropped": 0}
    assert len(game.legal_notations(state)) == 9  # none: nothing is excluded


def test_it_is_a_site_wherever_a_site_is_read(game):
    state = game.apply(game.initial_state(), "a1")
    assert game.variables(state)["last"] == "a1" and game.variables(state)["mine"]["white"] == "a1"
    # a1 itself and its northern neighbour a2 are excluded
    assert "a1" not in game.legal_notations(state) and "a2" not in game.legal_notations(state)
    state = game.apply(state, "c3")
    assert game.variables(state)["dropped"] == 1  # c3 in top, white's last drop not none


def test_it_names_the_site_not_the_piece(tmp_path):
    rules = """\
        phase play:
            turn: move
        decision move:
            action step by stone:
                step e
                onto empty:
                    last = from
                    move
                    dropped = 1 if last is empty else 0
    """
    setup = "setup:\n  white:\n    stone: [a1]\n"
    yaml = stones_and_rocks(files=3, ranks=1, extra=VARIABLES.replace("b2", "a1") + setup)
    game = load_game(write_definition(tmp_path, yaml, rules))
    state = game.apply(game.initial_state(), "a1-b1")
    assert game.variables(state)["last"] == "a1" and game.variables(state)["dropped"] == 1


def test_positions_write_and_read_the_site_by_name(game):
    state = game.apply(game.initial_state(), "a1")
    text = game.position_text(state)
    assert "variables last=a1 mine=white:a1,black:b2 dropped=0" in text
    assert game.position_text(game.parse_position(text)) == text
    assert "last=-" in game.position_text(game.initial_state())
    made = game.make_state({}, variables={"last": "c2", "mine": {"black": None}})
    assert game.variables(made)["last"] == "c2" and game.variables(made)["mine"] == {"white": "b2", "black": None}


def test_the_drawing_shows_it_by_name(game, capsys):
    state = game.apply(game.initial_state(), "b3")
    from interpreter.frontends.render_text import render_text

    assert "last: b3" in render_text(game, state)


@pytest.mark.parametrize("edit, message", [
    (("                last = to", "                last += 1"), "'+=' needs a number variable; this one holds a site"),
    (("                last = to", "                last = 3"), "variable 'last' holds a site; found a number (3)"),
    (("                last = to", "                last = player"), "variable 'last' holds a site; found a player"),
    # (a number variable takes a site's index, as it did before)
    (("                mine[player] = to", "                dropped = to"), None),
])
def test_what_a_site_variable_refuses(tmp_path, capsys, edit, message):
    yaml = stones_and_rocks(files=3, ranks=3, extra=VARIABLES + "regions:\n  top: {ranks: [3]}\n")
    old, new = edit
    write_definition(tmp_path, yaml, RULES.replace(old, new))
    validate_says(tmp_path, capsys, message)


def test_a_default_that_is_no_site_is_located(tmp_path, capsys):
    yaml = stones_and_rocks(files=3, ranks=3, extra=VARIABLES.replace("default: b2", "default: b4"))
    write_definition(tmp_path, yaml, RULES.replace("last in top and ", ""))
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "game.yaml:15:49: error: unknown site 'b4'" in err and "did you mean 'b3'? (b4 is not on the board)" in err


def test_it_is_part_of_the_position_unless_said_otherwise(tmp_path):
    # Two drops on a two-site line: the positions differ only in `last`.
    rules = """\
        phase play:
            turn: place
            before each turn:
                dropped = repetitions
        decision place:
            action stone:
                select sites
                onto empty:
                    last = to
    """
    yaml = stones_and_rocks(players=("white",), files=2, ranks=1, extra=VARIABLES.replace("b2", "a1"))
    game = load_game(write_definition(tmp_path, yaml, rules))
    state = game.apply(game.apply(game.apply(game.initial_state(), "a1"), "b1"), "a1")
    assert game.variables(state)["dropped"] == 2  # last=a1 before, last=b1, last=a1 again
    hidden = load_game(write_definition(tmp_path, yaml.replace("description: Where", "in_position: false, "
                                                               "description: Where"), rules))
    state = hidden.apply(hidden.apply(hidden.initial_state(), "a1"), "b1")
    assert hidden.variables(state)["dropped"] == 3  # the board never changes


def test_a_per_player_variable_takes_a_default_per_player(tmp_path):
    # format.md 2.11: `default: {white: a1, black: c3}`; a player not named starts
    # at none (a site) or 0 (a number)
    extra = VARIABLES.replace("default: b2", "default: {white: a1, black: c3}") \
        + "  count: {per_player: true, default: {black: 5}}\n"
    game = load_game(write_definition(tmp_path, stones_and_rocks(files=3, ranks=3, extra=extra),
                                      RULES.replace("last in top and ", "")))
    state = game.initial_state()
    assert game.variables(state)["mine"] == {"white": "a1", "black": "c3"}
    assert game.variables(state)["count"] == {"white": 0, "black": 5}
    state = game.apply(state, "b2")
    assert game.variables(state)["mine"] == {"white": "b2", "black": "c3"}


@pytest.mark.parametrize("default, messages", [
    # one error for the spot, saying what to write (not a schema's list of types)
    ("{type: site, default: {white: a1}}", ["15:31: error: a default per player needs 'per_player: true'"]),
    ("{type: site, per_player: true, default: {whte: a1}}",
     ["15:56: error: unknown player 'whte'"]),
    ("{type: site, per_player: true, default: {white: 3}}",
     ["15:57: error: variables.mine.default.white must be a string or empty, found 3"]),
    ("{type: site, per_player: true, default: [a1]}",
     ["15:49: error: variables.mine.default must be a string, empty or a mapping, found a list"]),
])
def test_what_a_default_per_player_refuses(tmp_path, capsys, default, messages):
    extra = VARIABLES.replace("{type: site, per_player: true, default: b2}", default)
    write_definition(tmp_path, stones_and_rocks(files=3, ranks=3, extra=extra), RULES.replace("last in top and ", ""))
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("error:") == len(messages) and all(message in err for message in messages), err
