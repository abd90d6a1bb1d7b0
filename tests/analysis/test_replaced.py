"""A variant's rule that replaced one of the base game's is counted in the base
rule's row (not `n/a` beside a row of its own), and the report says where it is."""
from __future__ import annotations

from interpreter import load_game
from interpreter.analysis.analyze import analyze
from interpreter.analysis.analyze.replaced import probe_identities
from interpreter.analysis.analyze.table import format_table

from .helpers import DASH, DATA, row

OWN_STEP = DATA / "dash" / "variants" / "own-step.yaml"


def test_the_replaced_action_is_counted_in_the_base_rows():
    report = analyze(DASH, [str(OWN_STEP)], games=4, seed=1)
    fired = {(r.kind, r.label): [c.value if c is not None else None for c in r.cells] for r in report.coverage}
    # Every game: the runner steps twice, the blocker once, the runner wins.
    assert fired == {
        ("branch", "if piece is runner"): [2, 2], ("branch", "else"): [1, 1],
        ("branch", "if to in goal[player]"): [1, 1],
        ("case", "action 'step', onto empty"): [3, 3],
        ("case", "action 'step', onto enemy"): [0, None],  # the variant's step has no capture: n/a
        ("ending", "win"): [1, 1], ("ending", "no legal action"): [0, 0],
    }
    step = next(r for r in report.coverage if r.label == "action 'step', onto empty")
    assert step.where.endswith("dash/dash.rules:10:9") and step.replaced_in(0) == ""
    assert step.replaced_in(1).endswith("variants/own-step.rules:5:9")
    assert [r.cells[1].value for r in report.endings] == [1.0]  # one row: the base's `win`
    assert row(report.endings, "ending:" + report.endings[0].where).replaced_in(1).endswith("own-step.rules:12:17")


def test_the_json_and_the_table_say_where_the_replacement_is():
    report = analyze(DASH, [str(OWN_STEP)], games=4, seed=1)
    step = next(r for r in report.to_json()["coverage"] if r["label"] == "action 'step', onto empty")
    assert step["columns"]["own-step"]["replaced_by"].endswith("variants/own-step.rules:5:9")
    assert "replaced_by" not in step["columns"]["base"]
    text = format_table(report)
    assert "replaced by a variant's rule (counted in the base rule's row):" in text
    assert "own-step: dash.rules:10 action 'step', onto empty ->" in text


def test_identities_are_the_same_for_the_same_rules_in_another_file():
    base = load_game(DASH, coverage=True)
    variant = load_game(DASH, variant=str(OWN_STEP), coverage=True)
    identities = dict(zip(base.coverage.probes, probe_identities(base)))
    assert len(set(identities.values())) == len(identities)  # one probe, one identity
    step = next(i for p, i in identities.items() if p.label == "action 'step', onto empty")
    assert step == ("decision move / action step", "case", "action 'step', onto empty", 0)
    assert step in probe_identities(variant)
