"""The examples of docs/format.md are checked, so that the reference cannot drift
from the grammar, the schemas and the interpreter.

Conventions for fenced code blocks in docs/format.md (the fence's language word):

- ```rules — rules text; it must parse with `parse_rules`. A block is a list of
  complete top-level items, unless its first line is a marker comment:
    `# fragment: statements`   statements, as in a block (wrapped in a procedure);
    `# fragment: expressions`  one expression per line (each wrapped in a define);
    `# fragment: action`       the lines inside one action: one pattern, `where`,
                               `notation`, cases (wrapped in a decision and action);
    `# fragment: decision`     the lines inside a decision (actions, after each action);
    `# fragment: phase`        the lines inside a phase (order, turn, after ..., if no action);
    `# file: NAME.rules`       part of a complete example game (see below).
- ```yaml — YAML; it must load with a safe loader and be a mapping. A mapping with
  `extends` is a variant and must follow schemas/variant.schema.json; any other is
  a game file or a fragment of one (top-level keys only) and must follow
  schemas/game.schema.json (required keys are not asked of fragments). With a first
  line `# file: NAME.yaml` it is part of a complete example game.
- ```text — anything (syntax outlines, pseudo-code); not checked.

Blocks marked `# file: ...` are written to one folder; every game YAML among them
must load with `load_game` and play random games without an error.

Besides the examples, the reference must mention every keyword of the grammar,
every function, context name, direction set and YAML key the interpreter knows,
and the limits it enforces. The last section plays small games on hand-made
positions to check what the reference says the patterns, results and the turn
sequence do.
"""
from __future__ import annotations

import copy
import random
import re
import textwrap
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from interpreter import load_game
from interpreter.analysis.perft import perft
from interpreter.compilation import action_values, statements
from interpreter.compilation import actions as C
from interpreter.compilation import board as boards
from interpreter.compilation.expressions import FUNCTIONS
from interpreter.compilation.names import BUILTIN_PROPERTIES, CONTEXT_NAMES, PIECE_RELATIONS
from interpreter.loading import variants
from interpreter.loading.files import _schema, schema_registry
from interpreter.parsing import parser as rules_parser_module
from interpreter.parsing.parser import parse_rules
from interpreter.runtime import longest, walks
from interpreter.validation import yaml_source
from tests.helpers import REPO as ROOT

DOC = ROOT / "docs" / "format.md"
GRAMMAR = ROOT / "grammar" / "rules.lark"
LANGUAGES = ("rules", "yaml", "text")
FRAGMENT = re.compile(r"#\s*fragment:\s*(\w+)\s*$")
FILE = re.compile(r"#\s*file:\s*(\S+)\s*$")


def _blocks() -> list[tuple[int, str, str]]:
    """(line of the opening fence, language, text) of every fenced block."""
    blocks = []
    lines = DOC.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            language = line[3:].strip()
            start = i + 1
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                i += 1
            assert i < len(lines), f"format.md:{start}: unclosed code block"
            blocks.append((start, language, "\n".join(lines[start:i]) + "\n"))
        i += 1
    return blocks


BLOCKS = _blocks()
RULES = [(line, text) for line, language, text in BLOCKS if language == "rules"]
YAMLS = [(line, text) for line, language, text in BLOCKS if language == "yaml"]


def _first_line(text: str) -> str:
    return text.split("\n", 1)[0].strip()


def _indent(text: str, by: int) -> str:
    return textwrap.indent(text, " " * by, lambda line: bool(line.strip()))


def _wrap(text: str) -> list[str]:
    """The rules texts to parse for a block: itself, or its fragment wrapped into items."""
    match = FRAGMENT.match(_first_line(text))
    if not match:
        return [text]
    kind = match.group(1)
    body = text.split("\n", 1)[1]
    if kind == "statements":
        return ["procedure doc_fragment:\n" + _indent(body, 4)]
    if kind == "expressions":
        lines = [ln.strip() for ln in body.split("\n") if ln.strip() and not ln.strip().startswith("#")]
        assert lines, "an expressions fragment without expressions"
        return [f"define doc_fragment = {ln}\n" for ln in lines]
    if kind == "action":
        return ["decision doc_fragment:\n    action doc_fragment:\n" + _indent(body, 8)]
    if kind == "decision":
        return ["decision doc_fragment:\n" + _indent(body, 4)]
    if kind == "phase":
        return ["phase doc_fragment:\n" + _indent(body, 4)]
    raise AssertionError(f"unknown fragment kind '{kind}' (statements, expressions, action, decision, phase)")


