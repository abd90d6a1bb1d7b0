"""The terminal drawing: symbols where the pieces are, headers, legends, both modes."""
from __future__ import annotations

import io
import math
from types import SimpleNamespace

from rich.console import Console

from interpreter.frontends.render_parts import ascii_only
from interpreter.frontends.render_text import owner_tags, print_position, render_text
from interpreter.runtime.views import Action, BoardView, PieceView

from .fakes import CoinRace, StaticGame, TicTacToe, grid_board

KINDS = {
    "king": {"symbol": "K", "owner": "player", "value": 4},
    "knight": {"symbol": "N", "owner": "player", "value": 1},
    "emperor": {"symbol": "E", "owner": "player", "value": 8},
    "wall": {"symbol": "#", "owner": "neutral", "value": 0},
}
COLOURS = {"white": "#ffffff", "black": "#000000"}


def stack_position(**extra):
    pieces = [
        PieceView("a1", "king", "white", {"mark": True, "crowned": False}, ("black", "white", "white")),
        PieceView("b2", "knight", "black", {"mark": False, "crowned": False}, ("black",)),
        PieceView("c3", "emperor", "black", {"mark": False, "crowned": True}, ("white", "black") * 4),
        PieceView("d4", "wall", None, {}, None),
    ]
    game = StaticGame(
        grid_board(4, 4), ("white", "black"), pieces, kinds=KINDS, player_colors=COLOURS,
        pools={"captured": {"white": 2, "black": 0}}, variables={"quiet": 3, "power": {"white": 5, "black": 8}},
        last=Action("a2-a1", ("m",), "a2", "a1"), ply=17, **extra,
    )
    return game, game.initial_state()


def board_rows(text: str) -> dict[str, str]:
    """Board lines of a plain grid drawing, by rank name."""
    rows = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].isdigit() and parts[-1] == parts[0]:
            rows[parts[0]] = line
    return rows


def cell(text: str, rank: str, column: int) -> str:
    """The content of one square (0-based column) of a plain grid drawing."""
    lines = text.splitlines()
    header = next(line for line in lines if line.split() and line.split()[0] == "a")
    row = board_rows(text)[rank]
    width = len(header.split("a", 1)[1].split("b", 1)[0]) + 1  # one cell, from the file row
    start = header.index("a") - (width - 1) // 2
    return row[start + column * width: start + (column + 1) * width].strip()


def test_tic_tac_toe_plain():
    game = TicTacToe()
    state = game.apply(game.apply(game.initial_state(), "@b2"), "@a1")
    text = render_text(game, state, plain=True)
    assert text.isascii()
    assert "white to move" in text and "ply 2" in text and "last: @a1" in text
    rows = board_rows(text)
    assert set(rows) == {"1", "2", "3"}
    # White (first player) upper case, Black lower case; the last move in brackets.
    assert rows["2"].split() == ["2", ".", "S", ".", "2"]
    assert rows["1"].split() == ["1", "[s]", ".", ".", "1"]
    assert rows["3"].split() == ["3", ".", ".", ".", "3"]
    assert "white: upper case, black: lower case" in text
    lines = text.splitlines()
    assert lines.index(rows["3"]) < lines.index(rows["2"]) < lines.index(rows["1"])  # rank 3 on top
    assert any(line.split() == ["a", "b", "c"] for line in lines)


def test_cells_line_up_with_the_file_letters():
    game, state = stack_position()
    text = render_text(game, state, plain=True)
    assert cell(text, "1", 0) == "[K3+]"
    assert cell(text, "2", 0) == "[.]"
    assert cell(text, "2", 1) == "n"
    assert cell(text, "3", 2) == "e8*"
    assert cell(text, "4", 3) == "#"
    assert cell(text, "4", 0) == "."


