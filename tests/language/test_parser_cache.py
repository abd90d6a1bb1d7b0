"""The rules parser's tables kept in the user's cache (parsing/parser_cache.py): read
back they parse every rules file of the repository to the same tree, positions
included; a changed grammar, a spoilt file, a file others may write are not read;
with nowhere to write, the parser is built as before."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from lark import Lark

from interpreter import assets
from interpreter.parsing import parser, parser_cache
from tests.helpers import REPO


class _Counted(Lark):
    """Lark that counts the parsers built (tables read back are not built)."""
    built = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        type(self).built += 1
        super().__init__(*args, **kwargs)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> type[_Counted]:
    monkeypatch.setattr(parser_cache, "cache_dir", lambda: tmp_path / "cache" / "regelwerk")
    monkeypatch.setattr(_Counted, "built", 0)
    monkeypatch.setattr(parser_cache, "Lark", _Counted)
    return _Counted


def rules_parser() -> Lark:
    return parser_cache.cached_lark(assets.grammar_text(), parser.PARSER_OPTIONS, parser._RulesIndenter)


def kept_files(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache" / "regelwerk").glob("rules-parser-*.json"))


# A small grammar where a test changes the grammar: an LALR one with a postlex-free lexer.
WORDS = 'start: WORD+\n%import common.WORD\n%ignore " "\n'
NUMBERS = 'start: (WORD | INT)+\n%import common.WORD\n%import common.INT\n%ignore " "\n'


def words_parser(grammar: str = WORDS) -> Lark:
    return parser_cache.cached_lark(grammar, {"parser": "lalr"}, lambda: None)


def test_tables_read_back_parse_every_rules_file_alike(counted: type[_Counted], tmp_path: Path) -> None:
    built = rules_parser()
    assert counted.built == 1 and len(kept_files(tmp_path)) == 1
    read = rules_parser()
    assert counted.built == 1, "the second parser is read from the file, not built"
    files = sorted(p for top in ("games", "docs/examples", "benchmarks/games") for p in (REPO / top).rglob("*.rules"))
    assert len(files) > 20
    for path in files:
        text = path.read_text(encoding="utf-8")
        text = text if text.endswith("\n") else text + "\n"
        # the typed trees hold every node's position: the positions are the same too
        trees = [parser._ToAst(str(path)).transform(p.parse(text)) for p in (built, read)]
        assert trees[0] == trees[1], path


def test_syntax_error_of_tables_read_back_is_the_same(counted: type[_Counted]) -> None:
    rules_parser()
    texts = ["decision move:\n    action step:\n        move piece from own to (empty\n",
             "decision move:\n  action a:\n      select empty\n    where\n"]
    for text in texts:
        errors = []
        for _ in range(2):
            with pytest.raises(Exception) as raised:
                rules_parser().parse(text)
            errors.append(str(raised.value))
        assert counted.built == 1
        assert errors[0] == errors[1]


def test_changed_grammar_is_built_not_read(counted: type[_Counted], tmp_path: Path) -> None:
    assert words_parser().parse("a b").children == ["a", "b"]
    with pytest.raises(Exception):
        words_parser().parse("a 1")
    assert counted.built == 1
    assert words_parser(NUMBERS).parse("a 1").children == ["a", "1"]
    assert counted.built == 2 and len(kept_files(tmp_path)) == 2


def test_spoilt_file_is_built_again_and_written_anew(counted: type[_Counted], tmp_path: Path) -> None:
    words_parser()
    [kept] = kept_files(tmp_path)
    whole = kept.read_text()
    for spoilt in (whole[: len(whole) // 2], "[" * 100_000, whole.replace(kept.stem[len("rules-parser-"):], "0" * 32)):
        kept.write_text(spoilt)
        before = counted.built
        assert words_parser().parse("a b").children == ["a", "b"]
        assert counted.built == before + 1
        words_parser()
        assert counted.built == before + 1, "the file written anew is read"


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="file owners and modes are POSIX's")
def test_file_others_may_write_is_not_read(counted: type[_Counted], tmp_path: Path) -> None:
    words_parser()
    [kept] = kept_files(tmp_path)
    kept.chmod(0o666)
    words_parser()
    assert counted.built == 2
    assert kept.stat().st_mode & 0o777 == 0o600, "written anew, by this user alone"


def test_nowhere_to_write(counted: type[_Counted], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("")
    # the cache folder would lie under a file: it cannot be made, whoever runs the test
    monkeypatch.setattr(parser_cache, "cache_dir", lambda: tmp_path / "file" / "cache" / "regelwerk")
    assert words_parser().parse("a b").children == ["a", "b"]
    assert words_parser().parse("a b").children == ["a", "b"]
    assert counted.built == 2
    assert [p.name for p in tmp_path.iterdir()] == ["file"]


def test_files_of_other_grammars_pruned(counted: type[_Counted], tmp_path: Path) -> None:
    grammars = [WORDS + f"// edit {n}\n" for n in range(parser_cache.KEPT_FILES + 3)]
    names = [f"rules-parser-{parser_cache._key(g, {'parser': 'lalr'})}.json" for g in grammars]
    for n, grammar in enumerate(grammars):
        words_parser(grammar)
        # each file older than the next, whatever the clock's resolution
        os.utime(tmp_path / "cache" / "regelwerk" / names[n], (n, n))
    assert sorted(p.name for p in kept_files(tmp_path)) == sorted(names[-parser_cache.KEPT_FILES:])


def test_cache_folder_is_an_absolute_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    folder = parser_cache.cache_dir()
    assert folder is None or folder.is_absolute(), "never a folder wherever the command runs"
    if sys.platform.startswith("linux"):
        monkeypatch.setenv("XDG_CACHE_HOME", "/absolute/cache")
        assert parser_cache.cache_dir() == Path("/absolute/cache/regelwerk")
