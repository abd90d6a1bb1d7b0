"""A check of a move whose piece is of a kind no player has two of asks a part's
loop over its owner's pieces of that kind at the mover's site alone
(compilation/lone_pieces.py): the same answers, the loop as before where the
mover is no longer of the kind or the loop's name is read after it."""
import ast

from interpreter import load_game
from interpreter.compilation import pyast, result_reuse
from interpreter.compilation.lone_pieces import (
    kind_tested,
    lone_anchors,
    mover_first,
    read_through_board,
    stop_after_lone,
)
from interpreter.runtime.kept_answers import KeptByMove
from tests.helpers import REPO, legal_codes_seen, parent_answer_calls, write_definition

YAML = """\
game: probe
title: Probe
description: A king that no enemy may stand north of.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 4, ranks: 4}
pieces:
  king: {symbol: K, description: One a player.}
  stone: {symbol: S, description: Many a player.}
setup:
  white:
    king: [b1]
    stone: [d1]
  black:
    king: [d4]
    stone: [b3, c2]
"""
RULES = """\
phase play:
    turn: move
    if no action: lose
decision move:
    action king_move by king:
        step orthogonal
        notation "{from}{to}"
        onto empty: KING
    action stone_move by stone:
        step orthogonal
        notation "{from}{to}"
        onto empty: move
forbid result where exists(pieces of player, it is king and neighbour(it, n) is enemy)
"""


def _game(tmp_path, king: str = "move"):
    return load_game(write_definition(tmp_path, YAML, RULES.replace("KING", king)))


def _checks(game) -> list[ast.FunctionDef]:
    """The generated functions but for the checks written again noting their reads (KeptByMove's)."""
    return [function for function in game.rules.module.body if isinstance(function, ast.FunctionDef)
            and "noting the sites it reads" not in game.rules.source_map[function.name].what]


def _mover_loops(game) -> list[ast.For]:
    """The loops of the generated checks going over the mover's site or a list."""
    return [node for function in _checks(game)
            for node in ast.walk(function) if isinstance(node, ast.For) and isinstance(node.iter, ast.IfExp)]


def test_the_kings_check_asks_the_movers_site(tmp_path):
    game = _game(tmp_path)
    loops = _mover_loops(game)
    assert len(loops) == 1  # (the king's move; the stones' check walks the list)
    assert isinstance(loops[0].iter.body, ast.Tuple) and pyast.is_name(loops[0].iter.body.elts[0], "at")
    # b1b2 and b1c1 end under an enemy stone (b3, c2); b1a1 does not. The stone's
    # moves leave the king on b1, under b2, empty
    assert game.legal_notations(game.initial_state()) == ["b1a1", "d1c1", "d1d2"]


def test_a_king_no_longer_a_king_is_looked_for_on_the_list(tmp_path):
    # (a king's move makes it a stone: no king left, nothing is forbidden)
    game = _game(tmp_path, "\n            move\n            promote piece to stone")
    # (the mover's site holds a stone after the case: the list is walked, no king found)
    assert len(_mover_loops(game)) == 1
    assert game.legal_notations(game.initial_state()) == ["b1a1", "b1b2", "b1c1", "d1c1", "d1d2"]


def _loop_of(kind: int) -> ast.For:
    """`for i0 in o[p]: if b[i0][1] == kind: t = True; break`."""
    test = pyast.compare(pyast.sub(pyast.sub(pyast.name("b"), pyast.name("i0")), 1), "==", pyast.num(kind))
    body = [pyast.if_(test, [pyast.assign(pyast.name("t"), pyast.true()), pyast.break_()])]
    return pyast.for_(pyast.name("i0"), pyast.sub(pyast.name("o"), pyast.name("p")), body)


def _fresh(prefix: str) -> str:
    return prefix + "9"


def test_a_loop_of_a_lone_kind_goes_over_the_mover_where_it_is_one():
    (loop,) = mover_first([_loop_of(5)], pyast.name("t"), frozenset({5}), _fresh)
    assert ast.unparse(loop.iter) == "(at,) if (t9 := b[at]) is not None and t9[0] == p and (t9[1] == 5) else o[p]"
    namespace = {"b": [None, (0, 5), (0, 1), (1, 5), None], "o": [[2, 1], [3]], "p": 0, "t": False}
    for at, found in ((1, True), (2, True), (3, True), (4, True)):
        # (the mover's site where it holds the player's king, the list otherwise: the king found alike)
        local = dict(namespace, at=at)
        exec(compile(ast.fix_missing_locations(ast.Module([loop], [])), "<test>", "exec"), local)
        assert local["t"] is found and local["i0"] == 1


