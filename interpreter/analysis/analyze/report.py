"""The report: every metric of every column side by side, with the differences
from the base column, rule coverage and the endings; as data and as JSON.

Rows are built from the games in game order, so that the same games give the
same report (and byte-identical JSON) however they were run.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from ...spelling import counted
from .columns import Column
from .metrics import column_metrics
from .playout import CUT_OFF, UNLOCATED, GameStats
from .stats import Difference, Estimate, difference, mean, rate


@dataclass
class ColumnData:
    """One column's games (in game order) and what is needed to read them."""

    column: Column
    players: tuple[Any, ...]
    sites: tuple[Any, ...]
    probes: tuple[Any, ...]  # coverage probes of this column's compiled rules
    has_score: bool
    games: list[Any] = field(default_factory=list)  # GameStats
    heat: list[Any] = field(default_factory=list)  # landings per site
    depth: list[Any] = field(default_factory=list)  # GameStats of the depth test
    identities: tuple[Any, ...] = ()  # per probe: its identity across variants (replaced.py), None: none

    def row_keys(self, base: "ColumnData") -> list[Any]:
        """Per probe, the key of its row: its own (`probe_key`), or, for a probe
        of a variant's rule that replaced a rule of `base` (replaced.py), the base
        rule's key, so that both are counted in one row."""
        keys = [probe_key(p) for p in self.probes]
        if base is self or not self.identities or not base.identities:
            return keys
        base_keys = {probe_key(p) for p in base.probes}
        by_identity: dict[Any, Any] = {}
        for probe, identity in zip(base.probes, base.identities):
            if identity is not None:
                by_identity.setdefault(identity, probe_key(probe))
        own = set(keys)
        for i, identity in enumerate(self.identities):
            target = by_identity.get(identity) if identity is not None else None
            if keys[i] not in base_keys and target is not None and target not in own:
                keys[i] = target
        return keys

    @property
    def label(self) -> str:
        return self.column.label


@dataclass
class Row:
    """One line of the report: a value per column, each column's difference from
    the base (None for the base itself and where there is no test)."""

    key: str
    label: str
    section: str
    cells: list[Any]  # Optional[Estimate] per column; None: not measured in that column
    diffs: list[Any] = field(default_factory=list)
    where: str = ""  # coverage and endings: FILE:LINE:COLUMN of the rule
    kind: str = ""  # coverage: the probe's kind
    shares: list[Any] = field(default_factory=list)  # coverage: share of games it fired in
    # coverage and endings: per column, where the rule stands in that column when a
    # variant replaced the row's rule by one of its own ("" otherwise)
    wheres: list[Any] = field(default_factory=list)

    def replaced_in(self, column: int) -> str:
        """FILE:LINE:COLUMN of the rule that replaced the row's rule in that column, or ''."""
        return self.wheres[column] if column < len(self.wheres) else ""

    def never(self, column: int) -> Optional[bool]:
        """Coverage: whether the rule never fired in that column (None: not there)."""
        cell = self.cells[column]
        return None if cell is None or cell.value is None else cell.value == 0


@dataclass
class Report:
    """What `analyze` measured. `metrics`, `endings` and `coverage` are lists of
    `Row`; `columns` the `ColumnData`; `to_json()` the whole as plain data."""

    game: str
    title: str
    seed: int
    games: int  # asked for, per column
    players: str
    max_plies: int
    trace_every: int  # one game in this many is traced (0: none)
    counts_every: int  # one game in this many is counted (turns, choices)
    columns: list[Any]
    metrics: list[Any] = field(default_factory=list)
    endings: list[Any] = field(default_factory=list)
    coverage: list[Any] = field(default_factory=list)
    depth: Optional[tuple[Any, ...]] = None  # (strong, weak, games) when the depth test ran
    interrupted: bool = False
    play_seconds: float = 0.0  # time spent playing (not in the JSON: it changes from run to run)

    @property
    def games_played(self) -> int:
        return sum(len(data.games) + len(data.depth) for data in self.columns)

    def to_json(self) -> dict[str, Any]:
        from .json_form import report_json

        return report_json(self)


def with_differences(row: Row) -> Row:
    base = row.cells[0]
    row.diffs = [None] + [
        difference(cell, base) if cell is not None and base is not None else None for cell in row.cells[1:]
    ]
    return row


def metric_rows(columns: Sequence[ColumnData], depth: Optional[tuple[Any, ...]]) -> list[Row]:
    """The metrics of every column, matched by key (first seen first)."""
    per_column = []
    for data in columns:
        depth_games = (data.depth, depth[0], depth[1]) if depth is not None else None
        per_column.append(column_metrics(data.games, data.players, len(data.sites), data.has_score, depth_games))
    return _match(per_column)


