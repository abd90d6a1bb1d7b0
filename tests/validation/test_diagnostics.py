import pytest

from interpreter.validation.diagnostics import (
    DefinitionError,
    Diagnostic,
    DiagnosticList,
    did_you_mean,
    format_diagnostics,
    split_source_lines,
    suggest,
)

# --- Diagnostic.format --------------------------------------------------------------


def test_headline_is_file_line_column_severity_message():
    d = Diagnostic("game.yaml", 3, 5, "unknown field 'sizee'")
    assert d.format() == "game.yaml:3:5: error: unknown field 'sizee'"
    assert str(d) == "game.yaml:3:5: error: unknown field 'sizee'"
    assert d.headline == "game.yaml:3:5: error: unknown field 'sizee'"


def test_warning_headline():
    d = Diagnostic("x.rules", 1, 2, "unused region 'top'", severity="warning")
    assert d.format() == "x.rules:1:2: warning: unused region 'top'"


def test_unknown_severity_is_rejected():
    with pytest.raises(ValueError):
        Diagnostic("f", 1, 1, "m", severity="fatal")


def test_unknown_positions_are_clamped_to_the_start():
    d = Diagnostic("f", -1, 0, "m")
    assert (d.line, d.column) == (1, 1)


def test_source_line_and_caret():
    lines = ["board:", "  grid:", "    sizee: 8"]
    d = Diagnostic("game.yaml", 3, 5, "unknown field 'sizee'")
    assert d.format(lines) == (
        "game.yaml:3:5: error: unknown field 'sizee'\n"
        "        sizee: 8\n"
        "        ^"
    )


def test_caret_underlines_to_end_column_exclusive():
    d = Diagnostic("game.yaml", 1, 5, "bad", end_column=10)
    assert d.format(["    sizee: 8"]) == (
        "game.yaml:1:5: error: bad\n"
        "        sizee: 8\n"
        "        ^~~~~"
    )


def test_end_column_not_after_column_is_ignored():
    d = Diagnostic("f", 1, 3, "m", end_column=3)
    assert d.end_column is None


def test_hint_line_comes_last():
    d = Diagnostic("r.rules", 2, 10, "unknown direction 'rnage'", hint="did you mean 'range'?", end_column=15)
    assert d.format(["phase play:", "    step rnage 2"]) == (
        "r.rules:2:10: error: unknown direction 'rnage'\n"
        "        step rnage 2\n"
        "             ^~~~~\n"
        "    hint: did you mean 'range'?"
    )


def test_hint_without_source():
    d = Diagnostic("f", 1, 1, "m", hint="h")
    assert d.format() == "f:1:1: error: m\n    hint: h"


def test_leading_tab_does_not_misplace_the_caret():
    # column 2 is 'x', just after the tab
    d = Diagnostic("f", 1, 2, "m")
    assert d.format(["\tx = 1"]) == "f:1:2: error: m\n" + "        x = 1\n" + "        ^"


def test_tab_inside_the_line_does_not_misplace_the_caret():
    # "ab\tcd": 'c' is column 4; the tab expands to the next stop (4)
    d = Diagnostic("f", 1, 4, "m", end_column=6)
    assert d.format(["ab\tcd"]) == "f:1:4: error: m\n" + "    ab  cd\n" + "        ^~"


def test_wide_characters_count_double_for_the_caret():
    d = Diagnostic("f", 1, 5, "m")
    assert d.format(["名前: x"]) == "f:1:5: error: m\n" + "    名前: x\n" + "          ^"


def test_column_past_the_end_of_line_points_just_after_it():
    d = Diagnostic("f", 1, 40, "unexpected end of file")
    assert d.format(["phase x:"]) == "f:1:40: error: unexpected end of file\n" + "    phase x:\n" + "            ^"


def test_line_outside_the_source_shows_no_excerpt():
    d = Diagnostic("f", 9, 1, "m")
    assert d.format(["only line"]) == "f:9:1: error: m"


def test_control_characters_are_not_echoed():
    d = Diagnostic("f", 1, 3, "m")
    text = d.format(["a:\x1b[2Jb"])
    assert "\x1b" not in text
    assert text.splitlines()[1] == "    a:?[2Jb"


def test_long_lines_are_shown_as_a_window_around_the_column():
    line = "x" * 300 + "BAD" + "y" * 300
    d = Diagnostic("f", 1, 301, "m", end_column=304)
    shown, caret = d.format([line]).splitlines()[1:3]
    assert len(shown) < 120
    assert shown.startswith("    ...") and shown.endswith("...")  # (ASCII: one column a dot in any terminal)
    assert shown[caret.index("^"): caret.index("^") + 3] == "BAD"
    assert caret.strip() == "^~~"


