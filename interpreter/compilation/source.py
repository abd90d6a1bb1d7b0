"""The code generated from a game's rules, and the guarantee that no text of a
definition ever becomes code.

Compilation turns every decision, case and rule of a game into Python functions
(the way RBG compiles rules to C++): one function per decision lists its actions
with plain loops, one function per case applies it. They are syntax trees
(Python's `ast`, built with pyast.py) collected here, and compiled as trees: no
text is parsed. `Source` is the only way code is made, so its guarantees hold
everywhere:

- every name in the code is generated: a fixed set of register names, the
  helpers of `runtime/helpers.py`, a few builtins, and `PREFIX<number>` names
  made by `fresh`;
- every value from a definition reaches the code as a generated constant name
  (`const`) bound in the namespace the code runs in, never as a literal —
  strings, tuples and tables alike; only whole numbers, True, False and None
  are literals.

`compile_module` checks the finished tree node by node against these rules
(`check_tree`: an allow-list of node kinds, names, attributes and constants)
before it is compiled, so that a mistake in the compiler cannot open a way in
either. Each generated function and constant keeps where it comes from
(`origins`: the decision, case, phase or rule and its line), for people who read
the code (`regelwerk show --compiled`).
"""
from __future__ import annotations

import ast
import builtins
import re
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional, Sequence, Union

from ..runtime.compiled import GENERATED_FILE
from ..runtime.compiled import Origin as Origin  # (where each generated name comes from; re-exported)
from . import pyast

# Names the generated code uses for the registers of the rules language. They are
# locals of every generated function (see compilation/registers.py).
REGISTER_NAMES = frozenset(
    {
        "s", "b", "o", "v", "p",  # the state, its board, site lists, variables; the deciding player
        "frm", "at", "pc",  # where the action started, where the acting piece is now, the piece
        "to", "tg", "js", "jp",  # landing site and what stood there; jumped site and piece
        "site", "ov", "code", "out", "fu", "kk", "q", "ray", "row", "lo", "hi", "dist", "off", "ends",
        "x0", "x1", "x2", "x3",  # scratch values of one statement
        "memo",  # a listing's answers of the listed position (compilation/result_reuse.py)
        "notes",  # the regions' answers the score's calls share (Results.scores, expr_sets._shared_key)
        # blocking sites of walks; where a piece's actions start in `out`; prefer tier
        "wb", "start", "tier", "reps", "stuck",
        "passes",  # a walk's test of the sites it passes (a function of `site`)
    }
)
# Builtins the generated code may call.
BUILTIN_NAMES = frozenset(
    {"len", "range", "any", "all", "sum", "min", "max", "abs", "list", "tuple", "sorted", "set", "next", "enumerate",
     "int"}
)
# Attributes the generated code reads or sets (of states, lists and helpers).
ATTRIBUTE_NAMES = frozenset(
    {"board", "occ", "vars", "player", "phase", "decision", "step", "carry", "next_player", "next_phase", "result",
     "turn_start",
     "append", "remove", "ends", "row", "table", "passed_any", "single", "several", "open_several", "by_length",
     "known", "mask", "pop", "bit_count",
     # (the board's key, compilation/board_keys.py)
     "board_key", "board_counted",
     # (the empty sites, kept where a playout draws from them: compilation/board_keys.py, draws.py)
     "empty",
     # (the groups' records, read where their liberties are asked: compilation/liberties.py)
     "chains",
     # (a `forbid result` check tried in place: compilation/journal.py)
     "ending", "index"}
)
# Prefixes of generated names: constants, locals, loop variables, functions, gates, temporaries, helpers.
NAME_PREFIXES = ("k", "l", "i", "f", "g", "t")
_GENERATED = re.compile(r"[klifgt]\d+")
_HELPER = re.compile(r"h_[a-z_]+")

# Generated code larger than this many syntax-tree nodes is refused: defines used
# inside defines can make the code grow exponentially with the text of the rules.
MAX_CODE_NODES = 4_000_000
# Whole numbers in the code are within this bound (the rules' own are within
# expressions.NUMBER_LIMIT; the compiler's are indices and small constants).
MAX_LITERAL = 10**18

