"""Variants: text overlays on a game (or on another variant).

A variant is a YAML file with `extends:` naming what it changes. It may

- set new defaults for options (`options: {capture: whole}`),
- replace whole top-level sections of the YAML (`setup:`, `regions:`, ...),
- add, replace or remove single entries of sections (`change:`, `remove:`; see
  entries.py),
- bring a rules overlay (`rules: file.rules`): a top-level item with the name of an
  existing one replaces it; a `decision` merges action by action (same name
  replaces, new name adds); `change phase X:` / `change decision X:` replace the
  entries given and keep the others (`remove after each turn` drops one);
  `remove action move.slide` (or `remove decision X`, `remove phase X`,
  `remove forbid X`, ...) drops an item; unnamed `forbid` lines are added, a named
  `forbid NAME:` block replaces the one of that name; `start phase: X` replaces the
  game's start phase and `remove start phase` drops it. What a variant's overlays
  may say once (`score:`, an item of one name, ...) they say once (_check_once).

Nothing is copied: the variant holds only what differs.
"""
from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any, Optional

from ..compilation.errors import name_pos
from ..parsing import ast
from ..parsing.parser import entry_words
from ..validation.diagnostics import DefinitionError, DiagnosticList, suggest
from ..validation.files import exists, is_dir
from ..validation.schema_check import check_against_schema
from .confine import VARIANTS_FOLDER, game_folder, inside
from .entries import apply_entries
from .files import (
    _confined_game,
    _schema,
    bundled_file,
    bundled_games,
    display_name,
    read_rules,
    read_yaml,
    resolve,
    rules_entries,
    rules_path,
    schema_registry,
)
from .namesakes import near_namesake
from .options import read_options

MAX_VARIANT_DEPTH = 16

# Top-level sections of a game a variant may replace.
REPLACEABLE = (
    "title",
    "description",
    "players",
    "in_play",
    "teams",
    "board",
    "regions",
    "directions",
    "pieces",
    "attributes",
    "stacks",
    "pools",
    "variables",
    "lines",
    "tracks",
    "display",
    "setup",
)


def is_variant(data: dict[str, Any]) -> bool:
    return isinstance(data, dict) and "extends" in data


def variant_chain(path: Path, data: dict[str, Any], diags: DiagnosticList, sources: dict[str, Any],
                  positions: Any=None) -> tuple[Path, list[Path]]:
    """Follow `extends` from a variant to its game: (game yaml, variants base-first, excluding `path`).

    A broken link is reported at the `extends:` value of the variant that has it
    (`positions`: those of `data`)."""
    chain: list[Path] = []
    seen = {path.resolve()}
    current_path, current = path, data
    while True:
        where = (current_path, positions.locate(("extends",)) if positions is not None else (1, 1))
        base = _extended(current_path, current.get("extends"), where, diags)
        if base is None:
            return current_path, chain
        if base.resolve() in seen:
            _error(where, diags, f"variants extend each other in a circle ({current['extends']})")
            return base, chain
        seen.add(base.resolve())
        if len(seen) > MAX_VARIANT_DEPTH + 1:  # the game and at most MAX_VARIANT_DEPTH variants
            _error(where, diags, f"more than {MAX_VARIANT_DEPTH} variants extend each other")
            return base, chain
        base_data, positions, _ = read_yaml(base, diags, sources, named_by_file=True)
        if base_data is None or not is_variant(base_data):
            return base, chain
        chain.insert(0, base)
        current_path, current = base, base_data


def _extended(variant: Path, target: Any, where: tuple[Any, ...], diags: DiagnosticList) -> Optional[Path]:
    """The YAML file `extends: target` of `variant` names: a file (or game folder) of
    the variant's own game folder, relative to the variant; else, for a bare name,
    the variant's game folder itself when it has that name (a copy of a bundled game
    with its `variants/`), else the bundled game — never a folder found from the
    current directory. None after an error."""
    if not isinstance(target, str) or not target.strip():
        _error(where, diags, "'extends' must name a game or a variant file")
        return None
    local = variant.parent / target
    if exists(local):
        root = game_folder(variant)
        if not inside(local, root):
            _error(where, diags, f"'extends: {target}' leads outside the game's folder ({display_name(root) or '.'})",
                   hint="a variant extends a bundled game, or a file of its own game folder: its folder, "
                        f"or the folder above when it is kept in a '{VARIANTS_FOLDER}' folder")
            return None
        try:
            return resolve(str(local)) if is_dir(local) else local
        except DefinitionError:
            _error(where, diags, f"'extends: {target}' names a folder without a game definition")
            return None
    own = _own_game(variant, target)
    if own is not None:
        return own
    bundled = bundled_file(target)
    if bundled is not None:
        return bundled
    best = suggest(target, bundled_games())
    hint = f"did you mean '{best}'?" if best else (
        f"name a bundled game ({', '.join(bundled_games())}) or a game file or folder relative to "
        f"{display_name(variant)}"
    )
    _error(where, diags, f"'extends: {target}' names no game or variant file", hint=hint)
    return None


