"""Python source generated from a game's rules, and the guarantee that no text of
a definition ever becomes code.

Compilation turns every decision, case and rule of a game into Python functions
(the way RBG compiles rules to C++): one function per decision lists its actions
with plain loops, one function per case applies it. The source is built here, and
the builder is the only way source is made, so its guarantees hold everywhere:

- every name in the source is generated: a fixed set of register names, the
  helpers of `runtime/helpers.py`, and `PREFIX<number>` names made by `fresh`;
- every value from a definition reaches the source as a generated constant name
  (`const`) bound in the namespace the source runs in, never as text — strings,
  tuples and tables alike; only whole numbers are written out, and only after
  checking that they are `int`s;
- comments hold numbers only.

`compile_source` checks the finished text token by token against these rules before
it is compiled, so that a mistake in the compiler cannot open a way in either.
"""
from __future__ import annotations

import io
import re
import token
import tokenize
from contextlib import contextmanager
from typing import Any, Iterator

# Names the generated code uses for the registers of the rules language. They are
# locals of every generated function (see compilation/registers.py).
REGISTER_NAMES = frozenset(
    {
        "s", "b", "o", "v", "p",  # the state, its board, site lists, variables; the deciding player
        "frm", "at", "pc",  # where the action started, where the acting piece is now, the piece
        "to", "tg", "js", "jp",  # landing site and what stood there; jumped site and piece
        "site", "ov", "code", "out", "fu", "kk", "q", "ray", "row", "lo", "hi", "dist", "off", "ends",
        "x0", "x1", "x2", "x3",  # scratch values of one statement
        "wb", "start", "tier", "reps", "stuck",  # blocking sites of walks; where a piece's actions start in `out`; prefer tier
    }
)
# Builtins the generated code may call.
BUILTIN_NAMES = frozenset(
    {"len", "range", "any", "all", "sum", "min", "max", "abs", "list", "tuple", "sorted", "set", "next", "enumerate"}
)
# Attributes the generated code reads or sets (of states, lists and helpers).
ATTRIBUTE_NAMES = frozenset(
    {"board", "occ", "vars", "player", "phase", "decision", "step", "carry", "next_player", "next_phase", "result",
     "turn_start",
     "append", "remove", "ends", "row", "table", "passed_any", "single", "several", "open_several", "by_length", "known",
     "mask"}
)
# The keywords the generated code uses (not `import`, `global`, `class`, `with`, ...).
KEYWORDS = frozenset(
    {"False", "None", "True", "and", "or", "not", "in", "is", "if", "elif", "else", "for", "while", "break",
     "continue", "def", "return", "pass", "lambda"}
)
# Prefixes of generated names: constants, locals, loop variables, functions, helpers.
NAME_PREFIXES = ("k", "l", "i", "f", "g", "t", "h_")
_GENERATED = re.compile(r"(?:k|l|i|f|g|t)[0-9]+|h_[a-z_]+")
_INT = re.compile(r"[0-9]+")

# Generated code larger than this is refused: defines used inside defines can make
# the code grow exponentially with the text of the rules.
MAX_SOURCE_CHARS = 8_000_000


class SourceTooLarge(Exception):
    """The rules expand to more code than MAX_SOURCE_CHARS."""


class UnsafeSource(Exception):
    """The generated source broke one of the rules of this module (a compiler bug)."""


def int_literal(value: Any) -> str:
    """A whole number as source text (bools are refused: they are ints to Python)."""
    if type(value) is not int:
        raise UnsafeSource(f"only whole numbers are written into the source, not {type(value).__name__}")
    return repr(value) if value >= 0 else f"({value})"


