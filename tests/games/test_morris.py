"""Nine men's morris as bundled (games/morris), against games/morris/README.md.

* hand-checked positions: every expected legal list below was worked out from the
  README's board and rules by hand, not printed by the interpreter;
* placement, the switch to moving, mills (by placing and by moving) and the
  removal that follows, not from a mill unless all are, flying with three men,
  the loss below three men or without a move, the draw on the third occurrence of
  a position (not on the second; the turn counter does not make positions differ),
  the `max_turns` option and the `openspiel` variant (no repetition rule, a draw
  after 200 turns);
* perft from the start, and a differential test against a small independent
  implementation (below, `Ref`) on random games, with the default rules and with
  the `openspiel` variant; every random game ends; lint.
"""

from __future__ import annotations

import random

import pytest

from interpreter import IllegalActionError, load_game
from interpreter.analysis.lint import lint
from interpreter.analysis.perft import perft
from tests import helpers

GAME = load_game("morris")
OPENSPIEL = load_game(str(helpers.GAMES / "morris" / "variants" / "openspiel.yaml"))
POINTS = ["a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4",
          "e4", "f4", "g4", "c5", "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7"]
COLOUR = {"W": "white", "B": "black"}


def position(pieces: dict, to_move="white", phase="moving", decision=None, men=(0, 0), turns=0, game=GAME):
    """``{point: "W" | "B"}``; ``men``: (white, black) still to place."""
    return game.make_state({p: (COLOUR[c], "man") for p, c in pieces.items()}, to_move=to_move,
                           phase=phase, decision=decision, pools={"men": {"white": men[0], "black": men[1]}},
                           variables={"turns": turns})


def board(state):
    return helpers.board(GAME, state, lambda p: p.owner[0].upper())


def winner(state, game=GAME):
    return helpers.winner(game, state)


def play(state, *actions, game=GAME):
    return helpers.play(game, *actions, state=state)


# ======================================================================== the board
def test_board_and_mills():
    assert sorted(GAME.board.sites) == sorted(POINTS)
    # every point lies on exactly two mills; 16 mills of 3
    assert len(Ref.MILLS) == 16
    # the lines of the board: 32 edges (24 on the squares, 8 across)
    assert sum(len(n) for n in Ref.ADJ.values()) == 64


# ======================================================================== placement
def test_start_places_anywhere():
    s = GAME.initial_state()
    assert GAME.to_move(s) == "white" and GAME.phase(s) == "placing"
    assert GAME.pools(s) == {"men": {"white": 9, "black": 9}}
    assert GAME.legal_notations(s) == sorted("@" + p for p in POINTS)
    s = play(s, "@d1")
    assert GAME.to_move(s) == "black" and GAME.pools(s)["men"] == {"white": 8, "black": 9}
    assert "@d1" not in GAME.legal_notations(s) and len(GAME.legal_notations(s)) == 23


def test_perft_from_the_start():
    # no mill is possible before White's third man (ply 5): 24 * 23 * 22 * 21
    assert perft(GAME, GAME.initial_state(), 4) == [24, 552, 12144, 255024]


@pytest.mark.slow
def test_perft_5_against_the_reference():
    assert perft(GAME, GAME.initial_state(), 5) == Ref.perft(5)


def test_placing_a_mill_removes_a_man_not_in_a_mill():
    s = position({"a1": "W", "d1": "W", "b2": "B", "d2": "B", "f2": "B", "c3": "B"},
                 phase="placing", men=(7, 5))
    t = GAME.apply(s, "@g1")
    # the same player decides again: only c3 may go, b2 d2 f2 are a mill
    assert GAME.to_move(t) == "white"
    assert GAME.legal_notations(t) == ["xc3"]
    for bad in ("xb2", "xa1", "c3", "@c3"):
        with pytest.raises(IllegalActionError):
            GAME.apply(t, bad)
    u = GAME.apply(t, "xc3")
    assert board(u) == {"a1": "W", "d1": "W", "g1": "W", "b2": "B", "d2": "B", "f2": "B"}
    assert GAME.to_move(u) == "black" and GAME.pools(u)["men"] == {"white": 6, "black": 5}


