"""Rule coverage of `if` branches, `forbid` lines and `prefer` tiers.

The core reports these probes (kinds `branch`, `forbid`, `prefer`, see
interpreter/runtime/coverage.py) once it counts them; `analyze` shows every
probe kind it is given. Until then these tests are expected to fail; strict, so
that they turn into errors (remove the mark) the day the probes arrive.

Expected semantics (docs/api.md, "Rule coverage"):
- `branch`: one branch of an `if`/`elif`/`else` ran — located at the branch's
  keyword (or its first statement); a branch folded away by a constant option
  is still a probe, one that never fires;
- `forbid`: a `forbid` line rejected a candidate action — located at the line;
- `prefer`: a `prefer` line was offered and hid the actions of later tiers.
"""
from pathlib import Path

import pytest

from interpreter.analysis.analyze import analyze
from interpreter.frontends.cli import main

from .helpers import CHOICE, DASH, GATE, probe_rows, rule_line

needs_core = pytest.mark.xfail(strict=True, reason="needs branch/forbid/prefer probes from the core")
REGIBUS_RULES = Path("games/regibus/regibus.rules")
WHOLE = "games/regibus/variants/whole-capture.yaml"


def per_game(report, kind: str, path: Path, text: str, after: str = "", column: int = 0):
    rows = probe_rows(report, kind, rule_line(path, text, after), path.name)
    assert len(rows) == 1, f"expected one {kind} probe at {path.name} '{text}', got {[r.key for r in rows]}"
    return rows[0].cells[column].value


# (game, rules file, probe kind, text of the rule's line, times it fires per game)
EXPECTED = [
    # Dash: the runner steps twice (the `if`), the blocker once (the `else`); the
    # runner reaches its goal once per game.
    (DASH, "dash.rules", "branch", "if piece is runner:", 2),
    (DASH, "dash.rules", "branch", "else:", 1),
    (DASH, "dash.rules", "branch", "if to in goal[player]:", 1),
    # Gate: at a1 the step to b1 is the one candidate rejected; nothing lands on a1.
    (GATE, "gate.rules", "forbid", "landing where site == b1", 1),
    (GATE, "gate.rules", "forbid", "landing where site == a1", 0),
    # Choice: on a1 the leap hides the step once per game; the hop is never legal.
    (CHOICE, "choice.rules", "prefer", "prefer: leap", 1),
    (CHOICE, "choice.rules", "prefer", "prefer: hop", 0),
]


@needs_core
@pytest.mark.parametrize("game, rules, kind, text, times", EXPECTED, ids=[f"{e[2]}:{e[3]}" for e in EXPECTED])
def test_probes_fire_as_computed_by_hand(game, rules, kind, text, times):
    report = analyze(game, games=4, seed=1, trace_every=0)
    assert per_game(report, kind, Path(game) / rules, text) == times


@needs_core
def test_the_take_branches_of_regibus_move_with_the_capture_option():
    # `procedure take`: `if capture == "top"` runs in the base game, its `else` with
    # whole capture; the other one, folded away by the constant option, never fires.
    report = analyze("regibus", [WHOLE], games=6, seed=1, trace_every=0)
    top = ("branch", REGIBUS_RULES, 'if capture == "top":', "procedure take")
    whole = ("branch", REGIBUS_RULES, "else:", "procedure take")
    assert per_game(report, *top, column=0) > 0 and per_game(report, *whole, column=0) == 0
    assert per_game(report, *top, column=1) == 0 and per_game(report, *whole, column=1) > 0


@needs_core
def test_the_command_shows_the_take_branches_side_by_side(capsys):
    assert main(["analyze", "regibus", "--variant", WHOLE, "--games", "6", "--trace-every", "0"]) == 0
    out = capsys.readouterr().out
    top_line = rule_line(REGIBUS_RULES, 'if capture == "top":', "procedure take")
    rows = [line for line in out.splitlines() if f"regibus.rules:{top_line} " in line
            or f"regibus.rules:{top_line + 1} " in line]
    assert rows and "never" in rows[0].split()[-2:]  # the base fires it, whole-capture never