# The kinds of node the compiler writes, and the only ones the check lets through:
# no strings, f-strings, imports, lambdas, classes, globals, attribute-free calls
# of anything but generated names.
ALLOWED_NODES: frozenset[type] = frozenset({
    ast.Module, ast.FunctionDef, ast.arguments, ast.arg,
    ast.Assign, ast.AugAssign, ast.Expr, ast.If, ast.For, ast.While, ast.Break, ast.Continue, ast.Pass, ast.Return,
    ast.Try,  # (with a `finally` only: a check tried in place undoes itself, compilation/journal.py)
    ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.IfExp, ast.Call, ast.NamedExpr,
    ast.Name, ast.Attribute, ast.Subscript, ast.Slice, ast.Constant, ast.Tuple, ast.List,
    ast.ListComp, ast.GeneratorExp, ast.comprehension,
    ast.Load, ast.Store,
    ast.And, ast.Or, ast.Not, ast.USub,
    ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.BitAnd, ast.BitOr, ast.BitXor,
    ast.RShift,  # (no left shift: a right shift's value is never larger than its operand)
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot,
})


class _Unbound:
    """What a name `Source.bound_later` made holds until `bind_later` binds it."""

    def __repr__(self) -> str:
        return "<bound once the module is compiled>"


_UNBOUND = _Unbound()


class SourceTooLarge(Exception):
    """The rules expand to more code than MAX_CODE_NODES."""


class LoopsTooNested(Exception):
    """Python refused the generated module: more loops one inside another than
    it compiles (20 blocks). `origin`: where the function holding them comes from."""

    def __init__(self, origin: Optional[Origin]) -> None:
        super().__init__(str(origin))
        self.origin = origin


class UnsafeSource(Exception):
    """The generated code broke one of the rules of this module (a compiler bug)."""


