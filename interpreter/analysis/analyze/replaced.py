"""Which rule of a variant took the place of which rule of the base game.

A variant's rules overlay replaces items by name (a phase, a procedure, a named
`forbid` block, an action of a decision: docs/format.md, "The rules overlay"), so
the replacement's probes stand in another file than the base's. To put the two in
one row of the report, every probe gets an *identity* that does not depend on the
file: the item it lies in (`decision move / action step`, `procedure take`), its
kind, its label, and its number among the probes of that item with the same kind
and label. A variant's probe that is not one of the base's but has the identity
of a base probe the variant no longer has replaced it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence

from ...parsing import ast

if TYPE_CHECKING:
    from ...api import Game

Span = tuple[str, int, int, str]  # (file, first line, last line, item name)


def _spans(rules: Sequence[Any]) -> list[Span]:
    """Where each item (and each action of a decision, and its `after each
    action`) stands. A position's `end_line` is where the next item begins."""
    out: list[Span] = []
    for rules_file in rules:
        for item in rules_file.items:
            name = _item_name(item)
            if name is None:
                continue
            out.append((item.pos.file, item.pos.line, item.pos.end_line or item.pos.line, name))
            if isinstance(item, ast.Decision):
                for action in item.actions:
                    pos = action.pos
                    out.append((pos.file, pos.line, pos.end_line or pos.line, f"{name} / action {action.name}"))
                if item.after_pos is not None:
                    pos = item.after_pos
                    out.append((pos.file, pos.line, pos.end_line or pos.line, f"{name} / after each action"))
    return out


def _item_name(item: Any) -> Optional[str]:
    word = {ast.Decision: "decision", ast.Phase: "phase", ast.Procedure: "procedure", ast.Chance: "chance",
            ast.ForbidGroup: "forbid", ast.Define: "define"}.get(type(item))
    if word is not None:
        return f"{word} {item.name}"
    if isinstance(item, ast.Score):
        return "score"
    return None  # an unnamed forbid line: never replaced, only added


def _item_at(spans: Sequence[Span], file: str, line: int) -> str:
    """The innermost item at `file:line` ('' when none)."""
    best: Optional[Span] = None
    for span in spans:
        if span[0] == file and span[1] <= line <= max(span[1], span[2]):
            if best is None or span[1] >= best[1]:
                best = span
    return best[3] if best is not None else ""


def probe_identities(game: Game) -> tuple[Any, ...]:
    """Per probe of `game.coverage` (in order), its identity; () without coverage
    or without a definition."""
    coverage = getattr(game, "coverage", None)
    rules = getattr(getattr(game, "definition", None), "rules", None)
    if coverage is None or rules is None:
        return ()
    spans = _spans(rules)
    items = [_item_at(spans, p.file, p.line) for p in coverage.probes]
    ordinal: dict[Any, Any] = {}
    number: dict[Any, Any] = {}
    for probe, item in sorted(zip(coverage.probes, items), key=lambda pair: (pair[0].file, pair[0].line,
                                                                            pair[0].column)):
        place = (probe.file, probe.line, probe.column)
        group = (item, probe.kind, probe.label)
        if (group, place) not in number:
            number[(group, place)] = ordinal[group] = ordinal.get(group, -1) + 1
    return tuple((item, p.kind, p.label, number[((item, p.kind, p.label), (p.file, p.line, p.column))]) if item
                 else None for p, item in zip(coverage.probes, items))