def test_the_reference_has_examples():
    assert len(RULES) >= 30
    assert len(YAMLS) >= 15


@pytest.mark.parametrize("line", [line for line, language, _ in BLOCKS], ids=lambda n: f"format.md:{n}")
def test_every_block_says_its_language(line):
    language = next(lang for n, lang, _ in BLOCKS if n == line)
    assert language in LANGUAGES, f"format.md:{line}: a code block needs one of {LANGUAGES} after its fence"


@pytest.mark.parametrize("line,text", RULES, ids=[f"format.md:{n}" for n, _ in RULES])
def test_rules_example_parses(line, text):
    for source in _wrap(text):
        try:
            parse_rules(source, f"format.md:{line}")
        except Exception as exc:  # a syntax error: show the example with the message
            pytest.fail(f"format.md:{line}: the rules example does not parse:\n{source}\n{exc}")


def _validator(schema: dict) -> Draft202012Validator:
    return Draft202012Validator(schema, registry=schema_registry())


@pytest.mark.parametrize("line,text", YAMLS, ids=[f"format.md:{n}" for n, _ in YAMLS])
def test_yaml_example_follows_the_schema(line, text):
    data = yaml.safe_load(text)
    assert isinstance(data, dict), f"format.md:{line}: a YAML example is a mapping of top-level keys"
    if "extends" in data:
        schema = _schema("variant.schema.json")
    else:
        schema = copy.deepcopy(_schema("game.schema.json"))
        if not FILE.match(_first_line(text)):
            schema.pop("required", None)  # a fragment: only some top-level keys
    errors = sorted(_validator(schema).iter_errors(data), key=lambda e: list(e.path))
    assert not errors, f"format.md:{line}: " + "; ".join(f"{list(e.path)}: {e.message}" for e in errors)


# ---------------------------------------------------------------- the complete example game
def _example_files() -> dict[str, str]:
    files = {}
    for line, language, text in BLOCKS:
        match = FILE.match(_first_line(text))
        if match and language in ("rules", "yaml"):
            name = match.group(1)
            assert name not in files, f"format.md:{line}: a second block for file {name}"
            files[name] = text
    return files


def _example_games(tmp_path: Path) -> list[Path]:
    files = _example_files()
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return [tmp_path / name for name, text in files.items()
            if name.endswith(".yaml") and "extends" not in yaml.safe_load(text)]


def test_there_is_a_complete_example_game(tmp_path):
    assert _example_games(tmp_path), "format.md should show one complete game (`# file:` blocks)"


def test_example_games_load_and_play(tmp_path):
    for path in _example_games(tmp_path):
        game = load_game(str(path))
        assert not game.warnings, [str(w) for w in game.warnings]
        rng = random.Random(7)
        for _ in range(20):
            state = game.initial_state()
            for _ in range(400):
                if game.is_terminal(state):
                    break
                notations = game.legal_notations(state)
                assert notations, f"{path.name}: no legal action in a position that is not over"
                assert len(set(notations)) == len(notations), f"{path.name}: a notation twice: {notations}"
                state = game.apply(state, rng.choice(notations))


def _example_variants(tmp_path: Path) -> list[Path]:
    files = _example_files()
    _example_games(tmp_path)
    return [tmp_path / name for name, text in files.items()
            if name.endswith(".yaml") and "extends" in yaml.safe_load(text)]


def test_the_example_variant_loads_and_plays_as_described(tmp_path):
    """Section 4: misère tic-tac-toe, an overlay that changes single entries."""
    variants = {p.stem: p for p in _example_variants(tmp_path)}
    game = load_game(str(variants["misere"]))
    assert not game.warnings, [str(w) for w in game.warnings]
    state = game.initial_state()
    assert game.to_move(state) == "nought"
    for notation in ("@a1", "@b1", "@a2", "@b2", "@c3"):
        state = game.apply(state, notation)
    assert not game.is_terminal(state)
    state = game.apply(state, "@b3")  # cross completes b1 b2 b3: cross loses
    assert game.result(state).winner == "nought"
    # The phase kept its `if no action`: a full board without a row is a draw.
    state = game.initial_state()
    for notation in ("@b2", "@a1", "@c1", "@a3", "@a2", "@c2", "@b1", "@b3", "@c3"):
        state = game.apply(state, notation)
    assert game.is_terminal(state) and game.result(state).winner is None
    assert game.definition.data["pieces"]["mark"]["symbol"] == "O"


