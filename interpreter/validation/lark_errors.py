"""Lark parse errors as diagnostics a rule author can act on.

Lark reports what went wrong in terms of its terminals (`COLON`, `__ANON_3`, `_NL`,
`$END`) and sometimes without a position (the Indenter's `DedentError`). This module
turns them into `FILE:LINE:COLUMN` diagnostics that say what was found and what was
expected in the words a person would type, and looks in the source for the usual
culprit of a confusing error at the end of a file: an unclosed bracket.

The rules language is assumed to use `#` line comments and '...'/"..." strings that
do not span lines; only the bracket and indentation scans depend on that.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from typing import Any, Iterable

from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.indenter import DedentError
from lark.lexer import PatternStr, Token

from .diagnostics import Diagnostic, shorten, suggest

COMMENT_START = "#"
_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {close: open_ for open_, close in _OPENERS.items()}
_MAX_EXPECTED = 8
_DEFAULT_TAB_LEN = 8  # lark's own Indenter examples use 8

# Lark names anonymous punctuation terminals after the character (load_grammar's
# _TERMINAL_NAMES); without the parser at hand this is how we get the character back.
_PUNCTUATION_NAMES = {
    "DOT": ".", "COMMA": ",", "COLON": ":", "SEMICOLON": ";", "PLUS": "+", "MINUS": "-",
    "STAR": "*", "SLASH": "/", "BACKSLASH": "\\", "VBAR": "|", "QMARK": "?", "BANG": "!",
    "AT": "@", "HASH": "#", "DOLLAR": "$", "PERCENT": "%", "CIRCUMFLEX": "^",
    "AMPERSAND": "&", "UNDERSCORE": "_", "LESSTHAN": "<", "MORETHAN": ">", "EQUAL": "=",
    "DBLQUOTE": '"', "QUOTE": "'", "BACKQUOTE": "`", "TILDE": "~", "LPAR": "(",
    "RPAR": ")", "LBRACE": "{", "RBRACE": "}", "LSQB": "[", "RSQB": "]",
    "NEWLINE": "\n", "CRLF": "\r\n", "TAB": "\t", "SPACE": " ",
}

_CATEGORY_WORDS = {
    "NAME": "a name", "CNAME": "a name", "WORD": "a name", "IDENTIFIER": "a name",
    "NUMBER": "a number", "INT": "a number", "SIGNED_INT": "a number",
    "DECIMAL": "a number", "FLOAT": "a number", "SIGNED_FLOAT": "a number",
    "SIGNED_NUMBER": "a number", "DIGIT": "a number",
    "STRING": "a string", "ESCAPED_STRING": "a string",
    "NEWLINE": "end of line", "_NEWLINE": "end of line", "_NL": "end of line",
    "_INDENT": "an indented block", "_DEDENT": "end of block",
    "$END": "end of file",
}

# Order in an "expected" list: kinds of things first, then keywords, then
# punctuation, then layout.
_RANK_WORD, _RANK_KEYWORD, _RANK_PUNCTUATION, _RANK_LAYOUT = range(4)
_LAYOUT_WORDS = {"end of line", "an indented block", "end of block", "end of file"}


def diagnostic_from_lark(
    exc: LarkError,
    file: str,
    source_text: str,
    lark_parser: Any = None,
) -> Diagnostic:
    """A diagnostic for a Lark error raised while parsing `source_text` (the text of `file`).

    `lark_parser` (the `Lark` object that raised) is optional; with it, anonymous
    terminals are shown as their literal text and the Indenter's settings are used.
    """
    vocabulary = _Vocabulary(exc, lark_parser)
    try:
        diagnostic = _diagnostic(exc, file, source_text, vocabulary)
        if diagnostic is not None:
            return _mention_tabs(diagnostic, source_text, vocabulary.tab_len)
    except Exception:  # noqa: BLE001 - a broken rules file must still get a diagnostic
        pass
    return Diagnostic(file, _line_of(exc), _column_of(exc), _first_line(str(exc)) or type(exc).__name__)


def _diagnostic(exc: LarkError, file: str, source_text: str, vocabulary: "_Vocabulary") -> Diagnostic | None:
    if isinstance(exc, UnexpectedCharacters):
        return _unexpected_characters(exc, file, source_text, vocabulary)
    if isinstance(exc, UnexpectedToken):
        return _unexpected_token(exc, file, source_text, vocabulary)
    if isinstance(exc, UnexpectedEOF):
        return _unexpected_end(file, source_text, vocabulary.expected_of(exc), vocabulary)
    if isinstance(exc, DedentError):
        return _bad_dedent(exc, file, source_text, vocabulary.tab_len)
    if isinstance(exc, VisitError):
        return _visit_error(exc, file)
    return None


def _mention_tabs(diagnostic: Diagnostic, source: str, tab_len: int) -> Diagnostic:
    """An indentation error where a tab indents the line or the one before: a tab
    counts as `tab_len` columns, which the editor showing it may not agree with."""
    if "indent" not in diagnostic.message:
        return diagnostic
    lines = source.split("\n")
    before = [text for text in lines[: diagnostic.line - 1] if text.strip()][-1:]
    for text in lines[diagnostic.line - 1: diagnostic.line] + before:
        if "\t" in text[: len(text) - len(text.lstrip(" \t"))]:
            message = f"{diagnostic.message} (a tab in the indentation counts as {tab_len} columns)"
            advice = "indent the rules with spaces only, no tabs"
            return replace(diagnostic, message=message,
                           hint=f"{diagnostic.hint}; {advice}" if diagnostic.hint else advice)
    return diagnostic


# --- describing terminals -----------------------------------------------------------


class _Vocabulary:
    """How to say each terminal name of one grammar in words."""

    def __init__(self, exc: LarkError, lark_parser: Any) -> None:
        self.lark_parser = lark_parser
        self.terminals = getattr(exc, "_terminals_by_name", None) or {}
        postlex = getattr(getattr(lark_parser, "options", None), "postlex", None)
        self.layout = dict(_CATEGORY_WORDS)
        for attribute, words in (("NL_type", "end of line"), ("INDENT_type", "an indented block"),
                                 ("DEDENT_type", "end of block")):
            name = getattr(postlex, attribute, None)
            if isinstance(name, str):
                self.layout[name] = words
        self.nl_type = getattr(postlex, "NL_type", "_NL")
        self.indent_type = getattr(postlex, "INDENT_type", "_INDENT")
        self.dedent_type = getattr(postlex, "DEDENT_type", "_DEDENT")
        self.tab_len = getattr(postlex, "tab_len", _DEFAULT_TAB_LEN)

    def _definition(self, name: str) -> Any:
        if self.lark_parser is not None:
            try:
                return self.lark_parser.get_terminal(name)
            except (KeyError, AttributeError):
                pass
        return self.terminals.get(name)

    def describe_all(self, name: str) -> list[tuple[int, str]]:
        """(rank, words) for each thing a terminal can be: several for `OP: "+" | "-"`."""
        definition = self._definition(name)
        if definition is not None and name not in self.layout and not isinstance(definition.pattern, PatternStr):
            literals = _literal_alternatives(definition.pattern.value)
            if literals:
                return [_literal(text) for text in literals]
        return [self.describe(name)]

    def describe(self, name: str) -> tuple[int, str]:
        """(rank, words) for a terminal name."""
        if name in (self.nl_type, self.indent_type, self.dedent_type, "$END"):
            return _RANK_LAYOUT, self.layout.get(name, "end of line")
        definition = self._definition(name)
        if definition is not None and isinstance(definition.pattern, PatternStr):
            return _literal(definition.pattern.value)
        if name in self.layout:
            words = self.layout[name]
            return (_RANK_LAYOUT if words in _LAYOUT_WORDS else _RANK_WORD), words
        if definition is None:
            if name in _PUNCTUATION_NAMES:
                return _literal(_PUNCTUATION_NAMES[name])
            if re.fullmatch(r"[A-Z][A-Z0-9_]*", name) and not name.startswith("__"):
                # Anonymous keyword terminals are named after the keyword ("phase" → PHASE).
                return _RANK_KEYWORD, _quote(name.lower())
        return _RANK_WORD, _article(name.strip("_").lower().replace("_", " ") or "symbol")

    def expected_words(self, names: Iterable[str]) -> list[str]:
        described = {words for name in names for words in self.describe_all(name)}
        return [words for _, words in sorted(described)]

    def expected_of(self, exc: UnexpectedInput) -> list[str]:
        names: Iterable[str] = ()
        if isinstance(exc, UnexpectedToken):
            try:
                names = exc.accepts or exc.expected
            except Exception:  # noqa: BLE001 - accepts() replays the parser; fall back if it fails
                names = exc.expected
        elif isinstance(exc, UnexpectedCharacters):
            names = exc.allowed or ()
        else:
            names = getattr(exc, "expected", ()) or ()
        return self.expected_words(names)

    def keywords(self, names: Iterable[str]) -> list[str]:
        """The literal words among the terminals, unquoted (for did-you-mean)."""
        words = []
        for name in names:
            rank, text = self.describe(name)
            if rank == _RANK_KEYWORD:
                words.append(text[1:-1])
        return words


_REGEX_SPECIAL = set(".^$*+?{}[]()|\\")


def _literal_alternatives(regex: str) -> list[str] | None:
    """The literal strings of a regex that is only an alternation of literals, else None.

    Lark compiles `OP: "+" | "-"` to `(?:\\+|\\-)`; an author should read `"+"`, `"-"`.
    """
    if regex.startswith("(?:") and regex.endswith(")"):
        regex = regex[3:-1]
    literals = []
    current = ""
    index = 0
    while index < len(regex):
        char = regex[index]
        if char == "\\" and index + 1 < len(regex) and not regex[index + 1].isalnum():
            current += regex[index + 1]
            index += 2
            continue
        if char == "|":
            literals.append(current)
            current = ""
        elif char in _REGEX_SPECIAL:
            return None
        else:
            current += char
        index += 1
    literals.append(current)
    return literals if all(literals) else None


def _literal(text: str) -> tuple[int, str]:
    rank = _RANK_KEYWORD if re.fullmatch(r"\w+", text) else _RANK_PUNCTUATION
    return rank, _quote(text)


def _quote(text: str) -> str:
    text = shorten(text, 30)
    text = "".join(_visible(char) for char in text)
    if '"' in text and "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', '\\"') + '"'


def _visible(char: str) -> str:
    if char == "\t":
        return "\\t"
    if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp"):
        return f"\\u{ord(char):04x}"
    return char


def _article(words: str) -> str:
    return ("an " if words[:1] in "aeiou" else "a ") + words


# What may follow a complete expression and goes on with it: an operator, a
# comparison, `.attribute`, `[index]`, `X if C else Y`. Where all of these are
# expected, the list says "an operator" for them, after what else may come there
# (`end of line`, a keyword that ends the expression: `rotate SET clockwise`), which
# a list of twenty would push out of sight.
_GOES_ON = ('"and"', '"if"', '"in"', '"is"', '"not"', '"or"', '"!="', '"%"', '"*"', '"+"', '"-"', '"."',
            '"//"', '"/"', '"<"', '"<="', '"=="', '">"', '">="', '"["')


def _expected_phrase(words: list[str]) -> str:
    if not words:
        return ""
    if len(words) == 1:
        return f"expected {words[0]}"
    if all(word in words for word in _GOES_ON):
        others = [word for word in words if word not in _GOES_ON]
        layout = [word for word in others if word in _LAYOUT_WORDS]
        others = layout + [word for word in others if word not in _LAYOUT_WORDS]
        if not others:
            return "expected an operator"
        listed = others[0] if len(others) == 1 else ", ".join(others[:-1]) + " or " + others[-1]
        return f"expected {listed}, or an operator that goes on with the expression"
    layout = [word for word in words if word in _LAYOUT_WORDS]
    if len(words) > _MAX_EXPECTED and layout and len(layout) < len(words):
        # A long list would hide "end of line" at its end, and a stray word after a
        # complete statement is the usual reason for such a list: name it first.
        others = [word for word in words if word not in _LAYOUT_WORDS]
        shown = ", ".join(others[:_MAX_EXPECTED])
        more = f", ... ({len(others) - _MAX_EXPECTED} more)" if len(others) > _MAX_EXPECTED else ""
        return f"expected {' or '.join(layout)} or one of: {shown}{more}"
    if len(words) > _MAX_EXPECTED:
        shown = ", ".join(words[:_MAX_EXPECTED])
        return f"expected one of: {shown}, ... ({len(words) - _MAX_EXPECTED} more)"
    return "expected one of: " + ", ".join(words)


# --- the errors ---------------------------------------------------------------------


def _unexpected_token(exc: UnexpectedToken, file: str, source: str, vocabulary: _Vocabulary) -> Diagnostic:
    token = exc.token
    expected = vocabulary.expected_of(exc)
    kind = getattr(token, "type", "")
    start = getattr(token, "start_pos", None)
    at_end = kind == "$END" or (
        kind == vocabulary.dedent_type and (start is None or not _has_content_after(source, start))
    )
    if at_end:
        return _unexpected_end(file, source, expected, vocabulary)

    line, column = _line_of(exc), _column_of(exc)
    offset = start if isinstance(start, int) and start >= 0 else _offset_of(source, line, column)
    if expected == [vocabulary.layout.get(vocabulary.indent_type, "an indented block")]:
        return _empty_block(file, source, offset)
    if kind == vocabulary.indent_type:
        return Diagnostic(
            file,
            getattr(token, "end_line", None) or line,
            getattr(token, "end_column", None) or column,
            "unexpected indentation",
            hint="indent this line like the line before it, or end that line with ':' to start a block; "
                 "to go on with an expression on the next line, put it in ( ) or end that line with '\\'",
        )
    line, column, found, end_column = _found_token(token, kind, line, column, vocabulary)

    message = f"found {found}"
    phrase = _expected_phrase(expected)
    if phrase:
        message += ", " + phrase

    unclosed = _innermost_unclosed(source, offset)
    if str(token) == "=" and '"=="' in expected:
        # `exists(..., it.number = die)`: the bracket is open because the condition
        # in it is not finished, and '=' is why.
        unclosed = None
    if unclosed is not None and _quote(_OPENERS[unclosed[0]]) in expected:
        bracket, open_line, open_column = unclosed
        if open_line < line:
            # Inside brackets a line break is no end: the mistake is the bracket
            # left open lines before the place where the parser gave up.
            return Diagnostic(
                file,
                open_line,
                open_column,
                f"unclosed {bracket!r}: expected {_OPENERS[bracket]!r} before {found} at {line}:{column}",
                hint=f"add the closing {_OPENERS[bracket]!r}",
            )
    else:
        unclosed = None
    where = _chance_where(source, line)
    if where is not None:
        return Diagnostic(file, line, where, "a chance event has no 'where'", hint=_CHANCE_WHERE,
                          end_column=where + len("where"))
    # (the line itself when it is unindented: the block it opens)
    in_decision = re.search(r"\bdecision\b", _block_opening(source.split("\n"), line + 1)) is not None
    hint = (_outcome_range(source, offset, line) or _split_word(exc, source, vocabulary)
            or _token_hint(exc, expected, unclosed, vocabulary, in_decision, source))
    return Diagnostic(file, line, column, message, hint=hint, end_column=end_column)


def _found_token(
    token: Token, kind: str, line: int, column: int, vocabulary: _Vocabulary
) -> tuple[int, int, str, int | None]:
    """(line, column, words for it, end column or None) of the token the parser did
    not expect, at (line, column) by the error."""
    end_column = None
    if kind in (vocabulary.indent_type, vocabulary.dedent_type):
        # These borrow the position of the newline before them; the text they are
        # about starts after its indentation.
        line = getattr(token, "end_line", None) or line
        column = getattr(token, "end_column", None) or column
        found = vocabulary.describe(kind)[1]
    elif kind == vocabulary.nl_type:
        found = "end of line"
    else:
        found = _quote(str(token))
        if getattr(token, "end_line", None) == line and getattr(token, "end_column", None):
            end_column = token.end_column
    return line, column, found, end_column


def _token_hint(
    exc: UnexpectedToken, expected: list[str], unclosed: tuple[str, int, int] | None, vocabulary: _Vocabulary,
    in_decision: bool, source: str,
) -> str | None:
    """The hint for an unexpected token: the bracket still open on its line
    (`unclosed`), '=' for '==', a misspelt or misplaced keyword (`in_decision`: in
    a block that opens with a decision), another language's chained condition, a
    variable named like a statement's first word (`source`: the rules' text)."""
    token = exc.token
    kind = getattr(token, "type", "")
    hint = None
    statement_word = _assigned_statement_word(exc, vocabulary, source)
    if unclosed is not None:
        bracket, open_line, open_column = unclosed
        hint = f"unclosed {bracket!r} opened at {open_line}:{open_column}"
    elif statement_word is not None and str(token) == "(":
        hint = (f"{_quote(statement_word)} at the start of a statement is a word of the rules language, "
                f"not a name: a procedure named so cannot be called (format.md 3.1); give it another name")
    elif statement_word is not None:
        hint = (f"{_quote(statement_word)} at the start of a statement is a word of the rules language, "
                f"not a name: a variable or pool named so can be read but not assigned (format.md 3.1)")
    elif _keyword_after_block(exc, expected, vocabulary, source):
        hint = (f"after the end of an indented block {_quote(str(token))} is read as a word of the rules "
                f"language, not as a name (format.md 3.1): a variable or pool named so needs another name")
    elif str(token) == "=":
        hint = "did you mean '=='? '=' assigns a value; to compare, write '=='"
    elif re.fullmatch(r"\w+", str(token)):
        nearest = suggest(str(token), vocabulary.keywords(_names_of(exc)))
        if nearest is not None:
            hint = f"did you mean {_quote(nearest)}?"
    spelt_before = _misspelt_keyword_before(exc, vocabulary)
    misplaced = _after_bare_pass(exc, source) or _misplaced_hint(str(token), expected, in_decision)
    chained = _chained_condition_hint(exc, source)
    foreign = _FOREIGN_OPERATORS.get(str(token)) if '"%"' in expected else _foreign_statement(exc, source)
    pattern_hint = _pattern_hint(exc, source)
    if pattern_hint is not None:
        hint = pattern_hint
    elif "SIGN" in set(getattr(exc, "expected", ())) and "NAME" not in set(getattr(exc, "expected", ())):
        # (a '-' without a name is expected only in a pattern's offset: an expression's
        # start, which takes a name too, is no offset)
        from ..parsing.parser import OFFSET_FORMS
        hint = OFFSET_FORMS
    elif foreign is not None:  # the culprit, before any bracket still open around it
        hint = foreign
    elif chained is not None:
        hint = chained
    elif spelt_before is not None and (hint is None or hint.startswith("did you mean")):
        hint = spelt_before
    elif misplaced is not None and (hint is None or vocabulary.describe(kind)[0] == _RANK_KEYWORD):
        # A keyword out of place (`move` under an action) is no misspelling of another.
        hint = misplaced
    return hint


def _pattern_hint(exc: UnexpectedToken, source: str) -> str | None:
    """What a pattern's line got wrong where the parser stops inside it: a distance
    given to `slide`, which has none, or an expression where a pattern's directions
    are named."""
    token = exc.token
    line = getattr(token, "line", None)
    if not isinstance(line, int):
        return None
    words = _code_line(source, line).split()
    first = words[0] if words else ""
    if first == "slide" and str(token) == "distance":
        return ("'slide' goes as far as the way is free and takes no distance: "
                "`step DIRS distance A to B` for one to B steps (format.md 3.5), `leap DIRS distance A` to land at A")
    if first in ("step", "slide", "leap", "jump") and str(token) == "(":
        return ("a pattern's directions are names: a direction, a set of directions (`directions:` in the "
                "YAML) or the D of `action NAME for each D in [...]` (format.md 3.4) — not an expression")
    return None


# Other languages' operators written as words, where an operator goes on an expression.
_FOREIGN_OPERATORS = {
    "mod": "the remainder is written '%' (7 % 3 is 1; format.md 3.12)",
    "div": "whole-number division is written '//' (7 // 2 is 3; format.md 3.12)",
}

# Statements of other languages, read as a name at the start of a line: the parser
# then stops at the word after it, expecting an assignment.
_DECLARED_SO = "a procedure is declared 'procedure NAME(A, B):' and a value 'define NAME = ...' (format.md 3.13)"
_FOREIGN_STATEMENTS = {
    "while": "the rules language has no 'while': repeat a block with 'repeat N times:' (with an 'if' "
             "inside), or go over a set or a range with 'for each X in SET:' or 'for each K in A to B:' "
             "(format.md 3.10)",
    "loop": "the rules language has no 'loop': use 'repeat N times:' or 'for each X in SET:' (format.md 3.10)",
    "until": "the rules language has no 'until': use 'repeat N times:' with an 'if' inside (format.md 3.10)",
    "def": _DECLARED_SO,
    "function": _DECLARED_SO,
}


def _foreign_statement(exc: UnexpectedToken, source: str) -> str | None:
    """A line starting with another language's statement word (`while k > 0:`): the
    word was read as a name, and the parser stopped right after it."""
    line, column = getattr(exc.token, "line", None), getattr(exc.token, "column", None)
    if not isinstance(line, int) or not isinstance(column, int):
        return None
    code = _code_line(source, line)
    first = re.match(r"\s*(\w+)\s*", code)
    if first is None or first.group(1) not in _FOREIGN_STATEMENTS or first.end() != column - 1:
        return None
    return _FOREIGN_STATEMENTS[first.group(1)]


def _split_word(exc: UnexpectedToken, source: str, vocabulary: _Vocabulary) -> str | None:
    """Where only a keyword was allowed, a longer word is read as the keyword and the
    rest of it (`if no actions:` as `if no action` and `s`): the hint names the
    keywords as written on the line up to the split, when they are words alone."""
    token = exc.token
    try:
        previous = exc.token_history[-1]
    except (AttributeError, IndexError, TypeError):
        return None
    start, end = getattr(token, "start_pos", None), getattr(previous, "end_pos", None)
    if start is None or start != end or not re.fullmatch(r"\w+", str(previous)) or not re.match(r"\w", str(token)):
        return None
    if vocabulary.describe(getattr(previous, "type", ""))[0] != _RANK_KEYWORD:
        return None
    written = _code_of(source[source.rfind("\n", 0, end) + 1: end]).strip()
    meant = written if re.fullmatch(r"[a-z]+(?: [a-z]+){0,3}", written) else str(previous)
    word = str(previous) + re.match(r"\w+", str(token)).group(0)  # type: ignore[union-attr]
    return (f"{_quote(word)} is no keyword here: it was read as {_quote(str(previous))} and "
            f"{_quote(str(token))}; did you mean {_quote(meant)}?")


_CHANCE_WHERE = ("test the condition where the event is started ('if C: then NAME'), "
                 "or with 'if' in its statements (format.md 3.9)")


def _code_line(source: str, line: int) -> str:
    lines = source.split("\n")
    return _code_of(lines[line - 1]) if 0 < line <= len(lines) else ""


def _outcome_range(source: str, offset: int, line: int) -> str | None:
    """`outcomes 1..6`: the hint for the '.' the parser stopped at."""
    if re.match(r"\s*outcomes\b.*\.\.", _code_line(source, line)) and source.startswith(".", offset):
        return "a range of outcomes is written with 'to': 'outcomes 1 to 6'"
    return None


def _chance_where(source: str, line: int) -> int | None:
    """The column of `where` starting the line of an error in a chance event, else None."""
    code = _code_line(source, line)
    match = re.match(r"(\s*)where\b", code)
    if match is None or _block_keyword(source.split("\n"), line) != "chance":
        return None
    return len(match.group(1)) + 1


def _block_keyword(lines: list[str], line: int) -> str | None:
    """The first word of the unindented line that opens the block holding `line`."""
    match = re.match(r"\w+", _block_opening(lines, line))
    return match.group(0) if match else None


def _block_opening(lines: list[str], line: int) -> str:
    """The unindented line that opens the block holding `line` ("" at the top)."""
    for text in reversed(lines[: line - 1]):
        code = _code_of(text)
        if code.strip() and not code[:1].isspace():
            return code
    return ""


# Where a rules author puts something the grammar wants elsewhere: what to say.
_ENTRY_KEYWORDS = ('"onto"', '"over"', '"off"')


def _misplaced_hint(found: str, expected: list[str], in_decision: bool) -> str | None:
    if expected == ['"repetitions"']:
        return "'board' starts 'board repetitions' in an expression: a name 'board' cannot be read there"
    if found == "where" and '"where"' not in expected:
        # Right after an expression: in it, or at the end of a line outside an action.
        if '"and"' in expected and not (in_decision and "end of line" in expected):
            return ("'where' filters only 'pieces [of P]' (format.md 3.12.1); to test the elements of another "
                    "set, give the condition to the function: 'exists(SET, COND)', 'count(SET, COND)', "
                    "'all(SET, COND)'; two conditions are joined with 'and'")
        return "'where' cannot stand here; in an action, a 'where' condition has a line of its own"
    if re.fullmatch(r"\w+", found) and all(k in expected for k in _ENTRY_KEYWORDS):
        return "what an action does goes in a case under it: 'onto empty:', 'onto enemy:', 'over enemy:', 'off board:'"
    return None


def _after_bare_pass(exc: UnexpectedToken, source: str) -> str | None:
    """A statement on the line after a bare `pass` (or `pass if no other action`),
    at its indentation: a pass has no cases, its statements go in its block."""
    line = getattr(exc.token, "line", None)
    if not isinstance(line, int):
        return None
    lines = source.split("\n")
    code = _code_line(source, line)
    before = [_code_of(text) for text in lines[: line - 1] if _code_of(text).strip()][-1:]
    if not before or not re.fullmatch(r"\s*pass(?: if no other action)?\s*", before[0]) \
            or _indent_width(before[0]) != _indent_width(code):
        return None
    written = before[0].strip()
    return (f"a pass has no cases: what it does goes in its block, '{written}:' with the statements on the "
            f"same line or indented below it (format.md 3.5)")


def _assigned_statement_word(exc: UnexpectedToken, vocabulary: _Vocabulary, source: str) -> str | None:
    """The keyword starting a line when an assignment or a call follows it (`start
    += 1`, `give(1, 0)`): a variable or procedure named like a statement's first
    word, read as that statement."""
    if str(exc.token) not in ("=", "+=", "-=", "[", "("):
        return None
    try:
        previous = exc.token_history[-1]
    except (AttributeError, IndexError, TypeError):
        return None
    kind, line = getattr(previous, "type", None), getattr(previous, "line", None)
    if not isinstance(kind, str) or vocabulary.describe(kind)[0] != _RANK_KEYWORD or not isinstance(line, int):
        return None
    first = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", _code_line(source, line))
    return str(previous) if first is not None and first.group(1) == str(previous) else None


def _keyword_after_block(exc: UnexpectedToken, expected: list[str], vocabulary: _Vocabulary, source: str) -> bool:
    """A keyword where a name could stand, starting a line right after a deeper
    indented one: the lexer reads the word after a block's end as any keyword that
    could follow a block somewhere (`phase`, `score`), though a name was wanted."""
    token = exc.token
    line = getattr(token, "line", None)
    if (not isinstance(line, int) or vocabulary.describe(getattr(token, "type", ""))[0] != _RANK_KEYWORD
            or "a name" not in expected or _quote(str(token)) in expected):
        return False
    lines = source.split("\n")
    code = _code_of(lines[line - 1]) if 0 < line <= len(lines) else ""
    if code.split()[:1] != [str(token)]:
        return False
    before = [_code_of(text) for text in lines[: line - 1] if _code_of(text).strip()][-1:]
    return bool(before) and _indent_width(before[0]) > _indent_width(code)


def _indent_width(code: str) -> int:
    return len(code) - len(code.lstrip(" \t"))


# Other languages' spellings of a chained condition (Perl and Ruby, PHP).
_OTHER_ELIFS = frozenset({"elsif", "elseif"})


def _chained_condition_hint(exc: UnexpectedToken, source: str) -> str | None:
    """`else if C:` or `elsif C:` starting a statement: the language's spelling is `elif`."""
    try:
        previous = exc.token_history[-1]
    except (AttributeError, IndexError, TypeError):
        return None
    line = getattr(previous, "line", None)
    if not isinstance(line, int) or _code_line(source, line).split()[:1] != [str(previous)]:
        return None  # (`A if C else if ...` in an expression is another slip)
    words = str(previous), str(exc.token)
    if words != ("else", "if") and words[0] not in _OTHER_ELIFS:
        return None
    return "a chained condition is written 'elif COND:' ('if C: ... elif D: ... else: ...', format.md 3.10)"


