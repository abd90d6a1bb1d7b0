"""`regelwerk render GAME [RECORD] --svg FILE | --text`: draw the position after a record.

    regelwerk render GAME game.txt --svg position.svg
    regelwerk render GAME game.txt --text --ply 12

The last action is highlighted (from- and to-site, an arrow in SVG); a chance
outcome drawn after the last move keeps that move lit, and the header shows the
variables, whose turn it is and the result once the game is over.
"""
from __future__ import annotations

import sys
from typing import Any

from ..spelling import counted


def help_texts(prog: str, g: str) -> tuple[str, str]:
    return (
        "draw the position after a record, as SVG or as text",
        f"  {prog} render {g}                               the start position, as text\n"
        f"  {prog} render {g} game.txt --svg position.svg\n"
        f"  {prog} render {g} game.txt --ply 10 --text      after the first 10 actions\n"
        f"  {prog} render {g} game.txt --text --stacks       with every stack listed (games with stacks)\n\n"
        "Without --svg, the text drawing is printed (colours on a terminal, ASCII otherwise);\n"
        "with --svg FILE ('-': standard output) an SVG document is written, with one\n"
        "<g class=\"piece\"> per piece (data-site, data-owner, data-kind, data-height).",
    )


def configure_parser(sub: Any) -> None:
    from .common import int_argument

    sub.add_argument("--svg", metavar="FILE", default=None,
                     help="write the picture as SVG to FILE ('-': standard output)")
    sub.add_argument("--text", action="store_true", help="print the text drawing (the default without --svg)")
    sub.add_argument("--ply", type=int_argument, default=None, metavar="N",
                     help="draw the position after the first N actions of the record (negative: from the end)")
    sub.add_argument("--stacks", action="store_true", help="text: list every stack, bottom to top")
    sub.add_argument("--plain", action="store_true", help="text: ASCII without colours, even on a terminal")
    sub.add_argument("--no-highlight", action="store_true", help="do not highlight the last move")
    sub.set_defaults(run=run)


def run(args: Any) -> int:
    from ..validation.files import FileRefused
    from .common import CliError, last_move, load, replay_record, use_color
    from .output_file import replace_file
    from .records import read_record

    record = read_record(args.record) if args.record else None
    game = load(args, record)
    if record is not None and args.ply is not None:
        total = len(record.actions)
        keep = args.ply if args.ply >= 0 else total + args.ply
        if not 0 <= keep <= total:
            raise CliError(f"--ply {args.ply}: the record has {counted(total, 'action')}")
        record.actions = record.actions[:keep]
    elif args.ply not in (None, 0):
        raise CliError("--ply needs a RECORD")
    states = []
    replay_record(game, record, lambda ply, state: states.append(state))
    state = states[-1]
    last = last_move(game, states)
    highlight = not args.no_highlight
    if args.svg:
        from .render_svg import render_svg

        svg = render_svg(game, state, last_action=last, highlight_last=highlight) + "\n"
        if args.svg == "-":
            sys.stdout.write(svg)
        else:
            try:
                replace_file(args.svg, svg)  # (a link is replaced, not written through; a pipe is refused)
            except FileRefused as exc:
                raise CliError(f"cannot write {args.svg}: {exc.reason}") from None
            except OSError as exc:
                raise CliError(f"cannot write {args.svg}: {exc.strerror or exc}") from None
    if args.text or not args.svg:
        from .render_text import render_text

        plain = args.plain or not use_color(sys.stdout)
        sys.stdout.write(render_text(game, state, plain=plain, stacks=args.stacks, last_action=last,
                                     highlight_last=highlight))
    return 0
