"""Finding the files of a game definition and reading them: the YAML (with
positions), the rules files (confined to the definition's folder) and the JSON
Schemas. Both `definition` and `variants` read files through this module."""
from __future__ import annotations

import json
import os
import re
import stat
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from .. import assets
from ..parsing import ast
from ..parsing.parser import MAX_RULES_BYTES, RulesSyntaxError, parse_rules_collecting, rules_parser
from ..validation.diagnostics import DefinitionError, Diagnostic, DiagnosticList, first_hidden_control, suggest
from ..validation.files import FileRefused, is_file, kind_of, mode_of, read_bounded
from ..validation.lark_errors import diagnostic_from_lark
from ..validation.yaml_source import PositionIndex, line_column_of_bytes, line_column_of_offset, load_yaml_file
from .confine import inside, looks_like_definition, not_a_definition


def bundled_games() -> list[str]:
    """The names of the games that come with regelwerk, sorted (for `load_game`)."""
    root = assets.games_dir()
    return sorted(p.name for p in root.iterdir() if p.is_dir() and (p / f"{p.name}.yaml").is_file())


def display_name(path: Path) -> str:
    """A path as people should see it in messages: relative to the working directory when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return rel if not rel.startswith("..") else str(path)


def bundled_file(name: str) -> Optional[Path]:
    """The YAML file of the bundled game `name`, else None. A bare name (no folder
    separator) of a game that comes with regelwerk always names that game, whatever
    the current folder holds, so that a record or a variant naming it reads the same
    game everywhere: a folder of that name is named as a path (`./NAME`)."""
    if "/" in name or "\\" in name or name not in bundled_games():
        return None
    return assets.games_dir() / name / f"{name}.yaml"


def read_as_path(name_or_path: str) -> bool:
    """Whether `resolve` reads `name_or_path` as a file or folder (not a bundled game)."""
    return bundled_file(name_or_path) is None and mode_of(Path(name_or_path)) is not None


def resolve(name_or_path: str) -> Path:
    """The YAML file of a game (or variant) given by bundled name, folder or file
    (a bundled name first: `bundled_file`)."""
    bundled = bundled_file(name_or_path)
    if bundled is not None:
        return bundled
    candidate = Path(name_or_path)
    mode = mode_of(candidate)
    if mode is not None and stat.S_ISREG(mode):
        return candidate
    if mode is not None and stat.S_ISDIR(mode):
        return _confined_game(candidate)
    if mode is not None:  # a FIFO, a device, a socket: never opened
        raise DefinitionError(Diagnostic(
            name_or_path, 1, 1, f"cannot read {name_or_path}: it is {kind_of(mode)}, not a game file or folder"))
    known = bundled_games()
    hint = suggest(name_or_path, known)
    message = f"no game '{name_or_path}': not a bundled game ({', '.join(known)}) nor a file or folder"
    raise DefinitionError(Diagnostic(name_or_path, 1, 1, message, hint=f"did you mean '{hint}'?" if hint else None))


_MAX_LISTED = 8  # YAML files named when a folder holds several and none is the game


def _game_file_in(folder: Path) -> Path:
    for name in (f"{folder.resolve().name}.yaml", "game.yaml"):
        if is_file(folder / name):
            return folder / name
    yamls = sorted(folder.glob("*.yaml"))
    if len(yamls) == 1:
        return yamls[0]
    expected = f"{folder.resolve().name}.yaml"
    if not yamls:
        raise DefinitionError(Diagnostic(
            str(folder), 1, 1, f"no game definition in folder {folder} (expected {expected})"))
    shown = ", ".join(file.name for file in yamls[:_MAX_LISTED])
    more = f" and {len(yamls) - _MAX_LISTED} more" if len(yamls) > _MAX_LISTED else ""
    message = (f"no game definition in folder {folder} (expected {expected} or game.yaml; "
               f"it holds {len(yamls)} YAML files: {shown}{more})")
    hint = f"give one of them by its path, e.g. {folder / yamls[0].name}"
    raise DefinitionError(Diagnostic(str(folder), 1, 1, message, hint=hint))


def _confined_game(folder: Path) -> Path:
    """The game file of `folder` (DefinitionError when it has none, or a link out)."""
    return _confined(_game_file_in(folder), folder)


def _confined(file: Path, folder: Path) -> Path:
    """The game file found in `folder`, which must not be a link leading out of it."""
    if not inside(file, folder):
        message = f"{display_name(file)} is a link that leads outside the folder {folder}: it is not read"
        raise DefinitionError(Diagnostic(str(folder), 1, 1, message))
    return file


SCHEMA_BASE = "https://regelwerk.dev/schemas/"


@lru_cache(maxsize=4)
def _schema(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(assets.schema_path(name).read_text(encoding="utf-8"))
    return schema


@lru_cache(maxsize=1)
def schema_registry() -> Any:
    """The schemas by their $id, so that one can $ref another."""
    from referencing import Registry, Resource

    resources = [(SCHEMA_BASE + n, Resource.from_contents(_schema(n)))
                 for n in ("game.schema.json", "variant.schema.json")]
    return Registry().with_resources(resources)


def read_yaml(path: Path, diags: DiagnosticList, sources: dict[str, Any],
              named_by_file: bool = False) -> tuple[Optional[dict[str, Any]], PositionIndex, str]:
    """The YAML of `path`. A file named by another file (`extends:`) rather than by
    the user is read on only when it is a definition, and quoted only then."""
    name = display_name(path)
    doc = load_yaml_file(path, name)
    if named_by_file and doc.text and not looks_like_definition(doc.text):
        diags.error(name, 1, 1, not_a_definition(name))
        return None, doc.positions, name
    sources[name] = doc.text
    diags.extend(doc.diagnostics)
    if not doc.ok:
        return None, doc.positions, name
    if not isinstance(doc.data, dict):
        diags.error(name, 1, 1, "a game definition is a YAML mapping (game: ..., players: ..., board: ...)")
        return None, doc.positions, name
    return doc.data, doc.positions, name


MAX_RULES_FILES = 32  # schemas: `rules` lists at most this many, each once


def rules_entries(declared: Any) -> list[tuple[tuple[Any, ...], str]]:
    """(YAML path, file) of each rules file `rules:` names: each once, and no more than
    MAX_RULES_FILES — a longer list is a schema error, and must not be read file by
    file meanwhile (a 2 MB list names the same megabyte of rules 600000 times)."""
    if isinstance(declared, str):
        return [(("rules",), declared)]
    if not isinstance(declared, list):
        return []
    entries, seen = [], set()
    for i, rel in enumerate(declared[:MAX_RULES_FILES]):
        if isinstance(rel, str) and rel not in seen:
            seen.add(rel)
            entries.append((("rules", i), rel))
    return entries


def rules_path(folder: Path, rel: str, diags: DiagnosticList, origin: tuple[str, tuple[int, int]]) -> Optional[Path]:
    """The rules file `rel` named in a definition in `folder`; it must lie inside that
    folder, so that a definition from a stranger cannot make us read (and show
    lines of) other files."""
    candidate = (folder / rel).resolve()
    base = folder.resolve()
    if Path(rel).is_absolute() or (candidate != base and base not in candidate.parents):
        file, (line, col) = origin
        diags.error(file, line, col,
                    f"rules file '{rel}' must be inside the definition's folder ({display_name(folder) or '.'})")
        return None
    return folder / rel


def read_rules(path: Path, diags: DiagnosticList, sources: dict[str, Any],
               origin: tuple[str, tuple[int, int]]) -> Optional[ast.RulesFile]:
    name = display_name(path)
    try:
        # At most 4 bytes a character: a longer file cannot be within the parser's limit.
        raw = read_bounded(path, 4 * MAX_RULES_BYTES)
        text = raw.decode("utf-8-sig")  # a byte-order mark is not part of the rules
    except FileRefused as exc:
        reason = f"it has more than {MAX_RULES_BYTES} characters" if exc.too_large else exc.reason
        file, (line, col) = origin
        diags.error(file, line, col, f"cannot read rules file {name}: {reason}")
        return None
    except UnicodeDecodeError as exc:
        # Said where the bad byte is, with the line shown as far as it can be decoded.
        line, col = line_column_of_bytes(raw, exc.start)
        sources[name] = raw.decode("utf-8-sig", "replace")
        diags.error(name, line, col, f"{name} is not valid UTF-8 text (byte 0x{raw[exc.start]:02x})",
                    hint="save the rules file as UTF-8")
        return None
    sources[name] = text
    lone_cr = re.search(r"\r(?!\n)", text)
    if lone_cr is not None:  # (the rules are read line by line: a CR alone ends no line)
        line, col = line_column_of_offset(text, lone_cr.start())
        if "\n" not in text:
            diags.error(name, line, col, "the lines of the rules end with a carriage return (CR) alone, "
                        "an old Mac line end: the file reads as one line",
                        hint="save the rules file with LF (Unix) or CR LF (Windows) line ends")
        else:
            diags.error(name, line, col, "a carriage return (CR) alone in the rules, not at a line end",
                        hint="remove it, or save the file with LF (Unix) or CR LF (Windows) line ends")
        return None
    hidden = first_hidden_control(text)
    if hidden >= 0:  # inside a string the parser would take it: it would reach a terminal
        line, col = line_column_of_offset(text, hidden)
        diags.error(name, line, col, f"control character U+{ord(text[hidden]):04X} in the rules",
                    hint="remove it: rules are plain text")
        return None
    rules, errors = parse_rules_collecting(text, name)
    if rules is not None:
        _check_action_names(rules, diags)
    for error in errors:
        if isinstance(error, RulesSyntaxError):
            diags.add(diagnostic_from_lark(error.lark_error, name, error.text, rules_parser()))
        else:
            diags.error(error.pos.file, error.pos.line, error.pos.column, error.message, hint=error.hint)
    return rules


def _check_action_names(rules: ast.RulesFile, diags: DiagnosticList) -> None:
    """Two actions of one decision with one name: the engine would keep both, a
    variant's `remove action` would drop both and its overlay replace only one."""
    for decision in (item for item in rules.items if isinstance(item, ast.Decision)):
        first: dict[str, ast.Pos] = {}
        for action in decision.actions:
            if action.name in first:
                pos = action.pos
                diags.error(pos.file, pos.line, pos.column,
                            f"decision '{decision.name}' has a second action named '{action.name}' "
                            f"(the first is at line {first[action.name].line})",
                            hint="give each action of a decision its own name")
            first.setdefault(action.name, action.pos)
