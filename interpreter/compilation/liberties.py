"""Whether a group has liberties, asked of the records the position keeps.

`exists(group(X), exists(neighbours(it), it is empty))` — some site of X's group
has an empty neighbour — is a search of the group each time it is asked (a game
of surrounding asks it of every neighbour of each stone it tries, and again for
each capture). The position keeps its groups instead (runtime/chains.py: per
group its stones and its empty neighbours as bitmasks, kept by the board's
writes, compilation/board_keys.py), and the question becomes
`h_liberties(s, b, k, X) != 0` (k: the neighbours' table).

The shapes recognised, whatever the elements are named (`it` or `exists(NAME in
...)`) and however the conditions are spelt among the documented equivalents:

- `exists(group(X), exists(neighbours(E), C))`, E the outer element, C a
  conjunction of one "N is empty" (or `N is not occupied`, `not (N is
  occupied)`) and any number of `N != Y` (`Y != N`), N the inner element and Y
  not naming either element: the group has a liberty other than the Ys;
- `all(group(X), all(neighbours(E), D))`, D a disjunction of one "N is
  occupied" (`N is not empty`, `not (N is empty)`) and any number of `N == Y`:
  its negation.

`group` here is the one-argument form (the board's neighbours, which
`neighbours` reads too); the functions must not be redefined by defines. Any
other shape compiles as before.
"""
from __future__ import annotations

import ast as py
import copy
from typing import Iterable, Optional

from ..parsing import ast
from . import pyast
from .code import Code, Compiling
from .scope import Scope
from .types import Dep, Type

# The functions the shapes are made of (a define of one of these names changes them).
_FUNCTIONS = ("group", "neighbours", "exists", "all")


def liberty_test(x: Compiling, e: ast.Call, scope: Scope) -> Optional[Code]:
    """`e` (an `exists` or `all`) as a question about the group records, or None
    when it has none of the shapes."""
    if len(e.args) != 2 or e.fn not in ("exists", "all") or any(f in x.defines for f in _FUNCTIONS):
        return None
    outer = _element_of(e.args[0], "group")
    inner_call = e.args[1]
    if outer is None or not isinstance(inner_call, ast.Call) or inner_call.fn != e.fn or len(inner_call.args) != 2:
        return None
    outer_name, group_call = outer
    inner = _element_of(inner_call.args[0], "neighbours")
    if inner is None:
        return None
    inner_name, neighbours_call = inner
    around = neighbours_call.args[0]
    if not (isinstance(around, ast.Name) and around.id == outer_name):
        return None
    others = _other_sites(inner_call.args[1], inner_name, e.fn == "exists")
    # (each Y is worked out outside the quantifiers: it must mean the same there)
    if others is None or any(_names(y) & ({inner_name, outer_name, "it"} | set(x.defines)) for y in others):
        return None
    site = x.compile(group_call.args[0], scope)
    if site.type is not Type.SITE:
        return None
    excluded = [x.compile(y, scope) for y in others]
    if any(y.type is not Type.SITE for y in excluded):
        return None
    libs: py.expr = pyast.helper("h_liberties", pyast.name("s"), pyast.name("b"), adjacency_table(x), site.code)
    if isinstance(site.code, (py.Name, py.Constant)):
        libs = _looked_up(x, site.code, libs)
    deps = site.deps | {Dep.BOARD}
    cost = site.cost + 4
    for y in excluded:
        libs = pyast.binop(libs, "&", pyast.sub(_others_than(x), y.code))
        deps |= y.deps
        cost += y.cost + 1
    test = pyast.compare(libs, "!=" if e.fn == "exists" else "==", pyast.num(0))
    return Code(test, Type.BOOL, deps, cost=cost)


def _element_of(arg: ast.Expr, fn: str) -> Optional[tuple[str, ast.Call]]:
    """(the name of the elements, the one-argument call of `fn`) for `fn(...)`
    or `NAME in fn(...)` as a quantifier's first argument."""
    name = "it"
    if isinstance(arg, ast.In) and isinstance(arg.item, ast.Name) and not arg.negated:
        name, arg = arg.item.id, arg.collection
    if isinstance(arg, ast.Call) and arg.fn == fn and len(arg.args) == 1:
        return name, arg
    return None


