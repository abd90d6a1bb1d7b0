"""What each player holds in its regions, read by the learnt evaluation
(evaluation.py, `holdings_of`): the sum of a whole-number attribute over the sites
of a region declared per player. Kalah's score rule counts a player's pits and
store alike; a seed in the store can no longer be taken, one in a pit can, and the
random games tell them apart."""
from __future__ import annotations

from benchmarks.catalog import GAMES
from interpreter.frontends.agents.evaluation import Features, holdings_of, learn


def _moved_seed(game, state, source: str, target: str):
    """`state` with one seed taken from `source` and put in `target`."""
    index = {name: i for i, name in enumerate(game.board.sites)}
    moved = game.engine.copy(state)
    board = list(moved.board)
    for name, change in ((source, -1), (target, 1)):
        piece = board[index[name]]
        board[index[name]] = piece[:3] + (piece[3] + change,) + piece[4:]
    moved.board = board
    return moved


def test_kalah_holdings_are_each_players_pits_and_store():
    game = GAMES["kalah"].load()
    index = {name: i for i, name in enumerate(game.board.sites)}
    sites = [[tuple(sorted(index[s] for s in names)) for names in per_player] for per_player in (
        (("b1", "c1", "d1", "e1", "f1", "g1"), ("b2", "c2", "d2", "e2", "f2", "g2")),  # pits: south's, north's
        (("h1",), ("a2",)),  # store
    )]
    assert holdings_of(game) == ((3, tuple(sites[0])), (3, tuple(sites[1])))


def test_features_read_the_seeds_held():
    game = GAMES["kalah"].load()
    start = game.initial_state()
    plain, held = Features(game), Features(game, holdings=True)
    width = len(plain.of(start))
    assert held.of(start)[:width] == plain.of(start)
    assert held.of(start)[width:] == [24, 24, 0, 0]  # pits south, north; stores south, north
    sown = _moved_seed(game, start, "d1", "h1")
    assert held.of(sown)[width:] == [23, 24, 1, 0]
    assert plain.of(sown) == plain.of(start)  # (the score rule counts both alike)


def test_kalah_learns_a_seed_in_the_store_is_worth_more_than_one_in_a_pit():
    game = GAMES["kalah"].load()
    evaluation = learn(game)
    assert evaluation is not None and evaluation.features.holdings
    start = game.initial_state()
    banked = _moved_seed(game, start, "d1", "h1")  # south's seed from its pit to its store
    assert evaluation.log_odds(banked) > evaluation.log_odds(start) + 0.05
    lost = _moved_seed(game, start, "d2", "a2")  # north's likewise: worse for south, the first player
    assert evaluation.log_odds(lost) < evaluation.log_odds(start) - 0.05


def test_no_holdings_without_whole_numbers_in_regions_of_each_player():
    for name in ("breakthrough", "connect_four", "quoridor"):
        game = GAMES[name].load()
        assert holdings_of(game) == (), name
        evaluation = learn(game)
        assert evaluation is None or not evaluation.features.holdings, name
