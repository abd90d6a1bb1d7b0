"""The rules are compiled to Python syntax trees; no text of a definition may ever
become code. Definitions that try to smuggle code in through every text they can
hold (names, strings, notations, option values, chance outcomes) compile to code
that contains none of it, and the check of the finished tree (source.check_tree)
refuses every kind of node, name, attribute and literal the compiler does not
write."""
import ast
import random
import shutil
from pathlib import Path

import pytest

from interpreter import DefinitionError, load_game
from interpreter.compilation import pyast
from interpreter.compilation.source import MAX_LITERAL, Source, UnsafeSource, check_tree, compile_module

BASE = Path(__file__).resolve().parents[1] / "broken" / "_base"

# What an attacker would like to see run.
# (no space and no '#': a notation or an outcome holding one is refused, as no record
# could hold it; tests/language/test_longest_turn.py)
PAYLOAD = "__import__('os').system('pwned')"
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
    module = game.engine.rules.module
    texts = [node for node in ast.walk(module) if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    assert texts == []  # (every text of a definition is a constant bound by name)
    source = game.engine.rules.source
    for marker in MARKERS:
        assert marker not in source, marker


@pytest.mark.parametrize("old, new", [
    # a notation is a template of text: quotes and code in it stay text
    ("        onto empty: advance\n    action capture",
     f"        notation \"{{from}}');{PAYLOAD};{{to}}\"\n        onto empty: advance\n    action capture"),
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
         f"        notation \"{{from}}');{PAYLOAD};{{to}}\"\n        onto empty: advance\n    action capture")
    game = load_game(str(path))
    state = game.initial_state()
    notations = game.legal_notations(state)
    assert f"a2');{PAYLOAD};a3" in notations
    state = game.apply(state, f"a2');{PAYLOAD};a3")
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


# Statements the compiler never writes, as a stranger (or a compiler bug) might:
# read with Python's own parser here, in the test, to have each kind of node.
@pytest.mark.parametrize("line, why", [
    ("x0 = 'text'", "a literal"),
    ("x0 = b'bytes'", "a literal"),
    ("x0 = f'{s}'", "JoinedStr"),  # an f-string: a tree node of its own on every Python version
    ("x0 = f'{s!r:>{v}}'", "JoinedStr"),
    ("x0 = 1.5", "a literal"),
    ("x0 = 1e3", "a literal"),
    ("x0 = 2j", "a literal"),
    (f"x0 = {MAX_LITERAL + 1}", "a literal"),
    ("x0 = ...", "a literal"),
    ("x0 = os", "was not generated"),
    ("x0 = __import__", "was not generated"),
    ("x0 = eval", "was not generated"),
    ("x0 = s.__class__", "attribute"),
    ("x0 = s.board.__class__.__bases__", "attribute"),
    ("x0 = k999", "was not generated"),  # a constant name that was never bound
    ("x0 = h_system", "was not generated"),  # a helper name that was never bound
    ("import os", "Import"),
    ("from os import system", "ImportFrom"),
    ("x0 = lambda: 0", "Lambda"),
    ("global x0", "Global"),
    ("class x0: pass", "ClassDef"),
    ("x0 = {1: 2}", "Dict"),
    ("x0 = {1, 2}", "Set"),
    ("x0 = [*s]", "Starred"),
    ("del x0", "Delete"),
    ("with s: pass", "With"),
    ("try:\n    pass\nexcept x0:\n    pass", "Try with a handler"),
    ("try:\n    pass\nexcept x0:\n    pass\nfinally:\n    pass", "Try with a handler"),
    ("try:\n    pass\nexcept x0:\n    pass\nelse:\n    pass\nfinally:\n    pass", "Try with a handler"),
    ("raise x0", "Raise"),
    ("x0 = v @ v", "MatMult"),
    ("x0 = v ** v", "Pow"),
    ("x0 = (yield)", "Yield"),
    ("x0 = len(s, key=x1)", "keyword"),
    ("def f0(s, *x1): pass", "more than plain parameters"),
    ("@len\ndef f0(s): pass", "more than plain parameters"),
    ("def os(s): pass", "not generated"),
])
def test_the_check_refuses_what_the_compiler_never_writes(line, why):
    with pytest.raises(UnsafeSource, match=why):
        check_tree(ast.parse(line), {})


def test_the_check_accepts_what_the_compiler_writes():
    namespace = {"k0": (1, 2), "h_sites": print}
    tree = ast.parse("def f0(s, tier=0):\n"
                     "    x0 = k0[s.player] if not -1 <= len(s.board) else h_sites((x1 := -5, None, True))\n"
                     "    for i0, x1 in enumerate(range(3)):\n"
                     "        x0 += [0 for i1 in o if i1 in k0][-1] & x1\n"
                     "    try:\n"
                     "        return x0\n"
                     "    finally:\n"
                     "        s.board[x0] = x1\n")
    check_tree(tree, namespace)


def _function(*body):
    src = Source()
    src.function(src.fresh("f"), ["s"], list(body))
    return src


def test_compile_module_refuses_a_tree_it_did_not_generate():
    with pytest.raises(UnsafeSource, match="a literal"):
        compile_module(_function(pyast.return_(ast.Constant("hello"))))
    fstring = ast.JoinedStr(values=[ast.FormattedValue(value=pyast.name("s"), conversion=-1, format_spec=None)])
    with pytest.raises(UnsafeSource, match="JoinedStr"):
        compile_module(_function(pyast.return_(fstring)))


def test_constants_reach_the_code_as_names_only():
    src = Source()
    name = src.const(PAYLOAD)
    src.function(src.fresh("f"), ["s"], [pyast.return_(name)])
    namespace = compile_module(src)
    assert PAYLOAD not in src.text()
    assert namespace["f0"](None) == PAYLOAD
    # builtins are limited to a few harmless ones
    assert set(namespace["__builtins__"]) <= {"len", "range", "any", "all", "sum", "min", "max", "abs", "list",
                                             "tuple", "sorted", "set", "next", "enumerate", "int"}


def test_names_are_generated_from_fixed_prefixes_only():
    src = Source()
    with pytest.raises(UnsafeSource):
        src.fresh("os")
    with pytest.raises(UnsafeSource):
        src.fresh("h_")
    with pytest.raises(UnsafeSource):
        src.helper("os.system", print)