def _other_sites(cond: ast.Expr, element: str, exists: bool) -> Optional[list[ast.Expr]]:
    """For `exists`: the Ys of a conjunction of one emptiness test of `element`
    and `element != Y` parts; for `all`: of a disjunction of one occupancy test
    and `element == Y` parts. None for anything else."""
    parts = _flattened(cond, ast.And if exists else ast.Or)
    tests = [part for part in parts if _tests_emptiness(part, element, exists)]
    if len(tests) != 1:
        return None
    others = []
    for part in parts:
        if part is tests[0]:
            continue
        if not (isinstance(part, ast.Compare) and part.op == ("!=" if exists else "==")):
            return None
        if _is_name(part.left, element):
            others.append(part.right)
        elif _is_name(part.right, element):
            others.append(part.left)
        else:
            return None
    return others


def _flattened(cond: ast.Expr, kind: type) -> list[ast.Expr]:
    if isinstance(cond, kind):
        return _flattened(cond.left, kind) + _flattened(cond.right, kind)  # type: ignore[attr-defined]
    return [cond]


def _tests_emptiness(part: ast.Expr, element: str, empty: bool) -> bool:
    """Whether `part` asks that the element be empty (`empty`) or occupied: the
    element is a neighbour, a site of the board, where `is not occupied` means empty."""
    negated = False
    if isinstance(part, ast.Not):
        negated, part = True, part.operand
    if not (isinstance(part, ast.Is) and _is_name(part.obj, element) and part.what in ("empty", "occupied")):
        return False
    asks_empty = (part.what == "empty") ^ part.negated ^ negated
    return asks_empty == empty


def _is_name(e: ast.Expr, name: str) -> bool:
    return isinstance(e, ast.Name) and e.id == name


def _names(e: ast.Expr) -> set[str]:
    """The names `e` reads (of any depth)."""
    found: set[str] = set()
    stack: list[object] = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            found.add(node.id)
        if isinstance(node, ast.Expr):
            stack.extend(value for value in vars(node).values() if isinstance(value, (ast.Expr, list)))
        elif isinstance(node, list):
            stack.extend(node)
    return found


def adjacency_table(x: Compiling) -> py.Name:
    """The neighbours' table `group(X)` and `neighbours(X)` read (the same constant:
    expr_sites.adjacency_table), given to the helpers that keep the groups."""
    return x.src.const(tuple(tuple(a) for a in x.model.board.adjacent) + ((),), key="adjacent")


def _looked_up(x: Compiling, site: py.expr, asked: py.expr) -> py.expr:
    """`asked` (the helper's call) with the helper's usual answer written out: an
    occupied site whose group the records know reads its liberties,
    `s.chains[2 * N + s.chains[X]]` (N: the board's entries, its sites and "no
    site"; runtime/chains.py), without a call; the helper otherwise (no records
    yet, a group not known, an empty site or none). The site is a name or a
    constant: read three times, worked out once."""
    chains = pyast.attr(pyast.name("s"), "chains")
    head = pyast.sub(pyast.attr(pyast.name("s"), "chains"), copy.deepcopy(site))
    known = pyast.and_(pyast.is_not_none(pyast.sub(pyast.name("b"), copy.deepcopy(site))), pyast.is_not_none(chains),
                       pyast.compare(head, ">=", pyast.num(0)))
    read = pyast.sub(pyast.attr(pyast.name("s"), "chains"),
                     pyast.binop(pyast.num(2 * (x.n_sites + 1)), "+", copy.deepcopy(head)))
    return pyast.ifexp(read, known, asked)


def _others_than(x: Compiling) -> py.Name:
    """The constant table of every site's bit but one's, by site (none: every bit)."""
    everything = (1 << x.n_sites) - 1
    return x.src.const(tuple(everything ^ (1 << s) for s in range(x.n_sites)) + (everything,), key="others than")


