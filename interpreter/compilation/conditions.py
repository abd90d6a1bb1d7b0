"""A condition made of parts, each with the lines that must run before it.

Compiled in lowered mode (expressions.ExpressionCompiler.lowered), a condition is
lines — the loops of its quantifiers — and an expression reading their results. A
conjunction of such conditions (the `where` lines of an action, one per
conjunct) is asked part by part, so that the lines of a later part run only when
the earlier parts hold.
"""
from __future__ import annotations

from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Iterator, Optional

from .source import Source


@dataclass(frozen=True)
class Condition:
    parts: tuple  # ((lines, code), ...): all must hold, asked in order

    @staticmethod
    def of(parts: list) -> Optional["Condition"]:
        """The conjunction of (lines, code) parts, or None when there are none."""
        return Condition(tuple((tuple(lines), code) for lines, code in parts)) if parts else None

    def replaced(self, old: str, new: str) -> "Condition":
        """The condition with the generated text `old` written `new` (for a
        place where the two are known to be equal)."""
        return Condition(tuple((tuple(line.replace(old, new) for line in lines), code.replace(old, new))
                               for lines, code in self.parts))

    @property
    def cost_free(self) -> bool:
        """Whether no part needs lines (the condition is one expression)."""
        return not any(lines for lines, _ in self.parts)

    @property
    def code(self) -> str:
        """The condition as one expression (only when `cost_free`)."""
        codes = [code for _, code in self.parts]
        return codes[0] if len(codes) == 1 else "(" + " and ".join(codes) + ")"

    @contextmanager
    def holds(self, src: Source) -> Iterator[None]:
        """Write `if` blocks such that what is written inside runs when it holds."""
        with ExitStack() as stack:
            pending: list = []
            for lines, code in self.parts:
                if lines:
                    if pending:
                        stack.enter_context(src.block(f"if {' and '.join(pending)}:"))
                        pending = []
                    src.paste(list(lines))
                pending.append(code)
            stack.enter_context(src.block(f"if {' and '.join(pending)}:"))
            yield

    def assign(self, src: Source, name: str) -> None:
        """`name = <whether it holds>`."""
        if self.cost_free:
            src.line(f"{name} = {self.code}")
            return
        src.line(f"{name} = False")
        with self.holds(src):
            src.line(f"{name} = True")


@contextmanager
def all_hold(src: Source, *conditions: Optional[Condition]) -> Iterator[None]:
    """Open blocks for several conditions (None: none to ask) in order."""
    with ExitStack() as stack:
        for condition in conditions:
            if condition is not None:
                stack.enter_context(condition.holds(src))
        yield
