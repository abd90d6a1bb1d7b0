"""Builders of Python syntax trees: the generated code is made of these, never of text.

The compiler writes the game's functions as trees of Python's own `ast` nodes,
built with the functions below (`call(name("h_clear"), name("b"), ...)`,
`assign(name("x0"), sub(name("b"), name("to")))`, `if_(test, body)`); the module
they make is checked node by node (source.check_tree) and compiled as it is:
no text is ever parsed into code.

Conventions the rest of the compiler relies on:

- nodes are never changed once built, so one node may stand in several places
  (a block compiled once and pasted into several functions); a pass that
  rewrites code builds new nodes along the changed paths (`replace_nodes`);
- a negative number is `-N` (`UnaryOp(USub, N)`), as Python writes it;
- `and_`/`or_` make one BoolOp of their operands and never flatten a nested one:
  `and_(and_(a, b), c)` is `(a and b) and c`, as written.

`same(a, b)` compares two trees by their structure (nodes compare by identity),
and `walk_in_order` visits nodes in the order `ast.unparse` writes them.
"""
from __future__ import annotations

import ast
import copy
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, TypeVar, Union

Expr = ast.expr
Stmt = ast.stmt
N = TypeVar("N", bound=ast.AST)
T = TypeVar("T")

_BINARY: dict[str, type[ast.operator]] = {
    "+": ast.Add, "-": ast.Sub, "*": ast.Mult, "//": ast.FloorDiv, "%": ast.Mod,
    "&": ast.BitAnd, "|": ast.BitOr, "^": ast.BitXor, ">>": ast.RShift,
}
_COMPARE: dict[str, type[ast.cmpop]] = {
    "==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE,
    "in": ast.In, "not in": ast.NotIn, "is": ast.Is, "is not": ast.IsNot,
}


# ---------------------------------------------------------------- expressions
def name(identifier: str) -> ast.Name:
    return ast.Name(id=identifier, ctx=ast.Load())


def num(value: int) -> ast.expr:
    """A whole number (bools are refused: they are ints to Python)."""
    if type(value) is not int:
        raise TypeError(f"only whole numbers are written into the code, not {type(value).__name__}")
    return ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=-value)) if value < 0 else ast.Constant(value=value)


def true() -> ast.Constant:
    return ast.Constant(value=True)


def false() -> ast.Constant:
    return ast.Constant(value=False)


def none() -> ast.Constant:
    return ast.Constant(value=None)


def literal(value: Union[bool, int, None]) -> ast.expr:
    """True, False, None or a whole number."""
    if value is None or isinstance(value, bool):
        return ast.Constant(value=value)
    return num(value)


def attr(value: ast.expr, attribute: str) -> ast.Attribute:
    return ast.Attribute(value=value, attr=attribute, ctx=ast.Load())


def sub(value: ast.expr, index: Union[ast.expr, int]) -> ast.Subscript:
    """`value[index]` (an int index is a number)."""
    return ast.Subscript(value=value, slice=num(index) if isinstance(index, int) else index, ctx=ast.Load())


# The attribute of a read `v[...]` at a place worked out that tells the entries it
# may read: (first, last), both included. The expressions know it where they write
# the read (a per-player variable at a player worked out reads one of that
# variable's entries, whenever its guard lets it run), the passes after read it to
# know that a loop writing other entries does not change what it reads. Rebuilding
# a node keeps it (`_rebuilt`, the copies of invariants.py); a pass that makes a new
# read loses it, and the read is then taken as one of any entry.
PLACES = "places"


def sub_within(value: ast.expr, index: ast.expr, first: int, last: int) -> ast.Subscript:
    """`value[index]`, known to read one of the entries `first` to `last` where it runs."""
    node = sub(value, index)
    setattr(node, PLACES, (first, last))
    return node


