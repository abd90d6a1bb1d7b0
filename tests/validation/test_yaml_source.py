import time

import pytest

from interpreter.validation import yaml_source
from interpreter.validation.yaml_source import load_yaml_file, load_yaml_text


def only_diagnostic(document):
    assert len(document.diagnostics) == 1, [d.format() for d in document.diagnostics]
    return document.diagnostics[0]


def located(document):
    """(line, column, message) of each diagnostic."""
    return [(d.line, d.column, d.message) for d in document.diagnostics]


# --- data and positions -------------------------------------------------------------

GAME = """\
title: Test
board:
  grid:
    files: 8
    ranks: "8"
players:
  - name: white
    color: red
  - {name: black, color: blue}
flags: [yes, no, ~]
"""


def test_data_is_what_safe_load_gives():
    import yaml

    document = load_yaml_text(GAME, "g.yaml")
    assert document.ok and document.diagnostics == []
    assert document.data == yaml.safe_load(GAME)
    assert document.file == "g.yaml" and document.text == GAME


def test_positions_of_values():
    positions = load_yaml_text(GAME, "g.yaml").positions
    assert positions.value(()) == (1, 1)
    assert positions.value(("title",)) == (1, 8)
    assert positions.value(("board",)) == (3, 3)  # a block mapping starts at its first key
    assert positions.value(("board", "grid", "files")) == (4, 12)
    assert positions.value(("board", "grid", "ranks")) == (5, 12)
    assert positions.value(("players", 0)) == (7, 5)
    assert positions.value(("players", 0, "color")) == (8, 12)
    assert positions.value(("players", 1)) == (9, 5)
    assert positions.value(("players", 1, "color")) == (9, 26)
    assert positions.value(("flags", 2)) == (10, 18)
    assert positions[("board", "grid", "files")] == (4, 12)
    assert ("board", "grid") in positions


def test_positions_of_keys():
    positions = load_yaml_text(GAME, "g.yaml").positions
    assert positions.key(("board",)) == (2, 1)
    assert positions.key(("board", "grid", "files")) == (4, 5)
    assert positions.key(("players", 1, "color")) == (9, 19)
    assert positions.key(("players", 0)) is None  # list items have no key
    assert positions.key(()) is None


def test_end_columns_of_single_line_scalars():
    positions = load_yaml_text(GAME, "g.yaml").positions
    assert positions.end_column(("board", "grid", "files")) == 13
    assert positions.end_column(("board", "grid", "ranks")) == 15  # includes the quotes
    assert positions.end_column(("board", "grid", "files"), key=True) == 10
    assert positions.end_column(("board",)) is None  # a block


def test_locate_falls_back_to_the_nearest_located_ancestor():
    positions = load_yaml_text(GAME, "g.yaml").positions
    assert positions.locate(("board", "grid", "files")) == (4, 12)
    assert positions.locate(("board", "grid", "files"), key=True) == (4, 5)
    assert positions.locate(("board", "grid", "size")) == (4, 5)  # board.grid itself
    assert positions.locate(["players", 5, "name"]) == (7, 3)
    assert positions.locate(("players", 0), key=True) == (7, 5)  # no key: the value
    assert load_yaml_text("", "e.yaml").positions.locate(("x",)) == (1, 1)


def test_empty_document_is_none_without_diagnostics():
    for text in ("", "# only a comment\n", "---\n"):
        document = load_yaml_text(text, "e.yaml")
        assert document.data is None and document.ok


def test_windows_line_endings_and_byte_order_mark():
    document = load_yaml_text("\ufeffa: 1\r\nbb: [2, 3]\r\n", "w.yaml")
    assert document.data == {"a": 1, "bb": [2, 3]}
    assert document.positions.value(("a",)) == (1, 4)
    assert document.positions.value(("bb", 1)) == (2, 9)


# --- duplicate keys -----------------------------------------------------------------