def test_a_loop_is_left_where_its_kind_is_not_lone_or_its_name_is_read_after():
    loop = _loop_of(5)
    assert mover_first([loop], pyast.name("t"), frozenset({4}), _fresh) == [loop]
    # (the loop's name read after it: which sites it visits would tell)
    assert mover_first([loop], pyast.name("i0"), frozenset({5}), _fresh) == [loop]


def _function(*body: ast.stmt) -> ast.FunctionDef:
    return ast.FunctionDef(name="f0", args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                                         kw_defaults=[], kwarg=None, defaults=[]),
                           body=list(body), decorator_list=[], returns=None, type_comment=None, lineno=0,
                           col_offset=0)


def _visits(loop: ast.For, pieces: list) -> list[int]:
    """The sites of white's list (`o[0]`, in its order) whose piece the loop's kind test asks."""
    visited: list[int] = []

    class Board(list):
        def __getitem__(self, site):
            visited.append(site)
            return list.__getitem__(self, site)

    local = {"b": Board(pieces), "o": [[site for site, piece in enumerate(pieces) if piece and piece[0] == 0]],
             "p": 0, "t": False}
    exec(compile(ast.fix_missing_locations(ast.Module([loop], [])), "<test>", "exec"), local)
    return visited


def test_a_loop_of_a_lone_kind_stops_at_the_piece_found():
    # (the king on site 1 of white's pieces on 0-3; the body leaves `t` false: not found)
    pieces = [(0, 1), (0, 5), (0, 1), (0, 1)]
    loop = _loop_of(5)
    loop.body[0].body = [pyast.assign(pyast.name("t"), pyast.false())]
    assert _visits(loop, pieces) == [0, 1, 2, 3]
    (stopped,) = stop_after_lone(_function(loop), frozenset({5})).body
    assert _visits(stopped, pieces) == [0, 1]
    # (a kind two pieces may be of, a loop's name read after it: walked whole)
    assert stop_after_lone(_function(loop), frozenset({1})).body == [loop]
    read_after = _function(loop, pyast.return_(pyast.name("i0")))
    assert stop_after_lone(read_after, frozenset({5})) is read_after


def test_the_rest_of_an_and_is_asked_inside_the_kind_test():
    # `if b[i0][1] == 5 and i0 > 1: t = True`: the king on 1 fails the rest, the loop stops there
    loop = _loop_of(5)
    kind = loop.body[0].test
    loop.body[0] = pyast.if_(pyast.and_(kind, pyast.compare(pyast.name("i0"), ">", pyast.num(1))),
                             [pyast.assign(pyast.name("t"), pyast.true())])
    (stopped,) = stop_after_lone(_function(loop), frozenset({5})).body
    assert _visits(stopped, [(0, 1), (0, 5), (0, 1)]) == [0, 1]


def test_a_search_for_a_lone_piece_passing_a_test_stops_at_the_piece():
    # `exists(pieces of p where it is king and it in zone)`: the body breaks when found; the king
    # on site 1 fails the rest (`i0 > 1`), so no piece after it can pass: the loop stops there
    loop = _loop_of(5)
    kind = loop.body[0].test
    loop.body[0] = pyast.if_(pyast.and_(kind, pyast.compare(pyast.name("i0"), ">", pyast.num(1))),
                             [pyast.assign(pyast.name("t"), pyast.true()), pyast.break_()])
    pieces = [(0, 1), (0, 5), (0, 1), (0, 1)]
    assert _visits(loop, pieces) == [0, 1, 2, 3]
    (stopped,) = stop_after_lone(_function(loop), frozenset({5})).body
    assert _visits(stopped, pieces) == [0, 1]
    # (found: the body's own break; a king on 2 passes the rest)
    assert _visits(stopped, [(0, 1), (0, 1), (0, 5), (0, 1)]) == [0, 1, 2]
    # (a kind two pieces may be of: walked whole)
    assert stop_after_lone(_function(loop), frozenset({1})).body == [loop]
    # (the kind alone, its body breaking: left as it is)
    alone = _loop_of(5)
    alone.body[0].body = [pyast.assign(pyast.name("t"), pyast.true()), pyast.break_()]
    assert stop_after_lone(_function(alone), frozenset({5})).body == [alone]