def places_read(node: ast.Subscript) -> Optional[tuple[int, int]]:
    """The entries `node` may read, first and last: its place where written out
    (a whole number, not negative), what `sub_within` told; else None."""
    where = node.slice
    if isinstance(where, ast.Constant) and type(where.value) is int and where.value >= 0:
        return where.value, where.value
    known: Optional[tuple[int, int]] = node.__dict__.get(PLACES)
    return known


def slice_(lower: Union[ast.expr, int, None] = None, upper: Union[ast.expr, int, None] = None) -> ast.Slice:
    return ast.Slice(lower=num(lower) if isinstance(lower, int) else lower,
                     upper=num(upper) if isinstance(upper, int) else upper)


def call(func: ast.expr, *args: ast.expr) -> ast.Call:
    return ast.Call(func=func, args=list(args), keywords=[])


def helper(helper_name: str, *args: ast.expr) -> ast.Call:
    """A call of a runtime helper (`h_...`, bound in the namespace) or builtin."""
    return call(name(helper_name), *args)


def method(obj: ast.expr, method_name: str, *args: ast.expr) -> ast.Call:
    return call(attr(obj, method_name), *args)


def binop(left: ast.expr, op: str, right: ast.expr) -> ast.BinOp:
    return ast.BinOp(left=left, op=_BINARY[op](), right=right)


def add(left: ast.expr, right: ast.expr) -> ast.BinOp:
    return binop(left, "+", right)


def neg(operand: ast.expr) -> ast.UnaryOp:
    return ast.UnaryOp(op=ast.USub(), operand=operand)


def compare(left: ast.expr, op: str, right: ast.expr, *more: Union[str, ast.expr]) -> ast.Compare:
    """`left op right` — and further `op, operand` pairs for a chain (`0 < n <= k`)."""
    ops = [_COMPARE[op]()]
    comparators = [right]
    for i in range(0, len(more), 2):
        following_op, operand = more[i], more[i + 1]
        assert isinstance(following_op, str) and isinstance(operand, ast.expr)
        ops.append(_COMPARE[following_op]())
        comparators.append(operand)
    return ast.Compare(left=left, ops=ops, comparators=comparators)


def is_none(value: ast.expr) -> ast.Compare:
    return compare(value, "is", none())


def is_not_none(value: ast.expr) -> ast.Compare:
    return compare(value, "is not", none())


def and_(*values: ast.expr) -> ast.expr:
    """`a and b and ...` (one operand: itself)."""
    return values[0] if len(values) == 1 else ast.BoolOp(op=ast.And(), values=list(values))


def or_(*values: ast.expr) -> ast.expr:
    return values[0] if len(values) == 1 else ast.BoolOp(op=ast.Or(), values=list(values))


