"""The rules parser's tables built once per user and grammar, not once per process.

Building the LALR(1) tables of grammar/rules.lark takes about 0.3 s of processor time,
a fixed cost of every command before any game is read. What Lark built is kept as JSON
in the user's cache folder (`~/.cache/regelwerk` on Linux, `$XDG_CACHE_HOME/regelwerk` where set) and
read back in about a sixth of that time:

- the grammar stays the only source: the file's name is the hash of everything the
  tables are built from (the grammar's text, the options, Lark's and Python's versions),
  and the file repeats it, so a changed grammar is read under a new name and a file
  whose contents are not what its name says is not used;
- JSON, not pickle: reading the file runs no code; and a file not owned by the user,
  or writable by others, is not read at all;
- any file that does not read back (cut short, spoilt, too large) is built again and
  written anew; where nothing can be written (no home, a read-only one, a full disk)
  the parser is built in memory, as without the cache. A file is written whole under
  a temporary name and then renamed, so a process never reads one half written.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Optional

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

# What the tables of rules.lark take is ~0.4 MB: a file far larger is not ours.
MAX_CACHE_BYTES = 16_000_000
# Files of grammars no longer in use (a developer's earlier edits, another checkout's
# version) are removed past this many, the oldest first.
KEPT_FILES = 4
PREFIX = "rules-parser-"
# Lark's options that are given again when its tables are read (they are objects or
# change only how trees are built), not kept in the file.
GIVEN_ON_LOAD = ("postlex", "propagate_positions")


def cache_dir() -> Optional[Path]:
    """The folder of the kept tables (the user's cache folder, by platformdirs); None
    where the user has none, or it is no absolute path."""
    from platformdirs import user_cache_path

    try:
        folder = user_cache_path("regelwerk")
    except (RuntimeError, KeyError, OSError):  # no home to be found
        return None
    # (a relative `$XDG_CACHE_HOME` would put it wherever the command runs)
    return folder if folder.is_absolute() else None


def cached_lark(grammar: str, options: dict[str, Any], make_postlex: Callable[[], Any]) -> Lark:
    """`Lark(grammar, postlex=make_postlex(), **options)` (an LALR parser), its tables
    read from the cache when they were built from the same grammar, options and
    versions, else built and kept there."""
    key = _key(grammar, options)
    folder = cache_dir()
    path = folder / f"{PREFIX}{key}.json" if folder is not None else None
    if path is not None:
        kept = _read(path, key)
        if kept is not None:
            try:
                # what Lark's own cache reads its tables with (its public `Lark.load` reads a pickle)
                loaded: Lark = Lark._load_from_dict(  # type: ignore[no-untyped-call]
                    kept["data"], kept["memo"], postlex=make_postlex(),
                    propagate_positions=options.get("propagate_positions", False))
                return loaded
            except Exception:  # a file of the right name and form whose tables do not load: built again
                pass
    parser = Lark(grammar, postlex=make_postlex(), **options)
    if path is not None:
        _write(path, key, parser)
    return parser


def _key(grammar: str, options: dict[str, Any]) -> str:
    described = json.dumps([grammar, sorted((k, repr(v)) for k, v in options.items()),
                            lark.__version__, list(sys.version_info[:2])])
    return hashlib.sha256(described.encode("utf-8")).hexdigest()[:32]


def _read(path: Path, key: str) -> Optional[dict[str, Any]]:
    try:
        with open(path, "rb") as file:
            facts = os.fstat(file.fileno())
            if not _trusted(facts) or facts.st_size > MAX_CACHE_BYTES:
                return None
            text = file.read(MAX_CACHE_BYTES + 1)
        kept = json.loads(text, object_hook=_decoded)
    except Exception:  # missing, unreadable, cut short, spoilt, nested too deeply: built again
        return None
    if not isinstance(kept, dict) or kept.get("key") != key:
        return None
    return kept


def _trusted(facts: os.stat_result) -> bool:
    """A regular file of this user's that nobody else may write."""
    if not stat.S_ISREG(facts.st_mode):
        return False
    if hasattr(os, "geteuid") and (facts.st_uid != os.geteuid() or facts.st_mode & 0o022):
        return False
    return True


def _write(path: Path, key: str, parser: Lark) -> None:
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {name: value for name, value in data["options"].items() if name not in GIVEN_ON_LOAD}
    try:
        text = json.dumps(_encode({"key": key, "data": data, "memo": memo}), separators=(",", ":"))
    except (TypeError, ValueError):  # an option Lark keeps that JSON cannot hold: not kept
        return
    temporary = None
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=PREFIX, suffix=".tmp", dir=path.parent)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
        temporary = None
        _prune(path)
    except OSError:  # nowhere to write: the parser is used without being kept
        pass
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass


def _prune(kept: Path) -> None:
    """Removes the oldest files of other grammars past KEPT_FILES."""
    others = sorted((p for p in kept.parent.glob(f"{PREFIX}*.json") if p != kept),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in others[KEPT_FILES - 1:]:
        old.unlink()


# Lark's tables hold tuples and dictionaries keyed by numbers, which JSON has not:
# each is written as a one-entry object saying which it is.
def _encode(value: Any) -> Any:
    if isinstance(value, dict):
        if all(isinstance(k, str) and k not in ("t", "d") for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {"d": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"t": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"cannot keep a {type(value).__name__}")


def _decoded(obj: dict[str, Any]) -> Any:
    """A JSON object as `_encode` wrote it (json's `object_hook`: its contents are
    decoded already)."""
    if len(obj) == 1:
        if "t" in obj:
            return tuple(obj["t"])
        if "d" in obj:
            return {k: v for k, v in obj["d"]}
    return obj
