"""Shared pytest configuration.

Tests marked ``@pytest.mark.slow`` (the mark is registered in pyproject.toml) are
skipped unless the environment variable ``REGELWERK_SLOW=1`` is set.
"""

from __future__ import annotations

import gc
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Mapping, Optional

import pytest

import interpreter
import interpreter.api as interpreter_api
from interpreter import assets
from interpreter.loading.files import resolve
from interpreter.loading.options import parse_option_value, read_options
from interpreter.validation.diagnostics import DefinitionError

REPO = Path(__file__).resolve().parent.parent


# The run keeps what it caches (the rules parser's tables, parsing/parser_cache.py) in
# a folder of its own, never in the user's: set before any test module is collected
# (some parse rules as they are imported), built once in the run, shared by the
# commands it starts.
_CACHE_BEFORE = os.environ.get("XDG_CACHE_HOME")
_CACHE_FOLDER = tempfile.mkdtemp(prefix="regelwerk-test-cache-")


def pytest_configure(config):
    os.environ["XDG_CACHE_HOME"] = _CACHE_FOLDER


def pytest_unconfigure(config):
    if _CACHE_BEFORE is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = _CACHE_BEFORE
    shutil.rmtree(_CACHE_FOLDER, ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    if os.environ.get("REGELWERK_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow; set REGELWERK_SLOW=1 to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


# The run keeps millions of objects alive (compiled games cached by the modules
# that load them): the collections of the oldest generation walked them all again,
# about a seventh of the run's processor time (tests/runtime: 19.5 of 131 s). Every
# FREEZE_EVERY tests the garbage is collected and what survives is set aside
# (gc.freeze), so later collections walk only what the tests since then made
# (tests/runtime: 125 s, of which 14 s collecting).
FREEZE_EVERY = 20
_finished = 0
# Compiling makes and drops many syntax trees: with the default threshold (700 new
# objects) the youngest generation was collected every few hundred nodes made; a
# game's compilation takes ~15 % less processor time with 20000 (chess and Quoridor
# loaded three times: 1.92-2.23 s -> 1.69-1.73 s; tests/language: 38.9 -> 35.4 s). The older generations, whose
# collections walk more, are collected less often still (what survives is frozen every
# FREEZE_EVERY tests anyway). REGELWERK_TEST_GC=default keeps Python's thresholds.
GC_THRESHOLD = (20_000, 50, 50)
if os.environ.get("REGELWERK_TEST_GC") != "default":
    gc.set_threshold(*GC_THRESHOLD)


def pytest_runtest_teardown(item, nextitem):
    global _finished
    _finished += 1
    if _finished % FREEZE_EVERY == 0:
        gc.collect()
        gc.freeze()


# Compiling a game is most of the run's processor time (the chess example alone is
# loaded about fifty times), so `load_game` keeps the games it compiled from the
# repository's own files, each with the interpreter's parts as they were when it was
# compiled: every module's names and classes. A later request gets a kept game only
# if each of those parts is still the same: a test that switches a compiler pass off
# (monkeypatch) gets a game of its own, compiled anew. Modules imported and names
# bound since do not count (the game was compiled without them: when the first
# definitions imported more of the interpreter, or a module bound a cache, every
# game kept until then was compiled again).
# Functions, classes and modules count by identity, flags and limits (numbers
# and strings) by value; other data does not count: a module's cache rebound as it
# plays (a list, a dict, a tuple) would otherwise change the parts, and every
# later load would compile anew (a whole run 2 minutes slower, nothing failing).
_LOADED: dict = {}
_LOADED_MAX = 96
_KEPT_PER_REQUEST = 4  # with passes switched off and on again
_BY_VALUE = (bool, int, float, str, bytes)
_GONE = object()


def _counts(value: object) -> bool:
    return isinstance(value, _BY_VALUE) or callable(value) or isinstance(value, (type, type(sys)))


def _same_part(now: object, then: object) -> bool:
    """Whether a part is as it was (`then` kept alive with its game: an identity not reused)."""
    if isinstance(then, _BY_VALUE):
        return type(now) is type(then) and (now is then or now == then)
    return now is then


def _interpreter_parts() -> dict:
    """Module name -> (its names' values that count, class name -> its attributes' values that count)."""
    parts = {}
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "interpreter" or name.startswith("interpreter.")):
            continue
        values, classes = {}, {}
        for key, value in list(vars(module).items()):
            if _counts(value):
                values[key] = value
            if isinstance(value, type) and value.__module__ == name:
                attributes = {attribute: inner for attribute, inner in list(vars(value).items()) if _counts(inner)}
                if attributes:
                    classes[key] = attributes
        parts[name] = (values, classes)
    return parts


def _compiled_alike(then: dict) -> bool:
    """Whether every part `then` holds is still the same, asked of the modules themselves
    (a request is answered from a kept game far more often than it compiles one:
    the parts are not gathered for it)."""
    for name, (values, classes) in then.items():
        module = sys.modules.get(name)
        if module is None:
            return False
        now = vars(module)
        if not _entries_alike(values, now):
            return False
        for key, attributes in classes.items():
            kind = now.get(key)
            if not (isinstance(kind, type) and kind.__module__ == name and _entries_alike(attributes, vars(kind))):
                return False
    return True


def _entries_alike(then: dict, now: Mapping) -> bool:
    """Whether each entry `then` holds is still in `now` as it was (a module's names, a class's attributes)."""
    for key, value in then.items():
        current = now.get(key, _GONE)
        if current is not value and not _same_part(current, value):
            return False
    return True


def _in_repository(name: object) -> object:
    """The key a definition's name or path is cached under: the file `load_game` reads
    first (a bundled game's name, its folder and its YAML file are one definition), or
    None (files outside the repository, such as tests' temporary folders, may change
    between loads; what cannot be read, load_game reports)."""
    if name is None:
        return ""
    try:
        resolved = resolve(str(name)).resolve()
    except (DefinitionError, OSError, ValueError):
        return None
    return str(resolved) if any(resolved.is_relative_to(root) for root in _KEPT_ROOTS) else None


# A game is kept under the option values it was compiled with, defaults included
# (the compiler sees only those: tests/games/test_regibus.py asks for the default
# game as {}, {"capture": "top"}, {"travel_min": 3}, ... and compiled it anew each
# time). What a request's values will be is read from the options its definition
# declares, known from any game of the same files compiled before; a request that
# names an unknown option or a bad value is compiled, so that it fails as it would.
_DECLARED: dict = {}


def _effective_options(declared, options) -> Optional[str]:
    values = {name: spec.default for name, spec in declared.items()}
    for name, raw in (options or {}).items():
        if name not in declared:
            return None
        try:
            values[name] = parse_option_value(declared[name], raw)
        except ValueError:
            return None
    return repr(sorted(values.items()))


def _load_game_kept(name_or_path, options=None, variant=None, coverage=False):
    where = _in_repository(name_or_path)
    where_variant = _in_repository(variant)
    if coverage or where is None or where_variant is None:
        return _load_game(name_or_path, options, variant, coverage)
    files = (where, where_variant, os.getcwd())  # a definition names its files relative to the current folder
    declared = _DECLARED.get(files)
    effective = None if declared is None else _effective_options(declared, options)
    key = None if effective is None else files + (effective,)
    kept = _LOADED.pop(key, [])
    found = next((i for i in reversed(range(len(kept))) if _compiled_alike(kept[i][0])), None)
    game = None
    if found is not None:  # (the most recently asked last: a request's games are dropped oldest asked first)
        kept.append(kept.pop(found))
        game = kept[-1][1]
    if game is None:
        game = _load_game(name_or_path, options, variant, coverage)
        _DECLARED[files] = read_options(game.definition.data, _ignore_report)
        compiled_with = files + (repr(sorted(game.model.options.items())),)
        if compiled_with != key:
            if key is not None:
                _LOADED[key] = kept
            key, kept = compiled_with, _LOADED.pop(compiled_with, [])
        kept = kept[1 - _KEPT_PER_REQUEST:] + [(_interpreter_parts(), game)]
        if len(_LOADED) >= _LOADED_MAX:
            del _LOADED[next(iter(_LOADED))]
    _LOADED[key] = kept  # the most recently asked last: the least recently asked goes first
    return game


def _ignore_report(path, message, hint) -> None:
    """The declared options were checked when the game they belong to was compiled."""


# The repository and the installed bundled games (CI installs regelwerk: a bundled
# name is read from site-packages there).
_KEPT_ROOTS = (REPO, assets.games_dir().resolve())
_load_game = interpreter_api.load_game
interpreter_api.load_game = _load_game_kept
interpreter.load_game = _load_game_kept
