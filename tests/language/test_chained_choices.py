"""`A if C else B if D else E` reads as in Python (docs/format.md 3.12): the part
after `else` is the next choice; a choice before `if` needs brackets."""
from interpreter.parsing import ast
from interpreter.parsing.parser import parse_rules


def value_of(text: str) -> ast.Expr:
    define = parse_rules(f"define w = {text}\n").items[0]
    assert isinstance(define, ast.Define)
    return define.expr


def shape(e: ast.Expr) -> object:
    if isinstance(e, ast.IfExp):
        return (shape(e.then), shape(e.cond), shape(e.otherwise))
    return e.value if isinstance(e, ast.Num) else e.id if isinstance(e, ast.Name) else e


def test_a_chain_of_choices_nests_after_else():
    assert shape(value_of("1 if a else 2 if b else 3")) == (1, "a", (2, "b", 3))
    # (not the choice of `2 if g else 1` by c: that one needs brackets)
    assert shape(value_of("2 if g else 1 if c else 3")) == (2, "g", (1, "c", 3))
    assert shape(value_of("(2 if g else 1) if c else 3")) == ((2, "g", 1), "c", 3)
