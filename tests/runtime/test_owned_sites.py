"""A lister's loop over one owner's pieces' sites (`o[q]`) knows that each site
holds a piece of q: the tests that it is there and whose it is are left out, and
a filter reading the piece reads it once (compilation/owned_sites.py)."""
import ast
import textwrap

import pytest

from interpreter import load_game
from interpreter.compilation import decisions
from interpreter.compilation.owned_sites import owner_tests_dropped
from interpreter.compilation.source import Source
from tests.helpers import REPO, generated, legal_codes_seen

CRIBBAGE = str(REPO / "benchmarks" / "outsiders" / "cribbage")


def _dropped(code: str) -> str:
    body = ast.parse(textwrap.dedent(code)).body
    return ast.unparse(ast.fix_missing_locations(ast.Module(body=owner_tests_dropped(Source(), body),
                                                            type_ignores=[])))


def test_the_owner_tests_go_and_the_filter_reads_the_piece_once():
    text = _dropped("""
        for to in o[p]:
            if b[to][1] == 0 and n + b[to][5] <= 31:
                tg = b[to]
                if tg is not None:
                    if tg[0] == p:
                        out.append(to)
    """)
    assert text.split("\n") == ["for to in o[p]:",
                                 "    t0 = b[to]",
                                 "    if t0[1] == 0 and n + t0[5] <= 31:",
                                 "        tg = t0",
                                 "        out.append(to)"]


@pytest.mark.parametrize("loop, test", [
    ("for to in o[p]:", "f3(s, to) > 0"),  # (a generated function handed the state may move a piece)
    ("for to in o[p]:", "h_count(b, to) > 0"),  # (a helper handed the board, likewise)
    ("for to in o[p]:", "(n := b[to][1]) == 0"),
    ("for to in o[q]:", "b[to][1] == 0"),  # (the sites of q, the owner asked p)
    ("for to in o[p] + o[q]:", "b[to][1] == 0"),
])
def test_the_owner_tests_stay_where_they_may_not_hold(loop, test):
    text = _dropped(f"""
        {loop}
            if {test}:
                tg = b[to]
                if tg is not None:
                    if tg[0] == p:
                        out.append(to)
    """)
    assert "tg is not None" in text and "tg[0] == p" in text


def test_cribbage_lists_as_with_the_tests(monkeypatch):
    game = load_game(CRIBBAGE)
    listers = [node for node in generated(game, ast.If, ": the legal actions")]
    assert listers and not any(ast.unparse(node.test) in ("tg is not None", "tg[0] == p") for node in listers)
    seen = legal_codes_seen(game, range(3))
    monkeypatch.setattr(decisions, "owner_tests_dropped", lambda src, body: body)
    plain = load_game(CRIBBAGE)
    assert any(ast.unparse(node.test) == "tg[0] == p" for node in generated(plain, ast.If, ": the legal actions"))
    assert legal_codes_seen(plain, range(3)) == seen
