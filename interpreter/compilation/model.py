"""The structural part of a definition (the YAML), resolved into indices.

`build_model` takes schema-valid YAML data and the chosen option values and
produces a `GameModel`: players in play, board tables, regions as site masks,
piece kinds, attribute and variable layouts, pools and the setup. Problems are
reported through `report(path, message, hint)` with the YAML path of the culprit,
so that the caller can turn them into `file:line:column` diagnostics.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Optional, Sequence

from ..limits import MAX_DIRECTION_OFFSETS, MAX_NUMBER
from ..loading.option_numbers import read_option_number
from ..loading.options import board_size_numbers, board_size_options, effective_values
from ..runtime.pieces import FIRST_ATTRIBUTE, NEUTRAL_NAME
from ..spelling import did_you_mean
from . import board as boards
from .names import BUILTIN_PROPERTIES, CONTEXT_NAMES, reserved_word

if TYPE_CHECKING:
    from ..loading.options import Option

# The YAML of a definition (schema-valid), and the path of a part of it.
Data = dict[str, Any]
Path = tuple[Any, ...]
Report = Callable[[Path, str, Optional[str]], None]
# site(name, path): the index of a named site (reporting an unknown one at path), or -1
SiteFinder = Callable[[Any, Path], int]


class _AtKey:
    def __repr__(self) -> str:
        return "AT_KEY"


# Last element of a reported YAML path when the mistake is the mapping key itself
# (an unknown piece kind or player used as a key): point at the key, not its value.
AT_KEY = _AtKey()


@dataclass
class Region:
    name: str
    # A shared region has one set; a per-player region has one set per player index.
    per_player: bool
    sites: list[tuple[int, ...]]  # one entry (shared) or one per player
    masks: list[list[bool]]  # same shape; each mask has a trailing False for site -1


@dataclass
class Attribute:
    name: str
    index: int  # position in the piece tuple
    type: str  # "int", "flag", "marker"
    default: int | bool


@dataclass
class Kind:
    name: str
    index: int
    symbol: str
    value: int
    neutral: bool


@dataclass
class Variable:
    name: str
    offset: int
    per_player: bool
    type: str  # "int", "flag" or "site" (a site's index, -1 for none)
    default: int
    in_position: bool = True  # part of the position when repetitions are counted
    # per player in play, when the default is given per player (`default: {red: e1, black: e10}`)
    defaults: tuple[int, ...] = ()


@dataclass
class Track:
    """An ordered path of sites (one per player for a per-player track)."""

    name: str
    per_player: bool
    sites: list[tuple[int, ...]]  # one entry (shared) or one per player
    loop: list[bool]  # per entry: whether the first site follows the last


@dataclass
class Placement:
    """A piece of the setup: where, whose, which kind, and attributes that start
    other than at their defaults ((index in the piece tuple, value), ...)."""

    site: int
    owner: int
    kind: int
    attributes: tuple[tuple[int, Any], ...] = ()  # (index in the piece, value)
    height: int = 1  # stones of the owner's colour (with stacks)


@dataclass
class Pool:
    name: str
    offset: int  # one counter per player from here
    initial: int
    kind: Optional[int]  # kind of the pieces waiting in it, if they can enter the board
    sites: list[int]  # per player: the board site where the pool stands, or -1


@dataclass
class GameModel:
    name: str
    title: str
    all_players: list[str]
    players: list[str]  # in play, in turn order
    player_colors: dict[str, str]
    forward: list[Optional[str]]  # per player index
    board: boards.Board
    regions: dict[str, Region]
    direction_sets: dict[str, list[tuple[int, ...]]]  # name -> per player: direction indices
    kinds: dict[str, Kind]
    attributes: dict[str, Attribute]
    stacks: bool
    pools: dict[str, Pool]
    variables: dict[str, Variable]
    options: dict[str, Any]
    option_specs: dict[str, Option]
    lines: list[tuple[int, ...]]
    vars_size: int
    setup: list[Placement]
    tracks: dict[str, Track] = field(default_factory=dict)
    pool_site_of: list[int] = field(default_factory=list)  # site -> pool offset base, -1 (trailing -1)
    # name -> its members in play (player indices, in turn order); teams with none in play left out
    teams: dict[str, tuple[int, ...]] = field(default_factory=dict)

    @property
    def player_count(self) -> int:
        return len(self.players)

    def fresh_piece(self, owner: int, kind: int) -> tuple[Any, ...]:
        stones = (owner,) if self.stacks else None
        return (owner, kind, stones) + tuple(a.default for a in self.attributes_in_order())

    def attributes_in_order(self) -> list[Attribute]:
        return sorted(self.attributes.values(), key=lambda a: a.index)


DEFAULT_COLORS = ["#e8e4d8", "#303030", "#d62728", "#1f77b4", "#2ca02c", "#ffbf00", "#9467bd", "#8c564b"]


def _check_names(data: Data, report: Report) -> None:
    """Names the rules could not use as declared: a region, variable or pool named like
    a word the rules give a meaning of their own (`player`, `to`, ...), one name
    declared twice (a region and a pool `home`), an attribute named like a built-in
    property. Without this check the rules would silently see the other meaning."""

    reserved = dict(CONTEXT_NAMES, it="each element in count/exists/all and 'pieces ... where'")
    first: dict[Any, str] = {}  # (a name, but a stranger's YAML may give a number)
    for i, player in enumerate(data.get("players") or []):
        name = player.get("name") if isinstance(player, dict) else player
        path = ("players", i, "name") if isinstance(player, dict) else ("players", i)
        if name == NEUTRAL_NAME:
            report(path, f"'{NEUTRAL_NAME}' cannot name a player: the setup uses it for the pieces of no player",
                   "choose another name")
        elif isinstance(name, str) and reserved_word(name):
            report(path, f"{reserved_word(name)}: it cannot name a player", "choose another name")
        elif name in reserved:
            report(path, f"'{name}' cannot name a player: in the rules '{name}' means {reserved[name]}",
                   "choose another name")
        elif name in first:
            report(path, f"player '{name}' is declared twice", None)
        first.setdefault(name, "player")
    for section, word in (("regions", "region"), ("variables", "variable"), ("pools", "pool"), ("options", "option"),
                          ("tracks", "track"), ("pieces", "piece kind"), ("attributes", "attribute"),
                          ("directions", "direction set")):
        for name in data.get(section) or {}:
            # (a variable or pool named like a statement's first word can still be read:
            # definitions doing so validate; assigning it is a parse error that says why)
            why = isinstance(name, str) and reserved_word(name)
            if why:
                report((section, name, AT_KEY), f"{why}: it cannot name a {word}", "choose another name")
                continue
            if section in ("pieces", "attributes", "directions"):
                continue  # checked for the rules' own words only
            if section != "options" and name in reserved:
                report(
                    (section, name, AT_KEY),
                    f"'{name}' cannot name a {word}: in the rules '{name}' means {reserved[name]}",
                    "choose another name",
                )
            elif name in first:
                report(
                    (section, name, AT_KEY),
                    f"'{name}' is already the name of a {first[name]}: in the rules a name means one thing",
                    "choose another name",
                )
            first.setdefault(name, word)
    for name in data.get("attributes") or {}:
        if name in BUILTIN_PROPERTIES:
            report(
                ("attributes", name, AT_KEY),
                f"'{name}' cannot name an attribute: '.{name}' is the built-in {name} of a piece",
                "choose another name",
            )


def build_model(data: Data, specs: dict[str, Option], option_values: dict[str, Any], report: Report) -> GameModel:
    """The `GameModel` of a definition's YAML data; problems go to `report`. `specs`
    are the definition's options and `option_values` the values chosen, already
    checked (loading/options.py)."""
    _check_names(data, report)
    options = effective_values(specs, option_values, report)
    all_players = [p["name"] if isinstance(p, dict) else p for p in data["players"]]
    colors, forward_by_name = _player_colors_and_forward(data["players"], all_players)
    _check_in_play(data, specs, all_players, report)
    players = _players_in_play(data, all_players, options, report)
    forward = [forward_by_name.get(name) for name in players]
    sized = board_size_options(data)
    board = _build_board(data["board"], options, report, _direction_offsets(data.get("directions") or {}, report))
    site = _site_finder(board, report, _sized_note(board, sized, options))
    kinds = _kinds(data)
    attributes = _attributes(data)
    variables, offset = _variables(data, players, all_players, board, options, report)
    pools, pool_site_of, offset = _pools(data, kinds, players, all_players, site, board, offset, options, report)
    regions = _regions(data, players, board, site, report, options)
    return GameModel(
        name=str(data.get("game", "")),
        title=str(data.get("title", data.get("game", ""))),
        all_players=all_players,
        players=players,
        player_colors=colors,
        forward=forward,
        board=board,
        regions=regions,
        direction_sets=_direction_sets(board, data.get("directions") or {}, forward, report, players),
        kinds=kinds,
        attributes=attributes,
        stacks=bool(data.get("stacks", False)),
        pools=pools,
        variables=variables,
        options=options,
        option_specs=specs,
        lines=[tuple(site(s, ("lines", i, j)) for j, s in enumerate(line))
               for i, line in enumerate(data.get("lines") or [])],
        vars_size=offset,
        setup=_setup(data, players, all_players, kinds, attributes, site, board, report, regions, options),
        pool_site_of=pool_site_of,
        tracks=_tracks(data.get("tracks") or {}, players, site, report),
        teams=_teams(data, all_players, players, report),
    )


def _player_colors_and_forward(players_raw: list[Any],
                               all_players: list[str]) -> tuple[dict[str, str], dict[str, Optional[str]]]:
    """({player: colour}, {player: forward direction or None}) of every player."""
    colors, forward = {}, {}
    for i, (name, spec) in enumerate(zip(all_players, players_raw)):
        given = spec if isinstance(spec, dict) else {}
        colors[name] = given.get("color") or DEFAULT_COLORS[i % len(DEFAULT_COLORS)]
        forward[name] = given.get("forward")
    return colors, forward


def _site_finder(board: boards.Board, report: Report, sized: str = "") -> SiteFinder:
    """site(name, yaml path) -> the site's index, or -1 after reporting an unknown one
    (with the options that size the board, `sized`, when there are some)."""
    index = board.index

    def site(name: Any, path: Path) -> int:
        key = str(name)
        if key not in index:
            report(path, f"unknown site '{key}'{sized}", _hint(key, index))
            return -1
        return index[key]

    return site


def _regions(data: Data, players: list[str], board: boards.Board, site: SiteFinder,
             report: Report, options: dict[str, Any]) -> dict[str, Region]:
    specs = data.get("regions") or {}
    regions: dict[str, Region] = {}
    building: list[str] = []

    def sites_named(name: str, at: Path) -> tuple[int, ...]:
        """The sites of the shared region `name`, which a rule names (`except: star`),
        built first where it comes later in `regions`."""
        if name not in specs:
            report(at, f"unknown region '{name}'", _hint(name, specs))
            return ()
        if name in building:
            report(at, f"region '{name}' is made of itself: " + " -> ".join(building[building.index(name):] + [name]),
                   "a region may name only regions that do not name it")
            return ()
        if name not in regions:
            building.append(name)
            build(name, specs[name])
            building.pop()
        region = regions[name]
        if region.per_player:
            report(at, f"region '{name}' differs per player: a rule can name only a region shared by all players",
                   "write its sites here, or name it per player in this region's per_player")
            return ()
        return region.sites[0]

    named = RegionNamed(specs.keys(), sites_named)

    def build(name: str, spec: Any) -> None:
        path = ("regions", name)
        if isinstance(spec, dict) and "per_player" in spec:
            per = []
            for pname in players:
                sub = spec["per_player"].get(pname)
                if sub is None:
                    report(path + ("per_player",), f"region '{name}' has no sites for player '{pname}'", None)
                    sub = []
                per.append(_region_sites(sub, board, site, path + ("per_player", pname), report, named, options))
            regions[name] = Region(name, True, per, [_mask(s, board.size) for s in per])
        else:
            sites = _region_sites(spec, board, site, path, report, named, options)
            regions[name] = Region(name, False, [sites], [_mask(sites, board.size)])

    for name, spec in specs.items():
        if name not in regions:
            building.append(name)
            build(name, spec)
            building.pop()
    return {name: regions[name] for name in specs}


def _kinds(data: Data) -> dict[str, Kind]:
    kinds = {}
    for i, (name, spec) in enumerate((data.get("pieces") or {}).items()):
        spec = spec or {}
        symbol = str(spec.get("symbol", name[:1].upper()))
        kinds[name] = Kind(name, i, symbol, int(spec.get("value", 0)), spec.get("owner") == NEUTRAL_NAME)
    return kinds


def _attributes(data: Data) -> dict[str, Attribute]:
    attributes = {}
    for i, (name, spec) in enumerate((data.get("attributes") or {}).items()):
        value_type = spec.get("type", "int")
        default = spec.get("default", False if value_type in ("flag", "marker") else 0)
        if value_type in ("flag", "marker"):
            default = bool(default)
        elif isinstance(default, float) and default.is_integer():
            default = int(default)  # (`4.0` passes the schema's "integer": a whole number, as the rules type it)
        attributes[name] = Attribute(name, FIRST_ATTRIBUTE + i, value_type, default)
    return attributes


def _variables(data: Data, players: list[str], all_players: list[str], board: boards.Board,
               options: dict[str, Any], report: Report) -> tuple[dict[str, Variable], int]:
    """The variables, and the number of slots they take (a per-player one takes one
    slot per player in play). A site variable holds the site's index, a player variable
    the player's among those in play (-1: none)."""
    offset = 0
    variables = {}
    for name, spec in (data.get("variables") or {}).items():
        per_player = bool(spec.get("per_player", False))
        value_type = spec.get("type", "int")
        given = spec.get("default")
        path = ("variables", name, "default")
        defaults: tuple[int, ...] = ()
        if isinstance(given, dict):  # one default per player
            if not per_player:
                report(path, "a default per player needs 'per_player: true'",
                       "or give one default for the variable")
            for player in given:
                if player not in all_players:
                    report(path + (player,), f"unknown player '{player}'", _hint(player, all_players))
            defaults = tuple(_default_value(value_type, given.get(player), board, players, all_players, options,
                                            path + (player,), report)
                             for player in players)
            given = None
        default = _default_value(value_type, given, board, players, all_players, options, path, report)
        variables[name] = Variable(name, offset, per_player, value_type, default,
                                   bool(spec.get("in_position", True)), defaults if per_player else ())
        offset += len(players) if per_player else 1
    return variables, offset


