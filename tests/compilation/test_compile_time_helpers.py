"""The shortcuts the compiler takes for its own speed give what they stand for."""
from __future__ import annotations

import ast
import dataclasses
import gc
import itertools

import pytest

from interpreter.compilation.code import Code
from interpreter.compilation.invariants import _Memo
from interpreter.compilation.scope import Scope, copied
from interpreter.compilation.types import Type
from interpreter.loading.definition import load_definition
from interpreter.pipeline import check_definition, compile_definition
from interpreter.validation.diagnostics import DefinitionError


def _fields(instance: object) -> dict[str, object]:
    return {f.name: getattr(instance, f.name) for f in dataclasses.fields(instance)}  # type: ignore[arg-type]


def test_copied_gives_what_replace_gives():
    scope = Scope(frozenset({"piece"}), "action 'leap'", piece_always=True)
    code = Code(ast.Name(id="x", ctx=ast.Load()), Type.INT, cost=3)
    for instance, changes in ((scope, {"sink": [], "walrus": False}), (code, {}), (code, {"size": 7})):
        new = copied(instance, **changes)
        assert new is not instance and type(new) is type(instance)
        assert _fields(new) == _fields(dataclasses.replace(instance, **changes))  # type: ignore[type-var]
    assert copied(code).code is code.code  # (a shallow copy, as replace's)


def test_copied_refuses_a_field_the_class_has_not():
    with pytest.raises(TypeError, match="no field 'colour'"):
        copied(Code(ast.Constant(value=1), Type.INT), colour=1)


def test_part_keys_are_equal_exactly_where_their_dumps_are():
    source = "f(1, True, 1.0, -0.0, 0.0, 'a', None, x.a, x[1], [y for y in z], (1, 2), a < b, a + 1, a + 1)"
    parts = list(ast.walk(ast.parse(source)))
    memo = _Memo()
    for a, b in itertools.product(parts, repeat=2):
        assert (memo.key(a) == memo.key(b)) == (ast.dump(a) == ast.dump(b)), (ast.dump(a), ast.dump(b))


def test_the_collection_threshold_is_given_back_after_a_compilation():
    # (Python's own threshold, below the one compiling sets: the run's conftest sets that one)
    run_threshold = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    definition = load_definition("docs/examples/connect_four")
    try:
        # (the pipeline itself: the run's load_game may answer with a game compiled before)
        compile_definition(definition, {})
        assert gc.get_threshold() == (700, 10, 10)
        check_definition(definition, {})
        assert gc.get_threshold() == (700, 10, 10)
        with pytest.raises(DefinitionError):
            compile_definition(definition, {"no_such_option": 1})
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*run_threshold)