def folded(node: ast.expr) -> ast.expr:
    """`node` with the constants `True`/`False` that lead an `and`/`or` (at any
    depth of `and`, `or`, `not`) worked out: `True and X` is X, `False or X` is X,
    `False and X` is False, `True or X` is True (X then never ran: nothing it sets
    is lost); `not` of a constant its opposite. Operands after the first that is
    not constant stay as they are."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        operand = folded(node.operand)
        if _truth(operand) is not None:
            return literal(not _truth(operand))
        return node if operand is node.operand else not_(operand)
    if not isinstance(node, ast.BoolOp):
        return node
    is_and = isinstance(node.op, ast.And)
    values = [folded(v) for v in node.values]
    while values and _truth(values[0]) is not None:
        if _truth(values[0]) != is_and:  # (False and ..., True or ...)
            return values[0]
        values.pop(0)
    if not values:
        return literal(is_and)
    if len(values) == len(node.values) and all(a is b for a, b in zip(values, node.values)):
        return node
    return and_(*values) if is_and else or_(*values)


def _truth(node: ast.expr) -> Optional[bool]:
    """The value of `True` or `False` written as such, else None."""
    if isinstance(node, ast.Constant) and type(node.value) is bool:
        return node.value
    return None


def not_(operand: ast.expr) -> ast.UnaryOp:
    return ast.UnaryOp(op=ast.Not(), operand=operand)


def ifexp(body: ast.expr, test: ast.expr, orelse: ast.expr) -> ast.IfExp:
    """`body if test else orelse`, in the order Python writes it."""
    return ast.IfExp(test=test, body=body, orelse=orelse)


def tuple_(*elements: ast.expr) -> ast.Tuple:
    return ast.Tuple(elts=list(elements), ctx=ast.Load())


def list_(*elements: ast.expr) -> ast.List:
    return ast.List(elts=list(elements), ctx=ast.Load())


def walrus(target: str, value: ast.expr) -> ast.NamedExpr:
    return ast.NamedExpr(target=ast.Name(id=target, ctx=ast.Store()), value=value)


def _generator(target: ast.expr, iterable: ast.expr, conditions: Sequence[ast.expr]) -> list[ast.comprehension]:
    return [ast.comprehension(target=as_store(target), iter=iterable, ifs=list(conditions), is_async=0)]


def listcomp(element: ast.expr, target: ast.expr, iterable: ast.expr, *conditions: ast.expr) -> ast.ListComp:
    """`[element for target in iterable if condition ...]`."""
    return ast.ListComp(elt=element, generators=_generator(target, iterable, conditions))


def genexp(element: ast.expr, target: ast.expr, iterable: ast.expr, *conditions: ast.expr) -> ast.GeneratorExp:
    """`(element for target in iterable if condition ...)`."""
    return ast.GeneratorExp(elt=element, generators=_generator(target, iterable, conditions))


# ---------------------------------------------------------------- statements
def as_store(target: ast.expr) -> ast.expr:
    """`target` as the target of an assignment (a new node when it is not one already)."""
    if isinstance(target, ast.Name):
        return target if isinstance(target.ctx, ast.Store) else ast.Name(id=target.id, ctx=ast.Store())
    if isinstance(target, ast.Subscript):
        return ast.Subscript(value=target.value, slice=target.slice, ctx=ast.Store())
    if isinstance(target, ast.Attribute):
        return ast.Attribute(value=target.value, attr=target.attr, ctx=ast.Store())
    if isinstance(target, ast.Tuple):
        return ast.Tuple(elts=[as_store(e) for e in target.elts], ctx=ast.Store())
    raise TypeError(f"cannot assign to {type(target).__name__}")


def assign(target: ast.expr, value: ast.expr, *more_targets: ast.expr) -> ast.Assign:
    """`target = value`; with more targets `target = more = ... = value`."""
    return ast.Assign(targets=[as_store(t) for t in (target, *more_targets)], value=value)


def augment(target: ast.expr, op: str, value: ast.expr) -> ast.AugAssign:
    """`target op= value` (op: "+", "-", "^" ...)."""
    stored = as_store(target)
    assert isinstance(stored, (ast.Name, ast.Attribute, ast.Subscript))
    return ast.AugAssign(target=stored, op=_BINARY[op](), value=value)


def expr_stmt(value: ast.expr) -> ast.Expr:
    return ast.Expr(value=value)


def if_(test: ast.expr, body: Sequence[ast.stmt], orelse: Sequence[ast.stmt] = ()) -> ast.If:
    return ast.If(test=test, body=list(body) or [pass_()], orelse=list(orelse))


def for_(target: ast.expr, iterable: ast.expr, body: Sequence[ast.stmt], orelse: Sequence[ast.stmt] = ()) -> ast.For:
    return ast.For(target=as_store(target), iter=iterable, body=list(body) or [pass_()], orelse=list(orelse),
                   type_comment=None)


def while_(test: ast.expr, body: Sequence[ast.stmt]) -> ast.While:
    return ast.While(test=test, body=list(body) or [pass_()], orelse=[])


def try_finally(body: Sequence[ast.stmt], finalbody: Sequence[ast.stmt]) -> ast.Try:
    """`try: body finally: finalbody` (no handler: the compiler never catches)."""
    return ast.Try(body=list(body) or [pass_()], handlers=[], orelse=[], finalbody=list(finalbody) or [pass_()])


def break_() -> ast.Break:
    return ast.Break()


def continue_() -> ast.Continue:
    return ast.Continue()


def pass_() -> ast.Pass:
    return ast.Pass()


def return_(value: Optional[ast.expr] = None) -> ast.Return:
    return ast.Return(value=value)


def function(function_name: str, params: Sequence[str], body: Sequence[ast.stmt],
             defaults: Sequence[ast.expr] = ()) -> ast.FunctionDef:
    """`def function_name(params...):` (the last parameters take `defaults`)."""
    arguments = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p, annotation=None) for p in params], vararg=None,
                              kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=list(defaults))
    node = ast.FunctionDef(name=function_name, args=arguments, body=list(body) or [pass_()], decorator_list=[],
                           returns=None, type_comment=None)
    if "type_params" in ast.FunctionDef._fields:  # (Python 3.12 on)
        setattr(node, "type_params", [])
    return node


def module(body: Sequence[ast.stmt]) -> ast.Module:
    return ast.Module(body=list(body), type_ignores=[])


# ---------------------------------------------------------------- reading trees
def is_name(node: Optional[ast.AST], identifier: Optional[str] = None) -> bool:
    """Whether `node` is a name (`identifier`, when given)."""
    return isinstance(node, ast.Name) and (identifier is None or node.id == identifier)


def key(node: ast.AST) -> str:
    """A text that is equal for two trees of the same structure (for dicts and sets)."""
    return ast.dump(node)


def same(a: Optional[ast.AST], b: Optional[ast.AST]) -> bool:
    """Whether two trees have the same structure (None only equals None)."""
    if a is b:
        return True
    if a is None or b is None:
        return False
    return _same(a, b)


def _same(a: object, b: object) -> bool:
    if a is b:
        return True
    if isinstance(a, ast.AST):
        if type(a) is not type(b):
            return False
        return all(_same(getattr(a, f, None), getattr(b, f, None)) for f in a._fields if f != "ctx")
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def same_code(a: Sequence[ast.stmt], b: Sequence[ast.stmt]) -> bool:
    """Whether two blocks of statements have the same structure."""
    return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))


# The fields of each kind of node in the order Python writes them, where that is
# not the order of `_fields` (which `ast.iter_child_nodes` follows).
_WRITTEN_ORDER: dict[type, tuple[str, ...]] = {
    ast.IfExp: ("body", "test", "orelse"),
    ast.DictComp: ("key", "value", "generators"),
}
# Fields that never hold a node, in any kind of node (names, numbers, flags, a
# constant's value): the walks below pass over them. (Only a saving: a field's value
# is a child only if it is a node, whatever its name.)
_LEAF_FIELDS = frozenset({"id", "attr", "arg", "name", "module", "asname", "level", "is_async", "simple",
                          "kind", "type_comment", "conversion", "tag", "rest", "kwd_attrs", "str"})
# per kind of node: its fields that may hold nodes, in `_fields`' order and in the order Python writes them
_CHILD_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}
_CHILD_FIELDS_WRITTEN: dict[type[ast.AST], tuple[str, ...]] = {}


def _child_fields(kind: type[ast.AST]) -> tuple[str, ...]:
    fields = _CHILD_FIELDS[kind] = tuple(field for field in kind._fields if field not in _LEAF_FIELDS
                                         and not (kind is ast.Constant and field == "value"))
    return fields


def _child_fields_written(kind: type[ast.AST]) -> tuple[str, ...]:
    fields = _CHILD_FIELDS_WRITTEN[kind] = tuple(
        field for field in _WRITTEN_ORDER.get(kind, _CHILD_FIELDS.get(kind) or _child_fields(kind))
        if field not in _LEAF_FIELDS)
    return fields


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node of the tree: the nodes `ast.walk` gives, in the same order
    (breadth first), in about two thirds of its time (the compiler walks its trees
    many times: `ast.walk` asked every field of every node through two generators)."""
    todo = [node]
    fields_of = _CHILD_FIELDS.get
    node_type = ast.AST
    for current in todo:  # (the list grows as it is read: each node once)
        kind = current.__class__
        fields = fields_of(kind)
        if fields is None:
            fields = _child_fields(kind)
        for field in fields:
            value = getattr(current, field, None)
            if value.__class__ is list:
                todo.extend([item for item in value if isinstance(item, node_type)])
            elif isinstance(value, node_type):
                todo.append(value)
        yield current


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """The child nodes of `node`, as `ast.iter_child_nodes` gives them."""
    fields = _CHILD_FIELDS.get(node.__class__)
    return _children(node, _child_fields(node.__class__) if fields is None else fields)


