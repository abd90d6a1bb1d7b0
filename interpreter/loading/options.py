"""The options of a definition: what `options:` declares (`read_options`) and a
value chosen for one, from a command line, a record's header or a variant, checked
against it (`parse_option_value`).

Loading reads them first (a variant's new defaults are checked here), the pipeline
checks the values given before the model is built, and the compiler reads the
chosen values and their types through `GameModel.options`/`option_specs`. An option
may give the size of a grid (`grid: {files: size, ranks: 2 * size - 1}`): which do
(`board_size_options`, `board_size_numbers`) and whether each value fits a grid
(`check_board_sizes`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping, Optional, Sequence, Union

from ..limits import GRID_FILES, GRID_RANKS, MAX_NUMBER
from ..spelling import did_you_mean
from .option_numbers import OptionNumber, possible_values, read_option_number

# report(path in the YAML, message, hint)
Report = Callable[[tuple[Any, ...], str, Optional[str]], None]
# An int option with min and max is checked value by value up to this many values.
_MAX_CHECKED_VALUES = 1000


@dataclass
class Option:
    """An option a definition declares (`options:`), as read and checked."""

    name: str
    type: str  # "int", "decimal" (a Fraction), "str" or "flag" (true or false)
    default: Any
    values: Optional[list[Any]]
    minimum: Optional[Union[int, float]]
    maximum: Optional[Union[int, float]]
    description: str
    # A whole-number default written with the options declared before it
    # (`default: board_size * board_size // 8`): worked out from their values, as chosen
    # (`effective_values`); `default` holds it with their defaults.
    default_number: Optional[OptionNumber] = None

    def possible_values(self) -> list[Any]:
        """The values it may take, where they are few enough to try each (else none)."""
        if self.values is not None:
            return list(self.values)
        if self.type == "flag":
            return [False, True]
        if self.type == "int" and self.minimum is not None and self.maximum is not None:
            if self.maximum - self.minimum < _MAX_CHECKED_VALUES:
                return list(range(int(self.minimum), int(self.maximum) + 1))
        return []


def _check_bounds(spec: Option, value: int) -> None:
    """A number typed on a command line (or in a record) within the bounds of every
    number of a definition, which the rules then compute with."""
    if abs(value) > MAX_NUMBER:
        raise ValueError(f"option '{spec.name}' must lie between -{MAX_NUMBER} and {MAX_NUMBER}")


# A decimal option's value as text: digits, at most 6 after a point.
# Digits 0 to 9 only: Python reads other scripts' digits as numbers too (`١٢` is 12,
# `1_000` a thousand), and a value typed must read as it is shown.
DECIMAL_TEXT = re.compile(r"-?[0-9]{1,16}(\.[0-9]{1,6})?")
WHOLE_TEXT = re.compile(r"[-+]?[0-9]+")


def _decimal_value(spec: Option, raw: Any) -> Fraction:
    """A decimal option's value, read exactly (a YAML number by its shortest text)."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str, Fraction)):
        raise ValueError(f"option '{spec.name}' takes a number such as 7.5, not {raw!r}")
    if isinstance(raw, Fraction):
        return raw
    text = raw.strip() if isinstance(raw, str) else repr(raw)
    if not DECIMAL_TEXT.fullmatch(text):
        raise ValueError(f"option '{spec.name}' takes a number with at most 6 digits after the point, "
                         f"such as 7.5, not '{raw}'")
    return Fraction(text)


# (a number of more digits is past MAX_NUMBER however it reads, and Python refuses to
# read one of more than 4300)
_MAX_WHOLE_DIGITS = 40



def _sign_and_digits(text: str) -> tuple[int, str]:
    """A whole number's sign and its digits without leading zeros (WHOLE_TEXT's form)."""
    sign = -1 if text.startswith("-") else 1
    return sign, text.lstrip("+-").lstrip("0") or "0"


_FLAG_WORDS = {"true": True, "false": False}


