"""Drawing a position as SVG, for any game the format can define.

Grid boards become checkered squares; graph boards put their sites at the drawing
coordinates with the edges as lines (one-way edges end in an arrow). Each piece is
exactly one `<g class="piece">` carrying `data-site`, `data-owner`, `data-kind` and
`data-height`, so tools and tests can find pieces without knowing the drawing; a
stack shows its stones as stacked discs plus its height, and set flags and markers
as small shapes.

The document is built with ElementTree, which escapes every name and text taken
from a definition.
"""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any, Mapping

from ..runtime.pieces import CHANCE_NAME, NEUTRAL_NAME
from ..runtime.views import Action, PieceView
from .display import display_hints
from .numbers import number_text
from .render_parts import (
    NEUTRAL_COLOUR,
    PieceLabeller,
    contrast_colour,
    drawing_coords,
    flag_names,
    hex_colour,
    variable_text,
)

if TYPE_CHECKING:
    from ..runtime.state import State
    from .protocol import FrontendGame


__all__ = ["render_svg"]

SVG_NS = "http://www.w3.org/2000/svg"

_LIGHT = "#ecd9b0"
_DARK = "#b58a5c"
_BACKGROUND = "#faf7f0"
_SITE_FILL = "#ffffff"
_LINE = "#8a8275"
_FROM = "#8fb0d8"
_TO = "#f0c93c"
_MARKER_FILL = "#f2c200"
_INK = "#222222"

_SQUARE = 56.0  # grid cell size in px
_MAX_DISCS = 6  # taller stacks show their number only
_MARKER_SHAPES = ("star", "diamond", "triangle", "dot")


def render_svg(
    game: FrontendGame,
    state: State,
    last_action: Action | None = None,
    *,
    highlight_last: bool = True,
    title: bool = True,
    legend: bool = True,
) -> str:
    """The position as a standalone SVG document (a string).

    `last_action` defaults to the action that led to `state`; it is highlighted
    unless `highlight_last` is false. `title` adds the header lines (whose turn,
    ply, last action, variables, pools) above the board, `legend` the lines under
    it that explain the pieces and the coloured regions (a picture that colours
    the sites by something else, a heat map, leaves it out).
    """
    drawing = _Drawing(game, state, last_action, highlight_last, title, legend)
    return drawing.render()


