"""Playouts that move the pieces as the race's learning games did (mcts.py,
`Methods.race_playouts`; playout.py, `Playout.race`): where the learnt evaluation
reads each player's race, a playout's piece moves by the nearer of two random
actions, so that the evaluation at the cut-off judges a race both sides run."""
from __future__ import annotations

import random
import time

from interpreter import load_game
from interpreter.frontends.agents.mcts import CURRENT, PREVIOUS, MCTSAgent
from interpreter.frontends.agents.playout import Playout, Tactics


def _rolled(game, roll: str):
    """RoyalFiz (two players) after the start and a roll of `roll`: red to move."""
    state = game.initial_state()
    for notation in ("start:red", roll):
        state = game.apply(state, notation)
    return state


def test_a_playout_step_plays_the_races_choice_of_two():
    game = load_game("royalfiz", {"players": "2"})
    engine = game.engine
    state = _rolled(game, "roll:6")  # red: a piece out of home, walked 6 one way or the other
    legal = list(engine.legal(state))
    wanted = max(legal, key=game.engine.notation)

    class Chooser:
        """A race that keeps the same action, whatever was drawn."""

        def __init__(self) -> None:
            self.asked: list = []

        def nearer_of_two(self, engine, state, rng, code, mover):
            self.asked.append((code, mover))
            return wanted

    for race in (None, Chooser()):
        playout = Playout(engine, random.Random(1), Tactics(), 2, 12, 0.1)
        playout.race = race
        played = set()
        for _ in range(30):
            after, learnable = playout.step(engine.copy(state), 0)
            assert learnable is not None
            played.add(learnable[0])
        if race is None:
            assert played == set(legal)  # (uniformly at random: every action, in 30 draws of two)
        else:
            assert played == {wanted} and len(race.asked) == 30 and {m for _, m in race.asked} == {0}


def test_the_default_player_runs_race_playouts_only_where_the_evaluation_reads_a_race():
    def race_in_search(name: str, options: dict, methods) -> bool:
        game = load_game(name, options)
        agent = MCTSAgent(seconds=0.01, methods=methods, clock=time.process_time)
        agent.prepare(game)
        state = game.initial_state()
        while game.to_move(state) == "chance":  # (RoyalFiz: the start and the first roll)
            state = game.apply(state, game.legal_actions(state)[0])
        search, _ = agent._start(game, state)
        return search.playout.race is not None

    assert race_in_search("royalfiz", {"players": "2"}, CURRENT)
    assert not race_in_search("royalfiz", {"players": "2"}, PREVIOUS)  # (mcts-v1: no evaluation either)
    assert not race_in_search("morris", {}, CURRENT)  # (an evaluation of counts, no race)
