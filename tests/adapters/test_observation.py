"""The observation tensor of hand-built positions, plane by plane
(interpreter/frontends/adapters/observation.py, docs/rl.md "Observation")."""
from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the observation tensor needs the rl extra (numpy)")

from interpreter import load_game  # noqa: E402
from interpreter.frontends.adapters import observation  # noqa: E402
from interpreter.frontends.adapters.observation import ObservationEncoder  # noqa: E402
from interpreter.limits import MAX_NUMBER  # noqa: E402
from tests.helpers import GAMES, REPO  # noqa: E402


def planes(encoder, tensor):
    """{channel name: its plane}."""
    return {c.name: tensor[..., i] for i, c in enumerate(encoder.channels)}


def grid(files, ranks, **values):
    """A (ranks, files) plane holding `values` ({"c3": 2.0}) and 0 elsewhere."""
    plane = np.zeros((ranks, files), np.float32)
    for site, value in values.items():
        plane[int(site[1:]) - 1, ord(site[0]) - ord("a")] = value
    return plane


def test_lielow_seen_by_each_player():
    game = load_game(str(GAMES / "lielow"))
    state = game.make_state(
        {"a1": ("white", "piece"), "c3": ("white", "piece", {"range": 2}),
         "d6": ("black", "piece", {"range": 3, "king": True})},
        to_move="black",
    )
    encoder = ObservationEncoder(game)
    assert encoder.shape == (8, 8, 8)
    assert [c.name for c in encoder.channels] == [
        "piece:piece/+0", "piece:piece/+1", "piece:piece/neutral", "attribute:range", "attribute:king",
        "turn/+0", "turn/+1", "carry"]
    white = planes(encoder, encoder.encode(state, 0))
    np.testing.assert_array_equal(white["piece:piece/+0"], grid(8, 8, a1=1, c3=1))
    np.testing.assert_array_equal(white["piece:piece/+1"], grid(8, 8, d6=1))
    np.testing.assert_array_equal(white["piece:piece/neutral"], grid(8, 8))
    np.testing.assert_array_equal(white["attribute:range"], grid(8, 8, a1=1, c3=2, d6=3))
    np.testing.assert_array_equal(white["attribute:king"], grid(8, 8, d6=1))
    np.testing.assert_array_equal(white["turn/+0"], np.zeros((8, 8)))
    np.testing.assert_array_equal(white["turn/+1"], np.ones((8, 8)))  # black, the next player, moves
    np.testing.assert_array_equal(white["carry"], np.zeros((8, 8)))
    black = planes(encoder, encoder.encode(state, 1))
    np.testing.assert_array_equal(black["piece:piece/+0"], grid(8, 8, d6=1))
    np.testing.assert_array_equal(black["piece:piece/+1"], grid(8, 8, a1=1, c3=1))
    np.testing.assert_array_equal(black["attribute:range"], white["attribute:range"])
    np.testing.assert_array_equal(black["turn/+0"], np.ones((8, 8)))
    np.testing.assert_array_equal(black["turn/+1"], np.zeros((8, 8)))
    assert encoder.encode(state, 0).dtype == np.float32