def _fmt(value: float) -> str:
    """Compact, locale-free numbers for attributes."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


class _Drawing:
    def __init__(self, game: FrontendGame, state: State, last_action: Action | None,
                 highlight_last: bool, title: bool, legend: bool = True) -> None:
        self.game = game
        self.state = state
        self.board = game.board
        self.pieces = list(game.pieces(state))
        self.pools = game.pools(state)
        self.colours = game.player_colors
        last = last_action if last_action is not None else game.last_action(state)
        self.last = last
        self.lit: dict[str, str] = {}
        if highlight_last and last is not None:
            if last.from_site:
                self.lit[last.from_site] = "from"
            if last.to_site:
                self.lit[last.to_site] = "to"
        self.hints = display_hints(game)
        self.flags = flag_names(self.pieces, self.hints.hidden_attributes)
        self.title = title
        self.legend = legend
        self.header_lines = self._header_lines() if title else []
        self.top = 18.0 * len(self.header_lines) + 12.0 if title else 8.0
        self.centres: dict[str, tuple[float, float]] = {}
        self.label_boxes: list[tuple[float, float, float, float]] = []  # graph boards: the site names
        self.left = 0.0  # the picture's left edge: below 0 when a name sticks out to the left
        self.radius = _SQUARE * 0.36  # piece radius; graph boards recompute it

    # -- document --------------------------------------------------------------------------

    def render(self) -> str:
        if self.board.kind == "grid":
            width, height, board = self._grid()
        else:
            width, height, board = self._graph()
        legend_lines = self._legend_lines() if self.legend else []
        height += 18.0 * len(legend_lines) + (8.0 if legend_lines else 0.0)
        # Text is not measured by SVG: widen the picture for the longest line, at a
        # generous 7.5px per character of 12px sans-serif.
        longest = max([len(t) for _, t in self.header_lines] + [len(t) for t in legend_lines] + [0])
        width = max(width, 360.0, 24.0 + 7.5 * longest)

        width -= self.left
        root = ET.Element("svg", {
            "xmlns": SVG_NS,
            "version": "1.1",
            "width": _fmt(width),
            "height": _fmt(height),
            "viewBox": f"{_fmt(self.left)} 0 {_fmt(width)} {_fmt(height)}",
            "class": "regelwerk-position",
            "data-game": str(getattr(self.game, "name", "")),
            "data-ply": str(getattr(self.state, "ply", "")),
        })
        ET.SubElement(root, "title").text = str(getattr(self.game, "title", "") or self.game.name)
        self._defs(root)
        ET.SubElement(root, "rect", {"x": _fmt(self.left), "y": "0", "width": _fmt(width), "height": _fmt(height),
                                     "fill": _BACKGROUND, "class": "background"})
        if self.title:
            self._header(root, self.header_lines)
        root.append(board)
        self._draw_pieces(root)
        y = height - 18.0 * len(legend_lines) + 4.0
        for line in legend_lines:
            text = ET.SubElement(root, "text", {"x": "12", "y": _fmt(y), "class": "legend",
                                                "font-family": "sans-serif", "font-size": "12",
                                                "fill": _INK})
            text.text = line
            y += 18.0
        return ET.tostring(root, encoding="unicode")

    def _defs(self, root: ET.Element) -> None:
        defs = ET.SubElement(root, "defs")
        arrow = ET.SubElement(defs, "marker", {
            "id": "arrow", "viewBox": "0 0 10 10", "refX": "9", "refY": "5",
            "markerWidth": "7", "markerHeight": "7", "orient": "auto-start-reverse",
        })
        ET.SubElement(arrow, "path", {"d": "M 0 0 L 10 5 L 0 10 z", "fill": _LINE})
        last = ET.SubElement(defs, "marker", {
            "id": "last-arrow", "viewBox": "0 0 10 10", "refX": "9", "refY": "5",
            "markerWidth": "5", "markerHeight": "5", "orient": "auto-start-reverse",
        })
        ET.SubElement(last, "path", {"d": "M 0 0 L 10 5 L 0 10 z", "fill": "#c03020"})

    def _header_lines(self) -> list[tuple[str, str]]:
        """(class, text) of the lines above the board: title, status, details."""
        game, state = self.game, self.state
        who = game.to_move(state)
        if who is None:
            result = game.result(state)
            if result is not None and result.winner is not None:
                turn = f"game over: {result.winner} wins"
            else:
                turn = "game over: draw" if result is not None else "game over"
        elif who == CHANCE_NAME:
            turn = "chance event"
        else:
            turn = f"{who} to move"
        status = f"ply {getattr(state, 'ply', '?')} · phase {game.phase(state)} · {turn}"
        if self.last is not None:
            status += f" · last {self.last.notation}"
        lines = [("title", str(getattr(game, "title", "") or game.name)), ("status", status)]
        variables = self.hints.shown_variables(game.variables(state))
        if variables:
            lines.append(("variables", "   ".join(variable_text(self.hints.variable_title(k), v)
                                                  for k, v in variables.items())))
        if self.pools:
            lines.append(("pools", "; ".join(
                f"{pool}: " + ", ".join(f"{p} {number_text(n)}" for p, n in counts.items())
                for pool, counts in self.pools.items())))
        return lines

    def _header(self, root: ET.Element, lines: list[tuple[str, str]]) -> None:
        header = ET.SubElement(root, "g", {"class": "header", "font-family": "sans-serif", "fill": _INK})
        who = self.game.to_move(self.state)
        y = 20.0
        for kind, text in lines:
            attrs = {"x": "12", "y": _fmt(y), "class": kind,
                     "font-size": "15" if kind == "title" else "12"}
            if kind == "title":
                attrs["font-weight"] = "bold"
            if kind == "status" and who not in (None, CHANCE_NAME):
                attrs["data-to-move"] = str(who)
            ET.SubElement(header, "text", attrs).text = text
            y += 18.0

    # -- grid boards ------------------------------------------------------------------------

    def _grid(self) -> tuple[float, float, ET.Element]:
        coords = {site: (round(x), round(y)) for site, (x, y) in self.board.coords.items()}
        xs = [c[0] for c in coords.values()] or [0]
        ys = [c[1] for c in coords.values()] or [0]
        x0, y0 = min(xs), min(ys)
        files = max(self.board.files, max(xs) - x0 + 1)
        ranks = max(self.board.ranks, max(ys) - y0 + 1)
        margin = 26.0
        left, top = margin, self.top + margin
        group = ET.Element("g", {"class": "board grid"})
        for site, (x, y) in coords.items():
            column, row = x - x0, ranks - 1 - (y - y0)
            px, py = left + column * _SQUARE, top + row * _SQUARE
            dark = (x - x0 + y - y0) % 2 == 0
            classes, fill = self._marked(site, "square " + ("dark" if dark else "light"), _DARK if dark else _LIGHT)
            mark = self.hints.mark_at(site)
            square = ET.SubElement(group, "rect", {
                "x": _fmt(px), "y": _fmt(py), "width": _fmt(_SQUARE), "height": _fmt(_SQUARE),
                "fill": fill, "class": classes, "data-site": site,
            })
            if mark is not None:
                square.set("data-region", mark.name)
            self.centres[site] = (px + _SQUARE / 2, py + _SQUARE / 2)
        labels = ET.SubElement(group, "g", {"class": "coordinates", "font-family": "sans-serif",
                                            "font-size": "13", "fill": _INK, "text-anchor": "middle"})
        for column in range(files):
            name = self._file_name(coords, x0 + column)
            cx = left + (column + 0.5) * _SQUARE
            for cy in (top - 8, top + ranks * _SQUARE + 17):
                ET.SubElement(labels, "text", {"x": _fmt(cx), "y": _fmt(cy), "class": "file"}).text = name
        for row in range(ranks):
            name = self._rank_name(coords, y0 + ranks - 1 - row)
            cy = top + (row + 0.5) * _SQUARE + 5
            for cx in (left - 13, left + files * _SQUARE + 13):
                ET.SubElement(labels, "text", {"x": _fmt(cx), "y": _fmt(cy), "class": "rank"}).text = name
        self._pool_marks(group)
        self._last_move_arrow(group)
        return left + files * _SQUARE + margin, top + ranks * _SQUARE + margin, group

    def _marked(self, site: str, classes: str, fill: str) -> tuple[str, str]:
        """A site's classes and fill with its region's colour and the last move's
        highlight, which wins."""
        mark = self.hints.mark_at(site)
        if mark is not None:
            classes += " marked"
            fill = hex_colour(mark.colours[site])
        lit = self.lit.get(site)
        if lit:
            classes += f" last-{lit}"
            fill = _TO if lit == "to" else _FROM
        return classes, fill

    @staticmethod
    def _file_name(coords: Mapping[str, tuple[int, int]], x: int) -> str:
        names = {site.rstrip("0123456789") for site, (sx, _) in coords.items() if sx == x}
        if len(names) == 1 and "" not in names:
            return names.pop()
        return str(x + 1)

    @staticmethod
    def _rank_name(coords: Mapping[str, tuple[int, int]], y: int) -> str:
        names = {site[len(site.rstrip("0123456789")):] for site, (_, sy) in coords.items() if sy == y}
        if len(names) == 1 and "" not in names:
            return names.pop()
        return str(y + 1)

    # -- graph boards -------------------------------------------------------------------------

    def _graph(self) -> tuple[float, float, ET.Element]:
        pad = self._graph_layout()
        group = ET.Element("g", {"class": "board graph"})
        self._graph_edges(group)
        self._graph_sites(group)
        self._site_names(group)
        self._pool_marks(group)
        self._last_move_arrow(group)
        # Everything drawn, the names beside the sites included, lies within the
        # picture: the names may stick out beyond the sites' margin.
        reach = self.radius * 1.25  # a piece's badge sticks out of its disc
        boxes = list(self.label_boxes) + [(x - reach, y - reach, x + reach, y + reach)
                                          for x, y in self.centres.values()]
        self.left = min(0.0, min(box[0] for box in boxes) - 8.0)
        width = max(max(box[2] for box in boxes) + 12.0, max(c[0] for c in self.centres.values()) + pad)
        height = max(max(box[3] for box in boxes) + 12.0, max(c[1] for c in self.centres.values()) + pad)
        return width, height, group

    def _graph_layout(self) -> float:
        """Place the sites (`centres`) and size them (`radius`); returns the margin."""
        coords = drawing_coords(self.board)
        xs = [c[0] for c in coords.values()] or [0.0]
        ys = [c[1] for c in coords.values()] or [0.0]
        span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
        nearest = self._nearest_distance(coords) or span
        # Neighbouring sites about 48px apart, the whole board between 400 and 1100px.
        scale = min(max(48.0 / nearest, 400.0 / span), 1100.0 / span)
        self.radius = max(6.0, min(18.0, 0.38 * nearest * scale))
        pad = self.radius * 2 + 12
        left, top = pad, self.top + pad
        for site, (x, y) in coords.items():
            self.centres[site] = (left + (x - min(xs)) * scale, top + (max(ys) - y) * scale)
        return pad

    def _graph_edges(self, group: ET.Element) -> None:
        edges = ET.SubElement(group, "g", {"class": "edges", "stroke": _LINE, "stroke-width": "2"})
        for a, b, one_way in self.board.edges:
            if a not in self.centres or b not in self.centres:
                continue
            (ax, ay), (bx, by) = self.centres[a], self.centres[b]
            length = math.hypot(bx - ax, by - ay) or 1.0
            # Stop at the rims of the sites so an arrowhead stays visible.
            ux, uy = (bx - ax) / length, (by - ay) / length
            r = self.radius + 1
            attrs = {
                "x1": _fmt(ax + ux * r), "y1": _fmt(ay + uy * r),
                "x2": _fmt(bx - ux * r), "y2": _fmt(by - uy * r),
                "class": "edge one-way" if one_way else "edge",
                "data-from": a, "data-to": b,
            }
            if one_way:
                attrs["marker-end"] = "url(#arrow)"
            ET.SubElement(edges, "line", attrs)

    def _graph_sites(self, group: ET.Element) -> None:
        """A circle per site: pool sites ringed in their player's colour, marked regions
        filled with their colour, the last move's sites lit."""
        sites = ET.SubElement(group, "g", {"class": "sites"})
        for site in self.board.sites:
            if site not in self.centres:
                continue
            cx, cy = self.centres[site]
            classes = "site"
            fill, stroke = _SITE_FILL, _LINE
            if site in self.game.pool_sites:
                classes += " pool-site"
                stroke = hex_colour(self.colours.get(self.game.pool_sites[site][1]))
            classes, fill = self._marked(site, classes, fill)
            mark = self.hints.mark_at(site)
            circle = ET.SubElement(sites, "circle", {
                "cx": _fmt(cx), "cy": _fmt(cy), "r": _fmt(self.radius), "fill": fill,
                "stroke": stroke, "stroke-width": "2", "class": classes, "data-site": site,
            })
            if mark is not None:
                circle.set("data-region", mark.name)

    def _site_names(self, group: ET.Element) -> None:
        """Every site's name, small, beside it: on the side, of eight around it,
        that covers no site (nor the piece on it), no name placed before and as
        few edges as can be, preferring the side away from the board's centre."""
        size = max(8.0, self.radius * 0.7)
        names = ET.SubElement(group, "g", {"class": "site-names", "font-family": "sans-serif",
                                           "font-size": _fmt(size), "fill": "#6b6459"})
        placer = _LabelPlacer(self.centres, self.radius, self._edge_segments(), size)
        for site in self.board.sites:
            if site not in self.centres:
                continue
            x, y, anchor = placer.place(site)
            attrs = {"x": _fmt(x), "y": _fmt(y), "class": "site-name", "data-site": site}
            if anchor != "start":
                attrs["text-anchor"] = anchor
            ET.SubElement(names, "text", attrs).text = site
        self.label_boxes = placer.boxes

    def _edge_segments(self) -> list[tuple[float, float, float, float]]:
        return [(*self.centres[a], *self.centres[b]) for a, b, _ in self.board.edges
                if a in self.centres and b in self.centres]

    @staticmethod
    def _nearest_distance(coords: Mapping[str, tuple[float, float]]) -> float:
        points = list(coords.values())
        best = math.inf
        for i, (ax, ay) in enumerate(points):
            for bx, by in points[i + 1:]:
                d = math.hypot(ax - bx, ay - by)
                if 0 < d < best:
                    best = d
        return best if best < math.inf else 0.0

    # -- shared parts ------------------------------------------------------------------------

    def _pool_marks(self, group: ET.Element) -> None:
        """The count of each pool shown at its site (a home holding five pieces)."""
        marks = ET.SubElement(group, "g", {"class": "pools", "font-family": "sans-serif",
                                           "text-anchor": "middle", "font-weight": "bold"})
        for site, (pool, player) in self.game.pool_sites.items():
            if site not in self.centres or player not in self.game.players:
                continue
            count = int(self.pools.get(pool, {}).get(player, 0))
            cx, cy = self.centres[site]
            colour = hex_colour(self.colours.get(player))
            text = ET.SubElement(marks, "text", {
                "x": _fmt(cx), "y": _fmt(cy + 5), "font-size": _fmt(max(11.0, self.radius * 0.9)),
                "fill": colour, "class": "pool", "data-site": site, "data-pool": pool,
                "data-player": player, "data-count": number_text(count),
            })
            text.text = number_text(count)
            ET.SubElement(text, "title").text = f"{pool} of {player}: {number_text(count)}"

    def _last_move_arrow(self, group: ET.Element) -> None:
        if self.last is None or not self.lit:
            return
        start, end = self.last.from_site, self.last.to_site
        if start in self.centres and end in self.centres and start != end:
            (ax, ay), (bx, by) = self.centres[start], self.centres[end]
            ET.SubElement(group, "line", {
                "x1": _fmt(ax), "y1": _fmt(ay), "x2": _fmt(bx), "y2": _fmt(by),
                "stroke": "#c03020", "stroke-width": "3", "stroke-opacity": "0.55",
                "marker-end": "url(#last-arrow)", "class": "last-move",
                "data-from": start, "data-to": end,
            })

    def _legend_lines(self) -> list[str]:
        """What the symbols, badges, markers and coloured regions mean."""
        hints = self.hints
        labeller = PieceLabeller(self.game, self.pieces, plain=False, hints=hints)
        lines = ["pieces: " + ", ".join(f"{self._symbol(k)} {hints.kind_title(k)}" for k in self.game.kinds)]
        if labeller.stacks:
            lines.append("badge: stones in the stack")
        elif labeller.counters:
            lines.append("badge: " + "/".join(hints.attribute_title(n) for n in labeller.counters))
        if self.flags:
            lines.append("markers: " + ", ".join(
                f"{_MARKER_SHAPES[i % len(_MARKER_SHAPES)]} = {hints.attribute_title(name)}"
                for i, name in enumerate(self.flags)))
        if hints.marks:
            lines.append("coloured: " + ", ".join(mark.title for mark in hints.marks))
        return lines

    # -- pieces -------------------------------------------------------------------------------

    def _draw_pieces(self, root: ET.Element) -> None:
        layer = ET.SubElement(root, "g", {"class": "pieces", "font-family": "sans-serif"})
        by_site: dict[str, list[PieceView]] = {}
        for piece in self.pieces:
            by_site.setdefault(piece.site, []).append(piece)
        for site, here in by_site.items():
            if site not in self.centres:
                continue
            cx, cy = self.centres[site]
            for i, piece in enumerate(here):
                # Several pieces on one site (rare): fan them out sideways.
                dx = (i - (len(here) - 1) / 2) * self.radius * 0.9
                self._piece(layer, piece, cx + dx, cy)

    def _piece(self, layer: ET.Element, piece: PieceView, cx: float, cy: float) -> None:
        r = self.radius
        owner_colour = hex_colour(self.colours.get(piece.owner)) if piece.owner is not None else NEUTRAL_COLOUR
        group = self._piece_group(layer, piece, cx, cy)
        top_fill = self._stones(group, piece, owner_colour)

        symbol = self._symbol(piece.kind)
        text = ET.SubElement(group, "text", {
            "x": "0", "y": _fmt(r * 0.36), "text-anchor": "middle", "font-weight": "bold",
            "font-size": _fmt(r * 1.0), "fill": contrast_colour(top_fill), "class": "symbol",
        })
        text.text = symbol

        badge = self._badge(piece)
        if badge:
            self._badge_mark(group, piece, badge)

        for i, name in enumerate(self.flags):
            if piece.attributes.get(name) is True:
                self._marker(group, i, name, -r * 0.8 + i * r * 0.5, -r * 0.8, r * 0.32)

    def _piece_group(self, layer: ET.Element, piece: PieceView, cx: float, cy: float) -> ET.Element:
        """The element of one piece at (cx, cy), with what it is as data and a title."""
        attrs = {
            "class": "piece" + (" neutral" if piece.owner is None else ""),
            "data-site": piece.site,
            "data-owner": piece.owner if piece.owner is not None else NEUTRAL_NAME,
            "data-kind": piece.kind,
            "data-height": str(piece.height),
            "transform": f"translate({_fmt(cx)},{_fmt(cy)})",
        }
        if piece.stones is not None:
            attrs["data-stones"] = ",".join(piece.stones)
        if piece.attributes:
            attrs["data-attributes"] = " ".join(
                f"{k}={number_text(v)}" for k, v in sorted(piece.attributes.items()))
        group = ET.SubElement(layer, "g", attrs)
        ET.SubElement(group, "title").text = self._describe(piece)
        return group

    def _stones(self, group: ET.Element, piece: PieceView, owner_colour: str) -> str:
        """The discs of a piece (its stones, the top one last); returns the top one's fill."""
        r = self.radius
        stones = list(piece.stones) if piece.stones else []
        visible = stones[-_MAX_DISCS:]
        step = min(4.0, r * 0.22)
        # Lower stones peek out below the top one, the bottom stone lowest; drawn
        # bottom first so each upper disc covers the one beneath.
        lower = visible[:-1]
        for j, stone in enumerate(lower):
            offset = (len(lower) - j) * step
            ET.SubElement(group, "circle", {
                "cx": "0", "cy": _fmt(offset), "r": _fmt(r), "class": "stone",
                "fill": self._stone_colour(stone), "stroke": _INK, "stroke-width": "1",
                "data-colour": stone,
            })
        top_fill = self._stone_colour(visible[-1]) if visible else owner_colour
        disc = {"cx": "0", "cy": "0", "r": _fmt(r), "fill": top_fill, "stroke": _INK,
                "stroke-width": "1.5", "class": "stone top" if visible else "disc"}
        if visible:
            disc["data-colour"] = visible[-1]
        ET.SubElement(group, "circle", disc)
        return top_fill

    def _badge_mark(self, group: ET.Element, piece: PieceView, badge: str) -> None:
        """The badge (a stack's height, a counter) at the piece's upper right."""
        r = self.radius
        bx, by = r * 0.78, -r * 0.78
        ET.SubElement(group, "circle", {"cx": _fmt(bx), "cy": _fmt(by), "r": _fmt(r * 0.42),
                                        "fill": "#ffffff", "stroke": _INK, "stroke-width": "1",
                                        "class": "badge"})
        label = ET.SubElement(group, "text", {
            "x": _fmt(bx), "y": _fmt(by + r * 0.17), "text-anchor": "middle",
            "font-size": _fmt(r * 0.5), "fill": _INK, "class": "height" if piece.stones else "counter",
        })
        label.text = badge

    def _badge(self, piece: PieceView) -> str:
        if piece.stones is not None:
            return str(piece.height) if piece.height > 1 else ""
        numbers = [number_text(v) for k, v in sorted(piece.attributes.items())
                   if type(v) is int and k not in self.hints.hidden_attributes]
        return "/".join(numbers)

    def _marker(self, group: ET.Element, index: int, name: str, x: float, y: float, size: float) -> None:
        shape = _MARKER_SHAPES[index % len(_MARKER_SHAPES)]
        attrs = {"fill": _MARKER_FILL, "stroke": _INK, "stroke-width": "1", "class": "marker",
                 "data-marker": name, "data-shape": shape}
        if shape == "dot":
            element = ET.SubElement(group, "circle", {"cx": _fmt(x), "cy": _fmt(y), "r": _fmt(size * 0.7), **attrs})
        else:
            element = ET.SubElement(group, "polygon", {"points": _shape_points(shape, x, y, size), **attrs})
        ET.SubElement(element, "title").text = name

    def _symbol(self, kind: str) -> str:
        spec = self.game.kinds.get(kind) or {}
        symbol = spec.get("symbol") if isinstance(spec, Mapping) else None
        return str(symbol) if symbol else (kind[:1].upper() or "?")

    def _stone_colour(self, stone: str) -> str:
        return hex_colour(self.colours.get(stone, stone))

    def _describe(self, piece: PieceView) -> str:
        owner = piece.owner if piece.owner is not None else NEUTRAL_NAME
        text = f"{piece.site}: {owner} {piece.kind}"
        if piece.stones is not None:
            text += f", {piece.height} stone{'s' if piece.height != 1 else ''} (bottom to top: " \
                    f"{', '.join(piece.stones)})"
        if piece.attributes:
            text += ", " + ", ".join(f"{k}={number_text(v)}" for k, v in sorted(piece.attributes.items()))
        return text


