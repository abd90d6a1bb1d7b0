"""Grid boards in the terminal: a checkered board with file letters and rank numbers.

Every cell has the same width in every position of a game (wide enough for the
labels its pieces usually get, see `PieceLabeller.widest`), so the board does not
move sideways during a game. Marked regions (`display.regions`) colour their
squares, and their symbol stands on the empty ones.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Mapping

from rich.text import Text

from interpreter.runtime.views import PieceView

from .display import DisplayHints
from .render_parts import PieceLabeller, hex_colour, piece_style, pool_at

if TYPE_CHECKING:
    from ..runtime.state import State
    from .protocol import FrontendGame


_LIGHT_SQUARE = "#e8d4a8"
_DARK_SQUARE = "#b08a5a"
_FROM_SQUARE = "#8fb0d8"
_TO_SQUARE = "#e0c040"
_SITE_NAME = re.compile(r"^([^\d]*)(\d+)$")


def grid_lines(game: FrontendGame, state: State, pieces: list[PieceView], labeller: PieceLabeller,
               lit: Mapping[str, str], plain: bool, hints: DisplayHints, width: int, height: int) -> list[Text]:
    """The lines of the board (`width` and `height` are not needed: grids are small)."""
    return GridDrawing(game, game.pools(state), pieces, labeller, lit, plain, hints).lines()


def name_part(site: str, group: int) -> str | None:
    """The letters (1) or the number (2) of a site name like `a1`, else None."""
    match = _SITE_NAME.match(site)
    return match.group(group) if match else None


class GridDrawing:
    def __init__(self, game: FrontendGame, pools: Mapping[str, Mapping[str, int]], pieces: list[PieceView],
                 labeller: PieceLabeller, lit: Mapping[str, str], plain: bool, hints: DisplayHints) -> None:
        self.game = game
        self.pools = pools
        self.board = game.board
        self.labeller = labeller
        self.lit = lit
        self.plain = plain
        self.hints = hints
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
        self.pool_labels = self._pool_labels()
        longest = max([len(s) for s in labels] + [len(s) for s in self.pool_labels.values()]
                      + [labeller.widest(), 1])
        # Two columns of padding leave room for the brackets of the plain highlight.
        self.cell = longest + 2
        self.file_names = [self._file_name(f) for f in range(self.files)]
        self.rank_names = [self._rank_name(r) for r in range(self.ranks)]
        self.margin = max(len(r) for r in self.rank_names)

    def _pool_labels(self) -> dict[str, str]:
        """Labels of the pool sites on the board that hold no piece."""
        labels = {}
        for site in self.game.pool_sites:
            held = pool_at(self.game, self.pools, site)
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
        parts = {name_part(site, 1) for site in self._names_in(column=column)}
        shared = parts.pop() if len(parts) == 1 else None
        if shared:
            return shared
        return chr(ord("a") + column) if column < 26 else str(column + 1)

    def _rank_name(self, row: int) -> str:
        """The number all site names of a row share (`1` for a1 ... h1)."""
        parts = {name_part(site, 2) for site in self._names_in(row=row)}
        shared = parts.pop() if len(parts) == 1 else None
        if shared is not None:
            return shared
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
        mark = self.hints.mark_at(site)
        empty = mark.symbol if mark is not None and mark.symbol else "."
        label = self.labeller.label(piece) if piece else pool if pool is not None else empty
        lit = self.lit.get(site)
        # The cell is at least two wider than any label, so both sides have room
        # for a bracket; labels sit in the same column lit or not.
        left = (self.cell - len(label)) // 2
        right = self.cell - len(label) - left
        if self.plain:
            if lit:
                return Text(" " * (left - 1) + f"[{label}]" + " " * (right - 1))
            return Text(" " * left + label + " " * right)
        square = self._square(column, row, site, lit)
        cell = Text(" " * left, style=f"on {square}")
        if piece:
            cell.append(label, style=piece_style(piece.owner, self.colours))
        elif pool is not None:
            player = self.game.pool_sites[site][1]
            cell.append(label, style=f"bold {hex_colour(self.colours.get(player))} on {square}")
        elif mark is not None and mark.symbol:
            cell.append(label, style=f"bold #000000 on {square}")
        else:
            cell.append(" " * len(label), style=f"on {square}")
        cell.append(" " * right, style=f"on {square}")
        return cell

    def _square(self, column: int, row: int, site: str, lit: str | None) -> str:
        """The background of a square: the last move, a marked region, or the checkering."""
        if lit:
            return _TO_SQUARE if lit == "to" else _FROM_SQUARE
        mark = self.hints.mark_at(site)
        if mark is not None:
            return hex_colour(mark.colours[site])
        return _DARK_SQUARE if (column + row) % 2 == 0 else _LIGHT_SQUARE