def test_the_example_game_plays_as_described(tmp_path):
    games = {p.stem: p for p in _example_games(tmp_path)}
    game = load_game(str(games["tictactoe"]))
    state = game.initial_state()
    assert game.to_move(state) == "cross"
    assert game.legal_notations(state) == [f"@{f}{r}" for f in "abc" for r in "123"]
    for notation in ("@a1", "@a2", "@b1", "@b2", "@c1"):
        state = game.apply(state, notation)
    assert game.result(state).winner == "cross"
    state = game.initial_state()
    for notation in ("@b2", "@a1", "@c1", "@a3", "@a2", "@c2", "@b1", "@b3", "@c3"):
        assert not game.is_terminal(state)
        state = game.apply(state, notation)
    assert game.is_terminal(state) and game.result(state).winner is None


def test_the_go_example_plays_as_described(tmp_path):
    """Section 3.14: Go on 5 x 5 with a ko point, passes that count, territory and komi."""
    games = {p.stem: p for p in _example_games(tmp_path)}
    game = load_game(str(games["go5"]))
    # Black c1 takes the white stone on b1 from among white stones: white may not
    # take back at once (the ko point is b1), anywhere else it may.
    stones = {"a1": ("black", "stone"), "b2": ("black", "stone"), "b1": ("white", "stone"),
              "d1": ("white", "stone"), "c2": ("white", "stone")}
    state = game.apply(game.make_state(stones, to_move="black"), "c1")
    assert "b1" not in game.legal_notations(state) and "e5" in game.legal_notations(state)
    assert game.variables(state)["ko"] == "b1"
    state = game.apply(state, "pass")
    assert game.variables(state) == {"ko": None, "passes": 1, "moves": 2}
    state = game.apply(state, "pass")
    # Black: a1, b2, c1 and b1, an empty point among black stones only (every other
    # empty region touches white too); White: c2, d1 and 2.5 komi.
    assert game.is_terminal(state) and game.result(state).scores == {"black": 4, "white": 4.5}
    # Black a1 among white stones takes two (b1, c1): no ko, white may play b1 at once.
    stones = {"a2": ("white", "stone"), "b1": ("white", "stone"), "c1": ("white", "stone"),
              "b2": ("black", "stone"), "c2": ("black", "stone"), "d1": ("black", "stone")}
    state = game.apply(game.make_state(stones, to_move="black"), "a1")
    assert game.variables(state)["ko"] is None and "b1" in game.legal_notations(state)


# ---------------------------------------------------------------- nothing is left out
def _code_text() -> str:
    """Everything written as code in the reference: blocks and `inline` spans."""
    text = DOC.read_text(encoding="utf-8")
    spans = re.findall(r"`([^`\n]+)`", text)
    return "\n".join([block for _, _, block in BLOCKS] + spans)


CODE = _code_text()
DOC_TEXT = DOC.read_text(encoding="utf-8")


def _grammar_keywords() -> list[str]:
    literals = set(re.findall(r'"([a-z_]+)"', GRAMMAR.read_text(encoding="utf-8")))
    return sorted(literals)


@pytest.mark.parametrize("keyword", _grammar_keywords())
def test_every_keyword_of_the_grammar_is_documented(keyword):
    assert re.search(rf"\b{keyword}\b", CODE), (
        f"the keyword '{keyword}' of grammar/rules.lark appears in no example of format.md")


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_function_is_documented(name):
    assert f"`{name}(" in DOC_TEXT, f"function {name} is not in the table of functions"


@pytest.mark.parametrize("name", sorted(CONTEXT_NAMES) + ["it"])
def test_every_context_name_is_documented(name):
    assert f"| `{name}` |" in DOC_TEXT, f"the name '{name}' is not in the table of names (3.11)"


