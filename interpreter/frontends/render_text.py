"""Drawing a position in the terminal, for any game the format can define.

A header (game, ply, phase, whose turn, the last action, the variables and
pools players should see), the board, and a legend that says what the symbols
mean. Grid boards are drawn by render_grid.py; graph boards by render_graph.py
(a drawing with coordinates when one fits, else the sites listed by region).
Two modes share one layout:
- colour: `rich` styles (owner colours, checkered squares, marked regions, the
  last move lit up);
- plain: ASCII only and no styles, for pipes, logs and tests. The owner of a piece
  is then told by letter case (two players) or a player tag (`rP`), and the last
  move's squares by brackets.

Everything is taken from the public Game API (`board`, `kinds`, `player_colors`,
`pool_sites`, `pieces`, `pools`, `variables`, `phase`, `last_action`) and from the
definition's display hints (display.py: titles, hidden variables, marked regions).
The drawing is sized for the terminal (`width`, `height`), 80 x 24 at least.
"""
from __future__ import annotations

import io
import os
from typing import TYPE_CHECKING, Any, Mapping

from rich.console import Console
from rich.text import Text

from ..runtime.pieces import CHANCE_NAME
from ..runtime.views import Action, PieceView
from .display import DisplayHints, display_hints
from .numbers import number_text
from .render_graph import SiteLabels, graph_lines, graph_mode
from .render_grid import grid_lines
from .render_parts import (
    NEUTRAL_COLOUR,
    PieceLabeller,
    ascii_only,
    contrast_colour,
    flag_names,
    hex_colour,
    lit_sites,
    owner_tags,
    value_text,
    variable_text,
)

if TYPE_CHECKING:
    from ..runtime.state import State
    from .protocol import FrontendGame


__all__ = [
    "render_text",
    "board_text",
    "lists_sites",
    "print_position",
    "terminal_size",
    "PieceLabeller",
    "owner_tags",
    "flag_names",
    "hex_colour",
    "contrast_colour",
    "NEUTRAL_COLOUR",
]

# -- the public entry points ---------------------------------------------------------------


def terminal_size(stream: Any) -> tuple[int, int]:
    """(columns, lines) of the terminal `stream` writes to; 80 x 24 for anything else
    (a pipe, a file), so that a transcript fits the smallest terminal too."""
    try:
        if stream.isatty():
            size = os.get_terminal_size(stream.fileno())
            return max(size.columns, 40), max(size.lines, 12)
    except (AttributeError, ValueError, OSError):  # replaced or closed streams
        pass
    return 80, 24


def render_text(game: FrontendGame, state: State, *, plain: bool = False, stacks: bool = False,
                last_action: Action | None = None, highlight_last: bool = True,
                width: int = 80, height: int = 24) -> str:
    """The position as a string: ASCII without styles when `plain`, else with ANSI colours."""
    text = board_text(game, state, plain=plain, stacks=stacks, last_action=last_action,
                      highlight_last=highlight_last, width=width, height=height)
    if plain:
        return text.plain
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="truecolor", width=max(width, 200))
    console.print(text, soft_wrap=True)
    return buffer.getvalue()


def print_position(game: FrontendGame, state: State, console: Console | None = None, *, plain: bool | None = None,
                   stacks: bool = False, last_action: Action | None = None, highlight_last: bool = True,
                   width: int | None = None, height: int | None = None) -> None:
    """Print the position; plain ASCII unless the console is a terminal."""
    console = console or Console()
    if plain is None:
        plain = not console.is_terminal
    text = board_text(game, state, plain=plain, stacks=stacks, last_action=last_action,
                      highlight_last=highlight_last, width=width or console.width, height=height or console.height)
    if plain:
        console.print(text.plain, markup=False, highlight=False, emoji=False, soft_wrap=True)
    else:
        console.print(text, soft_wrap=True)


def lists_sites(game: FrontendGame, state: State, width: int = 80, height: int = 24) -> bool:
    """Whether the board is a graph whose sites the text drawing lists by region
    (with their connections in words): a picture (`regelwerk render --svg`) shows
    it better."""
    if game.board.kind == "grid":
        return False
    hints = display_hints(game)
    labeller = PieceLabeller(game, list(game.pieces(state)), True, hints)
    sites = SiteLabels(game, state, list(game.pieces(state)), labeller, {}, True, hints)
    return graph_mode(game, sites.width, hints, width, height) == "list"


