"""The effective definition of a game after its variants, with where each part came from."""
from __future__ import annotations

from typing import Any

import yaml

from ..compilation.model import AT_KEY
from ..parsing import ast
from .definition import Definition, locate
from .entries import ENTRY_DEPTH


def effective_definition(definition: Definition) -> str:
    out = [f"# {definition.data.get('title', definition.name)}: the effective definition"]
    out.append(f"# game: {definition.yaml_file}")
    for variant in definition.variant_chain:
        out.append(f"# variant: {variant}")
    out.append("")
    out.append("# ---------------------------------------------------------------- YAML")
    for key, value in definition.data.items():
        out.extend(_section_text(definition, key, value))
    out.append("")
    out.append("# ---------------------------------------------------------------- rules")
    # With variants, a decision may have lost actions (`remove action`): its text in
    # the game's file is no longer what plays, so it is shown action by action.
    varied = bool(definition.variant_chain)
    for rules in definition.rules:
        for item in rules.items:
            out.extend(_item_text(item, definition.sources, varied))
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def _dump(value: dict[str, Any], indent: int) -> list[str]:
    text = yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=100).rstrip()
    return [" " * indent + line for line in text.split("\n")]


def _origin(definition: Definition, path: tuple[Any, ...]) -> str:
    file, line, _ = locate(definition, path + (AT_KEY,))
    return f"{file}:{line}"


def _section_text(definition: Definition, key: str, value: Any) -> list[str]:
    """A top-level section, marked with where it was written; a section whose single
    entries variants changed (`change:`), entry by entry, each marked so."""
    origin = _origin(definition, (key,))
    described = definition.key_origin.get(key, "")
    if described not in definition.positions_by_file and ", " in described:  # "game.yaml, defaults changed by v.yaml"
        origin += ", " + described.split(", ", 1)[1]
    lines = [f"# from {origin}"]
    if not (isinstance(value, dict) and key in ENTRY_DEPTH and definition.origins.under((key,))):
        return lines + _dump({key: value}, 0)
    return lines + [f"{key}:"] + _entries_text(definition, (key,), value, ENTRY_DEPTH[key], 2)


def _entries_text(definition: Definition, path: tuple[Any, ...], entries: dict[str, Any], depth: int,
                  indent: int) -> list[str]:
    lines = []
    for name, value in entries.items():
        at = path + (name,)
        deeper = depth > 1 and isinstance(value, dict) and at not in definition.origins.entries
        if deeper and definition.origins.under(at):
            lines += [" " * indent + f"# from {_origin(definition, at)}", " " * indent + f"{name}:"]
            lines += _entries_text(definition, at, value, depth - 1, indent + 2)
        else:
            lines += [" " * indent + f"# from {_origin(definition, at)}"] + _dump({name: value}, indent)
    return lines


def _slice(pos: ast.Pos, sources: dict[str, Any]) -> list[str]:
    text: str = sources.get(pos.file, "")
    lines = text.split("\n")
    end = pos.end_line if pos.end_line >= pos.line else pos.line
    chunk = lines[pos.line - 1 : end]
    # A block's end position is where the next item begins: stop at the first later
    # line that is no longer indented deeper than the item's first line.
    indent = len(chunk[0]) - len(chunk[0].lstrip()) if chunk else 0
    for i, line in enumerate(chunk[1:], start=1):
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            chunk = chunk[:i]
            break
    while chunk and (not chunk[-1].strip() or chunk[-1].lstrip().startswith("#")):
        chunk.pop()
    return chunk


def _merged(decision: ast.Decision) -> bool:
    """Whether a variant changed part of the decision (an action, `prefer`, `after`)."""
    parts = [a.pos for a in decision.actions] + [pos for pos, _ in decision.prefer] + [decision.after_pos]
    parts.extend(decision.added_pos)
    parts.append(decision.longest.pos if decision.longest is not None else None)
    return any(pos is not None and pos.file != decision.pos.file for pos in parts)


def _phase_changed(phase: ast.Phase) -> bool:
    """Whether a variant changed some entries of the phase (`change phase`)."""
    return bool(phase.added_pos) or any(pos.file != phase.pos.file for pos in phase.entry_pos.values())


def _item_text(item: Any, sources: dict[str, Any], varied: bool = False) -> list[str]:
    if isinstance(item, ast.Phase) and _phase_changed(item):
        # Each entry with its own origin: some come from the game, some from variants.
        lines = [f"# {item.pos}", f"phase {item.name}:"]
        for pos in [*item.entry_pos.values(), *(pos for _, pos in item.added_pos)]:
            lines.append(f"    # {pos}")
            lines.extend(_slice(pos, sources))
        return lines
    if isinstance(item, ast.Decision) and (varied or _merged(item)):
        # A decision a variant may have changed: each action with its own origin.
        lines = [f"# {item.pos}", f"decision {item.name}:"]
        for pos, names in item.prefer:
            lines.append(f"    # {pos}")
            lines.append(f"    prefer: {', '.join(n.id if isinstance(n, ast.Name) else n.text for n in names)}")
        if item.longest is not None:
            lines.append(f"    # {item.longest.pos}")
            lines.extend(_slice(item.longest.pos, sources))
        for action in item.actions:
            lines.append(f"    # {action.pos}")
            lines.extend(_slice(action.pos, sources))
        for pos in [item.after_pos, *item.added_pos] if item.after_pos is not None else item.added_pos:
            lines.append(f"    # {pos}")
            lines.extend(_slice(pos, sources))
        return lines
    return [f"# {item.pos}"] + _slice(item.pos, sources)