@pytest.mark.parametrize("name", [p for p in BUILTIN_PROPERTIES if p != "kind"])
def test_every_builtin_property_is_documented(name):
    assert f"`.{name}`" in DOC_TEXT


@pytest.mark.parametrize("name", list(PIECE_RELATIONS))
def test_every_piece_relation_is_documented(name):
    assert f"`{name}`" in DOC_TEXT


@pytest.mark.parametrize("name", list(boards.DIRECTION_NAMES) + list(boards.ABSOLUTE_SETS) + list(boards.RELATIVE_SETS))
def test_every_direction_name_is_documented(name):
    assert f"`{name}`" in DOC_TEXT


def _all_property_names(node) -> set[str]:
    found = set()
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            found.add(name)
            found |= _all_property_names(sub)
        for key, sub in node.items():
            if key != "properties":
                found |= _all_property_names(sub)
    elif isinstance(node, list):
        for sub in node:
            found |= _all_property_names(sub)
    return found


@pytest.mark.parametrize("name", sorted(_all_property_names(_schema("game.schema.json"))
                                        | _all_property_names(_schema("variant.schema.json"))))
def test_every_yaml_key_is_documented(name):
    assert f"`{name}`" in DOC_TEXT or re.search(rf"^\s*{re.escape(name)}:", CODE, re.M), (
        f"the YAML key '{name}' is not documented")


@pytest.mark.parametrize("name", variants.REPLACEABLE)
def test_every_replaceable_section_is_listed_for_variants(name):
    section = DOC_TEXT.split("## 4. Variants", 1)[1].split("## 5.", 1)[0]
    assert f"`{name}`" in section


@pytest.mark.parametrize("key,notation", sorted(C.DEFAULT_NOTATION.items()))
def test_every_default_notation_is_documented(key, notation):
    assert f"`{notation}`" in DOC_TEXT


@pytest.mark.parametrize(
    "value",
    [
        walks.MAX_WALK_STEPS,
        walks.MAX_WALK_NODES,
        statements.MAX_LOOP,
        variants.MAX_VARIANT_DEPTH,
        f"{rules_parser_module.MAX_RULES_BYTES:,}",
        f"{rules_parser_module.MAX_RULES_LINES:,} lines of rules",
        f"at most {longest.MAX_DEPTH} actions ahead and at {longest.MAX_POSITIONS} positions",
        f"at most {action_values.MAX_ACTION_VALUES} values",
        f"at most {yaml_source.MAX_YAML_VALUES} values (keys, values and list items)",
    ],
    ids=["walk steps", "walk paths", "for each", "variant depth", "rules size", "rules lines", "longest turn",
         "action values", "yaml values"],
)
def test_the_limits_are_those_enforced(value):
    section = DOC_TEXT.split("## 5. Limits and safety", 1)[1].split("## 6.", 1)[0]
    assert str(value) in section, f"the limit {value} is not in section 5"


# ---------------------------------------------------------------- what the reference says happens
# Small games that check statements of format.md on hand-made positions. The section
# of format.md each one checks is named in the test.

GRID_YAML = """\
game: doc
rules: doc.rules
players:
  - {name: white, forward: n}
  - {name: black, forward: s}
board:
  grid: {files: 5, ranks: 5}
pieces:
  man: {symbol: M}
  king: {symbol: K, value: 5}
  rock: {symbol: R, owner: neutral}
variables:
  v: {type: int}
"""


def _game(tmp_path: Path, rules: str, setup: str, yaml_text: str = GRID_YAML):
    setup_yaml = "setup:\n" + textwrap.indent(textwrap.dedent(setup), "  ")
    (tmp_path / "doc.yaml").write_text(yaml_text + setup_yaml, encoding="utf-8")
    (tmp_path / "doc.rules").write_text(textwrap.dedent(rules), encoding="utf-8")
    game = load_game(str(tmp_path / "doc.yaml"))
    return game, game.initial_state()


def _one_action(pattern: str, cases: str = "onto empty: move\nonto enemy: move", forbid: str = "") -> str:
    action = textwrap.indent(pattern + "\n" + cases, " " * 8)
    return forbid + "\nphase play:\n    turn: move\ndecision move:\n    action a by man:\n" + action + "\n"


