"""`regelwerk play` driven end to end through standard input (not a terminal)."""
from __future__ import annotations

import io

from interpreter.frontends import cli
from interpreter.frontends.records import read_record
from tests.helpers import GAMES

# White loses at ply 5: a2-b3 makes b3 White's king, b3-off takes it off the board.
LIELOW_LOST = "a2-b3 c7-d6\nb2-c3 g7-f6\nb3-off\n"


def run_cli(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def play(capsys, monkeypatch, typed, *argv):
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = cli.main(["play", *[str(a) for a in argv]])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_a_whole_game_between_two_people(capsys, monkeypatch, tmp_path):
    path = tmp_path / "game.txt"
    code, out, _ = play(capsys, monkeypatch, LIELOW_LOST, "lielow", "--players", "human,human", "--seed", "2",
                        "--record", path)
    assert code == 0
    assert "white [move]> a2-b3" in out and "black [move]> c7-d6" in out  # two notations on one line
    assert "5. white: b3-off" in out
    assert "game over: black wins" in out and f"the game is saved in {path}" in out
    assert "Lielow | ply 5" in out  # the board, drawn plain (no terminal), with the ply in its header
    record = read_record(str(path))
    assert record.notations == LIELOW_LOST.split()
    header = record.header
    assert (header.game, header.players, header.seed) == ("lielow", "human,human", 2)
    assert header.date  # ISO date of the start


def test_an_illegal_entry_then_a_legal_one(capsys, monkeypatch, tmp_path):
    code, out, _ = play(capsys, monkeypatch, "d2-d5\nd7-d6\nnonsense\nd2-d3\n", "lielow", "--players", "human",
                        "--record", tmp_path / "g.txt", "--lenient")
    assert code == 0
    assert "'d2-d5' is not legal here; from d2: d2-c1 d2-c3 d2-d1 d2-d3 d2-e1 d2-e3" in out
    assert "'d7-d6' is not legal here; the piece on d7 is black's" in out
    assert "'nonsense' is not legal here; type 'moves'" in out
    assert "1. white: d2-d3" in out
    assert read_record(str(tmp_path / "g.txt")).notations == ["d2-d3"]


def test_a_site_lists_the_actions_from_it_and_to_it(capsys, monkeypatch, tmp_path):
    code, out, _ = play(capsys, monkeypatch, "d2\nd3\nh8\n", "lielow", "--players", "human",
                        "--record", tmp_path / "g.txt")
    assert code == 0
    assert "from d2: d2-c1 d2-c3 d2-d1 d2-d3 d2-e1 d2-e3" in out
    assert "to d3: c2-d3 d2-d3 e2-d3" in out
    assert "no legal action from or to h8" in out


def test_moves_and_help(capsys, monkeypatch, tmp_path):
    code, out, _ = play(capsys, monkeypatch, "moves\n?\nhelp\nmvoes\n", "lielow", "--players", "human",
                        "--record", tmp_path / "g.txt", "--lenient")
    assert code == 0
    assert out.count("46 legal actions:") == 2 and "  h2: h2-g1 h2-g3 h2-h1 h2-h3 h2-off" in out
    assert "save [FILE]" in out and "undo" in out
    assert "did you mean the command 'moves'?" in out


def test_undo_takes_back_the_last_entry(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.txt"
    code, out, _ = play(capsys, monkeypatch, "d2-d3\ne7-e6\nundo\ne7-e5\n", "lielow", "--players", "human",
                        "--record", path, "--lenient")
    assert code == 0 and "back to ply 1" in out
    assert read_record(str(path)).notations == ["d2-d3"]  # e7-e5 is not legal: e7 is a range-1 piece
    # Against a program, undo also takes back its reply: back to the person's own decision.
    path = tmp_path / "h.txt"
    code, out, _ = play(capsys, monkeypatch, "d2-d3\nundo\nundo\n", "lielow", "--players", "human,random",
                        "--seed", "1", "--record", path)
    assert "back to ply 0" in out and "nothing to undo" in out
    assert read_record(str(path)).notations == []


def test_save_then_resume(capsys, monkeypatch, tmp_path):
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    code, out, _ = play(capsys, monkeypatch, f"a2-b3\nsave\nsave {second}\nc7-d6\nquit\nb2-c3\n", "lielow",
                        "--players", "human", "--seed", "9", "--record", first)
    assert code == 0
    assert f"saved in {first}" in out and f"recorded in {second} from now on" in out
    assert f"continue it with: regelwerk play --resume {second}" in out
    assert "cannot write the record" not in out
    assert read_record(str(first)).notations == ["a2-b3"]
    saved = read_record(str(second))
    assert saved.notations == ["a2-b3", "c7-d6"] and saved.header.seed == 9

    # Resume: game, players and seed come from the header; the game goes on in the same file.
    code, out, _ = play(capsys, monkeypatch, "b2-c3 g7-f6 b3-off\n", "--resume", second)
    assert code == 0
    assert "resuming" in out and "after 2 actions" in out
    assert "Lielow | ply 2" in out and "last: c7-d6" in out  # the saved position, drawn first
    assert "game over: black wins" in out
    record = read_record(str(second))
    assert record.notations == LIELOW_LOST.split()
    assert (record.header.game, record.header.players, record.header.seed) == ("lielow", "human,human", 9)
    assert "resumed" in record.header.extra


def test_saving_to_a_missing_folder_keeps_playing(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.txt"
    code, out, _ = play(capsys, monkeypatch, f"save {tmp_path}/no/such/dir.txt\nd2-d3\n", "lielow",
                        "--players", "human", "--record", path)
    assert code == 0 and "cannot write the record" in out and f"still recorded in {path}" in out
    assert read_record(str(path)).notations == ["d2-d3"]


def test_resume_may_change_the_players(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("# game: lielow\n# players: human,human\n# seed: 4\nd2-d3\n")
    code, out, _ = play(capsys, monkeypatch, "", "--resume", path, "--players", "random")
    assert code == 0 and "white = random, black = random" in out and "game over" in out
    record = read_record(str(path))
    assert record.notations[0] == "d2-d3" and record.header.players == "random,random"


def test_a_resumed_game_goes_on_as_if_never_stopped(capsys, monkeypatch, tmp_path):
    whole, part = tmp_path / "whole.txt", tmp_path / "part.txt"
    argv = ("royalfiz", "--option", "players=2", "--option", "max_turns=12", "--players", "random,mcts:10",
            "--seed", "5")
    assert play(capsys, monkeypatch, "", *argv, "--record", whole)[0] == 0
    played = read_record(str(whole))
    assert any(n.startswith("roll:") for n in played.notations) and len(played.notations) > 12
    lines = whole.read_text().splitlines(keepends=True)
    cut = len(lines) - len(played.notations) + 9  # the header and 9 actions
    part.write_text("".join(lines[:cut]))
    assert play(capsys, monkeypatch, "", "--resume", part)[0] == 0
    assert read_record(str(part)).notations == played.notations


def test_a_damaged_record_is_named_by_line(capsys, monkeypatch, tmp_path):
    path = tmp_path / "broken.txt"
    path.write_text("# game: lielow\n# players: human\n# seed: 1\nd2-d3\ne7-e6 zz-9\n")
    code, _, err = play(capsys, monkeypatch, "", "--resume", path)
    assert code == 2
    assert err.startswith(f"{path}:5:7: error: ply 3: 'zz-9' is not a legal action of lielow here")
    assert "hint: legal at ply 3:" in err
    # An action after the end is damage too.
    path.write_text(LIELOW_LOST + "a7-a6\n")
    code, _, err = play(capsys, monkeypatch, "", "lielow", "--resume", path)
    assert code == 2 and f"{path}:4:1: error: ply 6: 'a7-a6' comes after the end of the game" in err


def test_resume_needs_a_game(capsys, monkeypatch, tmp_path):
    path = tmp_path / "bare.txt"
    path.write_text("d2-d3\n")
    code, _, err = play(capsys, monkeypatch, "", "--resume", path)
    assert code == 1 and "no '# game:' line" in err and len(err.splitlines()) == 1
    code, _, err = play(capsys, monkeypatch, "")
    assert code == 1 and "which game?" in err
    code, _, err = play(capsys, monkeypatch, "", "--resume", tmp_path / "missing.txt")
    assert code == 1 and "missing.txt:1:1: error: cannot read" in err


def test_chance_typed_in(capsys, monkeypatch, tmp_path):
    path = tmp_path / "r.txt"
    typed = "red\n7\nroll:6\nhome_red\nhome_red-o6\n?\nrandom\nquit\n"
    code, out, _ = play(capsys, monkeypatch, typed, "royalfiz", "--option", "players=2", "--players", "human",
                        "--chance", "ask", "--seed", "3", "--record", path, "--lenient")
    assert code == 0
    assert "chance [start] for red> red" in out and "1. chance: start:red" in out
    assert "chance [roll] for red> 7" in out  # whose roll it is
    assert "'7' is not an outcome here; outcomes: roll:1 (16.7%)" in out and "or just 1 2 3 4 5 6" in out
    assert "2. chance: roll:6" in out and "die: 6" in out
    assert "from home_red: home_red-o36 home_red-o6 home_redxs8b" in out
    assert "3. red: home_red-o6" in out
    assert "4. chance: roll:" in out  # drawn by the program on request
    record = read_record(str(path))
    assert record.notations[:3] == ["start:red", "roll:6", "home_red-o6"] and len(record.notations) == 4
    assert record.header.extra["chance"] == "ask" and record.header.options == {"players": "2"}


def test_stacks_and_follow_up_decisions_are_generic(capsys, monkeypatch, tmp_path):
    setup = "@a4 @a5 @b4 @b5 @c4 @c5 @d4 @d5 @e4 @e5 @f4 @f5 @g4 @g5 @h4 @h5 @a3 @e6 @b3 @f6 @c3 @g6 @d3 @h6\n"
    code, out, _ = play(capsys, monkeypatch, setup + "c3\nd4xd6\nstacks\n", "regibus", "--players", "human",
                        "--record", tmp_path / "g.txt")
    assert code == 0
    assert "white [place]> @a4" in out and "white [move]> d4xd6" in out
    assert "to c3: @c3" not in out and "from c3:" not in out  # c3 is full: nothing from or to it yet
    assert "stack listing on" in out and "stacks (bottom -> top):" in out and "d6 " in out


def test_a_variant_given_as_game_is_named_in_the_record(capsys, monkeypatch, tmp_path):
    """Replaying by the game's name must still play the variant: its setup differs."""
    variant = GAMES / "regibus" / "variants" / "quick-start.yaml"
    path = tmp_path / "quick.txt"
    code, _, _ = play(capsys, monkeypatch, "a2-a3\nquit\n", variant, "--players", "human,human", "--record", path)
    assert code == 0
    header = read_record(str(path)).header
    # A bundled variant is named GAME/VARIANT: that works on any installation.
    assert header.game == "regibus/quick-start" and header.variant is None
    code, out, _ = run_cli(capsys, "replay", "regibus", path, "--json")
    assert code == 0 and '"ply": 1' in out
    assert cli.main(["replay", "regibus", str(path)]) == 0


# -- from a pipe: an illegal line is an error ------------------------------------------------------


def test_an_illegal_piped_line_stops_the_game_with_status_2(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.txt"
    code, out, err = play(capsys, monkeypatch, "d2-d3\ne7-e6\nd3-d9\nh2-h3\n", "lielow", "--players", "human",
                          "--record", path)
    assert code == 2
    assert err == (f"regelwerk: ply 3: 'd3-d9' is not legal here; from d3: d3-b1 d3-b3 d3-b5 d3-d1 d3-d5 d3-f1 "
                   f"d3-f3 d3-f5 (the game is saved in {path}; --lenient skips such lines)\n")
    assert read_record(str(path)).notations == ["d2-d3", "e7-e6"]
    # After the end of the game, a further action is an error too (as for replay).
    code, _, err = play(capsys, monkeypatch, LIELOW_LOST + "a7-a6\n", "lielow", "--players", "human",
                        "--record", tmp_path / "h.txt")
    assert code == 2 and "ply 6: the game is over; 'a7-a6' is not a command here" in err


def test_a_hint_explains_itself(capsys, monkeypatch, tmp_path):
    # White's range-3 piece on d5 can land on Black's king on g8: a win in one.
    typed = "f2-f3\nh7-g8\nf3-d5\nf7-e6\nhint\nquit\n"
    code, out, _ = play(capsys, monkeypatch, typed, "lielow", "--players", "human", "--record", tmp_path / "g.txt",
                        "--think", "200ms")
    assert code == 0
    assert ("hint: d5xg8\n  d5xg8 wins by force: whatever the others answer, white wins (the search has\n"
            "  proved it)." in out)


def test_after_the_game_review_and_a_new_game(capsys, monkeypatch, tmp_path):
    typed = LIELOW_LOST + "review\nfirst\nq\nnew regibus/nothing\nnew morris\nquit\n"
    code, out, _ = play(capsys, monkeypatch, typed, "lielow", "--players", "human", "--record", tmp_path / "g.txt")
    assert code == 0
    assert "game over: black wins (white 0, black 1)" in out
    assert "the rule that ended it: lose (" in out and "lielow.rules" in out
    assert "ply 5 of 5: white played b3-off" in out and "ply 0 of 5: the start" in out
    assert "cannot start regibus/nothing: regibus has no variant 'nothing'" in out
    assert "Nine men's morris: white = human, black = human; seed" in out
    assert "white [place]> quit" in out


def test_the_prompt_of_a_chance_event_says_whose_turn_it_is(capsys, monkeypatch, tmp_path):
    code, out, _ = play(capsys, monkeypatch, "red\nquit\n", "royalfiz", "--option", "players=2", "--players",
                        "human", "--chance", "ask", "--record", tmp_path / "r.txt")
    assert code == 0 and "chance [roll] for red> quit" in out