Box = tuple[float, float, float, float]  # (left, top, right, bottom)


class _LabelPlacer:
    """Places site names one after another where they cover least: no site
    (with its piece), no name placed before, few edges."""

    # (dx, dy) of a name's side, clockwise from the right; y grows downwards.
    SIDES = [(1, 0.0), (0.7, 0.7), (0, 1), (-0.7, 0.7), (-1, 0), (-0.7, -0.7), (0, -1), (0.7, -0.7)]

    def __init__(self, centres: Mapping[str, tuple[float, float]], radius: float,
                 edges: list[Any], size: float) -> None:
        self.centres = centres
        self.radius = radius
        self.edges = edges
        self.size = size
        self.boxes: list[Box] = []
        xs = [x for x, _ in centres.values()] or [0.0]
        ys = [y for _, y in centres.values()] or [0.0]
        self.middle = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)

    def place(self, site: str) -> tuple[float, float, str]:
        """(x, y, text-anchor) of the name of `site`; its box is remembered."""
        cx, cy = self.centres[site]
        width = 0.62 * self.size * len(site)  # sans-serif: about 0.6 em a character
        out_x, out_y = cx - self.middle[0], cy - self.middle[1]
        best = None
        for rank, (dx, dy) in enumerate(self.SIDES):
            box, x, y, anchor = self._at(cx, cy, dx, dy, width)
            # Away from the centre is better (ties: the order of SIDES); overlaps are worse.
            outward = -(dx * out_x + dy * out_y) / (abs(out_x) + abs(out_y) or 1.0)
            cost = 100.0 * self._covered(box, site) + 3.0 * self._crossed(box) + outward + 0.01 * rank
            if best is None or cost < best[0]:
                best = (cost, box, x, y, anchor)
        _, box, x, y, anchor = best  # type: ignore[misc]
        self.boxes.append(box)
        return x, y, anchor

    def _at(self, cx: float, cy: float, dx: float, dy: float, width: float) -> tuple[Box, float, float, str]:
        gap = self.radius + 3.0
        height = self.size
        px, py = cx + dx * gap, cy + dy * gap
        if dx > 0.1:
            left, anchor = px, "start"
        elif dx < -0.1:
            left, anchor = px - width, "end"
        else:
            left, anchor = px - width / 2, "middle"
        if dy > 0.1:
            top = py
        elif dy < -0.1:
            top = py - height
        else:
            top = py - height / 2
        box = (left, top, left + width, top + height)
        x = {"start": left, "end": left + width, "middle": left + width / 2}[anchor]
        return box, x, top + 0.8 * height, anchor

    def _covered(self, box: Box, site: str) -> float:
        """How much the box covers sites (their pieces: how deep it reaches into
        each, in parts of its reach) and names placed before (in parts of the box)."""
        area = max(1.0, (box[2] - box[0]) * (box[3] - box[1]))
        reach = self.radius * 1.15  # a piece's badge sticks out of its disc
        total = 0.0
        for x, y in self.centres.values():
            nearest = math.hypot(x - min(max(x, box[0]), box[2]), y - min(max(y, box[1]), box[3]))
            total += max(0.0, reach - nearest) / reach
        for placed in self.boxes:
            total += _overlap(box, placed) / area
        return total

    def _crossed(self, box: Box) -> int:
        return sum(_segment_meets_box(segment, box) for segment in self.edges)


def _overlap(a: Box, b: Box) -> float:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0


def _segment_meets_box(segment: tuple[Any, ...], box: Box) -> bool:
    """Whether the segment crosses the box (sampled: names are small)."""
    x1, y1, x2, y2 = segment
    for i in range(17):
        t = i / 16
        x, y = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        if box[0] <= x <= box[2] and box[1] <= y <= box[3]:
            return True
    return False


def _shape_points(shape: str, x: float, y: float, size: float) -> str:
    if shape == "star":
        points = []
        for k in range(10):
            radius = size if k % 2 == 0 else size * 0.45
            angle = -math.pi / 2 + k * math.pi / 5
            points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    elif shape == "diamond":
        points = [(x, y - size), (x + size * 0.7, y), (x, y + size), (x - size * 0.7, y)]
    else:  # triangle
        points = [(x, y - size), (x + size * 0.9, y + size * 0.7), (x - size * 0.9, y + size * 0.7)]
    return " ".join(f"{_fmt(px)},{_fmt(py)}" for px, py in points)