def board_text(game: FrontendGame, state: State, *, plain: bool = False, stacks: bool = False,
               last_action: Action | None = None, highlight_last: bool = True,
               width: int = 80, height: int = 24) -> Text:
    """The position as a rich `Text`: header lines, the board, a legend.

    `last_action` defaults to the action that led to `state`. `stacks` lists every
    stack of two or more stones, bottom to top, under the board. The board and its
    legend are made to fit `width` x `height` characters with the header.
    """
    hints = display_hints(game)
    pieces = list(game.pieces(state))
    labeller = PieceLabeller(game, pieces, plain, hints)
    last = last_action if last_action is not None else game.last_action(state)
    lit = lit_sites(last) if highlight_last else {}

    out = Text()
    header = header_lines(game, state, last, plain, hints, width)
    legend = wrap_parts(labeller.legend() + mark_legend(hints, plain), width, " | " if plain else " · ")
    room = max(height - len(header) - len(legend) - 2, 8)
    drawing = grid_lines if game.board.kind == "grid" else graph_lines
    board = drawing(game, state, pieces, labeller, lit, plain, hints, width, room)
    for line in header + [Text()] + board:
        out.append_text(line)
        out.append("\n")
    for entry in legend:
        out.append(entry + "\n", style=None if plain else "dim")
    if stacks:
        for line in stack_lines(game, pieces, labeller, plain):
            out.append_text(line)
            out.append("\n")
    out.rstrip()
    out.append("\n")
    if plain:
        # Names from a definition may hold any character; plain mode promises ASCII
        # (one '?' per character, so the layout keeps its columns).
        return Text(ascii_only(out.plain))
    return out


def mark_legend(hints: DisplayHints, plain: bool) -> list[str]:
    """The marked regions, as legend entries: `# throne`; one without a symbol shows
    only in colour: `goal edges (coloured)`."""
    parts = []
    for mark in hints.marks:
        if mark.symbol:
            parts.append(f"{mark.symbol} {mark.title}")
        elif not plain:
            parts.append(f"{mark.title} (coloured)")
    return parts


def wrap_parts(parts: list[str], width: int, separator: str) -> list[str]:
    """Legend parts joined on as few lines of at most `width` characters as they fit."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(separator) + len(part) <= width:
            lines[-1] += separator + part
        else:
            lines.append(part)
    return lines


# -- header --------------------------------------------------------------------------------


def header_lines(game: FrontendGame, state: State, last: Action | None, plain: bool, hints: DisplayHints,
                 width: int = 80) -> list[Text]:
    """The title line (game, ply, phase, whose turn or the result), then the last
    action with the variables players see, then the pools."""
    sep = " | " if plain else " · "
    title = getattr(game, "title", None) or getattr(game, "name", "game")
    parts = [str(title), f"ply {getattr(state, 'ply', '?')}", f"phase {game.phase(state)}", _whose_turn(game, state)]
    lines = [Text(line, style="" if plain else "bold") for line in wrap_parts(parts, width, sep)]
    details = [f"last: {last.notation}"] if last is not None else []
    variables = hints.shown_variables(game.variables(state))
    details.extend(variable_text(hints.variable_title(k), v) for k, v in variables.items())
    lines.extend(Text(line) for line in wrap_parts(details, width, "   "))
    pools = game.pools(state)
    if pools:
        shown = [
            f"{pool}: " + ", ".join(f"{player} {number_text(count)}" for player, count in counts.items())
            for pool, counts in pools.items()
        ]
        lines.append(Text("pools: " + "; ".join(shown)))
    if plain:
        lines = [Text(ascii_only(line.plain), style=line.style) for line in lines]
    return lines


def _whose_turn(game: FrontendGame, state: State) -> str:
    who = game.to_move(state)
    if who == CHANCE_NAME:
        return "chance event"
    if who is not None:
        return f"{who} to move"
    result = game.result(state)
    if result is None:
        return "game over"
    winner = f"{result.winner} wins" if result.winner is not None else "draw"
    scores = ", ".join(f"{p} {value_text(s)}" for p, s in result.scores.items())
    return f"game over: {winner} ({scores})"


# -- stacks --------------------------------------------------------------------------------


def _stone_style(stone: str, colours: Mapping[str, str]) -> str:
    """Stones are coloured by a player's name (usually) or by a colour of their own."""
    background = hex_colour(colours.get(stone, stone))
    return f"bold {contrast_colour(background)} on {background}"


def stack_lines(game: FrontendGame, pieces: list[PieceView], labeller: PieceLabeller, plain: bool) -> list[Text]:
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
