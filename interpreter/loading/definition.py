"""Finding, reading and checking a game definition: YAML + rules files.

Everything that can go wrong becomes a `Diagnostic` with file, line and column;
`load_definition` raises one `DefinitionError` carrying all of them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from ..parsing import ast
from ..runtime.pieces import NEUTRAL_NAME
from ..spelling import did_you_mean
from ..validation.diagnostics import DefinitionError, Diagnostic, DiagnosticList
from ..validation.schema_check import check_against_schema
from ..validation.yaml_source import PositionIndex
from .entries import Origins
from .files import _schema, read_rules, read_yaml, resolve, rules_entries, rules_path
from .files import bundled_games as bundled_games  # re-exported: part of this module's interface
from .variants import apply_variants, is_variant, variant_chain


@dataclass
class Definition:
    """A game definition read from disk: YAML data with positions, and parsed rules."""

    yaml_file: str  # display name
    data: dict[str, Any]
    positions: PositionIndex
    rules: list[ast.RulesFile]
    sources: dict[str, str] = field(default_factory=dict)  # display name -> text
    # display name of the file each top-level YAML key came from (variants override keys)
    key_origin: dict[str, str] = field(default_factory=dict)
    positions_by_file: dict[str, PositionIndex] = field(default_factory=dict)
    variant_chain: list[str] = field(default_factory=list)
    # Warnings found while reading and merging (a variant's near-namesake), to be
    # reported with the game's own.
    warnings: list[Diagnostic] = field(default_factory=list)
    # where the single entries that variants changed were written (`change:`)
    origins: Origins = field(default_factory=Origins)

    @property
    def name(self) -> str:
        return str(self.data.get("game", ""))


def load_definition(name_or_path: str, variant: Optional[str] = None) -> Definition:
    """Read and check the YAML and parse the rules; raise DefinitionError listing every problem."""
    diags = DiagnosticList()
    sources: dict[str, str] = {}
    path = resolve(name_or_path)
    chain: list[Path] = []
    if variant is not None:
        chain.append(Path(variant))
    data, positions, name = read_yaml(path, diags, sources)
    if data is not None and is_variant(data):
        # The variant's own path given as GAME: play the game it extends, with it.
        chain.insert(0, path)
        base_path, more = variant_chain(path, data, diags, sources, positions)
        # A variant whose `extends` leads nowhere has no game to check it against.
        diags.raise_if_errors(sources)
        chain = more + chain
        path = base_path
        data, positions, name = read_yaml(path, diags, sources)
    elif variant is not None:
        more = []
        vdata, vpositions, _ = read_yaml(Path(variant), diags, sources)
        if vdata is not None:
            _, more = variant_chain(Path(variant), vdata, diags, sources, vpositions)
        chain = more + [Path(variant)] if more else chain
    if data is None:
        diags.raise_if_errors(sources)
        raise DefinitionError(diags.sorted(), sources)
    strangers = unknown_setup_owners(data)
    for owner, hint in strangers:
        line, column = positions.locate(("setup", owner), key=True)
        diags.error(name, line, column, f"unknown player '{owner}'", hint=hint)
    diags.extend(check_against_schema(data, _schema("game.schema.json"), positions, name,
                                      reported=[("setup", owner) for owner, _ in strangers]))
    # The rules are read even when the YAML has problems: every mistake at once.
    rules = []
    for where, rel in rules_entries(data.get("rules")):
        origin = (name, positions.locate(where))
        inside = rules_path(path.parent, rel, diags, origin)
        parsed = read_rules(inside, diags, sources, origin) if inside is not None else None
        if parsed is not None:
            _refuse_changes(parsed, diags)
            rules.append(parsed)
    if diags.has_errors:
        raise DefinitionError(diags.sorted(), sources)
    definition = Definition(name, data, positions, rules, sources, {k: name for k in data}, {name: positions})
    if chain:
        apply_variants(definition, chain, diags)
    diags.raise_if_errors(sources)
    definition.warnings = diags.warnings
    return definition


# keys a variable's or an attribute's declaration has and a player's pieces never do
_DECLARATION_KEYS = frozenset({"type", "default", "hidden", "title", "values", "min", "max", "per_player"})


def unknown_setup_owners(data: dict[str, Any]) -> list[tuple[str, Optional[str]]]:
    """The entries of `setup` that name neither a player nor `neutral`, each with a
    hint. Found before the schema is asked, since an entry that is no owner at all
    (a variable declared a section too late) would otherwise be reported as the
    wrong shape of pieces, key by key, and never as what it is."""
    setup, players = data.get("setup"), data.get("players")
    if not isinstance(setup, dict) or not isinstance(players, list):
        return []
    names = [p if isinstance(p, str) else p.get("name") if isinstance(p, dict) else None for p in players]
    if not all(isinstance(n, str) for n in names) or len(set(names)) < len(names):
        return []  # what is wrong with the players is said first, by their own checks
    owners = [str(n) for n in names] + [NEUTRAL_NAME]
    found: list[tuple[str, Optional[str]]] = []
    for owner, body in setup.items():
        if not isinstance(owner, str) or owner in owners:
            continue
        hint = did_you_mean(owner, owners)
        if hint is None and isinstance(body, dict) and _DECLARATION_KEYS & set(body):
            hint = "this looks like a declaration: variables go under `variables:`, attributes under `attributes:`"
        found.append((owner, hint or f"`setup` lists the pieces of each player ({', '.join(owners)})"))
    return found


def _refuse_changes(rules: ast.RulesFile, diags: DiagnosticList) -> None:
    """`change phase` and `change decision` change what a game they extend has: a
    game's own rules have nothing to change."""
    for item in rules.items:
        if isinstance(item, ast.Change):
            pos = item.pos
            diags.error(pos.file, pos.line, pos.column,
                        f"'change {item.kind}' belongs in a variant's rules, not in a game's",
                        hint=f"write the whole {item.kind}: '{item.kind} {item.name}:'")


def locate(definition: Definition, path: tuple[Any, ...]) -> tuple[str, int, int]:
    """file, line, column of a YAML path of the (merged) definition; of the mapping
    key rather than its value when the path ends with `AT_KEY`."""
    from ..compilation.model import AT_KEY

    key = bool(path) and path[-1] is AT_KEY
    if key:
        path = path[:-1]
    changed = definition.origins.find(path)
    if changed is not None:
        file, in_file = changed
        line, col = definition.positions_by_file[file].locate(in_file, key=key)
        return file, line, col
    file = definition.key_origin.get(path[0], definition.yaml_file) if path else definition.yaml_file
    if file not in definition.positions_by_file:  # a description ("X, defaults changed by Y"), not a file
        file = definition.yaml_file
    positions = definition.positions_by_file.get(file, definition.positions)
    line, col = positions.locate(path, key=key)
    return file, line, col
