"""The listed position's answer of a `forbid result` part kept across listings
(runtime/kept_answers.py): given again on a board differing only where the entry
read and tested nothing and no anchor stands, before or now; chess's perft and
legal lists as with it switched off, the recordings asked fewer times."""
from __future__ import annotations

import ast
import random
from types import SimpleNamespace

from interpreter import load_game
from interpreter.compilation import result_reuse
from interpreter.runtime import kept_answers, terms
from tests.helpers import REPO, parent_answer_calls

CHESS = REPO / "docs" / "examples" / "chess"
KING = (0, 5)  # (owner, kind: the anchor below)


def _anchor(site, pc, p, q):
    return pc is not None and pc[0] == p and pc[1] == 5


def _record(s):  # (a recording: its identity keys what is kept)
    raise AssertionError("not asked")


def _state(board, player=0):  # (the players' site lists as the board has them)
    occ = [[site for site, pc in enumerate(board) if pc is not None and pc[0] == owner] for owner in (0, 1)]
    return SimpleNamespace(board=board, player=player, occ=occ)


MINE = (kept_answers.MINE,)  # (the anchor's loop walks the player's sites)


def test_kept_where_the_boards_differ_outside_what_the_entry_read():
    kept_answers._KEPT.clear()
    board = [None, KING, (1, 3), None, (1, 0), None]
    # (answer, read: sites 1 and 2, tested: site 3, tests, unsettled: none)
    entry = (False, 0b000110, 0b001000, {}, 0)
    kept_answers.keep_entry(_record, _state(board), entry, _anchor, MINE)
    later = board[:]
    later[5] = (1, 4)  # (a piece put where nothing was read)
    later[4] = None  # (one taken away there)
    assert kept_answers.kept_entry(_record, _state(later), _anchor, MINE) is entry
    later[2] = (1, 3)  # (an equal piece where one was read: the same value)
    assert kept_answers.kept_entry(_record, _state(later), _anchor, MINE) is entry
    later[5] = (1, 5)  # (the opponent's king: no anchor of the player's loop)
    assert kept_answers.kept_entry(_record, _state(later), _anchor, MINE) is entry
    assert kept_answers.kept_entry(_record, _state(board[:]), None) is entry  # (equal boards)
    for site, piece in ((2, None), (1, None), (3, (1, 1))):  # (read, the anchor read, tested)
        changed = board[:]
        changed[site] = piece
        assert kept_answers.kept_entry(_record, _state(changed), _anchor, MINE) is None
    anchored = board[:]
    anchored[5] = KING  # (an anchor where nothing was read: the part's loops would visit it)
    assert kept_answers.kept_entry(_record, _state(anchored), _anchor, MINE) is None
    assert kept_answers.kept_entry(_record, _state(anchored), None) is entry  # (no loops: none)
    # (an anchor gone from where nothing was read)
    kept_answers.keep_entry(_record, _state(anchored), entry, _anchor, MINE)
    assert kept_answers.kept_entry(_record, _state(board[:]), _anchor, MINE) is None
    assert kept_answers.kept_entry(_record, _state(board[:], player=1), _anchor, MINE) is None  # (another player)
    assert kept_answers.kept_entry(_record, _state(board[:-1]), _anchor, MINE) is None  # (another board)


def test_the_anchors_looked_for_again_where_the_sites_or_pieces_differ():
    kept_answers._KEPT.clear()
    board = [None, KING, (1, 3), None, (0, 0), None]
    entry = (False, 0b000110, 0, {}, 0)  # (read: sites 1 and 2)
    kept_answers.keep_entry(_record, _state(board), entry, _anchor, MINE)
    moved = board[:]
    moved[4], moved[5] = None, (0, 0)  # (the player's sites differ: looked at, none an anchor)
    assert kept_answers.kept_entry(_record, _state(moved), _anchor, MINE) is entry
    assert kept_answers.kept_entry(_record, _state(moved), _anchor, MINE) is entry  # (as last looked at)
    again = moved[:]
    again[5] = tuple([0, 0])  # (an equal piece, another object: the same value)
    assert kept_answers.kept_entry(_record, _state(again), _anchor, MINE) is entry
    anchored = moved[:]
    anchored[5] = KING  # (the same sites, another piece: an anchor)
    assert kept_answers.kept_entry(_record, _state(anchored), _anchor, MINE) is None
    assert kept_answers.kept_entry(_record, _state(board[:]), _anchor, MINE) is entry


