"""Static checks beyond compiling: parts of a definition that can never matter.

Compiling already rejects what is wrong (unknown names, type errors). What is
left here are warnings about what is merely useless, which is usually a
mistake in the making: a region nobody uses, a decision no turn reaches, an
action for a kind of piece that can never be on the board.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Collection

from ..compilation.board import backward_span, line_indices
from ..compilation.expressions import FUNCTIONS
from ..compilation.model import AT_KEY
from ..loading.option_numbers import possible_values
from ..loading.options import board_size_numbers
from ..parsing import ast
from ..parsing.visit import nodes_of
from .diagnostics import Diagnostic

if TYPE_CHECKING:
    from ..compilation.model import GameModel

Locate = Callable[[tuple[Any, ...]], tuple[Any, ...]]  # YAML path -> (file, line, column)


# The parts a region rule chooses its sites with (docs/format.md 2.5).
_REGION_PARTS = ("ranks", "files", "edge", "all", "within", "sites", "union", "per_player")


def empty_rule_warnings(data: dict[str, Any], locate: Locate) -> list[Diagnostic]:
    """Warnings about a region rule written as a mapping with no part (`{}`, or
    `within: {of: {}}`): it chooses no site, which is a slip — a region with no site is
    written `[]`."""
    warnings: list[Diagnostic] = []

    def walk(spec: Any, path: tuple[Any, ...]) -> None:
        if not isinstance(spec, dict):
            return
        if not any(part in spec for part in _REGION_PARTS) and not ("only" in spec or "except" in spec):
            file, line, col = locate(path)
            warnings.append(Diagnostic(file, line, col, "a region rule with no part chooses no site", "warning",
                                       "give it a part ({all: true}, {ranks: [1]}, {sites: [a1]}, ...); "
                                       "a region with no site is written []"))
            return
        for i, part in enumerate(spec.get("union") or []):
            walk(part, path + ("union", i))
        for key in ("only", "except"):
            walk(spec.get(key), path + (key,))
        within = spec.get("within")
        if isinstance(within, dict):
            walk(within.get("of"), path + ("within", "of"))
        for player, part in (spec.get("per_player") or {}).items():
            walk(part, path + ("per_player", player))

    for name, spec in (data.get("regions") or {}).items():
        walk(spec, ("regions", name))
    return warnings


def drawn_together_warnings(data: dict[str, Any], locate: Locate) -> list[Diagnostic]:
    """Warnings about two sites of a graph board drawn at the same coordinates: one
    hides the other in every drawing, which is a slip (a copied line not changed)."""
    board = data.get("board")
    graph = board.get("graph") if isinstance(board, dict) else None
    sites = graph.get("sites") if isinstance(graph, dict) else None
    if not isinstance(sites, dict):
        return []
    warnings: list[Diagnostic] = []
    first_at: dict[tuple[Any, ...], str] = {}
    for name, where in sites.items():
        if not isinstance(where, list) or len(where) < 2:
            continue
        key = tuple(where[:2])
        if key not in first_at:
            first_at[key] = name
            continue
        file, line, col = locate(("board", "graph", "sites", name))
        warnings.append(Diagnostic(file, line, col, f"sites '{first_at[key]}' and '{name}' are drawn at the same "
                                   f"place {list(key)}", "warning", "give each site its own [x, y]: the drawings "
                                   "would show one on top of the other"))
    return warnings


def missing_line_warnings(data: dict[str, Any], model: GameModel, locate: Locate) -> list[Diagnostic]:
    """Warnings about a region rule's rank or file the grid (as built with the options
    chosen) has not: it chooses no site, which is a slip more often than a board made
    smaller by a variant. Where an option gives the grid's size, a rank or file the
    largest size has is no slip (`last - 18` or file `s` on a board from 2 to 19), nor a
    span that runs forwards at the largest size (`b to last` on one file): only a region
    left without any site at this size is said, once."""
    board = model.board
    if board.kind != "grid":
        return []
    largest = _largest_grid(data, model)
    warnings: list[Diagnostic] = []
    emptied: dict[str, str] = {}  # region -> the first line this size lacks

    def check(region: str, values: list[Any], path: tuple[Any, ...], axis: str) -> None:
        letters = axis == "files"
        count = board.files if letters else board.ranks
        for i, value in enumerate(values):
            try:
                forwards = backward_span(value, count, letters, model.options)
                if forwards is not None and backward_span(value, largest[axis], letters, model.options) is None:
                    # backward only at a size an option makes smaller (`b to last` on one file): a line
                    # this size lacks, said only where the region is left without a site
                    forwards = None
                if forwards is not None:
                    file, line, col = locate(path + (axis, i))
                    warnings.append(Diagnostic(file, line, col, f"'{value}' chooses no {axis[:-1]}: it runs from a "
                                               f"later {axis[:-1]} to an earlier one", "warning", f"write {forwards}"))
                    continue
                if line_indices(value, count, letters, model.options):
                    continue
                if line_indices(value, largest[axis], letters, model.options):
                    emptied.setdefault(region, f"{axis[:-1]} {value}")
                    continue
            except ValueError:  # (an error already, said when the region was built)
                continue
            file, line, col = locate(path + (axis, i))
            shown = f"a to {chr(ord('a') + count - 1)}" if letters else f"1 to {count}"
            warnings.append(Diagnostic(file, line, col, f"the board has no {axis[:-1]} {value}: it chooses no site",
                                       "warning", f"its {axis} are {shown}"))

    def walk(region: str, spec: Any, path: tuple[Any, ...]) -> None:
        if not isinstance(spec, dict):
            return
        check(region, list(spec.get("ranks") or []), path, "ranks")
        check(region, list(spec.get("files") or []), path, "files")
        for i, part in enumerate(spec.get("union") or []):
            walk(region, part, path + ("union", i))
        walk(region, spec.get("only"), path + ("only",))
        walk(region, spec.get("except"), path + ("except",))
        within = spec.get("within")
        if isinstance(within, dict):
            walk(region, within.get("of"), path + ("within", "of"))
        for player, part in (spec.get("per_player") or {}).items():
            walk(region, part, path + ("per_player", player))

    for name, spec in (data.get("regions") or {}).items():
        walk(name, spec, ("regions", name))
    for name, lacked in emptied.items():
        region = model.regions.get(name)
        if region is not None and not any(region.sites):
            file, line, col = locate(("regions", name))
            warnings.append(Diagnostic(file, line, col, f"region '{name}' has no site: the board has no {lacked}",
                                       "warning", "a larger board has it"))
    return warnings


def _largest_grid(data: dict[str, Any], model: GameModel) -> dict[str, int]:
    """{"files"/"ranks": the most the grid has at any value of its options}."""
    board = model.board
    largest = {"files": board.files, "ranks": board.ranks}
    for axis, number in board_size_numbers(data).items():
        choices = {}
        for name in number.names:
            spec = model.option_specs.get(name)
            values = [v for v in (spec.possible_values() if spec is not None else [])
                      if isinstance(v, int) and not isinstance(v, bool)]
            if spec is not None and spec.maximum is not None:
                values.append(int(spec.maximum))
            choices[name] = values
        largest[axis] = max([largest[axis], *possible_values(number, choices)])
    return largest


def regions_named_in_yaml(data: Any) -> set[str]:
    """The regions the YAML itself uses by name: a setup entry's `{region: NAME}`
    (format.md 2.14), the regions another region's rule names and those `display` marks."""
    named: set[str] = set()
    for placements in (data.get("setup") or {}).values() if isinstance(data.get("setup"), dict) else ():
        for spec in (placements or {}).values() if isinstance(placements, dict) else ():
            if isinstance(spec, dict) and isinstance(spec.get("region"), str):
                named.add(spec["region"])
    for spec in (data.get("regions") or {}).values() if isinstance(data.get("regions"), dict) else ():
        named.update(_regions_a_rule_names(spec))
    display = data.get("display")
    marked = display.get("regions") if isinstance(display, dict) else None
    if isinstance(marked, dict):
        named.update(name for name in marked if isinstance(name, str))
    return named


