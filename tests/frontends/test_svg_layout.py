"""The SVG of graph boards: every site's name readable — on no site (nor the piece
on it), on no other name — and everything inside the picture (issue 29: RoyalFiz's
`home_yellow` over `o31`, `home_blue` cut at the edge, `o25` under a piece)."""
from __future__ import annotations

import math

import pytest

from interpreter import bundled_games
from interpreter.api import load_game
from interpreter.frontends.agents import RandomAgent
from interpreter.frontends.render_svg import render_svg

from .test_render_svg import parse, with_class

GRAPHS = [name for name in bundled_games() if load_game(name).board.kind != "grid"]
EM = 0.6  # the width of a character of sans-serif, in font sizes (an estimate of the test's own)


def name_box(text, size: float) -> tuple:
    width = EM * size * len(text.text)
    x, y = float(text.get("x")), float(text.get("y"))
    left = {"start": x, "middle": x - width / 2, "end": x - width}[text.get("text-anchor", "start")]
    return left, y - 0.8 * size, left + width, y + 0.2 * size


def overlap(a: tuple, b: tuple) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def inside(box: tuple, view: tuple) -> bool:
    x, y, width, height = view
    return x <= box[0] and y <= box[1] and box[2] <= x + width and box[3] <= y + height


def positions(game):
    agent, state = RandomAgent(seed=3), game.initial_state()
    yield state
    while not game.is_terminal(state) and state.ply < 120:
        state = game.apply(state, agent.choose(game, state))
    yield state


@pytest.mark.parametrize("name", GRAPHS)
def test_site_names_cover_no_site_and_no_other_name(name):
    game = load_game(name, options={"players": "4"} if name == "royalfiz" else None)
    for state in positions(game):
        root = parse(render_svg(game, state))
        view = tuple(float(v) for v in root.get("viewBox").split())
        size = float(with_class(root, "site-names")[0].get("font-size"))
        circles = {c.get("data-site"): c for c in with_class(root, "site")}
        boxes = {t.get("data-site"): name_box(t, size) for t in with_class(root, "site-name")}
        assert set(boxes) == set(circles) == set(game.board.sites)
        for site, box in boxes.items():
            assert inside(box, view), (name, site, box, view)
            for other, circle in circles.items():
                cx, cy, r = (float(circle.get(k)) for k in ("cx", "cy", "r"))
                nearest = math.hypot(cx - min(max(cx, box[0]), box[2]), cy - min(max(cy, box[1]), box[3]))
                assert nearest >= r, (name, site, "covers", other)  # the site, and so the piece on it
                assert inside((cx - r, cy - r, cx + r, cy + r), view), (name, other)
            for other, other_box in boxes.items():
                assert other == site or not overlap(box, other_box), (name, site, other)


def test_royalfiz_names_beside_their_homes():
    game = load_game("royalfiz")
    root = parse(render_svg(game, game.initial_state()))
    size = float(with_class(root, "site-names")[0].get("font-size"))
    boxes = {t.get("data-site"): name_box(t, size) for t in with_class(root, "site-name")}
    centres = {c.get("data-site"): float(c.get("cx")) for c in with_class(root, "site")}
    # The homes at the sides: their names outside, away from the ring.
    assert boxes["home_yellow"][2] <= centres["home_yellow"] and boxes["home_blue"][0] >= centres["home_blue"]
