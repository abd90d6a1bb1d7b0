"""Faults of the rules found while playing."""
from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn, Optional

if TYPE_CHECKING:
    from ..parsing.ast import Pos


class RuleRuntimeError(Exception):
    """The rules did something impossible at run time (reported with the rule's position)."""

    def __init__(self, pos: Optional[Pos], message: str):
        super().__init__(f"{pos}: {message}" if pos else message)
        self.pos = pos
        self.message = message

    def __reduce__(self) -> tuple[type[RuleRuntimeError], tuple[Optional[Pos], str]]:
        # (the default would call __init__ with the formatted text alone)
        return (RuleRuntimeError, (self.pos, self.message))


def fail(pos: Optional[Pos], message: str) -> NoReturn:
    """Raise a RuleRuntimeError (generated code calls this as `h_fail`)."""
    raise RuleRuntimeError(pos, message)