def test_the_kings_check_stops_at_the_king(tmp_path):
    # (every generated loop over a player's kings ends with the king found)
    game = _game(tmp_path)
    loops = [node for function in game.rules.module.body if isinstance(function, ast.FunctionDef)
             for node in ast.walk(function) if isinstance(node, ast.For)
             and isinstance(node.body[0], ast.If) and kind_tested(node.body[0].test) is not None]
    assert loops and all(isinstance(loop.body[0].body[-1], ast.Break) for loop in loops)


def test_a_loop_pasted_twice_is_stopped_in_both_places():
    # (a block compiled once stands wherever it is pasted: its name is counted in each copy)
    loop = _loop_of(5)
    stopped = stop_after_lone(_function(loop, pyast.if_(pyast.name("t"), [loop])), frozenset({5})).body
    assert isinstance(stopped[0].body[0].body[-1], ast.Break)
    assert isinstance(stopped[1].body[0].body[0].body[-1], ast.Break)


def _list_left_alone(game) -> int:
    """How many of the generated checks' statements change the mover's site
    list only where it is not the player's king (`if not (pc[0] == p and pc[1] == K):`)."""
    return sum(1 for function in _checks(game)
               for node in ast.walk(function) if isinstance(node, ast.If) and isinstance(node.test, ast.UnaryOp)
               and "pc" in pyast.names_in([node.test]) and any(
                   isinstance(inner, ast.Attribute) and inner.attr in ("remove", "append")
                   for stmt in node.body for inner in ast.walk(stmt)))


def test_the_kings_check_leaves_its_site_list_alone(tmp_path):
    # (the king's move: its removal from and return to the list, each under the test)
    game = _game(tmp_path)
    assert _list_left_alone(game) == 2
    state = game.initial_state()
    lists = [list(sites) for sites in state.occ]
    assert game.legal_notations(state) == ["b1a1", "d1c1", "d1d2"]
    assert [list(sites) for sites in state.occ] == lists  # (the checks leave the position as it was)
    # after b1a1 and a black stone's move, the king's moves are asked again from a1
    state = game.apply(game.apply(state, "b1a1"), "b3a3")
    assert game.legal_notations(state) == ["a1b1", "d1c1", "d1d2"]  # (a2 is under a3)


def test_the_list_is_changed_where_a_part_reads_it_or_the_king_changes(tmp_path):
    # a part also walking the player's stones reads the list: changed as the case does
    stones = " or exists(pieces of player, it is stone and neighbour(it, s) is enemy)"
    rules = RULES.replace("neighbour(it, n) is enemy)", "neighbour(it, n) is enemy)" + stones)
    (tmp_path / "stones").mkdir()
    game = load_game(write_definition(tmp_path / "stones", YAML, rules.replace("KING", "move")))
    assert _list_left_alone(game) == 0
    assert game.legal_notations(game.initial_state()) == ["b1a1", "d1c1", "d1d2"]
    # a king's move making it a stone: its site may hold no king after the case
    game = _game(tmp_path, "\n            move\n            promote piece to stone")
    assert _list_left_alone(game) == 0


def _kept_arguments(game) -> list[list]:
    """The last arguments of the calls finding the part's answer kept across listings
    (runtime/kept_answers.py): the anchor function, its lists, whether it is lone."""
    return [[ast.literal_eval(arg) if not isinstance(arg, ast.Name) else arg.id for arg in call.args[4:]]
            for call in parent_answer_calls(game)]