def test_regibus_stacks_flags_variables_pools_and_phases():
    game = load_game(str(GAMES / "regibus"))
    state = game.make_state(
        {"d4": ("white", "king", {"stones": ["white", "black", "white"], "been_middle": True}),
         "e5": ("black", "knight")},
        to_move="white", phase="play", decision="move",
        variables={"quiet": 7, "crowned": {"white": True, "black": False}}, pools={"stones": {"white": 2, "black": 5}},
    )
    encoder = ObservationEncoder(game)
    seen = planes(encoder, encoder.encode(state, 1))  # black's view: white is +1
    np.testing.assert_array_equal(seen["piece:king/+1"], grid(8, 8, d4=1))
    np.testing.assert_array_equal(seen["piece:knight/+0"], grid(8, 8, e5=1))
    np.testing.assert_array_equal(seen["height"], grid(8, 8, d4=3, e5=1))
    np.testing.assert_array_equal(seen["stones/+1"], grid(8, 8, d4=2))
    np.testing.assert_array_equal(seen["stones/+0"], grid(8, 8, d4=1, e5=1))
    np.testing.assert_array_equal(seen["attribute:been_middle"], grid(8, 8, d4=1))
    for name, value in [("turn/+0", 0), ("turn/+1", 1), ("phase:setup", 0), ("phase:play", 1),
                        ("decision:place", 0), ("decision:move", 1), ("decision:place_emperor", 0),
                        ("var:quiet", 7), ("var:crowned/+0", 0), ("var:crowned/+1", 1),
                        ("pool:stones/+0", 5), ("pool:stones/+1", 2)]:
        np.testing.assert_array_equal(seen[name], np.full((8, 8), value), err_msg=name)
    for name in ("piece:king/+0", "piece:king/neutral", "piece:prince/+0", "piece:emperor/+1", "carry"):
        np.testing.assert_array_equal(seen[name], np.zeros((8, 8)), err_msg=name)
    height = encoder.channel("height")
    assert encoder.low[0, 0, height] == 0 and encoder.high[0, 0, height] == MAX_NUMBER
    quiet = encoder.channel("var:quiet")
    assert encoder.low[0, 0, quiet] == -MAX_NUMBER


def test_a_graph_board_is_a_vector_per_site():
    game = load_game(str(GAMES / "morris"))
    state = game.make_state({"a1": ("white", "man"), "d2": ("black", "man")}, to_move="black", phase="moving",
                            decision="take", variables={"turns": 30}, pools={"men": {"white": 0, "black": 1}})
    encoder = ObservationEncoder(game)
    sites = game.layout.sites
    assert encoder.shape == (len(sites), len(encoder.channels)) == (24, 14)
    tensor = encoder.encode(state, 1)
    names = [c.name for c in encoder.channels]
    for i, site in enumerate(sites):
        expected = dict.fromkeys(names, 0.0)
        expected.update({"turn/+0": 1.0, "phase:moving": 1.0, "decision:take": 1.0, "var:turns": 30.0,
                         "pool:men/+0": 1.0})
        if site == "a1":
            expected["piece:man/+1"] = 1.0
        if site == "d2":
            expected["piece:man/+0"] = 1.0
        assert dict(zip(names, tensor[i].tolist())) == expected, site


def test_the_carried_piece_is_marked_on_its_site():
    game = load_game(str(REPO / "docs" / "examples" / "checkers"))
    state = game.make_state({"c3": ("white", "man"), "d4": ("black", "man")}, to_move="white",
                            decision="more", carry="c3")
    encoder = ObservationEncoder(game)
    seen = planes(encoder, encoder.encode(state, 0))
    np.testing.assert_array_equal(seen["carry"], grid(8, 8, c3=1))
    np.testing.assert_array_equal(seen["decision:more"], np.ones((8, 8)))


@pytest.mark.parametrize("rows", [observation.MAX_ROWS, 5])
def test_pieces_met_later_are_encoded_as_the_first(monkeypatch, rows):
    monkeypatch.setattr(observation, "MAX_ROWS", rows)  # 5: the table fills up
    game = load_game(str(GAMES / "lielow"))
    encoder = ObservationEncoder(game)
    for value in range(1, 200):  # pieces with ever new attribute values
        state = game.make_state({"b2": ("white", "piece", {"range": value}),
                                 "g7": ("black", "piece", {"range": -value})})
        seen = planes(encoder, encoder.encode(state, 0))
        np.testing.assert_array_equal(seen["attribute:range"], grid(8, 8, b2=value, g7=-value))
        np.testing.assert_array_equal(seen["piece:piece/+1"], grid(8, 8, g7=1))