def _flag_value(spec: Option, raw: Any) -> bool:
    """A flag option's value: true or false (a YAML boolean, or the word on a command line)."""
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().lower() in _FLAG_WORDS:
        return _FLAG_WORDS[raw.strip().lower()]
    raise ValueError(f"option '{spec.name}' is true or false, not {raw!r}")


def parse_option_value(spec: Option, raw: Any) -> Any:
    """Convert a command-line string (or YAML value) to the option's type; ValueError if not allowed."""
    value = raw
    if spec.type == "flag":
        value = _flag_value(spec, raw)
        if spec.values is not None and value not in spec.values:
            allowed = ", ".join(show_option_value(v) for v in spec.values)
            raise ValueError(f"option '{spec.name}' must be one of {allowed}, not '{raw}'")
        return value
    if spec.type == "decimal":
        value = _decimal_value(spec, raw)
        if abs(value) > MAX_NUMBER:
            raise ValueError(f"option '{spec.name}' must lie between -{MAX_NUMBER} and {MAX_NUMBER}")
        if spec.minimum is not None and value < Fraction(repr(spec.minimum)):
            raise ValueError(f"option '{spec.name}' must be at least {spec.minimum}, not {raw}")
        if spec.maximum is not None and value > Fraction(repr(spec.maximum)):
            raise ValueError(f"option '{spec.name}' must be at most {spec.maximum}, not {raw}")
        if spec.values is not None and value not in spec.values:
            allowed = ", ".join(show_option_value(v) for v in spec.values)
            raise ValueError(f"option '{spec.name}' must be one of {allowed}, not '{raw}'")
        return value
    if spec.type == "int":
        if isinstance(raw, bool):
            raise ValueError(f"option '{spec.name}' takes a whole number, not {show_option_value(raw)} "
                             "(a true/false option is 'type: flag')")
        if isinstance(raw, str):
            if not WHOLE_TEXT.fullmatch(raw.strip()):
                raise ValueError(f"option '{spec.name}' takes a whole number, not '{raw}'")
            sign, digits = _sign_and_digits(raw.strip())
            if len(digits) > _MAX_WHOLE_DIGITS:
                raise ValueError(f"option '{spec.name}' must lie between -{MAX_NUMBER} and {MAX_NUMBER}")
            value = sign * int(digits)
        if isinstance(value, float):
            raise ValueError(f"option '{spec.name}' takes a whole number, not {raw!r} "
                             "(an option with a fraction is 'type: decimal')")
        if not isinstance(value, int):
            raise ValueError(f"option '{spec.name}' takes a whole number, not {raw!r}")
        _check_bounds(spec, value)
        if spec.minimum is not None and value < spec.minimum:
            raise ValueError(f"option '{spec.name}' must be at least {spec.minimum}, not {value}")
        if spec.maximum is not None and value > spec.maximum:
            raise ValueError(f"option '{spec.name}' must be at most {spec.maximum}, not {value}")
    else:
        if isinstance(raw, bool):
            raise ValueError(f"option '{spec.name}' takes a word, not {show_option_value(raw)} "
                             "(a true/false option is 'type: flag')")
        value = str(raw).strip() if isinstance(raw, str) else raw
    if spec.values is not None and value not in spec.values:
        allowed = ", ".join(show_option_value(v) for v in spec.values)
        raise ValueError(f"option '{spec.name}' must be one of {allowed}, not '{raw}'")
    return value


