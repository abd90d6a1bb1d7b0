"""Shared pytest configuration.

Tests marked ``@pytest.mark.slow`` (the mark is registered in pyproject.toml) are
skipped unless the environment variable ``REGELWERK_SLOW=1`` is set.
"""

from __future__ import annotations

import gc
import os

import pytest


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


def pytest_runtest_teardown(item, nextitem):
    global _finished
    _finished += 1
    if _finished % FREEZE_EVERY == 0:
        gc.collect()
        gc.freeze()
