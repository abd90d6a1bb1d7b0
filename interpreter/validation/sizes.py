"""The board sizes `regelwerk validate` checks besides the one chosen: a grid whose
`files` or `ranks` name an option (`grid: {files: size, ranks: size}`) is built anew
for each value the option may take, and a region, a setup entry or a line naming a
site one size lacks, or rules that fail at one size, are errors of the definition.

The sizes are bounded: an option that gives a grid's size has `values`, or `min` and
`max`, within the grid's limits (checked when the board is built), and at most
`MAX_SIZES_CHECKED` of its values (or of the combinations of two such options) are
compiled, spread evenly from the smallest to the largest.
"""
from __future__ import annotations

from dataclasses import replace
from itertools import product
from typing import Any

from ..loading.options import Option, board_size_options
from .diagnostics import Diagnostic

MAX_SIZES_CHECKED = 12


def sizes_to_check(data: dict[str, Any], specs: dict[str, Option],
                   given: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    """(the option values to compile the definition with besides the ones `given`,
    how many combinations there are in all). Options given on the command line stay
    as given; an option that is not a whole number with few values is none of them
    (building the board has said so)."""
    names = [n for n in board_size_options(data) if n not in given and n in specs]
    choices = [specs[n].possible_values() for n in names]
    if not names or not all(choices) or any(specs[n].type != "int" for n in names):
        return [], 0
    total = 1
    for values in choices:
        total *= len(values)
    # (at most 26 x 99 combinations: each value is a size within the grid's limits)
    combos = list(product(*choices))
    if total > MAX_SIZES_CHECKED:
        # every option's smallest and largest value together (the corners: a long
        # narrow board is where a rule written for a square one fails), then others
        # spread evenly between, in the order of the combinations
        corners = set(product(*[sorted({min(values), max(values)}) for values in choices]))
        spread = [combos[round(i * (total - 1) / (MAX_SIZES_CHECKED - 1))] for i in range(MAX_SIZES_CHECKED)]
        chosen = set(sorted(corners)[:MAX_SIZES_CHECKED])
        for combo in spread + combos:  # (the spread first; any other where it repeats a corner)
            if len(chosen) == MAX_SIZES_CHECKED:
                break
            chosen.add(combo)
        combos = [c for c in combos if c in chosen]
    return [dict(zip(names, combo)) for combo in combos], total


def at_size(diagnostic: Diagnostic, chosen: dict[str, Any]) -> Diagnostic:
    """A problem found at one size, saying which."""
    shown = "with " + ", ".join(f"{name}={value}" for name, value in chosen.items())
    if shown in diagnostic.message:  # (a site the board lacks: said already)
        return diagnostic
    return replace(diagnostic, message=f"{shown}: {diagnostic.message}")


def sizes_checked(checked: list[dict[str, Any]], total: int) -> str:
    """What `validate` says it checked: `size=3, 4, 5` (`of N` when it chose some)."""
    if not checked:
        return ""
    names = list(checked[0])
    if len(names) == 1:
        shown = f"{names[0]}=" + ", ".join(str(chosen[names[0]]) for chosen in checked)
    else:
        shown = "; ".join(" ".join(f"{n}={v}" for n, v in chosen.items()) for chosen in checked)
    spread = f" ({len(checked)} of {total}, spread from the smallest to the largest)" if total > len(checked) else ""
    return f"board sizes checked: {shown}{spread}"
