"""Rule coverage: how often each rule of a definition fired while games were played.

A game loaded with `load_game(..., coverage=True)` counts, for each *probe* (a
place in the rules), how often it fired. The probes and their kinds:

- ``case``: an action's case (or a chance event) was applied — "action leap,
  onto enemy" at the case's line;
- ``branch``: one branch of an ``if``/``elif``/``else`` ran (in any block);
- ``forbid``: a ``forbid`` line rejected a candidate action;
- ``prefer``: a ``prefer`` line was offered and so hid the actions of later tiers;
- ``ending``: a ``win``/``lose``/``draw``/``end game`` statement (or the phase's
  default, nobody able to act) ended the game.

Counts are plain integers in `counts`, index by index with `probes`; they only
grow. Tools take `snapshot()`s before and after what they measure.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..parsing.ast import Pos


@dataclass(frozen=True)
class Probe:
    kind: str  # "case", "branch", "forbid", "prefer" or "ending"
    label: str  # for people: "action leap, onto enemy", "if piece.promoted", ...
    file: str
    line: int
    column: int

    @property
    def where(self) -> str:
        """`file:line:column` of the probe."""
        return f"{self.file}:{self.line}:{self.column}"


@dataclass
class RuleCoverage:
    """The probes of one compiled game and how often each fired (same order)."""

    probes: tuple[Probe, ...] = ()
    counts: list[int] = field(default_factory=list)

    def add(self, kind: str, label: str, pos: Pos) -> int:
        """A new probe (during compilation); returns its index."""
        self.probes = self.probes + (Probe(kind, label, pos.file, pos.line, pos.column),)
        self.counts.append(0)
        return len(self.counts) - 1

    def snapshot(self) -> list[int]:
        """A copy of the counts as they are now (for `fired`)."""
        return list(self.counts)

    def reset(self) -> None:
        """Set every count back to 0."""
        self.counts[:] = [0] * len(self.counts)

    def fired(self, before: list[int] | None = None) -> list[tuple[Probe, int]]:
        """(probe, count) pairs, counts since `before` (a snapshot) when given."""
        base = before or [0] * len(self.counts)
        return [(p, c - b) for p, c, b in zip(self.probes, self.counts, base)]
