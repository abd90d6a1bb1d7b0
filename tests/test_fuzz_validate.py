"""Fuzzing the checks: mangled copies of the bundled definitions must load or be
rejected with located diagnostics — never any other exception.

Each example copies a bundled game folder (or one with a variant) to a temporary
folder, applies a few of the mistakes people make while editing (lines deleted,
duplicated, swapped or re-indented; characters or tokens deleted or inserted;
names misspelt or swapped; numbers changed) to its YAML or its rules, and loads it.

This test is bounded (a fixed number of derandomized examples). For a long campaign
run `python -m tests.fuzz_campaign --cases 50000`, which uses the same mutations.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.api import RuleRuntimeError, load_game
from interpreter.validation.diagnostics import DefinitionError, split_source_lines
from tests.helpers import REPO

# The definitions mutated: the bundled games and the documented examples.
DEFINITION_ROOTS = (REPO / "games", REPO / "docs" / "examples")

Choose = Callable[[int], int]  # choose(n) -> a number in range(n)

# Characters and tokens people mistype or leave behind.
CHARACTERS = list(":;,.-#\"'()[]{}=<>!+*/\\|&%@`~?\t \n0a_Zé\u00a0\u200b")
TOKENS = [
    "if", "else", "elif", "for", "each", "in", "not", "and", "or", "is", "move", "place", "remove",
    "onto", "over", "off", "board", "empty", "enemy", "own", "neutral", "where", "by", "from", "to",
    "step", "slide", "leap", "jump", "walk", "go", "drop", "select", "pass", "distance", "any",
    "piece", "target", "jumped", "player", "opponent", "players", "sites", "none", "true", "false",
    "phase", "decision", "action", "chance", "define", "procedure", "score", "forbid", "turn", "order",
    "after", "then", "notation", "win", "lose", "draw", "end", "game", "start", "next", "let", "give",
    "promote", "stack", "under", "release", "count", "exists", "all", "max", "min", "unique_max", "first",
    "==", "!=", "<=", "+=", "-=", "=", "//", "(", ")", "[", "]", ",", ":", "\"x\"", "0", "-1", "999999",
    "null", "~", "&a", "*a", "!!str", "- x", "{}", "[]", "? ", "---", "|", ">-",
]
NUMBERS = ["0", "1", "-1", "2", "26", "27", "100", "99999", "1000000000", "123456789012345678901234567890",
           "1.5", "0x10"]
INDENTS = [-8, -4, -2, -1, 1, 2, 4, 8]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def delete_line(text: str, choose: Choose) -> str:
    lines = _lines(text)
    del lines[choose(len(lines))]
    return "\n".join(lines)


def duplicate_line(text: str, choose: Choose) -> str:
    lines = _lines(text)
    i = choose(len(lines))
    lines.insert(i, lines[i])
    return "\n".join(lines)


def swap_lines(text: str, choose: Choose) -> str:
    lines = _lines(text)
    if len(lines) < 2:
        return text
    i = choose(len(lines) - 1)
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return "\n".join(lines)


def reindent_line(text: str, choose: Choose) -> str:
    lines = _lines(text)
    i = choose(len(lines))
    line = lines[i]
    option = choose(len(INDENTS) + 1)
    if option == len(INDENTS):
        lines[i] = "\t" + line.lstrip(" ")
    else:
        delta = INDENTS[option]
        width = len(line) - len(line.lstrip(" "))
        lines[i] = " " * max(0, width + delta) + line.lstrip(" ")
    return "\n".join(lines)


def delete_characters(text: str, choose: Choose) -> str:
    if not text:
        return text
    at = choose(len(text))
    return text[:at] + text[at + 1 + choose(3):]


def insert_character(text: str, choose: Choose) -> str:
    at = choose(len(text) + 1)
    return text[:at] + CHARACTERS[choose(len(CHARACTERS))] + text[at:]


def insert_token(text: str, choose: Choose) -> str:
    at = choose(len(text) + 1)
    return text[:at] + " " + TOKENS[choose(len(TOKENS))] + " " + text[at:]


def _names(text: str) -> list[re.Match]:
    return list(re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", text))


def misspell_name(text: str, choose: Choose) -> str:
    names = _names(text)
    if not names:
        return text
    match = names[choose(len(names))]
    name = match.group()
    i = choose(len(name))
    how = choose(4)
    if how == 0 and len(name) > 1:
        new = name[:i] + name[i + 1:]  # a letter dropped
    elif how == 1:
        new = name[:i] + name[i] + name[i:]  # a letter doubled
    elif how == 2 and i + 1 < len(name):
        new = name[:i] + name[i + 1] + name[i] + name[i + 2:]  # two letters swapped
    else:
        new = name + "s"  # a plural
    return text[: match.start()] + new + text[match.end():]


def swap_names(text: str, choose: Choose) -> str:
    names = _names(text)
    if len(names) < 2:
        return text
    a = names[choose(len(names))]
    b = names[choose(len(names))]
    return text[: a.start()] + b.group() + text[a.end():]


# Expressions of every type, to put where a name stood: the result often parses and
# then has to be rejected (or accepted) by the type checks.
EXPRESSIONS = [
    "piece", "target", "to", "from", "jumped", "player", "opponent", "players", "sites", "none", "true",
    "0", "-1", '"x"', "[a1]", "pieces of player", "count(sites)", "piece.height", "piece.value", "outcome",
    "site", "it", "neighbours(to)", "unique_max(sites, value)", "piece is king", "to in sites", "1 // 0",
    "first(sites)", "max(1, 2)", "players[0]", "sites - [to]", "(to if true else none)", "abs(-3)",
]


def replace_name_with_expression(text: str, choose: Choose) -> str:
    names = _names(text)
    if not names:
        return text
    match = names[choose(len(names))]
    return text[: match.start()] + EXPRESSIONS[choose(len(EXPRESSIONS))] + text[match.end():]


def change_number(text: str, choose: Choose) -> str:
    numbers = list(re.finditer(r"\d+", text))
    if not numbers:
        return text
    match = numbers[choose(len(numbers))]
    return text[: match.start()] + NUMBERS[choose(len(NUMBERS))] + text[match.end():]


def truncate(text: str, choose: Choose) -> str:
    return text[: choose(len(text) + 1)]


def repeat_token(text: str, choose: Choose) -> str:
    """Something repeated many times: deep nesting, long chains, long lines."""
    at = choose(len(text) + 1)
    piece = ["not ", "-", "(", "[", "quiet + ", "a1, ", "    ", "{", "- "][choose(9)]
    return text[:at] + piece * (1 + choose(600)) + text[at:]


def change_line_endings(text: str, choose: Choose) -> str:
    how = choose(3)
    if how == 0:
        return "\ufeff" + text  # a byte-order mark, as some editors write
    if how == 1:
        return text.replace("\n", "\r\n")
    return text.replace("\n", " \t\n")  # trailing white space everywhere


MUTATIONS = [
    delete_line, duplicate_line, swap_lines, reindent_line, delete_characters, insert_character,
    insert_token, misspell_name, swap_names, replace_name_with_expression, change_number, truncate,
    repeat_token, change_line_endings,
]


def targets() -> list[tuple[str, str, str]]:
    """(game folder relative to the repository, file to mutate, what to load: '.' or
    a variant path), all relative."""
    found = []
    folders = sorted(p for root in DEFINITION_ROOTS for p in root.iterdir() if p.is_dir())
    for folder in folders:
        files = sorted(str(f.relative_to(folder)) for f in folder.rglob("*") if f.suffix in (".yaml", ".rules"))
        variants = [f for f in files if f.startswith("variants/") and f.endswith(".yaml")]
        for file in files:
            if file.startswith("variants/"):
                for variant in variants:
                    if file == variant or file == variant[: -len(".yaml")] + ".rules":
                        found.append((str(folder.relative_to(REPO)), file, variant))
            else:
                found.append((str(folder.relative_to(REPO)), file, "."))
    return found


def mutate(text: str, choose: Choose, count: int) -> str:
    for _ in range(count):
        text = MUTATIONS[choose(len(MUTATIONS))](text, choose)
    return text


def check_loading(root: Path, load: str) -> str:
    """Load `load` (relative to `root`); 'ok' or 'rejected', or raise AssertionError
    when a diagnostic is not located in a file that was read."""
    path = str(root / load)
    try:
        game = load_game(path)
    except DefinitionError as exc:
        assert exc.diagnostics, "DefinitionError without diagnostics"
        text = str(exc)  # formatting with the source lines must work too
        assert text
        for diagnostic in exc.diagnostics:
            assert diagnostic.line >= 1 and diagnostic.column >= 1, diagnostic.headline
            if diagnostic.file in exc.sources:
                lines = split_source_lines(exc.sources[diagnostic.file])
                assert diagnostic.line <= len(lines), f"{diagnostic.headline}: past the end of the file"
                assert diagnostic.column <= len(lines[diagnostic.line - 1]) + 1, (
                    f"{diagnostic.headline}: past the end of the line")
            else:
                assert Path(diagnostic.file).exists() or diagnostic.file == path, f"{diagnostic.headline}: no such file"
        return "rejected"
    try:
        game.legal_actions(game.initial_state())
    except RuleRuntimeError:
        return "runtime error"  # a located error of the rules while playing: allowed
    return "ok"


def run_case(game: str, file: str, load: str, mutated: str, workdir: Path) -> str:
    """Copy `game` into `workdir`, replace `file` with `mutated`, check loading."""
    target = workdir / Path(game).name
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(REPO / game, target)
    (target / file).write_text(mutated, encoding="utf-8")
    return check_loading(target, load)


TARGETS = targets()
# 60 mangled definitions in the normal run (8 s of processor time, half of them
# load and compile a whole game; 100 took 27 s, three quarters of it compiling
# mangled chess files that still loaded), 400 with REGELWERK_SLOW=1; the long
# campaign is tests/fuzz_campaign.py. (Hypothesis draws another sample for
# another count: these 60 are not the first 60 of the 100.)
EXAMPLES = 400 if os.environ.get("REGELWERK_SLOW") == "1" else 60


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_mangled_definitions_are_loaded_or_rejected_with_located_diagnostics(data):
    game, file, load = data.draw(st.sampled_from(TARGETS), label="target")
    text = (REPO / game / file).read_text(encoding="utf-8")

    def choose(n: int) -> int:
        return data.draw(st.integers(0, max(0, n - 1)))

    count = data.draw(st.integers(1, 3), label="mutations")
    mutated = mutate(text, choose, count)
    with tempfile.TemporaryDirectory() as tmp:
        run_case(game, file, load, mutated, Path(tmp))


def test_the_targets_cover_yaml_rules_and_variants():
    kinds = {(file.endswith(".yaml"), load != ".") for _, file, load in TARGETS}
    assert (True, False) in kinds and (False, False) in kinds and (True, True) in kinds
