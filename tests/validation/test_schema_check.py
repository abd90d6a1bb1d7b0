import pytest

from interpreter.validation.schema_check import check_against_schema, dotted
from interpreter.validation.yaml_source import load_yaml_text

SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["players", "board"],
    "properties": {
        "title": {"type": "string", "maxLength": 10},
        "players": {
            "type": "array",
            "minItems": 2,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["name"],
                "properties": {
                    "name": {"type": "string", "pattern": "^[a-z]+$"},
                    "color": {"enum": ["red", "blue", "green", "yellow"]},
                },
            },
        },
        "board": {
            "oneOf": [
                {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["kind", "size"],
                    "properties": {
                        "kind": {"const": "grid"},
                        "size": {"type": "integer", "minimum": 1, "maximum": 26},
                        "files": {"type": "integer"},
                    },
                },
                {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["kind", "sites"],
                    "properties": {"kind": {"const": "graph"}, "sites": {"type": "array"}},
                },
            ]
        },
        "options": {
            "type": "object",
            "propertyNames": {"pattern": "^[a-z_]+$"},
            "additionalProperties": {"type": ["integer", "string"]},
        },
        "regions": {"type": "object", "propertyNames": {"enum": ["home", "goal"]}},
        "pass": {"type": "boolean"},
        "dice": {"type": "array", "uniqueItems": True, "items": {"type": "integer"}},
        "limits": {
            "type": "object",
            "properties": {"plies": {"exclusiveMinimum": 0, "multipleOf": 2}, "legacy": False},
            "dependentRequired": {"min": ["max"]},
        },
    },
}

VALID = """\
players:
  - name: white
  - name: black
board:
  kind: grid
  size: 8
"""


def check(text, schema=SCHEMA):
    document = load_yaml_text(text, "game.yaml")
    assert document.ok, [d.format() for d in document.diagnostics]
    return check_against_schema(document.data, schema, document.positions, "game.yaml")


def located(diagnostics):
    return [(d.line, d.column, d.message) for d in diagnostics]


def test_valid_document_has_no_diagnostics():
    assert check(VALID) == []


def test_unknown_field_points_at_the_key_and_suggests():
    text = VALID + "  sizee: 9\n"
    (diagnostic,) = check(text)
    assert diagnostic.format(text.split("\n")) == (
        "game.yaml:7:3: error: unknown field 'sizee' in board (did you mean 'size'?)\n"
        "      sizee: 9\n"
        "      ^~~~~"
    )


def test_unknown_field_without_a_close_name_lists_the_known_ones():
    (diagnostic,) = check(VALID + "  zzz: 1\n")
    assert (diagnostic.line, diagnostic.column) == (7, 3)
    assert diagnostic.message == "unknown field 'zzz' in board"
    assert diagnostic.hint == "known fields: kind, size, files"


def test_words_as_a_field_name_say_that_a_comma_ended_an_unquoted_value():
    # `{kind: grid, size: 8, or more by hand}`: YAML ends `size` at the comma, and the
    # words after it become a field of their own.
    text = VALID.replace("board:\n  kind: grid\n  size: 8\n", "board: {kind: grid, size: 8, or more by hand}\n")
    (diagnostic,) = check(text)
    assert diagnostic.message == "unknown field 'or more by hand' in board"
    assert diagnostic.hint is not None and "a comma inside {...} starts a new field" in diagnostic.hint


def test_unknown_top_level_field():
    assert located(check(VALID + "option: 3\n")) == [(7, 1, "unknown field 'option' (did you mean 'options'?)")]


def test_a_word_of_the_rules_file_at_the_top_says_where_it_belongs():
    # `score:` (and the other items of a rules file) written as a section of the YAML.
    assert located(check(VALID + "score: captures\nphases: [play]\n")) == [
        (7, 1, "unknown field 'score' ('score: EXPR' belongs in the rules file: format.md 3.14)"),
        (8, 1, "unknown field 'phases' ('phase NAME:' belongs in the rules file: format.md 3.3)"),
    ]
    # Inside a section, the word is just an unknown field.
    assert located(check(VALID + "  score: 1\n")) == [(7, 3, "unknown field 'score' in board")]


def test_every_error_is_reported_best_first():
    text = """\
players:
  - name: Alice
    color: purple
  - nmae: bob
board:
  kind: grid
  sizee: 8
  files: eight
"""
    # (a required field found under a misspelt key is reported there, not as missing too)
    assert located(check(text)) == [
        (7, 3, "unknown field 'sizee' in board (did you mean 'size'?)"),
        (8, 10, "board.files must be an integer, found 'eight'"),
        (2, 11, "players[0].name must match the pattern ^[a-z]+$, found 'Alice'"),
        (3, 12, "'purple' is not one of red, blue, green, yellow in players[0].color"),
        (4, 5, "unknown field 'nmae' in players[1] (did you mean 'name'?)"),
    ]


def test_enum_suggests_the_nearest_value():
    text = VALID.replace("  - name: black\n", "  - name: black\n    color: gren\n")
    (diagnostic,) = check(text)
    assert (diagnostic.line, diagnostic.column) == (4, 12)
    assert diagnostic.message == "'gren' is not one of red, blue, green, yellow in players[1].color"
    assert diagnostic.hint == "did you mean 'green'?"
    assert diagnostic.end_column == 16


def test_missing_required_field_at_top_level():
    assert located(check("board: {kind: grid, size: 8}\n")) == [(1, 1, "missing required field 'players'")]


