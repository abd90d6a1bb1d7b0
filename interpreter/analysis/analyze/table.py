"""The report as a text table that fits a 100-column terminal.

One row per metric, one column per game variant; a variant's cell is followed by
its difference from the base, marked `*` when the 95% interval of the difference
excludes zero. Columns that do not fit are shown in further blocks, each with
the base column again. Numbers are shown to the precision their interval allows.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from ...spelling import counted
from .report import Report, Row
from .stats import Difference, Estimate

WIDTH = 100


def decimals(est: Optional[Estimate]) -> int:
    """Decimals that show two significant digits of the interval's half width."""
    if est is None or est.value is None:
        return 2
    if est.kind == "rate":
        return 1  # shares in percent: tenths are as fine as a table needs
    half = (est.bounds()[2] - est.bounds()[1]) / 2 if est.low is not None else 0.0
    if half <= 0:
        return 0 if abs(est.value) >= 100 or est.value == int(est.value) else 2
    return max(0, min(4, 1 - math.floor(math.log10(half))))


def row_places(row: Row) -> int:
    """The decimals of every number of a row, in every column and in every form
    of the report (text, HTML): those of its first measured cell (the base's)."""
    return decimals(next((c for c in row.cells if c is not None and c.value is not None), None))


def cell_text(est: Optional[Estimate], places: int) -> str:
    """`48.0% [38.5,57.7]`, `216 ±17`, `0.89 [0.71,1.00]`, `-` or `n/a`."""
    if est is None:
        return "n/a"
    if est.value is None:
        return "-"
    scale, unit = (100, "%") if est.kind == "rate" else (1, "")
    value = f"{scale * est.value:.{places}f}{unit}"
    if est.low is None:
        return f"{value} (n={est.n})" if est.kind == "mean" else value
    _, low, high = est.bounds()
    if est.kind == "mean":
        return f"{value} ±{scale * (high - low) / 2:.{places}f}"
    return f"{value} [{scale * low:.{places}f},{scale * high:.{places}f}]"


MAX_PLACES = 6  # the JSON's rounding


def diff_text(diff: Optional[Difference], kind: str, places: int) -> str:
    """`+2.0`, `-0.42*`: the difference (percentage points for shares), marked `*`
    when significant. A significant difference never reads as 0: it gets the
    decimals its first digit needs (`+0.004*` where the row shows two)."""
    if diff is None:
        return ""
    value = 100 * diff.value if kind == "rate" else diff.value
    while diff.significant and places < MAX_PLACES and value != 0 and float(f"{value:.{places}f}") == 0:
        places += 1
    return f"{value:+.{places}f}" + ("*" if diff.significant else "")


def coverage_cell(est: Optional[Estimate], places: int) -> str:
    """Times a rule fired per game: `12.75`, `never`, `-` or `n/a`."""
    if est is None:
        return "n/a"
    if est.value is None:
        return "-"
    return "never" if est.value == 0 else f"{est.value:.{places}f}"


@dataclass(frozen=True)
class Layout:
    """One kind of table: the least width of the row labels and how a cell is written."""

    label: int
    show: Callable[..., Any]  # (estimate, decimals) -> text


METRICS = Layout(24, cell_text)
RATES = Layout(36, cell_text)
RULES = Layout(40, coverage_cell)
LEAST_LABEL = 16  # labels are cut (never numbers) to fit a second column beside the base


def row_cells(row: Row, show: Callable[..., Any]) -> list[tuple[str, str]]:
    """(value, difference) as written, per column; the base has no difference."""
    places = row_places(row)
    out = []
    for c, est in enumerate(row.cells):
        kind = est.kind if est is not None else ""
        out.append((show(est, places), diff_text(row.diffs[c], kind, places) if c else ""))
    return out


def _cell(text: str, width: int) -> str:
    """`text` in `width` characters, the last always a space; a longer one cut with `~`."""
    if len(text) > width - 1:
        text = text[:max(0, width - 2)] + "~"
    return f"{text:<{width - 1}} "


def _widths(report: Report, rows: Sequence[Row], texts: Sequence[list[Any]]) -> list[tuple[int, int]]:
    """(value width, difference width) of each column: its widest entry and a space,
    and room for its label over both."""
    out = []
    for c, data in enumerate(report.columns):
        entries = [t[c] for row, t in zip(rows, texts) if row.section]
        value = max([len(v) for v, _ in entries] + [1]) + 1
        diff = max([len(d) for _, d in entries] + [0]) + 1 if c else 0
        value = max(value, len(data.label) + 1 - diff)
        out.append((value, diff))
    return out


def _blocks(widths: Sequence[tuple[int, int]], label: int) -> list[list[int]]:
    """Column indices per block: the base in each, then as many as fit in WIDTH."""
    room = WIDTH - label - sum(widths[0])
    blocks: list[list[int]] = [[0]]
    used = 0
    for c in range(1, len(widths)):
        width = sum(widths[c])
        if len(blocks[-1]) > 1 and used + width > room:
            blocks.append([0])
            used = 0
        blocks[-1].append(c)
        used += width
    return blocks


