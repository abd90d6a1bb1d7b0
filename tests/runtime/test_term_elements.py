"""Terms of a `forbid result` part (compilation/result_terms.py) grown by the
assignments testing what the loop found (`Term.rest`: the first piece along a
file and whether it is a general, one term giving a truth value), recorded
element by element (`Term.each`: each ray of an `exists` over rays asked again
alone), and slides over a screen answered before they are played: which terms
are made, hand-checked xiangqi positions (the generals' file opened or kept,
a cannon's capture over a screen), perft counts, and the same legal actions
with each mechanism off over random games."""
from __future__ import annotations

import ast
import random

import pytest

from interpreter import load_game
from interpreter.compilation import pyast, result_reuse, result_terms
from tests.helpers import REPO, helper_calls

XIANGQI = str(REPO / "benchmarks" / "games" / "xiangqi")
CHESS = str(REPO / "docs" / "examples" / "chess")

# the facing generals' scan as the compiler writes it: the first piece along the
# file (a site), then whether it is a general (a truth value)
SCAN = """
t10 = False
for i0 in o[p]:
    if b[i0][1] == 0:
        t8 = False
        if not t8:
            t7 = -1
            for i6 in k2[i0]:
                if not b[i6] is None:
                    t7 = i6
                    break
            t8 = (b[t7] or k0)[1] == 0
        if t8:
            t10 = True
            break
"""

# rays whose elements search (a first piece, then the piece behind it)
RAYS = """
t10 = False
for i0 in o[p]:
    if b[i0][1] == 0:
        t4 = False
        for i5 in k4:
            t0 = -1
            for i2 in i5[i0]:
                if not b[i2] is None:
                    t0 = i2
                    break
            t3 = (b[t0] or k0)[1] == 4
            if t3:
                t4 = True
                break
        if t4:
            t10 = True
            break
"""


def _terms(text: str, answer: str = "t10") -> list[result_terms.Term]:
    lines = ast.parse(text).body
    return list(result_terms.find(lines, ast.parse(answer, mode="eval").body).values())


def test_a_scan_and_its_test_are_one_term():
    (scan,) = _terms(SCAN)
    assert scan.outputs == ("t8",) and scan.inputs == ("i0",) and scan.captured == ()
    assert len(scan.rest) == 1 and [(name, ast.unparse(start)) for name, start in scan.inner] == [("t7", "-1")]
    assert scan.plain and scan.each is None
    params, body = scan.function()
    assert params == ["b", "p", "q", "i0"]
    # (the site before the loop, the loop, the test, the truth value returned)
    assert isinstance(body[1], ast.Assign) and ast.unparse(body[1].value) == "-1"
    assert isinstance(body[2], ast.For) and isinstance(body[-1], ast.Return)


def test_a_site_read_for_its_value_takes_no_rest():
    # the first piece's site is read as a number after the test: not a term's rest
    text = SCAN.replace("        if t8:\n", "        t9 = t7 + 1\n        if t8 or t9:\n")
    assert all(not term.rest for term in _terms(text))


def test_a_scan_whose_test_is_bound_nowhere_before_is_a_term():
    # the line's first piece and its test, the test's local set first by the rest (a
    # lance's file from the king: `beyond(...) is lance and ...`): one term all the same
    text = SCAN.replace("        t8 = False\n        if not t8:\n", "        if True:\n")
    (scan,) = _terms(text)
    assert scan.outputs == ("t8",) and len(scan.rest) == 1 and scan.captured == ()
    params, body = scan.function()
    assert params == ["b", "p", "q", "i0"]
    # (the output given a value first, so the function is whole without the part's binding)
    assert isinstance(body[0], ast.Assign) and pyast.is_name(body[0].targets[0], "t8")
    assert isinstance(body[0].value, ast.Constant) and body[0].value.value is None


def test_a_loop_setting_its_output_under_a_test_needs_it_bound_before():
    # without a rest setting it whatever happens, an unbound output leaves the loop no term
    text = SCAN.replace("        t8 = False\n        if not t8:\n", "        if True:\n")
    text = text.replace("            t8 = (b[t7] or k0)[1] == 0\n", "")
    text = text.replace("                    t7 = i6\n", "                    t7 = i6\n                    t8 = True\n")
    assert _terms(text) == []


