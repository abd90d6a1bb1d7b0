"""The generated code of a game as people read it (`regelwerk show --compiled`).

Every generated function and constant is listed with where it comes from (the
decision, case, phase or rule, and its line in the rules: `CompiledRules.source_map`);
constants are shown by a shortened value. The code is Python's own writing of
the syntax trees the compiler built (`ast.unparse`): the compiler never reads it.
"""
from __future__ import annotations

import ast
import reprlib

from ..parsing.ast import Pos
from ..runtime.compiled import CompiledRules

# How much of a constant's value is shown.
_SHORT = reprlib.Repr()
_SHORT.maxstring = 40
_SHORT.maxother = 60
_SHORT.maxtuple = _SHORT.maxlist = _SHORT.maxset = _SHORT.maxfrozenset = _SHORT.maxdict = 5
_SHORT.maxlevel = 2
_WIDTH = 100


def compiled_listing(rules: CompiledRules, title: str = "") -> str:
    """The generated module: its constants (name, shortened value, origin), then
    each function after a comment saying what it does and where it comes from."""
    origins = rules.source_map
    out = [f"# {title}: the generated code" if title else "# the generated code",
           "# (each function and constant with where it comes from: the rule and its line)", ""]
    if rules.constants:
        out.append("# ---------------------------------------------------------------- constants")
        for name in sorted(rules.constants, key=_number):
            out.append(f"# {name} = {_shown(rules.constants[name])}")
            if name in origins:
                out.append(f"#     from {origins[name]}")
        out.append("")
    out.append("# ---------------------------------------------------------------- functions")
    for function in rules.module.body:
        name = getattr(function, "name", "")
        origin = origins.get(name)
        out.append(f"# {name}: {origin}" if origin is not None else f"# {name}")
        out.append(ast.unparse(function))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _shown(value: object) -> str:
    """A constant's value, shortened: its size and its first entries."""
    if isinstance(value, Pos):
        return f"the place {value.file}:{value.line}:{value.column} (for messages)"
    if not isinstance(value, (tuple, list, dict, set, frozenset, str, int, type(None))):
        return f"a {type(value).__name__} ({type(value).__module__})"
    text = _SHORT.repr(value)
    if len(text) > _WIDTH:
        text = text[:_WIDTH - 3] + "..."
    if isinstance(value, (tuple, list, dict, set, frozenset)) and len(value) > _SHORT.maxtuple:
        text = f"({len(value)} entries) {text}"
    return text


def _number(name: str) -> int:
    return int(name[1:]) if name[1:].isdigit() else -1