def test_the_kept_answer_is_told_its_anchor_is_lone(tmp_path):
    # (the part's loop asks first for the king, of which no player has two: its list needs
    # no look once the king is found — runtime/kept_answers.py)
    kept = _kept_arguments(_game(tmp_path))
    assert kept and all(len(args) == 3 and args[1] == (-1,) and args[2] is True for args in kept)
    assert lone_anchors(result_reuse.Plan([], [], []), frozenset({1})) is False  # (no loop: no anchor)
    # a part also walking the player's stones: their list may hold many anchors
    stones = " or exists(pieces of player, it is stone and neighbour(it, s) is enemy)"
    rules = RULES.replace("neighbour(it, n) is enemy)", "neighbour(it, n) is enemy)" + stones)
    (tmp_path / "stones").mkdir()
    game = load_game(write_definition(tmp_path / "stones", YAML, rules.replace("KING", "move")))
    kept = _kept_arguments(game)
    assert kept and all(len(args) == 2 for args in kept)
    assert game.legal_notations(game.initial_state()) == ["b1a1", "d1c1", "d1d2"]
    # a king that may be made: not lone
    (tmp_path / "made").mkdir()
    made = RULES.replace("KING", "move").replace("onto empty: move\n", "onto empty:\n            move\n"
                                                 "            promote piece to king\n")
    game = load_game(write_definition(tmp_path / "made", YAML, made))
    kept = _kept_arguments(game)
    assert kept and all(len(args) == 2 for args in kept)


def _noting_counted(check: KeptByMove) -> list:
    """The codes `check` asks its noting check of from now on (its misses)."""
    asked: list = []
    noting = check.noting

    def counted(s, code, memo=None):
        asked.append(code)
        return noting(s, code, memo)
    check.noting = counted
    return asked


def test_the_kings_check_keeps_its_answer_by_code(tmp_path):
    # (the king's move onto empty: its part's loop over the king's site alone, the board read by
    # subscripts alone — its answer kept by code with the sites it read: kept_answers.KeptByMove)
    game = _game(tmp_path)
    checks = game.rules.result_checks[0]
    kept = [check for check in checks if isinstance(check, KeptByMove)]
    assert len(kept) == 1 and not any(isinstance(check, KeptByMove) for check in checks if check is not kept[0])
    asked = _noting_counted(kept[0])
    state = game.initial_state()
    assert game.legal_notations(state) == ["b1a1", "d1c1", "d1d2"]
    assert len(asked) == 3  # (b1a1, b1b2, b1c1: each asked whole once)
    assert game.legal_notations(state) == ["b1a1", "d1c1", "d1d2"]
    assert len(asked) == 3  # (listed again: every answer kept)
    # the black stone north of b2 steps away: b1b2's kept answer read b3, asked again and
    # now allowed; b1a1's (a2 north of a1) and b1c1's (c2) read nothing that changed
    state = game.apply(game.apply(state, "d1d2"), "b3a3")
    assert game.legal_notations(state) == ["b1a1", "b1b2", "d2d1", "d2d3"]
    sites = game.layout.sites
    whites = [(sites[code[1]], sites[code[2]]) for code in asked[3:] if sites[code[1]] == "b1"]
    assert whites == [("b1", "b2")]  # (black's king asked its own moves meanwhile)
    # the first board listed again (a sibling of the last, say): b1b2's answer kept before is given
    # again (two kept a move), nothing asked; listed once more, the other is given back
    before = len(asked)
    first = game.initial_state()
    assert game.legal_notations(first) == ["b1a1", "d1c1", "d1d2"]
    assert game.legal_notations(state) == ["b1a1", "b1b2", "d2d1", "d2d3"]
    assert game.legal_notations(first) == ["b1a1", "d1c1", "d1d2"]
    assert len(asked) == before
    # a playout's pick (no memo) is asked of the check as it is: nothing noted, nothing kept
    code = next(code for code in game.engine.legal(state) if sites[code[2]] == "a1")
    before = len(asked)
    kept[0].kept.clear()
    assert not kept[0](state, code) and len(asked) == before and not kept[0].kept


def test_a_check_reading_more_than_the_board_keeps_no_answer_by_code():
    def parsed(text: str) -> list:
        return ast.parse(text).body
    part = parsed("for i0 in (at,) if b[at] is not None else o[p]:\n"
                  "    if b[i0][1] == 5 and b[k1[i0]] is None: t = True")
    assert read_through_board(parsed("b[frm] = None\nb[to] = pc\nv[0] += 1\nv[1] = v[0] + 2"), part)
    # the board given whole to a helper (read unseen); a variable read by a part, or by the case
    # where it decides what is written
    assert not read_through_board(parsed("b[to] = pc\nh_flip(b, to)"), part)
    assert not read_through_board(parsed("b[to] = pc"), part + parsed("t = v[0] > 3"))
    assert not read_through_board(parsed("if v[0] > 3:\n    b[to] = None"), part)
    assert not read_through_board(parsed("v[0] = (t9 := b[to])\nb[t9] = None"), part)


