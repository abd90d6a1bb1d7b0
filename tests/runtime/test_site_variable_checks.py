"""A check reading the king's square from variables the rules write when the king
moves (in its action's procedure, or in `after each action` under `if piece is
king`; compilation/result_reuse.py: a part reading `v[E]`, E of the players and
constants; cases.CaseWriter._reusable) is reused from the listed position as one
finding the king through `pieces of player`: a move that writes none of the
variables leaves them as they were. The same small game written three ways: the
same perft, the same moves let through by the listing uncalled
(runtime/clearances.py), the king's own moves (which write the variables) always
asked whole."""
from __future__ import annotations

import ast

import pytest

from interpreter import load_game
from interpreter.compilation import result_reuse
from interpreter.runtime.clearances import ClearedChecks
from tests.helpers import parent_answer_calls, write_definition
from tests.runtime.test_move_clearances import _spied

YAML = """game: kings
title: Kings, rooks and bishops
description: A small board to compare two spellings of a check.
rules: game.rules
players:
  - {name: white, forward: n}
  - {name: black, forward: s}
board:
  grid: {files: 5, ranks: 5}
pieces:
  king: {symbol: K}
  rook: {symbol: R}
  bishop: {symbol: B}
VARIABLES
setup:
  white: {king: [c1], rook: [a1], bishop: [e1]}
  black: {king: [c5], rook: [e5], bishop: [a5]}
"""

VARIABLES = """variables:
  white_king: {type: site, default: c1, hidden: true}
  black_king: {type: site, default: c5, hidden: true}
"""

RULES = """define met(k, d) = beyond(k, d, it is empty)
define attacked(k) = exists(d in orthogonal, met(k, d) is enemy and met(k, d) is rook) \\
    or exists(d in diagonal, met(k, d) is enemy and met(k, d) is bishop) \\
    or exists(d in all, neighbour(k, d) is enemy and neighbour(k, d) is king)
CHECK

forbid self_check:
    result where in_check

phase play:
    turn: move
    before each turn:
        if no legal action:
            lose

decision move:
    action king_move by king:
        step all
        onto empty: KING
        onto enemy: KING
    action rook_move by rook:
        slide orthogonal
        onto empty: move
        onto enemy: move
    action bishop_move by bishop:
        slide diagonal
        onto empty: move
        onto enemy: move
"""

KEPT = """
procedure king_to:
    move
    if player == white:
        white_king = to
    else:
        black_king = to
"""


# ... the variables written for every action, where the piece is a king
AFTER = """
        if piece is king:
            if player == white:
                white_king = to
            else:
                black_king = to
"""


def _game(folder, kept: bool, after: bool = False):
    yaml = YAML.replace("VARIABLES\n", VARIABLES if kept else "")
    check = ("define in_check = attacked(white_king if player == white else black_king)" if kept
             else "define in_check = exists(pieces of player, it is king and attacked(it))")
    rules = RULES.replace("CHECK", check).replace("KING", "king_to" if kept and not after else "move")
    if after:
        rules = rules.replace("    before each turn:", "    after each action:" + AFTER + "    before each turn:")
    return load_game(write_definition(folder, yaml, rules + (KEPT if kept and not after else "")))


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    return (_game(tmp_path_factory.mktemp("pieces"), False), _game(tmp_path_factory.mktemp("kept"), True),
            _game(tmp_path_factory.mktemp("after"), True, after=True))


def test_the_same_perft_every_way(games):
    for game in games:
        assert game.engine.perft(game.engine.initial_state(), 4) == [13, 140, 1732, 19944]


def test_the_kept_square_is_reused_and_lets_the_same_moves_through(games):
    pieces, kept, after = games
    assert parent_answer_calls(kept) and parent_answer_calls(after)
    for game in games:
        row = game.rules.result_checks[0]
        # the king's two cases get no clearance (the pieces' loop visits the king; the
        # kept square's cases write the variables — under `if piece is king` in `after
        # each action`, which fails for the rooks' and bishops'), the rooks' and bishops' one
        assert isinstance(row, ClearedChecks)
        assert row.moves == (False, False, True, True, True, True) and len(row.distinct) == 1
    s = pieces.engine.initial_state()
    # from the start: only the king's moves are called (e1-d2 lands on a square the
    # king's diagonal reads, and stops it there with no enemy behind: let through)
    assert _spied(pieces, s) == _spied(kept, kept.engine.initial_state()) == _spied(after, after.engine.initial_state())
    assert _spied(kept, kept.engine.initial_state())[1] == ["c1-b1", "c1-b2", "c1-c2", "c1-d1", "c1-d2"]
    position = ("rw1; game kings; ply 0; phase play; turn white move 0; board c1=white.king d2=white.bishop "
                "a1=white.rook e3=black.bishop c5=black.king e5=black.rook; variables VARS")
    # the bishop on d2 is pinned against c1 by e3: its moves off the diagonal are called
    # and forbidden; taking the pinning bishop keeps the answer (let through uncalled)
    s_pieces = pieces.parse_position(position.replace("; variables VARS", ""))
    s_kept = kept.parse_position(position.replace("VARS", "white_king=c1 black_king=c5"))
    assert _spied(pieces, s_pieces) == _spied(kept, s_kept)
    legal, called = _spied(kept, s_kept)
    assert called == ["c1-b1", "c1-b2", "c1-c2", "c1-d1", "d2-a5", "d2-b4", "d2-c3", "d2-e1"]
    assert legal == ["a1-a2", "a1-a3", "a1-a4", "a1-a5", "a1-b1", "c1-b1", "c1-b2", "c1-c2", "c1-d1", "d2xe3"]


def test_a_case_writing_a_variable_read_is_not_reused():
    # `v[0 + p] = to` (a per-player variable) may write `v[0]` and `v[1]`; a variable
    # given to a call, or written at an index read from the board, cannot be told
    written = result_reuse.variables_written(ast.parse("v[0 + p] = to\nif pc[1] == 0:\n    v[2] += 1").body)
    assert written is not None and [(ast.unparse(index), [(ast.unparse(test), taken) for test, taken in guards])
                                    for index, guards in written] == [("0 + p", []), ("2", [("pc[1] == 0", True)])]
    assert result_reuse.variables_written(ast.parse("h_fill(v)").body) is None
    assert result_reuse.variables_written(ast.parse("v[b[to][1]] = 1").body) is None
    assert result_reuse.variables_written(ast.parse("b[to] = pc").body) == []