def _misspelt_keyword_before(exc: UnexpectedToken, vocabulary: _Vocabulary) -> str | None:
    """Where a name and keywords were both allowed, a misspelt keyword is taken for a
    name and the error only shows at the next token (`forbid pasing where`): a hint
    about the name just read, when it is close to a keyword allowed in its place."""
    try:
        previous = exc.token_history[-1]
        state = exc.interactive_parser.parser_state
        # Still a bare token on the stack: the name was shifted, not yet reduced.
        if state.value_stack[-1] is not previous or len(state.state_stack) < 2:
            return None
        allowed_before = state.parse_conf.parse_table.states[state.state_stack[-2]].keys()
    except (AttributeError, IndexError, KeyError, TypeError):
        return None
    if not re.fullmatch(r"\w+", str(previous)):
        return None
    nearest = suggest(str(previous), vocabulary.keywords(allowed_before))
    if nearest is None or nearest == str(previous):
        return None
    return f"did you mean {_quote(nearest)} instead of {_quote(str(previous))} ({previous.line}:{previous.column})?"


def _names_of(exc: UnexpectedToken) -> Iterable[str]:
    try:
        return exc.accepts or exc.expected
    except Exception:  # noqa: BLE001
        return exc.expected


def _unexpected_characters(exc: UnexpectedCharacters, file: str, source: str, vocabulary: _Vocabulary) -> Diagnostic:
    char = getattr(exc, "char", "") or ""
    if char == "\t":
        shown = "a tab character"
    elif char and unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Zs") and char != " ":
        shown = f"character U+{ord(char):04X}"
    else:
        shown = f"character {_quote(char)}"
    message = f"unexpected {shown}"
    phrase = _expected_phrase(vocabulary.expected_of(exc))
    if phrase:
        message += ", " + phrase
    hint = None
    if char in ('"', "'"):
        hint = "is a string missing its closing quote?"
    elif char.isalnum() and not char.isascii():
        hint = "names are made of the letters a-z and A-Z, digits and '_'"
    return Diagnostic(file, _line_of(exc), _column_of(exc), message, hint=hint)