def group_stones(x: Compiling, e: ast.Expr, scope: Scope) -> Optional[py.expr]:
    """For `group(X)` (the one-argument form, X a name or a constant site): its
    sites as a bitmask, `h_group_mask(s, b, k, X)`, read from the groups the
    position keeps (runtime/chains.py); None for anything else."""
    if not (isinstance(e, ast.Call) and e.fn == "group" and len(e.args) == 1) or "group" in x.defines:
        return None
    site = x.compile(e.args[0], scope)
    if site.type is not Type.SITE or not isinstance(site.code, (py.Name, py.Constant)):
        return None
    return pyast.helper("h_group_mask", pyast.name("s"), pyast.name("b"), adjacency_table(x), site.code)


def region_test(x: Compiling, quantifier: str, coll: Code, cond: ast.Expr, name: str, scope: Scope) -> Optional[Code]:
    """`exists`, `count` or `all` of a set known as a bitmask (`coll.bits`) with
    the condition `NAME in R` or `NAME not in R`, R a region (a fixed set of
    sites): one AND of the set's bits with R's mask (and a popcount for `count`)
    instead of a loop over the set; None for anything else."""
    if coll.bits is not None and isinstance(cond, ast.Compare):
        edge = _edge_test(x, cond, name, scope)
        if edge is not None:  # (`neighbour(it, D) == none`: `it` in the sites with none that way)
            edges, negated, mover = edge
            table = [_mask(x, fixed, negated, quantifier) for fixed in edges]
            by_edge = x.src.const(table[0]) if mover is None else pyast.sub(x.src.const(tuple(table)), mover)
            return _masked(quantifier, pyast.binop(coll.bits, "&", by_edge), coll)
    if coll.bits is None or not (isinstance(cond, ast.In) and _is_name(cond.item, name)):
        return None
    region = cond.collection
    by_player = _region_by_player(x, region, name, scope)
    if by_player is not None:  # (R[P]: one mask by player, none's empty)
        sets, player = by_player
        masks: py.expr = pyast.sub(x.src.const(tuple(_mask(x, fixed, cond.negated, quantifier) for fixed in sets)),
                                   player)
    elif not isinstance(region, ast.Name) or region.id == name:
        return None
    else:
        if region.id in scope.locals:  # (a define's parameter given a region)
            fixed = scope.locals[region.id].region
        elif region.id in x.model.regions and region.id not in x.defines:
            fixed = x.compile(region, scope).static_sites
        else:
            return None
        if fixed is None:
            return None
        masks = x.src.const(_mask(x, fixed, cond.negated, quantifier))
    return _masked(quantifier, pyast.binop(coll.bits, "&", masks), coll)


def _masked(quantifier: str, both: py.expr, coll: Code) -> Code:
    """`exists` / `count` / `all` of the set's bits ANDed with a mask (`both`)."""
    if quantifier == "count":
        return Code(pyast.method(both, "bit_count"), Type.INT, coll.deps, cost=2)
    return Code(pyast.compare(both, "!=" if quantifier == "exists" else "==", pyast.num(0)), Type.BOOL, coll.deps,
                cost=2)


