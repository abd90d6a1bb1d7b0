"""The top-level items of the rules files, by kind and name."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Collection, Optional

from ..parsing import ast
from ..parsing.visit import nodes_of
from ..spelling import suggest
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
    # the second items of those names, rejected: what they use is not warned about as unused
    rejected: list[ast.Item] = field(default_factory=list)
    # the copies of procedures and defines made for piece kinds given as arguments: name -> the original's
    specialised: dict[str, str] = field(default_factory=dict)


MAX_KIND_COPIES = 256  # copies of procedures made for the kinds given them, in all


def kind_copy_name(name: str, args: list[ast.Expr], kinds: Collection[str]) -> Optional[str]:
    """The name of the copy of procedure or define `name` made for the piece kinds
    among the arguments of a call (`put(queen, _)`), None when no argument is a kind."""
    given = [arg.id if isinstance(arg, ast.Name) and arg.id in kinds else "_" for arg in args]
    return f"{name}({', '.join(given)})" if any(word != "_" for word in given) else None


def specialise_kind_arguments(items: RuleItems, kinds: Collection[str]) -> list[RuleError]:
    """A piece kind given as a procedure's or a define's argument (`put(queen, to)`,
    `enemy_is(s, cannon)`, format.md 3.13) is that kind in the block or expression, as
    in a copy written out with it: for each call giving kinds, a copy of the procedure
    or define with the kind written where its parameter stands (after `is`, `create`,
    `promote ... to`, and as an argument passed on), kept with the procedures and
    defines — so that every analysis reading the rules (which kinds are made, the work
    estimate, ...) reads the kinds the copy names. The call itself keeps its spelling:
    the compiler uses the copy named by `kind_copy_name`."""
    errors: list[RuleError] = []
    waiting: list[object] = [items.phases, list(items.decisions.values()), list(items.chances.values()),
                             list(items.procedures.values()), list(items.defines.values()), items.forbids,
                             items.score]
    while waiting:
        for node in nodes_of(waiting.pop()):
            original: ast.Procedure | ast.Define
            if isinstance(node, ast.CallStmt) and node.procedure in items.procedures:
                name, args, original = node.procedure, node.args, items.procedures[node.procedure]
                params = original.params
            elif isinstance(node, ast.Call) and node.fn in items.defines:
                name, args, original = node.fn, node.args, items.defines[node.fn]
                params = original.params
            else:
                continue
            copy_name = kind_copy_name(name, args, kinds)
            if copy_name is None or copy_name in items.specialised or len(args) != len(params):
                continue
            if len(items.specialised) >= MAX_KIND_COPIES:
                errors.append(RuleError(node.pos, f"more than {MAX_KIND_COPIES} copies of procedures and defines "
                                                  "for the kinds given them as arguments"))
                return errors
            given = {param.id: arg.id for param, arg in zip(params, args)
                     if isinstance(arg, ast.Name) and arg.id in kinds}
            made = copy.deepcopy(original)
            made.name = copy_name
            made.params = [param for param in made.params if param.id not in given]
            for inner in nodes_of(made):
                if isinstance(inner, ast.Name) and inner.id in given:
                    inner.id = given[inner.id]
                elif isinstance(inner, ast.Is) and inner.what in given:
                    inner.what = given[inner.what]
                elif isinstance(inner, (ast.CreateStmt, ast.PromoteStmt)) and inner.kind in given:
                    inner.kind = given[inner.kind]
            if isinstance(made, ast.Procedure):
                items.procedures[copy_name] = made
            else:
                items.defines[copy_name] = made
            items.specialised[copy_name] = name
            waiting.append(made)
    return errors


def collect_items(files: list[ast.RulesFile], errors: list[RuleError]) -> RuleItems:
    items = RuleItems([], {}, {}, {}, {}, [], None, [rules.path for rules in files])
    seen: dict[str, ast.Pos] = {}
    first: dict[str, Any] = {}  # the item that took each name
    start: Optional[ast.StartPhase] = None
    for rules in files:
        for item in rules.items:
            if isinstance(item, ast.StartPhase):
                if start is not None:
                    errors.append(RuleError(item.pos, f"a second 'start phase' (the first is at {start.pos})"))
                start = item
                continue
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
                errors.append(RuleError(item.pos, f"'{name}' is already defined at {seen[name]}",
                                        f"that is {_kind_of(first[name])}, this {_kind_of(item)}: phases, decisions, "
                                        "chance events, procedures, defines and forbid groups each need a name of "
                                        "their own"))
                items.duplicates.add(name)
                items.rejected.append(item)
                continue
            problem = _reserved(item)
            if problem:
                errors.append(RuleError(item.pos, problem, "choose another name"))
            seen[name] = item.pos
            first[name] = item
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
    if start is not None:
        _start_first(items, start, errors)
    return items


def _kind_of(item: Any) -> str:
    """`a phase`, `a procedure`, ...: what a rules file item is, for a message."""
    kinds = ((ast.Phase, "a phase"), (ast.Decision, "a decision"), (ast.Chance, "a chance event"),
             (ast.Define, "a define"), (ast.Procedure, "a procedure"), (ast.ForbidGroup, "a forbid group"))
    return next((word for cls, word in kinds if isinstance(item, cls)), "an item")


def _start_first(items: RuleItems, start: ast.StartPhase, errors: list[RuleError]) -> None:
    """`start phase: NAME`: that phase first among the phases (the game starts in the first)."""
    names = [phase.name for phase in items.phases]
    if start.phase not in names:
        best = suggest(start.phase, names)
        hint = f"did you mean '{best}'?" if best else f"the phases: {', '.join(names) or 'none'}"
        errors.append(RuleError(start.phase_pos, f"'start phase' names no phase '{start.phase}'", hint))
        return
    items.phases.insert(0, items.phases.pop(names.index(start.phase)))


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