def table_lines(report: Report, rows: Sequence[Row], layout: Layout, title: str,
                label_of: Callable[[Row], str]) -> list[str]:
    """One table (per block of columns): a header, then a line per row. Numbers are
    never cut: the columns are as wide as their widest entry; a row label is cut
    only when the base and one more column would not fit in WIDTH beside it."""
    lines: list[str] = []
    labels = [label_of(row) for row in rows]
    texts = [row_cells(row, layout.show) if row.section else [] for row in rows]
    widths = _widths(report, rows, texts)
    for block in _blocks(widths, layout.label):
        numbers = sum(sum(widths[c]) for c in block)
        longest = max((len(t) for row, t in zip(rows, labels) if row.section), default=0) + 1
        width = min(max(layout.label, longest), max(LEAST_LABEL, WIDTH - numbers))
        head = _cell(title, width) + _cell(report.columns[0].label, widths[0][0])
        head += "".join(_cell(report.columns[c].label, sum(widths[c])) for c in block[1:])
        lines.append(head.rstrip())
        for row, label, cells in zip(rows, labels, texts):
            if not row.section:  # a section title
                lines.append(label)
                continue
            text = _cell(label, width)
            for c in block:
                text += _cell(cells[c][0], widths[c][0]) + (_cell(cells[c][1], widths[c][1]) if c else "")
            lines.append(text.rstrip())
        lines.append("")
    return lines


def _short(where: str) -> str:
    """`games/x/x.rules:32:13` as `x.rules:32`: the table's room is precious."""
    path, _, rest = where.rpartition(":")[0].rpartition(":")
    return f"{os.path.basename(path)}:{rest}" if path else where


def _with_titles(rows: Sequence[Row], title_of: Callable[[str], str], key: Callable[[Row], str]) -> list[Row]:
    """The rows with a title row (section "") before each new group."""
    out: list[Row] = []
    group = None
    for row in rows:
        if key(row) != group:
            group = key(row)
            out.append(Row("", title_of(group), "", []))
        out.append(row)
    return out


def _section_title(report: Report, section: str) -> str:
    if section == "counted":
        every = f"1 game in {report.counts_every}" if report.counts_every > 1 else "every game"
        return f"counted games ({every})"
    if section == "traced":
        every = f"1 game in {report.trace_every}" if report.trace_every > 1 else "every game"
        if not any(data.has_score for data in report.columns):
            return f"traced games ({every}; no score rule: no lead changes, stability, decisiveness)"
        return f"traced games ({every}; lead changes etc. by the score rule)"
    if section == "depth" and report.depth is not None:
        return f"strategic depth ({counted(report.depth[2], 'game')} per column, seats alternating)"
    return section


def metrics_table(report: Report) -> list[str]:
    rows = _with_titles(report.metrics, lambda s: _section_title(report, s), lambda r: r.section)
    return table_lines(report, rows, METRICS, "metric", lambda r: r.label if not r.section else "  " + r.label)


def endings_table(report: Report) -> list[str]:
    return table_lines(report, report.endings, RATES, "how games end (share of games)",
                       lambda r: f"  {_short(r.where)} {r.label}" if r.where else f"  {r.label}")


def coverage_table(report: Report) -> list[str]:
    if not report.coverage:
        return []
    rows = _with_titles(report.coverage, lambda kind: f"{kind} rules", lambda r: r.kind)
    lines = ["rule coverage: times fired per game ('never': not once in the column's games)"]
    lines += table_lines(report, rows, RULES, "rule", lambda r: r.label if not r.section else
                         f"  {_short(r.where)} {r.label}")
    dead = [row for row in report.coverage if all(row.never(c) in (True, None) for c in range(len(report.columns)))]
    for row in dead:
        label = row.label if row.label.startswith(row.kind) else f"{row.kind} {row.label}"
        lines += _fitted(f"{row.where}: never fired in any game:", label)
    return lines + ([""] if dead else []) + replacement_notes(report, report.coverage + report.endings)


def replacement_notes(report: Report, rows: Sequence[Row]) -> list[str]:
    """Where a variant's rule that replaced a rule of the base game stands (its
    counts are in the base rule's row)."""
    notes: list[tuple[Any, str, str, str]] = []
    for row in rows:
        for c, data in enumerate(report.columns):
            if row.replaced_in(c) and (data.label, row.where) not in {(n[0], n[1]) for n in notes}:
                notes.append((data.label, row.where, row.label, row.replaced_in(c)))
    if not notes:
        return []
    lines = ["replaced by a variant's rule (counted in the base rule's row):"]
    for label, where, rule, replacement in notes:
        lines += _fitted(f"  {label}: {_short(where)} {rule} ->", replacement)
    return lines + [""]


def _fitted(head: str, tail: str) -> list[str]:
    """`head tail` on one line if it fits, else `tail` indented on a second."""
    return [f"{head} {tail}"] if len(head) + len(tail) < WIDTH else [head, f"    {tail}"]


def heading(report: Report) -> list[str]:
    lines = [
        f"{report.title} ({report.game}): {counted(report.games, 'game')} per column, seed {report.seed}, "
        f"players {report.players}, at most {counted(report.max_plies, 'ply', 'plies')}",
    ]
    lines += [f"  {data.label}: {data.column.origin or 'the game as given'}" for data in report.columns]
    if report.interrupted:
        played = ", ".join(f"{data.label} {len(data.games)}" for data in report.columns)
        lines.append(f"INTERRUPTED: only part of the games were measured ({played})")
    return lines + [""]


FOOTER = [
    "[lo,hi]: 95% interval (Wilson for shares); ±: half the 95% interval of a mean (Student's t).",
    "+d: difference from base (percentage points for shares), * when its 95% interval excludes 0",
    "(Newcombe for shares, Welch for means). With many rows, about 1 in 20 is marked by chance.",
]


def format_table(report: Report) -> str:
    """The whole report as text (metrics, endings, coverage, notes)."""
    lines = heading(report) + metrics_table(report) + endings_table(report) + coverage_table(report) + FOOTER
    return "\n".join(lines) + "\n"
