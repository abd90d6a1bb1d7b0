"""A drop's terms asked again with its piece put on one site, the answer kept with
the listed position's entry (runtime/terms.terms_hold_placed, compilation/cases.py
`_drop_terms_before`): hand-checked crazyhouse positions (a drop blocking a check,
drops on the king's lines not in check, drops beside a pinned piece), an entry made
by hand whose run reads a site the entry did not once the piece is put (not kept),
and the same legal actions as with the terms asked again each time over random
games of crazyhouse and the outsiders' shogi."""
from __future__ import annotations

import random
from typing import Any

import pytest

from interpreter import load_game
from interpreter.compilation import result_reuse
from interpreter.runtime import terms
from tests.helpers import REPO, helper_calls

CHESS = str(REPO / "docs" / "examples" / "chess")
CRAZYHOUSE = str(REPO / "docs" / "examples" / "chess" / "variants" / "crazyhouse.yaml")
SHOGI = str(REPO / "benchmarks" / "outsiders" / "shogi" / "shogi.yaml")
KNIGHT_DROP = "action 'knight_drop', onto empty: whether 'forbid result' forbids it"
SQUARES = [f + r for f in "abcdefgh" for r in "12345678"]


def _crazyhouse(placed_kept: bool = True, monkeypatch: Any = None):
    if not placed_kept:
        monkeypatch.setattr(result_reuse, "PLACED_KEPT", False)
    game = load_game(CHESS, variant=CRAZYHOUSE)
    if not placed_kept:
        monkeypatch.undo()
    return game


def _spied(game, monkeypatch) -> list[tuple[int, bool, bool]]:
    """By call of `h_terms_hold_placed`: the site, whether the answer was kept
    before the call, what it answered."""
    check = next(c for phase in game.engine.rules.result_checks for c in phase if c is not None)
    namespace = check.__globals__
    real = namespace["h_terms_hold_placed"]
    calls: list[tuple[int, bool, bool]] = []

    def spy(entry, board, written, p, q):
        site = written.bit_length() - 1
        known = (site, board[site], p) in entry[5][1].placed
        held = real(entry, board, written, p, q)
        calls.append((site, known, held))
        return held

    monkeypatch.setitem(namespace, "h_terms_hold_placed", spy)
    return calls


def _drops(notations) -> set[str]:
    return {n[2:] for n in notations if n.startswith("N@")}


def _state(game, pieces: dict[str, tuple[str, str]]):
    return game.make_state(pieces, to_move="white", pools={"knights": {"white": 1}})


def test_the_drop_checks_ask_the_kept_helper():
    game = _crazyhouse()
    assert helper_calls(game, "h_terms_hold_placed", KNIGHT_DROP)
    # (after the case, where the drop was played: the terms asked on that board, not kept)
    assert helper_calls(game, "h_terms_hold", KNIGHT_DROP)


def test_a_drop_blocks_a_check_and_no_other_is_allowed(monkeypatch):
    # The rook on e8 gives check along the e-file: a knight dropped on e2..e7 blocks it
    # (the file's term changes: the check plays the drop), anywhere else leaves the check.
    game = _crazyhouse()
    calls = _spied(game, monkeypatch)
    position = {"e1": ("white", "king"), "h8": ("black", "king"), "e8": ("black", "rook")}
    for _ in range(2):  # (the second listing finds the answers kept with the entry)
        legal = set(game.legal_notations(_state(game, position)))
        assert legal == {"N@e2", "N@e3", "N@e4", "N@e5", "N@e6", "N@e7", "e1d1", "e1d2", "e1f1", "e1f2"}
    asked = {site for site, _, _ in calls}
    assert len(asked) == 6 and not any(held for _, _, held in calls)
    assert any(known for _, known, _ in calls)


