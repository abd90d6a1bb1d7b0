"""Diagnostics: what is wrong with a definition, where, and how to fix it.

Every problem found in a definition (YAML, schema, rules text, semantic checks) is
reported as a `Diagnostic` so that front ends print them all the same way:

    FILE:LINE:COLUMN: error: message
        offending source line
        ^~~~
        hint: did you mean 'size'?

Lines and columns are 1-based and count characters (a tab is one column), which
is what both PyYAML marks and Lark tokens give us.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping

from ..spelling import did_you_mean as did_you_mean  # re-exported
from ..spelling import suggest as suggest  # re-exported

SEVERITIES = ("error", "warning")

# Tabs are expanded in the echoed source line (and the caret line is computed from
# the expanded text), so the caret lands right whatever the terminal's tab stops are.
_TAB_SIZE = 4

# Longer source lines are shown as a window around the column (minified YAML, long rules).
_MAX_SHOWN = 100

_ANSI = {
    "location": "\x1b[1m",
    "error": "\x1b[1;31m",
    "warning": "\x1b[1;35m",
    "caret": "\x1b[1;32m",
    "hint": "\x1b[1;36m",
    "reset": "\x1b[0m",
}


def _paint(text: str, style: str, color: bool) -> str:
    return f"{_ANSI[style]}{text}{_ANSI['reset']}" if color else text


def _char_width(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _printable(line: str) -> str:
    """`line` with control and invisible format characters (but not tabs) made visible.

    Echoing them raw would let a definition drive the terminal or hide text
    (bidirectional overrides); one '?' each keeps the columns where they were.
    """
    return "".join(
        "?" if char != "\t" and unicodedata.category(char) in ("Cc", "Cf") else char for char in line
    )


# Characters a text from a stranger may not carry: control characters (an escape
# sequence drives the terminal it is printed on) and the invisible ones that
# reorder or hide text (bidirectional overrides and isolates, as in "Trojan Source").
_ALLOWED_CONTROLS = "\t\n\r"
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def is_hidden_control(char: str) -> bool:
    """Whether `char` is a control or bidirectional character to refuse (tab and line breaks are fine)."""
    return (unicodedata.category(char) == "Cc" and char not in _ALLOWED_CONTROLS) or char in _BIDI_CONTROLS


def first_hidden_control(text: str) -> int:
    """The index of the first character `is_hidden_control` refuses, or -1."""
    for index, char in enumerate(text):
        if (char < " " or char >= "\x7f") and is_hidden_control(char):
            return index
    return -1


def visible(text: str) -> str:
    """`text` with control and bidirectional characters replaced by '?': fit to print."""
    if first_hidden_control(text) < 0:
        return text
    return "".join("?" if is_hidden_control(char) else char for char in text)


# A word quoted in a message ('с2', "с"): where it mixes a letter of another script
# with ASCII (a Cyrillic 'с' among Latin ones looks like 'c2' and reads as nonsense:
# "unknown site 'с2'") or is that one letter, the message names the letter.
_QUOTED_WORD = re.compile(r"'([^'\s]{1,80})'|\"([^\"\s]{1,80})\"")


def lookalike_note(message: str) -> str:
    """` ('с' is U+0441 CYRILLIC SMALL LETTER ES)` for the first such letter of a word
    quoted in `message`, or "" (also when the message names it already)."""
    for match in _QUOTED_WORD.finditer(message):
        word = match.group(1) or match.group(2)
        if word.isascii() or not (len(word) == 1 or any(c.isascii() and c.isalnum() for c in word)):
            continue
        for char in word:
            name = unicodedata.name(char, "")
            if not char.isascii() and char.isalpha() and not name.startswith("LATIN"):
                note = f" ('{char}' is U+{ord(char):04X}{' ' + name if name else ''})"
                return "" if note in message else note
    return ""


def _display_width(text: str) -> int:
    """Terminal width of `text`, which must not contain tabs."""
    return sum(_char_width(c) for c in text)


# A word (a run without white space) longer than this is cut in messages and hints:
# a stranger's file must not make a diagnostic echo megabytes of one token.
MAX_WORD_SHOWN = 240
ELLIPSIS = "…"
WINDOW_MARK = "..."  # (where a long line's excerpt is cut: see Diagnostic._excerpt)


def shorten(text: str, limit: int = 40) -> str:
    """`text`, cut to at most `limit` characters with '…' when longer."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + ELLIPSIS