def children_in_order(node: ast.AST) -> list[ast.AST]:
    """The child nodes of `node` in the order Python writes them."""
    fields = _CHILD_FIELDS_WRITTEN.get(node.__class__)
    return _children(node, _child_fields_written(node.__class__) if fields is None else fields)


def _children(node: ast.AST, fields: Iterable[str]) -> list[ast.AST]:
    children: list[ast.AST] = []
    for field in fields:
        value = getattr(node, field, None)
        if value.__class__ is list:
            children.extend([item for item in value if isinstance(item, ast.AST)])
        elif isinstance(value, ast.AST):
            children.append(value)
    return children


def walk_in_order(node: ast.AST) -> Iterator[ast.AST]:
    """Every node of the tree, parents first, in the order Python writes them."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        children = children_in_order(current)
        children.reverse()
        stack.extend(children)


def walk_all(nodes: Iterable[ast.AST]) -> Iterator[ast.AST]:
    for node in nodes:
        yield from walk_in_order(node)


def statements_in(stmts: Iterable[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of a block, those of nested blocks included."""
    for stmt in stmts:
        yield stmt
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield from statements_in(block)


def name_counts(node: ast.AST) -> dict[str, int]:
    """How many times each identifier is named in `node` (read or written).
    Statements keep their count: a block pasted into many functions is counted once."""
    cached: Optional[dict[str, int]] = node.__dict__.get("_name_counts")
    return cached if cached is not None else _counted(node, False)