def read_options(data: dict[str, Any], report: Report) -> dict[str, Option]:
    """The options the definition's YAML data declares, each default checked."""
    specs: dict[str, Option] = {}
    declared = list(data.get("options") or {})
    for name, raw in (data.get("options") or {}).items():
        values = raw.get("values")
        default = raw.get("default")
        if values is not None and any(isinstance(v, bool) for v in values):
            kind = "flag"
            if not all(isinstance(v, bool) for v in values):
                report(("options", name, "values"),
                       "a true/false option takes only the values true and false", None)
        elif values is not None:
            numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
            kind = "int" if all(isinstance(v, int) and not isinstance(v, bool) for v in values) else "str"
            if numbers and (raw.get("type") == "decimal" or any(isinstance(v, float) for v in values)):
                kind = "decimal"
                values = [Fraction(repr(v)) for v in values]
            elif kind == "str":
                values = [str(v) for v in values]
        else:
            kind = raw.get("type", "int")
        spec = Option(name, kind, default, values, raw.get("min"), raw.get("max"), raw.get("description", ""))
        try:
            spec.default = parse_option_value(spec, default)
        except ValueError as exc:
            spec.default_number = _default_written_with_options(spec, specs)
            if spec.default_number is None:
                word = spec.type == "int" and isinstance(default, str) and default.strip().isidentifier()
                why, hint = _why_not_written_with_options(spec, specs, declared) or (
                    f"the default does not fit: {exc}",
                    "an option whose default is a word is a text option: give it `type: str` or its `values`"
                    if word else None)
                report(("options", name, "default"), why, hint)
            else:
                try:
                    spec.default = _worked_out_default(spec, {n: s.default for n, s in specs.items()})
                except ValueError as problem:
                    report(("options", name, "default"), str(problem), None)
        specs[name] = spec
    return specs


def _default_as_number(spec: Option) -> Optional[OptionNumber]:
    """A whole-number option's default text read as a number written with options, or
    None (not such an option, or a text that does not read as one)."""
    if spec.type != "int" or not isinstance(spec.default, str):
        return None
    try:
        return read_option_number(spec.default)
    except ValueError:
        return None


def _default_written_with_options(spec: Option, earlier: dict[str, Option]) -> Optional[OptionNumber]:
    """A whole-number option's default read as a number written with options
    (`board_size * board_size // 8`), where it reads as one and names only whole-number
    options declared before this one; else None."""
    number = _default_as_number(spec)
    if number is None or not number.names or any(name not in earlier or earlier[name].type != "int"
                                                  for name in number.names):
        return None
    return number


def _why_not_written_with_options(spec: Option, earlier: dict[str, Option],
                                  declared: Sequence[str]) -> Optional[tuple[str, Optional[str]]]:
    """(message, hint) for a whole-number default that reads as a number written with
    options but names one it may not (unknown, later, its own, not a whole number);
    `declared`: every option's name, in the order written."""
    number = _default_as_number(spec)
    if number is None or isinstance(number.tree, str) and number.tree not in declared:
        return None  # (a word: more likely a text option's default than a slip in an option's name)
    said = f"option '{spec.name}': its default '{number.text}' names '{{name}}', "
    for name in number.names:
        if name == spec.name:
            return said.format(name=name) + "itself", "a default may name the options declared above it"
        if name not in earlier and name in declared and name != spec.name:
            return (said.format(name=name) + "which is declared below it",
                    f"a default may name the options declared above it: move '{name}' above '{spec.name}'")
        if name not in earlier:
            return (said.format(name=name) + "which is no option declared above it",
                    did_you_mean(name, list(earlier)) or "a default may name the options declared above it")
        if earlier[name].type != "int":
            return (said.format(name=name) + f"a {earlier[name].type} option",
                    "a default written with options names whole-number options")
    return None


def _worked_out_default(spec: Option, values: Mapping[str, Any]) -> Any:
    """`spec`'s default written with options, worked out from `values` and checked
    against its bounds and values (ValueError saying with which values it failed)."""
    number = spec.default_number
    assert number is not None
    used = ", ".join(f"{name}={show_option_value(values.get(name))}" for name in number.names)
    try:
        return parse_option_value(spec, number.value(values))
    except ValueError as problem:
        raise ValueError(f"option '{spec.name}': its default '{number.text}' with {used}: {problem}") from None


