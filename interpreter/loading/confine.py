"""Which files a definition may make us read, and which we may quote.

A definition from a stranger names other files: its rules (`rules:`), the game a
variant changes (`extends:`). Followed blindly, `extends: /etc/passwd` would read
any file and print its lines in the diagnostics. So a definition reaches only
files of its own game folder — the folder of the file, or for a variant kept in
a `variants/` folder the game folder above it — after links are followed, and a
file reached that way is quoted only when it is a definition at all.
"""
from __future__ import annotations

import re
from pathlib import Path

VARIANTS_FOLDER = "variants"
# A definition has one of these keys at the top: a quick test, made on the text
# before anything of it is shown.
_DEFINITION_KEY = re.compile(r"^(game|extends)[ \t]*:", re.MULTILINE)


def inside(path: Path, root: Path) -> bool:
    """Whether `path`, links followed, is `root` or lies under it."""
    try:
        resolved, base = path.resolve(), root.resolve()
    except (OSError, RuntimeError):  # a loop of links
        return False
    return resolved == base or base in resolved.parents


def game_folder(file: Path) -> Path:
    """The folder whose files the definition `file` may name (`file` as given: a
    bare name, from inside a `variants` folder, is in that folder too)."""
    folder = file.absolute().parent
    return folder.parent if folder.name == VARIANTS_FOLDER else folder


def looks_like_definition(text: str) -> bool:
    """Whether `text` has a top-level `game:` or `extends:` key."""
    return _DEFINITION_KEY.search(text.lstrip("\ufeff")) is not None


def not_a_definition(name: str) -> str:
    return f"{name} is not a game definition (no 'game:' or 'extends:' at the top): it is not read further"