def test_duplicate_keys_are_reported_at_the_second_key():
    text = "players: 2\nboard:\n  size: 8\n  size: 9\nplayers: 3\n"
    document = load_yaml_text(text, "d.yaml")
    assert not document.ok
    assert located(document) == [
        (4, 3, "duplicate key 'size' (first defined at 3:3)"),
        (5, 1, "duplicate key 'players' (first defined at 1:1)"),
    ]
    assert document.diagnostics[0].end_column == 7
    # the first definition is kept, and positions point at it
    assert document.data == {"players": 2, "board": {"size": 8}}
    assert document.positions.value(("board", "size")) == (3, 9)


def test_equal_keys_of_different_types_are_not_duplicates():
    document = load_yaml_text("1: a\n'1': b\n", "k.yaml")
    assert document.ok
    assert document.data == {1: "a", "1": "b"}
    assert document.positions.key((1,)) == (1, 1)
    assert document.positions.key(("1",)) == (2, 1)


def test_non_scalar_key_is_reported():
    document = load_yaml_text("? [a, b]\n: 1\n", "k.yaml")
    assert located(document) == [(1, 3, "a mapping key must be a plain value, found a list")]


@pytest.mark.parametrize("text", ["pieces:\n  &man: {symbol: o}\n", "pieces:\n  null: {symbol: o}\n",
                                  "pieces:\n  ~: {symbol: o}\n"])
def test_an_empty_or_null_key_is_reported(text):
    # safe_load would give {None: ...}: a piece kind without a name.
    document = load_yaml_text(text, "k.yaml")
    assert located(document) == [(2, 3, "a mapping key is empty (or null)")]
    assert document.data is None


# --- syntax errors ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, line, column, message, hint",
    [
        (
            "board:\n\tsize: 8\n",
            2, 1, "tab characters are not allowed for indentation in YAML", "indent with spaces",
        ),
        (
            "title: a: b\n",
            1, 9, "unexpected ':' (mapping values are not allowed here)",
            "put a value that contains ': ' in quotes, or check the indentation",
        ),
        (
            "board:\n  size: 8\n kind: grid\n",
            3, 2, "bad indentation: this line lines up with none of the blocks around it",
            "indent it by 0 or 2 spaces, like the lines of the block it belongs to",
        ),
        (
            "board:\n  size: 8\nkind: grid\n  more: 1\n",
            4, 7, "unexpected ':' (mapping values are not allowed here)",
            "put a value that contains ': ' in quotes, or check the indentation",
        ),
        (
            "players:\n  - a\n  b: 2\n",
            3, 3, "bad indentation: expected the end of the list started at line 2, found a mapping key",
            "check that this line lines up with the entries it belongs to",
        ),
        (
            "sites: [a1, a2\nedges: 3\n",
            1, 8, "unclosed '[': expected ',' or ']' before ':' at 2:6", "add the closing ']'",
        ),
        (
            "game: x\ntitle X\nplayers: 2\n",
            2, 1, "missing ':' after 'title X'", "write each entry of a mapping as 'key: value'",
        ),
        (
            'players:\n  - {name: a, color: "#fff}\n  - {name: b, color: "#000"}\n',
            2, 22, "unclosed quote: this string runs on to line 3", "add the closing quote",
        ),
        (
            'players:\n  - {name: a, color: "#fff}\n  - {name: b}\nboard: {}\n',
            2, 22, "unclosed quote: this string never ends", "add the closing quote",
        ),
        (
            "title: 'Chess\nplayers: 2\n",
            1, 8, "unclosed quote: this string never ends", "add the closing quote",
        ),
        (
            "a: 1\n---\nb: 2\n",
            2, 1, "a definition file holds a single YAML document", "remove the '---' that starts a second one",
        ),
        (
            "base: 1\nitem: *bsae\n",
            2, 7, "unknown alias '*bsae'", "define the anchor '&bsae' before using it",
        ),
        (
            "a: &x 1\nb: &x 2\n",
            2, 4, "duplicate anchor '&x' (first defined at 1:4)", "give each anchor its own name",
        ),
        ("mail: @home\n", 1, 7, "a value cannot start with '@'", "put the value in quotes"),
        ("a: b\x07\n", 1, 5, "control character U+0007 is not allowed in YAML", None),
    ],
)
def test_syntax_errors_become_diagnostics(text, line, column, message, hint):
    document = load_yaml_text(text, "s.yaml")
    diagnostic = only_diagnostic(document)
    assert (diagnostic.file, diagnostic.line, diagnostic.column) == ("s.yaml", line, column)
    assert diagnostic.message == message
    assert diagnostic.hint == hint
    assert document.data is None and not document.ok


