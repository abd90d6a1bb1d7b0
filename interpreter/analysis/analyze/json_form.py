"""The report as plain data (`Report.to_json()`, `regelwerk analyze --json`).

No timings and no machine-dependent value: the same seed and number of games
give byte-identical JSON however the games were run. Numbers are rounded to
6 decimals.
"""
from __future__ import annotations

from typing import Any, Optional

from .stats import Difference, Estimate

DIGITS = 6


def _num(x: Optional[float]) -> Any:
    return None if x is None else round(float(x), DIGITS)


def estimate_json(est: Optional[Estimate]) -> Optional[dict[str, Any]]:
    if est is None:
        return None
    out = {"value": _num(est.value), "n": est.n, "kind": est.kind}
    if est.low is not None:
        out["ci95"] = [_num(est.low), _num(est.high)]
    return out


def difference_json(diff: Optional[Difference]) -> Optional[dict[str, Any]]:
    if diff is None:
        return None
    return {"diff": _num(diff.value), "ci95": [_num(diff.low), _num(diff.high)], "p": _num(diff.p),
            "significant": diff.significant}


def row_json(row: Any, labels: list[Any]) -> dict[str, Any]:
    out = {"key": row.key, "label": row.label.strip(), "section": row.section}
    if row.where:
        out["where"] = row.where
    if row.kind:
        out["kind"] = row.kind
    out["columns"] = {}
    for i, label in enumerate(labels):
        cell = estimate_json(row.cells[i])
        if cell is not None and i > 0:
            cell["vs_base"] = difference_json(row.diffs[i])
        if cell is not None and row.shares:
            cell["games_fired"] = estimate_json(row.shares[i])
            cell["never_fired"] = row.never(i)
        if cell is not None and row.replaced_in(i):
            cell["replaced_by"] = row.replaced_in(i)  # the variant's rule counted in this row
        out["columns"][label] = cell
    return out


def column_json(data: Any) -> dict[str, Any]:
    games = data.games
    out: dict[str, Any] = data.column.describe()
    out.update({
        "games": len(games),
        "players": list(data.players),
        "score_rule": data.has_score,
        "plies_per_game": [g.plies for g in games],
        "counted_games": sum(g.turns is not None for g in games),
        "traced_games": sum(g.covered is not None for g in games),
        "heat": {site: count for site, count in zip(data.sites, data.heat) if count},
    })
    return out


def report_json(report: Any) -> dict[str, Any]:
    labels = [data.label for data in report.columns]
    out = {
        "game": report.game,
        "title": report.title,
        "seed": report.seed,
        "games": report.games,
        "players": report.players,
        "max_plies": report.max_plies,
        "trace_every": report.trace_every,
        "counts_every": report.counts_every,
        "interrupted": report.interrupted,
        "columns": [column_json(data) for data in report.columns],
        "metrics": [row_json(row, labels) for row in report.metrics],
        "endings": [row_json(row, labels) for row in report.endings],
        "coverage": [row_json(row, labels) for row in report.coverage],
    }
    if report.depth is not None:
        out["depth_test"] = {"strong": report.depth[0], "weak": report.depth[1], "games": report.depth[2]}
    return out
