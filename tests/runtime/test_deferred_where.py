"""Costly `where` conditions about a candidate alone are asked of the candidate a
playout draws (actions.ActionPlan.deferred): the candidates listed without them,
checked with `candidate_checks`, are exactly the legal actions."""
from __future__ import annotations

import random

from interpreter import load_game
from tests.helpers import REPO, checks_allow

# The first benchmark chess: `where safe` (an attack test written out) on every action.
OLDER_CHESS = str(REPO / "benchmarks" / "older" / "chess")


def test_the_candidates_checked_are_the_legal_actions():
    engine = load_game(OLDER_CHESS).engine
    assert engine.rules.candidate_checks and engine.rules.candidate_checks is not engine.rules.result_checks
    rng = random.Random(3)
    compared = deferred = 0
    for _ in range(3):
        s = engine.initial_state()
        for _ in range(150):
            if engine.is_over(s):
                break
            decision = engine.decisions[s.decision]
            candidates = decision.candidates(s)
            checks = engine.rules.candidate_checks[s.phase]
            passed = checks_allow(s, candidates, checks)
            legal = list(engine.legal(s))
            assert sorted(passed) == sorted(legal)
            deferred += len(candidates) > len(legal)
            compared += 1
            engine.apply_in_place(s, rng.choice(legal))
    # (positions where the king is in check or a piece is pinned: candidates dropped)
    assert compared > 300 and deferred > 10


def test_draws_on_unsettled_positions_give_legal_actions_only():
    """`random_legal` on a position left unsettled draws candidates and checks them
    (as playouts do): what it gives is always legal."""
    engine = load_game(OLDER_CHESS).engine
    rng = random.Random(5)
    drawn = 0
    for _ in range(4):
        s = engine.initial_state()
        engine.random_playout(s, rng, 40)
        for _ in range(40):
            if engine.is_over(s):
                break
            before = engine.copy(s)
            engine.apply_in_place(s, rng.choice(list(engine.legal(s))), settle=False)
            legal = set(engine.legal(engine.copy(s)))
            code = engine.random_legal(s, rng)
            assert code in legal if legal else code is None
            drawn += 1
            s = engine.copy(before)
            engine.apply_in_place(s, rng.choice(list(engine.legal(s))))
    assert drawn > 100
