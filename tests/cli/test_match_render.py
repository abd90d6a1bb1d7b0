"""`regelwerk match` and `regelwerk render`, run in-process through `main(argv)`."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from interpreter import load_game
from interpreter.frontends import cli
from interpreter.frontends.match import labels, plans, wilson

SVG = "{http://www.w3.org/2000/svg}"


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# -- match ---------------------------------------------------------------------------------------


def test_a_tiny_match_counts_up(capsys):
    argv = ("match", "lielow", "--players", "mcts:20,random", "--games", "2", "--seed", "1", "--swap", "--json")
    code, out, _ = run(capsys, *argv)
    assert code == 0
    report = json.loads(out)
    assert report["game"] == "lielow" and report["games"] == 2 and report["seed"] == 1 and report["swap"] is True
    mcts, rand = report["agents"]
    assert (mcts["agent"], rand["agent"]) == ("mcts:20", "random")
    for agent in (mcts, rand):
        assert agent["games"] == 2 and agent["wins"] + agent["draws"] + agent["losses"] == 2
        assert agent["seats"] == {"white": 1, "black": 1}  # --swap: each side once
        low, high = agent["ci95"]
        assert 0 <= low <= agent["win_rate"] <= high <= 1
    assert mcts["wins"] == rand["losses"] and mcts["losses"] == rand["wins"] and mcts["draws"] == rand["draws"]
    assert mcts["wins"] + rand["wins"] + report["draws"] == 2
    assert sum(seat["wins"] for seat in report["seats"].values()) + report["draws"] == 2
    assert run(capsys, *argv)[1] == out  # the same seed, the same match


def test_a_match_on_two_processes_is_the_same(capsys):
    argv = ("match", "lielow", "--players", "random,mcts:5", "--games", "4", "--seed", "3", "--swap", "--json")
    assert run(capsys, *argv, "--jobs", "2")[1] == run(capsys, *argv)[1]


def test_a_match_for_people_and_its_records(capsys, tmp_path):
    code, out, _ = run(capsys, "match", "lielow", "--players", "random,random", "--games", "3", "--seed", "2",
                       "--swap", "--records", tmp_path)
    assert code == 0
    assert "lielow: 3 games, seed 2" in out and "win rate" in out and "95% interval" in out
    assert "random#1" in out and "random#2" in out  # two entries alike are told apart
    assert "not a multiple of 2 seats" in out
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == [f"lielow-match-000{i}.txt" for i in (1, 2, 3)]
    code, replayed, _ = run(capsys, "replay", "lielow", files[0], "--json")
    assert code == 0 and json.loads(replayed.splitlines()[-1])["terminal"] is True


@pytest.mark.parametrize("players", ["human,random", "mcts,random,random", "robot"])
def test_a_match_needs_built_in_players(capsys, players):
    code, _, err = run(capsys, "match", "lielow", "--players", players, "--games", "1")
    assert code == 1 and err.startswith("regelwerk: --players:") and len(err.splitlines()) == 1


def test_unfinished_games_are_draws(capsys):
    code, out, _ = run(capsys, "match", "lielow", "--players", "random", "--games", "2", "--max-plies", "3", "--json")
    report = json.loads(out)
    assert code == 0 and report["unfinished"] == 2 and report["draws"] == 2


def test_statistics():
    low, high = wilson(5, 10)
    assert low == pytest.approx(1 - high) and 0.23 < low < 0.24
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0 and wilson(0, 0) == (0.0, 1.0)
    assert labels(["mcts", "random", "mcts"]) == ["mcts#1", "random", "mcts#2"]
    assert [p.seats for p in plans(4, 3, 2, swap=True)] == [(0, 1, 1), (1, 1, 0), (1, 0, 1), (0, 1, 1)]
    assert {p.seats for p in plans(3, 2, 2, swap=False)} == {(0, 1)}


@pytest.mark.parametrize("command", ["match", "render"])
def test_the_commands_explain_themselves(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "examples:" in out and f"regelwerk {command}" in out


# -- render ----------------------------------------------------------------------------------------


def pieces_in(svg_text):
    root = ET.fromstring(svg_text)  # well-formed XML, or this raises
    assert root.tag == SVG + "svg"
    return [g for g in root.iter(SVG + "g") if "piece" in g.get("class", "").split()]


def test_render_svg_has_one_element_per_piece(capsys, tmp_path):
    record = tmp_path / "game.txt"
    record.write_text("a2-b3 c7-d6\n")
    picture = tmp_path / "lielow.svg"
    code, _, _ = run(capsys, "render", "lielow", record, "--svg", picture)
    assert code == 0
    drawn = pieces_in(picture.read_text())
    game = load_game("lielow")
    state = game.apply(game.apply(game.initial_state(), "a2-b3"), "c7-d6")
    assert sorted(g.get("data-site") for g in drawn) == sorted(p.site for p in game.pieces(state))
    assert any(e.get("class", "").startswith("square") and "last-to" in e.get("class", "")
               and e.get("data-site") == "d6" for e in ET.fromstring(picture.read_text()).iter())


def test_render_stacks(capsys, tmp_path):
    setup = "@a4 @a5 @b4 @b5 @c4 @c5 @d4 @d5 @e4 @e5 @f4 @f5 @g4 @g5 @h4 @h5 @a3 @e6 @b3 @f6 @c3 @g6 @d3 @h6"
    record = tmp_path / "r.txt"
    record.write_text(setup + " d4xd6\n")
    code, out, _ = run(capsys, "render", "regibus", record, "--svg", "-")
    drawn = pieces_in(out)
    assert code == 0 and len(drawn) == 23  # 24 stones, two of them in one stack
    [stack] = [g for g in drawn if g.get("data-height") == "2"]
    assert stack.get("data-site") == "d6" and stack.get("data-stones") == "black,white"
    code, out, _ = run(capsys, "render", "regibus", record, "--text", "--stacks")
    assert code == 0 and "stacks (bottom -> top):" in out and "d6" in out


def test_render_a_graph_board_after_a_roll(capsys, tmp_path):
    record = tmp_path / "r.txt"
    record.write_text("# game: royalfiz\n# option: players=2\nstart:red roll:6 home_red-o6 roll:3\n")
    code, out, _ = run(capsys, "render", "royalfiz", record, "--svg", "-")
    assert code == 0
    drawn = pieces_in(out)
    game = load_game("royalfiz", {"players": "2"})
    assert len(drawn) == 12  # 11 barricades and the red piece on o6
    assert "die: 3" in out and "last home_red-o6" in out  # the move stays lit after the roll
    # Every site is named; the goal and the centre ring are marked in colour.
    assert out.count('class="site-name"') == len(game.board.sites)
    assert 'data-site="goal" data-region="goal"' in out and "coloured: goal, centre ring" in out
    code, out, _ = run(capsys, "render", "royalfiz", record, "--text")
    assert code == 0 and "green to move" in out
    assert "o5 .     [o6 O]   o7 ." in out  # every site listed by name, the last move's target lit
    assert "red: upper case, green: lower case | O pawn, # barricade | * goal" in out
    assert game.players == ("red", "green")


def test_render_text_and_ply(capsys, tmp_path):
    record = tmp_path / "g.txt"
    record.write_text("a2-b3 c7-d6\nb2-c3 g7-f6\nb3-off\n")
    code, out, _ = run(capsys, "render", "lielow", record)  # text is the default
    assert code == 0 and "game over: black wins" in out and "ply 5" in out
    code, out, _ = run(capsys, "render", "lielow", record, "--ply", "2", "--text")
    assert code == 0 and "ply 2" in out and "last: c7-d6" in out and "white to move" in out
    code, out, _ = run(capsys, "render", "lielow", record, "--ply", "-1")
    assert code == 0 and "ply 4" in out
    code, _, err = run(capsys, "render", "lielow", record, "--ply", "9")
    assert code == 1 and "the record has 5 actions" in err
    record.write_text("a2-b3 zz\n")
    code, _, err = run(capsys, "render", "lielow", record, "--text")
    assert code == 2 and "'zz' is not legal here" in err and f"{record}:1:7" in err


def test_one_entry_filling_both_seats_is_two_players(capsys):
    code, out, _ = run(capsys, "match", "lielow", "--players", "random", "--games", "4", "--seed", "2", "--swap",
                       "--json")
    report = json.loads(out)
    assert [a["agent"] for a in report["agents"]] == ["random#1", "random#2"]
    assert report["players"] == ["random", "random"]
    assert sum(a["wins"] for a in report["agents"]) + report["draws"] == 4
    assert all(a["games"] == 4 and a["seats"] == {"white": 2, "black": 2} for a in report["agents"])


def test_the_time_left_is_estimated_from_every_game_so_far():
    from interpreter.frontends.match import time_left

    assert time_left(0.0, 0, 10) == "left ?"
    assert time_left(95.0, 1, 10) == "left 14:15"  # 95 s a game, nine to go
    assert time_left(7200.0, 2, 5) == "left 3:00:00"
    assert time_left(30.0, 3, 3) == "left 0:00"


def test_the_advice_in_words():
    from interpreter.frontends.advice import describe_hint, search_note
    from interpreter.frontends.agents import SearchStats

    stats = SearchStats(2400, 3.0, [("e2-e3", 610, 0.58), ("d2-d3", 420, 0.561), ("f2-e3", 0, 0.5)], "", "budget")
    assert describe_hint(stats, "white") == (
        "hint: e2-e3\n"
        "  The computer simulated 2400 games from here in 3.0 s, trying the promising\n"
        "  actions most. After e2-e3 (610 of those games) white did best: about 58% of\n"
        "  the points (a win counts 1, a draw 1/2), a rough estimate of white's chances.\n"
        "  Next best: d2-d3 about 56% (420 games).")
    assert search_note(stats) == "(2400 games simulated in 3.0 s; it rates its chances at about 58%)"
    # An estimate is never 100% (nor 0%): only what is proved is certain, and said in words.
    sure = SearchStats(300, 1.0, [("c1", 300, 1.0), ("c2", 20, 0.0), ("c3", 5, 0.0)], "", "budget",
                       proven={"c2": "loss"})
    assert search_note(sure) == "(300 games simulated in 1.0 s; it rates its chances at about 99%)"
    assert describe_hint(sure, "attackers", 300).splitlines()[1:] == [
        "  The computer simulated 300 games from here in 1.0 s, trying the promising actions most. After c1 "
        "(300 of those games) attackers did best: about 99% of the points (a win counts 1, a draw 1/2), "
        "a rough estimate of attackers' chances.",
        "  Next best: c2 loses by force (20 games), c3 about 1% (5 games)."]
    won = SearchStats(10, 0.1, [("c1", 10, 1.0)], "win", "solved")
    assert describe_hint(won, "defenders", 200).splitlines()[1] == (
        "  c1 wins by force: whatever the others answer, defenders win (the search has proved it).")
    forced = SearchStats(0, 0.1, [("c3", 0, 0.5)], "", "forced")
    assert describe_hint(forced, "white") == "hint: c3\n  Every other action lets an opponent win at once; c3 does not."
    lost = SearchStats(900, 1.0, [("a1", 900, 0.0)], "loss", "budget")
    assert search_note(lost) == "(it sees no defence: every action loses against the best answers)"


def test_the_hint_comes_from_the_default_player():
    from interpreter.frontends.agents import make_agent
    from interpreter.frontends.agents.mcts import DEFAULT_SECONDS
    from interpreter.frontends.play_input import hint_player

    default, hint = make_agent("mcts"), hint_player(None)
    assert type(hint) is type(default) and hint.methods == default.methods
    assert hint.seconds == default.seconds == DEFAULT_SECONDS
    assert hint_player("500ms").seconds == 0.5 and hint_player("hard").methods == default.methods
    # ... and not the previous default, whose methods differ.
    assert make_agent("mcts-v1").methods != default.methods


def test_a_real_search_states_its_chances_as_an_estimate():
    # Issue 28: Tablut's defenders "rated their chances at 100%" from ply 2. Far
    # from any proven result, the note and the hint give an estimate, "about".
    from interpreter.frontends.advice import describe_hint, search_note
    from interpreter.frontends.agents import make_agent

    game = load_game("tablut")
    state = game.initial_state()
    for _ in range(2):
        state = game.apply(state, game.legal_actions(state)[0])
    agent = make_agent("mcts:60", seed=3)
    agent.choose(game, state)
    stats = agent.last_stats
    assert stats.verdict == "" and "100%" not in search_note(stats)
    assert search_note(stats).startswith("(60 games simulated") and "about" in search_note(stats)
    hint = describe_hint(stats, game.to_move(state), 300)
    assert "100%" not in hint and "rough estimate of" in hint
