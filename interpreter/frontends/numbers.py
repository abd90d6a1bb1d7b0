"""Numbers of a game (scores, variables, counters) as text, never failing.

The rules compute with Python integers, which have no size limit; turning one of
more than 4300 digits into text raises ValueError, and a number of thousands of
digits is no use to read anyway. Every front end writes game numbers with
`number_text` (and `json_number` for JSON): a number too long to show is written
in a short scientific form, `1.235e5012`.
"""
from __future__ import annotations

import math
from fractions import Fraction

from ..runtime.results import plain_number
from ..runtime.values import decimal_text

# Integers with more digits than this are written in the short form.
MAX_DIGITS = 30
_LIMIT = 10**MAX_DIGITS


def number_text(value: object) -> str:
    """`value` as people read it: `true`/`false`, `-` for none, 3 for 3.0, short forms."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return decimal_text(value) if abs(value) < _LIMIT else repr(float(value))
    if isinstance(value, float):
        if value.is_integer() and abs(value) < _LIMIT:
            return str(int(value))
        return repr(value)
    if isinstance(value, int):
        return str(value) if -_LIMIT < value < _LIMIT else _scientific(value)
    return str(value)


def json_number(value: object) -> object:
    """`value` as it can go into JSON: unchanged, or its short form (a string) when
    it is an integer too long to write; an exact decimal number as an int when whole,
    else as a float."""
    value = plain_number(value)
    if isinstance(value, int) and not isinstance(value, bool) and not -_LIMIT < value < _LIMIT:
        return _scientific(value)
    return value


def _scientific(value: int) -> str:
    exponent = math.log10(abs(value))  # exact enough for integers of any size
    whole = int(exponent)
    mantissa = 10 ** (exponent - whole)
    return f"{'-' if value < 0 else ''}{mantissa:.3f}e{whole}"
