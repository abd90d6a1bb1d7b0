"""How a value of the rules is written in a notation (docs/format.md 3.8): a number
in decimal (one with a fractional part exactly), a site or a player by its name, a
flag as `true`/`false`, none as nothing."""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable


def format_value(value: Any, kind: str, name: Callable[[str, Any], str]) -> str:
    """`value` of `kind` ("number", "flag", "site", "player") as a notation writes it;
    `name(kind, index)` names a site or a player."""
    if kind in ("site", "player"):
        return "" if value is None or value < 0 else name(kind, value)
    if kind == "flag":
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        return _decimal(value)
    return str(value)


def _decimal(value: Fraction) -> str:
    """The exact decimal digits of a fraction whose denominator divides a power of ten."""
    sign = "-" if value < 0 else ""
    value = abs(value)
    whole, rest = divmod(value.numerator, value.denominator)
    digits = []
    for _ in range(30):
        if not rest:
            break
        rest *= 10
        digit, rest = divmod(rest, value.denominator)
        digits.append(str(digit))
    return f"{sign}{whole}." + "".join(digits or ["0"])
