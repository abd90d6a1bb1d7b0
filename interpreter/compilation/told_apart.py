"""Notations that cannot tell an action's candidates apart.

A case whose notation leaves out `{to}` writes one text for every site the action
can land on from one start (for every start too, without `{from}`; for every site
a drop or select chooses). Every legal action is listed once (docs/interface.md),
so such candidates are merged while listing, the first kept (decisions.py), and
where the rules show that they arise — a piece that can land on two sites, a drop
on a region of two sites — the notation is an error: the actions merged away could
never be played.

Only what the rules prove is reported: where the action lands depends on the
position (a walk, a set of pieces) or a `where` condition reads the landing site,
two landings need not both be legal, and play decides (`regelwerk lint`).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Collection, Mapping, Optional, Sequence

from ..parsing import ast
from ..parsing.visit import reaches
from .errors import RuleError
from .model import GameModel
from .reach import Reach

TO = "{to}"
FROM = "{from}"
# Past this many texts a template's notations are not written out one by one:
# only their first and last characters are compared.
MAX_TEXTS = 20_000
# Names whose condition may keep an action to one landing site.
_LANDING_NAMES = frozenset({"to", "target", "jumped"})


def untold_templates(action: ast.Action, templates: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The templates (of `action`'s cases, in order) that leave the landing site out,
    but for `off board` cases, which land nowhere."""
    return [t for case, t in zip(action.cases, templates) if case.kind != "off" and TO not in t]


def one_landing(pattern: Optional[ast.Pattern]) -> bool:
    """Whether a pattern lands on one site at most from one start (in one position,
    for one value of the action's `for each`): an exact number of steps along a
    track. Its candidates from one start are then one, whatever its notation
    leaves out."""
    return isinstance(pattern, ast.AlongPattern) and pattern.distance.high is None \
        and not pattern.distance.unbounded


def one_site_chosen(pattern: Optional[ast.Pattern], model: GameModel,
                    fixed: Optional[Mapping[str, frozenset[int]]] = None) -> bool:
    """Whether a drop or select chooses one site at most for each player: its
    sites, as the rules alone say them (`static_sites`; `fixed`: the sites of
    the region an action's copy is made for, by the name of its `for each`), are
    one or none. Its candidates are then one, whatever its notation leaves out
    (as with `one_landing`)."""
    if not isinstance(pattern, (ast.DropPattern, ast.SelectPattern)):
        return False
    per_player = static_sites(pattern.targets, model, fixed)
    return per_player is not None and all(len(sites) <= 1 for sites in per_player)


def lands_by_value(pattern: Optional[ast.Pattern], name: str, model: GameModel,
                   directions: Optional[Sequence[int]] = None, defines: Collection[str] = ()) -> bool:
    """Whether the copies of an action for distinct values of its `for each`
    (`name`) never land on one site from one start: it goes exactly the value's
    number of steps along a track that does not loop and passes each site once
    (each player's), so two distances land on two sites — or both beyond the
    end, off the board, where they may land alike. Or it goes to a site along
    the ray from its start in the value's direction (`go to beyond(from, NAME,
    ...)`, `neighbour(from, NAME)`), the values being `directions`, no two of
    whose rays from any site share a site."""
    if isinstance(pattern, ast.GoPattern):
        return directions is not None and _along_the_value(pattern.targets, name, defines) \
            and _rays_apart(model, tuple(directions))
    if not one_landing(pattern):
        return False
    assert isinstance(pattern, ast.AlongPattern)
    distance = pattern.distance.low
    track = model.tracks.get(pattern.track.id)
    return isinstance(distance, ast.Name) and distance.id == name and track is not None \
        and not any(track.loop) and all(len(set(sites)) == len(sites) for sites in track.sites)