def test_types_are_named_for_authors():
    text = "players: x\nboard: 3\noptions: {a: [1]}\npass:\ntitle: 7\n"
    assert located(check(text)) == [
        (1, 10, "players must be a list, found 'x'"),
        (2, 8, "board must be a mapping, found 3"),
        (4, 6, "pass must be true or false, found an empty value"),
        (5, 8, "title must be a string, found 7"),
        (3, 14, "options.a must be an integer or a string, found a list"),
    ]


def test_whole_document_of_the_wrong_type():
    assert located(check("- 1\n")) == [(1, 1, "the document must be a mapping, found a list")]
    assert check_against_schema(None, SCHEMA, None, "e.yaml")[0].format() == (
        "e.yaml:1:1: error: the document must be a mapping, found an empty value"
    )


def test_one_of_picks_the_alternative_the_author_meant():
    # kind: graph rules out the grid alternative; its errors are the ones to report
    text = VALID.replace("kind: grid\n  size: 8", "kind: graph\n  sites: 5\n  size: 3")
    assert located(check(text)) == [
        (6, 10, "board.sites must be a list, found 5"),
        (7, 3, "unknown field 'size' in board"),
    ]


def test_one_of_with_no_fitting_alternative_lists_the_choices():
    text = VALID.replace("kind: grid", "kind: hexagon")
    (diagnostic,) = check(text)
    assert (diagnostic.line, diagnostic.column) == (5, 9)
    assert diagnostic.message == "'hexagon' is not one of grid, graph in board.kind"


def test_one_of_of_types_names_all_of_them():
    schema = {"type": "object", "properties": {"size": {"oneOf": [{"type": "integer"}, {"type": "array"}]}}}
    assert located(check("size: big\n", schema)) == [(1, 7, "size must be an integer or a list, found 'big'")]


def test_one_of_shorthand_or_mapping_reports_inside_the_mapping():
    piece = {"type": "object", "additionalProperties": False,
             "properties": {"color": {"enum": ["red", "blue"]}, "value": {"type": "integer"}}}
    schema = {"type": "object", "properties": {"piece": {"oneOf": [{"type": "string"}, piece]}}}
    assert located(check("piece: {color: purple, value: x}\n", schema)) == [
        (1, 16, "'purple' is not one of red, blue in piece.color"),
        (1, 31, "piece.value must be an integer, found 'x'"),
    ]
    assert located(check("piece: 3\n", schema)) == [(1, 8, "piece must be a string or a mapping, found 3")]


def test_one_of_matching_twice():
    schema = {"oneOf": [{"type": "integer"}, {"minimum": 0}]}
    assert located(check("3\n", schema)) == [(1, 1, "the document matches more than one of the allowed forms")]


def test_bad_field_names_point_at_the_key():
    text = VALID + "options:\n  Bad-Name: 1\n  1: 2\nregions: {hoem: [a1]}\n"
    assert located(check(text)) == [
        (8, 3, "field name 'Bad-Name' in options must match the pattern ^[a-z_]+$"),
        (9, 3, "field name '1' in options must match the pattern ^[a-z_]+$"),
        (10, 11, "unknown field 'hoem' in regions (did you mean 'home'?)"),
    ]


def test_bounds_counts_and_other_keywords():
    text = VALID.replace("size: 8", "size: 30") + (
        "title: A very long title\n"
        "dice: [1, 2, 1]\n"
        "limits: {plies: 3, min: 1, legacy: 2}\n"
        "players2: 1\n"
    )
    messages = {d.message for d in check(text)}
    assert messages == {
        "board.size must be at most 26, found 30",
        "title must be at most 10 characters long, found 'A very long title'",
        "dice must not contain duplicates (1 appears more than once)",
        "limits.plies must be a multiple of 2, found 3",
        "field 'max' is required in limits when 'min' is given",
        "limits.legacy is not allowed here",
        "unknown field 'players2' (did you mean 'players'?)",
    }


def test_too_few_items():
    assert located(check("players: []\nboard: {kind: grid, size: 8}\n")) == [
        (1, 10, "players must have at least 2 items, found 0")
    ]


def test_duplicates_are_removed():
    # two required errors about one mapping must not repeat the same line
    schema = {"type": "object", "required": ["a", "b"], "allOf": [{"required": ["a"]}]}
    assert located(check("c: 1\n", schema)) == [
        (1, 1, "missing required field 'a'"),
        (1, 1, "missing required field 'b'"),
    ]


def test_positions_are_optional():
    (diagnostic,) = check_against_schema({"players": 1, "board": {"kind": "grid", "size": 1}}, SCHEMA, None, "x.json")
    assert diagnostic.format() == "x.json:1:1: error: players must be a list, found 1"


def test_unevaluated_properties():
    schema = {
        "type": "object",
        "allOf": [{"properties": {"name": {"type": "string"}}}],
        "unevaluatedProperties": False,
    }
    assert located(check("name: a\nnmae: b\n", schema)) == [
        (2, 1, "unknown field 'nmae' (did you mean 'name'?)")
    ]


@pytest.mark.parametrize(
    "path, text",
    [
        ((), ""),
        (("board", "grid", "files"), "board.grid.files"),
        (("players", 0, "color"), "players[0].color"),
        (("sites", "a 1", 2), "sites['a 1'][2]"),
        ((3,), "[3]"),
    ],
)
def test_dotted(path, text):
    assert dotted(path) == text