def test_a_list_holding_its_one_lone_anchor_is_not_looked_at_again():
    # (the king a kind no player has two of: `lone`; its site read, so compared)
    board = [None, KING, (1, 3), None, (0, 0), None]
    entry = (False, 0b000110, 0, {}, 0)  # (read: sites 1 and 2)
    moved = board[:]
    moved[4], moved[5] = None, (0, 0)  # (the player's sites differ: a look would be needed)
    for lone in (False, True):
        kept_answers._KEPT.clear()
        kept_answers.keep_entry(_record, _state(board), entry, _anchor, MINE, lone)
        assert (kept_answers._KEPT[_record, 0][5] is None) is lone
        assert kept_answers.kept_entry(_record, _state(moved), _anchor, MINE) is entry
        # (a second king where nothing was read — no position of the game holds one: a look
        # finds it, no look is made)
        two = moved[:]
        two[5] = KING
        assert (kept_answers.kept_entry(_record, _state(two), _anchor, MINE) is entry) is lone
        gone = moved[:]
        gone[1] = None  # (the king moved off its site: compared)
        assert kept_answers.kept_entry(_record, _state(gone), _anchor, MINE) is None
    # a list without its anchor when kept is looked at: the king may stand there in a
    # position after it (another game's start)
    kept_answers._KEPT.clear()
    kingless = [None, None, (1, 3), None, (0, 0), None]
    kept_answers.keep_entry(_record, _state(kingless), entry, _anchor, MINE, True)
    assert kept_answers._KEPT[_record, 0][5] is not None
    crowned = kingless[:]
    crowned[5] = KING
    assert kept_answers.kept_entry(_record, _state(crowned), _anchor, MINE) is None
    # ... and so is one holding two (a position built by hand)
    kept_answers._KEPT.clear()
    twice = board[:]
    twice[5] = KING
    kept_answers.keep_entry(_record, _state(twice), entry, _anchor, MINE, True)
    assert kept_answers._KEPT[_record, 0][5] is not None


def test_a_part_reading_a_variable_is_not_kept(monkeypatch):
    plan = result_reuse.Plan([], [], [], variables=[])
    assert len(plan.kept_argument("")) == 1 and len(plan.kept_argument("f1")) == 2  # (the anchor, its lists)
    assert len(plan.kept_argument("f1", lone=True)) == 3  # (and that it is lone)
    assert plan.kept_argument("f1")[0].id == "f1"  # type: ignore[attr-defined]
    plan.variables.append(result_reuse.pyast.num(0))
    assert plan.kept_argument("f1") == []
    monkeypatch.setattr(result_reuse, "KEPT_ACROSS", False)
    assert result_reuse.Plan([], [], []).kept_argument("f1") == []


def _chess(on: bool, monkeypatch):
    if not on:
        monkeypatch.setattr(result_reuse, "KEPT_ACROSS", False)
    game = load_game(str(CHESS))
    monkeypatch.undo()
    return game


def test_chess_as_without_keeping(monkeypatch):
    on, off = _chess(True, monkeypatch), _chess(False, monkeypatch)
    # (the anchor given, its lists, and that it is a kind no player has two of: the king)
    assert all(len(call.args) == 7 for call in parent_answer_calls(on))
    assert all(ast.literal_eval(call.args[5]) == MINE for call in parent_answer_calls(on))  # (the king's: o[p])
    assert all(ast.literal_eval(call.args[6]) is True for call in parent_answer_calls(on))
    assert all(len(call.args) == 4 for call in parent_answer_calls(off))
    given: list[bool] = []  # (by listing asking: whether the entry kept was given)
    kept = terms.kept_entry  # (chess's part has terms: runtime/terms.py finds its entry)

    def spy(*args):
        found = kept(*args)
        given.append(found is not None)
        return found

    monkeypatch.setattr(terms, "kept_entry", spy)
    for seed in range(2):
        rng = random.Random(seed)
        states = [game.engine.initial_state() for game in (on, off)]
        for ply in range(60):
            lists = [game.engine.legal(s) for game, s in zip((on, off), states)]
            assert lists[0] == lists[1]
            if not lists[0]:
                break
            if ply % 15 == 4:  # (the last ply's siblings: the entries kept most)
                given.clear()
                assert on.engine.perft(states[0], 2) == off.engine.perft(states[1], 2)
                assert given.count(True) > len(given) / 2
            code = rng.choice(list(lists[0]))
            for game, s in zip((on, off), states):
                game.engine.apply_in_place(s, code)
