"""`forbid passing|landing|capturing where COND` → one Restriction per kind.

A restriction is asked about many sites in every position, so it is compiled into
a mask of the sites it can apply to plus the condition to ask only there: a
`site in REGION` conjunct gives the mask, a `site is KIND` conjunct is checked on
the piece first. Walks also want its shape: sites always forbidden, or pieces of
some kinds that block wherever they stand (see patterns.walk_pattern).
"""
from __future__ import annotations

from typing import Callable, Optional

from ..parsing import ast as A
from . import patterns as P
from .expressions import ExpressionCompiler, RuleError, conjuncts, is_name

FORBID_KINDS = ("passing", "landing", "capturing")


def compile_restrictions(
    forbids: list, x: ExpressionCompiler, n_sites: int, scope_for: Callable, errors: list
) -> dict[str, Optional[P.Restriction]]:
    """{"passing"|"landing"|"capturing": Restriction or None}; problems go to `errors`."""
    grouped: dict[str, list] = {what: [] for what in FORBID_KINDS}
    for item in forbids:
        scope = scope_for({"site", "piece", "from"}, f"a 'forbid {item.what}' condition")
        try:
            grouped[item.what].append(_one(item.cond, scope, x, n_sites))
        except RuleError as err:
            errors.append(err)
    return {what: _combine(entries, n_sites) for what, entries in grouped.items()}


def _combine(entries: list, n_sites: int) -> Optional[P.Restriction]:
    entries = [e for e in entries if e[2] is None or e[2][0] != "never"]
    if not entries:
        return None
    mask = [any(m[s] for m, _, _ in entries) for s in range(n_sites)] + [False]
    bad, bad_mask = entries[0][1], entries[0][0]
    for m, fn, _ in entries[1:]:
        bad = _either(bad, bad_mask, fn, m)
        bad_mask = [a or b for a, b in zip(bad_mask, m)]
    restriction = P.Restriction(mask, bad)
    shapes = [shape for _, _, shape in entries]
    if all(shape is not None for shape in shapes):
        restriction.static_sites = frozenset().union(*(s[1] for s in shapes if s[0] == "static"))
        restriction.kinds = frozenset(s[1] for s in shapes if s[0] == "kind")
    return restriction


def _one(cond: A.Expr, scope, x: ExpressionCompiler, n_sites: int) -> tuple:
    """(mask, condition, shape) of one forbid; shape is ("static", sites),
    ("kind", kind), ("never", None) or None for a general condition."""
    everywhere = [True] * n_sites + [False]
    mask = everywhere
    kind = None
    rest = []
    for part in conjuncts(cond):
        if mask is everywhere and isinstance(part, A.In) and not part.negated and is_name(part.item, "site"):
            region = x.compile(part.collection, scope)
            if region.mask is not None:
                mask = region.mask
                continue
        if kind is None and isinstance(part, A.Is) and not part.negated and is_name(part.obj, "site") and part.what in x.m.kinds:
            kind = x.m.kinds[part.what].index
        rest.append(x.boolean(part, scope))
    if any(v.is_const and not v.const for v in rest):
        return (mask, lambda f: False, ("never", None))
    dynamic = [v for v in rest if not v.is_const]
    if not dynamic:
        shape = ("static", frozenset(s for s, on in enumerate(mask[:-1]) if on))
    elif kind is not None and len(dynamic) == 1 and mask is everywhere:
        shape = ("kind", kind)
    else:
        shape = None
    fns = [v.fn for v in dynamic]
    if not fns:
        fn = lambda f: True  # noqa: E731
    elif len(fns) == 1:
        fn = fns[0]
    else:
        fn = lambda f, fns=tuple(fns): all(g(f) for g in fns)  # noqa: E731
    if kind is not None:
        k, cond_fn = kind, fn

        def fn(f):
            # The kind test first: it is one index, the rest may be long.
            p = f.b[f.site]
            return p is not None and p[1] == k and cond_fn(f)

    return (mask, fn, shape)


def _either(first: Callable, first_mask: list, second: Callable, second_mask: list) -> Callable:
    """A condition true where either restriction applies (each only on its sites)."""

    def either(f):
        s = f.site
        return (first_mask[s] and first(f)) or (second_mask[s] and second(f))

    return either