def test_removal_from_a_mill_when_all_are_in_mills():
    s = position({"a1": "W", "d1": "W", "b2": "B", "d2": "B", "f2": "B"}, phase="placing", men=(7, 6))
    t = GAME.apply(s, "@g1")
    assert GAME.legal_notations(t) == ["xb2", "xd2", "xf2"]


def test_two_mills_at_once_remove_one_man():
    s = position({"a4": "W", "a7": "W", "d1": "W", "g1": "W", "c3": "B", "e5": "B", "g7": "B", "b6": "B"},
                 phase="placing", men=(5, 5))
    t = GAME.apply(s, "@a1")
    assert GAME.legal_notations(t) == ["xb6", "xc3", "xe5", "xg7"]
    u = GAME.apply(t, "xg7")
    assert GAME.to_move(u) == "black" and GAME.phase(u) == "placing"


def test_no_mill_no_removal():
    # three in a row that is not a line of the board: a1 d1 d2 is an angle
    s = position({"a1": "W", "d2": "W", "c3": "B"}, phase="placing", men=(7, 8))
    t = GAME.apply(s, "@d1")
    assert GAME.to_move(t) == "black" and GAME.phase(t) == "placing"


def test_from_placing_to_moving():
    s = position({"a1": "W", "d1": "W", "a4": "W", "b4": "W", "c4": "B", "g7": "B", "d7": "B", "d6": "B"},
                 to_move="black", phase="placing", men=(0, 1))
    t = GAME.apply(s, "@g4")
    assert GAME.phase(t) == "moving" and GAME.to_move(t) == "white"
    # white: a1 -> (d1 own, a4 own): none; d1 -> g1, d2; a4 -> a7; b4 -> b2, b6
    assert GAME.legal_notations(t) == ["a4-a7", "b4-b2", "b4-b6", "d1-d2", "d1-g1"]


def test_last_placement_with_a_mill_removes_before_moving_starts():
    s = position({"a1": "W", "a4": "W", "c4": "W", "f6": "W", "d5": "B", "d6": "B", "c5": "B"},
                 to_move="black", phase="placing", men=(0, 1))
    t = GAME.apply(s, "@d7")
    assert GAME.phase(t) == "placing" and GAME.to_move(t) == "black"
    # a1 a4 are no mill (a7 is missing): any white man may go
    assert GAME.legal_notations(t) == ["xa1", "xa4", "xc4", "xf6"]
    u = GAME.apply(t, "xf6")
    assert GAME.phase(u) == "moving" and GAME.to_move(u) == "white"
    # white is down to three men: flying at once
    assert "a1-g1" in GAME.legal_notations(u)


# ======================================================================== moving
def test_moves_along_the_lines():
    s = position({"d2": "W", "a1": "W", "g4": "W", "c4": "W", "f2": "B", "d1": "B", "g7": "B", "e4": "B"})
    assert GAME.legal_notations(s) == sorted([
        "d2-b2", "d2-d3",          # d1 and f2 are taken
        "a1-a4",                   # d1 is taken
        "g4-g1", "g4-f4",          # g7 is taken
        "c4-b4", "c4-c3", "c4-c5",
    ])
    with pytest.raises(IllegalActionError):
        GAME.apply(s, "d2-d5")  # no flying with four men


def test_a_mill_by_moving_and_reopening_it():
    s = position({"a1": "W", "d1": "W", "g4": "W", "b2": "W", "c3": "B", "e3": "B", "d5": "B", "f6": "B"})
    t = GAME.apply(s, "g4-g1")
    assert GAME.to_move(t) == "white" and GAME.legal_notations(t) == ["xc3", "xd5", "xe3", "xf6"]
    t = play(t, "xf6", "c3-d3", "g1-g4", "d3-c3")
    # moving back into the same line closes a mill again
    t = GAME.apply(t, "g4-g1")
    assert GAME.legal_notations(t) == ["xc3", "xd5", "xe3"]