def cut_long_words(text: str, limit: int = MAX_WORD_SHOWN) -> str:
    """`text` with every run of more than `limit` non-space characters cut with '…'."""
    if len(text) <= limit:
        return text
    return re.sub(r"\S{%d,}" % (limit + 1), lambda m: shorten(m.group(), limit), text)


def split_source_lines(text: str) -> list[str]:
    """Split source text into lines the way line numbers are counted (on '\\n' only)."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


@dataclass(frozen=True)
class Diagnostic:
    """One problem at one place of one file.

    `end_column`, when known, is the 1-based column just past the offending text
    (exclusive, as Lark's `Token.end_column`); the caret line underlines up to it.
    """

    file: str
    line: int
    column: int
    message: str
    severity: str = "error"
    hint: str | None = None
    end_column: int | None = None

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {SEVERITIES}, not {self.severity!r}")
        # Positions come from many producers (some use -1 or 0 for "unknown"); a
        # diagnostic must still print, so clamp instead of failing.
        message = visible(cut_long_words(str(self.message)))
        object.__setattr__(self, "message", message + lookalike_note(message))
        if self.hint is not None:
            object.__setattr__(self, "hint", visible(cut_long_words(str(self.hint))))
        object.__setattr__(self, "line", max(1, int(self.line)))
        object.__setattr__(self, "column", max(1, int(self.column)))
        if self.end_column is not None and self.end_column <= self.column:
            object.__setattr__(self, "end_column", None)

    @property
    def location(self) -> str:
        return f"{visible(shorten(self.file, MAX_WORD_SHOWN))}:{self.line}:{self.column}"

    @property
    def headline(self) -> str:
        """The first line of `format()`: `FILE:LINE:COLUMN: error: message`."""
        return f"{self.location}: {self.severity}: {self.message}"

    def format(self, source_lines: list[str] | None = None, color: bool = False) -> str:
        parts = [
            f"{_paint(self.location + ':', 'location', color)} "
            f"{_paint(self.severity + ':', self.severity, color)} {self.message}"
        ]
        if source_lines is not None and 1 <= self.line <= len(source_lines):
            shown, caret = self._excerpt(source_lines[self.line - 1])
            parts.append("    " + shown)
            parts.append("    " + _paint(caret, "caret", color))
        if self.hint:
            parts.append(f"    {_paint('hint:', 'hint', color)} {self.hint}")
        return "\n".join(parts)

    def _excerpt(self, raw_line: str) -> tuple[str, str]:
        line = _printable(raw_line.rstrip("\r\n"))
        start = min(self.column - 1, len(line))
        end = start + 1
        if self.end_column is not None:
            end = max(end, min(self.end_column - 1, len(line)))
        # Expanding a prefix gives the same tab stops as expanding the whole line, so
        # offsets into the expanded line can be taken from expanded prefixes.
        expanded = line.expandtabs(_TAB_SIZE)
        caret_at = len(line[:start].expandtabs(_TAB_SIZE))
        caret_end = max(caret_at + 1, len(line[:end].expandtabs(_TAB_SIZE)))
        window_start, window_end = 0, len(expanded)
        if len(expanded) > _MAX_SHOWN:
            window_start = max(0, min(caret_at - _MAX_SHOWN // 3, len(expanded) - _MAX_SHOWN))
            window_end = window_start + _MAX_SHOWN
        # ASCII dots: '…' is one column wide in some terminals and two in others
        # (East Asian "ambiguous" width), which put the caret left of its column.
        head = WINDOW_MARK if window_start > 0 else ""
        tail = WINDOW_MARK if window_end < len(expanded) else ""
        shown = (head + expanded[window_start:window_end]).rstrip() + tail
        lead = _display_width(head + expanded[window_start:caret_at])
        width = max(1, _display_width(expanded[caret_at:min(caret_end, window_end)]))
        return shown, " " * lead + "^" + "~" * (width - 1)

    def __str__(self) -> str:
        return self.format()


def _identity(diagnostic: Diagnostic) -> tuple[Any, ...]:
    # The hint and the underline width do not make two reports of one problem different.
    return (diagnostic.file, diagnostic.line, diagnostic.column, diagnostic.severity, diagnostic.message)


def _order(diagnostic: Diagnostic) -> tuple[Any, ...]:
    return (diagnostic.file, diagnostic.line, diagnostic.column)


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Sorted by file, line, column (stable otherwise) with duplicates removed."""
    seen: set[tuple[Any, ...]] = set()
    unique = []
    for diagnostic in diagnostics:
        key = _identity(diagnostic)
        if key not in seen:
            seen.add(key)
            unique.append(diagnostic)
    return sorted(unique, key=_order)


def format_diagnostics(
    diagnostics: Iterable[Diagnostic],
    sources: Mapping[str, str] | None = None,
    color: bool = False,
) -> str:
    """All diagnostics, sorted and de-duplicated, one block each, separated by newlines.

    `sources` maps a diagnostic's `file` to the text of that file; files without
    a source are reported without the excerpt.
    """
    split: dict[str, list[str]] = {}
    blocks = []
    for diagnostic in sort_diagnostics(diagnostics):
        lines = None
        if sources is not None and diagnostic.file in sources:
            if diagnostic.file not in split:
                split[diagnostic.file] = split_source_lines(sources[diagnostic.file])
            lines = split[diagnostic.file]
        blocks.append(diagnostic.format(lines, color=color))
    return "\n".join(blocks)


class DefinitionError(Exception):
    """A game definition (or an option) is broken; `str()` is ready to print.

    `.diagnostics` holds every problem found, sorted by position. `sources`
    (file → text), when given, adds the offending source line under each message.
    """

    def __init__(
        self,
        diagnostics: Diagnostic | Iterable[Diagnostic],
        sources: Mapping[str, str] | None = None,
    ) -> None:
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = sort_diagnostics(diagnostics)
        self.sources: dict[str, str] = dict(sources or {})
        super().__init__(self.__str__())

    def __str__(self) -> str:
        return format_diagnostics(self.diagnostics, self.sources)


class DiagnosticList:
    """Collects diagnostics from several checks; iterates sorted and de-duplicated."""

    def __init__(self, diagnostics: Iterable[Diagnostic] = ()) -> None:
        self._items: list[Diagnostic] = list(diagnostics)

    def add(self, diagnostic: Diagnostic) -> Diagnostic:
        self._items.append(diagnostic)
        return diagnostic

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self._items.extend(diagnostics)

    def error(
        self,
        file: str,
        line: int,
        column: int,
        message: str,
        *,
        hint: str | None = None,
        end_column: int | None = None,
    ) -> Diagnostic:
        return self.add(Diagnostic(file, line, column, message, "error", hint, end_column))

    def warning(
        self,
        file: str,
        line: int,
        column: int,
        message: str,
        *,
        hint: str | None = None,
        end_column: int | None = None,
    ) -> Diagnostic:
        return self.add(Diagnostic(file, line, column, message, "warning", hint, end_column))

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self._items)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.sorted() if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.sorted() if d.severity == "warning"]

    def sorted(self) -> list[Diagnostic]:
        return sort_diagnostics(self._items)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.sorted())

    def __len__(self) -> int:
        return len(self.sorted())

    def __bool__(self) -> bool:
        return bool(self._items)

    def format_all(self, sources: Mapping[str, str] | None = None, color: bool = False) -> str:
        return format_diagnostics(self._items, sources, color)

    def raise_if_errors(self, sources: Mapping[str, str] | None = None) -> None:
        """Raise `DefinitionError` with everything collected (warnings too) if any is an error."""
        if self.has_errors:
            raise DefinitionError(self._items, sources)