def _names_and_statements(node: ast.AST) -> tuple[list[ast.Name], list[ast.stmt]]:
    """The names in `node` outside its nested statements, and those statements
    (which keep what is found of them: `name_counts`, `stored_names`)."""
    names: list[ast.Name] = []
    statements: list[ast.stmt] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if type(current) is ast.Name:
            names.append(current)
            continue
        for field in current._fields:
            value = getattr(current, field, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.stmt):
                        statements.append(item)
                    elif isinstance(item, ast.AST):
                        stack.append(item)
            elif isinstance(value, ast.AST):
                stack.append(value)
    return names, statements


def changeable_copy(node: T) -> T:
    """A deep copy of `node` (a node or a list of them) to change in place, without
    what statements keep of themselves (`name_counts`, `store_counts`, `stored_names`:
    they would no longer be true)."""
    copied = copy.deepcopy(node)
    parts: list[ast.AST] = copied if isinstance(copied, list) else [copied]  # type: ignore[list-item]
    for part in walk_all(parts):
        for fact in _KEPT_FACTS:
            part.__dict__.pop(fact, None)
    return copied


# What a statement keeps of itself (see name_counts).
_KEPT_FACTS = ("_name_counts", "_store_counts", "_stored_names")


def names_in(nodes: Iterable[ast.AST]) -> set[str]:
    """The identifiers of every name in `nodes` (read or written)."""
    found: set[str] = set()
    for node in nodes:
        found.update(name_counts(node))
    return found


def uses(nodes: Iterable[ast.AST], identifier: str) -> int:
    """How many times `identifier` is named in `nodes`."""
    return sum(name_counts(node).get(identifier, 0) for node in nodes)


def assigns(nodes: Iterable[ast.AST], identifier: str) -> bool:
    """Whether `nodes` give `identifier` a value (assignment, loop variable, `:=`)."""
    return any(identifier in stored_names(node) for node in nodes)


