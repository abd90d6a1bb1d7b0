"""Values an action is made for and values its notation shows (docs/format.md 3.4,
3.8): `action NAME for each D in [A, B]:` and `notation "{from}-off:{D}"`.

An action `for each D in COLLECTION` is compiled once per value: COLLECTION is a
list in brackets (its elements worked out when the actions are listed, a value
met before skipped) or a set fixed when the rules are compiled (a region, a set
of directions, `players`), or the whole numbers `A to B` with A and B fixed when
the rules are compiled (none when B < A by an option). D is a local of each copy:
set from its element at the start of the listing (before the action's conditions)
and at the start of each case's function (the value the action was listed with:
nothing has changed yet).

A notation field `{NAME}` names D, a variable that is not per player, or an
option: an option's value is written into the template when the rules are
compiled; the others are values of the position where the action is listed, so
the codes of the case carry them after the choice field (runtime/pieces.py), and
the notation is written from the code.
"""
from __future__ import annotations

import ast as py
import re
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..parsing import ast
from ..runtime.values import format_value
from ..spelling import suggest
from . import pyast
from .board import direction_name
from .code import Code, describe, standing_local
from .errors import RuleError
from .expressions import ExpressionCompiler
from .model import GameModel
from .names import CONTEXT_NAMES, reserved_word
from .scope import Local, Scope
from .source import Source
from .types import CANDIDATE_DEPS, ELEMENT, PIECE_DEPS, Type

# An action is made for at most this many values (each value is a copy of its code).
MAX_ACTION_VALUES = 64
_FIELD = re.compile(r"\{([^{}]*)\}")
# The words a value's type is shown with (runtime/pieces.format_value).
KIND_OF_TYPE = {Type.INT: "number", Type.BOOL: "flag", Type.SITE: "site", Type.PLAYER: "player"}


@dataclass(frozen=True)
class Bound:
    """The value one copy of an action is made for: its name, the local holding it,
    the statements that set that local (empty for a fixed value), its type."""

    name: str
    local: Local
    setup: tuple[py.stmt, ...]
    type: Type
    # what the value can be, for the fixed action space (domains.py): its element,
    # or the value itself when fixed
    element: Optional[ast.Expr] = None
    const: Any = None


@dataclass(frozen=True)
class Value:
    """One value of `for each`: the element (None for a fixed set's), its code."""

    element: Optional[ast.Expr]
    code: Code
    lines: tuple[py.stmt, ...] = ()


def each_values(action: ast.Action, exprs: ExpressionCompiler, model: GameModel, defines: set[str],
                position_scope: Scope) -> list[Value]:
    """The values of an action's `for each`, checked: a name of its own, values of
    one type that the action's candidates do not change."""
    each = action.each
    assert each is not None
    _check_name(each, model, defines)
    if each.until is not None:
        values = _range_values(action, exprs, position_scope)
        if not values:
            return values
    elif isinstance(each.collection, ast.ListLit):
        values = []
        for element in each.collection.items:
            lines, c = exprs.lowered(element, position_scope)
            if c.type is Type.DIRS and c.is_const and len(c.const) == 1:
                c = exprs.const(c.const[0], Type.DIR)  # a direction's name: the direction
            values.append(Value(element, c, tuple(lines)))
    else:
        c = exprs.as_sites(exprs.compile(each.collection, position_scope))
        element_type = ELEMENT.get(c.type)
        if element_type is None or not c.is_const:
            raise RuleError(each.collection.pos, f"'for each' after an action's name takes a list in brackets "
                                                 f"([A, B]) or a fixed set (a region, directions, players), found "
                                                 f"{describe(c)}")
        values = [Value(None, exprs.const(v, element_type)) for v in c.const]
    if not values:
        raise RuleError(each.collection.pos, f"action '{action.name}' is made for no value: the list is empty")
    if len(values) > MAX_ACTION_VALUES:
        raise RuleError(each.collection.pos, f"an action is made for at most {MAX_ACTION_VALUES} values, "
                                             f"found {len(values)}")
    first = values[0].code
    for value in values:
        c = value.code
        pos = value.element.pos if value.element is not None else each.collection.pos
        if c.deps & (CANDIDATE_DEPS | PIECE_DEPS):
            raise RuleError(pos, "the values of 'for each' are worked out once when the actions are listed: "
                                 "they cannot depend on the moving piece or the landing site")
        if c.type is Type.SITES and value.element is not None and not c.is_const:
            raise RuleError(pos, f"'for each' after an action's name takes sets of sites fixed when the rules are "
                                 f"compiled (regions: [north, south]), found {describe(c)} known only while playing")
        if c.type is Type.DIRS and value.element is not None:
            raise RuleError(pos, f"'for each' after an action's name takes one direction per value, found "
                                 f"{'a set of directions' if c.is_const else 'a direction that differs per player'}",
                            "write the set itself after 'in' (for each d in orthogonal), or compass directions "
                            "in the list ([n, e])" if c.is_const else
                            "write compass directions in the list ([n, s]); a direction relative to the player "
                            "works in 'where' and in expressions")
        if c.type not in KIND_OF_TYPE and c.type not in (Type.DIR, Type.SITES):
            raise RuleError(pos, f"'for each' after an action's name takes numbers, flags, sites, players, "
                                 f"directions or regions, found {describe(c)}")
        if c.type is Type.SITES and value.element is None:  # (a region's sites: each a site)
            raise RuleError(pos, f"'for each' after an action's name takes numbers, flags, sites, players, "
                                 f"directions or regions, found {describe(c)}")
        if c.type is not first.type:
            raise RuleError(pos, f"the values of 'for each' are of one type: {describe(first)} and {describe(c)}")
    return values