def chooses_by_value(pattern: Optional[ast.Pattern], name: str, model: GameModel,
                     regions: Sequence[Optional[frozenset[int]]]) -> bool:
    """Whether the copies of a drop or select for distinct values of its `for each`
    (`name`), each value a region (`regions`, None where a value is not one),
    never choose one site: the sites each copy chooses among, as the rules alone
    say them with the name standing for its value's sites (`static_sites`: the
    sites chosen are among them), are apart for every player."""
    if not isinstance(pattern, (ast.DropPattern, ast.SelectPattern)) or any(r is None for r in regions):
        return False
    chosen = [static_sites(pattern.targets, model, {name: region}) for region in regions if region is not None]
    if any(sites is None for sites in chosen):
        return False
    for player in range(len(model.players)):
        seen: set[int] = set()
        for sites in chosen:
            assert sites is not None
            if not seen.isdisjoint(sites[player]):
                return False
            seen |= sites[player]
    return True


def _along_the_value(targets: ast.Expr, name: str, defines: Collection[str]) -> bool:
    """Whether `targets` is a site along the ray from `from` in the direction `name`."""
    return isinstance(targets, ast.Call) and targets.fn in ("beyond", "neighbour") and targets.fn not in defines \
        and len(targets.args) >= 2 and isinstance(targets.args[0], ast.Name) and targets.args[0].id == "from" \
        and isinstance(targets.args[1], ast.Name) and targets.args[1].id == name


def _rays_apart(model: GameModel, directions: tuple[int, ...]) -> bool:
    """Whether no two of `directions` (indices of the board's rays) have rays from
    one site that share a site."""
    rays = model.board.rays
    if len(set(directions)) != len(directions) or any(not 0 <= d < len(rays) for d in directions):
        return False
    return all(set(rays[a][s]).isdisjoint(rays[b][s]) for i, a in enumerate(directions) for b in directions[i + 1:]
               for s in range(len(rays[a])))


def check_told_apart(action: ast.Action, templates: Sequence[tuple[str, ...]], reach: Optional[Reach], model: GameModel,
                     defines: dict[str, ast.Define]) -> Optional[RuleError]:
    """The error for an action whose notation provably writes two of its candidates
    alike, or None."""
    untold = untold_templates(action, templates)
    if not untold or action.pattern is None or isinstance(action.pattern, ast.PassPattern):
        return None
    if any(_reads_landing(where, defines) for where in action.wheres):
        return None
    example = _two_landings(action.pattern, reach, model)
    if example is None:
        return None
    start, landings = example
    case = next(c for c, t in zip(action.cases, templates) if t in untold)
    pos = case.notation_pos or action.notation_pos or case.pos
    template = next(t for c, t in zip(action.cases, templates) if c is case)
    written = "".join(start if part == "{from}" else "" if part.startswith(("{", "={")) else part for part in template)
    where = f"from {start} it can land on {landings[0]} and {landings[1]}" if start else \
        f"it can choose {landings[0]} and {landings[1]}"
    return RuleError(pos, f"the notation of action '{action.name}' leaves out {TO}: {where}, both written "
                          f"'{written}' (only the first would be listed)",
                     "put {to} in the notation, e.g. \"{from}-{to}\"" if start else "put {to} in the notation, "
                     "e.g. \"@{to}\"")


def _two_landings(pattern: ast.Pattern, reach: Optional[Reach],
                  model: GameModel) -> Optional[tuple[str, tuple[str, str]]]:
    """(a start site's name or "", two landing sites' names) that one candidate each
    can reach, when the rules show them; None otherwise."""
    names = model.board.names
    if isinstance(pattern, (ast.DropPattern, ast.SelectPattern)):
        per_player = static_sites(pattern.targets, model)
        for sites in per_player or ():
            if len(sites) >= 2:
                a, b = sorted(sites)[:2]
                return "", (names[a], names[b])
        return None
    if reach is None:
        return None
    if reach.anywhere is not None:
        on_board = sorted(s for s in reach.anywhere if s != -1)
        for start in range(len(names)):
            others = [s for s in on_board if s != start]
            if len(others) >= 2:
                return names[start], (names[others[0]], names[others[1]])
        return None
    for per_site in reach.table or ():
        for start, sites in enumerate(per_site):
            on_board = sorted(s for s in sites if s != -1)
            if len(on_board) >= 2:
                return names[start], (names[on_board[0]], names[on_board[1]])
    return None