def names_any(node: ast.AST, identifiers: Iterable[str]) -> bool:
    """Whether `node` names any of `identifiers` (from `name_counts`, which a
    statement keeps: a function asked again is not walked again)."""
    counts = name_counts(node)
    return any(identifier in counts for identifier in identifiers)


def store_counts(node: ast.AST) -> dict[str, int]:
    """How many times each identifier is given a value or deleted in `node` (a name
    not read: `ctx` Store or Del); kept by statements as `name_counts` is (not to be
    changed)."""
    cached: Optional[dict[str, int]] = node.__dict__.get("_store_counts")
    return cached if cached is not None else _counted(node, True)


def _counted(node: ast.AST, stores_only: bool) -> dict[str, int]:
    """name_counts (or, `stores_only`, store_counts) of `node` worked out, each statement
    inside it counted by its own (kept) count, and kept by `node` if it is a statement."""
    names, statements = _names_and_statements(node)
    counts: dict[str, int] = {}
    for name in names:
        if not (stores_only and isinstance(name.ctx, ast.Load)):
            counts[name.id] = counts.get(name.id, 0) + 1
    of_statement = store_counts if stores_only else name_counts
    for stmt in statements:
        for identifier, n in of_statement(stmt).items():
            counts[identifier] = counts.get(identifier, 0) + n
    if isinstance(node, ast.stmt):
        # (nodes never change once built)
        setattr(node, "_store_counts" if stores_only else "_name_counts", counts)
    return counts


def stored_names(node: ast.AST) -> frozenset[str]:
    """The identifiers `node` gives a value (assignment, loop variable, `:=`).
    Statements keep theirs, as they keep their `name_counts`: a block asked about
    many names, or pasted into many functions, is walked once."""
    cached: Optional[frozenset[str]] = node.__dict__.get("_stored_names")
    if cached is not None:
        return cached
    names, statements = _names_and_statements(node)
    found = {name.id for name in names if isinstance(name.ctx, ast.Store)}
    for stmt in statements:
        found.update(stored_names(stmt))
    result = frozenset(found)
    if isinstance(node, ast.stmt):
        node._stored_names = result  # type: ignore[attr-defined]  # (nodes never change once built)
    return result


def line_count(stmts: Sequence[ast.stmt]) -> int:
    """The size of a block in lines: one per statement and per `else:`."""
    count = 0
    for stmt in stmts:
        count += 1
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                count += line_count(block) + (field != "body")
    return count


# ---------------------------------------------------------------- rewriting trees
def replace_nodes(node: N, change: Callable[[ast.AST], Optional[ast.AST]],
                  memo: Optional[dict[int, ast.AST]] = None) -> N:
    """`node` with every node for which `change` gives a replacement replaced by it
    (the replacement is not looked into); nodes and lists along the way are new
    only where something below them changed. `memo` maps nodes already rewritten
    (by id) to their rewriting, so that a node shared by two trees is rewritten
    into one shared node."""
    return _replaced(node, change, {} if memo is None else memo)


def _replaced(node: N, change: Callable[[ast.AST], Optional[ast.AST]], memo: dict[int, ast.AST]) -> N:
    # (`replace_nodes` of every node of the trees the passes rewrite: only the fields
    # that may hold nodes are looked at, _child_fields)
    done = memo.get(id(node))
    if done is not None:
        return done  # type: ignore[return-value]
    replacement = change(node)
    if replacement is not None:
        memo[id(node)] = replacement
        return replacement  # type: ignore[return-value]
    changed: Optional[dict[str, object]] = None
    fields = _CHILD_FIELDS.get(node.__class__)
    for field in _child_fields(node.__class__) if fields is None else fields:
        value = getattr(node, field, None)
        if value.__class__ is list:
            items = None
            for at, item in enumerate(value):
                if isinstance(item, ast.AST):
                    new = _replaced(item, change, memo)
                    if new is not item:
                        if items is None:
                            items = list(value)
                        items[at] = new
            if items is not None:
                if changed is None:
                    changed = {}
                changed[field] = items
        elif isinstance(value, ast.AST):
            new = _replaced(value, change, memo)
            if new is not value:
                if changed is None:
                    changed = {}
                changed[field] = new
    result = node if changed is None else _rebuilt(node, changed)
    memo[id(node)] = result
    return result