def _range_values(action: ast.Action, exprs: ExpressionCompiler, position_scope: Scope) -> list[Value]:
    """The numbers of `for each D in A to B`: A and B fixed when the rules are compiled
    (numbers, options, sums of those). None when B < A and an end is not a number
    (an option's value that leaves the action out); an error when both are numbers."""
    each = action.each
    assert each is not None and each.until is not None
    ends = []
    for e in (each.collection, each.until):
        c = exprs.compile(e, position_scope)
        if c.type is not Type.INT:
            raise RuleError(e.pos, f"'for each {each.name} in A to B' after an action's name needs whole numbers "
                                   f"A and B, found {describe(c)}")
        if not c.is_const:
            raise RuleError(e.pos, f"an end of 'for each {each.name} in A to B' after an action's name is fixed "
                                   "when the rules are compiled (a number, an option, sums of those), not a "
                                   "number known only while playing",
                            f"take the widest range it can be and say with 'where' when a value is legal "
                            f"('for each {each.name} in 1 to 6' ... 'where {each.name} <= ...')")
        ends.append(c.const)
    low, high = ends
    if high - low + 1 > MAX_ACTION_VALUES:
        raise RuleError(each.collection.pos, f"an action is made for at most {MAX_ACTION_VALUES} values, "
                                             f"'{each.name} in {low} to {high}' is {high - low + 1} numbers")
    if high < low and isinstance(each.collection, ast.Num) and isinstance(each.until, ast.Num):
        raise RuleError(each.collection.pos, f"action '{action.name}' is made for no value: {high} is below {low}")
    return [Value(None, exprs.const(v, Type.INT)) for v in range(low, high + 1)]


def _check_name(each: ast.ActionEach, model: GameModel, defines: set[str]) -> None:
    name = each.name
    reserved = reserved_word(name)
    if reserved:
        raise RuleError(each.pos, reserved, "choose another name")
    taken = {**{n: "a name of the rules language" for n in CONTEXT_NAMES},
             **{n: "a variable" for n in model.variables}, **{n: "a pool" for n in model.pools},
             **{n: "a region" for n in model.regions}, **{n: "a track" for n in model.tracks},
             **{n: "an option" for n in model.options}, **{n: "a define" for n in defines}}
    if name in taken:
        raise RuleError(each.pos, f"'{name}' is {taken[name]}: the value of 'for each' needs a name of its own")


def bind(each: ast.ActionEach, value: Value, src: Source) -> Bound:
    """The local of one copy of the action."""
    c = value.code
    if c.type is Type.SITES:
        # A region of a list (`for each r in [north, south]`): each use compiles as
        # the region written there (its tables, its bitmask).
        return Bound(each.name, standing_local(c), (), c.type, value.element, c.const)
    if c.is_const:
        # (its uses are that constant: `3 - k` folds, `k == 0 or ...` decides when compiled)
        return Bound(each.name, Local(c.code, c.type, always=c.type is not Type.SITE or c.const != -1,
                                      fixed=(c.const,)), (), c.type, value.element, c.const)
    local = pyast.name(src.fresh("l"))
    return Bound(each.name, Local(local, c.type), value.lines + (pyast.assign(local, c.code),), c.type,
                 value.element)