def _unexpected_end(file: str, source: str, expected: list[str], vocabulary: _Vocabulary) -> Diagnostic:
    if expected == [vocabulary.layout.get(vocabulary.indent_type, "an indented block")]:
        return _empty_block(file, source, len(source))
    line, column = _end_position(source)
    unclosed = _innermost_unclosed(source, len(source))
    phrase = _expected_phrase(expected)
    if unclosed is not None:
        bracket, open_line, open_column = unclosed
        return Diagnostic(
            file,
            line,
            column,
            f"unclosed {bracket!r} opened at {open_line}:{open_column}",
            hint=f"add the closing {_OPENERS[bracket]!r}",
        )
    message = "unexpected end of file" + (", " + phrase if phrase else "")
    return Diagnostic(file, line, column, message)


def _empty_block(file: str, source: str, offset: int) -> Diagnostic:
    """Only an indented block could come next: the line before opens a block and has none."""
    lines = source[:offset].split("\n")
    for number in range(len(lines), 0, -1):
        code = _code_of(lines[number - 1]).rstrip(" \t\r")
        if code:
            column = len(code)
            if code.endswith(":"):
                return Diagnostic(
                    file, number, column, "expected an indented block after ':'",
                    hint="write the lines of the block under this one, indented further",
                )
            return Diagnostic(file, number, column + 1, "expected an indented block")
    return Diagnostic(file, 1, 1, "expected an indented block")


