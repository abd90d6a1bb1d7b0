"""The one walk over the rules' syntax trees (parsing/visit.py) that the passes
reading them share: which nodes it finds, in which order, and what it takes as
the same thing written twice."""
from __future__ import annotations

from interpreter.parsing import ast
from interpreter.parsing.parser import parse_rules
from interpreter.parsing.visit import children, nodes_of, statements_of, structure

RULES = """\
procedure capture:
    for each d in orthogonal:
        let victim = neighbour(to, d)
        if victim is enemy:
            remove victim
        else:
            if victim is own:
                draw
    win
"""


def procedure() -> ast.Procedure:
    found = parse_rules(RULES, "t.rules").items[0]
    assert isinstance(found, ast.Procedure)
    return found


def test_statements_come_in_the_order_written_each_before_those_nested_in_it():
    kinds = [type(s).__name__ for s in statements_of(procedure().body)]
    assert kinds == ["ForEachStmt", "LetStmt", "IfStmt", "RemoveStmt", "IfStmt", "DrawStmt", "WinStmt"]


def test_every_node_is_found_once_and_positions_are_not_nodes():
    found = list(nodes_of(procedure()))
    assert isinstance(found[0], ast.Procedure)
    assert len({id(node) for node in found}) == len(found)
    assert not any(isinstance(node, ast.Pos) for node in found)
    names = [node.id for node in found if isinstance(node, ast.Name)]
    assert names[:3] == ["orthogonal", "to", "d"]


def test_nodes_in_dicts_are_found_like_those_in_lists():
    body = procedure().body
    assert list(nodes_of({"a": body})) == list(nodes_of(body))


def test_children_are_the_nodes_directly_below():
    loop = procedure().body[0]
    assert isinstance(loop, ast.ForEachStmt)
    below = list(children(loop))
    assert [type(n).__name__ for n in below[1:]] == ["LetStmt", "IfStmt"]


def test_one_thing_written_twice_has_one_structure_and_a_change_another():
    twice = parse_rules("define a = count(pieces) > 1\ndefine b =    count(pieces) > 1\n"
                        "define c = count(pieces) > 2\n", "t.rules").items
    a, b, c = (structure(item.expr) for item in twice)
    assert a == b
    assert a != c