def test_flying_with_three_men():
    s = position({"a1": "W", "d1": "W", "b2": "W", "c3": "B", "e3": "B", "d5": "B", "f6": "B"})
    legal = GAME.legal_notations(s)
    empty = [p for p in POINTS if p not in ("a1", "d1", "b2", "c3", "e3", "d5", "f6")]
    assert legal == sorted(f"{m}-{p}" for m in ("a1", "d1", "b2") for p in empty)
    assert len(legal) == 3 * 17
    # black, with four men, only slides
    t = GAME.apply(s, "b2-g7")
    assert "f6-a7" not in GAME.legal_notations(t)
    assert sorted(a for a in GAME.legal_notations(t) if a.startswith("f6")) == ["f6-d6", "f6-f4"]
    # a flying man closes a mill like any other
    u = GAME.apply(s, "b2-g1")
    assert GAME.legal_notations(u) == ["xc3", "xd5", "xe3", "xf6"]


def test_fewer_than_three_men_lose():
    s = position({"a1": "W", "d1": "W", "g4": "W", "b2": "W", "c3": "B", "e3": "B", "d5": "B"}, turns=40)
    t = play(s, "g4-g1", "xd5")
    assert winner(t) == "white" and GAME.is_terminal(t)
    # during placement men still to place count: 2 on the board + 1 to place = 3
    s = position({"a1": "W", "d1": "W", "c3": "B", "e3": "B", "d5": "B"}, phase="placing", men=(5, 1))
    t = play(s, "@g1", "xd5")
    assert winner(t) == "unfinished" and GAME.to_move(t) == "black"
    s = position({"a1": "W", "d1": "W", "c3": "B", "e3": "B"}, phase="placing", men=(5, 0))
    t = play(s, "@g1", "xe3")
    assert winner(t) == "white"


def test_a_player_without_a_move_loses():
    s = position({"a1": "W", "d1": "W", "g1": "W", "a4": "W",
                  "a7": "B", "b4": "B", "d2": "B", "g4": "B"})
    assert GAME.legal_notations(s) == [] and winner(s) == "black"


# ======================================================================== the end of endless play
# The line of morris.rules whose `draw` ends a game by repetition.
RULES_LINES = (helpers.GAMES / "morris" / "morris.rules").read_text(encoding="utf-8").splitlines()
REPETITION_DRAW = next(i + 2 for i, line in enumerate(RULES_LINES) if "repetitions >=" in line)

# Four men each, no two of a colour on a mill line with a third point free for
# them: White a1 c3 e5 g7, Black g1 a7 e3 c5. White shuttles a1-d1, Black g1-g4;
# neither closes a mill (a1 d1 g1 holds a black man, d1 d2 d3 and g1 g4 g7 and
# e4 f4 g4 lack men).
SHUTTLE = {"a1": "W", "c3": "W", "e5": "W", "g7": "W", "g1": "B", "a7": "B", "e3": "B", "c5": "B"}
CYCLE = ("a1-d1", "g1-g4", "d1-a1", "g4-g1")


def drawn_by_repetition(state, game=GAME):
    result = game.result(state)
    return (result is not None and result.winner is None and result.ending is not None
            and result.ending.line == REPETITION_DRAW and result.ending.text == "draw")


def test_threefold_repetition_is_a_draw():
    s = position(SHUTTLE, turns=40)
    assert "a1-d1" in GAME.legal_notations(s) and "g1-g4" in GAME.legal_notations(GAME.apply(s, "a1-d1"))
    s = play(s, *CYCLE)
    # the second occurrence: play goes on, and no removal came in between
    assert board(s) == SHUTTLE and GAME.to_move(s) == "white" and winner(s) == "unfinished"
    s = play(s, *CYCLE[:3])
    assert winner(s) == "unfinished"
    t = GAME.apply(s, "g4-g1")
    # the third occurrence: a draw at once, by the repetition rule, although the
    # turn counter moved on (it is not part of the position)
    assert board(t) == SHUTTLE and GAME.is_terminal(t) and GAME.legal_notations(t) == []
    assert drawn_by_repetition(t)
    assert GAME.variables(t)["turns"] == 48
    # another last move does not repeat the position
    assert winner(GAME.apply(s, "g4-f4")) == "unfinished"


