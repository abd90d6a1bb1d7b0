"""The playouts' winning kinds (playout.Tactics): a kind is tried once it has won,
by the player it won for, and stays tried only while its tries win often enough —
a win without a try (a playout's last random action, which in a game that ends
when a player is left without a move always "wins") neither counts as one nor
brings a dropped kind back."""
from __future__ import annotations

from interpreter.frontends.agents.playout import Tactics
from interpreter.runtime.pieces import CASE, DESTINATION


class _Ended:
    """Just enough of an engine for `Tactics.learn`: every position is won by `winner`."""

    def __init__(self, winner: int) -> None:
        self.winner = winner

    def ending(self, state: object) -> tuple[str, int]:
        return ("win", self.winner)

    def outcome(self, state: object) -> tuple[int, float]:
        return (self.winner, 1.0)


def _code(case: int, target: int) -> tuple[int, ...]:
    code = [0] * (max(CASE, DESTINATION) + 1)
    code[CASE], code[DESTINATION] = case, target
    return tuple(code)


def test_a_kind_that_wins_is_tried_until_its_tries_stop_winning():
    tactics, code = Tactics(), _code(1, 5)
    tactics.learn(_Ended(0), None, code, 0)  # a playout's last action: won, not tried
    assert tactics.worth_trying(0)(code) and not tactics.worth_trying(1)(code)
    assert tactics.records[(0, (1, 5))] == [0, 0]  # (an untried win counts nothing)
    for _ in range(Tactics.TRIAL - 1):
        tactics.tried(code, 0, False)
    assert tactics.worth_trying(0)(code)  # fewer than TRIAL tries: still on trial
    tactics.tried(code, 0, False)
    assert not tactics.worth_trying(0)(code) and not tactics.live.get(0)
    for _ in range(3):  # more wins without a try do not bring it back
        tactics.learn(_Ended(0), None, code, 0)
    assert not tactics.worth_trying(0)(code)


def test_a_kind_is_tried_for_the_player_it_won_for():
    # the other player's tries of the same case and target (its own back row,
    # say) that never win do not drop it for the first
    tactics, code = Tactics(), _code(1, 5)
    tactics.learn(_Ended(0), None, code, 0)
    tactics.learn(_Ended(1), None, code, 1)
    for _ in range(2 * Tactics.TRIAL):
        tactics.tried(code, 1, False)
        tactics.tried(code, 0, True)
    assert tactics.worth_trying(0)(code) and not tactics.worth_trying(1)(code)


def test_a_kind_whose_tries_win_often_enough_stays():
    tactics, code = Tactics(), _code(2, 7)
    tactics.learn(_Ended(1), None, code, 1)
    for k in range(4 * Tactics.TRIAL):
        tactics.tried(code, 1, k % Tactics.HIT_RATE == 0)  # one try in HIT_RATE wins
    assert tactics.worth_trying(1)(code)
    tactics.tried(code, 1, False)  # now below one in HIT_RATE
    assert not tactics.worth_trying(1)(code)


def test_a_kind_that_lost_for_its_mover_is_remembered_as_losing():
    tactics, code = Tactics(), _code(3, 2)
    tactics.learn(_Ended(1), None, code, 0)
    assert not tactics.worth_trying(0)(code) and (3, 2) in tactics.losing


def test_tactics_not_trying_never_try_a_kind_but_learn_the_losing_ones():
    # `Methods.win_tries` off: a win makes no kind live; a loss is still remembered
    tactics, code = Tactics(trying=False), _code(1, 5)
    tactics.learn(_Ended(0), None, code, 0)
    assert not tactics.worth_trying(0)(code) and not tactics.live.get(0)
    tactics.learn(_Ended(1), None, _code(3, 4), 0)  # player 0's action, won by 1
    assert (3, 4) in tactics.losing
