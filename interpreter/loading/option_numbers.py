"""Whole numbers the YAML computes from options: a grid's `files: 2 * side - 1`, a
region rule's `within: {steps: side - 1, ...}` or `ranks: [last - (side - 1)]`.

The text is whole numbers, option names, `+`, `-`, `*`, `//` (division, rounded
down), `%` (its remainder) and parentheses, read by a small recursive-descent reader
(never by Python's `eval`): a definition's text only ever becomes a tree of these
few operations. Its length and nesting are bounded, and
so is every value (`MAX_NUMBER`), so an expression cannot make a number the
interpreter would choke on.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product
from typing import Any, Mapping, Union

from ..limits import MAX_NUMBER

MAX_TEXT = 120
MAX_DEPTH = 8
# Combinations of option values tried when finding the values an expression may take.
MAX_COMBINATIONS = 10_000
# (a longer run of digits is beyond MAX_NUMBER whatever it is: not converted)
_MAX_DIGITS = len(str(MAX_NUMBER))

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)|(//|[-+*%()]))")

# A tree: an int, an option's name, or (operator, left, right).
Tree = Union[int, str, tuple[str, Any, Any]]


@dataclass(frozen=True)
class OptionNumber:
    """A whole number written with options (`2 * side - 1`), as read."""

    text: str
    tree: Tree
    names: tuple[str, ...]  # the options it names, in order of first use

    def value(self, options: Mapping[str, Any]) -> int:
        """Its value with these option values (each named one must be a whole number)."""
        return _evaluate(self.tree, options)


def read_option_number(text: str) -> OptionNumber:
    """`text` read as an `OptionNumber`; a ValueError says what is wrong with it."""
    if len(text) > MAX_TEXT:
        raise ValueError(f"a number written with options is at most {MAX_TEXT} characters long")
    tokens: list[str] = []
    at = 0
    while at < len(text.rstrip()):
        match = _TOKEN.match(text, at)
        if match is None:
            raise ValueError(f"'{text.strip()}': only whole numbers, option names, +, -, *, //, % and "
                             f"parentheses may be written here, and '{text[at:].strip()[:1]}' is none of them")
        if match.group(1) and (len(match.group(1)) > _MAX_DIGITS or int(match.group(1)) > MAX_NUMBER):
            raise ValueError(f"'{text.strip()}': {match.group(1)} is too large: every number lies between "
                             f"-{MAX_NUMBER} and {MAX_NUMBER}")
        tokens.append(match.group(match.lastindex or 0))
        at = match.end()
    reader = _Reader(tokens, text.strip())
    tree = reader.sum(0)
    if reader.at != len(tokens):
        raise ValueError(f"'{text.strip()}': '{tokens[reader.at]}' is not expected there")
    names = tuple(dict.fromkeys(_names(tree)))
    return OptionNumber(text.strip(), tree, names)


def possible_values(number: OptionNumber, choices: Mapping[str, list[Any]]) -> list[int]:
    """The values `number` takes over the combinations of its options' `choices` (every
    combination while there are at most MAX_COMBINATIONS, else each option's smallest
    and largest value: the ends of a sum or product of options whose values are
    ranges of positive numbers)."""
    lists = [list(choices.get(name) or []) for name in number.names]
    if any(not values for values in lists):
        return []
    total = 1
    for values in lists:
        total *= len(values)
    if total > MAX_COMBINATIONS:
        lists = [sorted({min(values), max(values)}) for values in lists]
    return [number.value(dict(zip(number.names, combo))) for combo in product(*lists)]


class _Reader:
    def __init__(self, tokens: list[str], text: str) -> None:
        self.tokens, self.text, self.at = tokens, text, 0

    def _peek(self) -> str:
        return self.tokens[self.at] if self.at < len(self.tokens) else ""

    def sum(self, depth: int) -> Tree:
        tree = self.product(depth)
        while self._peek() in ("+", "-"):
            operator = self.tokens[self.at]
            self.at += 1
            tree = (operator, tree, self.product(depth))
        return tree

    def product(self, depth: int) -> Tree:
        tree = self.factor(depth)
        while self._peek() in ("*", "//", "%"):
            operator = self.tokens[self.at]
            self.at += 1
            tree = (operator, tree, self.factor(depth))
        return tree

    def factor(self, depth: int) -> Tree:
        token = self._peek()
        self.at += 1
        if token == "(":
            if depth >= MAX_DEPTH:
                raise ValueError(f"'{self.text}': parentheses nest at most {MAX_DEPTH} deep here")
            tree = self.sum(depth + 1)
            if self._peek() != ")":
                raise ValueError(f"'{self.text}': a '(' is not closed")
            self.at += 1
            return tree
        if token.isdigit():
            return int(token)
        if token and (token[0].isalpha() or token[0] == "_"):
            return token
        shown = f"'{token}'" if token else "the end"
        raise ValueError(f"'{self.text}': a number or an option's name is expected before {shown}")


def _names(tree: Tree) -> list[str]:
    if isinstance(tree, str):
        return [tree]
    if isinstance(tree, tuple):
        return _names(tree[1]) + _names(tree[2])
    return []


def _evaluate(tree: Tree, options: Mapping[str, Any]) -> int:
    if isinstance(tree, int):
        return tree
    if isinstance(tree, str):
        if tree not in options:
            raise ValueError(f"unknown option '{tree}'")
        value = options[tree]
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"option '{tree}' is not a whole number")
        return value
    operator, left, right = tree
    a, b = _evaluate(left, options), _evaluate(right, options)
    if operator in ("//", "%") and b == 0:
        raise ValueError("a number written with options divides by 0 (with these options)")
    result = a + b if operator == "+" else a - b if operator == "-" else a * b if operator == "*" \
        else a // b if operator == "//" else a % b
    if abs(result) > MAX_NUMBER:
        raise ValueError(f"a number written with options must lie between -{MAX_NUMBER} and {MAX_NUMBER}")
    return result