def test_the_same_board_with_the_other_player_to_move_is_another_position():
    # White has three men and flies: a1 -> b6 -> f2 -> a1 takes three moves, so the
    # tempo can change hands (a sliding man needs an even number of moves to come
    # back). Black shuttles g1-g4. No move closes a mill: b6 and f2 share no line
    # with c3 or e5, and the lines through a1 hold black men.
    start = {"a1": "W", "c3": "W", "e5": "W", "g1": "B", "a7": "B", "e3": "B", "c5": "B"}
    s = play(position(start), "a1-b6", "g1-g4", "b6-a1", "g4-g1")  # second occurrence
    assert board(s) == start and GAME.to_move(s) == "white"
    # White goes round in three moves, Black in two: the board of the start with
    # Black to move, for the first time
    s = play(s, "a1-b6", "g1-g4", "b6-f2", "g4-g1", "f2-a1")
    assert board(s) == start and GAME.to_move(s) == "black" and winner(s) == "unfinished"
    # Black four moves, White three: the start with White to move, the third time
    s = play(s, "g1-g4", "a1-b6", "g4-g1", "b6-f2", "g1-g4", "f2-a1")
    assert winner(s) == "unfinished"
    s = GAME.apply(s, "g4-g1")
    assert board(s) == start and drawn_by_repetition(s)


def test_the_openspiel_variant_has_no_repetition_rule():
    s = position(SHUTTLE, game=OPENSPIEL)
    s = play(s, *CYCLE, *CYCLE, *CYCLE, *CYCLE, game=OPENSPIEL)
    assert board(s) == SHUTTLE and winner(s, OPENSPIEL) == "unfinished"


def test_no_turn_limit_by_default():
    assert GAME.options == {"max_turns": 0}
    s = position({"a1": "W", "d1": "W", "a4": "W", "b4": "W", "c4": "B", "g7": "B", "d7": "B", "d6": "B"},
                 turns=199)
    t = GAME.apply(s, "d1-d2")
    assert winner(t) == "unfinished" and GAME.variables(t)["turns"] == 200


def test_draw_by_the_turn_limit():
    g = load_game("morris", options={"max_turns": 3})
    s = g.initial_state()
    for a in ("@a1", "@b2", "@c3"):
        assert not g.is_terminal(s)
        s = g.apply(s, a)
    assert g.is_terminal(s) and g.result(s).winner is None


def test_the_openspiel_variant_draws_after_200_turns():
    assert OPENSPIEL.options == {"max_turns": 200}
    s = position({"a1": "W", "d1": "W", "a4": "W", "b4": "W", "c4": "B", "g7": "B", "d7": "B", "d6": "B"},
                 turns=199, game=OPENSPIEL)
    t = OPENSPIEL.apply(s, "d1-d2")
    assert winner(t, OPENSPIEL) is None and OPENSPIEL.variables(t)["turns"] == 200
    # a turn with a mill and its removal counts once, as in OpenSpiel
    s = position({"a1": "W", "d1": "W", "g4": "W", "b2": "W", "c3": "B", "e3": "B", "d5": "B", "f6": "B"},
                 turns=198, game=OPENSPIEL)
    t = OPENSPIEL.apply(s, "g4-g1")
    assert OPENSPIEL.to_move(t) == "white" and OPENSPIEL.variables(t)["turns"] == 198
    t = OPENSPIEL.apply(t, "xf6")
    assert winner(t, OPENSPIEL) == "unfinished" and OPENSPIEL.variables(t)["turns"] == 199