def _own_game(variant: Path, target: str) -> Optional[Path]:
    """The game file of the variant's game folder when that folder is named `target`
    (`extends: NAME` in `NAME/variants/`), else None."""
    root = game_folder(variant)
    if "/" in target or "\\" in target or root.name != target:
        return None
    try:
        game = _confined_game(root)
    except DefinitionError:
        return None
    return None if game.resolve() == variant.resolve() else game


def _error(where: tuple[Any, ...], diags: DiagnosticList, message: str, hint: Optional[str] = None) -> None:
    path, (line, column) = where
    diags.error(display_name(path), line, column, message, hint=hint)


def apply_variants(definition: Any, chain: list[Path], diags: DiagnosticList) -> None:
    """Apply the variant files in `chain` (base first) to `definition`, in place."""
    for path in chain:
        data, positions, name = read_yaml(path, diags, definition.sources)
        if data is None:
            continue
        problems = check_against_schema(data, _schema("variant.schema.json"), positions, name,
                                        registry=schema_registry())
        diags.extend(problems)
        if problems:
            continue
        definition.variant_chain.append(name)
        definition.positions_by_file[name] = positions
        merged = definition.data
        for key in REPLACEABLE:
            if key in data:
                merged[key] = copy.deepcopy(data[key])
                definition.key_origin[key] = name
                definition.origins.forget((key,))
        for key in data.get("change") or {}:
            definition.key_origin.setdefault(key, name)  # a section the game did not have
        apply_entries(merged, data, name, positions, definition.origins, diags)
        options = merged.setdefault("options", {})
        for opt, value in (data.get("options") or {}).items():
            if opt not in options:
                best = suggest(opt, list(options))
                line, col = positions.locate(("options", opt), key=True)
                diags.error(name, line, col, f"the game has no option '{opt}'",
                            hint=f"did you mean '{best}'?" if best else None)
                continue
            changed = dict(options[opt], default=value)
            rejected: list[str] = []

            def refused(path: tuple[Any, ...], message: str, hint: Optional[str], opt: str = opt) -> None:
                if path[1] == opt:
                    rejected.append(message)
            # (with the options declared before it, which a default written with options may name)
            declared = list(options)
            earlier = {key: options[key] for key in declared[:declared.index(opt)]}
            read_options({"options": {**earlier, opt: changed}}, refused)
            if rejected:
                # Said here, at the variant's value: the merged options have no file of their own.
                line, col = positions.locate(("options", opt))
                reason = rejected[0].split(": ", 1)[-1]
                diags.error(name, line, col, reason)
                continue
            options[opt] = changed
        if "options" in data:
            base = definition.key_origin.get("options", definition.yaml_file)
            definition.key_origin["options"] = f"{base}, defaults changed by {name}"
        overlays = []
        for where, rel in rules_entries(data.get("rules")):
            origin = (name, positions.locate(where))
            inside = rules_path(path.parent, rel, diags, origin)
            overlay = read_rules(inside, diags, definition.sources, origin) if inside is not None else None
            if overlay is not None:
                overlays.append(overlay)
        # What one variant says once, it says once in all its overlay files together.
        _check_once(ast.RulesFile(name, [item for overlay in overlays for item in overlay.items]), diags)
        for overlay in overlays:
            definition.rules = overlay_rules(definition.rules, overlay, diags, checked=True)
        if "title" not in data:
            merged["title"] = f"{merged.get('title', merged.get('game'))} ({data.get('variant', path.stem)})"
        definition.key_origin["title"] = name


