"""Which game (and variant) a record's header names, found again safely.

A record says which game it is of: `# game: ID` (the game's identifier) and, for a
game that is not bundled, `# game-path: PATH` (its YAML file, relative to the record's folder or absolute);
`# variant: PATH` for a variant. `play --resume` finds the same game from them, and
every command that reads a record applies its variant.

Records come from strangers too, so a path in a header is followed only to a
definition file (`.yaml`/`.yml` with a top-level `game:` or `extends:`) in the
current folder, the record's folder or the bundled games (below any of them);
anything else is refused without being read, with the command to name the game
instead.
"""
from __future__ import annotations

import shlex
from pathlib import Path
from typing import Optional

from .. import assets
from ..api import Game, bundled_games
from ..loading.confine import inside, looks_like_definition
from ..validation.diagnostics import Diagnostic
from ..validation.files import FileRefused, exists, is_dir, read_bounded
from .names import display_name, is_bundled_variant, is_bundled_variant_name
from .records import STDIN_NAME, Record, RecordError, RecordHeader

DEFINITION_SUFFIXES = (".yaml", ".yml")
_PEEK_BYTES = 2 * 1024 * 1024  # as much as a definition file may have


def header_game_path(game: Game, record_path: Path) -> Optional[str]:
    """What `# game-path:` says for `game` in the record at `record_path`: its YAML
    file relative to the record's folder (so the two may move together), or
    absolute when it lies elsewhere; None for a bundled game, which its identifier
    names."""
    yaml_file = Path(game.definition.yaml_file)
    if inside(yaml_file, assets.games_dir()):
        return None
    return path_for_record(yaml_file, record_path)


def header_identity(game: Game, record_path: Path) -> tuple[str, Optional[str], Optional[str]]:
    """What the record at `record_path` says to find `game` again: `# game:`,
    `# game-path:` and `# variant:`. A bundled variant is `GAME/VARIANT` alone (it
    works on any installation); another variant is named by its file, the last of
    the chain (which leads to the others)."""
    if is_bundled_variant(game):
        return display_name(game), None, None
    chain = game.definition.variant_chain
    variant = path_for_record(Path(chain[-1]), record_path) if chain else None
    return game.name, header_game_path(game, record_path), variant


def path_for_record(file: Path, record_path: Path) -> str:
    """`file` as a header names it: relative to the record's folder when inside it,
    else absolute — a header is read again from other folders."""
    folder = record_path.parent
    if inside(file, folder):
        return file.resolve().relative_to(folder.resolve()).as_posix()
    return str(file.resolve())


def resume_command(header: RecordHeader, record_path: Path) -> str:
    """The command that continues the game saved at `record_path`: GAME is named too
    when `--resume` alone would not find the game (its file is outside the folders
    a record may lead to)."""
    quoted = shlex.quote(str(record_path))
    game_file = Path(header.path) if header.path else None
    if game_file is not None and not game_file.is_absolute():
        game_file = record_path.parent / game_file
    if game_file is None or any(inside(game_file, root) for root in (Path.cwd(), record_path.parent)):
        return f"regelwerk play --resume {quoted}"
    return f"regelwerk play {shlex.quote(str(game_file))} --resume {quoted}"


def picture_command(header: RecordHeader, record_path: Path, picture: str = "board.svg") -> str:
    """The command that draws the position of the game saved at `record_path` as
    a picture (every connection of a graph board drawn)."""
    if header.path:
        game_file = Path(header.path)
        game = str(game_file if game_file.is_absolute() else record_path.parent / game_file)
    else:
        game = header.game or "GAME"
    return f"regelwerk render {shlex.quote(game)} {shlex.quote(str(record_path))} --svg {picture}"


def game_to_resume(record: Record) -> str:
    """The GAME argument that loads the game `record` names (RecordError if none can)."""
    header = record.header
    if header.path:
        return str(_confined(record, header.path, "game-path"))
    if header.game and (header.game in bundled_games() or is_bundled_variant_name(header.game)):
        return header.game
    if header.game and (any(sep in header.game for sep in "/\\") or header.game.endswith(DEFINITION_SUFFIXES)):
        return str(_confined(record, header.game, "game"))  # an older record naming its file
    raise _refusal(record, "game", f"'{header.game}' is not a bundled game and the record has no '# game-path:'")


def header_variant(record: Optional[Record]) -> Optional[str]:
    """The header's variant file, found as `_confined` says; None without one."""
    if record is None or not record.header.variant:
        return None
    return str(_confined(record, record.header.variant, "variant"))


def _confined(record: Record, text: str, key: str) -> Path:
    """The definition file `text` of header line `key`: tried beside the record,
    then from the current folder; refused outside the allowed folders."""
    path = Path(text).expanduser()
    candidates = [path] if path.is_absolute() else [*_beside(record, path), path]
    existing = [c for c in candidates if exists(c)]
    if not existing:
        tried = "beside the record and here" if len(candidates) > 1 else "here"
        raise _refusal(record, key, f"{text} does not exist (tried {tried})")
    found = existing[0]
    if not any(inside(found, root) for root in _allowed_roots(record)):
        raise _refusal(record, key, f"{text} is outside this folder, the record's folder and the bundled games")
    if is_dir(found) or found.suffix.lower() not in DEFINITION_SUFFIXES or not _is_definition(found):
        raise _refusal(record, key, f"{text} is not a game definition file")
    return found


def _beside(record: Record, path: Path) -> list[Path]:
    return [Path(record.source).parent / path] if record.source != STDIN_NAME else []


def _allowed_roots(record: Record) -> list[Path]:
    roots = [Path.cwd(), assets.games_dir()]
    if record.source != STDIN_NAME:
        roots.append(Path(record.source).parent)
    return roots


def _is_definition(path: Path) -> bool:
    try:
        text = read_bounded(path, _PEEK_BYTES).decode("utf-8-sig", "replace")
    except FileRefused:
        return False
    return looks_like_definition(text)


def _refusal(record: Record, key: str, reason: str) -> RecordError:
    """The header line `key` cannot be followed: say why and how to go on."""
    line, column = record.header.positions.get(key, (1, 1))
    hint = f"name the game on the command line: regelwerk play GAME --resume {record.source}" if key != "variant" \
        else "give the variant on the command line: --variant FILE"
    return RecordError(Diagnostic(record.source, line, column, f"the record's {key}: {reason}", hint=hint), record.text)
