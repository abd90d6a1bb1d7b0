"""The effective definition of a game after its variants, with where each part came from."""
from __future__ import annotations

import yaml

from ..parsing import ast
from .definition import Definition


def effective_definition(definition: Definition) -> str:
    out = [f"# {definition.data.get('title', definition.name)}: the effective definition"]
    out.append(f"# game: {definition.yaml_file}")
    for variant in definition.variant_chain:
        out.append(f"# variant: {variant}")
    out.append("")
    out.append("# ---------------------------------------------------------------- YAML")
    for key, value in definition.data.items():
        origin = definition.key_origin.get(key, definition.yaml_file)
        out.append(f"# from {origin}")
        out.append(yaml.safe_dump({key: value}, sort_keys=False, allow_unicode=True, width=100).rstrip())
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


def _slice(pos: ast.Pos, sources: dict) -> list[str]:
    lines = sources.get(pos.file, "").split("\n")
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
    parts.append(decision.longest.pos if decision.longest is not None else None)
    return any(pos is not None and pos.file != decision.pos.file for pos in parts)


def _item_text(item, sources: dict, varied: bool = False) -> list[str]:
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
        if item.after_pos is not None:
            lines.append(f"    # {item.after_pos}")
            lines.extend(_slice(item.after_pos, sources))
        return lines
    return [f"# {item.pos}"] + _slice(item.pos, sources)
