"""The rules are compiled to Python source; no text of a definition may ever become
code. Definitions that try to smuggle code in through every text they can hold
(names, strings, notations, option values, chance outcomes) compile to source that
contains none of it, and the source checker refuses anything the compiler did not
generate."""
import random
import shutil
from pathlib import Path

import pytest

from interpreter import DefinitionError, load_game
from interpreter.compilation.source import Source, UnsafeSource, check_source, compile_source

BASE = Path(__file__).resolve().parents[1] / "broken" / "_base"

# What an attacker would like to see run.
PAYLOAD = "__import__('os').system('echo pwned')"
MARKERS = ("pwned", "system", "__import__", "echo")


def copy_base(tmp_path: Path) -> Path:
    for name in ("game.yaml", "game.rules"):
        shutil.copy(BASE / name, tmp_path / name)
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def play_a_little(game) -> None:
    game.engine.random_playout(game.initial_state(), random.Random(3), 200)


def assert_no_payload(game) -> None:
    source = game.engine.rules.source
    for marker in MARKERS:
        assert marker not in source, marker


@pytest.mark.parametrize("old, new", [
    # a notation is a template of text: quotes and code in it stay text
    ("        onto empty: advance\n    action capture",
     f"        notation \"{{from}}'); {PAYLOAD} #{{to}}\"\n        onto empty: advance\n    action capture"),
    # the notation of one case
    ("        over enemy: take\n",
     f"        over enemy:\n            notation \"{PAYLOAD}{{to}}\"\n            take\n"),
])
def test_strings_in_the_rules_stay_data(tmp_path, old, new):
    path = copy_base(tmp_path)
    edit(path / "game.rules", old, new)
    game = load_game(str(path))
    assert_no_payload(game)
    play_a_little(game)


def test_a_notation_with_code_in_it_is_written_as_text(tmp_path):
    path = copy_base(tmp_path)
    edit(path / "game.rules", "        onto empty: advance\n    action capture",
         f"        notation \"{{from}}'); {PAYLOAD} #{{to}}\"\n        onto empty: advance\n    action capture")
    game = load_game(str(path))
    state = game.initial_state()
    notations = game.legal_notations(state)
    assert f"a2'); {PAYLOAD} #a3" in notations
    state = game.apply(state, f"a2'); {PAYLOAD} #a3")
    assert game.to_move(state) == "black"


def test_option_values_and_chance_outcomes_stay_data(tmp_path):
    path = copy_base(tmp_path)
    edit(path / "game.yaml", "values: [jump, none]", f"values: [jump, none, \"{PAYLOAD}\"]")
    rules = (path / "game.rules").read_text()
    rules = rules.replace("    turn: move\n", "    turn: omen, move\n")
    rules += (f'\nchance omen:\n    outcomes "{PAYLOAD}", "calm" weight 2\n'
              f'    if outcome == "{PAYLOAD}":\n        quiet = 0\n')
    (path / "game.rules").write_text(rules)
    game = load_game(str(path), options={"capture": PAYLOAD})
    assert_no_payload(game)
    state = game.initial_state()
    assert sorted(a.notation for a, _ in game.chance_outcomes(state)) == sorted([f"omen:{PAYLOAD}", "omen:calm"])
    play_a_little(game)


@pytest.mark.parametrize("file, old, new", [
    # names that are Python's own words or builtins are names of the game, nothing more
    ("game.yaml", "  man: {symbol: M", "  exec: {symbol: X, value: 1}\n  man: {symbol: M"),
    ("game.yaml", "  centre: [c3]", "  eval: [c3]\n  centre: [c3]"),
    ("game.yaml", "  quiet:\n", "  __import__:\n    type: int\n    default: 0\n  quiet:\n"),
    ("game.yaml", "  steps:\n", "  lambda:\n    type: int\n    default: 0\n  steps:\n"),
])
def test_python_words_as_names_are_refused_or_stay_names(tmp_path, file, old, new):
    path = copy_base(tmp_path)
    edit(path / file, old, new)
    try:
        game = load_game(str(path))
    except DefinitionError as exc:  # a clear refusal is fine too
        assert "Traceback" not in str(exc)
        return
    source = game.engine.rules.source
    for word in ("exec", "eval", "__import__", "lambda"):
        assert f"{word}(" not in source and f" {word} " not in source.replace("lambda site", "")
    play_a_little(game)


