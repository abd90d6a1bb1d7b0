"""Errors found while compiling rules, each at a place in the rules files."""
from __future__ import annotations

from typing import Iterable, Optional

from ..parsing import ast
from ..spelling import did_you_mean


class RuleError(Exception):
    """A mistake in the rules, at `pos`, with an optional hint ("did you mean ...")."""

    def __init__(self, pos: ast.Pos, message: str, hint: Optional[str] = None):
        super().__init__(message)
        self.pos = pos
        self.message = message
        self.hint = hint
        # The defines the error is inside, innermost first, each with where it is used.
        self.define_uses: list[tuple[str, ast.Pos]] = []


class TooDeep(RuleError):
    """Code nested deeper than the compiler's stack allowed (pipeline.py compiles
    such a definition again with a deeper one)."""


class FollowOnError(RuleError):
    """An error caused by one reported already (a name whose `let` failed): not
    reported again."""


class CircularDefine(RuleError):
    """A define used in its own definition (`define`: its name)."""

    def __init__(self, pos: ast.Pos, define: str, chain: list[str]):
        super().__init__(pos, f"'{define}' is defined in terms of itself ({' -> '.join(chain)})")
        self.define = define


def unknown(pos: ast.Pos, what: str, name: str, known: Iterable[str], hint: Optional[str] = None) -> RuleError:
    """`unknown WHAT 'NAME'`, suggesting the nearest of `known` (else `hint`)."""
    return RuleError(pos, f"unknown {what} '{name}'", did_you_mean(name, known) or hint)


def name_pos(pos: ast.Pos, name: str) -> ast.Pos:
    """Where `name` is written when it is the last word of the construct at `pos`
    (`piece.rnage`, `promote piece to chef`); `pos` itself when that is unknown."""
    if pos.end_line and pos.end_column and pos.end_column - len(name) >= 1:
        return ast.Pos(pos.file, pos.end_line, pos.end_column - len(name), pos.end_line, pos.end_column)
    return pos
