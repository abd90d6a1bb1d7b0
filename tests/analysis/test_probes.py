"""Rule coverage of `if` branches, `forbid` lines and `prefer` tiers.

The core reports these probes (kinds `branch`, `forbid`, `prefer`, see
interpreter/runtime/coverage.py); `analyze` shows every probe kind it is given.

Expected semantics (docs/api.md, "Rule coverage"):
- `branch`: one branch of an `if`/`elif`/`else` ran — an `if` branch located at
  its `if` (or its first statement), an `elif`/`else` branch at its keyword or,
  labelled `elif`/`else`, at its `if`; a branch folded away by a constant
  option is still a probe, one that never fires;
- `forbid`: a `forbid` line rejected a candidate action — located at the line;
- `prefer`: a `prefer` line was offered and hid the actions of later tiers.
"""
from pathlib import Path

import pytest

from interpreter.analysis.analyze import analyze
from interpreter.frontends.cli import main

from .helpers import CHOICE, DASH, GATE, probe_rows, rule_line

REGIBUS_RULES = Path("games/regibus/regibus.rules")
WHOLE = "games/regibus/variants/whole-capture.yaml"


ALTERNATIVES = ("else", "elif")


def per_game(report, kind: str, path: Path, text: str, after: str = "", column: int = 0):
    """Times per game the probe of `kind` at the line `text` (the first after
    `after`) fired."""
    return find_probe(report, kind, path, text, after).cells[column].value


def find_probe(report, kind: str, path: Path, text: str, after: str = ""):
    """The coverage row of the probe of `kind` at the line `text` (the first
    after `after`); an `else:` branch is looked for at the preceding `if` too."""
    line = rule_line(path, text, after)
    rows = probe_rows(report, kind, line, path.name)
    if kind == "branch" and text.startswith("if"):
        rows = [r for r in rows if not r.label.startswith(ALTERNATIVES)]
    if kind == "branch" and text.startswith(ALTERNATIVES) and not rows:
        owner = max(n for n in range(1, line) if _text_at(path, n).startswith("if "))
        rows = [r for r in probe_rows(report, kind, owner, path.name) if r.label.startswith(text.rstrip(":"))]
    assert len(rows) == 1, f"expected one {kind} probe at {path.name} '{text}', got {[r.key for r in rows]}"
    return rows[0]


def _text_at(path: Path, line: int) -> str:
    return path.read_text().splitlines()[line - 1].strip()


# Per game and rules file: (probe kind, text of the rule's line, times it fires per game).
BRANCHES = (DASH, "dash.rules", [
    # Dash: the runner steps twice (the `if`), the blocker once (the `else`).
    ("branch", "if piece is runner:", 2),
    ("branch", "else:", 1),
])
IF_WITHOUT_ELSE = (DASH, "dash.rules", [("branch", "if to in goal[player]:", 1)])  # the runner arrives once
FORBIDS = (GATE, "gate.rules", [
    # Gate: at a1 the step to b1 is the one candidate rejected; nothing lands on a1.
    ("forbid", "landing where site == b1", 1),
    ("forbid", "landing where site == a1", 0),
])
PREFERS = (CHOICE, "choice.rules", [
    # Choice: on a1 the leap hides the step once per game; the hop is never legal.
    ("prefer", "prefer: leap", 1),
    ("prefer", "prefer: hop", 0),
])
# A rule of a procedure run by several actions: one row, all its counts.
PROCEDURE = (CHOICE, "choice.rules", [("branch", "if to == d1:", 1), ("ending", "win", 1)])


@pytest.mark.parametrize("game, rules, expected", [
    pytest.param(*BRANCHES, id="if-else"),
    pytest.param(*IF_WITHOUT_ELSE, id="if"),
    pytest.param(*FORBIDS, id="forbid"),
    pytest.param(*PREFERS, id="prefer"),
    pytest.param(*PROCEDURE, id="procedure"),
])
def test_probes_fire_as_computed_by_hand(game, rules, expected):
    report = analyze(game, games=4, seed=1, trace_every=0)
    fired = [per_game(report, kind, Path(game) / rules, text) for kind, text, _ in expected]
    assert fired == [times for _, _, times in expected]


def test_the_take_branches_of_regibus_move_with_the_capture_option():
    # `procedure take`: `if capture == "top"` runs in the base game, its `else` with
    # whole capture; the other one, folded away by the constant option, never fires.
    report = analyze("regibus", [WHOLE], games=6, seed=1, trace_every=0)
    top = ("branch", REGIBUS_RULES, 'if capture == "top":', "procedure take")
    whole = ("branch", REGIBUS_RULES, "else:", "procedure take")
    assert per_game(report, *top, column=0) > 0 and per_game(report, *whole, column=0) == 0
    assert per_game(report, *top, column=1) == 0 and per_game(report, *whole, column=1) > 0


def test_the_command_shows_the_take_branches_side_by_side(capsys):
    assert main(["analyze", "regibus", "--variant", WHOLE, "--games", "6", "--trace-every", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    report = analyze("regibus", [WHOLE], games=6, seed=0, trace_every=0)
    for text, never_in in (('if capture == "top":', 1), ("else:", 0)):
        row = find_probe(report, "branch", REGIBUS_RULES, text, "procedure take")
        line = row.where.split(":")[1]
        (shown,) = [s for s in out if s.strip().startswith(f"regibus.rules:{line} {row.label}")]
        base, whole, _ = shown.split()[-3:]  # the base, whole-capture, its difference
        assert [base == "never", whole == "never"] == [never_in == 0, never_in == 1]

