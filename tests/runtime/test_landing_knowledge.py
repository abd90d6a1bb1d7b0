"""What a lister knows of a landing it tests: a `where` asked on an empty landing
or an occupied one is written with what that branch knows (Condition.knowing,
pyast.folded), and a loop over every site acting only at neutral pieces walks the
neutral pieces' sites (compilation/owned_sites.py). Banqi (an outsider's, from the
docs alone) has both: `to is empty or takes(from, to)`, `select sites ... onto neutral`."""
import ast

from interpreter import load_game
from interpreter.compilation import decisions, pyast
from tests.helpers import REPO, legal_codes_seen

BANQI = str(REPO / "benchmarks" / "outsiders" / "banqi")


def _lister(game) -> ast.FunctionDef:
    return next(f for f in game.rules.module.body if isinstance(f, ast.FunctionDef)
                and "the legal actions" in str(game.rules.source_map.get(f.name, "")))


def _walks_neutral_sites(game) -> bool:
    return any(isinstance(node, ast.For) and isinstance(node.iter, ast.Call)
               and isinstance(node.iter.func, ast.Name) and node.iter.func.id == "sorted"
               for node in ast.walk(_lister(game)))


def test_folded_works_out_leading_constants():
    x = pyast.name("x")
    cases = {
        pyast.and_(pyast.true(), x): "x",
        pyast.or_(pyast.false(), x): "x",
        pyast.and_(pyast.false(), pyast.call(pyast.name("f"))): "False",
        pyast.or_(pyast.true(), pyast.call(pyast.name("f"))): "True",
        pyast.or_(pyast.and_(pyast.true(), pyast.false()), x): "x",
        pyast.not_(pyast.and_(pyast.true(), pyast.true())): "False",
        # (a constant after the first operand that is not stays: x's value is the answer's)
        pyast.and_(x, pyast.true()): "x and True",
        pyast.and_(pyast.true(), x, pyast.name("y")): "x and y",
    }
    for code, written in cases.items():
        assert ast.unparse(pyast.folded(code)) == written


def test_an_empty_landing_asks_nothing_of_its_piece():
    # `where to is empty or takes(from, to)` always holds on an empty landing: its
    # append stands under the empty test alone; on an enemy it reads the enemy as `tg`.
    lister = _lister(load_game(BANQI))
    empty_branches = [node for node in ast.walk(lister) if isinstance(node, ast.If)
                      and ast.unparse(node.test) == "tg is None"]
    assert empty_branches
    for branch in empty_branches:
        assert all(isinstance(stmt, ast.Expr) for stmt in branch.body), ast.unparse(branch)
        for stmt in branch.orelse:
            assert "b[to]" not in ast.unparse(stmt) and "tg is None" not in ast.unparse(stmt)


def test_banqi_lists_as_without_the_walk(monkeypatch):
    game = load_game(BANQI)
    assert _walks_neutral_sites(game)
    walked = legal_codes_seen(game, range(4))
    monkeypatch.setattr(decisions, "neutral_sites_walked", lambda src, body, n: body)
    plain = load_game(BANQI)
    assert not _walks_neutral_sites(plain)
    assert legal_codes_seen(plain, range(4)) == walked


def test_neutral_sites_listed_in_the_sites_order(monkeypatch):
    # The neutral pieces' list in any order (here reversed): the flips are listed
    # by site, as the walk over every site lists them.
    game = load_game(BANQI)
    s = game.engine.initial_state()
    assert len(s.occ[-1]) == 32
    s.occ[-1].reverse()
    walked = list(game.engine.rules.decisions[s.decision].legal(s))
    monkeypatch.setattr(decisions, "neutral_sites_walked", lambda src, body, n: body)
    plain = load_game(BANQI)
    t = plain.engine.initial_state()
    assert walked == list(plain.engine.rules.decisions[t.decision].legal(t))
    assert [code[2] for code in walked] == sorted(code[2] for code in walked)