def _regions_a_rule_names(spec: Any) -> set[str]:
    """The regions a region rule names (`except: star`, `union: [north, south]`)."""
    if isinstance(spec, str):
        return {spec}
    if isinstance(spec, list) or not isinstance(spec, dict):
        return set()
    parts = [spec.get("only"), spec.get("except"), *(spec.get("union") or []),
             *((spec.get("per_player") or {}).values() if isinstance(spec.get("per_player"), dict) else ())]
    return set().union(*(_regions_a_rule_names(part) for part in parts))


def unused_warnings(model: GameModel, items: Any, locate: Locate, data: Any = None) -> list[Diagnostic]:
    """Warnings about unused regions, variables, decisions, procedures, named
    expressions, phases never started, and actions for kinds that never appear.
    A region the YAML `data` names (the setup, the display) is used."""
    everything = [items.phases, list(items.decisions.values()), list(items.chances.values()),
                  list(items.defines.values()), list(items.procedures.values()), items.forbids]
    if items.score is not None:
        everything.append(items.score)
    nodes = list(nodes_of(everything))
    # What an item rejected for its name (already an error) uses is not unused: the
    # author meant it to be used, and the error is the one to fix.
    used = nodes + list(nodes_of(items.rejected))
    names = {n.id for n in used if isinstance(n, ast.Name)} | {n.fn for n in used if isinstance(n, ast.Call)}
    called = {n.procedure for n in used if isinstance(n, ast.CallStmt)}
    followups = {n.decision for n in used if isinstance(n, ast.ThenStmt)}
    started = {n.phase for n in used if isinstance(n, ast.StartPhaseStmt)}
    phases = items.phases + [item for item in items.rejected if isinstance(item, ast.Phase)]
    in_turns = {name.id for phase in phases for name in phase.turn}
    warnings: list[Diagnostic] = []

    def warn(pos: ast.Pos, message: str) -> None:
        warnings.append(Diagnostic(pos.file, pos.line, pos.column, message, "warning"))

    in_yaml = regions_named_in_yaml(data) if isinstance(data, dict) else set()
    for region in model.regions:
        if region not in names and region not in in_yaml:
            file, line, col = locate(("regions", region, AT_KEY))
            warnings.append(Diagnostic(file, line, col, f"region '{region}' is never used in the rules", "warning"))
    # A variable the rules never name (read, assigned, or in a notation's braces) stays
    # at its default. One only assigned is no slip: the drawings show it, and it is
    # part of the position.
    in_notations = {field for text in _notations(used) for field in re.findall(r"\{(\w+)\}", text)}
    for variable in model.variables:
        if variable not in names and variable not in in_notations:
            file, line, col = locate(("variables", variable, AT_KEY))
            warnings.append(Diagnostic(file, line, col, f"variable '{variable}' is never used in the rules",
                                       "warning"))
    # (a name declared twice is an error already: the one declaration kept is not
    # warned about for uses that may be the other's)
    twice = items.duplicates
    for name, decision in list(items.decisions.items()) + list(items.chances.items()):
        if name not in in_turns and name not in followups and name not in twice:
            warn(decision.pos, f"'{name}' is never taken: no phase's 'turn' names it and no 'then' starts it")
    for name, procedure in items.procedures.items():
        if name not in called and name not in items.specialised and name not in twice:
            warn(procedure.pos, f"procedure '{name}' is never used")
    for name, define in items.defines.items():
        if name not in names and name not in items.specialised and name not in twice:
            warn(define.pos, f"'{name}' is defined but never used")
        elif name in FUNCTIONS:
            usage = FUNCTIONS[name][1].split(" — ")[0]
            warn(define.pos, f"'{name}' is also a function of the rules language ({usage}, format.md 3.12.2): "
                             f"in these rules '{name}(...)' is the define")
    for phase in items.phases[1:]:
        if phase.name not in started and phase.name not in twice:
            warn(phase.pos, f"phase '{phase.name}' is never started: no 'start phase {phase.name}' in the rules")

    present = {placement.kind for placement in model.setup}
    present |= {pool.kind for pool in model.pools.values() if pool.kind is not None}
    for node in nodes:  # (every way a piece of a kind comes onto the board)
        if isinstance(node, (ast.PromoteStmt, ast.DropPattern, ast.CreateStmt)):
            made = [node.kind]
        elif isinstance(node, ast.PromoteChoiceStmt):
            made = [k.id for k in node.kinds]
        else:
            continue
        present |= {model.kinds[k].index for k in made if k in model.kinds}
    for decision in items.decisions.values():
        for action in decision.actions:
            if (decision.name in in_turns and decision.name not in followups
                    and any(b.same_piece for b in action.by)):
                warn(action.pos, f"action '{action.name}' can never apply: 'by the same piece' acts only in a "
                                 f"follow-up decision, and no 'then' starts '{decision.name}' (format.md 3.4)")
            if isinstance(action.pattern, ast.DropPattern) and action.pattern.pool:
                for case in action.cases:
                    for node in nodes_of(case.body):
                        if isinstance(node, ast.MoveStmt):
                            warn(node.pos, f"'move' does not take the dropped piece from pool "
                                           f"'{action.pattern.pool}': write 'place'")
            kinds = [b.kind for b in action.by if b.kind is not None]
            if kinds and not any(b.pool or b.same_piece for b in action.by):
                if all(k in model.kinds and model.kinds[k].index not in present for k in kinds):
                    warn(action.pos, f"action '{action.name}' can never apply: no {' or '.join(kinds)} is set up, "
                                     "dropped, created, promoted to or waiting in a pool")
    return warnings