def test_the_openspiel_variant_asks_for_a_move_before_the_turn_limit():
    # Black's d3-d2 is the 200th turn and leaves White no move (a1 d1 g1 a4 are
    # hemmed in by a7 b4 d2 g4): OpenSpiel asks for legal actions first, so White
    # loses rather than draws.
    s = position({"a1": "W", "d1": "W", "g1": "W", "a4": "W", "a7": "B", "b4": "B", "d3": "B", "g4": "B"},
                 to_move="black", turns=199, game=OPENSPIEL)
    t = OPENSPIEL.apply(s, "d3-d2")
    assert OPENSPIEL.variables(t)["turns"] == 200 and winner(t, OPENSPIEL) == "black"
    # a position the same but for a white move at the limit: a draw
    s = position({"a1": "W", "d1": "W", "g1": "W", "a4": "W", "a7": "B", "b4": "B", "d3": "B", "g4": "B"},
                 to_move="black", turns=199, game=OPENSPIEL)
    assert winner(OPENSPIEL.apply(s, "g4-f4"), OPENSPIEL) is None


def test_a_game_of_openspiel_blocked_at_the_200th_turn():
    # outsider17's record of a random OpenSpiel game (1 in ~160000) that reaches
    # turn 200 with White to move and blocked: OpenSpiel's returns are (-1, 1).
    record = helpers.DATA / "records" / "morris-openspiel-blocked-at-200.txt"
    moves = [line.strip() for line in record.read_text().splitlines() if line.strip() and line[0] != "#"]
    s = play(OPENSPIEL.initial_state(), *moves[:-1], game=OPENSPIEL)
    assert not OPENSPIEL.is_terminal(s)
    s = OPENSPIEL.apply(s, moves[-1])
    assert OPENSPIEL.variables(s)["turns"] == 200 and winner(s, OPENSPIEL) == "black"


# ======================================================================== random games
@pytest.mark.parametrize("variant", ["default", "openspiel"])
def test_random_games_end_and_agree_with_the_reference(variant):
    game, make_ref = {
        "default": (GAME, Ref),
        "openspiel": (OPENSPIEL, lambda: Ref(max_turns=200, repetition=False)),
    }[variant]
    rng = random.Random(11)
    seen = {"removal": 0, "moving": 0, "flying": 0}
    results: dict = {}
    for _ in range(60):
        s = game.initial_state()
        ref = make_ref()
        while True:
            legal = ref.legal()
            assert game.legal_notations(s) == legal
            seen["removal"] += ref.removing
            seen["moving"] += game.phase(s) == "moving"
            seen["flying"] += game.phase(s) == "moving" and not ref.removing and sum(
                1 for c in ref.board.values() if c == "WB"[ref.side]) == 3
            if ref.result is not None:
                assert game.is_terminal(s)
                assert game.result(s).winner == (None if ref.result == "draw" else ref.result)
                break
            assert game.to_move(s) == ref.PLAYERS[ref.side]
            move = rng.choice(legal)
            s = game.apply(s, move)
            ref.apply(move)
            assert board(s) == ref.board
            assert game.pools(s)["men"] == {"white": ref.men[0], "black": ref.men[1]}
        assert ref.result is not None
        results[ref.result] = results.get(ref.result, 0) + 1
    assert all(n > 20 for n in seen.values()), seen
    # some games were drawn: by repetition (default) or at the 200th turn (openspiel)
    assert results.get("draw", 0) > 0, results


def test_lint_is_clean():
    report = lint(GAME, playouts=100)
    assert report.ok and report.finished == 100, report.findings