def _default_value(value_type: str, given: Any, board: boards.Board, players: list[str], all_players: list[str],
                   options: dict[str, Any], path: Path, report: Report) -> int:
    """A variable's starting value (none, 0 or false when not given)."""
    if value_type == "site":
        return -1 if given is None else _default_site(board, str(given), path, report)
    if value_type == "player":
        return -1 if given is None else _default_player(str(given), players, all_players, path, report)
    if isinstance(given, str):  # (an int's: the schema takes no other text)
        return _number_with_options(given, options, path, report, "e.g. default: start_points")
    return int(given or 0)


# The largest count a pool starts with (the schema's bound on a number written out).
MAX_POOL = 100_000


def _number_with_options(text: str, options: dict[str, Any], path: Path, report: Report, hint: str,
                         least: int = -MAX_NUMBER, most: int = MAX_NUMBER) -> int:
    """A whole number the YAML writes with options (`wall_count`, `2 * size`), its
    problems reported (0 then)."""
    try:
        value = read_option_number(text).value(options)
    except ValueError as problem:
        report(path, str(problem), hint)
        return 0
    if not least <= value <= most:
        report(path, f"'{text}' is {value} with these options, and it must lie between {least} and {most}", None)
        return 0
    return value


def _default_player(name: str, players: list[str], all_players: list[str], path: Path, report: Report) -> int:
    """A player variable's default: the player's index among those in play; none
    (-1) for a player the options leave out, as the rules read that player's name."""
    if name not in all_players:
        report(path, f"unknown player '{name}'", _hint(name, all_players))
        return -1
    return players.index(name) if name in players else -1