def test_syntax_error_formats_with_the_source():
    document = load_yaml_text("board:\n\tsize: 8\n", "s.yaml")
    assert only_diagnostic(document).format(document.text.split("\n")) == (
        "s.yaml:2:1: error: tab characters are not allowed for indentation in YAML\n"
        "        size: 8\n"
        "    ^~~~\n"
        "    hint: indent with spaces"
    )


# --- safety -------------------------------------------------------------------------


def test_python_tags_are_refused_not_executed(tmp_path):
    marker = tmp_path / "ran"
    text = f"a: !!python/object/apply:os.system ['touch {marker}']\n"
    diagnostic = only_diagnostic(load_yaml_text(text, "t.yaml"))
    assert (diagnostic.line, diagnostic.column) == (1, 4)
    assert diagnostic.message == "unsupported YAML tag '!!python/object/apply:os.system'"
    assert not marker.exists()


@pytest.mark.parametrize(
    "text, message",
    [
        ("a: !!set {x}\n", "unsupported YAML tag '!!set'"),
        ("a: !custom 3\n", "unsupported YAML tag '!custom'"),
        ("a: !!timestamp nope\n", "invalid value 'nope' for tag '!!timestamp'"),
    ],
)
def test_other_tags_are_refused(text, message):
    diagnostic = only_diagnostic(load_yaml_text(text, "t.yaml"))
    assert (diagnostic.line, diagnostic.column, diagnostic.message) == (1, 4, message)


BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def test_billion_laughs_is_a_diagnostic_and_fast():
    started = time.perf_counter()
    document = load_yaml_text(BILLION_LAUGHS, "bomb.yaml")
    assert time.perf_counter() - started < 5
    diagnostic = only_diagnostic(document)
    assert diagnostic.message == "aliases expand to more than 10000 values"
    # reported at the alias whose expansion ran over the budget: the first '*d' (9**4 > 10000)
    assert (diagnostic.line, diagnostic.column) == (5, 8)
    assert document.data is None


def test_a_few_aliases_are_fine():
    text = "piece: &p {value: 1, moves: [n, s]}\nking: *p\nqueen: *p\n"
    document = load_yaml_text(text, "a.yaml")
    assert document.ok
    assert document.data["king"] == {"value": 1, "moves": ["n", "s"]}
    assert document.positions.value(("queen",)) == (3, 8)  # the alias itself
    assert document.positions.value(("queen", "moves", 1)) == (1, 33)  # inside the anchor


@pytest.mark.parametrize("text", ["a: &a [1, *a]\n", "a: &a {b: *a}\n", "a: &a {<<: *a}\n"])
def test_recursive_aliases_are_refused(text):
    diagnostic = only_diagnostic(load_yaml_text(text, "r.yaml"))
    assert diagnostic.message == "an alias refers to a block that contains it (recursive alias)"
    assert diagnostic.line == 1


def test_deep_nesting_is_refused():
    diagnostic = only_diagnostic(load_yaml_text("[" * 150 + "]" * 150, "n.yaml"))
    assert diagnostic.message == "the document is nested too deeply (more than 100 levels)"
    diagnostic = only_diagnostic(load_yaml_text("[" * 20000 + "]" * 20000, "n.yaml"))
    assert diagnostic.message.startswith("the document is nested too deeply")


def test_too_large_text_is_refused(monkeypatch):
    monkeypatch.setattr(yaml_source, "MAX_YAML_BYTES", 1024 * 1024)
    diagnostic = only_diagnostic(load_yaml_text("a: " + "x" * (1024 * 1024), "big.yaml"))
    assert (diagnostic.line, diagnostic.column) == (1, 1)
    assert diagnostic.message == "big.yaml is too large (a definition file may have at most 1 MB)"


def test_too_large_file_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: " + b"x" * (2 * 1024 * 1024))
    diagnostic = only_diagnostic(load_yaml_file(path))
    assert diagnostic.message == f"{path} is too large (a definition file may have at most 2 MB)"