class Source:
    """The code of one compiled game: functions, their constants, fresh names;
    statements are written into the innermost open block (`add`, `if_`, `for_`, ...)."""

    def __init__(self) -> None:
        self.functions: list[ast.stmt] = []
        self.namespace: dict[str, Any] = {}
        self.origins: dict[str, Origin] = {}  # generated name -> where it comes from
        self._by_key: dict[Any, ast.Name] = {}
        self._counters = {prefix: 0 for prefix in NAME_PREFIXES}
        self._blocks: list[list[ast.stmt]] = [self.functions]
        self._origin: list[Origin] = []
        self._kept: list[Any] = []
        self._size = 0
        self.later: set[str] = set()  # names bound once the module is compiled (`bind_later`)
        # locals holding a whole number (an int or a truth value) wherever they are
        # read: a `let` of a value the rules type as a whole number (tabulate.py)
        self.whole: set[str] = set()
        # the searches that try kept paths (expr_connected.witnessed_loop), by the
        # local holding their answer: what kept_paths.py needs to find, on a
        # listed position, the paths that keep each answer true (`KeptSearch`)
        self.kept_searches: dict[str, Any] = {}
        # the names bound later to the tables of paths of searches of one shape, by
        # name: that shape (kept_paths.tables_bound)
        self.kept_tables: dict[str, Any] = {}

    # ------------------------------------------------------------ names
    def fresh(self, prefix: str) -> str:
        """A new name `PREFIX<n>` (prefix one of k, l, i, f, g, t)."""
        if prefix not in self._counters:
            raise UnsafeSource(f"unknown name prefix {prefix!r}")
        n = self._counters[prefix]
        self._counters[prefix] = n + 1
        return f"{prefix}{n}"

    def const(self, value: Any, key: Any = None) -> ast.Name:
        """The name of a constant holding `value`. Equal hashable values (or values
        given the same `key`) share one name; a value given a key of its own
        shares the name of an equal value made before (equal in every part's type
        as well), whatever key made it: two tables worked out apart (a line's
        count both ways, from each end) that come out the same are one."""
        if key is None:
            key = _value_key(value) or ("id", id(value))
            node = self._by_key.get(key)
        else:
            node = self._by_key.get(key)
            by_value = _value_key(value) if node is None else None
            if by_value is not None:
                same = self._by_key.get(by_value)
                if same is None:
                    node = self._by_key[by_value] = self._by_key[key] = self._named(value)
                elif _same_in_types(self.namespace[same.id], value):
                    node = self._by_key[key] = same
        if node is None:
            if key[0] == "id":
                self._kept.append(value)  # (ids are unique only while the value lives)
            node = self._by_key[key] = self._named(value)
        return node

    def _named(self, value: Any) -> ast.Name:
        """A new constant's name, bound to `value`."""
        identifier = self.fresh("k")
        self.namespace[identifier] = value
        if self._origin:
            self.origins[identifier] = self._origin[-1]
        return pyast.name(identifier)

    def value(self, node: ast.expr) -> Any:
        """The value of a constant `const` made (None for any other code)."""
        return self.namespace.get(node.id) if isinstance(node, ast.Name) and _GENERATED.fullmatch(node.id) else None

    def is_const_name(self, name: str) -> bool:
        """Whether `name` is a constant `const` made."""
        return name[0] == "k" and name in self.namespace and bool(_GENERATED.fullmatch(name))

    def helper(self, name: str, fn: Callable[..., Any]) -> str:
        """Bind a runtime helper under `name` (which must start with `h_`)."""
        if not _HELPER.fullmatch(name):
            raise UnsafeSource(f"helper names start with h_: {name!r}")
        self.namespace[name] = fn
        return name

    def bound_later(self, name: str) -> ast.Name:
        """`name` (a constant's or a helper's), read by the code but bound only once
        the module is compiled (`bind_later`): what it holds is made of generated
        functions (a table of them, an object that calls one)."""
        if not (_GENERATED.fullmatch(name) and name[0] == "k" or _HELPER.fullmatch(name)) or name in self.namespace:
            raise UnsafeSource(f"{name!r} is no new name of a constant or helper")
        self.namespace[name] = _UNBOUND
        self.later.add(name)
        if self._origin and name[0] == "k":
            self.origins[name] = self._origin[-1]
        return pyast.name(name)

    # ------------------------------------------------------------ origins
    @contextmanager
    def origin(self, origin: Origin) -> Iterator[None]:
        """Constants made inside come from `origin` (unless a nested one says more)."""
        self._origin.append(origin)
        try:
            yield
        finally:
            self._origin.pop()

    def function(self, name: str, params: Sequence[str], body: Sequence[ast.stmt], origin: Optional[Origin] = None,
                 defaults: Sequence[ast.expr] = ()) -> str:
        """Add the generated function `name` (made by `fresh`) of the module."""
        if origin is not None:
            self.origins[name] = origin
        self.functions.append(pyast.function(name, params, body, defaults))
        self._grow(len(params) + 2)
        return name

    # ------------------------------------------------------------ statements
    def add(self, *stmts: ast.stmt) -> None:
        """Statements at the end of the innermost block."""
        for stmt in stmts:
            self._grow(_node_count(stmt))
            self._blocks[-1].append(stmt)

    def paste(self, stmts: Sequence[ast.stmt]) -> None:
        """Statements made earlier (a block compiled once and pasted into several functions)."""
        self.add(*stmts)

    @contextmanager
    def capture(self) -> Iterator[list[ast.stmt]]:
        """Statements written inside go to the list yielded, not to the block."""
        captured: list[ast.stmt] = []
        self._blocks.append(captured)
        try:
            yield captured
        finally:
            self._blocks.pop()

    @contextmanager
    def _block(self, make: Callable[[list[ast.stmt]], ast.stmt], head: Sequence[ast.AST]) -> Iterator[None]:
        with self.capture() as body:
            yield
        self._grow(sum(_node_count(node) for node in head) + 1)
        self._blocks[-1].append(make(body))

    def if_(self, test: ast.expr) -> Any:
        """`if test:` and the block written inside (`pass` when it stays empty)."""
        return self._block(lambda body: pyast.if_(test, body), (test,))

    def for_(self, target: ast.expr, iterable: ast.expr) -> Any:
        return self._block(lambda body: pyast.for_(target, iterable, body), (target, iterable))

    def while_(self, test: ast.expr) -> Any:
        return self._block(lambda body: pyast.while_(test, body), (test,))

    @contextmanager
    def else_(self) -> Iterator[None]:
        """`else:` of the `if` (or its last `elif`), `for` or `while` just written."""
        with self.capture() as body:
            yield
        self._grow(1)
        self._blocks[-1][-1] = _with_else(self._blocks[-1][-1], body or [pyast.pass_()])

    @contextmanager
    def elif_(self, test: ast.expr) -> Iterator[None]:
        """`elif test:` after the `if` just written."""
        with self.capture() as body:
            yield
        self._grow(_node_count(test) + 1)
        self._blocks[-1][-1] = _with_else(self._blocks[-1][-1], [pyast.if_(test, body)])

    def rewrite_last(self, change: Callable[[ast.stmt], Union[ast.stmt, list[ast.stmt], None]]) -> None:
        """The statement written last in the innermost block replaced by what
        `change` makes of it (a statement or several; None: kept). `change` keeps
        what the statement does."""
        block = self._blocks[-1]
        if block:
            rewritten = change(block[-1])
            if isinstance(rewritten, list):
                block[-1:] = rewritten
            elif rewritten is not None:
                block[-1] = rewritten

    def _grow(self, nodes: int) -> None:
        self._size += nodes
        if self._size > MAX_CODE_NODES:
            raise SourceTooLarge(self._size)

    # ------------------------------------------------------------ the module
    def module(self) -> ast.Module:
        return pyast.module(self.functions)

    def text(self) -> str:
        """The code as Python writes it (for people; the compiler never reads it)."""
        return ast.unparse(self.module())


