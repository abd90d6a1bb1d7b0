"""Where the grammar, the schemas and the bundled games are.

In a source checkout they sit at the top of the repository; an installed copy
carries them as the package `regelwerk_assets`.
"""
from __future__ import annotations

import importlib.util
import shlex
import sys
from pathlib import Path

_SOURCE_ROOT = Path(__file__).resolve().parent.parent


def _asset_dir(name: str) -> Path:
    in_checkout = _SOURCE_ROOT / name
    if (in_checkout / ".regelwerk-assets").exists():
        return in_checkout
    spec = importlib.util.find_spec(f"regelwerk_assets.{name}")
    if spec is not None and spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0])
    return in_checkout


def games_dir() -> Path:
    return _asset_dir("games")


def grammar_path() -> Path:
    return _asset_dir("grammar") / "rules.lark"


def grammar_text() -> str:
    return grammar_path().read_text(encoding="utf-8")


def schema_path(name: str) -> Path:
    return _asset_dir("schemas") / name


def install_command(extra: str) -> str:
    """The command that installs the optional `extra` (`analysis`, `cluster`) into
    the environment running now, with its own pip (whatever `pip` is on the PATH):
    from the checkout itself when run from one, else the package by name."""
    python = shlex.quote(sys.executable or "python3")
    if (_SOURCE_ROOT / "pyproject.toml").is_file() and (_SOURCE_ROOT / "games" / ".regelwerk-assets").exists():
        return f"{python} -m pip install -e {shlex.quote(f'{_SOURCE_ROOT}[{extra}]')}"
    return f"{python} -m pip install {shlex.quote(f'regelwerk[{extra}]')}"
