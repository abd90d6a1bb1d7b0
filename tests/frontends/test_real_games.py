"""Agents and renderers on the bundled games, through the public API only."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from interpreter.api import load_game
from interpreter.frontends.agents import MCTSAgent, RandomAgent
from interpreter.frontends.render_svg import render_svg
from interpreter.frontends.render_text import render_text
from tests.helpers import play, record_actions

from .test_render_svg import parse, with_class
from .test_render_text import board_rows, cell

# White fills a4-h4 and a3-d3, Black a5-h5 and e6-h6.
REGIBUS_CONTACT = record_actions("regibus-contact.txt")


def random_position(game, seed: int, plies: int):
    agent = RandomAgent(seed=seed)
    state = game.initial_state()
    while not game.is_terminal(state) and state.ply < plies:
        state = game.apply(state, agent.choose(game, state))
    return state


# -- Lielow --------------------------------------------------------------------------------


def test_lielow_start_drawn_as_text():
    game = load_game("lielow")
    text = render_text(game, game.initial_state(), plain=True)
    assert text.isascii() and "white to move" in text
    rows = board_rows(text)
    assert sorted(rows) == [str(r) for r in range(1, 9)]
    for rank, row in rows.items():
        squares = row.split()[1:-1]
        assert len(squares) == 8
        occupied = [s for s in squares if s != "."]
        assert len(occupied) == (8 if rank in ("2", "7") else 0), row
    white, black = cell(text, "2", 0), cell(text, "7", 0)
    assert white != black and white.endswith("1") and black.endswith("1")  # range 1


def test_lielow_king_marker_and_last_move():
    game = load_game("lielow")
    state = play(game, "d2-d3")  # range 2: the only highest piece, so White's king
    text = render_text(game, state, plain=True)
    assert cell(text, "3", 3).startswith("[") and cell(text, "3", 3).endswith("2*]")
    assert cell(text, "2", 3) == "[.]"
    assert "* king" in text
    root = parse(render_svg(game, state))
    king = [p for p in with_class(root, "piece") if with_class(p, "marker")]
    assert [p.get("data-site") for p in king] == ["d3"]
    assert [s.get("data-site") for s in with_class(root, "last-to")] == ["d3"]


def test_lielow_svg_has_one_piece_per_piece():
    game = load_game("lielow")
    state = random_position(game, seed=3, plies=20)
    root = parse(render_svg(game, state))
    drawn = sorted((p.get("data-site"), p.get("data-owner")) for p in with_class(root, "piece"))
    assert drawn == sorted((p.site, p.owner) for p in game.pieces(state))


def test_mcts_takes_the_lielow_king():
    game = load_game("lielow")
    # White's range-3 piece on d5 can land on Black's king on g8 (over e6 and f7).
    state = play(game, "f2-f3", "h7-g8", "f3-d5", "f7-e6")
    assert len(game.legal_actions(state)) > 40
    agent = MCTSAgent(iterations=1000, seed=1)
    assert agent.choose(game, state).notation == "d5xg8"


def test_mcts_on_lielow_is_deterministic():
    game = load_game("lielow")
    state = play(game, "d2-d3", "e7-e6")
    first, second = MCTSAgent(iterations=150, seed=9), MCTSAgent(iterations=150, seed=9)
    assert first.choose(game, state) == second.choose(game, state)
    assert first.last_stats.choices == second.last_stats.choices


# -- Regibus -------------------------------------------------------------------------------


def test_regibus_stacks_in_text_and_svg():
    game = load_game("regibus")
    state = random_position(game, seed=1, plies=140)
    stacks = [p for p in game.pieces(state) if p.height > 1]
    assert stacks, "the seeded game should have made stacks by now"
    text = render_text(game, state, plain=True, stacks=True)
    for piece in stacks:
        assert f"{piece.site} " in text and ", ".join(piece.stones) in text
    root = parse(render_svg(game, state))
    drawn = {p.get("data-site"): p for p in with_class(root, "piece")}
    assert len(drawn) == len(game.pieces(state))
    for piece in game.pieces(state):
        element = drawn[piece.site]
        assert element.get("data-height") == str(piece.height)
        assert element.get("data-kind") == piece.kind
        assert len(with_class(element, "stone")) == min(piece.height, 6)


def test_regibus_setup_record_drawn():
    game = load_game("regibus")
    state = play(game, *REGIBUS_CONTACT)
    text = render_text(game, state, plain=True)
    rows = board_rows(text)
    assert [s != "." for s in rows["4"].split()[1:-1]] == [True] * 8
    assert [s != "." for s in rows["6"].split()[1:-1]] == [False] * 4 + [True] * 4
    ET.fromstring(render_svg(game, state))


def test_agents_play_regibus_legally():
    game = load_game("regibus")
    state = random_position(game, seed=2, plies=30)
    action = MCTSAgent(iterations=20, seed=0, rollout_limit=60).choose(game, state)
    assert action.notation in game.legal_notations(state)


# -- RoyalFiz ------------------------------------------------------------------------------


def test_royalfiz_graph_drawn():
    game = load_game("royalfiz", options={"players": "3"})
    state = random_position(game, seed=4, plies=60)
    text = render_text(game, state, plain=True)
    assert text.isascii()
    pieces = game.pieces(state)
    for piece in pieces:
        assert piece.site in text  # every occupied site is in the legend
    root = parse(render_svg(game, state))
    assert len(with_class(root, "piece")) == len(pieces)
    assert {s.get("data-site") for s in with_class(root, "site")} == set(game.board.sites)
    pools = game.pools(state)
    for mark in with_class(root, "pool"):
        pool, player = game.pool_sites[mark.get("data-site")]
        assert int(mark.get("data-count")) == pools.get(pool, {}).get(player, 0)


def test_mcts_with_dice_on_royalfiz():
    game = load_game("royalfiz", options={"players": "3"})
    state = random_position(game, seed=5, plies=30)
    while game.to_move(state) == "chance" or len(game.legal_actions(state)) < 2:
        state = game.apply(state, RandomAgent(seed=state.ply).choose(game, state))
    action = MCTSAgent(iterations=30, seed=0, rollout_limit=50).choose(game, state)
    assert action.notation in game.legal_notations(state)


# -- the default player never misses a win in one nor allows one ---------------------------------------


def _winning(game, state, player):
    """The actions of `player` that win at once."""
    won = []
    for action in game.legal_actions(state):
        after = game.apply(state, action)
        result = game.result(after)
        if result is not None and result.winner == player:
            won.append(action.notation)
    return won


@pytest.mark.parametrize("name, seeds", [
    ("lielow", 24),
    pytest.param("tablut", 40, marks=pytest.mark.slow),
])
def test_mcts_takes_wins_in_one_and_never_allows_one(name, seeds):
    game = load_game(name)
    checked = 0
    for seed in range(seeds):
        state = random_position(game, seed=seed, plies=6 + seed % 20)
        me = game.to_move(state)
        if me is None or me == "chance":
            continue
        wins = _winning(game, state, me)
        choice = MCTSAgent(iterations=30, seed=seed).choose(game, state).notation
        if wins:
            assert choice in wins, (seed, choice, wins)
            checked += 1
            continue
        safe = [a.notation for a in game.legal_actions(state)
                if not _winning(game, game.apply(state, a), game.to_move(game.apply(state, a)))]
        if safe and len(safe) < len(game.legal_actions(state)):
            assert choice in safe, (seed, choice)
            checked += 1
    assert checked >= 5  # the random positions did hold threats to test


def test_the_old_blunder_is_gone():
    # Issue 14: the former default left Black's king en prise (g7-f8, then c3xc6 won).
    # Here Black's king on c6 can be taken by White's c3 (range 3): Black must not ignore it.
    game = load_game("lielow")
    state = game.make_state(
        {"c3": ("white", "piece", {"range": 3, "king": True}), "a2": ("white", "piece"),
         "c6": ("black", "piece", {"range": 2, "king": True}), "g7": ("black", "piece"), "h7": ("black", "piece")},
        to_move="black",
    )
    assert _winning(game, game.make_state(dict(state_pieces(game, state)), to_move="white"), "white") == ["c3xc6"]
    choice = MCTSAgent(iterations=50, seed=1).choose(game, state).notation
    after = game.apply(state, choice)
    assert not _winning(game, after, "white"), choice


def state_pieces(game, state):
    """{site: (owner, kind, attributes)} of a position, for make_state."""
    return {p.site: (p.owner, p.kind, dict(p.attributes)) for p in game.pieces(state)}


# -- choices the search cannot tell apart ---------------------------------------------------


def test_a_search_given_no_time_does_not_play_the_first_listed_action():
    """With one playout nothing tells Hex's first moves apart: the move played is any
    of them by the seed, not the first cell in board order (which GRAVE's first visit
    and the tie of visits once picked, seed after seed: a1, b1, c1, ...)."""
    game = load_game(str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "hex"))
    state = game.initial_state()
    first = game.legal_notations(state)[0]
    chosen = [MCTSAgent(iterations=1, seed=seed).choose(game, state).notation for seed in range(8)]
    assert len(set(chosen)) >= 4 and chosen.count(first) <= 2, chosen
