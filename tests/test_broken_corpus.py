"""The corpus of broken definitions under tests/broken/: each folder is one small,
realistic mistake. `expected.txt` holds the exact first diagnostic an author should
see, `FILE:LINE:COLUMN: severity: message`, with FILE relative to the case folder
(`--option` for a bad command-line option). `args.txt`, when present, holds the
arguments of `regelwerk validate` (default: `.`), run from inside the folder.

Every case must: print that line first, exit with status 1 (0 when the first
diagnostic is only a warning), print no traceback or internal error, and locate
every diagnostic at a real line and column of a real file.
"""
from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from interpreter.api import CheckedGame, load_game
from interpreter.frontends.cli import main
from interpreter.loading.definition import load_definition
from interpreter.validation.diagnostics import DefinitionError, split_source_lines

CORPUS = Path(__file__).resolve().parent / "broken"
CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir() and not p.name.startswith("_"))


def _args(case: Path) -> list[str]:
    file = case / "args.txt"
    return shlex.split(file.read_text(encoding="utf-8")) if file.exists() else ["."]


def _load_arguments(args: list[str]) -> tuple[str, dict, str | None]:
    """The (path, options, variant) that `validate ARGS` loads."""
    path, options, variant = args[0], {}, None
    rest = args[1:]
    while rest:
        flag, value, *rest = rest
        if flag == "--option":
            name, _, raw = value.partition("=")
            options[name] = raw
        elif flag == "--variant":
            variant = value
        else:
            raise AssertionError(f"unsupported argument {flag} in args.txt")
    return path, options, variant


def test_the_corpus_is_large_enough():
    assert len(CASES) >= 45


def test_the_base_game_is_valid(monkeypatch, capsys):
    monkeypatch.chdir(CORPUS / "_base")
    assert main(["validate", "."]) == 0
    assert "warning" not in capsys.readouterr().err


@pytest.mark.parametrize("name", CASES)
def test_broken_definition(name, monkeypatch, capsys):
    case = CORPUS / name
    expected = (case / "expected.txt").read_text(encoding="utf-8").strip()
    args = _args(case)
    monkeypatch.chdir(case)
    monkeypatch.delenv("REGELWERK_DEBUG", raising=False)

    status = main(["validate", *args])
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, err
    assert err.splitlines()[0] == expected, err
    warning_only = ": warning: " in expected
    assert status == (0 if warning_only else 1), err

    # The same through the API: every diagnostic at a real place of a real file.
    path, options, variant = _load_arguments(args)
    if warning_only:
        diagnostics = load_game(path, options, variant).warnings
        sources = {}
        for diagnostic in diagnostics:
            sources[diagnostic.file] = (case / diagnostic.file).read_text(encoding="utf-8")
    else:
        with pytest.raises(DefinitionError) as info:
            load_game(path, options, variant)
        diagnostics, sources = info.value.diagnostics, info.value.sources
    assert diagnostics
    # Every problem of the compiling is found before the code is written: checking
    # alone finds the same (those of reading the files come before either).
    try:
        definition = load_definition(path, variant)
    except DefinitionError as unread:
        assert unread.diagnostics == diagnostics
    else:
        if warning_only:
            assert CheckedGame(definition, options).warnings == diagnostics
        else:
            with pytest.raises(DefinitionError) as checked:
                CheckedGame(definition, options)
            assert checked.value.diagnostics == diagnostics
    for diagnostic in diagnostics:
        if diagnostic.file == "--option":
            continue
        assert diagnostic.file in sources, f"{diagnostic.headline}: not a file that was read"
        lines = split_source_lines(sources[diagnostic.file])
        assert 1 <= diagnostic.line <= len(lines), diagnostic.headline
        assert 1 <= diagnostic.column <= len(lines[diagnostic.line - 1]) + 1, diagnostic.headline
