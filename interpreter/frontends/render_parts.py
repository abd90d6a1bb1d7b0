"""What the terminal drawings share: colours, piece labels and their legend.

`PieceLabeller` makes the short label of a piece (kind symbol, owner by letter
case or tag, stack height or counters, markers for flags) and the legend that
explains the labels with the definition's titles (display.py).
"""
from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from rich.color import Color, ColorParseError

from ..runtime.pieces import NEUTRAL_NAME
from ..runtime.views import Action, PieceView
from .display import DisplayHints, display_hints
from .numbers import number_text

if TYPE_CHECKING:
    from .protocol import FrontendGame


NEUTRAL_COLOUR = "#8c8c8c"
# Flags (boolean attributes) that hold are drawn as markers after the label. ASCII
# glyphs in both modes: they are legible everywhere and never change the width.
MARKERS = "*+^!~%&$"
FROM_SQUARE = "#8fb0d8"
TO_SQUARE = "#e0c040"


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


def piece_style(owner: str | None, colours: Mapping[str, str]) -> str:
    background = hex_colour(colours.get(owner)) if owner is not None else NEUTRAL_COLOUR
    return f"bold {contrast_colour(background)} on {background}"


def lit_style(lit: str | None) -> str | None:
    """The style of an empty site of the last move ('from' or 'to')."""
    if not lit:
        return None
    return f"bold #000000 on {TO_SQUARE if lit == 'to' else FROM_SQUARE}"


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


def flag_names(pieces: Iterable[PieceView], hidden: Iterable[str] = ()) -> list[str]:
    """Names of the boolean attributes present on any piece, sorted (hidden ones left out).

    Pieces carry their flags whether set or not (attributes have defaults), so the
    marker a flag gets stays the same from one position to the next.
    """
    names = {name for p in pieces for name, value in p.attributes.items() if isinstance(value, bool)}
    return sorted(names - set(hidden))


class PieceLabeller:
    """Short labels for pieces: kind symbol, owner, stack height or counters, markers;
    and the legend that explains them (with the definition's titles)."""

    def __init__(self, game: FrontendGame, pieces: Sequence[PieceView], plain: bool,
                 hints: DisplayHints | None = None) -> None:
        self.players = tuple(game.players)
        self.kinds = game.kinds
        self.plain = plain
        self.hints = hints or display_hints(game)
        self.tags = owner_tags(self.players)
        # Whether a label can show an owner: a kind that is not neutral, or a pool
        # drawn on the board (`s4`); a game of neutral pieces alone has no owners to explain.
        self.owned = any(not (isinstance(spec, Mapping) and spec.get("owner") == NEUTRAL_NAME)
                         for spec in self.kinds.values()) or bool(getattr(game, "pool_sites", ()))
        # One player: a piece needs no owner tag (`T2`, not `sT2`); a neutral one keeps its own.
        self.sole = self.players[0] if len(self.players) == 1 else None
        symbols = [
            self.symbol(kind) for kind, spec in self.kinds.items()
            if not (isinstance(spec, Mapping) and spec.get("owner") == NEUTRAL_NAME)
        ] or ["?"]
        # Two players: the usual convention (first player upper case, second lower
        # case) is the most legible, as long as it cannot confuse two kinds.
        self.by_case = (
            len(self.players) == 2
            and all(s.isalpha() for s in symbols)
            and len({s.upper() for s in symbols}) == len(symbols)
        )
        hidden = self.hints.hidden_attributes
        declared = [n for n, t in self.hints.attribute_types.items() if t != "int" and n not in hidden]
        self.flags = sorted(set(flag_names(pieces, hidden)) | set(declared))
        self.markers = {name: MARKERS[i % len(MARKERS)] for i, name in enumerate(self.flags)}
        self.counters = sorted(
            {n for p in pieces for n, v in p.attributes.items() if type(v) is int}
            | {n for n, t in self.hints.attribute_types.items() if t == "int"}
        )
        self.counters = [n for n in self.counters if n not in hidden]
        self.stacks = any(p.stones is not None for p in pieces)

    def symbol(self, kind: str) -> str:
        spec = self.kinds.get(kind) or {}
        symbol = str(spec.get("symbol") or "") if isinstance(spec, Mapping) else ""
        if not symbol or (self.plain and not symbol.isascii()):
            # Plain mode promises ASCII: a symbol like '♔' falls back to the kind's initial.
            fallback = ascii_only(kind[:1]).upper() if self.plain else kind[:1].upper()
            return fallback if fallback and fallback != "?" else "X"
        return symbol

    def owner_part(self, owner: str | None, symbol: str) -> str:
        if owner is None:
            return symbol
        if self.by_case:
            return symbol.upper() if owner == self.players[0] else symbol.lower()
        if self.plain and owner != self.sole:
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
            text += "/".join(number_text(piece.attributes[n]) for n in self.counters if n in piece.attributes)
        text += "".join(self.markers[name] for name in self.flags if piece.attributes.get(name) is True)
        return text

    def widest(self) -> int:
        """A label width that fits the pieces of this game in most positions: the
        longest symbol, one digit per counter (or for the height of a stack) and
        every marker, so that the board does not change width from move to move."""
        symbols = [len(self.owner_part(self.players[0] if self.players else None, self.symbol(k)))
                   for k in self.kinds] or [1]
        digits = 1 if self.stacks else len(self.counters) * 2 - 1 if self.counters else 0
        return max(symbols) + max(digits, 0) + len(self.flags)

    def pool_label(self, player: str, count: int) -> str:
        if self.plain and player != self.sole:
            return f"{self.tags.get(player, '?')}{number_text(count)}"
        return number_text(count)

    def legend(self) -> list[str]:
        """What the labels mean: owners, kinds, numbers, markers."""
        parts = []
        if self.by_case:
            parts.append(f"{self.players[0]}: upper case, {self.players[1]}: lower case")
        elif self.plain and self.players and self.owned and self.sole is None:
            parts.append("owners: " + ", ".join(f"{tag}={p}" for p, tag in self.tags.items()))
        kinds = [f"{self._legend_symbol(k)} {self.hints.kind_title(k)}" for k in self.kinds]
        if kinds:
            parts.append(", ".join(kinds))
        if self.stacks:
            parts.append("number: stones in the stack")
        elif self.counters:
            parts.append("number: " + "/".join(self.hints.attribute_title(n) for n in self.counters))
        parts.extend(f"{self.markers[f]} {self.hints.attribute_title(f)}" for f in self.flags)
        return parts

    def _legend_symbol(self, kind: str) -> str:
        spec = self.kinds.get(kind) or {}
        neutral = isinstance(spec, Mapping) and spec.get("owner") == NEUTRAL_NAME
        return self.symbol(kind) if neutral or not self.by_case else self.symbol(kind).upper()


