"""A definition → its compiled form, or every problem found on the way.

The stages, each of which reports located diagnostics: the options given are
checked against the definition's (and an option that gives a grid's size against
the grid's limits, for each value it may take); the YAML becomes a `GameModel` (indices,
tables); the rules files' items are collected; the compiler checks the rules and
generates their code; unused parts are warned about. `compile_definition` runs
them in order and raises `DefinitionError` with every error found;
`check_definition` runs the same checks but writes no code.
"""
from __future__ import annotations

import gc
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional, TypeVar

from .compilation.compiler import Compiler
from .compilation.errors import RuleError, TooDeep
from .compilation.items import collect_items, specialise_kind_arguments
from .compilation.model import GameModel, build_model
from .compilation.start_kinds import with_start_kinds
from .loading.definition import Definition, locate
from .loading.options import Option, check_board_sizes, parse_option_value, read_options
from .runtime.compiled import CompiledRules
from .spelling import did_you_mean
from .validation.bounds import bound_errors
from .validation.diagnostics import Diagnostic, DiagnosticList
from .validation.expansion import expansion_errors
from .validation.lost_locals import lost_let_warnings
from .validation.nesting import DEEP_ENOUGH_TO_WRITE, loop_depth
from .validation.semantic import (
    drawn_together_warnings,
    empty_rule_warnings,
    hidden_name_warnings,
    missing_line_warnings,
    unused_warnings,
)


@dataclass
class CompiledDefinition:
    model: GameModel
    rules: CompiledRules
    warnings: list[Diagnostic]  # severity warning


@dataclass
class CheckedDefinition:
    model: GameModel
    warnings: list[Diagnostic]  # severity warning


def compile_definition(definition: Definition, options: dict[str, Any], coverage: bool = False) -> CompiledDefinition:
    """Compile `definition` with `options` ({name: value}, values may be strings
    as typed on a command line). Raises DefinitionError."""
    with _young_objects_collected_less_often():
        model, rules, warnings = _with_room_to_recurse(lambda deep: _run(definition, options, coverage, True, deep))
    assert rules is not None
    return CompiledDefinition(model, rules, warnings)


def check_definition(definition: Definition, options: dict[str, Any]) -> CheckedDefinition:
    """Every check of `compile_definition`, without writing the rules' code (a
    fraction of the time: what `validate` runs at the other board sizes). Raises
    DefinitionError."""
    with _young_objects_collected_less_often():
        model, _, warnings = _with_room_to_recurse(lambda deep: _run(definition, options, False, False, deep))
    return CheckedDefinition(model, warnings)


# Compiling makes and drops syntax trees by the hundred thousand, few of them in
# cycles: at Python's threshold (700 objects made) the youngest generation was
# collected every few hundred nodes and, about every hundred of those collections,
# the oldest, walking every tree still kept — 10-20 % of a large definition's
# compilation (the slowest outsider's: 0.94 of 4.8 s, 954 collections; 35 with
# this). The threshold is raised while a definition compiles and set back after
# (the test run sets the same, conftest).
YOUNG_THRESHOLD_COMPILING = 20_000


@contextmanager
def _young_objects_collected_less_often() -> Iterator[None]:
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], YOUNG_THRESHOLD_COMPILING), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


# Some of the compiler's passes walk the code they write recursively, a frame or
# more a level: an `if`/`elif` chain of a thousand branches (the parser bounds
# nesting, not a chain's length) is a thousand levels of the code written, and
# whether it compiled depended on how deep the caller's stack already was. A
# definition that runs out of frames is compiled again in a thread of its own with
# a deep stack and this recursion limit; past that it is an error of the definition.
DEEP_RECURSION_LIMIT = 60_000
DEEP_STACK_BYTES = 512 * 1024 * 1024


class _OutOfFrames(Exception):
    """The compiler ran out of frames on the caller's stack."""


Result = TypeVar("Result")


def _with_room_to_recurse(run: Callable[[bool], Result]) -> Result:
    """`run(False)`, or where it runs out of frames `run(True)` in a thread with a deep stack."""
    try:
        return run(False)
    except _OutOfFrames:
        pass
    outcome: dict[str, Any] = {}

    def deep() -> None:
        try:
            outcome["value"] = run(True)
        except BaseException as exc:  # (raised again in the caller's thread)
            outcome["error"] = exc

    limit = sys.getrecursionlimit()
    size = threading.stack_size()
    try:
        threading.stack_size(DEEP_STACK_BYTES)
        worker = threading.Thread(target=deep, name="regelwerk-deep-compile", daemon=True)
        sys.setrecursionlimit(max(limit, DEEP_RECURSION_LIMIT))
        worker.start()
        worker.join()
    except (ValueError, RuntimeError):
        # (no thread of that stack here: compiled again on the caller's stack, where
        # running out of frames is said as the definition's error)
        sys.setrecursionlimit(limit)
        return run(True)
    finally:
        threading.stack_size(size)
        sys.setrecursionlimit(limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]