def _code_chars(text: str) -> Any:
    """(index, character) of a line outside strings, up to its comment; the last
    item is (index of the comment sign or len(text), None)."""
    quote = None
    index = 0
    while index < len(text):
        char = text[index]
        if quote is not None:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = None
        elif char in ('"', "'"):
            quote = char
        elif text.startswith(COMMENT_START, index):
            break
        else:
            yield index, char
        index += 1
    yield min(index, len(text)), None


def _code_of(text: str) -> str:
    """A line without its comment (a comment sign inside a string does not count)."""
    for index, char in _code_chars(text):
        if char is None:
            return text[:index]
    return text


def _bad_dedent(exc: DedentError, file: str, source: str, tab_len: int) -> Diagnostic:
    found = _find_bad_dedent(source, tab_len)
    if found is None:
        return Diagnostic(file, 1, 1, f"indentation does not match any enclosing block ({exc})")
    line, column, levels = found
    if line == source.count("\n") + 1 and not source.split("\n")[-1].strip():
        hint = "remove the white space at the end of the file"
    else:
        choices = " or ".join(", ".join(str(level) for level in levels).rsplit(", ", 1))
        hint = f"indent this line by {choices} spaces, like a line of the block it belongs to"
    return Diagnostic(file, line, column, "indentation does not match any enclosing block", hint=hint)