def test_stacks_markers_and_header_details():
    game, state = stack_position()
    text = render_text(game, state, plain=True, stacks=True)
    assert text.isascii()
    # The legend says what every symbol means; the header names the variables.
    assert "white: upper case, black: lower case | K king, N knight, E emperor, # wall" in text
    assert "number: stones in the stack | * crowned | + mark" in text
    assert "last: a2-a1   quiet: 3   power: white 5, black 8" in text
    assert "pools: captured: white 2, black 0" in text
    assert "stacks (bottom -> top):" in text
    assert "a1 K3+: black, white, white" in text
    assert "c3 e8*: " + ", ".join(["white", "black"] * 4) in text
    assert "b2 n:" not in text  # a single stone is no stack
    assert "stacks" not in render_text(game, state, plain=True)


def test_counters_show_like_a_height():
    pieces = [PieceView("b2", "knight", "white", {"range": 3, "king": True}),
              PieceView("c1", "knight", "black", {"range": 1, "king": False})]
    game = StaticGame(grid_board(3, 3), ("white", "black"), pieces, kinds=KINDS, player_colors=COLOURS)
    text = render_text(game, game.initial_state(), plain=True)
    assert cell(text, "2", 1) == "N3*"
    assert cell(text, "1", 2) == "n1"


def test_colour_mode_has_styles_and_the_same_labels():
    game, state = stack_position()
    text = render_text(game, state, stacks=True)
    assert "\x1b[" in text
    for label in ("K3+", "e8*", "n", "#"):
        assert label in text
    assert "stacks (bottom → top):" in text


def test_print_position_is_plain_when_not_a_terminal():
    game, state = stack_position()
    buffer = io.StringIO()
    print_position(game, state, Console(file=buffer, width=120))
    out = buffer.getvalue()
    assert "\x1b[" not in out and out.isascii()
    assert "[K3+]" in out
    buffer = io.StringIO()
    print_position(game, state, Console(file=buffer, force_terminal=True, width=120))
    assert "\x1b[" in buffer.getvalue()


def test_game_over_header():
    game = TicTacToe()
    state = game.initial_state()
    for notation in ["@a1", "@a2", "@b1", "@b2", "@c1"]:
        state = game.apply(state, notation)
    text = render_text(game, state, plain=True)
    assert "game over: white wins (white 1, black 0)" in text


def test_many_players_get_owner_tags_in_plain_mode():
    assert owner_tags(["red", "blue", "black", "green"]) == {"red": "r", "blue": "blu", "black": "bla", "green": "g"}
    game = CoinRace()
    state = game.initial_state()
    for notation in ["coin:1", "home_red-t1", "coin:2", "home_blue-t2", "coin:2"]:
        state = game.apply(state, notation)
    text = render_text(game, state, plain=True)
    assert text.isascii()
    assert "green to move" in text and "phase move" in text and "last: coin:2   coin: 2   turns: 2" in text
    # Names that are no coordinates (t1, home_red): every site is listed with what is on it.
    assert text.splitlines()[4:7] == [
        "sites  home_red r1     home_blue b1    home_green g2   t1 rP",
        "       t2 bP           t3 .            t4 .            t5 .",
        "       t6 .            goal .          rock #",
    ]
    assert "owners: r=red, b=blue, g=green | P pawn, # rock" in text


def forced_drawing(game):
    """The game drawn as a free drawing (what `display: {text: drawing}` asks for)."""
    game.definition = SimpleNamespace(data={"display": {"text": "drawing"}})
    return game


def test_graph_colour_mode():
    game = forced_drawing(CoinRace())
    state = game.apply(game.apply(game.initial_state(), "coin:1"), "home_red-t1")
    text = render_text(game, state)
    assert "\x1b[" in text and "─" in text