def static_sites(e: ast.Expr, model: GameModel,
                 fixed: Optional[Mapping[str, frozenset[int]]] = None) -> Optional[list[frozenset[int]]]:
    """The sites of a set expression per player (index in play), when the rules alone
    say them: regions (`home[player]`, `home[opponent]` with two players), site
    names, lists of them, `sites`, `+` and `-` of those, and the names in `fixed`
    (an action's `for each` value that is a region: its sites). None otherwise."""
    players = len(model.players)
    board = model.board
    if isinstance(e, ast.Name):
        if fixed and e.id in fixed:
            return [fixed[e.id]] * players
        if e.id == "sites":
            return [frozenset(range(len(board.names)))] * players
        region = model.regions.get(e.id)
        if region is not None and not region.per_player:
            return [frozenset(region.sites[0])] * players
        if e.id in board.index:
            return [frozenset({board.index[e.id]})] * players
        return None
    if isinstance(e, ast.Index) and isinstance(e.obj, ast.Name) and isinstance(e.index, ast.Name):
        region = model.regions.get(e.obj.id)
        if region is None or not region.per_player:
            return None
        whose = e.index.id
        if whose == "player":
            return [frozenset(region.sites[p]) for p in range(players)]
        if whose == "opponent" and players == 2:
            return [frozenset(region.sites[1 - p]) for p in range(players)]
        if whose in model.players:
            return [frozenset(region.sites[model.players.index(whose)])] * players
        return None
    if isinstance(e, ast.ListLit):
        sites = set()
        for item in e.items:
            if not (isinstance(item, ast.Name) and item.id in board.index):
                return None
            sites.add(board.index[item.id])
        return [frozenset(sites)] * players
    if isinstance(e, ast.BinOp) and e.op in ("+", "-"):
        left, right = static_sites(e.left, model, fixed), static_sites(e.right, model, fixed)
        if left is None or right is None:
            return None
        return [a | b if e.op == "+" else a - b for a, b in zip(left, right)]
    return None


def _reads_landing(e: ast.Expr, defines: dict[str, ast.Define], seen: Optional[set[str]] = None) -> bool:
    """Whether a condition reads the landing site (itself or in a define it uses)."""
    return reads_names(e, defines, _LANDING_NAMES, seen)


def reads_names(e: ast.Expr, defines: dict[str, ast.Define], names: frozenset[str],
                seen: Optional[set[str]] = None) -> bool:
    """Whether an expression reads one of `names` (itself or in a define it uses)."""
    return reaches(e, defines, lambda node: (node.id if isinstance(node, ast.Name) else
                                             node.fn if isinstance(node, ast.Call) else None) in names, seen)


# ---------------------------------------------------------------- templates that may write alike
def may_write_alike(a: tuple[str, ...], b: tuple[str, ...], names: Sequence[str],
                    off: Collection[tuple[str, ...]] = ()) -> bool:
    """Whether two notation templates can ever write the same text (their literal
    parts and the fields they show: `{from}` and `{to}` write site names, `{from}`
    nothing for no site, `{to}` "off" in a template of an `off board` case (`off`);
    any other field any text). Sound: False only where no two texts can be equal —
    all of both written out when there are few, else their possible first and last
    characters compared, and the characters one always writes (its literal
    text's) with those the other can write at all."""
    if a == b:
        return True
    # (asked of every pair of a decision's actions, which share few templates:
    # the answer is kept by value, not worked out again for each pair)
    return _may_write_alike(a, b, tuple(names), a in off, b in off)