class Source:
    """The source of one compiled game: functions, their constants, fresh names."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.namespace: dict[str, Any] = {}
        self._by_key: dict[Any, str] = {}
        self._counters = {prefix: 0 for prefix in NAME_PREFIXES}
        self._depth = 0
        self._size = 0

    # ------------------------------------------------------------ names
    def fresh(self, prefix: str) -> str:
        """A new name `PREFIX<n>` (prefix one of k, l, i, f, g, t)."""
        if prefix not in self._counters or prefix == "h_":
            raise UnsafeSource(f"unknown name prefix {prefix!r}")
        n = self._counters[prefix]
        self._counters[prefix] = n + 1
        return f"{prefix}{n}"

    def const(self, value: Any, key: Any = None) -> str:
        """The name of a constant holding `value`. Equal hashable values (or values
        given the same `key`) share one name."""
        if key is None:
            try:
                key = ("value", type(value), value)
                hash(key)
            except TypeError:
                key = ("id", id(value))
                self._by_key.setdefault(("keep", id(value)), value)  # keep it alive: ids are unique only then
        name = self._by_key.get(key)
        if name is None:
            name = self._by_key[key] = self.fresh("k")
            self.namespace[name] = value
        return name

    def helper(self, name: str, fn: Any) -> str:
        """Bind a runtime helper under `name` (which must start with `h_`)."""
        if not re.fullmatch(r"h_[a-z_]+", name):
            raise UnsafeSource(f"helper names start with h_: {name!r}")
        self.namespace[name] = fn
        return name

    # ------------------------------------------------------------ lines
    def line(self, text: str) -> None:
        self._size += len(text) + 4 * self._depth
        if self._size > MAX_SOURCE_CHARS:
            raise SourceTooLarge(self._size)
        self.lines.append("    " * self._depth + text)

    @contextmanager
    def block(self, head: str) -> Iterator[None]:
        """`head` (ending in ':') and an indented body; `pass` if the body stays empty."""
        self.line(head)
        self._depth += 1
        start = len(self.lines)
        try:
            yield
        finally:
            if len(self.lines) == start:
                self.line("pass")
            self._depth -= 1

    @contextmanager
    def indented(self, levels: int) -> Iterator[None]:
        """Lines written inside go `levels` deeper (into blocks opened by pasted lines)."""
        self._depth += levels
        try:
            yield
        finally:
            self._depth -= levels

    @contextmanager
    def capture(self) -> Iterator[list]:
        """Lines written inside go to the list yielded (indented from 0), not to the
        source: a block compiled once and pasted into several functions."""
        saved = self.lines, self._depth
        captured: list[str] = []
        self.lines, self._depth = captured, 0
        try:
            yield captured
        finally:
            self.lines, self._depth = saved

    def paste(self, lines: list) -> None:
        """Lines captured earlier, at the current indentation."""
        for text in lines:
            self.line(text)

    def mark(self) -> tuple[int, int]:
        """Where the next line goes (to insert lines there later with `insert`)."""
        return len(self.lines), self._depth

    def insert(self, mark: tuple[int, int], lines: list[str]) -> None:
        index, depth = mark
        self.lines[index:index] = ["    " * depth + text for text in lines]

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


# The tokens the compiler writes: names, whole numbers, operators, comments of
# numbers, and the layout. Anything else — strings, bytes, f-strings (tokens of
# their own from Python 3.12), type comments, tokens of later Pythons — is refused.
_LAYOUT = frozenset({token.NEWLINE, token.NL, token.INDENT, token.DEDENT, token.ENDMARKER})
_REFUSED_OPERATORS = frozenset({"@", "@=", "`", "!"})
_COMMENT = re.compile(r"#[ 0-9:]*")


def check_source(text: str, namespace: dict) -> None:
    """Refuse source that breaks the rules of this module (see its docstring):
    every token must be one the compiler writes (an allow-list of token types)."""
    reader = io.StringIO(text).readline
    try:
        previous = None
        for tok in tokenize.generate_tokens(reader):
            _check_token(tok, previous, namespace)
            previous = tok
    except (tokenize.TokenError, SyntaxError) as exc:  # (3.12 raises SyntaxError for what 3.11 tokenised)
        raise UnsafeSource(f"unreadable text: {exc}") from None


def _check_token(tok: tokenize.TokenInfo, previous: tokenize.TokenInfo | None, namespace: dict) -> None:
    where = f"at line {tok.start[0]}"
    if tok.type == token.NAME:
        name = tok.string
        if previous is not None and previous.type == token.OP and previous.string == ".":
            if name not in ATTRIBUTE_NAMES:
                raise UnsafeSource(f"attribute {name!r} {where} is not one the compiler writes")
        elif not (name in KEYWORDS or name in REGISTER_NAMES or name in BUILTIN_NAMES or (
                _GENERATED.fullmatch(name) and (not name.startswith(("k", "h_")) or name in namespace))):
            raise UnsafeSource(f"name {name!r} {where} was not generated")
    elif tok.type == token.NUMBER:
        if not _INT.fullmatch(tok.string):
            raise UnsafeSource(f"number {tok.string[:20]!r} {where}")
    elif tok.type == token.OP:
        if tok.string in _REFUSED_OPERATORS:
            raise UnsafeSource(f"operator {tok.string!r} {where}")
    elif tok.type == tokenize.COMMENT:
        if not _COMMENT.fullmatch(tok.string):
            raise UnsafeSource(f"comment {where}")
    elif tok.type not in _LAYOUT:
        raise UnsafeSource(f"a literal or token {tok.string[:20]!r} ({token.tok_name.get(tok.type, tok.type)}) {where}")


def compile_source(source: Source, filename: str = "<regelwerk rules>") -> dict:
    """Check and run the source; returns its namespace (constants, helpers and the
    generated functions)."""
    text = source.text()
    check_source(text, source.namespace)
    namespace = dict(source.namespace)
    namespace["__builtins__"] = {name: __builtins__[name] if isinstance(__builtins__, dict) else getattr(__builtins__, name) for name in BUILTIN_NAMES}
    code = compile(text, filename, "exec")
    exec(code, namespace)  # noqa: S102 - generated and checked above; no text of a definition is in it
    return namespace
