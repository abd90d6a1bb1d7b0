"""sum/max/min of an attribute over a set of sites (format.md 3.12.2): pieces only
(empty sites add nothing), in conditions (written out as loops) and elsewhere."""
import ast

from interpreter import load_game
from tests.helpers import drop_where, generated, helper_calls, stones_and_rocks, write_definition

YAML = stones_and_rocks(extra="attributes:\n  weight: {type: int, default: 1}\n")

def _rules(where: str) -> str:
    return drop_where(where, "place\nto.weight = 1 + sum(neighbours(to), weight)")


def test_the_weights_around_a_site(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, _rules("sum(neighbours(to), weight) >= 2")))
    state = game.make_state({"b2": ("black", "stone"), "c3": ("white", "stone")}, to_move="white")
    # b2 and c3 weigh 1 each: two of them around b3 and c2 only
    assert sorted(game.legal_notations(state)) == ["b3", "c2"]
    # placing adds up the neighbours' weights: a stone on b3 weighs 1 + 2
    after = game.apply(state, "b3")
    assert {p.site: p.attributes["weight"] for p in game.pieces(after)}["b3"] == 3
    # ... and counts as much as it weighs: a3 and b4 next to it alone, c2 (b2 + c3)
    # as before; c4 next to c3 alone does not
    assert sorted(game.legal_notations(after)) == ["a3", "b4", "c2"]


def test_the_weight_of_a_players_pieces(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, _rules(
        "sum(pieces of player, weight) + max(pieces of opponent, weight) == 3 and to in [a1, d4]")))
    state = game.make_state({"b2": ("black", "stone"), "c3": ("white", "stone"), "d1": ("white", "stone")},
                            to_move="white")
    assert sorted(game.legal_notations(state)) == ["a1", "d4"]
    assert game.legal_notations(game.make_state({"b2": ("black", "stone")}, to_move="white")) == []


def test_the_heaviest_and_lightest_of_a_filtered_set(tmp_path):
    """max/min of an attribute over `pieces ... where` in statements: the pieces that
    pass only, 0 when none does; the filtered set built once for the two arguments."""
    game = load_game(write_definition(tmp_path, YAML, _rules_effects(
        "place\nto.weight = max(pieces of opponent where it.weight <= 3, weight)"
        " * 10 + min(pieces of opponent where it.weight >= 2, weight)")))
    state = game.make_state({"a1": ("black", "stone", {"weight": 1}), "b1": ("black", "stone", {"weight": 3}),
                             "c1": ("black", "stone", {"weight": 5}), "d1": ("black", "stone", {"weight": 2})},
                            to_move="white")
    weights = {p.site: p.attributes["weight"] for p in game.pieces(game.apply(state, "a4"))}
    assert weights["a4"] == 3 * 10 + 2  # the heaviest of 1, 3, 2; the lightest of 3, 5, 2
    alone = game.make_state({"a1": ("black", "stone", {"weight": 9})}, to_move="white")
    weights = {p.site: p.attributes["weight"] for p in game.pieces(game.apply(alone, "a4"))}
    assert weights["a4"] == 0 * 10 + 9  # none weighs 3 or less: max is 0
    assert not helper_calls(game, "h_max") and not helper_calls(game, "h_min")
    over_pieces = [node for node in generated(game, ast.For, "action 'stone'")
                   if isinstance(node.iter, ast.Subscript) and getattr(node.iter.value, "id", "") == "o"]
    assert len(over_pieces) == 2  # the opponent's pieces gone through once per filtered set


def _rules_effects(effects: str) -> str:
    return drop_where("to == a4", effects)

