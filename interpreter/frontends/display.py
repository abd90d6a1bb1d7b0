"""What a definition says about showing it, beyond the rules: titles of kinds,
attributes and variables, what is hidden, and the regions to mark (`display:`).

Everything comes from the definition's YAML (`game.definition.data`, after
variants), read here once for the renderers; a game without a definition (the
fakes of the tests) simply has no hints. Names in `display.regions` may be regions
(a per-player one is marked in each player's colour) or single sites.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Optional

if TYPE_CHECKING:
    from ..api import CheckedGame
    from .protocol import DescribedGame


DEFAULT_MARK_COLOUR = "#cfd8dc"
TEXT_MODES = ("auto", "drawing", "list")


@dataclass(frozen=True)
class RegionMark:
    """One marked region: its legend text, the symbol of its empty sites, and the
    colour of each of its sites."""

    name: str
    title: str
    symbol: Optional[str]
    colours: Mapping[str, str]  # site -> colour


@dataclass
class DisplayHints:
    kind_titles: dict[str, str] = field(default_factory=dict)
    attribute_titles: dict[str, str] = field(default_factory=dict)
    attribute_types: dict[str, str] = field(default_factory=dict)  # int, flag or marker
    hidden_attributes: set[str] = field(default_factory=set)
    variable_titles: dict[str, str] = field(default_factory=dict)
    hidden_variables: set[str] = field(default_factory=set)
    marks: list[RegionMark] = field(default_factory=list)
    text: str = "auto"
    unknown_regions: list[str] = field(default_factory=list)  # named in display.regions, found nowhere

    def kind_title(self, kind: str) -> str:
        return self.kind_titles.get(kind, kind)

    def attribute_title(self, name: str) -> str:
        return self.attribute_titles.get(name, name)

    def variable_title(self, name: str) -> str:
        return self.variable_titles.get(name, name)

    def mark_at(self, site: str) -> Optional[RegionMark]:
        """The first marked region that holds `site`."""
        for mark in self.marks:
            if site in mark.colours:
                return mark
        return None

    def shown_variables(self, variables: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in variables.items() if k not in self.hidden_variables}


def display_hints(game: DescribedGame) -> DisplayHints:
    """The hints of `game` (empty ones for a game without a YAML definition)."""
    definition = getattr(game, "definition", None)
    data = getattr(definition, "data", None)
    if not isinstance(data, Mapping):
        return DisplayHints()
    hints = DisplayHints()
    for kind, spec in _mapping(data.get("pieces")).items():
        if isinstance(spec, Mapping) and spec.get("title"):
            hints.kind_titles[kind] = str(spec["title"])
    _read_titles(data.get("attributes"), hints.attribute_titles, hints.hidden_attributes)
    for name, spec in _mapping(data.get("attributes")).items():
        if isinstance(spec, Mapping) and spec.get("type") in ("int", "flag", "marker"):
            hints.attribute_types[name] = spec["type"]
    _read_titles(data.get("variables"), hints.variable_titles, hints.hidden_variables)
    display = _mapping(data.get("display"))
    if display.get("text") in TEXT_MODES:
        hints.text = display["text"]
    for name, spec in _mapping(display.get("regions")).items():
        mark = _region_mark(game, name, _mapping(spec))
        if mark is None:
            hints.unknown_regions.append(name)
        else:
            hints.marks.append(mark)
    return hints


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _read_titles(section: Any, titles: dict[str, Any], hidden: set[Any]) -> None:
    for name, spec in _mapping(section).items():
        if not isinstance(spec, Mapping):
            continue
        if spec.get("title"):
            titles[name] = str(spec["title"])
        if spec.get("hidden") is True:
            hidden.add(name)


def _region_mark(game: DescribedGame, name: str, spec: Mapping[str, Any]) -> Optional[RegionMark]:
    """The mark of region (or site) `name`, or None when the game has neither."""
    regions = game.board.regions
    colour = str(spec["color"]) if spec.get("color") else None
    colours: dict[str, str] = {}
    if name in regions:
        colours = {site: colour or DEFAULT_MARK_COLOUR for site in regions[name]}
    else:
        for player in game.players:  # a per-player region: `name.player`
            for site in regions.get(f"{name}.{player}", ()):
                colours.setdefault(site, colour or game.player_colors.get(player, DEFAULT_MARK_COLOUR))
    if not colours and name in game.board.sites:
        colours = {name: colour or DEFAULT_MARK_COLOUR}
    if not colours:
        return None
    symbol = str(spec["symbol"])[:1] if spec.get("symbol") else None
    return RegionMark(name, str(spec.get("title") or name), symbol, colours)


def display_warnings(game: CheckedGame) -> list[Any]:
    """`validate` warnings for `display.regions` entries that name no region or site
    (the drawing leaves them out), at their place in the YAML."""
    from ..loading.definition import locate
    from ..validation.diagnostics import Diagnostic, suggest

    out = []
    hints = display_hints(game)
    known = [n.split(".")[0] for n in game.board.regions] + list(game.board.sites)
    regions = {n.split(".")[0] for n in game.board.regions}
    for name in hints.unknown_regions:
        file, line, column = locate(game.definition, ("display", "regions", name))
        if name in regions:  # (a region chosen by a rule the board has no site of)
            out.append(Diagnostic(file, line, column, f"display: region '{name}' has no site to mark",
                                  severity="warning"))
            continue
        best = suggest(name, sorted(set(known)))
        out.append(Diagnostic(file, line, column, f"display: no region or site '{name}' to mark",
                              severity="warning", hint=f"did you mean '{best}'?" if best else None))
    return out