def _default_site(board: boards.Board, name: str, path: Path, report: Report) -> int:
    """A site variable's default: the site's index, or -1 after reporting an
    unknown one with the nearest site (or name) there is."""
    if name in board.index:
        return board.index[name]
    nearest = board.nearest_site(name)
    report(path, f"unknown site '{name}'",
           f"did you mean '{nearest}'? ({name} is not on the board)" if nearest else _hint(name, board.index))
    return -1


def _pools(data: Data, kinds: dict[str, Kind], players: list[str], all_players: list[str], site: SiteFinder,
           board: boards.Board, offset: int, options: dict[str, Any],
           report: Report) -> tuple[dict[str, Pool], list[int], int]:
    """(the pools, the slot of the pool standing on each site or -1, the slots used
    after them): a pool's counts take one slot per player in play, after `offset`."""
    pools = {}
    pool_site_of = [-1] * (board.size + 1)
    for name, spec in (data.get("pools") or {}).items():
        kind_name = spec.get("kind")
        kind = None
        if kind_name is not None:
            if kind_name not in kinds:
                report(("pools", name, "kind"), f"unknown piece kind '{kind_name}'", _hint(kind_name, kinds))
            else:
                kind = kinds[kind_name].index
        sites = [-1] * len(players)
        for pname, sname in (spec.get("sites") or {}).items():
            if pname not in all_players:
                report(("pools", name, "sites", pname, AT_KEY), f"unknown player '{pname}'", _hint(pname, all_players))
                continue
            s = site(sname, ("pools", name, "sites", pname))
            if pname in players and s >= 0:
                sites[players.index(pname)] = s
                pool_site_of[s] = offset
        initial = spec.get("initial", 0)
        if isinstance(initial, str):
            initial = _number_with_options(initial, options, ("pools", name, "initial"), report,
                                           "e.g. initial: wall_count", least=0, most=MAX_POOL)
        pools[name] = Pool(name, offset, int(initial), kind, sites)
        offset += len(players)
    return pools, pool_site_of, offset


