"""A variant's `change:` and `remove:`: single entries of the game's YAML sections
added, replaced or removed, the rest of each section kept (docs/format.md 4).

An entry is a named member of a section: a region, a variable, a piece kind, ...;
in `setup`, the pieces of one kind of one owner (`setup: {white: {queen: [d1]}}`);
in `display`, a marked region (`display: {regions: {hill: ...}}`) or `text`. Every
entry a variant brings keeps where it was written (`Origins`), so that a mistake
in it is reported in the variant's file and `show` says where each entry comes from.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Optional

from ..validation.diagnostics import DiagnosticList, suggest
from ..validation.yaml_source import PositionIndex
from .namesakes import near_namesake

# How deep a section's entries lie: 1 for a mapping of named entries, 2 for a
# mapping of mappings (the setup's owners → kinds, the display's regions → names).
ENTRY_DEPTH = {
    "regions": 1,
    "directions": 1,
    "pieces": 1,
    "attributes": 1,
    "pools": 1,
    "variables": 1,
    "tracks": 1,
    "options": 1,
    "setup": 2,
    "display": 2,
}

# What one entry of a section is called in messages.
_ENTRY_WORDS = {
    "regions": "region",
    "directions": "direction set",
    "pieces": "piece kind",
    "attributes": "attribute",
    "pools": "pool",
    "variables": "variable",
    "tracks": "track",
    "options": "option",
    "setup": "owner in the setup",
    "display": "display entry",
}


@dataclass
class Origins:
    """Where the entries that variants brought were written: a path in the merged
    data → (file, the same entry's path in that file)."""

    entries: dict[tuple[Any, ...], tuple[str, tuple[Any, ...]]] = field(default_factory=dict)

    def set(self, path: tuple[Any, ...], file: str, file_path: tuple[Any, ...]) -> None:
        self.forget(path)
        self.entries[path] = (file, file_path)

    def forget(self, path: tuple[Any, ...]) -> None:
        """Forget `path` and everything under it (replaced or removed)."""
        for known in [p for p in self.entries if p[: len(path)] == path]:
            del self.entries[known]

    def find(self, path: tuple[Any, ...]) -> Optional[tuple[str, tuple[Any, ...]]]:
        """(file, path in that file) of `path`, from its nearest entry a variant brought; None if none did."""
        for length in range(len(path), 0, -1):
            found = self.entries.get(path[:length])
            if found is not None:
                file, file_path = found
                return file, file_path + path[length:]
        return None

    def under(self, path: tuple[Any, ...]) -> bool:
        return any(p[: len(path)] == path for p in self.entries)


def apply_entries(merged: dict[str, Any], data: dict[str, Any], file: str, positions: PositionIndex, origins: Origins,
                  diags: DiagnosticList) -> None:
    """Apply the `remove:` then the `change:` of one variant file (`data`) to `merged`."""
    removals = data.get("remove") or {}
    changes = data.get("change") or {}
    for section, spec in removals.items():
        base = merged.get(section)
        _remove(base if isinstance(base, dict) else {}, spec, ENTRY_DEPTH[section], (section,), ("remove", section),
                changes.get(section), file, positions, origins, diags)
    for section, spec in changes.items():
        if not isinstance(merged.get(section), dict):
            merged[section] = {}
            origins.set((section,), file, ("change", section))
        _change(merged[section], spec, ENTRY_DEPTH[section], (section,), ("change", section), file, positions,
                origins, diags)


def _change(base: dict[str, Any], spec: dict[str, Any], depth: int, path: tuple[Any, ...], file_path: tuple[Any, ...],
            file: str, positions: PositionIndex, origins: Origins, diags: DiagnosticList) -> None:
    for key, value in spec.items():
        if depth > 1 and isinstance(value, dict) and isinstance(base.get(key), dict):
            _change(base[key], value, depth - 1, path + (key,), file_path + (key,), file, positions, origins, diags)
            continue
        if key not in base:
            _warn_near_namesake(key, list(base), path, file, positions.locate(file_path + (key,), key=True), diags)
        base[key] = copy.deepcopy(value)
        origins.set(path + (key,), file, file_path + (key,))


def _remove(base: dict[str, Any], spec: Any, depth: int, path: tuple[Any, ...], file_path: tuple[Any, ...],
            changed: Any,
            file: str, positions: PositionIndex, origins: Origins, diags: DiagnosticList) -> None:
    if isinstance(spec, list):
        for i, name in enumerate(spec):
            line, column = positions.locate(file_path + (i,))
            if isinstance(changed, dict) and name in changed:
                at = positions.locate(("change",) + file_path[1:] + (name,), key=True)
                diags.error(file, line, column, f"'{name}' is both removed and changed (at line {at[0]})",
                            hint="to replace an entry, 'change' it alone")
            elif name in base:
                del base[name]
                origins.forget(path + (name,))
            else:
                best = suggest(str(name), [str(k) for k in base])
                listed = f"its entries: {', '.join(map(str, base))}" if base else None
                hint = f"did you mean '{best}'?" if best else listed
                diags.error(file, line, column, _missing(path, name), hint=hint)
        return
    if isinstance(spec, dict) and depth > 1:
        for key, sub in spec.items():
            inner = base.get(key)
            if not isinstance(inner, dict):
                line, column = positions.locate(file_path + (key,), key=True)
                best = suggest(str(key), [str(k) for k in base])
                diags.error(file, line, column, _missing(path, key), hint=f"did you mean '{best}'?" if best else None)
                continue
            inner_changed = changed.get(key) if isinstance(changed, dict) else None
            _remove(inner, sub, depth - 1, path + (key,), file_path + (key,), inner_changed, file, positions,
                    origins, diags)


def _word(path: tuple[Any, ...]) -> str:
    """What an entry directly under `path` is called."""
    if len(path) == 1:
        return _ENTRY_WORDS[path[0]]
    if path[0] == "setup":
        return "piece kind"
    if path[:2] == ("display", "regions"):
        return "marked region"
    return "entry"


def _missing(path: tuple[Any, ...], name: Any) -> str:
    """The message for an entry `name` under `path` that is not there to remove."""
    if path == ("setup",):
        return f"the setup has no pieces of '{name}' to remove"
    if path[0] == "setup":
        return f"the setup has no '{name}' of '{path[1]}' to remove"
    if path == ("display",):
        return f"the display has no '{name}' to remove"
    if len(path) > 1:
        return f"{'.'.join(map(str, path))} has no {_word(path)} '{name}' to remove"
    return f"the game has no {_word(path)} '{name}' to remove"


def _warn_near_namesake(name: Any, names: list[Any], path: tuple[Any, ...], file: str, at: tuple[int, int],
                        diags: DiagnosticList) -> None:
    best = near_namesake(str(name), [str(n) for n in names])
    if best is None:
        return
    word = _word(path)
    diags.warning(
        file, at[0], at[1], f"{word} '{name}' is added{'' if len(path) == 1 else ' to ' + '.'.join(map(str, path))} "
                            f"next to '{best}', which it does not replace",
        hint=f"did you mean to change '{best}'? 'change' replaces an entry of the same name; a new name adds one",
    )
