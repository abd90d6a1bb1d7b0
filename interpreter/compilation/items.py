"""The top-level items of the rules files, by kind and name."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..parsing import ast
from .errors import RuleError
from .names import reserved_word


@dataclass
class RuleItems:
    """The top-level items of a rules file, by kind and name."""

    phases: list[ast.Phase]
    decisions: dict[str, ast.Decision]
    chances: dict[str, ast.Chance]
    defines: dict[str, ast.Define]
    procedures: dict[str, ast.Procedure]
    forbids: list[ast.Forbid]
    score: Optional[ast.Score]
    files: list[str] = field(default_factory=list)  # the rules files, for messages about all of them
    # id(forbid line) -> "forbid NAME: passing" for the lines of named blocks (coverage labels)
    forbid_labels: dict[int, str] = field(default_factory=dict)
    # names declared twice (already an error: uses of them are not reported again)
    duplicates: set[str] = field(default_factory=set)


def collect_items(files: list[ast.RulesFile], errors: list[RuleError]) -> RuleItems:
    items = RuleItems([], {}, {}, {}, {}, [], None, [rules.path for rules in files])
    seen: dict[str, ast.Pos] = {}
    for rules in files:
        for item in rules.items:
            if isinstance(item, ast.Forbid):
                items.forbids.append(item)
                continue
            if isinstance(item, ast.Score):
                if items.score is not None:
                    errors.append(RuleError(item.pos, f"a second 'score' (the first is at {items.score.pos})"))
                items.score = item
                continue
            if isinstance(item, ast.Removal):
                errors.append(RuleError(item.pos, "'remove' belongs in a variant's rules, not in a game's"))
                continue
            name = item.name
            if name in seen:
                errors.append(RuleError(item.pos, f"'{name}' is already defined at {seen[name]}"))
                items.duplicates.add(name)
                continue
            problem = _reserved(item)
            if problem:
                errors.append(RuleError(item.pos, problem, "choose another name"))
            seen[name] = item.pos
            if isinstance(item, ast.ForbidGroup):
                items.forbids.extend(item.forbids)
                for line in item.forbids:
                    items.forbid_labels[id(line)] = f"forbid {item.name}: {line.what}"
            if isinstance(item, ast.Phase):
                items.phases.append(item)
            elif isinstance(item, ast.Decision):
                items.decisions[name] = item
            elif isinstance(item, ast.Chance):
                items.chances[name] = item
            elif isinstance(item, ast.Define):
                items.defines[name] = item
            elif isinstance(item, ast.Procedure):
                items.procedures[name] = item
    return items


def _reserved(item: ast.Item) -> str | None:
    """Why the item's name (or a define's parameter) cannot be used, if so."""
    if isinstance(item, ast.Procedure):
        for param in item.params:
            if reserved_word(param.id):
                return reserved_word(param.id)
        return reserved_word(item.name, statement=True)
    if isinstance(item, ast.Define):
        for name in [item.name] + [p.id for p in item.params]:
            if reserved_word(name):
                return reserved_word(name)
    return None
