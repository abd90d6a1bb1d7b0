"""Shared pytest configuration.

Tests marked ``@pytest.mark.slow`` (the mark is registered in pyproject.toml) are
skipped unless the environment variable ``REGELWERK_SLOW=1`` is set.
"""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config, items):
    if os.environ.get("REGELWERK_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow; set REGELWERK_SLOW=1 to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