def test_a_free_drawing_fits_the_terminal():
    # Three rings of 40, 16 and 8 sites, spokes between them.
    sites, coords, edges = [], {}, []
    for name, count, radius in (("o", 40, 10.0), ("i", 16, 6.0), ("c", 8, 3.0)):
        for k in range(count):
            site = f"{name}{k + 1}"
            sites.append(site)
            angle = 2 * math.pi * k / count
            coords[site] = (radius * math.cos(angle), radius * math.sin(angle))
            edges.append((site, f"{name}{(k + 1) % count + 1}", False))
    edges += [(f"o{5 * k + 1}", f"i{2 * k + 1}", False) for k in range(8)]
    board = BoardView("graph", tuple(sites), coords, tuple(edges))
    pieces = [PieceView("o1", "knight", "white"), PieceView("c5", "wall", None), PieceView("i9", "king", "black")]
    game = forced_drawing(StaticGame(board, ("white", "black"), pieces, kinds=KINDS, player_colors=COLOURS))
    text = render_text(game, game.initial_state(), plain=True, width=80, height=24)
    lines = text.splitlines()
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    canvas = text.split("\n\n")[1].splitlines()  # header, blank, canvas, blank, piece list
    # o1 is the rightmost site, c5 the centre-left one, i9 the left of the middle ring.
    middle = next(line for line in canvas if "N" in line)
    assert middle.rstrip().endswith("N")
    assert "#" in middle and "k" in middle
    assert middle.index("k") < middle.index("#") < middle.index("N")
    assert "pieces: o1 N white, i9 k black, c5 # neutral" in text


def test_empty_sites_never_look_like_pieces():
    # Pawns drawn as '.': an empty site must then be drawn with another glyph.
    board = BoardView("graph", ("x", "y", "z"), {"x": (0.0, 0.0), "y": (4.0, 0.0), "z": (8.0, 0.0)},
                      (("x", "y", False), ("y", "z", True)))
    pieces = [PieceView("x", "pawn", "red"), PieceView("z", "pawn", "green")]
    game = forced_drawing(StaticGame(board, ("red", "green"), pieces,
                                     kinds={"pawn": {"symbol": ".", "owner": "player"}},
                                     player_colors={"red": "#d62728", "green": "#2ca02c"}))
    text = render_text(game, game.initial_state(), plain=True)
    line = next(line for line in text.splitlines() if "-" in line)
    assert line.split("-")[0].strip() == "r."  # red's pawn (owner tag and symbol)
    assert line.rstrip().endswith(">g.")  # the one-way edge into z ends in an arrowhead
    assert "+" in line  # the empty site y


def test_plain_text_keeps_the_letters_of_accented_names():
    # Plain mode is ASCII: "Mensch ärgere dich nicht" stays readable, one character
    # for one (the columns of a board drawing are kept); what has no letter is '?'.
    assert ascii_only("Mensch ärgere dich nicht") == "Mensch argere dich nicht"
    assert ascii_only("Straße ♔ é") == "Stra?e ? e"
    assert ascii_only("a1-b2") == "a1-b2"


def test_a_game_of_neutral_pieces_alone_explains_no_owners():
    """Houses of seeds that belong to no one (a mancala's board): the legend has no
    `owners:` part, as no label shows an owner."""
    kinds = {"house": {"symbol": "o", "owner": "neutral", "title": "house"}}
    pieces = [PieceView("a1", "house", None, {"seeds": 4}), PieceView("b1", "house", None, {"seeds": 4})]
    game = StaticGame(grid_board(2, 2), ("south", "north"), pieces, kinds=kinds, player_colors=COLOURS)
    text = render_text(game, game.initial_state(), plain=True)
    assert "o house" in text and "owners:" not in text, text


def test_one_player_pieces_carry_no_owner_tag(tmp_path):
    from interpreter import load_game
    from tests.helpers import drop_where, stones_and_rocks, write_definition

    setup = "setup:\n  neutral:\n    rock: [d4]\n"
    game = load_game(write_definition(tmp_path, stones_and_rocks(players=("solo",), extra=setup),
                                      drop_where("true")))
    state = game.apply(game.initial_state(), "a1")
    text = render_text(game, state, plain=True)
    rows = board_rows(text)
    assert rows["1"].split()[1] == "[S]" and rows["4"].split()[4] == "R"  # (not `sS`)
    assert "owners:" not in text and "S stone" in text