def effective_values(specs: dict[str, Option], chosen: Mapping[str, Any], report: Report) -> dict[str, Any]:
    """Every option's value: the one chosen, else its default — a default written with
    options worked out from the values before it, in the order they are declared (one
    that does not fit those values is reported at it, and its own default taken)."""
    values: dict[str, Any] = {}
    for name, spec in specs.items():
        values[name] = spec.default
        if name in chosen:
            values[name] = chosen[name]
        elif spec.default_number is not None:
            try:
                values[name] = _worked_out_default(spec, values)
            except ValueError as problem:
                report(("options", name, "default"), str(problem), "choose its value (--option "
                                                                    f"{name}=...) or other values for those")
    return values


def show_option_value(value: Any) -> str:
    """An option value as it is written in a definition or on a command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# The bounds of a grid's two sizes (the schema's, for a size an option gives).
GRID_LIMITS = {"files": GRID_FILES, "ranks": GRID_RANKS}


def board_size_numbers(data: dict[str, Any]) -> dict[str, OptionNumber]:
    """{"files"/"ranks": what gives it} of a grid whose size options give (`files:
    size`, `ranks: 2 * side - 1`); a text that cannot be read is left out (checking the
    sizes says why)."""
    grid = (data.get("board") or {}).get("grid")
    if not isinstance(grid, dict):
        return {}
    numbers = {}
    for axis in GRID_LIMITS:
        if isinstance(grid.get(axis), str):
            try:
                numbers[axis] = read_option_number(grid[axis])
            except ValueError:
                continue
    return numbers


def board_size_options(data: dict[str, Any]) -> list[str]:
    """The options that give the size of the grid, in order of first use."""
    return list(dict.fromkeys(name for number in board_size_numbers(data).values() for name in number.names))


def check_board_sizes(data: dict[str, Any], specs: dict[str, Option], report: Report) -> None:
    """A grid's `files` and `ranks` written with options: each option must be a
    whole-number one with values that can be listed, and the size must fit the grid
    for every value (checked for all of them, so that a size is found wrong without
    trying each `--option`, and before the board is built: a board of a size that
    could not be had would name sites wrongly)."""
    grid = (data.get("board") or {}).get("grid")
    if not isinstance(grid, dict):
        return
    for axis in GRID_LIMITS:
        given = grid.get(axis)
        if not isinstance(given, str):
            continue
        path, limit = ("board", "grid", axis), GRID_LIMITS[axis]
        try:
            number = read_option_number(given)
        except ValueError as problem:
            report(path, f"the {axis} of a grid: {problem}", f"write a number ({axis}: 8), an option's name "
                                                            f"({axis}: size) or a sum of them ({axis}: 2 * size - 1)")
            continue
        usable = True
        for name in number.names:
            spec = specs.get(name)
            if spec is None:
                report(path, f"unknown option '{name}': the {axis} of a grid are a number or an option's name",
                       did_you_mean(name, list(specs)) or f"write a number ({axis}: 8), or declare an option "
                                                          f"'{name}' with its values under options: (format.md 2.4)")
                usable = False
                continue
            bounded = spec.values is not None or spec.minimum is not None and spec.maximum is not None
            if spec.type != "int" or not bounded:
                report(path, f"option '{name}' gives the {axis} of the grid: it must be a whole-number option "
                             "with `values`, or `min` and `max`", f"e.g. {name}: {{values: [5, 7, 9], default: 7}}")
                usable = False
        if not usable:
            continue
        choices = {name: specs[name].possible_values() or [specs[name].minimum, specs[name].maximum]
                   for name in number.names}
        try:
            # (a range too long to list has an end beyond the grid's limit)
            wrong = [v for v in possible_values(number, choices) if not 1 <= v <= limit]
        except ValueError as problem:
            report(path, f"the {axis} of a grid: {problem}", None)
            continue
        if wrong:
            said = f"option '{given}' may be {wrong[0]}" if number.names == (given.strip(),) else \
                f"'{number.text}' may be {wrong[0]}"
            report(path, f"{said}, and a grid has 1 to {limit} {axis}", f"keep its values within 1 to {limit}")