def overlay_rules(base: list[ast.RulesFile], overlay: ast.RulesFile, diags: DiagnosticList,
                  checked: bool = False) -> list[ast.RulesFile]:
    """The items of `base` with `overlay` applied, as one rules file list (`checked`:
    what it says once has been checked, with the variant's other overlay files)."""
    items: list[Any] = [item for rules in base for item in rules.items]
    if not checked:
        _check_once(overlay, diags)
    # An overlay that gives or removes the start phase says where the game starts.
    own_start = any(isinstance(i, ast.StartPhase) or _removes_start(i) for i in overlay.items)
    for item in overlay.items:
        if isinstance(item, ast.Removal):
            _remove(items, item, diags)
            if not own_start:
                _removed_start_phase(items, item, diags)
        elif isinstance(item, ast.Change):
            _change(items, item, diags)
        elif isinstance(item, ast.Forbid):
            items.append(item)
        elif isinstance(item, (ast.Score, ast.StartPhase)):
            items = [i for i in items if not isinstance(i, type(item))] + [item]
        elif isinstance(item, ast.Decision):
            existing = _find(items, ast.Decision, item.name)
            if existing is None:
                _warn_near_namesake(item, [i.name for i in items if isinstance(i, ast.Decision)], "decision", diags)
                items.append(item)
            else:
                items[items.index(existing)] = _merge_decision(existing, item, diags)
        else:
            existing = _find(items, type(item), item.name)
            if existing is None:
                names = [i.name for i in items if isinstance(i, type(item))]
                _warn_near_namesake(item, names, _WORDS.get(type(item), "item"), diags)
                items.append(item)
            else:
                if isinstance(item, ast.Phase):
                    _warn_of_dropped_entries(existing, item, diags)
                items[items.index(existing)] = item
    return [ast.RulesFile(overlay.path, items)]


def _check_once(overlay: ast.RulesFile, diags: DiagnosticList) -> None:
    """Errors for what one overlay says twice, the later of which would silently win:
    a second `score:` or `start phase:`, an item of one kind and name given twice,
    changed twice, or both given whole and changed, one thing removed twice, a
    `score:` or `start phase:` both given and removed, an item removed after the
    overlay gives it."""
    first: dict[tuple[str, ...], Any] = {}

    def again(key: tuple[str, ...], item: Any, message: str, hint: Optional[str] = None) -> bool:
        """Report `item` when `key` was seen before (`message` formatted with the first's position)."""
        if key not in first:
            first[key] = item
            return False
        pos = item.pos
        diags.error(pos.file, pos.line, pos.column, message.format(first=first[key].pos), hint=hint)
        return True

    for item in overlay.items:
        if isinstance(item, ast.Score):
            again(("score",), item, "a second 'score' in this overlay (the first is at {first})",
                  "an overlay's 'score:' replaces the game's: give it once")
        elif isinstance(item, ast.StartPhase):
            again(("start",), item, "a second 'start phase' (the first is at {first})",
                  "an overlay's 'start phase:' replaces the game's: give it once")
        elif isinstance(item, ast.Change):
            word = f"change {item.kind} {item.name}"
            if not again(("change", item.kind, item.name), item, f"a second '{word}' (the first is at {{first}})",
                         f"write all the changes of {item.kind} '{item.name}' in one '{word}:'"):
                again(("item", item.kind, item.name), item,
                      f"{item.kind} '{item.name}' is given whole at {{first}} and changed here, in one overlay",
                      f"write one of them: the whole {item.kind}, or '{word}:' with the entries that differ")
        elif isinstance(item, ast.Removal):
            what = " ".join(w for w in (item.item_kind, item.name) if w)
            what += f".{item.member}" if item.member else ""
            named = "" if item.item_kind == "score" else item.name or ""  # (the score's name is not used)
            if again(("remove", item.item_kind, named, item.member or ""), item,
                     f"a second 'remove {what}' (the first is at {{first}})"):
                continue
            key = {"score": ("score",), "start": ("start",)}.get(item.item_kind, ("item", item.item_kind, item.name))
            given = first.get(key)
            if given is not None and not isinstance(given, ast.Removal):
                diags.error(item.pos.file, item.pos.line, item.pos.column,
                            f"'remove {what}' removes what this overlay gives at {given.pos}",
                            hint=f"to replace the game's {what.split('.')[0]}, give the new one and do not remove it")
        elif isinstance(item, (ast.Phase, ast.Decision, ast.Chance, ast.Define, ast.Procedure, ast.ForbidGroup)):
            word = next(w for w, kind in _KINDS.items() if isinstance(item, kind))
            key = ("item", word, item.name)
            if isinstance(first.get(key), ast.Change):
                again(key, item, f"{word} '{item.name}' is changed at {{first}} and given whole here, in one overlay",
                      f"write one of them: the whole {word}, or 'change {word} {item.name}:' with the entries "
                      "that differ")
            else:
                again(key, item, f"a second {word} '{item.name}' in this overlay (the first is at {{first}})",
                      f"an overlay gives each {word} once: put the two together")


