"""Finding the files of a game definition and reading them: the YAML (with
positions), the rules files (confined to the definition's folder) and the JSON
Schemas. Both `definition` and `variants` read files through this module."""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Optional

from .. import assets
from ..parsing import ast as A
from ..parsing.parser import RulesSyntaxError, parse_rules_collecting, rules_parser
from ..validation.diagnostics import DefinitionError, Diagnostic, DiagnosticList, suggest
from ..validation.lark_errors import diagnostic_from_lark
from ..validation.yaml_source import PositionIndex, load_yaml_file


def bundled_games() -> list[str]:
    root = assets.games_dir()
    return sorted(p.name for p in root.iterdir() if p.is_dir() and (p / f"{p.name}.yaml").is_file())


def display_name(path: Path) -> str:
    """A path as people should see it in messages: relative to the working directory when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return rel if not rel.startswith("..") else str(path)


def resolve(name_or_path: str) -> Path:
    """The YAML file of a game (or variant) given by bundled name, folder or file."""
    candidate = Path(name_or_path)
    if candidate.is_file():
        return candidate
    if candidate.is_dir():
        for name in (f"{candidate.resolve().name}.yaml", "game.yaml"):
            if (candidate / name).is_file():
                return candidate / name
        yamls = sorted(candidate.glob("*.yaml"))
        if len(yamls) == 1:
            return yamls[0]
        raise DefinitionError(Diagnostic(str(candidate), 1, 1, f"no game definition in folder {candidate} (expected {candidate.resolve().name}.yaml)"))
    bundled = assets.games_dir() / name_or_path / f"{name_or_path}.yaml"
    if "/" not in name_or_path and bundled.is_file():
        return bundled
    known = bundled_games()
    hint = suggest(name_or_path, known)
    message = f"no game '{name_or_path}': not a bundled game ({', '.join(known)}) nor a file or folder"
    raise DefinitionError(Diagnostic(name_or_path, 1, 1, message, hint=f"did you mean '{hint}'?" if hint else None))


SCHEMA_BASE = "https://regelwerk.dev/schemas/"


@lru_cache(maxsize=4)
def _schema(name: str) -> dict:
    return json.loads(assets.schema_path(name).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def schema_registry():
    """The schemas by their $id, so that one can $ref another."""
    from referencing import Registry, Resource

    resources = [(SCHEMA_BASE + n, Resource.from_contents(_schema(n))) for n in ("game.schema.json", "variant.schema.json")]
    return Registry().with_resources(resources)


def read_yaml(path: Path, diags: DiagnosticList, sources: dict) -> tuple[Optional[dict], PositionIndex, str]:
    name = display_name(path)
    doc = load_yaml_file(path, name)
    sources[name] = doc.text
    diags.extend(doc.diagnostics)
    if not doc.ok:
        return None, doc.positions, name
    if not isinstance(doc.data, dict):
        diags.error(name, 1, 1, "a game definition is a YAML mapping (game: ..., players: ..., board: ...)")
        return None, doc.positions, name
    return doc.data, doc.positions, name


def rules_path(folder: Path, rel: str, diags: DiagnosticList, origin: tuple[str, tuple[int, int]]) -> Optional[Path]:
    """The rules file `rel` named in a definition in `folder`; it must lie inside that
    folder, so that a definition from a stranger cannot make us read (and show
    lines of) other files."""
    candidate = (folder / rel).resolve()
    base = folder.resolve()
    if Path(rel).is_absolute() or (candidate != base and base not in candidate.parents):
        file, (line, col) = origin
        diags.error(file, line, col, f"rules file '{rel}' must be inside the definition's folder ({display_name(folder) or '.'})")
        return None
    return folder / rel


def read_rules(path: Path, diags: DiagnosticList, sources: dict, origin: tuple[str, tuple[int, int]]) -> Optional[A.RulesFile]:
    name = display_name(path)
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark is not part of the rules
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        file, (line, col) = origin
        diags.error(file, line, col, f"cannot read rules file {name}: {reason}")
        return None
    sources[name] = text
    rules, errors = parse_rules_collecting(text, name)
    for exc in errors:
        if isinstance(exc, RulesSyntaxError):
            diags.add(diagnostic_from_lark(exc.lark_error, name, exc.text, rules_parser()))
        else:
            diags.error(exc.pos.file, exc.pos.line, exc.pos.column, exc.message)
    return rules