@lru_cache(maxsize=1024)
def _may_write_alike(a: tuple[str, ...], b: tuple[str, ...], names: tuple[str, ...], a_off: bool,
                     b_off: bool) -> bool:
    texts_a, texts_b = template_texts(a, names, a_off), template_texts(b, names, b_off)
    if texts_a is not None and texts_b is not None:
        return not texts_a.isdisjoint(texts_b)
    for end in (-1, 0):
        ends_a, ends_b = _end_chars(a, names, end, a_off), _end_chars(b, names, end, b_off)
        if ends_a is not None and ends_b is not None and ends_a.isdisjoint(ends_b):
            return False
    for one, other, other_off in ((a, b, b_off), (b, a, a_off)):
        written = _written_chars(other, names, other_off)
        if written is not None and not _literal_chars(one) <= written:
            return False
    return True


def _literal_chars(template: tuple[str, ...]) -> frozenset[str]:
    """The characters every text of the template writes: its literal text's."""
    return frozenset(char for part in template if not _is_field(part) for char in part)


def _written_chars(template: tuple[str, ...], names: Sequence[str], off: bool) -> Optional[frozenset[str]]:
    """The characters a text of the template may write; None when a field may write anything."""
    if not site_fields_only(template):
        return None
    return _literal_chars(template) | _name_chars(tuple(names)) | (frozenset("off") if off else frozenset())


@lru_cache(maxsize=16)
def _name_chars(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(char for name in names for char in name)


def tells_landing(template: tuple[str, ...], names: Sequence[str]) -> bool:
    """Whether every text the template writes tells the landing site: `{to}` is its
    last field and no site's name ends another's (read from the end, the text
    past the literal tail ends with one name only), or its first field and no
    name begins another's."""
    fields = [part for part in template if _is_field(part)]
    if TO not in fields:
        return False
    return fields[-1] == TO and _prefix_free(tuple(name[::-1] for name in names)) or \
        fields[0] == TO and _prefix_free(tuple(names))


@lru_cache(maxsize=16)
def _prefix_free(names: tuple[str, ...]) -> bool:
    """Whether no name begins another (in sorted order, one that does comes just
    before another that it begins)."""
    ordered = sorted(set(names))
    return len(ordered) == len(names) and not any(b.startswith(a) for a, b in zip(ordered, ordered[1:]))


def site_fields_only(template: tuple[str, ...]) -> bool:
    """Whether a template shows nothing but literal text and `{from}`/`{to}`."""
    return all(part in (FROM, TO) or not _is_field(part) for part in template)


def template_texts(template: tuple[str, ...], names: Sequence[str], off: bool = False) -> Optional[frozenset[str]]:
    """Every text the template can write (a superset; `off`: of an `off board`
    case), when it shows sites and literal text only and they are at most
    MAX_TEXTS; else None."""
    if not site_fields_only(template):
        return None
    texts = {""}
    for part in template:
        values = _field_values(part, names, off) if _is_field(part) else (part,)
        if len(texts) * len(values) > MAX_TEXTS:
            return None
        texts = {text + value for text in texts for value in values}
    return frozenset(texts)


def _is_field(part: str) -> bool:
    return part.startswith(("{", "={"))


def _field_values(part: str, names: Sequence[str], off: bool) -> tuple[str, ...]:
    """The texts a site field writes (engine.notation): a site's name, or for no
    site nothing (`{from}`: drops, selects) or "off" (`{to}` of an `off board` case)."""
    return tuple(names) + (("",) if part == FROM else ("off",) if off else ())


def _end_chars(template: tuple[str, ...], names: Sequence[str], end: int, off: bool) -> Optional[frozenset[str]]:
    """The characters a text of the template can end with (end -1) or start with
    (end 0), "" for an empty text; None when a field may write anything."""
    parts = template[::-1] if end == -1 else template
    chars: set[str] = set()
    for part in parts:
        if not _is_field(part):
            if part:
                return frozenset(chars | {part[end]})
            continue
        if part not in (FROM, TO):
            return None
        values = _field_values(part, names, off)
        chars |= {value[end] for value in values if value}
        if all(values):
            return frozenset(chars)
    return frozenset(chars | {""})
