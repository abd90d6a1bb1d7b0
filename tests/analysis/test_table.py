"""The text table and the HTML tables say what the JSON says: every number is the
JSON's, rounded to the decimals shown, never cut; `*` exactly where the JSON has
`significant`."""
from __future__ import annotations

import html
import re

import pytest

from interpreter.analysis.analyze import analyze
from interpreter.analysis.analyze.columns import Column
from interpreter.analysis.analyze.report import ColumnData, Report, Row, with_differences
from interpreter.analysis.analyze.stats import Estimate
from interpreter.analysis.analyze.table import WIDTH, cell_text, coverage_cell, format_table
from interpreter.frontends.analyze_report import html_table
from interpreter.frontends.cli import main
from tests.helpers import GAMES

VARIANTS = [str(GAMES / "regibus" / "variants" / name) for name in ("whole-capture.yaml", "quick-start.yaml")]
TABLE_TITLES = {"metric": "metrics", "how games end (share of games)": "endings", "rule": "coverage"}
NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?%?\*?$")


def shown(text: str) -> tuple[float, int]:
    """A number as written (`-0.42*`, `48.0%`) and its decimals."""
    digits = text.rstrip("*%")
    return float(digits), len(digits.partition(".")[2])


def agrees(text: str, exact: float) -> bool:
    value, places = shown(text)
    return abs(value - exact) <= 0.5 * 10 ** -places + 1e-4


def check_cell(text: str, cell, first_column: bool) -> None:
    """One cell of a table (value, interval, difference) against its JSON."""
    if cell is None:
        assert text == "n/a"
        return
    tokens = text.split()
    diff = cell.get("vs_base")
    if not first_column and diff is not None:
        assert tokens[-1].endswith("*") == diff["significant"], (text, diff)
        scale = 100 if cell["kind"] == "rate" else 1
        assert agrees(tokens[-1], scale * diff["diff"]), (text, diff)
        if diff["significant"]:
            assert shown(tokens[-1])[0] != 0, text  # a significant difference never reads as 0
        tokens = tokens[:-1]
    else:
        assert not (len(tokens) > 1 and NUMBER.match(tokens[-1]) and tokens[-1][0] in "+-"), text
    if cell["value"] is None:
        assert tokens == ["-"]
        return
    if tokens == ["never"]:
        assert cell["value"] == 0
        return
    scale = 100 if cell["kind"] == "rate" else 1
    assert NUMBER.match(tokens[0]) and agrees(tokens[0], scale * cell["value"]), (text, cell)
    if len(tokens) > 1 and tokens[1].startswith("±"):
        low, high = cell["ci95"]
        assert agrees(tokens[1][1:], (high - low) / 2), (text, cell)
    elif len(tokens) > 1 and tokens[1].startswith("["):
        low, high = tokens[1].strip("[]").split(",")
        assert agrees(low, scale * cell["ci95"][0]) and agrees(high, scale * cell["ci95"][1]), (text, cell)


def text_tables(text: str, labels: list) -> dict:
    """{table: [{column label: cell text}] per data row}, the blocks of columns merged."""
    tables: dict = {}
    lines = text.splitlines()
    for i, head in enumerate(lines):
        title = next((t for t in TABLE_TITLES if head.startswith(t + " ")), None)
        if title is None:
            continue
        starts = sorted((m.start(1), label) for label in labels
                        for m in re.finditer(rf" ({re.escape(label)})(?= |$)", head))
        rows = []
        for line in lines[i + 1:]:
            if not line:
                break
            if line.startswith("  "):
                bounds = [s for s, _ in starts] + [None]
                rows.append({label: line[start:end].strip() for (start, label), end in zip(starts, bounds[1:])})
        merged = tables.setdefault(TABLE_TITLES[title], [])
        if len(merged) < len(rows):
            merged.extend({} for _ in range(len(rows) - len(merged)))
        for target, row in zip(merged, rows):
            target.update(row)
    return tables


@pytest.fixture(scope="module")
def report():
    return analyze("regibus", VARIANTS, compare=["capture=whole"], games=64, seed=1)


def test_the_text_table_says_what_the_json_says(report):
    data = report.to_json()
    labels = [c["label"] for c in data["columns"]]
    text = format_table(report)
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    tables = text_tables(text, labels)
    marks = 0
    for table in ("metrics", "endings", "coverage"):
        assert len(tables[table]) == len(data[table]), table
        for shown_row, json_row in zip(tables[table], data[table]):
            for c, label in enumerate(labels):
                check_cell(shown_row[label], json_row["columns"][label], c == 0)
                marks += shown_row[label].endswith("*")
    assert marks > 5  # the quick start differs from the base in many ways


def test_the_html_tables_say_what_the_json_says(report):
    data = report.to_json()
    labels = [c["label"] for c in data["columns"]]
    for table, rows in (("metrics", report.metrics), ("endings", report.endings), ("coverage", report.coverage)):
        page = html_table(report, rows, table, coverage_cell if table == "coverage" else cell_text)
        html_rows = re.findall(r"<tr><td>.*?</td>(.*?)</tr>", page)
        assert len(html_rows) == len(data[table])
        for cells, json_row in zip(html_rows, data[table]):
            raw = re.findall(r"<td>(.*?)</td>", cells)
            for c, (cell, label) in enumerate(zip(raw, labels)):
                shown = re.sub(r"<[^>]+>", "", re.sub(r"<small class='replaced'>.*?</small>", "", cell))
                check_cell(html.unescape(shown), json_row["columns"][label], c == 0)
                diff = (json_row["columns"][label] or {}).get("vs_base")
                assert ("class='diff sig'" in cell) == bool(diff and diff["significant"])


def test_wide_numbers_are_not_cut_and_keep_their_marks():
    """What a table of agents' games had: counts in the ten thousands, tiny
    significant differences (the figures of issue 29)."""
    base = Column("base", "x")
    columns = [ColumnData(Column(label, "x"), ("white", "black"), (), (), False) for label in ("base", "other")]
    columns[0].column = base

    def est(value, half, kind="mean", n=400):
        return Estimate(value, value - half, value + half, n, kind, sd=half * 10)

    metrics = [
        with_differences(Row("decision_moves", "decision moves", "counted",
                             [est(0.9912, 0.0011), est(0.9870, 0.0012)])),
        with_differences(Row("step", "step", "counted", [est(177023.4, 3001.0), est(163813.2, 2999.0)])),
    ]
    coverage = [with_differences(Row("case:x", "action 'leap', onto empty", "coverage",
                                     [est(10607.4, 1.0), est(2765.0, 1.0)], where="x.rules:1:1", kind="case",
                                     shares=[est(1, 0, "rate"), est(1, 0, "rate")]))]
    report = Report("x", "X", 1, 400, "random", 5000, 16, 4, columns, metrics, [], coverage)
    text = format_table(report)
    assert "-0.0042*" in text and "-13210*" in text
    assert "10607.4" in text and "2765.0" in text and "-7842.4*" in text
    assert max(len(line) for line in text.splitlines()) <= WIDTH


def test_the_command_prints_the_same_table_as_the_api(capsys, report):
    assert main(["analyze", "regibus", "--variant", VARIANTS[0], "--variant", VARIANTS[1],
                 "--compare", "capture=whole", "--games", "64", "--seed", "1"]) == 0
    assert format_table(report) in capsys.readouterr().out