@pytest.mark.parametrize(
    "pattern,cases,forbid,setup,expected",
    [
        # 3.5 step: sites before A empty; an occupied site is a candidate and stops the way
        ("step e, n distance 2 to 3", None, "",
         "white: {man: [a1]}\nblack: {man: [c1, a4]}\n", ["a1-a3", "a1xa4", "a1xc1"]),
        # 3.5 slide: as far as the way is free
        ("slide e, n", "onto empty: move", "",
         "white: {man: [a1]}\nblack: {man: [d1, a4]}\n", ["a1-a2", "a1-a3", "a1-b1", "a1-c1"]),
        # 3.7 a passing-forbidden site may be landed on, not passed
        ("slide e", "onto empty: move", "forbid passing where site in [b1]",
         "white: {man: [a1]}\nblack: {man: [e5]}\n", ["a1-b1"]),
        # 3.5 leap: over anything; one off-board action per piece
        ("leap n, e distance 3 to 6", "onto empty: move\nonto enemy: move\noff board: remove piece", "",
         "white: {man: [b2]}\nblack: {man: [b3, b5]}\n", ["b2-e2", "b2-off", "b2xb5"]),
        # 3.5 jump: over the first piece met, within the distance, onto an empty site
        ("jump n, e distance 1 to 3", "over enemy: move\nover own: move", "",
         "white: {man: [a1, d1]}\nblack: {man: [a3, e5]}\n", ["a1xa4", "a1xe1"]),
        ("jump n distance 2", "over enemy: move", "", "white: {man: [a1]}\nblack: {man: [a2, a3]}\n", []),
        # 3.5 walk: pieces on the way do not block; each end once
        ("walk 2 steps", "onto empty: move\nonto enemy: move\nonto neutral: move", "",
         "white: {man: [a1]}\nblack: {man: [a2]}\nneutral: {rock: [b1]}\n", ["a1-a3", "a1-b2", "a1-c1"]),
        ("walk 2 steps", "onto empty: move\nonto enemy: move\nonto neutral: move", "forbid passing where site is rock",
         "white: {man: [a1]}\nblack: {man: [a2]}\nneutral: {rock: [b1]}\n", ["a1-a3", "a1-b2"]),
        # 2.6 relative directions for forward: n
        ("step left, forward_diagonal", "onto empty: move", "",
         "white: {man: [c3]}\nblack: {man: [c4]}\n", ["c3-b3", "c3-b4", "c3-d4"]),
        # 3.5 go to: any site of the set but the piece's own
        ("go to [a1, c3, e5]", "onto empty: move\nonto enemy: move", "",
         "white: {man: [a1]}\nblack: {man: [e5]}\n", ["a1-c3", "a1xe5"]),
        # 3.7 forbid landing and capturing
        ("go to sites", "onto enemy: move", "forbid capturing where site in [e5]",
         "white: {man: [a1]}\nblack: {man: [e5, e4]}\n", ["a1xe4"]),
        # 3.5 leap ... via: a piece on the via site blocks the leap (c4: b5 and d5)
        ("leap (1, 2) via (0, 1)", "onto empty: move", "",
         "white: {man: [c3]}\nblack: {man: [c4]}\n", ["c3-a2", "c3-a4", "c3-b1", "c3-d1", "c3-e2", "c3-e4"]),
        # 3.5 slide ... over one piece: beyond the screen, empty sites and the first piece
        ("slide e, n over one piece", None, "",
         "white: {man: [a1]}\nblack: {man: [b1, a3, a5]}\nneutral: {rock: [d1]}\n", ["a1-a4", "a1-c1", "a1xa5"]),
    ],
)
def test_patterns_do_what_the_reference_says(tmp_path, pattern, cases, forbid, setup, expected):
    rules = _one_action(pattern, cases if cases is not None else "onto empty: move\nonto enemy: move", forbid)
    game, state = _game(tmp_path, rules, setup)
    assert game.legal_notations(state) == expected


def test_the_first_of_two_clashing_actions_wins(tmp_path):
    """3.8: two actions with the same template for the same pieces: the first listed is kept."""
    game, state = _game(tmp_path, """
        phase play:
            turn: move
        decision move:
            action a by man:
                step n
                onto empty:
                    move
                    v = 1
            action b by man:
                go to [a2, a3]
                onto empty:
                    move
                    v = 2
        """, "white: {man: [a1]}\nblack: {man: [e5]}\n")
    assert game.legal_notations(state) == ["a1-a2", "a1-a3"]
    assert game.variables(game.apply(state, "a1-a2"))["v"] == 1