def distinct_from_earlier(each: ast.ActionEach, values: list[Value], i: int) -> Optional[list[ast.Expr]]:
    """`D != A` for each element A before the i-th of a list whose value is known
    only while playing: a value met before is skipped. None when the i-th value is
    fixed and met before (no copy is made for it)."""
    value = values[i]
    earlier = values[:i]
    if value.code.is_const and any(v.code.is_const and v.code.const == value.code.const for v in earlier):
        return None
    return [ast.Compare(each.pos, "!=", ast.Name(each.pos, each.name), v.element)
            for v in earlier if v.element is not None and not (v.code.is_const and value.code.is_const)]


@dataclass(frozen=True)
class Shown:
    """The value fields of a notation: the template with the options' values
    written in, and the fields left (their codes and kinds)."""

    text: str
    fields: tuple[str, ...]  # "{d}", in the order they first appear
    codes: tuple[py.expr, ...]
    kinds: tuple[str, ...]
    # per field, what its value can be: an expression whose values domains.py
    # follows, or a fixed value (a tuple of one)
    sources: tuple[Any, ...] = ()


def shown_fields(text: str, pos: ast.Pos, fixed: tuple[str, ...], bound: Optional[Bound], model: GameModel,
                 compile_name: Callable[[ast.Name], Code], names: Callable[[str, Any], str]) -> Shown:
    """The fields of a notation template other than `fixed` ({from}, {to}, ...):
    the action's value, a variable that is not per player or an option."""
    fields: list[str] = []
    codes: list[py.expr] = []
    kinds: list[str] = []
    sources: list[Any] = []
    for match in _FIELD.finditer(text):
        field = match.group(0)
        name = match.group(1)
        if field in fixed or field in fields:
            continue
        if bound is not None and name == bound.name:
            if bound.type is Type.SITES and isinstance(bound.element, ast.Name):
                text = text.replace(field, bound.element.id)  # a region: its name, fixed for the copy
                continue
            if bound.type is Type.SITES:
                raise RuleError(pos, f"{field}: a notation shows a region of 'for each' by its name, and this "
                                     "one is a set of sites written out", "make it a region (2.5) and name it")
            if bound.type is Type.DIR and bound.const is not None:
                # a direction: its name as the list writes it (a set of one: the set's
                # name), or the compass name when the action runs over a set
                name_shown = (bound.element.id if isinstance(bound.element, ast.Name)
                              else direction_name(bound.const, model.board.offsets))
                text = text.replace(field, name_shown)
                continue
            if bound.type not in KIND_OF_TYPE:
                raise RuleError(pos, f"{field}: a notation shows a direction only when it is fixed when the rules "
                                     "are compiled (a name, a set of directions)")
            fields.append(field)
            codes.append(bound.local.code)
            kinds.append(KIND_OF_TYPE[bound.type])
            sources.append(bound.element if bound.element is not None else (bound.const,))
            continue
        if name == "player":
            # the deciding player, by name: one action serves every player where
            # the notation tells them apart (`{player}:{to}`)
            c = compile_name(ast.Name(pos, name))
            fields.append(field)
            codes.append(c.code)
            kinds.append(KIND_OF_TYPE[Type.PLAYER])
            sources.append(tuple(range(model.player_count)))
            continue
        variable = model.variables.get(name)
        if variable is not None and variable.per_player:
            raise RuleError(pos, f"{field}: variable '{name}' differs per player; a notation shows a value "
                                 "the same for every player")
        if variable is not None or name in model.options:
            c = compile_name(ast.Name(pos, name))
            if c.type not in KIND_OF_TYPE:
                raise RuleError(pos, f"{field}: a notation shows numbers, flags, sites and players, "
                                     f"found {describe(c)}")
            if c.is_const:
                text = text.replace(field, format_value(c.const, KIND_OF_TYPE[c.type], names))
                continue
            fields.append(field)
            codes.append(c.code)
            kinds.append(KIND_OF_TYPE[c.type])
            sources.append(ast.Name(pos, name))
            continue
        if name.isidentifier():
            # (an unknown field nothing is named like: the template says which fields there are)
            known = ["player", *model.variables, *model.options] + ([bound.name] if bound is not None else [])
            best = suggest(name, known)
            if best is not None:
                raise RuleError(pos, f"{field}: no such variable, option or value of the action; "
                                     f"did you mean {{{best}}}?")
    return Shown(text, tuple(fields), tuple(codes), tuple(kinds), tuple(sources))
