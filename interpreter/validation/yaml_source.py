"""Safe YAML loading that remembers where every value (and every key) came from.

PyYAML's `safe_load` gives plain data but forgets positions, silently keeps the last
of duplicate keys and expands aliases without limit. Here the node graph is composed
with the safe loader and turned into plain data by a bounded walk that records, for
each path (a tuple of mapping keys and list indices), the 1-based line and column of
the value and of its mapping key. Nothing here raises on bad input: every problem is
a `Diagnostic`.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, NamedTuple

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..limits import MAX_NUMBER
from .diagnostics import Diagnostic, first_hidden_control, shorten
from .files import FileRefused, read_bounded

Path = tuple[Any, ...]  # of str | int | other hashable YAML keys

MAX_YAML_BYTES = 2 * 1024 * 1024
_LINE_BREAKS = str.maketrans({"\r": "\n", "\x85": "\n", "\u2028": "\n", "\u2029": "\n"})
# Budget for nodes reached through aliases: generous for sharing a few blocks with
# anchors, tiny next to a "billion laughs" document (which needs 10**9).
MAX_ALIAS_EXPANSION = 10_000
MAX_DEPTH = 100
# Values (keys, values, list items) one document may hold. PyYAML's pure-Python
# reader spends about 30 µs a value: a file of the 2 MB allowed written as a flow
# list (`[c3, c3, ...]`, half a million values) took 17 s of processor time to load,
# where the largest definition known holds 1,500 values (8 KB). Past this bound
# the reading stops at once, at the value that passed it (about 3 s).
MAX_YAML_VALUES = 100_000
# An integer written with more characters than this is out of bounds without being
# converted (a sexagesimal `1:2:3:...` of a megabyte takes minutes to convert).
_MAX_NUMBER_TEXT = 40
_INT_TAG = "tag:yaml.org,2002:int"
_MAX_SIMPLE_KEY = 1024  # PyYAML's limit for a key written without '?'
_FLOAT_TAG = "tag:yaml.org,2002:float"

_MERGE_TAG = "tag:yaml.org,2002:merge"
_VALUE_TAG = "tag:yaml.org,2002:value"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_MAP_TAG = "tag:yaml.org,2002:map"


@dataclass
class PositionIndex:
    """Where the values and keys of a loaded document are.

    `values[path]` is the (line, column) of the value at `path`; `keys[path]` that of
    the mapping key whose value is at `path` (absent for list items and the root).
    """

    values: dict[Path, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Path, tuple[int, int]] = field(default_factory=dict)
    # 1-based exclusive end columns of single-line values and keys, for underlining.
    value_ends: dict[Path, int] = field(default_factory=dict)
    key_ends: dict[Path, int] = field(default_factory=dict)
    # Values YAML 1.1 read as true or false from a word (`on`, `off`, `yes`, `no`):
    # where a name was expected, the message says so.
    yes_no_words: dict[Path, str] = field(default_factory=dict)

    def value(self, path: Iterable[Any]) -> tuple[int, int] | None:
        return self.values.get(tuple(path))

    def key(self, path: Iterable[Any]) -> tuple[int, int] | None:
        return self.keys.get(tuple(path))

    def __getitem__(self, path: Iterable[Any]) -> tuple[int, int]:
        return self.values[tuple(path)]

    def __contains__(self, path: object) -> bool:
        return isinstance(path, tuple) and path in self.values

    def nearest(self, path: Iterable[Any], *, key: bool = False) -> tuple[Path, bool]:
        """The longest prefix of `path` that has a position, and whether it is a key's.

        Asking for the key of a path that has none (a list item) falls back to its value.
        """
        path = tuple(path)
        if key and path in self.keys:
            return path, True
        for length in range(len(path), -1, -1):
            if path[:length] in self.values:
                return path[:length], False
        return (), False

    def locate(self, path: Iterable[Any], *, key: bool = False) -> tuple[int, int]:
        """(line, column) of `path` (of its key if `key`), else of the nearest located ancestor, else (1, 1)."""
        found, is_key = self.nearest(path, key=key)
        table = self.keys if is_key else self.values
        return table.get(found, (1, 1))

    def end_column(self, path: Iterable[Any], *, key: bool = False) -> int | None:
        """End column (exclusive) of the exact value or key at `path` if it fits on one line."""
        path = tuple(path)
        return (self.key_ends if key else self.value_ends).get(path)


@dataclass
class YamlDocument:
    """The result of loading: plain data (None when unusable), positions, problems."""

    file: str
    text: str
    data: Any = None
    positions: PositionIndex = field(default_factory=PositionIndex)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


class _AliasNode(Node):
    """An alias occurrence kept in the node graph, so its own position is known."""

    id = "alias"

    def __init__(self, target: Node, start_mark: Any, end_mark: Any) -> None:
        super().__init__(target.tag, target, start_mark, end_mark)
        self.target = target


class _TooManyValues(Exception):
    """The document holds more than MAX_YAML_VALUES values; `mark`: where the one past them starts."""

    def __init__(self, mark: Any) -> None:
        super().__init__(mark)
        self.mark = mark


class _PositionLoader(yaml.SafeLoader):
    """The safe loader, composing only: aliases stay visible as `_AliasNode`s."""

    composed = 0

    def compose_node(self, parent: Any, index: int) -> Any:
        self.composed += 1
        if self.composed > MAX_YAML_VALUES:
            raise _TooManyValues(self.peek_event().start_mark)
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            target = super().compose_node(parent, index)
            assert target is not None  # (an alias stands for the node anchored before it)
            return _AliasNode(target, event.start_mark, event.end_mark)
        return super().compose_node(parent, index)


class _Stop(Exception):
    """Abandon the walk: the document cannot be turned into data safely."""

    def __init__(self, node: Node, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.node = node
        self.message = message
        self.hint = hint


def load_yaml_file(path: str | os.PathLike[str], display_name: str | None = None) -> YamlDocument:
    """Load a YAML file; `display_name` is the file name used in diagnostics (default: `path`)."""
    name = display_name if display_name is not None else os.fspath(path)
    try:
        raw = read_bounded(path, MAX_YAML_BYTES)
    except FileRefused as exc:
        if exc.too_large:
            return YamlDocument(name, "", diagnostics=[_too_large(name)])
        return YamlDocument(name, "", diagnostics=[Diagnostic(name, 1, 1, f"cannot read {name}: {exc.reason}")])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, column = line_column_of_bytes(raw, exc.start)
        message = f"{name} is not valid UTF-8 text (byte 0x{raw[exc.start]:02x})"
        return YamlDocument(name, "", diagnostics=[Diagnostic(name, line, column, message)])
    return load_yaml_text(text, name)


def load_yaml_text(text: str, file: str = "<string>") -> YamlDocument:
    """Load YAML from a string; `file` names it in diagnostics."""
    # PyYAML skips a byte-order mark but counts it as a column of the first line.
    text = text[1:] if text.startswith("\ufeff") else text
    # YAML also breaks lines at a lone '\r', U+0085, U+2028 and U+2029; the excerpts
    # of diagnostics split lines at '\n' only. Make them agree on line numbers.
    text = text.replace("\r\n", "\n").translate(_LINE_BREAKS)
    document = YamlDocument(file, text)
    if len(text) > MAX_YAML_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_YAML_BYTES:
        document.diagnostics.append(_too_large(file))
        return document
    loader = None
    try:
        loader = _PositionLoader(text)
        root = loader.get_single_node()
    except yaml.YAMLError as exc:
        document.diagnostics.append(_from_yaml_error(exc, file, text))
        return document
    except RecursionError:
        document.diagnostics.append(Diagnostic(file, 1, 1, "the document is nested too deeply"))
        return document
    except _TooManyValues as exc:
        line, column = _mark_position(exc.mark)
        document.diagnostics.append(Diagnostic(
            file, line, column, f"the document holds more than {MAX_YAML_VALUES} values (keys, values and list items)",
            hint="a definition as large as that takes too long to read; describe repeated parts with rules "
                 "(regions by ranks and files, `grid` boards, options)"))
        return document
    finally:
        if loader is not None:
            loader.dispose()
    if root is None:
        return document
    walker = _Walker(loader, file, document.positions, text)
    try:
        document.data = walker.walk(root, (), depth=0, in_alias=False, active=set())
    except _Stop as stop:
        line, column = _mark_position(stop.node.start_mark)
        walker.diagnostics.append(Diagnostic(file, line, column, stop.message, hint=stop.hint))
        document.data = None
    document.diagnostics.extend(walker.diagnostics)
    return document


def _too_large(file: str) -> Diagnostic:
    limit = MAX_YAML_BYTES // (1024 * 1024)
    return Diagnostic(file, 1, 1, f"{file} is too large (a definition file may have at most {limit} MB)")


def line_column_of_bytes(raw: bytes, offset: int) -> tuple[int, int]:
    before = raw[:offset]
    line_start = before.rfind(b"\n") + 1
    column = len(before[line_start:].decode("utf-8", "replace")) + 1
    return before.count(b"\n") + 1, column


def _mark_position(mark: Any) -> tuple[int, int]:
    return mark.line + 1, mark.column + 1


class _Walker:
    """Turns composed nodes into plain data, recording positions, bounded in work."""

    def __init__(self, loader: yaml.SafeLoader, file: str, positions: PositionIndex, text: str = "") -> None:
        self.loader = loader
        self.file = file
        self.positions = positions
        self.lines = text.split("\n")
        self.diagnostics: list[Diagnostic] = []
        self.expanded = 0
        # Where an alias bomb is reported: the alias in the document's own text whose
        # expansion ran over the budget, not a value deep inside an anchor.
        self.outermost_alias: Node | None = None

    def walk(self, node: Node, path: Path, *, depth: int, in_alias: bool, active: set[int]) -> Any:
        if isinstance(node, _AliasNode):
            self._record_value(path, node)
            if not in_alias:
                self.outermost_alias = node
            return self._walk_inner(node.target, path, depth=depth, in_alias=True, active=active)
        self._record_value(path, node)
        return self._walk_inner(node, path, depth=depth, in_alias=in_alias, active=active)

    def _walk_inner(self, node: Node, path: Path, *, depth: int, in_alias: bool, active: set[int]) -> Any:
        if depth > MAX_DEPTH:
            raise _Stop(node, f"the document is nested too deeply (more than {MAX_DEPTH} levels)")
        if in_alias:
            self.expanded += 1
            if self.expanded > MAX_ALIAS_EXPANSION:
                raise _Stop(
                    self.outermost_alias or node,
                    f"aliases expand to more than {MAX_ALIAS_EXPANSION} values",
                    hint="a definition may reuse blocks with anchors and aliases, but not multiply them without bound",
                )
        if isinstance(node, ScalarNode):
            value = self._scalar(node)
            if isinstance(value, bool) and node.style is None and node.value.lower() not in ("true", "false"):
                self.positions.yes_no_words[path] = node.value
            return value
        if id(node) in active:
            raise _Stop(node, "an alias refers to a block that contains it (recursive alias)")
        active.add(id(node))
        try:
            if isinstance(node, SequenceNode):
                if node.tag != _SEQ_TAG:
                    raise _Stop(node, f"unsupported YAML tag {_short_tag(node.tag)!r}", hint=_TAG_HINT)
                return [
                    self.walk(item, path + (index,), depth=depth + 1, in_alias=in_alias, active=active)
                    for index, item in enumerate(node.value)
                ]
            if isinstance(node, MappingNode):
                return self._mapping(node, path, depth=depth, in_alias=in_alias, active=active)
            raise _Stop(node, "unsupported YAML node")
        finally:
            active.discard(id(node))

    def _scalar(self, node: ScalarNode) -> Any:
        if node.tag == _VALUE_TAG:  # the '=' key of old YAML: PyYAML reads it as a string
            return node.value
        if node.tag == _NULL_TAG and not node.value:
            self._check_swallowed_value(node)
        if node.tag in (_INT_TAG, _FLOAT_TAG) and len(node.value) > _MAX_NUMBER_TEXT:
            raise _number_out_of_bounds(node)
        value = self._construct(node)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and not abs(value) <= MAX_NUMBER:
            raise _number_out_of_bounds(node)  # (`not <=`: NaN is out of bounds too)
        if isinstance(value, str) and first_hidden_control(value) >= 0:
            code = ord(value[first_hidden_control(value)])
            raise _Stop(node, f"a text with the control character U+{code:04X}",
                        hint="a definition holds plain text: remove it (no escapes such as \\e or \\u202e)")
        return value

    def _check_swallowed_value(self, node: ScalarNode) -> None:
        """`color: #f2efe6` is an empty value and a comment: say so where the '#' is."""
        line = node.start_mark.line
        rest = self.lines[line][node.start_mark.column:] if line < len(self.lines) else ""
        match = _HASH_VALUE.match(rest)
        if match is not None:
            column = node.start_mark.column + match.start(1) + 1
            self.diagnostics.append(_comment_not_value(self.file, line + 1, column, match.group(1)))

    def _construct(self, node: ScalarNode) -> Any:
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            problem = exc.problem or ""
            if "could not determine a constructor for the tag" in problem:
                raise _Stop(node, f"unsupported YAML tag {_short_tag(node.tag)!r}", hint=_TAG_HINT) from None
            raise _Stop(node, problem or "invalid value") from None
        except Exception:
            # PyYAML's scalar constructors fail with assorted exceptions on malformed
            # explicitly tagged values (`!!timestamp nope`, bad `!!binary`).
            raise _Stop(node, f"invalid value {shorten(node.value)!r} for tag {_short_tag(node.tag)!r}") from None

    def _mapping(self, node: MappingNode, path: Path, *, depth: int, in_alias: bool,
                 active: set[int]) -> dict[str, Any]:
        if node.tag != _MAP_TAG:
            raise _Stop(node, f"unsupported YAML tag {_short_tag(node.tag)!r}", hint=_TAG_HINT)
        own: dict[str, Any] = {}
        key_nodes: dict[str, Any] = {}
        merges: list[Node] = []
        for key_node, value_node in node.value:
            key_target = self._target(key_node)
            if isinstance(key_target, ScalarNode) and key_target.tag == _MERGE_TAG:
                merges.append(value_node)
                continue
            key = self._key(key_node)
            if key in key_nodes:
                first_line, first_column = _mark_position(key_nodes[key].start_mark)
                line, column = _mark_position(key_node.start_mark)
                self.diagnostics.append(
                    Diagnostic(
                        self.file,
                        line,
                        column,
                        f"duplicate key {_show_key(key)} (first defined at {first_line}:{first_column})",
                        end_column=_end_column(key_node),
                    )
                )
                continue
            key_nodes[key] = key_node
            self._record_key(path + (key,), key_node)
            own[key] = self.walk(value_node, path + (key,), depth=depth + 1, in_alias=in_alias, active=active)
        if not merges:
            return own
        # '<<' merge keys, as YAML 1.1 and safe_load have them: the mapping's own keys
        # win, then earlier merged mappings over later ones. Own keys were walked (and
        # their positions recorded) first, so positions follow the same precedence.
        merged: dict[str, Any] = {}
        for merge_value in merges:
            target = self._target(merge_value)
            sources = target.value if isinstance(target, SequenceNode) else [merge_value]
            for source in sources:
                if not isinstance(self._target(source), MappingNode):
                    raise _Stop(source, "'<<' can only merge a mapping or a list of mappings")
                for key, value in self.walk(source, path, depth=depth, in_alias=True, active=active).items():
                    merged.setdefault(key, value)
        merged.update(own)
        return merged

    def _key(self, key_node: Node) -> Any:
        target = self._target(key_node)
        if not isinstance(target, ScalarNode):
            kind = "a list" if isinstance(target, SequenceNode) else "a mapping"
            raise _Stop(key_node, f"a mapping key must be a plain value, found {kind}")
        key = self._scalar(target)
        if isinstance(key, bool) and target.style is None:
            # YAML 1.1 reads a plain `on:`, `off:`, `yes:`, `no:` as true or false; every
            # key of a definition is a name (a variable, a region, a player...): keep
            # the word as written rather than lose it to a boolean.
            return target.value
        if key is None:
            # `: value`, `&anchor: value` or `null: value`: no name reaches the data.
            raise _Stop(key_node, "a mapping key is empty (or null)", hint="write a name before the ':'")
        return key

    @staticmethod
    def _target(node: Node) -> Node:
        return node.target if isinstance(node, _AliasNode) else node

    def _record_value(self, path: Path, node: Node) -> None:
        # Keys already recorded keep their first position (merged entries come later).
        if path not in self.positions.values:
            self.positions.values[path] = _mark_position(node.start_mark)
            end = _end_column(node)
            if end is not None:
                self.positions.value_ends[path] = end

    def _record_key(self, path: Path, node: Node) -> None:
        if path not in self.positions.keys:
            self.positions.keys[path] = _mark_position(node.start_mark)
            end = _end_column(node)
            if end is not None:
                self.positions.key_ends[path] = end


def _number_out_of_bounds(node: ScalarNode) -> _Stop:
    return _Stop(
        node,
        f"the number {shorten(node.value)} is out of bounds: numbers in a definition lie between "
        f"-{MAX_NUMBER} and {MAX_NUMBER}",
        hint="write a smaller number (or quote it if it is meant as text)",
    )


# A value written where YAML sees a comment: '#' right after the key (or after '[',
# '{', ','), followed by a word, not by the space a comment usually has.
_HASH_VALUE = re.compile(r"[ \t]*(#[^\s#][^\s,\]}]*)")
_NULL_TAG = "tag:yaml.org,2002:null"


def _comment_not_value(file: str, line: int, column: int, word: str) -> Diagnostic:
    return Diagnostic(
        file, line, column,
        f"'{shorten(word)}' is read as a comment ('#' starts a comment in YAML), so the value before it is empty",
        hint=f'put the value in quotes: "{shorten(word)}"',
    )


_TAG_HINT = "definitions are plain YAML data: mappings, lists, strings, numbers, true/false, null"


def _end_column(node: Node) -> int | None:
    if node.start_mark.line == node.end_mark.line and not isinstance(node, (MappingNode, SequenceNode)):
        return node.end_mark.column + 1
    return None


def _short_tag(tag: str) -> str:
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix):] if tag.startswith(prefix) else tag


def _show_key(key: Any) -> str:
    return repr(key) if isinstance(key, str) else str(key)


# --- YAML syntax errors -----------------------------------------------------------

_TOKEN_WORDS = {
    "<block end>": "the end of the block",
    "<block mapping start>": "a new mapping",
    "<block sequence start>": "a new list",
    "<block entry>": "a list item ('- ')",
    "<scalar>": "a value",
    "<alias>": "an alias",
    "<anchor>": "an anchor",
    "<tag>": "a tag",
    "<stream end>": "the end of the file",
    "<document start>": "'---'",
    "<document end>": "'...'",
    "<directive>": "a directive",
    "?": "a mapping key",
}

_CONTEXT_WORDS = {
    "while parsing a block mapping": "mapping",
    "while parsing a block collection": "list",
    "while parsing a flow sequence": "list",
    "while parsing a flow mapping": "mapping",
}


def _from_yaml_error(exc: yaml.YAMLError, file: str, text: str) -> Diagnostic:
    if isinstance(exc, yaml.reader.ReaderError):
        line, column = line_column_of_offset(text, exc.position)
        if isinstance(exc.character, int):
            code = exc.character
        else:
            code = ord(exc.character) if exc.character else 0
        return Diagnostic(file, line, column, f"control character U+{code:04X} is not allowed in YAML")
    if not isinstance(exc, yaml.MarkedYAMLError):
        return Diagnostic(file, 1, 1, str(exc).splitlines()[0] if str(exc) else "invalid YAML")
    mark = exc.problem_mark or exc.context_mark
    line, column = _mark_position(mark) if mark is not None else (1, 1)
    flows = ("while parsing a flow sequence", "while parsing a flow mapping")
    flow = exc.context_mark if exc.context in flows else None
    runaway = _runaway_quote(text, line, _mark_position(flow) if flow is not None else None)
    if runaway is not None:
        # A string missing its closing quote swallows the lines after it, up to the
        # next quote; the error only shows where that accidental string ends.
        (start_line, start_column), end_line = runaway
        return Diagnostic(
            file, start_line, start_column, f"unclosed quote: this string runs on to line {end_line}",
            hint="add the closing quote",
        )
    swallowed = _swallowed_in_flow(exc, file, text, line)
    if swallowed is not None:
        return swallowed
    explained = _explain(exc, text, line, column)
    if explained.long_key and exc.context_mark is None:
        column = len(text.split("\n")[line - 1]) - len(text.split("\n")[line - 1].lstrip()) + 1  # the key's start
    if explained.at_start and exc.context_mark is not None:
        # The end of the file is no place to look for a missing quote, nor the next
        # line for a missing ':' or an unclosed bracket: point where they belong.
        line, column = _mark_position(exc.context_mark)
    return Diagnostic(file, line, column, explained.message, hint=explained.hint)


_FLOW_HASH = re.compile(r"[:\[{,][ \t]*(#[^\s#][^\s,\]}]*)")


def _swallowed_in_flow(exc: yaml.MarkedYAMLError, file: str, text: str, line: int) -> Diagnostic | None:
    """A `{...}` or `[...]` broken by a value that YAML reads as a comment
    (`{color: #f2efe6, ...}`): the comment took the closing bracket with it. Looked
    for on the lines just before the error, in a bracket still open at the '#'."""
    if "flow" not in (exc.context or ""):
        return None
    lines = text.split("\n")
    for number in range(min(line, len(lines)) - 1, max(-1, line - 1 - _FLOW_LOOKBACK), -1):
        match = _FLOW_HASH.search(lines[number])
        before = lines[number][: match.start(1)] if match is not None else ""
        opened = before.count("{") + before.count("[") - before.count("}") - before.count("]")
        if match is not None and opened > 0:
            word = shorten(match.group(1))
            return Diagnostic(
                file, number + 1, match.start(1) + 1,
                f"'{word}' is read as a comment ('#' starts a comment in YAML): the rest of the line is "
                "ignored, with the bracket that closes it",
                hint=f'put the value in quotes: "{word}"',
            )
    return None


_FLOW_LOOKBACK = 20


def _runaway_quote(text: str, line: int, flow_start: tuple[int, int] | None) -> tuple[tuple[int, int], int] | None:
    """(start, last line) of a quoted string that spans lines and ends on the error's
    `line`, or that spans lines inside the broken bracket opened at `flow_start`."""
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if token.start_mark.line + 1 > line:
                break
            if (
                isinstance(token, yaml.ScalarToken)
                and token.style in ('"', "'")
                and token.start_mark.line < token.end_mark.line
                and (
                    token.end_mark.line + 1 == line
                    or (flow_start is not None and _mark_position(token.start_mark) > flow_start)
                    # (the string swallowed lines of YAML, then closed just before the error)
                    or (line - _RUNAWAY_LOOKBACK <= token.end_mark.line + 1 < line and _holds_yaml_lines(token))
                )
            ):
                return _mark_position(token.start_mark), token.end_mark.line + 1
    except yaml.YAMLError:
        pass
    except RecursionError:
        pass
    return None


# How many lines before the error a string that swallowed lines of YAML may end.
_RUNAWAY_LOOKBACK = 3
_YAML_LINE = re.compile(r"^[ \t]*(?:- )?[A-Za-z_][\w-]*:(?:[ \t]|$)", re.M)


def _holds_yaml_lines(token: Any) -> bool:
    """Whether a quoted string's lines after its first look like YAML (`key: value`):
    text a missing quote swallowed, rather than a string meant to span lines."""
    inside = token.start_mark.buffer[token.start_mark.index:token.end_mark.index] if token.start_mark.buffer else ""
    return _YAML_LINE.search(inside.split("\n", 1)[1] if "\n" in inside else "") is not None


def _indent_levels(text: str, line: int) -> list[int]:
    """The indentation widths of the blocks open just before `line` (a rough replay:
    every deeper line opens a level, every shallower one closes those above it)."""
    levels = [0]
    for source_line in text.split("\n")[: line - 1]:
        stripped = source_line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        width = len(source_line) - len(source_line.lstrip(" "))
        while levels and width < levels[-1]:
            levels.pop()
        if not levels or width > levels[-1]:
            levels.append(width)
        if stripped.startswith("- "):
            item = width + 2 + len(stripped[2:]) - len(stripped[2:].lstrip(" "))
            levels.append(item)
    return levels


class _Explained(NamedTuple):
    """A YAML error in words, and where it belongs when not where the parser stopped."""

    message: str
    hint: str | None
    # about what started before (a string, a bracket or a key): pointed at where it
    # started, the parser's context mark, when there is one
    at_start: bool = False
    long_key: bool = False  # a key too long to read: else at its first column


def _explain(exc: yaml.MarkedYAMLError, text: str, line: int, column: int) -> _Explained:
    problem = (exc.problem or exc.context or "invalid YAML").strip()
    context = (exc.context or "").strip()
    context_at = _mark_position(exc.context_mark) if exc.context_mark is not None else None
    where = f"{context_at[0]}:{context_at[1]}" if context_at else None

    if problem.startswith("found character '\\t'"):
        return _Explained(*_tab_character(text, line, column))
    if problem.startswith("found character ") and "cannot start any token" in problem:
        char = problem[len("found character "):].split(" that", 1)[0]
        return _Explained(f"a value cannot start with {char}", "put the value in quotes")
    if problem == "mapping values are not allowed here":
        return _unexpected_colon(text, line, column)
    if problem.startswith("expected <block end>, but found"):
        return _Explained(*_bad_block_end(problem, context, context_at, text, line, column))
    if problem == "found unexpected end of stream" and "quoted scalar" in context:
        return _Explained("unclosed quote: this string never ends", "add the closing quote", at_start=True)
    if "found undefined alias" in problem:
        name = problem.rsplit(" ", 1)[-1].strip("'\"")
        return _Explained(f"unknown alias '*{name}'", f"define the anchor '&{name}' before using it")
    if context.startswith("found duplicate anchor"):
        name = context[len("found duplicate anchor "):].split(";", 1)[0].strip("'\"")
        return _Explained(f"duplicate anchor '&{name}' (first defined at {where})", "give each anchor its own name")
    if problem == "but found another document":
        return _Explained("a definition file holds a single YAML document", "remove the '---' that starts a second one")
    if problem == "could not find expected ':'" and context == "while scanning a simple key" and context_at:
        return _missing_colon(text, context_at)
    if problem.startswith("expected ") and (", but found " in problem or ", but got " in problem):
        return _expected_but_found(problem, context, context_at, line, column)
    hint = f"{context} at {where}" if context and where and context != problem else None
    return _Explained(problem, hint)


def _tab_character(text: str, line: int, column: int) -> tuple[str, str]:
    lines = text.split("\n")
    source_line = lines[line - 1] if line <= len(lines) else ""
    if source_line[: column - 1].strip(" \t") == "":
        return "tab characters are not allowed for indentation in YAML", "indent with spaces"
    return "a tab character is not allowed here", "use spaces"


def _bad_block_end(
    problem: str, context: str, context_at: tuple[int, int] | None, text: str, line: int, column: int
) -> tuple[str, str]:
    """A line that does not line up with the block it is in."""
    lines = text.split("\n")
    source_line = lines[line - 1] if line <= len(lines) else ""
    width = len(source_line) - len(source_line.lstrip(" "))
    levels = sorted(set(_indent_levels(text, line)))
    if width not in levels and column == width + 1:
        choices = " or ".join(", ".join(str(level) for level in levels).rsplit(", ", 1))
        return (
            "bad indentation: this line lines up with none of the blocks around it",
            f"indent it by {choices} spaces, like the lines of the block it belongs to",
        )
    found = _describe_found(problem)
    kind = _CONTEXT_WORDS.get(context, "block")
    started = f" started at line {context_at[0]}" if context_at else ""
    return (
        f"bad indentation: expected the end of the {kind}{started}, found {found}",
        "check that this line lines up with the entries it belongs to",
    )


def _missing_colon(text: str, context_at: tuple[int, int]) -> _Explained:
    """A simple key (at `context_at`) without its ':'."""
    lines = text.split("\n")
    key_line = lines[context_at[0] - 1] if context_at[0] <= len(lines) else ""
    key = key_line[context_at[1] - 1:].split(" #", 1)[0].strip()
    if len(key.split(":", 1)[0]) >= _MAX_SIMPLE_KEY:
        return _long_key(key)
    return _Explained(f"missing ':' after {shorten(key)!r}", "write each entry of a mapping as 'key: value'",
                      at_start=True)


def _expected_but_found(
    problem: str, context: str, context_at: tuple[int, int] | None, line: int, column: int
) -> _Explained:
    """Of "expected X, but found Y": with the bracket left open, or the block it is in."""
    where = f"{context_at[0]}:{context_at[1]}" if context_at else None
    expected, found = problem[len("expected "):].replace(", but got ", ", but found ").split(", but found ", 1)
    hint = None
    if context in ("while parsing a flow sequence", "while parsing a flow mapping") and where:
        bracket = "[" if "sequence" in context else "{"
        if context_at is not None and context_at[0] < line:
            closer = "]" if bracket == "[" else "}"
            return _Explained(
                f"unclosed '{bracket}': expected {_words(expected)} before {_words(found)} at {line}:{column}",
                f"add the closing '{closer}'", at_start=True,
            )
        hint = f"unclosed '{bracket}' opened at {where}"
    elif where and context in _CONTEXT_WORDS:
        hint = f"in the {_CONTEXT_WORDS[context]} started at {where}"
    return _Explained(f"expected {_words(expected)}, found {_words(found)}", hint)


def _unexpected_colon(text: str, line: int, column: int) -> _Explained:
    lines = text.split("\n")
    key = lines[line - 1][: column - 1].strip() if line <= len(lines) else ""
    if len(key) >= _MAX_SIMPLE_KEY:
        return _long_key(key)
    return _Explained(
        "unexpected ':' (mapping values are not allowed here)",
        "put a value that contains ': ' in quotes, or check the indentation",
    )


def _long_key(key: str) -> _Explained:
    return _Explained(f"a key of more than {_MAX_SIMPLE_KEY} characters ({shorten(key)!r})",
                      "YAML reads no longer keys: shorten it", at_start=True, long_key=True)


def _describe_found(problem: str) -> str:
    return _words(problem.split(", but found ", 1)[-1])


def _words(token_text: str) -> str:
    token_text = token_text.strip()
    unquoted = token_text.strip("'")
    if unquoted in _TOKEN_WORDS:
        return _TOKEN_WORDS[unquoted]
    return token_text


def line_column_of_offset(text: str, offset: int) -> tuple[int, int]:
    offset = max(0, min(offset, len(text)))
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1
