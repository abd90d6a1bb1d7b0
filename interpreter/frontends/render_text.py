"""Drawing a position in the terminal, for any game the format can define.

Grid boards become a checkered board with file letters and rank numbers; graph
boards are laid out on a character canvas from their drawing coordinates. Two
modes share one layout:
- colour: `rich` styles (owner colours, checkered squares, the last move lit up);
- plain: ASCII only and no styles, for pipes, logs and tests. The owner of a piece
  is then told by letter case (two players) or a player tag (`rP`), and the last
  move's squares by brackets.

Everything is taken from the public Game API: `board`, `kinds`, `player_colors`,
`pool_sites`, `pieces`, `pools`, `variables`, `phase`, `last_action`.
"""
from __future__ import annotations

import io
import re
from typing import Any, Iterable, Mapping, Sequence

from rich.color import Color, ColorParseError
from rich.console import Console
from rich.text import Text

from interpreter.runtime.views import Action, PieceView

__all__ = [
    "render_text",
    "position_text",
    "print_position",
    "PieceLabeller",
    "owner_tags",
    "flag_names",
    "hex_colour",
    "contrast_colour",
    "NEUTRAL_COLOUR",
]

NEUTRAL_COLOUR = "#8c8c8c"
# Flags (boolean attributes) that hold are drawn as markers after the label. ASCII
# glyphs in both modes: they are legible everywhere and never change the width.
MARKERS = "*+^!~%&$"

_LIGHT_SQUARE = "#e8d4a8"
_DARK_SQUARE = "#b08a5a"
_FROM_SQUARE = "#8fb0d8"
_TO_SQUARE = "#e0c040"
_SITE_STYLE = "grey50"
_EDGE_STYLE = "grey42"

_SITE_NAME = re.compile(r"^([^\d]*)(\d+)$")


# -- colours -------------------------------------------------------------------------------


def hex_colour(value: object, default: str = NEUTRAL_COLOUR) -> str:
    """A `#rrggbb` colour for anything rich can parse (hex or a colour name)."""
    if isinstance(value, str):
        try:
            triplet = Color.parse(value).get_truecolor()
        except ColorParseError:
            return default
        return triplet.hex
    return default


def contrast_colour(background: str) -> str:
    """Black or white, whichever reads better on `background` (a hex colour)."""
    triplet = Color.parse(background).get_truecolor()
    # Relative luminance with the usual sRGB weights; 140 splits mid-greys sensibly.
    luminance = 0.299 * triplet.red + 0.587 * triplet.green + 0.114 * triplet.blue
    return "#000000" if luminance > 140 else "#ffffff"


# -- labels ------------------------------------------------------------------------------------


def owner_tags(players: Sequence[str]) -> dict[str, str]:
    """The shortest distinct lower-case prefix of each player name (`r`, `bla`, `blu`)."""
    names = [p.lower() for p in players]
    tags = {}
    for player, name in zip(players, names):
        others = [n for n in names if n != name]
        length = 1
        while length < len(name) and any(o.startswith(name[:length]) for o in others):
            length += 1
        tags[player] = name[:length] or "?"
    return tags


def flag_names(pieces: Iterable[PieceView]) -> list[str]:
    """Names of the boolean attributes present on any piece, sorted.

    Pieces carry their flags whether set or not (attributes have defaults), so the
    marker a flag gets stays the same from one position to the next.
    """
    names = {name for p in pieces for name, value in p.attributes.items() if isinstance(value, bool)}
    return sorted(names)


