"""Every bundled game and variant in the smallest terminal, 80 x 24: the board as
`play` draws it fits, at the start and in the middle of a game, with room left
for the line of the last move and the prompt; a graph board whose sites are
listed says how they connect, and `play` names the command that draws them."""
from __future__ import annotations

import io

import pytest

from interpreter import bundled_games
from interpreter.api import load_game
from interpreter.frontends.agents import RandomAgent
from interpreter.frontends.cli import main
from interpreter.frontends.names import bundled_variants, resolve_game
from interpreter.frontends.render_graph import edge_chains
from interpreter.frontends.render_text import lists_sites, render_text

WIDTH, HEIGHT = 80, 24
ROOM = HEIGHT - 2  # the line of the last move above the board, the prompt below

GAMES = [(name, None) for name in bundled_games()] + [
    (name, variant) for name in bundled_games() for variant in bundled_variants(name)]


def positions(game, plies: int = 60):
    """The start, and a position after `plies` random actions (or the end)."""
    agent = RandomAgent(seed=1)
    state = game.initial_state()
    yield state
    while not game.is_terminal(state) and state.ply < plies:
        state = game.apply(state, agent.choose(game, state))
    yield state


@pytest.mark.parametrize("name, variant", GAMES, ids=[v or n for n, v in GAMES])
@pytest.mark.parametrize("plain", [True, False])
def test_the_board_fits_80_by_24(name, variant, plain):
    game = load_game(resolve_game(variant or name))
    for state in positions(game):
        text = render_text(game, state, plain=plain, width=WIDTH, height=HEIGHT)
        if not plain:  # the colours take no room on the screen
            from rich.text import Text

            text = Text.from_ansi(text).plain
        lines = text.rstrip("\n").split("\n")
        assert len(lines) <= ROOM, f"{name}: {len(lines)} lines\n{text}"
        assert max(len(line) for line in lines) <= WIDTH, f"{name}: a line longer than {WIDTH}\n{text}"


def test_royalfiz_says_how_its_sites_connect():
    game = load_game("royalfiz")
    text = render_text(game, game.initial_state(), plain=True)
    assert "rings: outer, inner, centre (sites joined in order, the last to the first)" in text
    links = text[text.index("links: "):text.index("owners:")].replace("\n", " ").split()
    chains = [chain.rstrip(",") for chain in links[1:]]
    # The eight paths inward, the way to the goal, and the homes' one-way entries.
    assert "o3-s1a-s1b-i2" in chains and "o38-s8a-s8b-i16" in chains and "c1-goal" in chains
    assert "home_red>o1" in chains and "home_yellow>o31" in chains
    # Every edge of the board is told once: by a ring or by a chain.
    told = {frozenset(pair) for chain in chains for pair in zip(*_sites(chain))}
    for region in ("outer", "inner", "centre"):
        members = [site for site in game.board.sites if site in game.board.regions[region]]
        told |= {frozenset(pair) for pair in zip(members, members[1:] + members[:1])}
    assert told == {frozenset(edge[:2]) for edge in game.board.edges}


def _sites(chain: str) -> tuple:
    sites = chain.replace(">", "-").split("-")
    return sites, sites[1:]


def test_chains_follow_the_edges():
    order = {site: i for i, site in enumerate("abcdefg")}
    edges = [("a", "b", False), ("b", "c", False), ("c", "d", True), ("e", "b", False), ("f", "g", True),
             ("g", "f", True)]
    assert edge_chains(edges, order) == ["a-b-c>d", "b-e", "f>g>f"]
    assert edge_chains([("b", "a", True)], order) == ["b>a"]


def test_play_names_the_picture_of_a_listed_board(tmp_path, capsys, monkeypatch):
    assert lists_sites(load_game("royalfiz"), load_game("royalfiz").initial_state())
    assert not lists_sites(load_game("morris"), load_game("morris").initial_state())  # a lattice
    assert not lists_sites(load_game("lielow"), load_game("lielow").initial_state())
    record = tmp_path / "game.txt"
    monkeypatch.setattr("sys.stdin", io.StringIO("help\nquit\n"))
    main(["play", "royalfiz", "--players", "human", "--record", str(record), "--seed", "1"])
    out = capsys.readouterr().out
    command = f"regelwerk render royalfiz {record} --svg board.svg"
    assert out.count(f"the board as a picture, every connection drawn: {command}") == 2  # at the start, in help
    monkeypatch.chdir(tmp_path)
    assert main(command.split()[1:]) == 0  # the command works
    assert (tmp_path / "board.svg").read_text().startswith("<svg")
