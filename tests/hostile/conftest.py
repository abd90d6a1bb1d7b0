"""Helpers of the hostile-input tests: the CLI run in-process, a copy of the small
base game of tests/broken/ to spoil."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.frontends import cli

BASE = Path(__file__).resolve().parent.parent / "broken" / "_base"


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


class GameCopy:
    """A copy of the base game in a temporary folder, to spoil one line at a time."""

    def __init__(self, folder: Path) -> None:
        self.path = folder
        shutil.copytree(BASE, folder)

    def edit(self, file: str, old: str, new: str) -> "GameCopy":
        path = self.path / file
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {file}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        return self

    def __str__(self) -> str:
        return str(self.path)


@pytest.fixture
def base_game(tmp_path) -> GameCopy:
    return GameCopy(tmp_path / "fivefold")


def assert_clean(code: int, err: str, status: int = 1) -> None:
    """One clear message: the expected status, no traceback, no internal error."""
    assert code == status, err
    assert "Traceback" not in err and "internal error" not in err, err