def test_drops_on_the_kings_lines_keep_the_answer_when_not_in_check(monkeypatch):
    # The e-file and the long diagonal are open but hold no enemy slider: a knight
    # dropped on them leaves the king unattacked; every empty square is a drop.
    game = _crazyhouse()
    calls = _spied(game, monkeypatch)
    position = {"e1": ("white", "king"), "h8": ("black", "king"), "a8": ("black", "rook")}
    for _ in range(2):
        legal = set(game.legal_notations(_state(game, position)))
        assert _drops(legal) == set(SQUARES) - {"e1", "h8", "a8"}
    assert calls and all(held for _, _, held in calls)
    assert sum(known for _, known, _ in calls) == len(calls) // 2  # (the second listing: each kept)


def test_drops_beside_a_pinned_piece(monkeypatch):
    # The knight on e2 is pinned by the rook on e8: it may not move; a knight dropped
    # between them (e3..e7) or anywhere else leaves the king shielded.
    game = _crazyhouse()
    position = {"e1": ("white", "king"), "h8": ("black", "king"), "e8": ("black", "rook"), "e2": ("white", "knight")}
    legal = set(game.legal_notations(_state(game, position)))
    assert _drops(legal) == set(SQUARES) - {"e1", "h8", "e8", "e2"}
    assert legal - {f"N@{s}" for s in SQUARES} == {"e1d1", "e1d2", "e1f1", "e1f2"}
    # the bishop on b4 gives check along the diagonal: a drop on c3 or d2 blocks it, no other
    position = {"e1": ("white", "king"), "h8": ("black", "king"), "b4": ("black", "bishop")}
    legal = set(game.legal_notations(_state(game, position)))
    assert _drops(legal) == {"c3", "d2"}


def _run(board, p, q):
    # (reads site 1; what it gives then reads site 4 where 1 holds a piece, else site 3)
    return (board[4] if board[1] is not None else board[3],)


def _entry(board: list[Any]) -> tuple[Any, ...]:
    """The entry of a part whose one term is `_run`, as parent_answer_terms_masked makes it."""
    read = 1 << 1 | 1 << 3
    return (False, read, 0, {}, 0, (0, terms.Runs([(read, _run, (), _run(board, 0, 1))])))


def test_an_answer_is_kept_only_where_the_runs_read_what_the_entry_read():
    board: list[Any] = [None, None, None, ("w", "x"), None]
    entry = _entry(board)
    piece = (0, 7)
    board[3] = piece  # (the run now gives the piece on 3: changed, read where the entry read)
    assert terms.terms_hold_placed(entry, board, 1 << 3, 0, 1) is False
    assert entry[5][1].placed == {(3, piece, 0): False}
    board[3] = ("w", "x")
    board[1] = piece  # (now it reads site 4, which the entry did not read: not kept)
    assert terms.terms_hold_placed(entry, board, 1 << 1, 0, 1) is False
    board[4] = ("w", "x")  # (asked again: reads 4 anew)
    assert terms.terms_hold_placed(entry, board, 1 << 1, 0, 1) is True
    assert list(entry[5][1].placed) == [(3, piece, 0)]


@pytest.mark.parametrize("name", ["crazyhouse", "shogi"])
def test_the_same_legal_actions_as_asking_the_terms_each_time(name, monkeypatch):
    if name == "crazyhouse":
        kept, each = _crazyhouse(), _crazyhouse(False, monkeypatch)
    else:
        kept = load_game(SHOGI)
        monkeypatch.setattr(result_reuse, "PLACED_KEPT", False)
        each = load_game(SHOGI)
        monkeypatch.undo()
    assert helper_calls(kept, "h_terms_hold_placed", "forbid result")
    assert not helper_calls(each, "h_terms_hold_placed", "forbid result")
    rng = random.Random(5)
    compared = drops = 0
    for _ in range(4):
        s, t = kept.engine.initial_state(), each.engine.initial_state()
        for _ in range(160):
            if kept.engine.is_over(s):
                assert each.engine.is_over(t)
                break
            legal = list(kept.engine.legal(s))
            assert legal == list(each.engine.legal(t)), (name, s.ply)
            compared += 1
            drops += sum(code[1] == -1 for code in legal)
            code = rng.choice(legal)
            kept.engine.apply_in_place(s, code)
            each.engine.apply_in_place(t, code)
        assert kept.engine.perft(s, 2) == each.engine.perft(t, 2)
    assert compared > 300 and drops > 1000