def test_an_ending_lets_its_block_finish_and_skips_the_after_rules(tmp_path):
    """3.10 Ending the game; 3.14: scores are computed when the game ends."""
    game, state = _game(tmp_path, """
        score: v
        phase play:
            turn: move
            after each action:
                v += 100
        decision move:
            action a by man:
                step n
                onto empty:
                    v += 1
                    win
                    v += 10
                    move
        """, "white: {man: [a1]}\nblack: {man: [e5]}\n")
    state = game.apply(state, "a1-a2")
    assert game.variables(state)["v"] == 11
    assert game.result(state).winner == "white" and game.result(state).scores == {"white": 1, "black": 1}
    assert [p.site for p in game.pieces(state)] == ["a2", "e5"]


THREE_PLAYERS = """\
game: doc
rules: doc.rules
players: [a, b, c]
board:
  grid: {files: 3, ranks: 1}
pieces:
  man: {symbol: M, value: 3}
"""


@pytest.mark.parametrize(
    "ending,score,winner,scores",
    [
        ("lose", "", None, {"a": 0, "b": 1, "c": 1}),
        ("win", "", "a", {"a": 1, "b": 0, "c": 0}),
        ("draw", "", None, {"a": 0, "b": 0, "c": 0}),
        ("end game", "", None, {"a": 0, "b": 0, "c": 0}),
        ("win", "score: sum(pieces of player, value)", "a", {"a": 3, "b": 6, "c": 0}),
        ("end game", "score: sum(pieces of player, value)", "b", {"a": 3, "b": 6, "c": 0}),
        ("lose b", "", None, {"a": 1, "b": 0, "c": 1}),
    ],
)
def test_results_follow_the_table(tmp_path, ending, score, winner, scores):
    """3.14."""
    game, state = _game(tmp_path, f"""
        {score}
        phase play:
            turn: move
        decision move:
            action x:
                pass
                notation "go"
            after each action:
                {ending}
        """, "a: {man: [a1]}\nb: {man: [b1, c1]}\n", THREE_PLAYERS)
    result = game.result(game.apply(state, "go"))
    assert (result.winner, result.scores) == (winner, scores)


def test_the_turn_sequence(tmp_path):
    """3.15: a follow-up does not use up a place in `turn:`; `start phase` takes
    effect when the turn ends, and a new phase starts with its first player."""
    game, state = _game(tmp_path, """
        phase one:
            turn: move, move
            after each turn:
                v += 1
                if v == 2:
                    start phase two
        phase two:
            order: black, white
            turn: move
        decision move:
            action ahead by man:
                step forward
                onto empty:
                    move
                    then back
        decision back:
            action back by the same piece:
                step backward
                onto empty: move
        """, "white: {man: [a1]}\nblack: {man: [e5]}\n")
    turns = [
        ("one", "white", ["a1-a2", "a2-a1", "a1-a2", "a2-a1"]),  # two moves, each with its follow-up
        ("one", "black", ["e5-e4", "e4-e5", "e5-e4", "e4-e5"]),  # the turn ends: phase two starts
        ("two", "black", ["e5-e4", "e4-e5"]),  # the first of phase two's order, though black played last
        ("two", "white", ["a1-a2", "a2-a1"]),
    ]
    for phase, player, notations in turns:
        for notation in notations:
            assert (game.phase(state), game.to_move(state)) == (phase, player), notation
            state = game.apply(state, notation)
    assert game.to_move(state) == "black"