# --- merge keys ---------------------------------------------------------------------


def test_merge_keys_follow_yaml_precedence():
    text = (
        "base: &base {value: 1, symbol: P, moves: 2}\n"
        "fast: &fast {moves: 5, jumps: true}\n"
        "piece:\n"
        "  <<: [*fast, *base]\n"
        "  symbol: Q\n"
    )
    document = load_yaml_text(text, "m.yaml")
    assert document.ok
    assert document.data["piece"] == {"value": 1, "symbol": "Q", "moves": 5, "jumps": True}
    assert document.positions.value(("piece", "symbol")) == (5, 11)  # its own key
    assert document.positions.value(("piece", "moves")) == (2, 21)  # from *fast
    assert document.positions.key(("piece", "value")) == (1, 14)  # from *base


def test_merging_a_scalar_is_refused():
    diagnostic = only_diagnostic(load_yaml_text("a: &a 1\nb:\n  <<: *a\n", "m.yaml"))
    assert (diagnostic.line, diagnostic.column) == (3, 7)
    assert diagnostic.message == "'<<' can only merge a mapping or a list of mappings"


# --- files --------------------------------------------------------------------------


def test_load_file(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("a: [1, 2]\n", encoding="utf-8")
    document = load_yaml_file(path)
    assert document.ok and document.data == {"a": [1, 2]}
    assert document.file == str(path)
    assert load_yaml_file(path, display_name="games/x/game.yaml").file == "games/x/game.yaml"


def test_missing_file():
    diagnostic = only_diagnostic(load_yaml_file("/nonexistent/game.yaml"))
    assert diagnostic.format() == (
        "/nonexistent/game.yaml:1:1: error: cannot read /nonexistent/game.yaml: No such file or directory"
    )


def test_directory_instead_of_file(tmp_path):
    diagnostic = only_diagnostic(load_yaml_file(tmp_path, display_name="games/x"))
    assert diagnostic.message == "cannot read games/x: it is a folder, not a file"


def test_invalid_utf8_is_located(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"a: 1\nb: caf\xe9\n")
    diagnostic = only_diagnostic(load_yaml_file(path, display_name="bad.yaml"))
    assert (diagnostic.line, diagnostic.column) == (2, 7)
    assert diagnostic.message == "bad.yaml is not valid UTF-8 text (byte 0xe9)"


def test_byte_order_mark_in_file_is_skipped(tmp_path):
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: [1, 2\n")
    diagnostic = only_diagnostic(load_yaml_file(path, display_name="bom.yaml"))
    assert (diagnostic.line, diagnostic.column) == (1, 4)  # the unclosed '[', not shifted by the mark


def test_mangled_documents_never_raise():
    import random

    from interpreter.validation.schema_check import check_against_schema

    pieces = list("abc:-[]{},'\"&*!|>?#%@`\t\n \\~=0123456789")
    pieces += ["\n  ", ": ", "- ", "<<: ", "&a ", "*a", "!!str ", "---\n", "\x00", "\ufeff"]
    schema = {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}}
    rng = random.Random(5)
    for _ in range(500):
        text = list(GAME)
        for _ in range(rng.randint(1, 6)):
            at = rng.randint(0, len(text))
            if rng.random() < 0.5:
                text.insert(at, rng.choice(pieces))
            elif text:
                del text[min(at, len(text) - 1)]
        document = load_yaml_text("".join(text), "m.yaml")
        if document.ok:
            check_against_schema(document.data, schema, document.positions, "m.yaml")
        for diagnostic in document.diagnostics:
            diagnostic.format(document.text.split("\n"))


def test_every_yaml_line_break_counts_as_a_line_of_the_excerpts():
    # YAML breaks lines at a lone '\r' (and U+0085, U+2028, U+2029) too; the excerpt
    # shown under a diagnostic must be the line the position is about.
    document = load_yaml_text("a: 1\r\rb: [x,\r\ny: 2\n")
    diagnostic = only_diagnostic(document)
    assert (diagnostic.line, diagnostic.column) == (3, 4)
    assert document.text.split("\n")[2] == "b: [x,"