class PieceLabeller:
    """Short labels for pieces: kind symbol, owner, stack height or counters, markers."""

    def __init__(self, game: Any, pieces: Sequence[PieceView], plain: bool) -> None:
        self.players = tuple(game.players)
        self.kinds = game.kinds
        self.plain = plain
        self.tags = owner_tags(self.players)
        symbols = [
            self.symbol(kind) for kind, spec in self.kinds.items()
            if not (isinstance(spec, Mapping) and spec.get("owner") == "neutral")
        ] or ["?"]
        # Two players: the chess convention (first player upper case, second lower
        # case) is the most legible, as long as it cannot confuse two kinds.
        self.by_case = (
            len(self.players) == 2
            and all(s.isalpha() for s in symbols)
            and len({s.upper() for s in symbols}) == len(symbols)
        )
        self.flags = flag_names(pieces)
        self.markers = {name: MARKERS[i % len(MARKERS)] for i, name in enumerate(self.flags)}

    def symbol(self, kind: str) -> str:
        spec = self.kinds.get(kind) or {}
        symbol = str(spec.get("symbol") or "") if isinstance(spec, Mapping) else ""
        if not symbol or (self.plain and not symbol.isascii()):
            # Plain mode promises ASCII: a symbol like '♔' falls back to the kind's initial.
            fallback = _ascii(kind[:1]).upper() if self.plain else kind[:1].upper()
            return fallback if fallback and fallback != "?" else "X"
        return symbol

    def owner_part(self, owner: str | None, symbol: str) -> str:
        if owner is None:
            return symbol
        if self.by_case:
            return symbol.upper() if owner == self.players[0] else symbol.lower()
        if self.plain:
            return self.tags.get(owner, "?") + symbol
        return symbol

    def label(self, piece: PieceView) -> str:
        text = self.owner_part(piece.owner, self.symbol(piece.kind))
        if piece.stones is not None:
            if piece.height > 1:
                text += str(piece.height)
        else:
            # Counters (integer attributes) are what a stack height is in games
            # without stones, e.g. a range that grows; show them the same way.
            numbers = [
                str(v) for _, v in sorted(piece.attributes.items())
                if isinstance(v, int) and not isinstance(v, bool)
            ]
            text += "/".join(numbers)
        text += "".join(self.markers[name] for name in self.flags if piece.attributes.get(name) is True)
        return text

    def pool_label(self, player: str, count: int) -> str:
        if self.plain:
            return f"{self.tags.get(player, '?')}{count}"
        return str(count)

    def legend(self) -> list[str]:
        lines = []
        if self.by_case:
            lines.append(f"{self.players[0]}: upper case, {self.players[1]}: lower case")
        elif self.plain and self.players:
            lines.append("owners: " + ", ".join(f"{tag}={p}" for p, tag in self.tags.items()))
        if self.flags:
            lines.append("markers: " + ", ".join(f"{self.markers[f]} {f}" for f in self.flags))
        return lines


# -- the public entry points ---------------------------------------------------------------


def terminal_size(stream: Any) -> tuple[int, int]:
    """(columns, lines) of the terminal `stream` writes to; 80 x 24 for anything else
    (a pipe, a file), so that a transcript fits the smallest terminal too."""
    import os

    try:
        if stream.isatty():
            size = os.get_terminal_size(stream.fileno())
            return size.columns, size.lines
    except (AttributeError, ValueError, OSError):  # replaced or closed streams
        pass
    return 80, 24


def render_text(
    game: Any,
    state: Any,
    *,
    plain: bool = False,
    stacks: bool = False,
    last_action: Action | None = None,
    highlight_last: bool = True,
    width: int = 100,
    height: int = 40,
) -> str:
    """The position as a string: ASCII without styles when `plain`, else with ANSI colours."""
    text = position_text(
        game, state, plain=plain, stacks=stacks, last_action=last_action,
        highlight_last=highlight_last, width=width, height=height,
    )
    if plain:
        return text.plain
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="truecolor", width=max(width, 200))
    console.print(text, soft_wrap=True)
    return buffer.getvalue()


def print_position(
    game: Any,
    state: Any,
    console: Console | None = None,
    *,
    plain: bool | None = None,
    stacks: bool = False,
    last_action: Action | None = None,
    highlight_last: bool = True,
    width: int = 100,
    height: int = 40,
) -> None:
    """Print the position; plain ASCII unless the console is a terminal."""
    console = console or Console()
    if plain is None:
        plain = not console.is_terminal
    text = position_text(
        game, state, plain=plain, stacks=stacks, last_action=last_action,
        highlight_last=highlight_last, width=width, height=height,
    )
    if plain:
        console.print(text.plain, markup=False, highlight=False, emoji=False, soft_wrap=True)
    else:
        console.print(text, soft_wrap=True)


