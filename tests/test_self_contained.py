"""The repository stands alone: no file names a path outside it (a clone has only
what is in it), so its tests, docs and code must carry what they need."""
from __future__ import annotations

import os
import re
from pathlib import Path

from tests.helpers import REPO

# Made by tools, not part of the repository (hidden files and folders other than .ci:
# caches, and git's own).
SKIPPED = {"build", "dist", "__pycache__"}
SUFFIXES = {".py", ".md", ".yaml", ".rules", ".toml", ".txt", ".lark", ".json", ".cfg", ""}
# Written in pieces so that this file does not match itself.
OUTSIDE = re.compile("|".join([r"/" + "work/", r"\.\./" + "shared", "shared/" + "spec"]))


def made_by_tools(name: str) -> bool:
    return name in SKIPPED or name.endswith(".egg-info") or (name.startswith(".") and name != ".ci")


def text_files():
    for folder, subfolders, files in os.walk(REPO):
        subfolders[:] = sorted(d for d in subfolders if not made_by_tools(d))
        for name in sorted(files):
            path = Path(folder) / name
            if not made_by_tools(name) and path.suffix in SUFFIXES:
                yield path


def test_no_file_names_a_path_outside_the_repository():
    found = []
    for path in text_files():
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_scan_reads_the_repository():
    names = {path.relative_to(REPO).as_posix() for path in text_files()}
    assert {"README.md", "docs/interface.md", "games/lielow/README.md", ".ci/run", "tests/data/perft.md"} <= names