def _removes_start(item: Any) -> bool:
    return isinstance(item, ast.Removal) and item.item_kind == "start"


def _removed_start_phase(items: list[Any], removal: ast.Removal, diags: DiagnosticList) -> None:
    """After `remove phase X` of the phase the game's `start phase: X` names (and the
    overlay sets no start phase of its own): the error here, at the removal, saying
    how to undo or change the start phase, and the dangling `start phase` dropped."""
    if removal.item_kind != "phase":
        return
    start = next((i for i in items if isinstance(i, ast.StartPhase) and i.phase == removal.name), None)
    if start is None:
        return
    items.remove(start)
    rest = [i.name for i in items if isinstance(i, ast.Phase)]
    then = f"'{rest[0]}'" if rest else "its first phase"
    pos = removal.pos
    diags.error(pos.file, pos.line, pos.column,
                f"phase '{removal.name}' is the one the game starts in ('start phase: {removal.name}' at {start.pos})",
                hint=f"add 'remove start phase' to this overlay (the game then starts in its first phase, {then}), "
                     "or 'start phase: NAME' to start in another")


# A phase's entries that a replacement can drop, in the order the rules write them.
_PHASE_ENTRIES = ("order", "before_turn", "after_action", "after_turn", "no_action")


def _warn_of_dropped_entries(base: ast.Phase, replacement: ast.Phase, diags: DiagnosticList) -> None:
    """A phase replaced whole without entries the game's had (an `after each turn`
    that resets a flag): most likely meant to change one entry and keep the rest."""
    dropped = [entry for entry in _PHASE_ENTRIES
               if getattr(base, entry) is not None and getattr(replacement, entry) is None]
    if not dropped:
        return
    where = [f"'{entry_words(e)}' ({base.entry_pos[e]})" if e in base.entry_pos else f"'{entry_words(e)}'"
             for e in dropped]
    pos = replacement.pos
    diags.warning(
        pos.file, pos.line, pos.column,
        f"phase '{base.name}' replaces the game's phase whole and drops its {', '.join(where)}",
        hint=f"to change only some entries, write 'change phase {base.name}:' (the entries not given stay); "
             f"to drop one on purpose, write 'remove {entry_words(dropped[0])}' in it",
    )


def _change(items: list[Any], change: ast.Change, diags: DiagnosticList) -> None:
    """`change phase NAME:` / `change decision NAME:`: some entries of an item replaced,
    added or removed, the others kept."""
    kind = ast.Phase if change.kind == "phase" else ast.Decision
    existing = _find(items, kind, change.name)
    if existing is None:
        at = change.name_pos or change.pos
        names = [i.name for i in items if isinstance(i, kind)]
        best = suggest(change.name, names)
        hint = (f"did you mean '{best}'?" if best
                else f"to add a new {change.kind}, write '{change.kind} {change.name}:'")
        diags.error(at.file, at.line, at.column, f"there is no {change.kind} '{change.name}' to change", hint=hint)
        return
    if isinstance(existing, ast.Phase):
        items[items.index(existing)] = _changed_phase(existing, change, diags)
    else:
        items[items.index(existing)] = _changed_decision(existing, change, diags)