def position_text(
    game: Any,
    state: Any,
    *,
    plain: bool = False,
    stacks: bool = False,
    last_action: Action | None = None,
    highlight_last: bool = True,
    width: int = 100,
    height: int = 40,
) -> Text:
    """The position as a rich `Text`: header lines, the board, a legend.

    `last_action` defaults to the action that led to `state`. `stacks` lists every
    stack of two or more stones, bottom to top, under the board. `width` and
    `height` bound the canvas of a graph board (in characters).
    """
    pieces = list(game.pieces(state))
    labeller = PieceLabeller(game, pieces, plain)
    last = last_action if last_action is not None else game.last_action(state)
    lit = _lit_sites(last) if highlight_last else {}

    out = Text()
    for line in _header(game, state, last, plain):
        out.append_text(line)
        out.append("\n")
    out.append("\n")
    if game.board.kind == "grid":
        board_lines = _GridDrawing(game, game.pools(state), pieces, labeller, lit, plain).lines()
    else:
        board_lines = _GraphDrawing(game, state, pieces, labeller, lit, plain, width, height).lines()
    for line in board_lines:
        out.append_text(line)
        out.append("\n")
    for line in labeller.legend():
        out.append(line + "\n", style=None if plain else "dim")
    if stacks:
        for line in _stack_lines(game, pieces, labeller, plain):
            out.append_text(line)
            out.append("\n")
    out.rstrip()
    out.append("\n")
    if plain:
        # Names from a definition may hold any character; plain mode promises ASCII
        # (one '?' per character, so the layout keeps its columns).
        return Text(_ascii(out.plain))
    return out


# -- header --------------------------------------------------------------------------------


def _header(game: Any, state: Any, last: Action | None, plain: bool) -> list[Text]:
    sep = " | " if plain else " · "
    title = getattr(game, "title", None) or getattr(game, "name", "game")
    parts = [str(title), f"ply {getattr(state, 'ply', '?')}", f"phase {game.phase(state)}"]
    who = game.to_move(state)
    if who is None:
        result = game.result(state)
        if result is not None:
            winner = f"{result.winner} wins" if result.winner is not None else "draw"
            scores = ", ".join(f"{p} {_number(s)}" for p, s in result.scores.items())
            parts.append(f"game over: {winner} ({scores})")
        else:
            parts.append("game over")
    elif who == "chance":
        parts.append("chance event")
    else:
        parts.append(f"{who} to move")

    lines = [Text(sep.join(parts), style=None if plain else "bold")]
    if last is not None:
        lines.append(Text(f"last: {last.notation}"))
    variables = game.variables(state)
    if variables:
        lines.append(Text("variables: " + "  ".join(_format_variable(k, v) for k, v in variables.items())))
    pools = game.pools(state)
    if pools:
        shown = [
            f"{pool}: " + ", ".join(f"{player} {count}" for player, count in counts.items())
            for pool, counts in pools.items()
        ]
        lines.append(Text("pools: " + "; ".join(shown)))
    if plain:
        lines = [Text(_ascii(line.plain), style=line.style) for line in lines]
    return lines


def _format_variable(name: str, value: object) -> str:
    if isinstance(value, Mapping):
        inner = " ".join(f"{k}={_number(v)}" for k, v in value.items())
        return f"{name}: {inner}"
    return f"{name}={_number(value)}"


