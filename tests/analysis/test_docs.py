"""docs/analysis.md defines every metric the report has and every option of the
command, so that the page cannot drift from the code."""
from pathlib import Path

from interpreter.analysis.analyze import analyze
from interpreter.frontends.agents import make_agent
from interpreter.frontends.cli import build_parser

from .helpers import DASH

DOC = (Path(__file__).parents[2] / "docs" / "analysis.md").read_text()


def test_every_metric_is_defined():
    report = analyze(DASH, games=2, seed=1, depth_test=1, depth_games=1, agent_factory=make_agent)
    keys = {row.key.split(".")[0] + (".P" if row.key.startswith("wins.") else "") for row in report.metrics}
    keys = {key for key in keys if not key.endswith(".sd")}  # the spreads are defined with their means
    missing = [key for key in sorted(keys) if f"`{key}`" not in DOC]
    assert not missing, f"docs/analysis.md does not define {missing}"


def test_every_option_is_documented():
    _, commands = build_parser()
    options = [o for action in commands["analyze"]._actions for o in action.option_strings if o.startswith("--")]
    missing = [o for o in options if o != "--help" and f"`{o}" not in DOC]
    assert not missing, f"docs/analysis.md does not mention {missing}"
