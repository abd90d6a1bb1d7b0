"""How a value of the rules is written in a notation (docs/format.md 3.8): a number
in decimal (one with a fractional part exactly; a quotient whose digits never end
as `1/3`), a site or a player by its name, a flag as `true`/`false`, none as
nothing."""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Union


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
        return decimal_text(value)
    return str(value)


def decimal_text(value: Union[int, Fraction]) -> str:
    """A number written exactly: `7.5`, `-0.25`, `3`, and a quotient whose decimal
    expansion never ends as a fraction, `1/3` (format.md 3.12)."""
    if not isinstance(value, Fraction) or value.denominator == 1:
        return str(int(value))
    rest, twos, fives = value.denominator, 0, 0
    while rest % 2 == 0:
        rest, twos = rest // 2, twos + 1
    while rest % 5 == 0:
        rest, fives = rest // 5, fives + 1
    if rest != 1:  # (no expansion ends)
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    digits = abs(value.numerator) * (10**places) // value.denominator
    whole, fraction = divmod(digits, 10**places)
    text = f"{whole}.{fraction:0{places}d}".rstrip("0").rstrip(".")
    return ("-" if value < 0 else "") + text