def _with_else(stmt: ast.stmt, orelse: list[ast.stmt]) -> ast.stmt:
    """`stmt` (an if, for or while) with `orelse` as the else of its last `elif`."""
    if isinstance(stmt, ast.If) and stmt.orelse:
        assert len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], ast.If), "an else after an else"
        return ast.If(test=stmt.test, body=stmt.body, orelse=[_with_else(stmt.orelse[0], orelse)])
    if isinstance(stmt, ast.If):
        return ast.If(test=stmt.test, body=stmt.body, orelse=orelse)
    if isinstance(stmt, ast.For) and not stmt.orelse:
        return ast.For(target=stmt.target, iter=stmt.iter, body=stmt.body, orelse=orelse, type_comment=None)
    if isinstance(stmt, ast.While) and not stmt.orelse:
        return ast.While(test=stmt.test, body=stmt.body, orelse=orelse)
    raise AssertionError(f"no block to add an else to: {type(stmt).__name__}")


def _node_count(node: ast.AST) -> int:
    """The number of nodes of a tree (a statement keeps its count: a block pasted
    into many functions is counted once, and then as often as it is pasted)."""
    cached: Optional[int] = node.__dict__.get("_node_count")
    if cached is not None:
        return cached
    # (counted after the statements it holds, without recursion: a chain of a
    # thousand `elif`s is one statement holding the next)
    count = 0
    stack: list[tuple[ast.AST, Optional[tuple[int, list[ast.stmt]]]]] = [(node, None)]
    while stack:
        current, walked = stack.pop()
        if walked is None:
            if current is not node and "_node_count" in current.__dict__:
                continue
            walked = _own_nodes(current)
            stack.append((current, walked))
            stack.extend((stmt, None) for stmt in walked[1] if "_node_count" not in stmt.__dict__)
            continue
        own, stmts = walked
        count = own + sum(stmt.__dict__["_node_count"] for stmt in stmts)
        if isinstance(current, ast.stmt):
            current._node_count = count  # type: ignore[attr-defined]  # (nodes never change once built)
    return count


def _own_nodes(node: ast.AST) -> tuple[int, list[ast.stmt]]:
    """(the number of nodes of `node`'s tree outside the statements it holds, those statements)."""
    count = 0
    stmts: list[ast.stmt] = []
    stack = [node]
    while stack:
        current = stack.pop()
        count += 1
        for field in current._fields:
            value = getattr(current, field, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.stmt):
                        stmts.append(item)
                    elif isinstance(item, ast.AST):
                        stack.append(item)
            elif isinstance(value, ast.AST):
                stack.append(value)
    return count, stmts


# ---------------------------------------------------------------- the check
def check_tree(tree: ast.AST, namespace: dict[str, Any], locate: bool = False) -> None:
    """Refuse code that breaks the rules of this module (see its docstring). A
    node met twice, in a block pasted into several functions, is checked once.
    With `locate`, give every node of a module the place Python wants it to
    have: the line of a function is its number in the module (so that a
    traceback says which function ran)."""
    seen: set[int] = set()
    parts = tree.body if locate and isinstance(tree, ast.Module) else [tree]
    for line, part in enumerate(parts, 1):
        stack = [part]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            _check_node(node, namespace)
            if locate and "lineno" in node._attributes:
                node.lineno = node.end_lineno = line  # type: ignore[attr-defined]
                node.col_offset = node.end_col_offset = 0  # type: ignore[attr-defined]
            for field in node._fields:
                value = getattr(node, field, None)
                if isinstance(value, list):
                    stack.extend(item for item in value if isinstance(item, ast.AST))
                elif isinstance(value, ast.AST):
                    stack.append(value)


