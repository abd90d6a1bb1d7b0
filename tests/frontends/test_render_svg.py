"""The SVG drawing: well-formed, one `piece` element per piece, the details visible."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.frontends.agents import RandomAgent
from interpreter.frontends.render_svg import render_svg
from interpreter.frontends.render_text import render_text
from interpreter.runtime.views import Action, PieceView

from .fakes import CoinRace, StaticGame, TicTacToe, grid_board
from .test_render_text import COLOURS, KINDS, stack_position

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in e.get("class", "").split()]


def local(element: ET.Element) -> str:
    return element.tag.replace(NS, "")


def test_grid_pieces_are_one_element_each_with_data():
    game, state = stack_position()
    root = parse(render_svg(game, state))
    pieces = with_class(root, "piece")
    expected = game.pieces(state)
    assert len(pieces) == len(expected)
    seen = {(p.get("data-site"), p.get("data-owner"), p.get("data-kind"), p.get("data-height")) for p in pieces}
    assert seen == {
        ("a1", "white", "king", "3"),
        ("b2", "black", "knight", "1"),
        ("c3", "black", "emperor", "8"),
        ("d4", "neutral", "wall", "1"),
    }
    # 16 squares, checkered, each named.
    squares = with_class(root, "square")
    assert len(squares) == 16
    assert {s.get("data-site") for s in squares} == set(game.board.sites)
    a1 = next(s for s in squares if s.get("data-site") == "a1")
    b1 = next(s for s in squares if s.get("data-site") == "b1")
    assert "dark" in a1.get("class") or "last-to" in a1.get("class")
    assert "light" in b1.get("class")


def test_stacks_heights_and_markers_are_visible():
    game, state = stack_position()
    root = parse(render_svg(game, state))
    by_site = {p.get("data-site"): p for p in with_class(root, "piece")}
    king = by_site["a1"]
    assert king.get("data-stones") == "black,white,white"
    assert len(with_class(king, "stone")) == 3  # stacked discs, bottom to top
    assert [t.text for t in with_class(king, "height")] == ["3"]
    assert [m.get("data-marker") for m in with_class(king, "marker")] == ["mark"]
    emperor = by_site["c3"]
    assert [t.text for t in with_class(emperor, "height")] == ["8"]
    assert len(with_class(emperor, "stone")) == 6  # tall stacks are capped, the number tells
    assert [m.get("data-marker") for m in with_class(emperor, "marker")] == ["crowned"]
    assert with_class(by_site["b2"], "height") == []  # one stone: no number
    assert [t.text for t in with_class(king, "symbol")] == ["K"]
    wall = by_site["d4"]
    assert "neutral" in wall.get("class")
    # Every marker has a name to hover over, and the legend names the shapes.
    legend = " ".join(t.text for t in with_class(root, "legend"))
    assert "crowned" in legend and "mark" in legend


def test_last_move_and_header():
    game, state = stack_position()
    root = parse(render_svg(game, state))
    assert [s.get("data-site") for s in with_class(root, "last-from")] == ["a2"]
    assert [s.get("data-site") for s in with_class(root, "last-to")] == ["a1"]
    arrow = with_class(root, "last-move")
    assert len(arrow) == 1 and arrow[0].get("data-from") == "a2"
    status = with_class(root, "status")[0]
    assert "white to move" in status.text and "ply 17" in status.text and "a2-a1" in status.text
    assert status.get("data-to-move") == "white"
    text = " ".join(t.text or "" for t in root.iter(NS + "text"))
    assert "quiet: 3" in text and "captured: white 2, black 0" in text
    # Without highlighting, nothing is lit.
    plain = parse(render_svg(game, state, highlight_last=False))
    assert with_class(plain, "last-to") == [] and with_class(plain, "last-move") == []


def test_explicit_last_action_overrides_the_state():
    game = TicTacToe()
    state = game.apply(game.initial_state(), "@b2")
    root = parse(render_svg(game, state, last_action=Action("@c3", (8,), None, "c3")))
    assert [s.get("data-site") for s in with_class(root, "last-to")] == ["c3"]
    assert with_class(root, "last-from") == []


def test_file_and_rank_labels():
    game = TicTacToe()
    root = parse(render_svg(game, game.initial_state()))
    assert sorted({t.text for t in with_class(root, "file")}) == ["a", "b", "c"]
    assert sorted({t.text for t in with_class(root, "rank")}) == ["1", "2", "3"]


def test_graph_board_sites_edges_pools_and_pieces():
    game = CoinRace()
    state = game.initial_state()
    for notation in ["coin:1", "home_red-t1", "coin:2", "home_blue-t2"]:
        state = game.apply(state, notation)
    root = parse(render_svg(game, state))
    sites = with_class(root, "site")
    assert {s.get("data-site") for s in sites} == set(game.board.sites)
    assert all(local(s) == "circle" for s in sites)
    edges = with_class(root, "edge")
    assert len(edges) == len(game.board.edges)
    one_way = with_class(root, "one-way")
    assert {e.get("data-from") for e in one_way} == set(game.pool_sites)
    assert all(e.get("marker-end") == "url(#arrow)" for e in one_way)
    assert all(e.get("marker-end") is None for e in edges if e not in one_way)
    assert root.find(f".//{NS}marker[@id='arrow']") is not None
    pools = {p.get("data-site"): p.get("data-count") for p in with_class(root, "pool")}
    assert pools == {"home_red": "1", "home_blue": "1", "home_green": "2"}
    pieces = with_class(root, "piece")
    assert len(pieces) == len(game.pieces(state)) == 3
    assert {(p.get("data-site"), p.get("data-owner")) for p in pieces} == {
        ("t1", "red"), ("t2", "blue"), ("rock", "neutral")}
    # Pieces sit on their sites.
    centres = {s.get("data-site"): (s.get("cx"), s.get("cy")) for s in sites}
    for piece in pieces:
        x, y = piece.get("transform")[len("translate("):-1].split(",")
        assert (x, y) == centres[piece.get("data-site")]
    assert [s.get("data-site") for s in with_class(root, "last-to")] == ["t2"]
    assert [s.get("data-site") for s in with_class(root, "last-from")] == ["home_blue"]


def test_names_from_a_definition_are_escaped():
    pieces = [PieceView("a1", "king", 'we<"ird>', {"x&y": True}, ('we<"ird>', "black"))]
    game = StaticGame(
        grid_board(2, 2), ('we<"ird>', "black"), pieces, kinds={"king": {"symbol": "<&>"}},
        player_colors={'we<"ird>': "not a colour", "black": "#000000"},
        title="A <game> & 'more'", variables={"v<": "a&b"},
    )
    svg = render_svg(game, game.initial_state())
    root = parse(svg)
    piece = with_class(root, "piece")[0]
    assert piece.get("data-owner") == 'we<"ird>'
    assert [t.text for t in with_class(piece, "symbol")] == ["<&>"]
    assert root.find(f"{NS}title").text == "A <game> & 'more'"


def test_every_piece_of_a_full_board():
    game = TicTacToe()
    state = game.initial_state()
    for notation in ["@a1", "@b1", "@c1", "@a2", "@b2", "@c2"]:
        state = game.apply(state, notation)
    root = parse(render_svg(game, state))
    owners = [p.get("data-owner") for p in with_class(root, "piece")]
    assert sorted(owners) == ["black"] * 3 + ["white"] * 3
    # No inner element claims to be a piece.
    for piece in with_class(root, "piece"):
        assert all("piece" not in e.get("class", "").split() for e in piece.iter() if e is not piece)


def test_counters_are_shown_on_the_piece():
    pieces = [PieceView("b2", "knight", "white", {"range": 3})]
    game = StaticGame(grid_board(3, 3), ("white", "black"), pieces, kinds=KINDS, player_colors=COLOURS)
    root = parse(render_svg(game, game.initial_state()))
    assert [t.text for t in with_class(root, "counter")] == ["3"]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 60), race=st.booleans())
def test_any_reachable_position_draws(seed, plies, race):
    game = CoinRace() if race else TicTacToe()
    agent = RandomAgent(seed=seed)
    state = game.initial_state()
    while not game.is_terminal(state) and state.ply < plies:
        state = game.apply(state, agent.choose(game, state))
    root = parse(render_svg(game, state))
    drawn = sorted((p.get("data-site"), p.get("data-owner")) for p in with_class(root, "piece"))
    assert drawn == sorted((p.site, p.owner or "neutral") for p in game.pieces(state))
    text = render_text(game, state, plain=True)
    assert text.isascii() and f"ply {state.ply}" in text
