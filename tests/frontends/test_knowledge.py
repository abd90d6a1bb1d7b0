"""What the default player measures of a game before it searches (knowledge.py):
whether material guards the root, found from random games for any definition."""
from __future__ import annotations

import pytest

from benchmarks.catalog import GAMES
from interpreter import load_game
from interpreter.frontends.agents.knowledge import measure


@pytest.mark.parametrize("name", ["lielow", "regibus", "tablut", "morris"])
def test_material_guards_the_root_of_the_bundled_capture_games(name):
    assert measure(load_game(name)).material is not None


def test_material_guards_the_root_in_chess():
    known = measure(GAMES["chess"].load())
    assert known.material is not None
    assert known.winners_behind == 0


def test_material_is_no_guide_where_the_winner_is_who_loses_pieces():
    # Antichess is won by losing every piece (or being stalemated): in every won
    # random game the winner has lost more than the loser, so a look-ahead that
    # keeps material would play against the goal.
    known = measure(GAMES["antichess"].load())
    assert 0.0 < known.capture_rate <= 0.5  # (captures are events, as in chess)
    assert known.winners_ahead == 0 and known.winners_behind >= 5
    assert known.material is None


def test_amaf_is_left_out_where_an_action_names_a_slot():
    # Kalah's six actions a side are its pits, each sown again and again with
    # other seeds: most actions of a random game repeat one their player played
    # before, and "all moves as first" would credit a pit with every later sowing.
    known = measure(GAMES["kalah"].load())
    assert known.repeat_rate > 0.6
    assert not known.uses_amaf


@pytest.mark.parametrize("name", ["connect_four", "clobber", "chess", "quoridor", "backgammon"])
def test_amaf_guides_where_an_action_is_a_move(name):
    # A disc or a move from one square to another is seldom played twice by one
    # player in a game (Quoridor's pawn, wandering at random, comes nearest).
    assert measure(GAMES[name].load()).uses_amaf


def test_the_search_chooses_by_uct_where_amaf_is_left_out():
    from interpreter.frontends.agents import MCTSAgent

    game = GAMES["kalah"].load()
    agent = MCTSAgent(iterations=50, seed=1)
    search, _ = agent._start(game, game.initial_state())
    assert not search.grave
    connect_four = GAMES["connect_four"].load()
    search, _ = MCTSAgent(iterations=50, seed=1)._start(connect_four, connect_four.initial_state())
    assert search.grave


CLOBBER_RULES = """
phase play:
    turn: move
    if no action:
        lose

decision move:
    action clobber:
        step orthogonal
        onto enemy:
            notation "{from}{to}"
            move
"""


def _checkerboard(files: int, ranks: int) -> str:
    sites: tuple[list[str], list[str]] = ([], [])
    for f in range(files):
        for r in range(ranks):
            sites[(f + r) % 2].append(f"{'abcdefgh'[f]}{r + 1}")
    return f"setup:\n  white:\n    stone: [{', '.join(sites[0])}]\n  black:\n    stone: [{', '.join(sites[1])}]\n"


def test_mast_guides_the_playouts_where_a_game_plays_few_of_its_moves(tmp_path):
    # Clobber on 5x5, written here: a stone takes an orthogonal neighbour. Of the
    # moves a player is seen to make in random games, one game makes about a sixth,
    # so an action's mean result is that of the games it was played in.
    from tests.helpers import stones_and_rocks, write_definition

    game = load_game(write_definition(tmp_path, stones_and_rocks(files=5, ranks=5, extra=_checkerboard(5, 5)),
                                      CLOBBER_RULES))
    known = measure(game)
    assert known.coverage < 0.2
    assert known.uses_mast


def test_mast_is_left_out_where_every_game_plays_most_actions(tmp_path):
    # A stone dropped on any empty site of 3x3 until the board is full: each player
    # drops on half of all the sites in every game, so every action's mean is the
    # mean of nearly all the games.
    from tests.helpers import drop_where, stones_and_rocks, write_definition

    game = load_game(write_definition(tmp_path, stones_and_rocks(files=3, ranks=3), drop_where("true")))
    known = measure(game)
    assert known.uses_amaf  # (a site is dropped on once a game: a move, not a slot)
    assert known.coverage > 0.4
    assert not known.uses_mast


def test_the_search_keeps_mast_values_only_where_the_game_calls_for_them(tmp_path):
    from interpreter.frontends.agents import MCTSAgent
    from interpreter.frontends.agents.mcts import PREVIOUS

    # (chess plays few of its moves a game too, but material guides its playouts
    # and its root: MAST is left to the games where the playouts are all there is;
    # in Amazons the learnt evaluation, which reads each side's reach, cuts them short)
    assert measure(GAMES["chess"].load()).uses_mast
    assert measure(GAMES["amazons"].load()).uses_mast
    for name, uses in (("clobber", True), ("amazons", False), ("connect_four", False), ("chess", False)):
        game = GAMES[name].load()
        search, _ = MCTSAgent(iterations=50, seed=1)._start(game, game.initial_state())
        assert (search.playout.values is not None) is uses
    clobber = GAMES["clobber"].load()
    search, _ = MCTSAgent(iterations=50, seed=1, methods=PREVIOUS)._start(clobber, clobber.initial_state())
    assert search.playout.values is None