def test_rotate_and_cycle_move_what_the_reference_says(tmp_path):
    """3.10: clockwise takes a block's north-west corner to its north-east corner;
    `cycle a1, b1` swaps; everything moves at once, empty sites too; a pass
    that rotates (Pentago's quarter turn) is an action of its own."""
    game, state = _game(tmp_path, """
        phase play:
            turn: move
        decision move:
            action t:
                pass:
                    rotate [a1, b1, c1, a2, b2, c2, a3, b3, c3] clockwise
                    cycle d1, e1
                notation "t"
            action u:
                pass: rotate [a1, b1, c1, a2, b2, c2, a3, b3, c3] anticlockwise
                notation "u"
        """, "white: {man: [a3, d1]}\nblack: {king: [c1]}\n")
    assert game.legal_notations(state) == ["t", "u"]
    after = game.apply(state, "t")
    names = game.rules.site_names
    assert {names[s]: p[0] for s, p in enumerate(after.board[:-1]) if p is not None} == {
        "c3": 0, "e1": 0, "a1": 1}
    back = game.apply(after, "u")
    assert {names[s]: p[0] for s, p in enumerate(back.board[:-1]) if p is not None} == {
        "a3": 0, "e1": 0, "c1": 1}


def test_a_prefer_line_naming_a_case_of_every_action(tmp_path):
    """3.4: `prefer: onto enemy` keeps the captures of every action when one is legal."""
    game, state = _game(tmp_path, """
        phase play:
            turn: move
        decision move:
            prefer: onto enemy
            action man_move by man:
                step n
                onto empty: move
                onto enemy: move
            action king_move by king:
                step e
                onto empty: move
                onto enemy: move
        """, "white: {man: [a1], king: [c3]}\nblack: {man: [d3]}\n")
    assert game.legal_notations(state) == ["c3xd3"]


def test_stacks_of_men_and_the_longest_turn(tmp_path):
    """2.14, 3.10, 3.4: a setup height, `move one`, and a turn of two moves whose
    first must leave the second possible (else the higher number)."""
    yaml_text = GRID_YAML.replace("variables:\n  v: {type: int}\n",
                                  "stacks: true\nvariables:\n  v: {type: int}\n  hi: {default: 3}\n"
                                  "  lo: {default: 1}\n  pips: {}\n")
    game, state = _game(tmp_path, """
        phase play:
            turn: move, move
        decision move:
            play the longest turn, then the highest pips
            action run by man for each d in [hi, lo]:
                where d > 0
                step e distance d
                onto empty:
                    move one
                    pips += d
                    if hi == d:
                        hi = 0
                    else:
                        lo = 0
            action stuck:
                pass if no other action
        """, "white:\n  man: [{site: b1, height: 2}]\n", yaml_text)
    # b1-e1 (3) then e1-f1 is off the board, b1-c1 (1) then c1-f1 too: one die
    # only, the higher.
    assert game.legal_notations(state) == ["b1-e1"]
    state = game.apply(state, "b1-e1")
    names = game.rules.site_names
    assert {names[s]: len(p[2]) for s, p in enumerate(state.board[:-1]) if p is not None} == {"b1": 1, "e1": 1}
    assert game.legal_notations(state) == ["b1-c1"]


def test_a_difference_keeps_the_repeats_of_its_left_side(tmp_path):
    """3.12.1: `A - B` keeps A's order and what A holds twice; `A + B` is a set.
    A sowing of 7 round a ring of three from a1 passes b1 c1 a1 b1 c1 a1 b1: without
    a1 it is five sites, b1 three times and c1 twice."""
    game, state = _game(tmp_path, """
        phase play:
            turn: move
        decision move:
            action p:
                pass:
                    v = count(along(ring, a1, 7) - [a1]) * 10 + count(along(ring, a1, 7) + [a1])
                    for each s in along(ring, a1, 7) - [a1]:
                        create man at s
                    win
                notation "p"
        """, "white: {}\n", GRID_YAML + "tracks:\n  ring: {sites: [a1, b1, c1], loop: true}\n")
    after = game.apply(state, "p")
    assert game.variables(after)["v"] == 53


def test_before_each_turn_changes_the_position_before_the_listing(tmp_path):
    """3.3: `before each turn` may change the position before it ends the game (the
    scores count the change); a change that does not end it is one the turn's
    actions see (they are listed again after it)."""
    rules = """
        phase play:
            turn: put
            before each turn:
                if count(pieces) == 1:
                    create man at e5
                    STOP
            if no action:
                draw
        decision put:
            action p:
                drop man on [a1, e5]
                onto empty: place
        score: count(pieces of player)
        """
    for folder in ("ends", "goes_on"):
        (tmp_path / folder).mkdir()
    game, state = _game(tmp_path / "ends", rules.replace("STOP", "end game"), "white: {}\n")
    after = game.apply(state, "@a1")
    assert game.result(after).scores == {"white": 1, "black": 1}
    game, state = _game(tmp_path / "goes_on", rules.replace("STOP", "v = 1"), "white: {}\n")
    after = game.apply(state, "@a1")
    assert game.variables(after)["v"] == 1 and any(p.site == "e5" for p in game.pieces(after))
    # e5 holds the stone just created, a1 white's: nothing left to drop on
    assert game.legal_notations(after) == [] and game.result(after).winner is None