def _match(per_column: Sequence[Sequence[tuple[Any, ...]]]) -> list[Row]:
    order: dict[Any, Any] = {}
    for items in per_column:
        for spec, _ in items:
            order.setdefault(spec.key, spec)
    rows = []
    for key, spec in order.items():
        cells = [next((est for s, est in items if s.key == key), None) for items in per_column]
        rows.append(with_differences(Row(key, spec.label, spec.section, cells)))
    return rows


def probe_key(probe: Any) -> tuple[Any, ...]:
    return probe.kind, probe.label, probe.file, probe.line, probe.column


def coverage_rows(columns: Sequence[ColumnData]) -> list[Row]:
    """Per rule: fires per game and the share of games it fired in, per column.

    A rule is a probe's (kind, label, place): probes alike (a procedure's rule
    compiled into each action that runs it) are one rule, their counts added. A
    variant's rule that replaced one of the base game's is counted in the base
    rule's row (`Row.wheres` tells where it stands)."""
    keys: dict[Any, Any] = {}
    column_keys = [data.row_keys(columns[0]) for data in columns]
    for data, mapped in zip(columns, column_keys):
        for probe, key in zip(data.probes, mapped):
            keys.setdefault(key, probe)
    counts = [_fires_per_game(data, mapped) for data, mapped in zip(columns, column_keys)]
    wheres = [_replacements(data, mapped) for data, mapped in zip(columns, column_keys)]
    rows = []
    for key, probe in keys.items():
        cells, shares = [], []
        for per_rule in counts:
            values = per_rule.get(key)
            cells.append(mean(values) if values is not None else None)
            shares.append(rate(sum(v > 0 for v in values), len(values)) if values is not None else None)
        row = Row(f"{probe.kind}:{probe.where}:{probe.label}", probe.label, "coverage", cells,
                  where=probe.where, kind=probe.kind, shares=shares, wheres=[w.get(key, "") for w in wheres])
        rows.append(with_differences(row))
    return rows


def _replacements(data: ColumnData, mapped: Sequence[Any]) -> dict[str, Any]:
    """{base rule's key: where the column's replacement stands} of the rules the
    column's variant replaced."""
    return {key: probe.where for probe, key in zip(data.probes, mapped) if key != probe_key(probe)}


def _fires_per_game(data: ColumnData, mapped: Sequence[Any]) -> dict[str, Any]:
    """{row key: [times it fired in each game]} (alike probes added up)."""
    table = {key: [0] * len(data.games) for key in mapped}
    for g, stats in enumerate(data.games):
        for probe, count in stats.fired:
            table[mapped[probe]][g] += count
    return table


def ending_rows(columns: Sequence[ColumnData], max_plies: int) -> list[Row]:
    """How the games ended: the share of games each ending rule ended, per column
    (a variant's rule that replaced one of the base game's in the base rule's row)."""
    column_keys = [data.row_keys(columns[0]) for data in columns]
    keys: dict[Any, Any] = {}
    for mapped, data in zip(column_keys, columns):
        for stats in data.games:
            key = _ending_key(mapped, stats.ending)
            keys.setdefault(key, _ending_label(key, max_plies))
    wheres = [_replacements(data, mapped) for data, mapped in zip(columns, column_keys)]
    rows = []
    for key, (label, where) in sorted(keys.items(), key=lambda item: _ending_order(item[0])):
        cells = [rate(sum(_ending_key(mapped, s.ending) == key for s in d.games), len(d.games))
                 for d, mapped in zip(columns, column_keys)]
        rows.append(with_differences(Row(f"ending:{where or key[0]}", label, "endings", cells, where=where,
                                         wheres=[w.get(key, "") for w in wheres])))
    return rows


def _ending_key(mapped: Sequence[Any], ending: int) -> tuple[Any, ...]:
    if ending == CUT_OFF:
        return ("cut off",)
    if ending == UNLOCATED:
        return ("unlocated",)
    key: tuple[Any, ...] = mapped[ending]
    return key


def _ending_label(key: tuple[Any, ...], max_plies: int) -> tuple[Any, ...]:
    """(label, where) of an ending's row, from its key."""
    if key == ("cut off",):
        return f"cut off at {counted(max_plies, 'ply', 'plies')}", ""
    if key == ("unlocated",):
        return "ended by no located rule", ""
    _, label, file, line, column = key
    return label, f"{file}:{line}:{column}"


def _ending_order(key: tuple[Any, ...]) -> tuple[Any, ...]:
    """Rules in file order, then the unlocated endings and the cut-off."""
    return (1, key[0]) if len(key) == 1 else (0, key[2], key[3], key[4], key[1])


def assemble(report: Report) -> Report:
    """Fill the rows of `report` from its columns' games."""
    report.metrics = metric_rows(report.columns, report.depth)
    report.endings = ending_rows(report.columns, report.max_plies)
    report.coverage = coverage_rows(report.columns)
    return report


__all__ = ["ColumnData", "Difference", "Estimate", "GameStats", "Report", "Row", "assemble"]
