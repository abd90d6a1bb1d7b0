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
    # The last part is an `exists` whose loop can hold what runs when the condition
    # does (expressions.Code.found_loop), or None.
    found_loop: Optional[tuple] = None

    @staticmethod
    def of(parts: list, found_loop: Optional[tuple] = None) -> Optional["Condition"]:
        """The conjunction of (lines, code) parts, or None when there are none."""
        if not parts:
            return None
        return Condition(tuple((tuple(lines), code) for lines, code in parts), found_loop)

    def replaced(self, old: str, new: str) -> "Condition":
        """The condition with the generated text `old` written `new` (for a
        place where the two are known to be equal)."""
        return Condition(tuple((tuple(line.replace(old, new) for line in lines), code.replace(old, new))
                               for lines, code in self.parts),
                         None if self.found_loop is None else tuple(line.replace(old, new) for line in self.found_loop))

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
        """Write `if` blocks such that what is written inside runs when it holds.
        When the last part is an `exists`, what is written inside runs in its loop,
        at the element found, before the loop stops: no flag to set and test."""
        with ExitStack() as stack:
            pending: list = []
            last = len(self.parts) - 1
            for i, (lines, code) in enumerate(self.parts):
                loop = self._found_loop(lines, code) if i == last else None
                if lines:
                    if pending:
                        stack.enter_context(src.block(f"if {' and '.join(pending)}:"))
                        pending = []
                    src.paste(list(lines[: len(lines) - len(loop)] if loop else lines))
                if loop:
                    if pending:
                        stack.enter_context(src.block(f"if {' and '.join(pending)}:"))
                    found = next(j for j, line in enumerate(loop) if line.strip() == f"{code} = True")
                    src.paste(list(loop[1:found]))  # (without `t = False`)
                    depth = (len(loop[found]) - len(loop[found].lstrip())) // 4
                    with src.indented(depth):
                        yield
                    src.paste(list(loop[found + 1:]))  # the `break`, and what follows it
                    return
                pending.append(code)
            stack.enter_context(src.block(f"if {' and '.join(pending)}:"))
            yield

    def _found_loop(self, lines: tuple, code: str) -> Optional[tuple]:
        """The `exists` loop ending `lines` whose flag is `code`, when there is one."""
        loop = self.found_loop
        if loop is None or not loop[0] == f"{code} = False" or tuple(lines[len(lines) - len(loop):]) != loop:
            return None
        if sum(line.strip() == f"{code} = True" for line in loop) != 1:
            return None
        return loop

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