def lit_sites(last: Action | None) -> dict[str, str]:
    """Sites of the last move: site -> 'from' or 'to'."""
    lit: dict[str, str] = {}
    if last is None:
        return lit
    if last.from_site:
        lit[last.from_site] = "from"
    if last.to_site:
        lit[last.to_site] = "to"
    return lit


def pool_at(game: FrontendGame, pools: Mapping[str, Mapping[str, int]], site: str) -> tuple[str, int] | None:
    """(player, count) shown at a pool site, or None when its player is not playing."""
    pool, player = game.pool_sites[site]
    if player not in game.players:
        return None
    return player, int(pools.get(pool, {}).get(player, 0))


def ascii_only(text: str) -> str:
    """Plain mode promises ASCII: a letter with an accent is the letter ('ä': 'a'),
    any other character '?', one for one, so columns are kept."""
    if text.isascii():
        return text
    return "".join(ch if ch.isascii() else _plain_letter(ch) for ch in text)


def _plain_letter(ch: str) -> str:
    base = unicodedata.normalize("NFKD", ch)[:1]
    return base if base.isascii() and base.isprintable() and base else "?"


def variable_text(title: str, value: object) -> str:
    """A variable as the header shows it: `moves: 4`, `power: white 5, black 8`."""
    if isinstance(value, Mapping):
        return f"{title}: " + ", ".join(f"{k} {value_text(v)}" for k, v in value.items())
    return f"{title}: {value_text(value)}"


def value_text(value: object) -> str:
    """A number as people read it: `yes`/`no` for flags, `-` for none, no `.0`,
    a short form for one too long to read (numbers.number_text)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return number_text(value)


def drawing_coords(board: Any) -> dict[str, tuple[float, float]]:
    """Every site's drawing coordinates; sites without any go in a row below the rest."""
    coords = dict(board.coords)
    missing = [s for s in board.sites if s not in coords]
    if missing:
        bottom = min((c[1] for c in coords.values()), default=0.0) - 1.0
        for i, site in enumerate(missing):
            coords[site] = (float(i), bottom)
    return coords
