"""Rule coverage while compiling: probes counted by the generated code.

With coverage on (`load_game(..., coverage=True)`), each rule that can fire gets
a probe of `runtime/coverage.RuleCoverage`, and the generated code counts its
firings in the coverage's counts list, bound as a constant.
"""
from __future__ import annotations

import ast as py
from dataclasses import dataclass
from typing import Optional

from ..parsing import ast
from ..runtime.coverage import RuleCoverage
from . import pyast


@dataclass
class Probes:
    """`count(kind, label, pos)` adds a probe and gives the statement that counts
    one firing of it — None when coverage is off."""

    coverage: Optional[RuleCoverage] = None
    counts: Optional[py.Name] = None  # the generated name of the coverage's counts list

    @property
    def on(self) -> bool:
        return self.coverage is not None

    def add(self, kind: str, label: str, pos: ast.Pos) -> Optional[int]:
        return self.coverage.add(kind, label, pos) if self.coverage is not None else None

    def count(self, kind: str, label: str, pos: ast.Pos) -> Optional[py.stmt]:
        probe = self.add(kind, label, pos)
        if probe is None or self.counts is None:
            return None
        return pyast.augment(pyast.sub(self.counts, probe), "+", pyast.num(1))

    def hit(self, probe: int) -> py.expr:
        """An expression counting one firing of `probe` (and true)."""
        assert self.counts is not None
        return pyast.helper("h_hit", self.counts, pyast.num(probe))