def _run(definition: Definition, options: dict[str, Any], coverage: bool,
         write: bool, deep: bool = False) -> tuple[GameModel, Optional[CompiledRules], list[Diagnostic]]:
    diags = DiagnosticList()

    def report(path: tuple[Any, ...], message: str, hint: Optional[str]) -> None:
        file, line, col = locate(definition, path)
        diags.error(file, line, col, message, hint=hint)

    specs = read_options(definition.data, report)
    values = _option_values(definition, specs, options, diags)
    check_board_sizes(definition.data, specs, report)
    diags.raise_if_errors(definition.sources)
    model = build_model(definition.data, specs, values, report)
    diags.raise_if_errors(definition.sources)
    errors: list[RuleError] = []
    items = collect_items(definition.rules, errors)
    errors.extend(specialise_kind_arguments(items, model.kinds))
    errors.extend(bound_errors(model, items))
    too_large = expansion_errors(items)
    if too_large:  # compiling them would not end in reasonable time
        for err in errors + too_large:
            diags.error(err.pos.file, err.pos.line, err.pos.column, err.message, hint=err.hint)
        diags.raise_if_errors(definition.sources)
    compiler = Compiler(model, items, coverage=coverage)
    # (only writing finds loops nested past what Python compiles: checked rules that
    # nest deep are written as well, so that a definition that checks loads)
    write = write or loop_depth(items) >= DEEP_ENOUGH_TO_WRITE
    try:
        rules = compiler.compile() if write else None
        passed = rules is not None if write else compiler.check()
        if rules is not None and not compiler.errors:
            rules = with_start_kinds(model, items, compiler, rules, coverage)
    except RecursionError:
        if not deep:
            raise _OutOfFrames() from None
        diags.error(definition.yaml_file, 1, 1, "the rules are too deeply nested or chained to compile",
                    hint="split a long elif chain or expression into defines or procedures")
        diags.raise_if_errors(definition.sources)
    if not deep and any(isinstance(err, TooDeep) for err in compiler.errors):
        raise _OutOfFrames()
    for err in errors + compiler.errors:
        diags.error(err.pos.file, err.pos.line, err.pos.column, err.message, hint=err.hint)
    for warning in compiler.warnings:
        pos = warning.pos
        diags.add(Diagnostic(pos.file, pos.line, pos.column, warning.message, "warning", warning.hint))
    if not passed and not diags.has_errors:
        diags.error(definition.yaml_file, 1, 1, "the rules could not be compiled")
    diags.extend(missing_line_warnings(definition.data, model, lambda path: locate(definition, path)))
    diags.extend(empty_rule_warnings(definition.data, lambda path: locate(definition, path)))
    diags.extend(drawn_together_warnings(definition.data, lambda path: locate(definition, path)))
    diags.extend(hidden_name_warnings(model, lambda path: locate(definition, path)))
    diags.extend(unused_warnings(model, items, lambda path: locate(definition, path), definition.data))
    diags.extend(lost_let_warnings(items))
    diags.raise_if_errors(definition.sources)
    # the warnings of reading and merging the files first, then those of the rules
    found = [d for d in diags if d.severity == "warning"]
    later = [d for d in found if d not in definition.warnings]
    return model, rules, list(definition.warnings) + later


def _option_values(definition: Definition, specs: dict[str, Option], options: dict[str, Any],
                   diags: DiagnosticList) -> dict[str, Any]:
    """The values given (`--option`), checked against the definition's options."""
    values = {}
    for name, raw in options.items():
        if name not in specs:
            known = ", ".join(specs) or "none"
            diags.error(
                "--option", 1, 1, f"{definition.name} has no option '{name}' (its options: {known})",
                hint=did_you_mean(name, list(specs)),
            )
            continue
        try:
            values[name] = parse_option_value(specs[name], raw)
        except ValueError as exc:
            diags.error("--option", 1, 1, str(exc))
    return values