def test_without_rests_the_scan_is_a_term_of_a_site(monkeypatch):
    monkeypatch.setattr(result_terms, "REST", False)
    (scan,) = _terms(SCAN)
    assert scan.outputs == ("t7",) and not scan.rest


def test_an_exists_over_rays_is_asked_element_by_element():
    (rays,) = _terms(RAYS)
    assert rays.outputs == ("t4",) and ast.unparse(rays.each) == "t3"
    params, body = rays.function()
    assert params == ["b", "p", "q", "i0", "i5"]
    assert isinstance(body[-1], ast.Return) and ast.unparse(body[-1].value) == "(t3,)"


@pytest.mark.parametrize("text", [
    # one square per element (nothing searched): asked whole
    "t4 = False\nfor i5 in k4:\n    if b[i5] is None:\n        t4 = True\n        break\n",
    # an element leaving the loop otherwise
    RAYS.replace("            t3 = (b[t0]", "            if t0 == 3:\n                break\n            t3 = (b[t0]"),
])
def test_what_is_asked_whole(text):
    answer = "t4" if text.startswith("t4") else "t10"
    assert all(term.each is None for term in _terms(text, answer))


def _state(game, red: dict[str, list[str]], black: dict[str, list[str]]):
    pieces = {site: ("red", kind) for kind, sites in red.items() for site in sites}
    pieces.update({site: ("black", kind) for kind, sites in black.items() for site in sites})
    return game.make_state(pieces, to_move="red")


def test_a_piece_between_the_generals_keeps_to_the_file():
    # Red: general e1, chariot e5, cannon a3; black: general e10. The chariot
    # along the file keeps the generals apart (the scan's site changes, its
    # truth value does not); along rank 5 it opens the file.
    game = load_game(XIANGQI)
    s = _state(game, {"general": ["e1"], "chariot": ["e5"], "cannon": ["a3"]}, {"general": ["e10"]})
    legal = set(game.legal_notations(s))
    general = {"e1d1", "e1f1", "e1e2"}
    chariot = {"e5e2", "e5e3", "e5e4", "e5e6", "e5e7", "e5e8", "e5e9", "e5e10"}
    cannon = {f"a3a{r}" for r in (1, 2, 4, 5, 6, 7, 8, 9, 10)} | {f"a3{f}3" for f in "bcdefghi"}
    assert legal == general | chariot | cannon


def test_a_cannon_capture_that_opens_the_file_is_forbidden():
    # Red: general e1, cannon e3, soldier c3; black: general e10, chariot a3.
    # The cannon's capture of a3 over c3 (a slide over a screen, answered before
    # it is played) and its steps along rank 3 open the file.
    game = load_game(XIANGQI)
    s = _state(game, {"general": ["e1"], "cannon": ["e3"], "soldier": ["c3"]},
               {"general": ["e10"], "chariot": ["a3"]})
    legal = set(game.legal_notations(s))
    assert legal == {"e1d1", "e1f1", "e1e2", "c3c4"} | {f"e3e{r}" for r in (2, 4, 5, 6, 7, 8, 9)}


def test_xiangqi_writes_its_scan_as_a_term_and_its_captures_answered_before():
    game = load_game(XIANGQI)
    # (every case's check asks its terms before playing: the cannon's capture too)
    assert len(helper_calls(game, "h_terms_hold", "forbid result")) >= 2 * 16 - 1
    assert game.engine.perft(game.engine.initial_state(), 3) == [44, 1920, 79666]


@pytest.mark.parametrize("name", [XIANGQI, CHESS])
@pytest.mark.parametrize("flag", ["EACH", "REST"])
def test_the_same_moves_without_each_mechanism(name, flag, monkeypatch):
    # The same legal actions over random games with the mechanism and without.
    game = load_game(name).engine
    module = result_terms
    monkeypatch.setattr(module, flag, False)
    without = load_game(name).engine
    assert without.rules.module is not game.rules.module
    rng = random.Random(5)
    compared = 0
    for _ in range(4):
        s, t = game.initial_state(), without.initial_state()
        for _ in range(120):
            if game.is_over(s):
                assert without.is_over(t)
                break
            legal = list(game.legal(s))
            assert legal == list(without.legal(t)), (name, flag, s.ply)
            compared += 1
            code = rng.choice(legal)
            game.apply_in_place(s, code)
            without.apply_in_place(t, code)
    assert compared > 150
    assert result_reuse.TERMS
