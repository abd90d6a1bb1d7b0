"""How people name games on the command line: bundled games, their variants
(`GAME/VARIANT`), folders and files; and the name a loaded game is shown by.

A bundled variant is the file `games/GAME/variants/VARIANT.yaml` of the installed
copy, so `GAME/VARIANT` works wherever regelwerk is installed. A bare bundled
name is the bundled game even when the current folder has a folder of that name
(`./NAME` names that); any other text that exists is taken as a path.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from .. import assets
from ..api import bundled_games
from ..loading.files import read_as_path
from ..validation.files import exists

if TYPE_CHECKING:
    from ..api import Game



class UnknownVariant(ValueError):
    """`GAME/VARIANT` names a bundled game without such a variant."""


def bundled_variants(game: str) -> list[str]:
    """The variants shipped with a bundled game, as `GAME/VARIANT`, sorted."""
    folder = assets.games_dir() / game / "variants"
    if not folder.is_dir():
        return []
    return sorted(f"{game}/{path.stem}" for path in folder.glob("*.yaml"))


def all_names() -> list[str]:
    """Every bundled game and variant (what the shell completes for GAME)."""
    names = []
    for game in bundled_games():
        names.append(game)
        names.extend(bundled_variants(game))
    return names


def resolve_game(text: str) -> str:
    """What `load_game` should read for GAME: the variant file for `GAME/VARIANT`,
    else `text` itself (a bundled name or a path). UnknownVariant when GAME is a
    bundled game that has no such variant."""
    if text is None or exists(text):
        return text
    game, sep, variant = text.partition("/")
    if not sep or "/" in variant or game not in bundled_games():
        return text
    file = assets.games_dir() / game / "variants" / f"{variant}.yaml"
    if file.is_file():
        return str(file)
    known = ", ".join(bundled_variants(game)) or "none"
    raise UnknownVariant(f"{game} has no variant '{variant}' (its variants: {known})")


def display_name(game: Game) -> str:
    """The name a game is shown and recorded by: `GAME/VARIANT` when a variant
    is applied (the last of a chain, by its file name), else the game's name."""
    chain = getattr(game, "definition", None) and game.definition.variant_chain
    if not chain:
        return game.name
    return f"{game.name}/{Path(chain[-1]).stem}"


def is_bundled_variant(game: Game) -> bool:
    """Whether the game's last variant is one shipped with it (then `GAME/VARIANT`
    names it everywhere and no path needs recording)."""
    chain = game.definition.variant_chain
    if not chain:
        return False
    folder = (assets.games_dir() / game.name / "variants").resolve()
    return Path(chain[-1]).resolve().parent == folder


def is_bundled_variant_name(text: Optional[str]) -> bool:
    """Whether `text` is `GAME/VARIANT` of a bundled game and one of its variants."""
    game, sep, _ = (text or "").partition("/")
    return bool(sep) and game in bundled_games() and text in bundled_variants(game)


def source_file(game: Game) -> str:
    """The definition file a game was read from (which copy: checkout or installed)."""
    return str(Path(game.definition.yaml_file).resolve())


def copy_read(text: str, yaml_file: str) -> Optional[str]:
    """Which copy GAME `text` read, for `validate` and `show`: None when `text` was
    read as the path it is; else the file read (a bundled game or variant), and when
    `text` is also a file or folder here, that it was not read and how to name it."""
    if read_as_path(text):
        return None
    note = str(Path(yaml_file).resolve())
    if exists(text):
        note += f" (the bundled game, not the folder here: name that ./{text})"
    return note


def complete_game(prefix: str, **_: Any) -> list[str]:
    """Shell completion of GAME: bundled games and variants, then files and folders."""
    names = [name for name in all_names() if name.startswith(prefix)]
    folder, _sep, start = prefix.rpartition("/")
    base = Path(folder) if folder else Path(".")
    if base.is_dir():
        for path in sorted(base.iterdir()):
            if path.name.startswith(start) and not path.name.startswith("."):
                text = f"{folder}/{path.name}" if folder else path.name
                names.append(text + "/" if path.is_dir() else text)
    return names


def enable_completion(parser: Any) -> None:
    """Answer the shell's completion requests when argcomplete is installed (the
    `completion` extra); without it, or outside a completion request, nothing happens."""
    try:
        import argcomplete
    except ImportError:
        return
    argcomplete.autocomplete(parser)