def _setup(data: Data, players: list[str], all_players: list[str], kinds: dict[str, Kind],
           attributes: dict[str, Attribute], site: SiteFinder, board: boards.Board, report: Report,
           regions: dict[str, Region], options: dict[str, Any]) -> list[Placement]:
    """The pieces on the board at the start (those of players not in play left out)."""
    setup = []
    placed: set[int] = set()
    for owner_name, placements in (data.get("setup") or {}).items():
        if owner_name == NEUTRAL_NAME:
            owner = -1
        elif owner_name in players:
            owner = players.index(owner_name)
        elif owner_name in all_players:
            continue  # a player not in play with these options
        else:
            report(("setup", owner_name, AT_KEY), f"unknown player '{owner_name}'",
                   _hint(owner_name, all_players + [NEUTRAL_NAME]))
            continue
        for kind_name, sites in (placements or {}).items():
            if kind_name not in kinds:
                report(("setup", owner_name, kind_name, AT_KEY), f"unknown piece kind '{kind_name}'",
                       _hint(kind_name, kinds))
                continue
            kind = kinds[kind_name]
            if kind.neutral != (owner == -1):
                whose, hint = (("neutral", f"set them up under '{NEUTRAL_NAME}:'") if kind.neutral else
                               ("owned by a player", f"set them up under a player, or give the kind "
                                                     f"'owner: {NEUTRAL_NAME}' (format.md 2.7)"))
                report(("setup", owner_name, kind_name, AT_KEY), f"pieces of kind '{kind_name}' are {whose}", hint)
            path = ("setup", owner_name, kind_name)
            found = _placements(sites, path) + _region_placements(sites, path, owner, regions, board, site, report,
                                                                  options)
            given_twice: dict[Path, list[str]] = {}  # (a region's sites share one place in the YAML)
            for sname, values, path in found:
                s = sname if isinstance(sname, _SiteIndex) else site(sname, path)
                height = _height(values, bool(data.get("stacks")), path, report)
                if s >= 0:
                    if s in placed:
                        given_twice.setdefault(path, []).append(board.names[s])
                    placed.add(s)
                    attrs = _setup_attributes({k: v for k, v in values.items() if k != "height"}, attributes, path,
                                              report, options)
                    setup.append(Placement(s, owner, kind.index, attrs, height))
            for path, names in given_twice.items():
                report(path, f"site '{names[0]}' is given two pieces in the setup" if len(names) == 1 else
                       f"sites {_some_names(names)} are given two pieces in the setup", None)
    return setup


def _some_names(names: list[str], shown: int = 4) -> str:
    """'a1', 'b1', 'c1' and 5 more: a few names of a long list, quoted."""
    quoted = [f"'{name}'" for name in names[:shown]]
    if len(names) > shown:
        return ", ".join(quoted) + f" and {len(names) - shown} more"
    return ", ".join(quoted[:-1]) + f" and {quoted[-1]}"


def _hint(name: str, candidates: Iterable[str]) -> Optional[str]:
    return did_you_mean(name, list(candidates))