def test_next_turn_given_twice_the_last_counts(tmp_path):
    """3.10: `next turn` given twice before the turn ends: the last one counts."""
    game, state = _game(tmp_path, """
        phase play:
            turn: move
        decision move:
            action p:
                pass:
                    next turn black
                    next turn white
                notation "p"
        """, "white: {}\n")
    after = game.apply(state, "p")
    assert game.to_move(after) == "white"


def test_behind_walks_a_track_backwards(tmp_path):
    """3.12.2: `behind(TRACK, X, N)` is the site N steps before X: round a looping
    track backwards, none before the start of one that does not loop, none for a
    negative N; `behind(T, X, 0)` is X; `ahead` undoes it."""
    game, state = _game(tmp_path, """
        phase play:
            turn: move
        decision move:
            action p:
                pass:
                    for each s in [behind(ring, b1, 1), behind(ring, b1, 2), behind(ring, b1, 7),
                                   behind(line, b1, 1), behind(line, b1, 0)]:
                        create man at s
                    if behind(line, b1, 2) == none and behind(ring, b1, -1) == none and \\
                            ahead(ring, behind(ring, a1, 5), 5) == a1:
                        v = 1
                    win
                notation "p"
        """, "white: {}\n",
        GRID_YAML + "tracks:\n  ring: {sites: [a1, b1, c1], loop: true}\n  line: [a1, b1, c1]\n")
    after = game.apply(state, "p")
    assert sorted(p.site for p in game.pieces(after)) == ["a1", "b1", "c1"]
    assert game.variables(after)["v"] == 1


def _line_move() -> str:
    """The Lines of Action action of format.md 3.5 (a direction named by `for each`)."""
    found = [text for _, language, text in BLOCKS if language == "rules" and "action line_move" in text]
    assert len(found) == 1, "the Lines of Action fragment of format.md 3.5"
    return "phase play:\n    turn: move\ndecision move:\n" + _indent(found[0], 4)


def test_a_named_direction_in_the_distance_and_where(tmp_path):
    """3.5: `action ... for each d in all` with `leap d distance ...` and `d` in the
    distance and the `where`. a1: its file holds a1, a3 (2: a1xa3), its rank a1, b1
    (2: over its own b1 to c1), its diagonal a1, c3 (2: a1xc3). b1: its file holds
    only b1 (b2), its rank 2 (d1), its rising diagonal b1, c2 (2, but d3 is over the
    enemy c2), its falling one only b1 (a2)."""
    game, state = _game(tmp_path, _line_move(), "white: {man: [a1, b1]}\nblack: {man: [a3, c3, c2]}\n")
    assert sorted(game.legal_notations(state)) == ["a1-c1", "a1xa3", "a1xc3", "b1-a2", "b1-b2", "b1-d1"]


def test_the_named_direction_plays_lines_of_action(tmp_path):
    """3.5: the fragment on Lines of Action's board and setup: the perft counts
    OpenSpiel's Lines of Action gives (36, 1244, 44952; no move ends a game this early)."""
    yaml_text = ("game: doc\nrules: doc.rules\nplayers: [{name: black}, {name: white}]\n"
                 "board:\n  grid: {files: 8, ranks: 8}\npieces:\n  checker: {symbol: C}\n")
    setup = ("black: {checker: [b1, c1, d1, e1, f1, g1, b8, c8, d8, e8, f8, g8]}\n"
             "white: {checker: [a2, a3, a4, a5, a6, a7, h2, h3, h4, h5, h6, h7]}\n")
    game, state = _game(tmp_path, _line_move(), setup, yaml_text)
    assert perft(game, state, 3) == [36, 1244, 44952]
