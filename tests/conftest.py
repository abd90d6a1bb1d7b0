"""Shared pytest configuration.

Tests marked ``@pytest.mark.slow`` (the mark is registered in pyproject.toml) are
skipped unless the environment variable ``REGELWERK_SLOW=1`` is set.
"""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

import pytest

import interpreter
import interpreter.api as interpreter_api

REPO = Path(__file__).resolve().parent.parent


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
# repository's own files, keyed by what was asked and by a fingerprint of every
# interpreter module's names and classes: a test that switches a compiler pass off
# (monkeypatch) changes the fingerprint and gets a game of its own, compiled anew.
# Functions, classes and modules count by identity, flags and limits (numbers
# and strings) by value; other data does not count: a module's cache rebound as it
# plays (a list, a dict, a tuple) would otherwise change the fingerprint, and every
# later load would compile anew (a whole run 2 minutes slower, nothing failing).
_LOADED: dict = {}
_LOADED_MAX = 96
_BY_VALUE = (bool, int, float, str, bytes)


def _fingerprint_part(value: object) -> object:
    if isinstance(value, _BY_VALUE):
        return (type(value), value)
    if callable(value) or isinstance(value, (type, type(sys))):
        return id(value)
    return None


def _interpreter_fingerprint() -> int:
    parts = []
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "interpreter" or name.startswith("interpreter.")):
            continue
        for key, value in vars(module).items():
            parts.append((key, _fingerprint_part(value)))
            if isinstance(value, type) and value.__module__ == name:
                parts.extend((k, _fingerprint_part(v)) for k, v in vars(value).items())
    return hash(tuple(parts))


def _in_repository(name: object) -> object:
    """The key a definition's name or path is cached under, or None (files outside the
    repository, such as tests' temporary folders, may change between loads)."""
    if name is None:
        return ""
    path = Path(str(name))
    try:
        if path.exists():
            resolved = path.resolve()
            return str(resolved) if resolved.is_relative_to(REPO) else None
    except (OSError, ValueError):  # a name no file can have: load_game says so
        return None
    return ("bundled", str(name)) if str(name) in _BUNDLED else None


def _load_game_kept(name_or_path, options=None, variant=None, coverage=False):
    where = _in_repository(name_or_path)
    where_variant = _in_repository(variant)
    if coverage or where is None or where_variant is None:
        return _load_game(name_or_path, options, variant, coverage)
    key = (where, where_variant, repr(sorted((options or {}).items())), _interpreter_fingerprint())
    game = _LOADED.pop(key, None)
    if game is None:
        game = _load_game(name_or_path, options, variant, coverage)
        if len(_LOADED) >= _LOADED_MAX:
            del _LOADED[next(iter(_LOADED))]
    _LOADED[key] = game  # the most recently asked last: the least recently asked goes first
    return game


_BUNDLED = frozenset(interpreter.bundled_games())
_load_game = interpreter_api.load_game
interpreter_api.load_game = _load_game_kept
interpreter.load_game = _load_game_kept