def test_color_wraps_parts_in_ansi_codes():
    d = Diagnostic("f", 1, 1, "m", hint="h")
    text = d.format(["x"], color=True)
    assert "\x1b[1;31merror:\x1b[0m m" in text
    assert "\x1b[" in text.splitlines()[0]
    assert "\x1b[" not in d.format(["x"])


# --- DiagnosticList -----------------------------------------------------------------


def test_list_sorts_by_file_line_column_and_removes_duplicates():
    diagnostics = DiagnosticList()
    diagnostics.error("b.yaml", 1, 1, "third")
    diagnostics.error("a.yaml", 5, 2, "second")
    diagnostics.warning("a.yaml", 5, 1, "first")
    diagnostics.error("a.yaml", 5, 2, "second", hint="same problem, reported twice")
    assert [d.message for d in diagnostics] == ["first", "second", "third"]
    assert len(diagnostics) == 3
    assert diagnostics.has_errors
    assert [d.message for d in diagnostics.warnings] == ["first"]
    assert [d.message for d in diagnostics.errors] == ["second", "third"]


def test_warnings_alone_are_not_errors():
    diagnostics = DiagnosticList()
    assert not diagnostics
    diagnostics.warning("f", 1, 1, "w")
    assert diagnostics and not diagnostics.has_errors
    diagnostics.raise_if_errors()  # does not raise


def test_format_all_uses_the_sources_it_is_given():
    diagnostics = DiagnosticList()
    diagnostics.error("r.rules", 2, 5, "bad rule")
    diagnostics.error("g.yaml", 1, 1, "bad field")
    text = diagnostics.format_all({"r.rules": "phase x:\n    oops\n"})
    assert text == (
        "g.yaml:1:1: error: bad field\n"
        "r.rules:2:5: error: bad rule\n"
        "        oops\n"
        "        ^"
    )


def test_format_diagnostics_handles_crlf_sources():
    text = format_diagnostics([Diagnostic("f", 2, 1, "m")], {"f": "a\r\nbc\r\n"})
    assert text == "f:2:1: error: m\n    bc\n    ^"
    assert split_source_lines("a\r\nb") == ["a", "b"]


def test_raise_if_errors_raises_definition_error_with_everything():
    diagnostics = DiagnosticList()
    diagnostics.warning("f", 2, 1, "w")
    diagnostics.error("f", 1, 1, "e")
    with pytest.raises(DefinitionError) as info:
        diagnostics.raise_if_errors()
    assert [d.message for d in info.value.diagnostics] == ["e", "w"]


# --- DefinitionError ----------------------------------------------------------------


def test_definition_error_str_lists_every_diagnostic_in_order():
    error = DefinitionError(
        [Diagnostic("g.yaml", 4, 3, "missing required field 'players'"),
         Diagnostic("g.yaml", 2, 1, "unknown field 'x'")]
    )
    assert str(error) == "g.yaml:2:1: error: unknown field 'x'\ng.yaml:4:3: error: missing required field 'players'"
    assert isinstance(error, Exception)
    assert [d.line for d in error.diagnostics] == [2, 4]


def test_definition_error_accepts_one_diagnostic_and_sources():
    error = DefinitionError(Diagnostic("g.yaml", 1, 4, "bad"), sources={"g.yaml": "a: b\n"})
    assert str(error) == "g.yaml:1:4: error: bad\n    a: b\n       ^"
    assert error.args == (str(error),)


# --- suggest ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, candidates, expected",
    [
        ("sizee", ["size", "sites", "kind"], "size"),
        ("rnage", ["range", "rank", "region"], "range"),
        ("nmae", ["name", "owner"], "name"),
        ("aex", ["axe", "bow"], "axe"),  # one swapped pair in a short name
        ("Players", ["players"], "players"),  # only the case differs
        ("PLYERS", ["players"], "players"),  # case-insensitive
        ("size", ["sites"], None),  # not a typo of it
        ("setup", ["step"], None),
        ("x", ["y", "z"], None),
        ("range", ["range", "rang"], None),  # already known
        ("anything", [], None),
    ],
)
def test_suggest(name, candidates, expected):
    assert suggest(name, candidates) == expected


def test_suggest_is_independent_of_candidate_order():
    assert suggest("ab1", ["ab2", "ab3"]) == suggest("ab1", ["ab3", "ab2"]) == "ab2"


def test_suggest_ignores_non_string_names():
    assert suggest(3, ["three"]) is None
    assert suggest("tree", [3, "three"]) == "three"


def test_did_you_mean():
    assert did_you_mean("rnage", ["range"]) == "did you mean 'range'?"
    assert did_you_mean("zzz", ["range"]) is None
