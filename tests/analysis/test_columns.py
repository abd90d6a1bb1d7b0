"""Columns: the base game, variants and option sets, and their diagnostics."""
import pytest

from interpreter import DefinitionError
from interpreter.analysis.analyze import analyze, build_columns
from interpreter.analysis.analyze.columns import parse_option_set

from .helpers import DASH, DATA, row, value

HEAD_START = str(DATA / "dash" / "variants" / "head-start.yaml")

WHOLE = "games/regibus/variants/whole-capture.yaml"


def test_columns_of_variants_and_option_sets():
    columns = build_columns("regibus", {"travel_min": "2"}, [WHOLE], ["capture=whole", "capture=whole+quiet_limit=5"])
    assert [c.label for c in columns] == ["base", "whole-capture", "capture=whole", "capture=whole+quiet_limit=5"]
    assert columns[0].game == "regibus" and columns[0].options == (("travel_min", "2"),)
    assert columns[1].variant.endswith("/games/regibus/variants/whole-capture.yaml")
    assert dict(columns[3].options) == {"travel_min": "2", "capture": "whole", "quiet_limit": "5"}


def test_equal_labels_are_numbered():
    columns = build_columns("regibus", None, [], ["capture=whole", "capture=whole"])
    assert [c.label for c in columns] == ["base", "capture=whole", "capture=whole#2"]


@pytest.mark.parametrize("text", ["capture", "=whole", "capture=", "capture=whole+"])
def test_malformed_option_sets(text):
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_option_set(text)


def test_a_bad_option_of_a_column_is_located_at_compare():
    with pytest.raises(DefinitionError) as caught:
        analyze("regibus", compare=["capture=wholes"], games=1)
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.file == "--compare" and "'--compare capture=wholes'" in diagnostic.message


def test_a_variant_column_and_its_difference_from_the_base():
    report = analyze(DASH, [HEAD_START], games=6, seed=1, trace_every=1)
    assert [c.label for c in report.columns] == ["base", "head-start"]
    assert value(report, "plies", 0) == 3 and value(report, "plies", 1) == 1
    plies = row(report.metrics, "plies")
    assert plies.diffs[0] is None and plies.diffs[1].value == -2 and plies.diffs[1].significant
    white = row(report.metrics, "wins.white")
    assert white.diffs[1].value == 0 and not white.diffs[1].significant
    # The blocker never moves in the variant: its case fires 3 times per game, then once.
    onto_empty = next(r for r in report.coverage if "onto empty" in r.label)
    assert [c.value for c in onto_empty.cells] == [3, 1]
