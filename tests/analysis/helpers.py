"""Shared by the analysis tests: the hand-made games and looking rows up."""
from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent / "data"
DASH = str(DATA / "dash")
COIN = str(DATA / "coin")
GATE = str(DATA / "gate")
CHOICE = str(DATA / "choice")


def row(rows, key: str):
    """The row with `key`; rows of coverage and endings may be found by a key's end."""
    found = [r for r in rows if r.key == key]
    assert found, f"no row {key!r} among {[r.key for r in rows]}"
    return found[0]


def value(report, key: str, column: int = 0):
    return row(report.metrics, key).cells[column].value


def rule_line(path: Path, text: str, after: str = "") -> int:
    """The 1-based line of the first line containing `text` (after the first
    line containing `after`)."""
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if after in line) if after else 0
    return next(i for i, line in enumerate(lines) if i >= start and text in line) + 1


def probe_rows(report, kind: str, line: int, file_end: str = ""):
    """Coverage rows of `kind` located at `line`, else on the line after it (a
    branch may be located at its keyword or at its first statement)."""
    def at(n: int) -> list:
        return [r for r in report.coverage
                if r.kind == kind and r.where.split(":")[0].endswith(file_end) and int(r.where.split(":")[1]) == n]

    return at(line) or at(line + 1)
