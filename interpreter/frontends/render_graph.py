"""Graph boards in the terminal, in one of three ways (`display.text` chooses;
`auto` takes the first that fits the terminal with every site findable):

- **lattice**: when the drawing coordinates lie on a small lattice and the site
  names read like coordinates (`a1`, `d7`), the sites are drawn on it with their
  lines and the letters and numbers on the margins, like a grid (concentric squares, a hexagonal board);
- **list**: the sites by region, each with its name and what stands on it — for
  big boards such as rings of fields (`outer  o1 .  o2 R  o3 .`);
- **drawing**: the sites where their coordinates put them, scaled to the
  terminal, with a list of the pieces under it (only when asked for).
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Mapping, Optional

from rich.text import Text

from interpreter.runtime.pieces import NEUTRAL_NAME
from interpreter.runtime.views import PieceView

from .display import DisplayHints
from .render_grid import name_part
from .render_parts import PieceLabeller, drawing_coords, hex_colour, lit_style, piece_style, pool_at

if TYPE_CHECKING:
    from ..runtime.state import State
    from .protocol import FrontendGame


_SITE_STYLE = "grey50"
_EDGE_STYLE = "grey42"
MAX_LATTICE = 40  # columns or rows of a lattice beyond which the list is clearer


def graph_lines(game: FrontendGame, state: State, pieces: list[PieceView], labeller: PieceLabeller,
                lit: Mapping[str, str], plain: bool, hints: DisplayHints, width: int, height: int) -> list[Text]:
    """The lines of a graph board, fitting `width` x `height` when the mode allows."""
    sites = SiteLabels(game, state, pieces, labeller, lit, plain, hints)
    mode = graph_mode(game, sites.width, hints, width, height)
    if mode == "drawing":
        return FreeDrawing(game, sites, plain, width, height).lines()
    lattice = Lattice.of(game.board, sites.width) if mode == "lattice" else None
    if lattice is not None:
        return lattice.lines(game.board, sites, plain)
    lines = list_lines(game, sites, width)
    links = connection_lines(game, width)
    if len(lines) + len(links) > height:
        links = [Text(f"(no room for the connections here: {PICTURE_HINT})", style="" if plain else "dim")]
    return lines + links


PICTURE_HINT = "`regelwerk render GAME RECORD --svg FILE` draws them"


def graph_mode(game: FrontendGame, label_width: int, hints: DisplayHints, width: int, height: int) -> str:
    """How a graph board is drawn in `width` x `height`: "lattice", "list" or "drawing"."""
    if hints.text == "drawing":
        return "drawing"
    if hints.text == "auto":
        lattice = Lattice.of(game.board, label_width)
        if lattice is not None and lattice.fits(width, height):
            return "lattice"
    return "list"


class SiteLabels:
    """What each site shows: the piece on it, a pool's count, a marked region's
    symbol or the empty glyph; and its style (owner colour, last move, mark)."""

    def __init__(self, game: FrontendGame, state: State, pieces: list[PieceView], labeller: PieceLabeller,
                 lit: Mapping[str, str], plain: bool, hints: DisplayHints) -> None:
        self.game = game
        self.labeller = labeller
        self.lit = lit
        self.plain = plain
        self.hints = hints
        self.pools = game.pools(state)
        self.on_site: dict[str, list[PieceView]] = {}
        for piece in pieces:
            self.on_site.setdefault(piece.site, []).append(piece)
        # An empty site must not look like a piece: '.' unless a kind uses it.
        symbols = {labeller.symbol(kind).lower() for kind in game.kinds}
        self.empty = next((g for g in (".", "+", "_") if g not in symbols), "_")
        labels = [len(self.text(site)) for site in game.board.sites]
        self.width = max(labels + [labeller.widest(), 1])

    def text(self, site: str) -> str:
        here = self.on_site.get(site)
        if here:
            return self.labeller.label(here[-1]) + ("+" if len(here) > 1 else "")
        if site in self.game.pool_sites:
            held = pool_at(self.game, self.pools, site)
            if held is not None:
                return self.labeller.pool_label(*held)
        mark = self.hints.mark_at(site)
        return mark.symbol if mark is not None and mark.symbol else self.empty

    def style(self, site: str) -> Optional[str]:
        if self.plain:
            return None
        lit = self.lit.get(site)
        here = self.on_site.get(site)
        if here:
            return piece_style(here[-1].owner, self.game.player_colors) + (" underline" if lit else "")
        if site in self.game.pool_sites and pool_at(self.game, self.pools, site) is not None:
            colour = hex_colour(self.game.player_colors.get(self.game.pool_sites[site][1]))
            return f"bold {colour}" + (" underline" if lit else "")
        if lit:
            return lit_style(lit)
        mark = self.hints.mark_at(site)
        if mark is not None:
            return f"bold #000000 on {hex_colour(mark.colours[site])}"
        return _SITE_STYLE

    def shown(self, site: str) -> str:
        """The label as drawn: in brackets when lit in plain mode."""
        text = self.text(site)
        return f"[{text}]" if self.plain and site in self.lit else text


# -- a canvas with lines ---------------------------------------------------------------------


class Canvas:
    """A grid of characters with a style each."""

    def __init__(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows
        self.chars = [[" "] * columns for _ in range(rows)]
        self.styles: list[list[str | None]] = [[None] * columns for _ in range(rows)]

    def put(self, column: int, row: int, text: str, style: str | None = None) -> None:
        for i, ch in enumerate(text):
            c = column + i
            if 0 <= c < self.columns and 0 <= row < self.rows:
                self.chars[row][c] = ch
                self.styles[row][c] = style

    def free(self, column: int, row: int) -> bool:
        return 0 <= column < self.columns and 0 <= row < self.rows and self.chars[row][column] == " "

    def lines(self) -> list[Text]:
        out = []
        for chars, styles in zip(self.chars, self.styles):
            line = Text()
            run_start = 0
            for i in range(1, len(chars) + 1):
                if i == len(chars) or styles[i] != styles[run_start]:
                    line.append("".join(chars[run_start:i]), style=styles[run_start])
                    run_start = i
            line.rstrip()
            out.append(line)
        while out and not out[-1].plain.strip():
            out.pop()
        while out and not out[0].plain.strip():
            out.pop(0)
        return out


def draw_edge(canvas: Canvas, start: tuple[int, int], end: tuple[int, int], one_way: bool, plain: bool) -> None:
    """A line of glyphs between two sites, on free cells only; an arrowhead before
    the target of a one-way edge."""
    (c0, r0), (c1, r1) = start, end
    dc, dr = c1 - c0, r1 - r0
    steps = max(abs(dc), abs(dr))
    if steps < 2:
        return
    glyph = edge_glyph(dc, dr, plain)
    style = None if plain else _EDGE_STYLE
    last = None
    for i in range(1, steps):
        column, row = c0 + round(dc * i / steps), r0 + round(dr * i / steps)
        if canvas.free(column, row):
            canvas.put(column, row, glyph, style)
            last = (column, row)
    if one_way and last is not None:
        canvas.put(last[0], last[1], _arrow(dc, dr), style)


def edge_glyph(dc: int, dr: int, plain: bool) -> str:
    # Rows count downwards; a character cell is about twice as tall as wide.
    slope = abs(dr) * 2.0 / max(abs(dc), 1e-9)
    if slope < 0.5:
        return "-" if plain else "─"
    if slope > 3.0:
        return "|" if plain else "│"
    rising = (dc > 0) == (dr < 0)
    if plain:
        return "/" if rising else "\\"
    return "╱" if rising else "╲"


def _arrow(dc: int, dr: int) -> str:
    if abs(dc) >= 2 * abs(dr):
        return ">" if dc > 0 else "<"
    return "v" if dr > 0 else "^"


def draw_sites(canvas: Canvas, board: Any, sites: SiteLabels, positions: Mapping[str, tuple[int, int]],
               plain: bool) -> None:
    """The edges, then every site's label centred on its position."""
    for a, b, one_way in board.edges:
        if a in positions and b in positions:
            draw_edge(canvas, positions[a], positions[b], one_way, plain)
    for site, (column, row) in positions.items():
        label = sites.shown(site)
        canvas.put(column - (len(label) - 1) // 2, row, label, sites.style(site))


# -- a lattice with coordinates on its margins ---------------------------------------------------


class Lattice:
    """Sites whose coordinates are whole multiples of one step in x and in y, named
    like coordinates (letters and a number): drawn like a grid with margins."""

    def __init__(self, cells: dict[str, tuple[int, int]], cstep: int, cell: int) -> None:
        self.cells = cells  # site -> (lattice column, lattice row from the top)
        self.cstep = cstep  # characters per lattice column
        self.cell = cell  # characters of a site's label (with room for brackets)
        self.rows = max(r for _, r in cells.values()) + 1
        self.columns = max(c for c, _ in cells.values()) + 1
        numbers = {name_part(site, 2) for site in cells}
        self.margin = max(len(n) for n in numbers if n)

    @classmethod
    def of(cls, board: Any, label_width: int) -> Optional["Lattice"]:
        """The lattice of the board, or None when it has none or its names are no coordinates."""
        coords = board.coords
        if not coords or any(site not in coords for site in board.sites):
            return None
        columns = _steps([x for x, _ in coords.values()])
        rows = _steps([-y for _, y in coords.values()])
        if columns is None or rows is None:
            return None
        cells = {site: (columns[x], rows[-y]) for site, (x, y) in coords.items()}
        if max(c for c, _ in cells.values()) >= MAX_LATTICE or max(r for _, r in cells.values()) >= MAX_LATTICE:
            return None
        if not _named_like_coordinates(cells):
            return None
        gap = min((abs(c1 - c2) for s1, (c1, r1) in cells.items() for s2, (c2, r2) in cells.items()
                   if r1 == r2 and c1 != c2), default=1)
        cell = label_width + 2
        return cls(cells, max(2, math.ceil((cell + 1) / gap)), cell)

    def fits(self, width: int, height: int) -> bool:
        return self.margin + 2 + self.columns * self.cstep <= width and 2 * self.rows + 1 <= height

    def position(self, site: str) -> tuple[int, int]:
        column, row = self.cells[site]
        return self.margin + 2 + column * self.cstep, 1 + 2 * row

    def lines(self, board: Any, sites: SiteLabels, plain: bool) -> list[Text]:
        canvas = Canvas(self.margin + 4 + self.columns * self.cstep + self.cell, 2 * self.rows + 1)
        positions = {site: self.position(site) for site in self.cells}
        draw_sites(canvas, board, sites, positions, plain)
        for site, (column, row) in positions.items():
            number = name_part(site, 2) or ""
            canvas.put(0, row, number.rjust(self.margin), None)
        top, bottom = self._letters(positions)
        out = [top] + canvas.lines() + [bottom]
        return out

    def _letters(self, positions: Mapping[str, tuple[int, int]]) -> tuple[Text, Text]:
        """The file letters above and below: of every column when each column has one
        letter (straight columns), else of the top row above and of the bottom row below (a
        hex board, whose columns slant)."""
        by_column: dict[int, set[Any]] = {}
        for site, (column, _) in self.cells.items():
            by_column.setdefault(column, set()).add(name_part(site, 1))
        if all(len(letters) == 1 for letters in by_column.values()):
            line = self._letter_line({s: p for s, p in positions.items()})
            return line, line.copy()
        top = {s: p for s, p in positions.items() if self.cells[s][1] == 0}
        bottom = {s: p for s, p in positions.items() if self.cells[s][1] == self.rows - 1}
        return self._letter_line(top), self._letter_line(bottom)

    def _letter_line(self, positions: Mapping[str, tuple[int, int]]) -> Text:
        chars = [" "] * (self.margin + 4 + self.columns * self.cstep + self.cell)
        for site, (column, _) in positions.items():
            letters = name_part(site, 1) or ""
            for i, ch in enumerate(letters):
                if 0 <= column + i < len(chars):
                    chars[column + i] = ch
        return Text("".join(chars).rstrip())


def _steps(values: list[float]) -> Optional[dict[float, int]]:
    """Each value's index on a lattice of one step, or None when the values are not
    whole steps apart (within 5% of a step)."""
    distinct = sorted(set(values))
    if len(distinct) == 1:
        return {distinct[0]: 0}
    step = min(b - a for a, b in zip(distinct, distinct[1:]))
    if step <= 0:
        return None
    indices = {}
    for value in distinct:
        units = (value - distinct[0]) / step
        if abs(units - round(units)) > 0.05:
            return None
        indices[value] = round(units)
    return indices


def _named_like_coordinates(cells: Mapping[str, tuple[int, int]]) -> bool:
    """Whether every site is letters and a number, the number telling the row (one
    number per row, a different one for each)."""
    by_row: dict[int, set[Any]] = {}
    for site, (_, row) in cells.items():
        letters, number = name_part(site, 1), name_part(site, 2)
        if not letters or not number or not letters.isalpha():
            return False
        by_row.setdefault(row, set()).add(number)
    numbers = [next(iter(n)) for n in by_row.values() if len(n) == 1]
    return len(numbers) == len(by_row) and len(set(numbers)) == len(numbers)


# -- the sites by region ---------------------------------------------------------------------------


def list_lines(game: FrontendGame, sites: SiteLabels, width: int) -> list[Text]:
    """Every site with its name and label, grouped by the board's regions (a site in
    its first region; the rest under 'other'), in the board's order."""
    groups = site_groups(game)
    title_width = max(len(title) for title, _ in groups) + 2
    out = []
    for title, members in groups:
        entry = max(len(site) for site in members) + 1 + sites.width + (2 if sites.plain else 0)
        per_line = max(1, (width - title_width) // (entry + 1))
        for start in range(0, len(members), per_line):
            line = Text((title if start == 0 else "").ljust(title_width))
            for site in members[start:start + per_line]:
                line.append_text(_entry(site, sites, entry))
                line.append(" ")
            line.rstrip()
            out.append(line)
    return out


def connection_lines(game: FrontendGame, width: int) -> list[Text]:
    """How the listed sites are joined: the groups whose sites are each joined to
    the next (`rings: outer, inner`), then every other edge, in chains
    (`links: o3-s1a-s1b-i2, home_red>o1`; `>` a one-way edge)."""
    two_way = {frozenset((a, b)) for a, b, one_way in game.board.edges if not one_way}
    covered: set[Any] = set()
    rings, rows = [], []
    for title, members in site_groups(game):
        pairs = [frozenset(pair) for pair in zip(members, members[1:])]
        if not pairs or not all(pair in two_way for pair in pairs):
            continue
        closing = frozenset((members[-1], members[0]))
        if len(members) > 2 and closing in two_way:
            pairs.append(closing)
            rings.append(title)
        else:
            rows.append(title)
        covered.update(pairs)
    out = []
    for prefix, names, how in (("rings: ", rings, "(sites joined in order, the last to the first)"),
                               ("lines: ", rows, "(sites joined in order)")):
        if names:
            out.extend(wrap_entries(prefix, [Text(name) for name in names[:-1]] + [Text(f"{names[-1]} {how}")], width))
    rest = [edge for edge in game.board.edges if frozenset(edge[:2]) not in covered]
    chains = edge_chains(rest, {site: i for i, site in enumerate(game.board.sites)})
    if chains:
        out.extend(wrap_entries("links: ", [Text(chain) for chain in chains], width))
    return out


def edge_chains(edges: list[Any], order: Mapping[str, int]) -> list[str]:
    """The edges in as few chains as a greedy walk makes: `a-b-c` (`a>b`: one
    way). Chains start at a site where the edges do not simply run through (not
    two of them), earliest on the board first, and go on while they can; what is
    left are loops."""
    around: dict[str, list[Any]] = {}
    for number, (a, b, one_way) in enumerate(edges):
        around.setdefault(a, []).append((number, b, ">" if one_way else "-"))
        around.setdefault(b, []).append((number, a, "<" if one_way else "-"))
    used: set[Any] = set()

    def walk(start: str) -> str:
        text, here = start, start
        while True:
            step = min(((n, other, glyph) for n, other, glyph in around[here] if n not in used),
                       key=lambda item: order.get(item[1], len(order)), default=None)
            if step is None:
                return text
            used.add(step[0])
            text += step[2] + step[1]
            here = step[1]

    chains = []
    sites = sorted(around, key=lambda site: order.get(site, len(order)))
    for ends_only in (True, False):
        for site in sites:
            while (not ends_only or len(around[site]) != 2) and any(n not in used for n, _, _ in around[site]):
                chains.append(_forwards(walk(site)))
    return chains


def _forwards(chain: str) -> str:
    """A chain of one-way edges written the way they lead (`home_red>o1`)."""
    if "<" not in chain or "-" in chain or ">" in chain:
        return chain
    return ">".join(reversed(chain.split("<")))


def _entry(site: str, sites: SiteLabels, width: int) -> Text:
    text = Text(site + " ", style="" if sites.plain else "dim")
    label = sites.text(site)
    if sites.plain and site in sites.lit:
        text = Text(f"[{site} {label}]")
    else:
        text.append(label, style=sites.style(site))
    text.pad_right(width - len(text.plain))
    return text


def site_groups(game: FrontendGame) -> list[tuple[str, list[str]]]:
    """(title, sites) for each region of the whole board (per-player ones left out),
    in order, each site in its first; then the sites of no region."""
    placed: set[Any] = set()
    groups = []
    for name, members in game.board.regions.items():
        if "." in name:
            continue
        mine = [site for site in game.board.sites if site in members and site not in placed]
        if mine:
            placed.update(mine)
            groups.append((name, mine))
    rest = [site for site in game.board.sites if site not in placed]
    if rest:
        groups.append(("other" if groups else "sites", rest))
    return groups


# -- a free drawing ---------------------------------------------------------------------------------


class FreeDrawing:
    """The sites where their coordinates put them, scaled to the terminal; a piece
    list under it names the sites of the pieces."""

    def __init__(self, game: FrontendGame, sites: SiteLabels, plain: bool, width: int, height: int) -> None:
        self.game = game
        self.sites = sites
        self.plain = plain
        self.width = max(width, 20)
        self.height = max(height - 2, 8)  # the piece list takes a line or two

    def positions(self) -> dict[str, tuple[int, int]]:
        """Board coordinates -> (column, row); a character is about twice as tall as wide."""
        coords = drawing_coords(self.game.board)
        xs = [c[0] for c in coords.values()] or [0.0]
        ys = [c[1] for c in coords.values()] or [0.0]
        x_span = (max(xs) - min(xs)) or 1.0
        y_span = (max(ys) - min(ys)) or 1.0
        pad = 4  # room for labels that stick out to the right
        scale = min((self.width - 1 - pad) / x_span, 2.0 * (self.height - 1) / y_span)
        return {site: (round((x - min(xs)) * scale) + 1, round((max(ys) - y) * scale / 2.0))
                for site, (x, y) in coords.items()}

    def lines(self) -> list[Text]:
        positions = self.positions()
        if not positions:
            return [Text("(empty board)")]
        canvas = Canvas(max(c for c, _ in positions.values()) + 8, max(r for _, r in positions.values()) + 1)
        draw_sites(canvas, self.game.board, self.sites, positions, self.plain)
        return canvas.lines() + [Text()] + self._piece_list()

    def _piece_list(self) -> list[Text]:
        entries = []
        for site in self.game.board.sites:
            for piece in self.sites.on_site.get(site, []):
                entry = Text(f"{site} ")
                entry.append(self.sites.labeller.label(piece),
                             style=None if self.plain else piece_style(piece.owner, self.game.player_colors))
                entry.append(f" {piece.owner or NEUTRAL_NAME}")
                entries.append(entry)
        return wrap_entries("pieces: ", entries, self.width)


def wrap_entries(prefix: str, entries: list[Text], width: int) -> list[Text]:
    """Entries joined by ', ' over lines no wider than `width`."""
    if not entries:
        return [Text(prefix + "none")]
    lines = []
    line = Text(prefix)
    indent = " " * len(prefix)
    for i, entry in enumerate(entries):
        piece = entry.copy()
        if i < len(entries) - 1:
            piece.append(",")
        if len(line.plain) > len(prefix) and len(line.plain) + 1 + len(piece.plain) > width:
            lines.append(line)
            line = Text(indent)
        elif len(line.plain) > len(prefix):
            line.append(" ")
        line.append_text(piece)
    lines.append(line)
    return lines