# ======================================================================== reference
class Ref:
    """An independent nine men's morris (as in the README)."""

    PLAYERS = ("white", "black")
    MILLS = [tuple(m.split()) for m in (
        "a1 d1 g1", "b2 d2 f2", "c3 d3 e3", "a4 b4 c4", "e4 f4 g4", "c5 d5 e5", "b6 d6 f6", "a7 d7 g7",
        "a1 a4 a7", "b2 b4 b6", "c3 c4 c5", "d1 d2 d3", "d5 d6 d7", "e3 e4 e5", "f2 f4 f6", "g1 g4 g7")]
    ADJ: dict = {}
    for a, b, c in MILLS:
        # consecutive points of a mill are joined by a line of the board
        for x, y in ((a, b), (b, c)):
            ADJ.setdefault(x, []).append(y)
            ADJ.setdefault(y, []).append(x)

    def __init__(self, max_turns=0, repetition=True):
        """`max_turns`: a draw after that many turns (0: never), unless the player
        to move then cannot move, who loses (OpenSpiel's order); `repetition`: a
        draw when a position (men on the board, men to place, player to move) is
        seen for the third time at the start of a turn."""
        self.board: dict = {}
        self.men = [9, 9]
        self.side = 0
        self.removing = False
        self.turns = 0
        self.max_turns = max_turns
        self.repetition = repetition
        self.seen: dict = {}
        self.result = None  # a player, or "draw"
        self.start_turn()

    def start_turn(self):
        key = (frozenset(self.board.items()), tuple(self.men), self.side)
        self.seen[key] = self.seen.get(key, 0) + 1
        if self.repetition and self.seen[key] >= 3:
            self.result = "draw"

    def in_mill(self, p):
        colour = self.board.get(p)
        return colour is not None and any(p in m and all(self.board.get(q) == colour for q in m) for m in self.MILLS)

    def legal(self):
        if self.result is not None:
            return []
        me = "WB"[self.side]
        if self.removing:
            theirs = [p for p, c in self.board.items() if c != me]
            free = [p for p in theirs if not self.in_mill(p)]
            return sorted("x" + p for p in (free or theirs))
        empty = [p for p in POINTS if p not in self.board]
        if self.men[0] or self.men[1]:
            return sorted("@" + p for p in empty)
        moves = self.moves()
        if not moves:
            self.result = self.PLAYERS[1 - self.side]
        return sorted(moves)

    def moves(self):
        """The moves of the side to move in the moving phase."""
        me = "WB"[self.side]
        empty = [p for p in POINTS if p not in self.board]
        mine = [p for p, c in self.board.items() if c == me]
        if len(mine) == 3:
            return [f"{a}-{b}" for a in mine for b in empty]
        return [f"{a}-{b}" for a in mine for b in self.ADJ[a] if b not in self.board]

    def apply(self, move):
        me = "WB"[self.side]
        if move.startswith("x"):
            del self.board[move[1:]]
            self.removing = False
            other = 1 - self.side
            if sum(1 for c in self.board.values() if c != me) + self.men[other] < 3:
                self.result = self.PLAYERS[self.side]
                return
        else:
            if move.startswith("@"):
                to = move[1:]
                self.men[self.side] -= 1
            else:
                frm, to = move.split("-")
                del self.board[frm]
            self.board[to] = me
            if self.in_mill(to):
                self.removing = True
                return
        self.turns += 1
        self.side = 1 - self.side
        if self.max_turns and self.turns >= self.max_turns:
            # OpenSpiel's order: a player who cannot move loses, at the limit too
            blocked = not (self.men[0] or self.men[1]) and not self.moves()
            self.result = self.PLAYERS[1 - self.side] if blocked else "draw"
            return
        self.start_turn()

    @classmethod
    def perft(cls, depth):
        counts = [0] * depth

        def walk(ref, d):
            legal = ref.legal()
            counts[d] += len(legal)
            if d + 1 == depth:
                return
            for m in legal:
                child = cls()
                child.board, child.men, child.side = dict(ref.board), list(ref.men), ref.side
                child.removing, child.turns, child.seen = ref.removing, ref.turns, dict(ref.seen)
                child.apply(m)
                if child.result is None:
                    walk(child, d + 1)

        walk(cls(), 0)
        return counts