def _changed_phase(base: ast.Phase, change: ast.Change, diags: DiagnosticList) -> ast.Phase:
    given = change.item
    assert isinstance(given, ast.Phase)
    merged = copy.copy(base)
    merged.entry_pos = dict(base.entry_pos)
    for removal in change.removals:
        if getattr(base, removal.entry) is None:
            present = [entry_words(e) for e in ("order", "turn") + _PHASE_ENTRIES if getattr(base, e) not in (None, [])]
            _entry_missing(removal, f"phase '{base.name}' has no '{entry_words(removal.entry)}' to remove",
                           f"its entries: {', '.join(present)}", diags)
            continue
        setattr(merged, removal.entry, None)
        merged.entry_pos.pop(removal.entry, None)
    for entry, pos in given.entry_pos.items():
        setattr(merged, entry, getattr(given, entry))
        merged.entry_pos[entry] = pos
    dropped = {removal.entry for removal in change.removals} | set(given.entry_pos)
    merged.added_pos = [(entry, pos) for entry, pos in base.added_pos if entry not in dropped]
    for addition in change.additions:
        setattr(merged, addition.entry, (getattr(base, addition.entry) or []) + addition.statements)
        merged.added_pos.append((addition.entry, addition.pos))
    return merged


def _changed_decision(base: ast.Decision, change: ast.Change, diags: DiagnosticList) -> ast.Decision:
    given = change.item
    assert isinstance(given, ast.Decision)
    decision = base
    for removal in change.removals:
        if removal.entry == "action":
            decision = _without_action(decision, removal.name or "", removal.pos, diags) or decision
        elif removal.entry == "after_action":
            if decision.after_action is None:
                _entry_missing(removal, f"decision '{base.name}' has no 'after each action' to remove", None, diags)
                continue
            decision = dataclasses.replace(decision, after_action=None, after_pos=None, added_pos=[])
        elif removal.entry == "longest":
            if decision.longest is None:
                _entry_missing(removal, f"decision '{base.name}' has no 'play the longest turn' to remove", None, diags)
                continue
            decision = dataclasses.replace(decision, longest=None)
        elif not decision.prefer:
            _entry_missing(removal, f"decision '{base.name}' has no 'prefer' lines to remove", None, diags)
        else:
            decision = dataclasses.replace(decision, prefer=[])
    for addition in change.additions:
        decision = dataclasses.replace(decision, after_action=(decision.after_action or []) + addition.statements,
                                       added_pos=decision.added_pos + [addition.pos])
    return _merge_decision(decision, given, diags)


def _entry_missing(removal: ast.EntryRemoval, message: str, hint: Optional[str], diags: DiagnosticList) -> None:
    pos = removal.pos
    diags.error(pos.file, pos.line, pos.column, message, hint=hint)


def _warn_near_namesake(item: Any, names: list[str], word: str, diags: DiagnosticList, within: str = "") -> None:
    """An overlay's item with a new name, one typo from an existing one, is added
    next to it — when it was surely meant to replace it (`leaps` for `leap`;
    namesakes.py says when a name is such a slip)."""
    best = near_namesake(item.name, names)
    if best is None:
        return
    diags.warning(
        item.pos.file, item.pos.line, item.pos.column,
        f"{word} '{item.name}' is added{within} next to '{best}', which it does not replace",
        hint=f"did you mean to replace '{best}'? an overlay replaces what has the same name; a new name adds",
    )


_WORDS = {ast.Phase: "phase", ast.Chance: "chance event", ast.Define: "define", ast.Procedure: "procedure",
          ast.ForbidGroup: "forbid"}


def _find(items: list[Any], kind: type[Any], name: str) -> Any:
    for item in items:
        if isinstance(item, kind) and item.name == name:
            return item
    return None


def _merge_decision(base: ast.Decision, overlay: ast.Decision, diags: DiagnosticList) -> ast.Decision:
    actions = list(base.actions)
    for action in overlay.actions:
        for i, old in enumerate(actions):
            if old.name == action.name:
                actions[i] = action
                break
        else:
            names = [a.name for a in base.actions]
            _warn_near_namesake(action, names, "action", diags, within=f" to decision '{base.name}'")
            actions.append(action)
    after = overlay if overlay.after_action is not None else base
    # `prefer:` lines in the overlay replace the decision's, and so does its `play the longest turn`.
    prefer = overlay.prefer or base.prefer
    longest = overlay.longest or base.longest
    return ast.Decision(base.pos, base.name, actions, after.after_action, after.after_pos, prefer, longest,
                        after.added_pos)


def _prefer_action(item: ast.PreferItem) -> Optional[str]:
    """The action a `prefer` item names (None: a case of every action)."""
    return item.id if isinstance(item, ast.Name) else item.action