def replace_in(stmts: Sequence[ast.stmt], change: Callable[[ast.AST], Optional[ast.AST]],
               memo: Optional[dict[int, ast.AST]] = None) -> list[ast.stmt]:
    memo = {} if memo is None else memo
    return [replace_nodes(s, change, memo) for s in stmts]


def replacing(old: ast.expr, new: ast.expr) -> Callable[[ast.AST], Optional[ast.AST]]:
    """A change for `replace_nodes`: every expression of the structure of `old` becomes `new`."""
    shape = key(old)
    kind = type(old)

    def change(node: ast.AST) -> Optional[ast.AST]:
        return new if type(node) is kind and key(node) == shape else None

    return change


def renaming(old: str, new: str) -> Callable[[ast.AST], Optional[ast.AST]]:
    """A change for `replace_nodes`: the name `old` becomes `new` (where it is read)."""

    def change(node: ast.AST) -> Optional[ast.AST]:
        if isinstance(node, ast.Name) and node.id == old:
            return ast.Name(id=new, ctx=node.ctx)
        return None

    return change


def without(stmts: Sequence[ast.stmt], drop: Callable[[ast.stmt], bool]) -> list[ast.stmt]:
    """`stmts` without the statements (at any depth) for which `drop` holds; a
    block they leave empty holds `pass`."""
    kept: list[ast.stmt] = []
    for stmt in stmts:
        if drop(stmt):
            continue
        changed: dict[str, object] = {}
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                inner = without(block, drop)
                if len(inner) != len(block) or any(a is not b for a, b in zip(inner, block)):
                    changed[field] = inner or [pass_()]
        kept.append(_rebuilt(stmt, changed))
    return kept


def splice(stmts: Sequence[ast.stmt], target: ast.stmt, replacement: Sequence[ast.stmt]) -> list[ast.stmt]:
    """`stmts` with the statement `target` (that very node, at any depth) replaced by `replacement`."""
    result: list[ast.stmt] = []
    for stmt in stmts:
        if stmt is target:
            result.extend(replacement)
            continue
        changed: dict[str, object] = {}
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                inner = splice(block, target, replacement)
                if len(inner) != len(block) or any(a is not b for a, b in zip(inner, block)):
                    changed[field] = inner
        result.append(_rebuilt(stmt, changed))
    return result


def with_blocks(stmt: ast.stmt, change: Callable[[list[ast.stmt]], list[ast.stmt]]) -> ast.stmt:
    """`stmt` with each of its blocks (body, else, finally) made by `change` (`stmt`
    itself where `change` gave back every block as it was)."""
    changed: dict[str, object] = {}
    for field in ("body", "orelse", "finalbody"):
        block = getattr(stmt, field, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            inner = change(block)
            if len(inner) != len(block) or any(a is not b for a, b in zip(inner, block)):
                changed[field] = inner
    return _rebuilt(stmt, changed)


def _rebuilt(node: N, changed: dict[str, object]) -> N:
    """`node` itself when nothing changed, else a new node of its kind with the `changed` fields."""
    if not changed:
        return node
    kind: Any = type(node)
    rebuilt = kind(**{f: changed.get(f, getattr(node, f, None)) for f in node._fields})
    kept_places(node, rebuilt)
    return rebuilt  # type: ignore[no-any-return]


def kept_places(node: ast.AST, rebuilt: ast.AST) -> None:
    """`rebuilt`, a new node of `node`'s kind and value, told the places `node` may read."""
    places = node.__dict__.get(PLACES)
    if places is not None:
        setattr(rebuilt, PLACES, places)