def _visit_error(exc: VisitError, file: str) -> Diagnostic:
    node = exc.obj
    meta = getattr(node, "meta", None)
    line = getattr(meta, "line", None) if meta is not None and not getattr(meta, "empty", True) else None
    column = getattr(meta, "column", None) if line is not None else None
    if line is None:  # a Token
        line, column = getattr(node, "line", None), getattr(node, "column", None)
    message = _first_line(str(exc.orig_exc)) or type(exc.orig_exc).__name__
    return Diagnostic(file, line or 1, column or 1, message)


# --- looking at the source ----------------------------------------------------------


def _first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0].strip()


def _line_of(exc: Any) -> int:
    line = getattr(exc, "line", None)
    return line if isinstance(line, int) and line > 0 else 1


def _column_of(exc: Any) -> int:
    column = getattr(exc, "column", None)
    return column if isinstance(column, int) and column > 0 else 1


def _has_content_after(source: str, offset: int) -> bool:
    return any(not line.strip().startswith(COMMENT_START) for line in source[offset:].split("\n") if line.strip())


def _end_position(source: str) -> tuple[int, int]:
    """Just after the last character that is not white space: where something is missing."""
    return _position_of(source, len(source.rstrip()))


def _position_of(source: str, offset: int) -> tuple[int, int]:
    before = source[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def _offset_of(source: str, line: int, column: int) -> int:
    lines = source.split("\n")
    return sum(len(text) + 1 for text in lines[: line - 1]) + column - 1


def _scan_brackets(text: str, stack: list[tuple[str, int, int]], line_number: int) -> None:
    """Update the stack of open brackets with one line, skipping strings and comments."""
    for index, char in _code_chars(text):
        if char in _OPENERS:
            stack.append((char, line_number, index + 1))
        elif char in _CLOSERS and stack and stack[-1][0] == _CLOSERS[char]:
            stack.pop()


def _innermost_unclosed(source: str, offset: int) -> tuple[str, int, int] | None:
    """The innermost bracket opened before `offset` and not closed by then."""
    stack: list[tuple[str, int, int]] = []
    for number, text in enumerate(source[:offset].split("\n"), start=1):
        _scan_brackets(text, stack, number)
    return stack[-1] if stack else None


def _find_bad_dedent(source: str, tab_len: int) -> tuple[int, int, list[int]] | None:
    """Replay the Indenter's bookkeeping to find the line it rejected.

    Returns (line, column of its first character, indentation widths it could have had).
    """
    levels = [0]
    brackets: list[tuple[str, int, int]] = []
    seen_content = False
    lines = source.split("\n")
    for number, text in enumerate(lines, start=1):
        stripped = text.strip(" \t\r")
        # Blank lines are measured only at the very end, where no line follows them.
        measured = stripped or (number == len(lines) and text)
        if not brackets and measured and not stripped.startswith(COMMENT_START):
            indent = text[: len(text) - len(text.lstrip(" \t"))]
            width = indent.count(" ") + indent.count("\t") * tab_len
            # The Indenter only measures indentation after a newline token.
            if seen_content:
                if width > levels[-1]:
                    levels.append(width)
                else:
                    allowed = list(levels)
                    while width < levels[-1]:
                        levels.pop()
                    if width != levels[-1]:
                        return number, len(indent) + 1, allowed
            seen_content = True
        _scan_brackets(text, brackets, number)
    return None