def _notations(nodes: list[Any]) -> list[str]:
    """The notation templates among `nodes` (of actions, cases, `notation` statements)."""
    texts = [node.template for node in nodes if isinstance(node, ast.NotationStmt)]
    return texts + [node.notation for node in nodes if isinstance(node, (ast.Action, ast.Case)) and node.notation]


def hidden_name_warnings(model: GameModel, locate: Locate) -> list[Diagnostic]:
    """Warnings about a name the YAML declares twice, as two sorts of thing: in the
    rules' expressions the first of variables, pools, options, regions and tracks
    (the order names are looked up in) wins, and the other cannot be named there —
    an option `n` makes `neighbour(to, n)` read the option's number."""
    declared: list[tuple[str, str, Collection[str]]] = [
        ("variable", "variables", model.variables), ("pool", "pools", model.pools),
        ("option", "options", model.options), ("region", "regions", model.regions),
        ("track", "tracks", model.tracks)]
    hidden: list[tuple[str, Collection[str]]] = [
        (what, names) for what, _, names in declared] + [
        ("player", model.all_players), ("site", model.board.index), ("direction", model.direction_sets)]
    warnings: list[Diagnostic] = []
    for rank, (what, key, names) in enumerate(declared):
        for name in names:
            other = next((sort for sort, others in hidden[rank + 1:] if name in others), None)
            if other is None:
                continue
            file, line, col = locate((key, name, AT_KEY))
            warnings.append(Diagnostic(
                file, line, col, f"{what} '{name}' has the name of a {other}: in the rules' expressions "
                                 f"'{name}' is the {what}, and the {other} cannot be named there",
                "warning", f"give the {what} another name"))
    return warnings
