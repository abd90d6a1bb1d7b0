"""Every bundled board in the terminal: it fits 80 x 24 with its header, every site
can be found by its name, marked regions show, and the legend explains the symbols."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.api import bundled_games, load_game
from interpreter.frontends.render_text import render_text
from tests.helpers import play

from .test_real_games import random_position

HEX = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "hex")
GAMES = [(name, {}) for name in bundled_games()] + [("royalfiz", {"players": "2"}), (HEX, {})]


@pytest.mark.parametrize("name, options", GAMES, ids=[n.rsplit("/", 1)[-1] + str(o) for n, o in GAMES])
def test_every_board_fits_a_small_terminal(name, options):
    game = load_game(name, options)
    for seed, plies in ((0, 0), (1, 25), (2, 90)):
        state = random_position(game, seed=seed, plies=plies)
        lines = render_text(game, state, plain=True, width=80, height=24).splitlines()
        assert len(lines) <= 24, (name, seed, len(lines))
        assert max(len(line) for line in lines) <= 80, (name, seed)


def test_morris_is_drawn_with_coordinates():
    game = load_game("morris")
    text = render_text(game, play(game, "@d1", "@d7"), plain=True)
    assert text.splitlines()[4:] == [
        "   a   b   c   d   e   f   g",
        "7  .----------[o]----------.",
        "   |           |           |",
        "6  |   .-------.-------.   |",
        "   |   |       |       |   |",
        "5  |   |   .---.---.   |   |",
        "   |   |   |       |   |   |",
        "4  .---.---.       .---.---.",
        "   |   |   |       |   |   |",
        "3  |   |   .---.---.   |   |",
        "   |   |       |       |   |",
        "2  |   .-------.-------.   |",
        "   |           |           |",
        "1  .-----------O-----------.",
        "   a   b   c   d   e   f   g",
        "white: upper case, black: lower case | O man",
    ]


def test_hex_rows_are_numbered_and_its_edges_lettered():
    game = load_game(HEX)
    text = render_text(game, play(game, "@a5", "@e1"), plain=True)
    lines = text.splitlines()
    top = lines.index("5  O---.---.---.---.")
    assert lines[top - 1] == "   a   b   c   d   e"  # above the top row: its sites' files
    assert lines[top + 8] == "1          .---.---.---.--[o]"
    assert lines[top + 9] == "           a   b   c   d   e"  # below the bottom row
    coloured = render_text(game, game.initial_state())
    assert "goal edges (coloured)" in coloured and "\x1b[" in coloured


def test_royalfiz_lists_every_site_by_region():
    game = load_game("royalfiz", options={"players": "2"})
    state = play(game, "start:red", "roll:6", "home_red-o6")
    text = render_text(game, state, plain=True)
    for site in game.board.sites:
        assert f" {site} " in text or f"[{site} " in text
    assert "o5 .     [o6 O]   o7 ." in text
    assert "centre  c1 .    c2 .    c3 #" in text
    assert "goal *" in text and "red: upper case, green: lower case | O pawn, # barricade | * goal" in text


def test_tablut_marks_its_throne():
    game = load_game("tablut")
    state = play(game, "e2-h2", "e4-h4", "a4-a3", "e5-e4")  # the king leaves the throne
    text = render_text(game, state, plain=True)
    row = next(line for line in text.splitlines() if line.startswith("5 "))
    assert row.split()[5] == "[#]"  # e5, the empty throne (the king has just left it)
    assert text.rstrip().endswith("O soldier, K king | # throne")


def test_lielow_keeps_its_width_and_names_its_symbols():
    game = load_game("lielow")
    widths = {len(line) for n in range(0, 12, 3) for line in
              render_text(game, random_position(game, seed=5, plies=n), plain=True).splitlines()[3:12]}
    assert len(widths) <= 2  # the rank lines and the file lines, the same in every position
    text = render_text(game, game.initial_state(), plain=True)
    assert "white: upper case, black: lower case | O stone | number: range | * king" in text


def test_regibus_shows_titles_and_hides_bookkeeping():
    game = load_game("regibus")
    text = render_text(game, random_position(game, seed=1, plies=30), plain=True)
    assert "turns without a capture: " in text and "crowned" not in text and "been_middle" not in text
    assert "N knight, P prince, K king, E emperor" in text and "* marked (owes ransom) | + Rome" in text


def test_marked_regions_in_svg():
    from interpreter.frontends.render_svg import render_svg

    game = load_game("tablut")
    svg = render_svg(game, game.initial_state())
    assert 'class="square light marked" data-site="e5" data-region="throne"' in svg \
        or 'class="square dark marked" data-site="e5" data-region="throne"' in svg
    assert "coloured: throne, edge (the king escapes there)" in svg