def _players_in_play(data: Data, all_players: list[str], options: dict[str, Any], report: Report) -> list[str]:
    in_play = data.get("in_play")
    if not in_play:
        return list(all_players)
    option = in_play["option"]
    if option not in options:
        report(("in_play", "option"), f"unknown option '{option}'", _hint(option, options))
        return list(all_players)
    choices = {_written(k): v for k, v in in_play["choices"].items()}
    chosen = choices.get(_written(options[option]))
    if chosen is None:
        report(("in_play", "choices", AT_KEY), _no_choice(option, options[option]), _EVERY_VALUE)
        return list(all_players)
    # Turn order follows the declaration order of the players.
    return [p for p in all_players if p in chosen]


_EVERY_VALUE = "every value the option can take needs its list of players under 'choices'"


def _no_choice(option: str, value: Any) -> str:
    return f"no list of players for {option}={_written(value)}"


def _written(value: Any) -> str:
    """An option's value or a key of `choices` as a definition writes it: a flag's
    `true`/`false` whether YAML read the key as a truth value or as text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _check_in_play(data: Data, specs: dict[str, Option], all_players: list[str], report: Report) -> None:
    """`in_play` for every value its option may take, not only the value chosen now:
    a missing entry or an unknown player is an error of the definition, found
    without trying each `--option`."""
    in_play = data.get("in_play")
    spec = specs.get(in_play["option"]) if in_play else None
    if spec is None or in_play is None:
        return  # no in_play, or an unknown option: said where the players are chosen
    for value in spec.possible_values():
        if _written(value) not in {_written(k) for k in in_play["choices"]}:
            report(("in_play", "choices", AT_KEY), _no_choice(spec.name, value), _EVERY_VALUE)
    for key, players in in_play["choices"].items():
        for i, player in enumerate(players):
            if player not in all_players:
                report(("in_play", "choices", key, i), f"unknown player '{player}'", _hint(player, all_players))


def _teams(data: Data, all_players: list[str], players: list[str], report: Report) -> dict[str, tuple[int, ...]]:
    """`teams` as the players in play of each team (a team none of whose players is
    in play is left out). A player in two teams, an unknown player or a team named
    like a player is an error: a result names a winning team by its name."""
    teams: dict[str, tuple[int, ...]] = {}
    team_of: dict[str, str] = {}
    for name, members in (data.get("teams") or {}).items():
        if name in all_players:
            report(("teams", name, AT_KEY), f"team '{name}' has the name of a player: a result could mean either",
                   "choose another name")
        for i, player in enumerate(members):
            if player not in all_players:
                report(("teams", name, i), f"unknown player '{player}'", _hint(player, all_players))
            elif player in team_of:
                report(("teams", name, i), f"player '{player}' is already in team '{team_of[player]}'",
                       "a player plays in one team at most")
            else:
                team_of[player] = name
        in_play = tuple(i for i, p in enumerate(players) if team_of.get(p) == name)
        if in_play:
            teams[name] = in_play
    return teams


def _sized_note(board: boards.Board, sized: list[str], options: dict[str, Any]) -> str:
    """What a message about a site the board lacks adds when options size the board."""
    if not sized:
        return ""
    chosen = ", ".join(f"{name}={_written(options.get(name))}" for name in sized)
    last = boards.FILE_LETTERS[board.files - 1]
    return f": with {chosen} the board has files a to {last} and ranks 1 to {board.ranks}"


def _direction_offsets(custom: dict[str, list[Any]], report: Report) -> tuple[tuple[int, int], ...]:
    """The offsets direction sets name, paired with their opposites (board.paired_offsets)."""
    offsets = []
    for name, members in custom.items():
        for j, member in enumerate(members):
            if isinstance(member, str):
                continue
            step = (int(member[0]), int(member[1]))
            if step == (0, 0):
                report(("directions", name, j), "a direction [0, 0] goes nowhere",
                       "an offset is [files east, ranks north], not both 0")
            elif step in boards.GRID_DIRECTIONS.values():
                compass = next(n for n, o in boards.GRID_DIRECTIONS.items() if o == step)
                report(("directions", name, j), f"the offset [{step[0]}, {step[1]}] is the direction {compass}",
                       f"write {compass}")
            if step in offsets:
                continue
            offsets.append(step)
            if len(boards.paired_offsets(offsets)) > MAX_DIRECTION_OFFSETS:
                report(("directions", name, j), f"direction sets name at most {MAX_DIRECTION_OFFSETS} offsets, "
                       "each with its opposite", "a ray is kept for each offset and each site")
                return ()
    return tuple(boards.paired_offsets(offsets))


def _build_board(spec: Data, options: dict[str, Any], report: Report,
                 direction_offsets: tuple[tuple[int, int], ...] = ()) -> boards.Board:
    if "grid" in spec:
        grid = spec["grid"]
        chosen = grid.get("neighbours", "orthogonal")
        listed = [chosen] if isinstance(chosen, str) else list(chosen)
        directions = boards.ABSOLUTE_SETS[chosen] if isinstance(chosen, str) else \
            tuple(dict.fromkeys(d for d in listed if isinstance(d, str)))
        alone = [d for d in directions if boards.OPPOSITE[d] not in directions]
        if alone:  # (groups and floods join sites both ways; a one-way board is a graph's `one_way`)
            report(("board", "grid", "neighbours"), f"a neighbour to the {alone[0]} needs its opposite, "
                   f"{boards.OPPOSITE[alone[0]]}: neighbours go both ways on a grid",
                   f"add {', '.join(boards.OPPOSITE[d] for d in alone)}")
        at = {(int(d[0]), int(d[1])): ("board", "grid", "neighbours", i) for i, d in enumerate(listed)
              if not isinstance(d, str)}
        offsets = tuple(at)
        for df, dr in offsets:
            if (df, dr) == (0, 0):
                report(at[df, dr], "a neighbour at the offset [0, 0] is the site itself",
                       "an offset is [files east, ranks north], not both 0")
            elif (df, dr) in boards.GRID_DIRECTIONS.values():
                name = next(n for n, o in boards.GRID_DIRECTIONS.items() if o == (df, dr))
                report(at[df, dr], f"the offset [{df}, {dr}] is the direction {name}",
                       f"write {name}")
            elif (-df, -dr) not in offsets:
                report(at[df, dr], f"a neighbour at the offset [{df}, {dr}] needs its "
                       f"opposite, [{-df}, {-dr}]: neighbours go both ways on a grid", f"add [{-df}, {-dr}]")
        # (a size an option gives: its values checked by `check_board_sizes`)
        sized = board_size_numbers({"board": spec})
        files, ranks = (sized[axis].value(options) if axis in sized else int(grid[axis]) for axis in ("files", "ranks"))
        return boards.build_grid(files, ranks, directions, offsets, direction_offsets)
    graph = spec["graph"]
    sites = graph["sites"]
    names = set(map(str, sites))
    sites = {str(k): v for k, v in sites.items()}
    chains: list[list[str]] = []
    one_way: list[list[str]] = []
    for key, out in (("edges", chains), ("one_way", one_way)):
        for i, chain in enumerate(graph.get(key) or []):
            good = True
            for j, s in enumerate(chain):
                if str(s) not in names:
                    report(("board", "graph", key, i, j), f"unknown site '{s}' in an edge", _hint(str(s), names))
                    good = False
            if good:
                out.append([str(s) for s in chain])
    return boards.build_graph(sites, chains, one_way)


_GRID_SITE = re.compile(r"[a-z][0-9]{1,3}")


@dataclass(frozen=True)
class RegionNamed:
    """A region rule's names: `sites_of(name, where it is named)` gives a shared region's
    sites (reporting an unknown name); `names` are the regions a rule may name, so a
    text that is neither a site nor one of them is reported as both."""
    names: Collection[str]
    sites_of: Callable[[str, Path], tuple[int, ...]]

    def __call__(self, name: str, at: Path) -> tuple[int, ...]:
        return self.sites_of(name, at)


def _region_sites(spec: Any, board: boards.Board, site: SiteFinder, path: Path, report: Report,
                  named: RegionNamed, options: dict[str, Any]) -> tuple[int, ...]:
    """A region is a list of sites, the name of another region, or a rule: ranks / files
    / edge / all / within / sites / the regions in `union`, only those also in `only`, minus those
    in `except` (each a region itself).
    (A rank or file the grid has not chooses nothing: validation warns about it.)"""
    if isinstance(spec, str):
        return named(spec, path)
    if isinstance(spec, list):
        return tuple(s for s in (site(x, path + (i,)) for i, x in enumerate(spec)) if s >= 0)
    chosen: set[int] = set()

    def lines(value: Any, axis: str) -> set[int]:
        try:
            return set(boards.line_indices(value, board.files if axis == "files" else board.ranks, axis == "files",
                                           options))
        except ValueError as problem:
            report(path + (axis,), f"{axis}: {problem}", "e.g. last - (size - 1), 1 to last by 2: whole numbers, "
                                                          "`last`, options, +, -, *, // and %")
            return set()

    if board.kind == "grid":
        for r in spec.get("ranks") or []:
            rows = lines(r, "ranks")
            chosen |= {s for s in range(board.size) if board.site_rank(s) in rows}
        for f in spec.get("files") or []:
            cols = lines(f, "files")
            chosen |= {s for s in range(board.size) if board.site_file(s) in cols}
        if spec.get("edge"):
            chosen |= {
                s
                for s in range(board.size)
                if board.site_rank(s) in (0, board.ranks - 1) or board.site_file(s) in (0, board.files - 1)
            }
    elif any(k in spec for k in ("ranks", "files", "edge")):
        report(path, "ranks, files and edge describe regions of grid boards only; list the sites", None)
    if spec.get("all"):
        chosen |= set(range(board.size))
    if "within" in spec:
        chosen |= _within(spec["within"], board, site, path + ("within",), report, named, options)
    for i, x in enumerate(spec.get("sites") or []):
        s = site(x, path + ("sites", i))
        if s >= 0:
            chosen.add(s)
    for i, part in enumerate(spec.get("union") or []):
        chosen |= set(_region_sites(part, board, site, path + ("union", i), report, named, options))
    has_parts = any(k in spec for k in ("ranks", "files", "edge", "all", "sites", "union", "within"))
    if "only" in spec:
        if not has_parts:
            report(path + ("only",), "'only' keeps the sites of the rule's other parts that are also in it, and "
                                     "this rule has no other part", "add the parts to choose from, e.g. "
                                     "{files: [b, d], only: {ranks: [2, 4]}}")
        chosen &= set(_region_sites(spec["only"], board, site, path + ("only",), report, named, options))
    elif "except" in spec and not has_parts:
        report(path + ("except",), "'except' takes sites out of the rule's other parts, and this rule has no "
                                   "other part", "add the parts to take them from, e.g. "
                                   "{all: true, except: {edge: true}}")
    if "except" in spec:
        chosen -= set(_region_sites(spec["except"], board, site, path + ("except",), report, named, options))
    return tuple(sorted(chosen))


def _within(spec: Data, board: boards.Board, site: SiteFinder, path: Path, report: Report,
            named: RegionNamed, options: dict[str, Any]) -> set[int]:
    """`within: {steps: N, of: ...}`: the sites at most N steps from a site, or from
    any site of a region (a list, a rule or a region's name); N may be written with
    options (`steps: size - 1`)."""
    steps = spec["steps"]
    if isinstance(steps, str):
        try:
            steps = read_option_number(steps).value(options)
        except ValueError as problem:
            report(path + ("steps",), f"steps: {problem}", "a whole number, or one written with whole-number "
                                                           "options: steps: size - 1")
            return set()
        if steps < 0:
            report(path + ("steps",), f"steps: '{spec['steps']}' is {steps} with these options, and steps are 0 "
                                      "or more", None)
            return set()
    of = spec["of"]
    # (a text that is no site and not shaped like a grid's site names a region)
    if isinstance(of, str) and of not in board.index and of not in named.names \
            and not (board.kind == "grid" and _GRID_SITE.fullmatch(of)):
        report(path + ("of",), f"unknown site or region '{of}'", _hint(of, [*board.index, *named.names]))
        return set()
    if isinstance(of, (list, dict)) or isinstance(of, str) and of not in board.index \
            and not (board.kind == "grid" and _GRID_SITE.fullmatch(of)):
        centres = _region_sites(of, board, site, path + ("of",), report, named, options)
    else:
        centre = site(of, path + ("of",))
        centres = (centre,) if centre >= 0 else ()
    return _within_steps(board, centres, steps) if centres else set()


def _within_steps(board: boards.Board, centres: tuple[int, ...], steps: int) -> set[int]:
    """The sites at most `steps` neighbour steps from any of `centres` (a breadth-first
    walk, which stops when a step adds no site: at most the board's size)."""
    reached = set(centres)
    frontier = list(centres)
    for _ in range(min(steps, board.size)):
        added = []
        for s in frontier:
            for n in board.adjacent[s]:
                if n not in reached:
                    reached.add(n)
                    added.append(n)
        if not added:
            break
        frontier = added
    return reached


def _mask(sites: tuple[int, ...], size: int) -> list[bool]:
    mask = [False] * (size + 1)
    for s in sites:
        mask[s] = True
    return mask


def _direction_sets(board: boards.Board, custom: dict[str, list[Any]], forward: list[Optional[str]], report: Report,
                    players: Sequence[str] = ()) -> dict[str, list[tuple[int, ...]]]:
    """Every direction name or set, resolved per player to direction indices."""
    if board.kind != "grid":
        return {}
    n = len(forward)
    idx = {d: i for i, d in enumerate(boards.DIRECTION_NAMES)}
    sets: dict[str, list[tuple[int, ...]]] = {}
    for direction in boards.DIRECTION_NAMES:
        sets[direction] = [(idx[direction],)] * n
    for name, absolute in boards.ABSOLUTE_SETS.items():
        sets[name] = [tuple(idx[d] for d in absolute)] * n
    forwards = [f for f in forward if f is not None]
    if len(forwards) == n:
        for name, offsets in boards.RELATIVE_SETS.items():
            sets[name] = [tuple(idx[d] for d in boards.relative_directions(forwards[p], offsets)) for p in range(n)]
    for name, members in custom.items():
        resolved: set[int] = set()
        per_player: list[tuple[int, ...]] = []
        for p in range(n):
            acc: list[int] = []
            for j, m in enumerate(members):
                if not isinstance(m, str):  # an offset (checked by _direction_offsets)
                    offset = board.direction_of_offset((int(m[0]), int(m[1])))
                    if offset is not None and offset not in acc:
                        acc.append(offset)
                    continue
                if m not in sets:
                    if p == 0:
                        report(("directions", name, j), *_unknown_direction(m, name, sets, custom, forward, players))
                    continue
                for d in sets[m][p]:
                    if d not in acc:
                        acc.append(d)
            per_player.append(tuple(acc))
            resolved |= set(acc)
        sets[name] = per_player
    return sets


def _unknown_direction(member: str, name: str, sets: dict[str, list[tuple[int, ...]]], custom: dict[str, list[str]],
                       forward: list[Optional[str]],
                       players: Sequence[str]) -> tuple[str, Optional[str]]:
    """(message, hint) for a member of direction set `name` that is not known there."""
    later = list(custom)
    if member in custom and later.index(member) >= later.index(name):
        return (f"direction set '{member}' is used before it is declared",
                f"declare '{member}' above '{name}' under 'directions'")
    if member in boards.RELATIVE_SETS:
        without = [players[i] if i < len(players) else str(i + 1) for i, f in enumerate(forward) if f is None]
        return (f"'{member}' is relative to each player's forward direction, and {', '.join(without)} "
                f"{'has' if len(without) == 1 else 'have'} none",
                "give every player 'forward' (e.g. forward: n) under 'players'")
    return f"unknown direction '{member}'", _hint(member, sets)


def _placements(spec: Any, path: Path) -> list[tuple[Any, dict[str, Any], Path]]:
    """(site name, attribute values, YAML path) of the pieces of one setup entry: a
    list of sites or {site: S, ATTR: V}, or {sites: [...], ATTR: V}."""
    if isinstance(spec, dict):
        region_given = "region" in spec and not isinstance(spec["region"], (bool, int))
        values = {k: v for k, v in spec.items() if k != "sites" and not (k == "region" and region_given)}
        return [(s, values, path + ("sites", j)) for j, s in enumerate(spec.get("sites") or [])]
    found = []
    for j, entry in enumerate(spec or []):
        if isinstance(entry, dict):
            found.append((entry.get("site"), {k: v for k, v in entry.items() if k != "site"}, path + (j,)))
        else:
            found.append((entry, {}, path + (j,)))
    return found


class _SiteIndex(int):
    """A site of the setup already found (by its region), not a name to look up."""


def _region_placements(spec: Any, path: Path, owner: int, regions: dict[str, Region], board: boards.Board,
                       site: SiteFinder, report: Report,
                       options: dict[str, Any]) -> list[tuple[int, dict[str, Any], Path]]:
    """(site, attribute values, YAML path) of the pieces `{region: REGION, ...}` puts on
    every site of a region: a region's name (a per-player one: the owner's sites) or
    a region written in place (a list of sites or a rule, as under `regions`)."""
    if not isinstance(spec, dict) or "region" not in spec or isinstance(spec["region"], (bool, int)):
        return []  # (an int or flag `region` is an attribute of that name)
    values = {k: v for k, v in spec.items() if k not in ("sites", "region")}
    where, at = spec["region"], path + ("region",)
    if isinstance(where, str):
        region = regions.get(where)
        if region is None:
            report(at, f"unknown region '{where}'", _hint(where, regions))
            return []
        if region.per_player and owner < 0:
            report(at, f"region '{where}' differs per player: neutral pieces cannot stand on 'its' sites",
                   "name a region shared by all players, or write the sites here")
            return []
        sites = region.sites[owner if region.per_player else 0]
    else:
        sites = _region_sites(where, board, site, at, report, _named_among(regions, report), options)
    return [(_SiteIndex(s), values, at) for s in sites]


def _named_among(regions: dict[str, Region], report: Report) -> RegionNamed:
    """A region rule's names read from the regions built (a setup entry's own rule)."""
    def sites_named(name: str, at: Path) -> tuple[int, ...]:
        region = regions.get(name)
        if region is None or region.per_player:
            report(at, f"unknown region '{name}'" if region is None else
                   f"region '{name}' differs per player: a rule can name only a region shared by all players",
                   _hint(name, regions) if region is None else None)
            return ()
        return region.sites[0]
    return RegionNamed(regions.keys(), sites_named)


def _height(values: dict[str, Any], stacks: bool, path: Path, report: Report) -> int:
    """A setup piece's number of stones (`height`, 1 by default; the schema bounds it)."""
    height = values.get("height", 1)
    if not isinstance(height, int) or isinstance(height, bool):
        return 1
    if height != 1 and not stacks:
        report(path, "'height' starts a stack of several stones: the game needs 'stacks: true'", None)
        return 1
    return height


def _setup_attributes(values: dict[str, Any], attributes: dict[str, Attribute], path: Path,
                      report: Report, options: dict[str, Any]) -> tuple[tuple[int, Any], ...]:
    """((index, value), ...) for the attribute values given to a setup piece (a
    whole number may be written with options: `seeds: num_seeds`)."""
    out = []
    for name, value in values.items():
        attr = attributes.get(name)
        if attr is None:
            report(path, f"unknown attribute '{name}'", _hint(name, attributes))
            continue
        if attr.type == "int" and isinstance(value, str):
            value = _number_with_options(value, options, path, report, f"e.g. {name}: seeds_per_pit")
        if attr.type == "int":
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > _NUMBER_LIMIT:
                report(path, f"attribute '{name}' takes a whole number (at most {_NUMBER_LIMIT:.0e}), not {value!r}",
                       None)
                continue
        elif not isinstance(value, bool):
            report(path, f"attribute '{name}' is a flag: true or false, not {value!r}", None)
            continue
        out.append((attr.index, value))
    return tuple(out)


_NUMBER_LIMIT = 10**15


def _tracks(spec: Data, players: list[str], site: SiteFinder, report: Report) -> dict[str, Track]:
    tracks = {}
    for name, raw in spec.items():
        path = ("tracks", name)
        if isinstance(raw, dict) and "per_player" in raw:
            entries = []
            for pname in players:
                sub = raw["per_player"].get(pname)
                if sub is None:
                    report(path + ("per_player",), f"track '{name}' has no sites for player '{pname}'", None)
                    sub = []
                entries.append(_track_sites(sub, site, path + ("per_player", pname), report))
            tracks[name] = Track(name, True, [e[0] for e in entries], [e[1] for e in entries])
        else:
            sites, loop = _track_sites(raw, site, path, report)
            tracks[name] = Track(name, False, [sites], [loop])
    return tracks


def _track_sites(raw: Any, site: SiteFinder, path: Path, report: Report) -> tuple[tuple[int, ...], bool]:
    """(sites, loop) of one track: a list of sites or {sites: [...], loop: bool}."""
    loop = False
    if isinstance(raw, dict):
        loop = bool(raw.get("loop", False))
        path = path + ("sites",)
        raw = raw.get("sites") or []
    sites = []
    for j, name in enumerate(raw or []):
        s = site(name, path + (j,))
        if s >= 0:
            if s in sites:
                report(path + (j,), f"site '{name}' is on the track twice", None)
                continue
            sites.append(s)
    return tuple(sites), loop