def test_a_graph_board_with_code_for_site_names(tmp_path):
    evil = f"a'); {PAYLOAD}"
    (tmp_path / "game.yaml").write_text(f"""\
game: ring
rules: game.rules
players: [white, black]
board:
  graph:
    sites:
      "{evil}": [0, 0]
      b: [1, 0]
      c: [1, 1]
      d: [0, 1]
    edges:
      - ["{evil}", b, c, d, "{evil}"]
pieces:
  stone: {{symbol: S}}
setup:
  white: {{stone: ["{evil}"]}}
  black: {{stone: [c]}}
""")
    (tmp_path / "game.rules").write_text("""\
phase play:
    turn: move
decision move:
    action go:
        walk 1 steps
        onto empty: move
        onto enemy:
            move
            win
""")
    try:
        game = load_game(str(tmp_path))
    except DefinitionError as exc:  # site names may be refused, with a clear message
        assert "Traceback" not in str(exc) and "site" in str(exc)
        return
    assert_no_payload(game)
    assert f"{evil}-b" in game.legal_notations(game.initial_state())
    play_a_little(game)


@pytest.mark.parametrize("line, why", [
    ("x0 = 'text'", "a literal"),
    ("x0 = b'bytes'", "a literal"),
    ("x0 = 1.5", "number"),
    ("x0 = 1e3", "number"),
    ("x0 = os", "was not generated"),
    ("x0 = __import__", "was not generated"),
    ("x0 = s.__class__", "attribute"),
    ("x0 = k999", "was not generated"),  # a constant name that was never bound
    ("x0 = 1  # a comment", "comment"),
    ("x0 = v @ v", "operator"),
    ("import os", "was not generated"),
    ("from l0 import l1", "name 'from'"),  # l0, l1 are names the compiler makes; 'from' is not written
    ("global l0", "name 'global'"),
    ("class l0: pass", "name 'class'"),
    ("x0 = ｌｅｎ", "was not generated"),  # Python reads full-width letters as 'len'
    ("x0 = l٣", "was not generated"),  # an Arabic-Indic digit
    ("x0 = 1_000", "number"),
    ("x0 = 0x10", "number"),
    ("x0 = 2j", "number"),
])
def test_the_checker_refuses_what_the_compiler_never_writes(line, why):
    with pytest.raises(UnsafeSource, match=why):
        check_source(line + "\n", {})


# Every form of string Python has: from Python 3.12 f-strings are tokens of their own
# (FSTRING_START, FSTRING_MIDDLE, FSTRING_END), which a check refusing only STRING
# tokens let through; the check admits the tokens the compiler writes and no others.
@pytest.mark.parametrize("line", [
    'x0 = f"{len}abc"',
    "x0 = f'{x0}'",
    'x0 = f"{len!r}"',
    'x0 = f"{x0:>{x1}}"',
    'x0 = rf"{len}"',
    'x0 = Fr"{len}"',
    'x0 = f"""{len}\nabc"""',
    "x0 = '''text'''",
    "x0 = u'text'",
    "x0 = rb'bytes'",
    'x0 = "a" "b"',
    'x0 = len(f"{len}")',
    'x0 = "\\N{BULLET}"',
])
def test_every_string_form_is_refused_on_every_python(line):
    with pytest.raises(UnsafeSource):
        check_source(line + "\n", {})


@pytest.mark.parametrize("line", ['return f"{len}abc"', "return f'{b}'", "return rb'x'"])
def test_compile_source_refuses_f_strings_too(line):
    src = Source()
    with src.block("def f0(s):"):
        src.line(line)
    with pytest.raises(UnsafeSource):
        compile_source(src)


def test_what_the_compiler_writes_passes():
    check_source("def f0(s, code):\n    b = s.board  # 12: 3\n    x0 = (-1)\n    for i0 in range(3):\n"
                 "        if x0 is None or not b[i0] and x0 != 2:\n            continue\n"
                 "    return [x1 for x1 in (lambda site: site)(x0) if (x2 := x1)]\n", {})


def test_compile_source_refuses_text_it_did_not_generate():
    src = Source()
    with src.block("def f0(s):"):
        src.line("return 'hello'")
    with pytest.raises(UnsafeSource):
        compile_source(src)


def test_constants_reach_the_source_as_names_only():
    src = Source()
    name = src.const(PAYLOAD)
    with src.block("def f0(s):"):
        src.line(f"return {name}")
    namespace = compile_source(src)
    assert PAYLOAD not in src.text()
    assert namespace["f0"](None) == PAYLOAD
    # builtins are limited to a few harmless ones
    assert set(namespace["__builtins__"]) <= {"len", "range", "any", "all", "sum", "min", "max", "abs", "list",
                                             "tuple", "sorted", "set", "next", "enumerate"}


def test_names_are_generated_from_fixed_prefixes_only():
    src = Source()
    with pytest.raises(UnsafeSource):
        src.fresh("os")
    with pytest.raises(UnsafeSource):
        src.helper("os.system", print)