def _check_node(node: ast.AST, namespace: dict[str, Any]) -> None:
    kind = type(node)
    if kind not in ALLOWED_NODES:
        raise UnsafeSource(f"{kind.__name__}: the compiler never writes one")
    if isinstance(node, ast.Name):
        _check_name(node.id, namespace)
    elif isinstance(node, ast.Attribute):
        if node.attr not in ATTRIBUTE_NAMES:
            raise UnsafeSource(f"attribute {node.attr!r} is not one the compiler writes")
    elif isinstance(node, ast.Constant):
        _check_constant(node.value)
    elif isinstance(node, ast.FunctionDef):
        _check_function(node)
    elif isinstance(node, ast.arg):
        _check_name(node.arg, namespace)
    elif isinstance(node, ast.Call) and node.keywords:
        raise UnsafeSource("a call with keyword arguments: the compiler never writes one")
    elif isinstance(node, ast.Try) and (node.handlers or node.orelse or not node.finalbody):
        raise UnsafeSource("Try with a handler or an else: the compiler writes only try ... finally")


def _check_name(identifier: str, namespace: dict[str, Any]) -> None:
    if identifier in REGISTER_NAMES or identifier in BUILTIN_NAMES:
        return
    if _GENERATED.fullmatch(identifier) and (identifier[0] != "k" or identifier in namespace):
        return
    if _HELPER.fullmatch(identifier) and identifier in namespace:
        return
    raise UnsafeSource(f"name {identifier!r} was not generated")


def _value_key(value: Any) -> Optional[tuple[Any, ...]]:
    """The key of a hashable value among the constants (None: not hashable)."""
    try:
        key = ("value", type(value), value)
        hash(key)
    except TypeError:
        return None
    return key


def _same_in_types(a: Any, b: Any) -> bool:
    """Whether two equal values are of one type in every part (`(1, 0)` and
    `(True, False)` are equal, but the code may tell them apart: `is True`)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return all(map(_same_in_types, a, b))
    if isinstance(a, frozenset):
        return all(type(x) in (int, str) for x in a) and {(type(x), x) for x in a} == {(type(x), x) for x in b}
    if isinstance(a, float):
        return repr(a) == repr(b)
    return True


def _check_constant(value: object) -> None:
    if value is None or value is True or value is False:
        return
    if type(value) is int and 0 <= value <= MAX_LITERAL:
        return
    raise UnsafeSource(f"a literal {str(value)[:20]!r} ({type(value).__name__}): only whole numbers are written")


def _check_function(node: ast.FunctionDef) -> None:
    if not _GENERATED.fullmatch(node.name) and node.name not in REGISTER_NAMES:
        raise UnsafeSource(f"function {node.name!r} was not generated")
    if node.decorator_list or node.returns is not None or node.args.vararg or node.args.kwarg \
            or node.args.kwonlyargs or node.args.posonlyargs:
        raise UnsafeSource(f"function {node.name!r} has more than plain parameters")


def compile_module(source: Source, filename: str = GENERATED_FILE) -> dict[str, Any]:
    """Check and run the generated module; returns its namespace (constants,
    helpers and the generated functions)."""
    tree = source.module()
    check_tree(tree, source.namespace, locate=True)
    namespace = dict(source.namespace)
    namespace["__builtins__"] = {name: getattr(builtins, name) for name in BUILTIN_NAMES}
    try:
        code = compile(tree, filename, "exec")
    except SyntaxError as err:
        if "too many statically nested blocks" not in str(err):
            raise
        raise LoopsTooNested(_origin_of_part(source, tree, err.lineno)) from None
    exec(code, namespace)  # noqa: S102 - generated trees, checked above; no text of a definition is in them
    return namespace


def _origin_of_part(source: Source, tree: ast.Module, line: Optional[int]) -> Optional[Origin]:
    """Where the part of the module on `line` comes from (check_tree numbered them)."""
    part = tree.body[line - 1] if line is not None and 0 < line <= len(tree.body) else None
    return source.origins.get(part.name) if isinstance(part, ast.FunctionDef) else None


def bind_later(source: Source, namespace: dict[str, Any], values: dict[str, Any]) -> None:
    """Bind the names `source.bound_later` made in the namespace of the compiled
    module, before any of its code runs: each once, all of them."""
    if set(values) != source.later or any(namespace[name] is not _UNBOUND for name in values):
        raise UnsafeSource(f"the names bound later are {sorted(source.later)}, given {sorted(values)}")
    namespace.update(values)