def _number(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _ascii(text: str) -> str:
    return text.encode("ascii", "replace").decode("ascii")


def _lit_sites(last: Action | None) -> dict[str, str]:
    """Sites of the last move: site -> 'from' or 'to'."""
    lit: dict[str, str] = {}
    if last is None:
        return lit
    if last.from_site:
        lit[last.from_site] = "from"
    if last.to_site:
        lit[last.to_site] = "to"
    return lit


def _piece_style(owner: str | None, colours: Mapping[str, str]) -> str:
    background = hex_colour(colours.get(owner)) if owner is not None else NEUTRAL_COLOUR
    return f"bold {contrast_colour(background)} on {background}"


def _stone_style(stone: str, colours: Mapping[str, str]) -> str:
    """Stones are coloured by a player's name (usually) or by a colour of their own."""
    background = hex_colour(colours.get(stone, stone))
    return f"bold {contrast_colour(background)} on {background}"


def _pool_at(game: Any, pools: Mapping[str, Mapping[str, int]], site: str) -> tuple[str, int] | None:
    """(player, count) shown at a pool site, or None when its player is not playing."""
    pool, player = game.pool_sites[site]
    if player not in game.players:
        return None
    return player, int(pools.get(pool, {}).get(player, 0))


def _name_part(site: str, group: int) -> str | None:
    match = _SITE_NAME.match(site)
    return match.group(group) if match else None


# -- grid boards ---------------------------------------------------------------------------


class _GridDrawing:
    def __init__(self, game: Any, pools: Mapping[str, Mapping[str, int]], pieces: list[PieceView],
                 labeller: PieceLabeller, lit: Mapping[str, str], plain: bool) -> None:
        self.game = game
        self.pools = pools
        self.board = game.board
        self.labeller = labeller
        self.lit = lit
        self.plain = plain
        self.colours = game.player_colors
        self.at: dict[tuple[int, int], str] = {}
        for site, (x, y) in self.board.coords.items():
            self.at[(round(x), round(y))] = site
        xs = [c[0] for c in self.at] or [0]
        ys = [c[1] for c in self.at] or [0]
        self.x0, self.y0 = min(xs), min(ys)
        self.files = max(self.board.files, max(xs) - self.x0 + 1)
        self.ranks = max(self.board.ranks, max(ys) - self.y0 + 1)
        self.on_site: dict[str, PieceView] = {}
        for piece in pieces:
            self.on_site.setdefault(piece.site, piece)  # one piece per square on a grid
        labels = [labeller.label(p) for p in self.on_site.values()]
        pool_labels = self._pool_labels()
        longest = max([len(s) for s in labels] + [len(s) for s in pool_labels.values()] + [1])
        # Two columns of padding leave room for the brackets of the plain highlight.
        self.cell = longest + 2
        self.pool_labels = pool_labels
        self.file_names = [self._file_name(f) for f in range(self.files)]
        self.rank_names = [self._rank_name(r) for r in range(self.ranks)]
        self.margin = max(len(r) for r in self.rank_names)

    def _pool_labels(self) -> dict[str, str]:
        """Labels of the pool sites on the board that hold no piece."""
        labels = {}
        for site in self.game.pool_sites:
            held = _pool_at(self.game, self.pools, site)
            if held is not None and site not in self.on_site:
                labels[site] = self.labeller.pool_label(*held)
        return labels

    def _names_in(self, column: int | None = None, row: int | None = None) -> list[str]:
        return [
            site for (x, y), site in self.at.items()
            if (column is None or x - self.x0 == column) and (row is None or y - self.y0 == row)
        ]

    def _file_name(self, column: int) -> str:
        """The letters all site names of a column share (`a` for a1 ... a8)."""
        parts = {_name_part(site, 1) for site in self._names_in(column=column)}
        if len(parts) == 1 and None not in parts and parts != {""}:
            return parts.pop()
        return chr(ord("a") + column) if column < 26 else str(column + 1)

    def _rank_name(self, row: int) -> str:
        """The number all site names of a row share (`1` for a1 ... h1)."""
        parts = {_name_part(site, 2) for site in self._names_in(row=row)}
        if len(parts) == 1 and None not in parts:
            return parts.pop()
        return str(row + 1)

    def lines(self) -> list[Text]:
        files_line = Text(" " * (self.margin + 1))
        for name in self.file_names:
            files_line.append(name.center(self.cell))
        rows = [files_line]
        for row in range(self.ranks - 1, -1, -1):
            line = Text(self.rank_names[row].rjust(self.margin) + " ")
            for column in range(self.files):
                line.append_text(self._cell(column, row))
            line.append(" " + self.rank_names[row])
            rows.append(line)
        rows.append(files_line.copy())
        return rows

    def _cell(self, column: int, row: int) -> Text:
        site = self.at.get((column + self.x0, row + self.y0))
        if site is None:  # a hole in the grid
            return Text(" " * self.cell)
        piece = self.on_site.get(site)
        pool = self.pool_labels.get(site)
        label = self.labeller.label(piece) if piece else pool if pool is not None else "."
        lit = self.lit.get(site)
        # The cell is at least two wider than any label, so both sides have room
        # for a bracket; labels sit in the same column lit or not.
        left = (self.cell - len(label)) // 2
        right = self.cell - len(label) - left
        if self.plain:
            if lit:
                return Text(" " * (left - 1) + f"[{label}]" + " " * (right - 1))
            return Text(" " * left + label + " " * right)
        dark = (column + row) % 2 == 0
        square = _TO_SQUARE if lit == "to" else _FROM_SQUARE if lit == "from" else (
            _DARK_SQUARE if dark else _LIGHT_SQUARE)
        cell = Text(" " * left, style=f"on {square}")
        if piece:
            cell.append(label, style=_piece_style(piece.owner, self.colours))
        elif pool is not None:
            player = self.game.pool_sites[site][1]
            cell.append(label, style=f"bold {hex_colour(self.colours.get(player))} on {square}")
        else:
            cell.append(" " * len(label), style=f"on {square}")
        cell.append(" " * right, style=f"on {square}")
        return cell


# -- graph boards --------------------------------------------------------------------------


class _Canvas:
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


class _GraphDrawing:
    def __init__(self, game: Any, state: Any, pieces: list[PieceView], labeller: PieceLabeller,
                 lit: Mapping[str, str], plain: bool, width: int, height: int) -> None:
        self.game = game
        self.board = game.board
        self.pieces = pieces
        self.labeller = labeller
        self.lit = lit
        self.plain = plain
        self.colours = game.player_colors
        self.pools = game.pools(state)
        # An empty site must not look like a piece: 'o' unless a kind uses that letter.
        symbols = {labeller.symbol(kind).lower() for kind in game.kinds}
        self.empty = next((g for g in ("o", ".", "+") if g not in symbols), "_")
        self.width = max(width, 20)
        self.height = max(height, 8)
        self.positions = self._layout()

    def _layout(self) -> dict[str, tuple[int, int]]:
        """Board coordinates -> (column, row); a character is about twice as tall as wide."""
        coords = dict(self.board.coords)
        missing = [s for s in self.board.sites if s not in coords]
        if missing:  # sites without drawing coordinates: a row below the rest
            bottom = min((c[1] for c in coords.values()), default=0.0) - 1.0
            for i, site in enumerate(missing):
                coords[site] = (float(i), bottom)
        if not coords:
            return {}
        xs = [c[0] for c in coords.values()]
        ys = [c[1] for c in coords.values()]
        x_span = (max(xs) - min(xs)) or 1.0
        y_span = (max(ys) - min(ys)) or 1.0
        pad = 4  # room for labels that stick out to the right
        scale = min((self.width - 1 - pad) / x_span, 2.0 * (self.height - 1) / y_span)
        positions = {}
        for site, (x, y) in coords.items():
            column = round((x - min(xs)) * scale) + 1
            row = round((max(ys) - y) * scale / 2.0)
            positions[site] = (column, row)
        return positions

    def lines(self) -> list[Text]:
        if not self.positions:
            return [Text("(empty board)")]
        columns = max(c for c, _ in self.positions.values()) + 8
        rows = max(r for _, r in self.positions.values()) + 1
        canvas = _Canvas(columns, rows)
        for a, b, one_way in self.board.edges:
            if a in self.positions and b in self.positions:
                self._edge(canvas, self.positions[a], self.positions[b], one_way)
        on_site: dict[str, list[PieceView]] = {}
        for piece in self.pieces:
            on_site.setdefault(piece.site, []).append(piece)
        for site, (column, row) in self.positions.items():
            label, style = self._site_label(site, on_site.get(site, []))
            start = column - (len(label) - 1) // 2
            canvas.put(start, row, label, style)
        lines = canvas.lines()
        lines.append(Text())
        lines.extend(self._legend(on_site))
        return lines

    def _site_label(self, site: str, here: list[PieceView]) -> tuple[str, str | None]:
        lit = self.lit.get(site)
        lit_style = None if self.plain else (
            f"bold #000000 on {_TO_SQUARE if lit == 'to' else _FROM_SQUARE}" if lit else None)
        if here:
            top = here[-1]
            label = self.labeller.label(top) + ("+" if len(here) > 1 else "")
            style = None if self.plain else _piece_style(top.owner, self.colours)
            if lit and not self.plain:
                style += " underline"
            return label, style
        if site in self.game.pool_sites:
            held = _pool_at(self.game, self.pools, site)
            if held is not None:
                player, count = held
                label = self.labeller.pool_label(player, count)
                if self.plain:
                    return label, None
                colour = hex_colour(self.colours.get(player))
                return label, f"bold {colour}" + (" underline" if lit else "")
        return self.empty, (lit_style or (None if self.plain else _SITE_STYLE))

    def _edge(self, canvas: _Canvas, start: tuple[int, int], end: tuple[int, int], one_way: bool) -> None:
        (c0, r0), (c1, r1) = start, end
        dc, dr = c1 - c0, r1 - r0
        steps = max(abs(dc), abs(dr))
        if steps < 2:
            return
        glyph = self._edge_glyph(dc, dr)
        style = None if self.plain else _EDGE_STYLE
        for i in range(1, steps):
            column = c0 + round(dc * i / steps)
            row = r0 + round(dr * i / steps)
            if canvas.chars[row][column] == " ":
                canvas.put(column, row, glyph, style)
        if one_way:
            # An arrowhead on the last free cell before the target says which way.
            i = steps - 1
            column = c0 + round(dc * i / steps)
            row = r0 + round(dr * i / steps)
            canvas.put(column, row, self._arrow(dc, dr), style)

    def _edge_glyph(self, dc: int, dr: int) -> str:
        # Rows count downwards; a character cell is about twice as tall as wide.
        slope = abs(dr) * 2.0 / max(abs(dc), 1e-9)
        if slope < 0.5:
            return "-" if self.plain else "─"
        if slope > 3.0:
            return "|" if self.plain else "│"
        rising = (dc > 0) == (dr < 0)
        if self.plain:
            return "/" if rising else "\\"
        return "╱" if rising else "╲"

    @staticmethod
    def _arrow(dc: int, dr: int) -> str:
        if abs(dc) >= 2 * abs(dr):
            return ">" if dc > 0 else "<"
        return "v" if dr > 0 else "^"

    def _legend(self, on_site: Mapping[str, list[PieceView]]) -> list[Text]:
        entries: list[Text] = []
        for site in self.board.sites:
            for piece in on_site.get(site, []):
                entry = Text(f"{site} ")
                owner = piece.owner if piece.owner is not None else "neutral"
                label = self.labeller.label(piece)
                entry.append(label, style=None if self.plain else _piece_style(piece.owner, self.colours))
                entry.append(f" {owner}")
                entries.append(entry)
        pool_entries: list[Text] = []
        for site in self.board.sites:
            if site in self.game.pool_sites:
                held = _pool_at(self.game, self.pools, site)
                if held is not None and held[1]:
                    pool_entries.append(Text(f"{site} {held[0]} x{held[1]}"))
        lines: list[Text] = []
        lines.extend(_wrap("pieces: ", entries, self.width))
        if pool_entries:
            lines.extend(_wrap("pools:  ", pool_entries, self.width))
        return lines


def _wrap(prefix: str, entries: list[Text], width: int) -> list[Text]:
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


# -- stacks --------------------------------------------------------------------------------


def _stack_lines(game: Any, pieces: list[PieceView], labeller: PieceLabeller, plain: bool) -> list[Text]:
    stacks = [p for p in pieces if p.stones is not None and p.height > 1]
    if not stacks:
        return []
    arrow = "->" if plain else "→"
    order = {site: i for i, site in enumerate(game.board.sites)}
    lines = [Text(f"stacks (bottom {arrow} top):")]
    for piece in sorted(stacks, key=lambda p: order.get(p.site, len(order))):
        line = Text(f"  {piece.site} {labeller.label(piece)}: ")
        for i, stone in enumerate(piece.stones or ()):
            if i:
                line.append(", ")
            line.append(stone, style=None if plain else _stone_style(stone, game.player_colors))
        lines.append(line)
    return lines