_KINDS = {
    "phase": ast.Phase,
    "decision": ast.Decision,
    "chance": ast.Chance,
    "define": ast.Define,
    "procedure": ast.Procedure,
    "forbid": ast.ForbidGroup,
}


def _remove(items: list[Any], removal: ast.Removal, diags: DiagnosticList) -> None:
    pos = removal.pos
    if removal.item_kind == "start":
        _remove_start_phase(items, removal, diags)
        return
    if not removal.name and removal.item_kind not in ("score",):
        diags.error(pos.file, pos.line, pos.column,
                    f"say which {removal.item_kind} to remove: remove {removal.item_kind} NAME")
        return
    if removal.item_kind == "action":
        if removal.member is None:
            diags.error(pos.file, pos.line, pos.column,
                        "name the action with its decision: remove action DECISION.ACTION")
            return
        decision = _find(items, ast.Decision, removal.name)
        if decision is None:
            _not_found(items, ast.Decision, removal.name, "decision", pos, diags)
            return
        changed = _without_action(decision, removal.member, pos, diags)
        if changed is not None:
            items[items.index(decision)] = changed
        return
    if removal.item_kind == "score":
        if not any(isinstance(i, ast.Score) for i in items):
            diags.error(pos.file, pos.line, pos.column, "there is no 'score' to remove",
                        hint="the game has no 'score:' (nor does a variant it extends)")
        items[:] = [i for i in items if not isinstance(i, ast.Score)]
        return
    kind = _KINDS.get(removal.item_kind)
    if kind is None:
        best = suggest(removal.item_kind, list(_KINDS) + ["action", "score"])
        removable = ", ".join(list(_KINDS) + ["action", "score", "start phase"])
        diags.error(pos.file, pos.line, pos.column, f"cannot remove a '{removal.item_kind}'; removable: {removable}",
                    hint=f"did you mean '{best}'?" if best else None)
        return
    found = _find(items, kind, removal.name)
    if found is None:
        _not_found(items, kind, removal.name, removal.item_kind, pos, diags)
        return
    items.remove(found)


def _remove_start_phase(items: list[Any], removal: ast.Removal, diags: DiagnosticList) -> None:
    """`remove start phase`: the game's `start phase: NAME` dropped, so that it starts
    in its first phase declared again."""
    pos = removal.pos
    if removal.name != "phase" or removal.member is not None:
        diags.error(pos.file, pos.line, pos.column, "write 'remove start phase' (nothing after it)",
                    hint="it drops the game's 'start phase: NAME'; to start in another phase, write "
                         "'start phase: NAME' alone, which replaces the game's")
        return
    starts = [i for i in items if isinstance(i, ast.StartPhase)]
    if not starts:
        diags.error(pos.file, pos.line, pos.column, "there is no 'start phase' to remove",
                    hint="the game has no 'start phase: NAME' (nor does a variant it extends): it starts in its "
                         "first phase declared")
        return
    items[:] = [i for i in items if not isinstance(i, ast.StartPhase)]


def _without_action(decision: ast.Decision, name: str, pos: ast.Pos, diags: DiagnosticList) -> Optional[ast.Decision]:
    """The decision without its action `name` (and without it in its `prefer` lines);
    None after an error when it has no such action."""
    kept = [a for a in decision.actions if a.name != name]
    if len(kept) == len(decision.actions):
        names = [a.name for a in decision.actions]
        best = suggest(name, names)
        hint = f"did you mean '{best}'?" if best else f"its actions: {', '.join(names) or 'none'}"
        at = name_pos(pos, name)
        diags.error(at.file, at.line, at.column, f"decision '{decision.name}' has no action '{name}'", hint=hint)
        return None
    # The action leaves the decision's `prefer` lines too (its name, and its cases named there).
    prefer = [(at, [n for n in names if _prefer_action(n) != name]) for at, names in decision.prefer]
    prefer = [(at, names) for at, names in prefer if names]
    return dataclasses.replace(decision, actions=kept, prefer=prefer)


def _not_found(items: Any, kind: Any, name: Any, word: Any, pos: Any, diags: Any) -> None:
    names = [i.name for i in items if isinstance(i, kind)]
    best = suggest(name, names)
    diags.error(pos.file, pos.line, pos.column, f"there is no {word} '{name}' to remove",
                hint=f"did you mean '{best}'?" if best else None)
