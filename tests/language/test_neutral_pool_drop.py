"""A neutral kind dropped from a per-player pool (docs/format.md 2.10): the count
taken is the deciding player's, the piece placed belongs to no one (Quoridor's
walls: ten for each player, anyone's obstacle once placed)."""
from interpreter import load_game
from tests.helpers import stones_and_rocks, write_definition


def test_a_neutral_kind_from_a_per_player_pool(tmp_path):
    yaml = stones_and_rocks(files=2, ranks=2, extra="pools:\n  rocks: {initial: 2}\n")
    rules = ("phase play:\n    turn: place\ndecision place:\n    action rock:\n"
             "        drop rock from rocks on sites\n        notation \"@{to}\"\n        onto empty: place\n")
    game = load_game(write_definition(tmp_path, yaml, rules))
    state = game.apply(game.initial_state(), "@a1")
    assert [(p.site, p.kind, p.owner) for p in game.pieces(state)] == [("a1", "rock", None)]
    assert game.pools(state)["rocks"] == {"white": 1, "black": 2}
    state = game.apply(game.apply(state, "@b1"), "@a2")
    assert game.pools(state)["rocks"] == {"white": 0, "black": 1}
    assert game.legal_notations(state) == ["@b2"]  # Black's turn: one rock left, one site