def test_the_kept_answers_by_code_are_the_checks_answers():
    # (random games of chess and xiangqi listed with the kings' and generals' answers kept
    # by code, then with every check asked whole: the same legal codes at every ply)
    for path, seeds in (("docs/examples/chess", range(3)), ("benchmarks/games/xiangqi", range(2))):
        game = load_game(str(REPO / path))
        assert any(isinstance(check, KeptByMove) for row in game.rules.result_checks for check in row)
        kept = legal_codes_seen(game, seeds)
        saved = KeptByMove.__call__
        try:
            KeptByMove.__call__ = lambda self, s, code, memo=None: self.check(s, code, memo)  # type: ignore
            # (loaded again: the phases' rows of checks hold the method bound when they are made)
            asked_whole = load_game(str(REPO / path))
            assert legal_codes_seen(asked_whole, seeds) == kept
        finally:
            KeptByMove.__call__ = saved  # type: ignore[method-assign]


def test_the_kings_check_gives_back_the_answers_of_boards_met_before(tmp_path, monkeypatch):
    # (b1b2's answer reads b3: a black stone at the start, nothing once it left, black's king once it came;
    # listed in turn, then the first again — kept_answers.ANSWERS_KEPT answers a code, the last met first)
    from interpreter.runtime import kept_answers

    game = _game(tmp_path)
    check = next(check for check in game.rules.result_checks[0] if isinstance(check, KeptByMove))
    lines = ("", "d1d2 b3a3", "d1d2 b3a3 d2d1 d4c4 d1d2 c4b4 d2d1 b4b3")
    sites = game.layout.sites
    noting = check.noting
    for kept, asked_again in ((4, []), (2, [("b1", "b2")])):
        monkeypatch.setattr(kept_answers, "ANSWERS_KEPT", kept)
        check.kept.clear()
        check.noting = noting
        asked = _noting_counted(check)
        # (each board made anew: a state keeps the list once made)
        lists = [game.legal_notations(play_line(game, game.initial_state(), line)) for line in lines]
        seen = [("b1b2" in listed, "b1a1" in listed) for listed in lists]
        assert seen == [(False, True), (True, True), (False, True)]
        before = len(asked)
        assert game.legal_notations(game.initial_state()) == lists[0]
        assert [(sites[code[1]], sites[code[2]]) for code in asked[before:]] == asked_again


def play_line(game, state, line: str):
    for notation in line.split():
        state = game.apply(state, notation)
    return state


def test_a_kept_answer_is_given_only_where_the_origin_holds_the_piece_noted():
    # (a kept answer is looked up before the mover is asked: the sites it is kept with hold the
    # origin even where the check read nothing there, so another piece there misses and is checked)
    checked: list = []

    def check(s, code, memo=None):
        checked.append(code)
        return 7

    def noting(s, code):
        return None, 1 << 3  # (allowed; it read site 3 alone, not the origin)

    kept = KeptByMove(check, 0, noting)
    state = type("S", (), {})()
    state.player = 0
    state.board = [(0, 0, None), None, None, (1, 1, None)]
    code = (0, 0, 1)
    assert kept(state, code, {}) is None and not checked  # (noted: the king at the origin)
    assert kept(state, code, {}) is None and not checked  # (kept)
    state.board = [(0, 1, None), None, None, (1, 1, None)]  # (a stone of the player's at the origin)
    assert kept(state, code, {}) == 7 and checked == [code]
    state.board = [None, None, None, (1, 1, None)]
    assert kept(state, code, {}) == 7 and checked == [code, code]


def test_a_phases_row_calls_a_kept_check_through_its_bound_method(tmp_path):
    # (runtime/clearances._called: let_through calls the row's method, the same answers as the object)
    game = _game(tmp_path)
    checks = game.rules.result_checks[0]
    kept = next(check for check in checks if isinstance(check, KeptByMove))
    row = checks.row
    at = list(checks).index(kept)
    assert row[at] == kept.__call__ and row[at].__self__ is kept
    assert all(called is check for called, check in zip(row, checks) if check is not kept)