def _edge_test(x: Compiling, cond: ast.Compare, name: str,
               scope: Scope) -> Optional[tuple[list[tuple[int, ...]], bool, Optional[py.expr]]]:
    """For `neighbour(NAME, D) == none` (or `!= none`) on a grid, D a direction fixed
    when the rules are compiled or one per player (`forward`): the sites with no
    neighbour that way (one set, or one per player), whether the test is negated
    (`!=`), and the player's code for sets by player (else None). A fixed set of
    sites, as a region is: `exists(group(to), neighbour(it, n) == none)` is one
    AND of the group's bits. None for anything else."""
    if cond.op not in ("==", "!=") or x.model.board.kind != "grid" or "neighbour" in x.defines:
        return None
    call = cond.left if isinstance(cond.right, ast.NoneLit) else cond.right
    if not (isinstance(cond.left, ast.NoneLit) or isinstance(cond.right, ast.NoneLit)) \
            or not isinstance(call, ast.Call) or call.fn != "neighbour" or len(call.args) != 2 \
            or not _is_name(call.args[0], name) or isinstance(call.args[1], ast.Offset) \
            or name in _names(call.args[1]):
        return None
    rays = x.model.board.rays

    def edge(direction: int) -> tuple[int, ...]:
        return tuple(site for site in range(x.n_sites) if not rays[direction][site])

    arg = call.args[1]
    per_player = x.model.direction_sets.get(arg.id) if isinstance(arg, ast.Name) and arg.id not in scope.locals \
        and arg.id not in x.defines else None
    if per_player is not None:
        if not all(len(d) == 1 for d in per_player):
            return None
        if all(d == per_player[0] for d in per_player):
            return [edge(per_player[0][0])], cond.op == "!=", None
        return [edge(d[0]) for d in per_player], cond.op == "!=", pyast.name(scope.register("player").site)
    direction = x.compile(arg, scope)
    if not direction.is_const:
        return None
    if direction.type is Type.DIR:
        return [edge(int(direction.const))], cond.op == "!=", None
    if direction.type is Type.DIRS and len(direction.const) == 1:
        return [edge(int(direction.const[0]))], cond.op == "!=", None
    return None


def _mask(x: Compiling, fixed: Iterable[int], negated: bool, quantifier: str) -> int:
    """The bitmask a set's bits are ANDed with for `exists`/`count`/`all` of `it
    in R` (`it not in R`: negated), R the sites `fixed`."""
    mask = sum(1 << site for site in set(fixed))
    if negated:
        mask ^= (1 << x.n_sites) - 1
    if quantifier == "all":  # (no site outside the region)
        mask ^= (1 << x.n_sites) - 1
    return mask


def _region_by_player(x: Compiling, region: ast.Expr, name: str,
                      scope: Scope) -> Optional[tuple[list[tuple[int, ...]], py.expr]]:
    """For `R[P]`, R a per-player region of the YAML (neither a define nor a
    local): each player's sites, then none's (no site), and P's code; None for
    anything else."""
    if not (isinstance(region, ast.Index) and isinstance(region.obj, ast.Name)) or region.obj.id == name:
        return None
    if region.obj.id in scope.locals or region.obj.id in x.defines or region.obj.id not in x.model.regions:
        return None
    if not isinstance(region.index, ast.Name) or region.index.id == name:  # (a player named, not the element's)
        return None
    c = x.compile(region, scope)
    if c.region_by_player is None or not isinstance(c.code, py.Subscript):
        return None
    table = x.src.namespace.get(c.code.value.id) if isinstance(c.code.value, py.Name) else None
    if not isinstance(table, tuple):
        return None
    return list(table), c.region_by_player[1]


def unread_groups_dropped(function: py.FunctionDef) -> py.FunctionDef:
    """`function` without the assignments `lN = h_group(...)` or `lN =
    h_group_mask(...)` of a local that nothing reads (a group named by `let`: its
    list where every question went to its bitmask, `group_stones`, or its bitmask
    where none did); neither changes the position (`h_group_mask` fills the
    groups' records, a cache)."""
    if not pyast.names_any(function, ("h_group", "h_group_mask")):
        return function  # (most functions: not walked)
    nodes = list(pyast.walk(function))
    read = {node.id for node in nodes if isinstance(node, py.Name) and not isinstance(node.ctx, py.Store)}
    unread = [node for node in nodes
              if isinstance(node, py.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], py.Name)
              and node.targets[0].id not in read and isinstance(node.value, py.Call)
              and any(pyast.is_name(node.value.func, helper) for helper in ("h_group", "h_group_mask"))]
    if not unread:
        return function
    dropped = set(map(id, unread))
    for node in pyast.walk(function):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and any(id(stmt) in dropped for stmt in block):
                kept = [stmt for stmt in block if id(stmt) not in dropped]
                setattr(node, field, kept or [py.Pass()])
    return function

