"""The `regelwerk` command, run in-process through `main(argv)`."""
from __future__ import annotations

import io
import json
import re

import pytest

from interpreter import bundled_games
from interpreter.frontends import cli
from interpreter.frontends.records import read_record
from tests.helpers import GAMES, RECORDS, stones_and_rocks, write_definition

# A short Lielow game that White loses at ply 5: a2-b3 makes b3 (range 2) White's
# king; b2-c3 ties it at range 2, so the crown stays on b3; b3-off takes White's own
# king off the board.
LIELOW_LOST = "a2-b3 c7-d6\nb2-c3 g7-f6\nb3-off\n"
LOCATION = re.compile(r"^\S+:\d+:\d+: error: ", re.MULTILINE)


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def record(tmp_path):
    def write(text, name="game.txt"):
        path = tmp_path / name
        path.write_text(text)
        return path

    return write


def json_lines(out):
    return [json.loads(line) for line in out.splitlines()]


# -- replay --json ---------------------------------------------------------------------------


def test_replay_json_lines(capsys, record):
    code, out, err = run(capsys, "replay", "lielow", record("# opening\nd2-d3 e7-e6\n"), "--json")
    assert code == 0 and err == ""
    raw = out.splitlines()
    assert len(raw) == 3
    assert raw[0].startswith('{"ply": 0, "to_move": "white", "legal": ["a2-a1", "a2-a3", ')
    lines = json_lines(out)
    assert [list(line) for line in lines] == [["ply", "to_move", "legal", "terminal"]] * 3
    start, after_white, after_black = lines
    assert len(start["legal"]) == 46 and start["terminal"] is False
    assert start["legal"] == sorted(start["legal"])
    # Edge pieces: 4 squares + one off-board move; every other piece 6 squares.
    assert [n for n in start["legal"] if n.startswith("a2")] == ["a2-a1", "a2-a3", "a2-b1", "a2-b3", "a2-off"]
    assert (after_white["ply"], after_white["to_move"]) == (1, "black")
    assert (after_black["ply"], after_black["to_move"]) == (2, "white")
    # d3 now has range 2: it leaps two squares, over anything, never one.
    d3 = [n for n in after_black["legal"] if n.startswith("d3")]
    assert d3 == ["d3-b1", "d3-b3", "d3-b5", "d3-d1", "d3-d5", "d3-f1", "d3-f3", "d3-f5"]
    assert "d2-d3" not in after_black["legal"]


def test_replay_json_terminal_line(capsys, record):
    code, out, err = run(capsys, "replay", "lielow", record(LIELOW_LOST), "--json")
    assert code == 0 and err == ""
    last = out.splitlines()[-1]
    assert json.loads(last) == {
        "ply": 5, "to_move": None, "legal": [], "terminal": True,
        "winner": "black", "scores": {"white": 0, "black": 1},
    }
    assert list(json.loads(last)) == ["ply", "to_move", "legal", "terminal", "winner", "scores"]


def test_replay_illegal_action(capsys, record):
    code, out, err = run(capsys, "replay", "lielow", record("d2-d3\ne7-e6\na2-a5\nh2-h3\n"), "--json")
    assert code == 2
    assert len(out.splitlines()) == 3  # the positions before the bad action
    assert len(err.splitlines()) == 1
    assert re.search(r"lielow.*ply 3.*'a2-a5'.*not legal", err)
    assert "game.txt:3:1" in err


def test_replay_after_the_end(capsys, record):
    code, out, err = run(capsys, "replay", "lielow", record(LIELOW_LOST + "a7-a6\n"), "--json")
    assert code == 2
    assert len(out.splitlines()) == 6
    assert err.count("\n") == 1
    assert re.search(r"lielow.*ply 6.*'a7-a6'.*after the end", err)


def test_replay_for_people(capsys, record):
    code, out, _ = run(capsys, "replay", "lielow", record(LIELOW_LOST))
    assert code == 0
    assert "   5. white      b3-off" in out
    assert "black wins" in out


def test_replay_from_standard_input(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("d2-d3\n"))
    code, out, _ = run(capsys, "replay", "lielow", "-", "--json")
    assert code == 0 and len(out.splitlines()) == 2


def test_missing_record(capsys, tmp_path):
    missing = tmp_path / "nope.txt"
    code, out, err = run(capsys, "replay", "lielow", missing, "--json")
    assert code == 1 and out == ""
    assert err.startswith(f"{missing}:1:1: error: cannot read {missing}")


def test_record_of_another_game(capsys, record):
    code, _, err = run(capsys, "replay", "lielow", record("# game: othergame\nd2-d3\n"), "--json")
    assert code == 1
    assert err.startswith(f"{record('').parent / 'game.txt'}:1:9: error: this is a record of 'othergame'")


def test_header_options_are_used(capsys, record):
    # Lielow has no options: the header's option reaches the game and is refused.
    path = record("# option: speed=2\nd2-d3\n")
    code, _, err = run(capsys, "replay", "lielow", path, "--json")
    assert code == 1
    assert err.startswith(f"{path}:1:11: error: ")  # at the header line, not at '--option'
    assert "no option 'speed'" in err and "Traceback" not in err


# -- broken definitions ------------------------------------------------------------------------


@pytest.fixture
def broken_game(tmp_path):
    source = GAMES / bundled_games()[0]
    folder = tmp_path / "broken"
    folder.mkdir()
    for path in source.iterdir():
        if path.is_file():
            (folder / path.name).write_text(path.read_text())
    rules = next(folder.glob("*.rules"))
    rules.write_text(rules.read_text() + "\nthis is not a rule )\n")
    return folder


def test_broken_definition_is_located(capsys, broken_game, record):
    moves = record("d2-d3\n")
    for argv in (("validate", broken_game), ("moves", broken_game), ("replay", broken_game, moves, "--json")):
        code, out, err = run(capsys, *argv)
        assert code == 1, argv
        assert LOCATION.search(err), err
        assert ".rules:" in err and "Traceback" not in err


def test_validate(capsys, broken_game):
    code, out, err = run(capsys, "validate", "lielow")
    assert code == 0 and "ok" in out and err == ""
    code, out, err = run(capsys, "validate", "lielow", broken_game, "nosuchgame")
    assert code == 1
    assert "lielow: ok" in out
    assert "nosuchgame:1:1: error: no game 'nosuchgame'" in err


def test_validate_counts_one_player_in_the_singular(capsys, tmp_path):
    path = write_definition(tmp_path, stones_and_rocks(players=("solo",)), """\
        phase play:
            turn: move

        decision move:
            action put:
                drop stone on sites
                onto empty: place
        """)
    code, out, err = run(capsys, "validate", path)
    assert (code, out) == (0, f"{path}: ok (Probe, 1 player)\n"), err
    code, out, err = run(capsys, "validate", "lielow")
    assert out.startswith("lielow: ok (Lielow, 2 players;")


def test_unknown_option(capsys):
    code, _, err = run(capsys, "moves", "lielow", "--option", "speed=2")
    assert code == 1 and "speed" in err


def test_usage_error(capsys):
    code, _, err = run(capsys, "perft", "lielow", "--depth", "0")
    assert code == 2 and "at least 1" in err


# -- moves, perft, list, bench -----------------------------------------------------------------


def test_moves(capsys, record):
    code, out, _ = run(capsys, "moves", "lielow")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 46 and lines == sorted(lines)
    code, out, _ = run(capsys, "moves", "lielow", record("d2-d3\n"))
    assert code == 0 and out.splitlines()[0] == "a7-a6" and len(out.splitlines()) == 46
    code, out, _ = run(capsys, "moves", "lielow", record("d2-d3\n"), "--json")
    assert json.loads(out)["ply"] == 1 and json.loads(out)["to_move"] == "black"


def test_moves_after_the_end(capsys, record):
    code, out, err = run(capsys, "moves", "lielow", record(LIELOW_LOST))
    assert code == 0 and out == "" and "black wins" in err


def test_perft(capsys):
    code, out, _ = run(capsys, "perft", "lielow", "--depth", "3", "--json")
    assert code == 0
    lines = json_lines(out)
    assert [{"depth": d["depth"], "count": d["count"]} for d in lines] == [
        {"depth": 1, "count": 46}, {"depth": 2, "count": 2116}, {"depth": 3, "count": 97520}]
    # each depth's time, in the clock asked for (wall by default)
    assert all(d["clock"] == "wall" and isinstance(d["seconds"], float) and d["seconds"] >= 0 for d in lines)
    code, out, _ = run(capsys, "perft", "lielow", "--depth", "2")
    assert [line.split("(")[0].strip() for line in out.splitlines()] == ["depth 1: 46", "depth 2: 2116"]
    # Each depth's time says its clock: wall by default, processor time on request (as bench).
    assert all(line.endswith(" s wall clock)") for line in out.splitlines()), out
    code, out, _ = run(capsys, "perft", "lielow", "--depth", "2", "--clock", "process")
    assert code == 0 and all(line.endswith(" s processor time)") for line in out.splitlines()), out
    code, out, _ = run(capsys, "perft", "lielow", "--depth", "1", "--clock", "process", "--json")
    assert code == 0 and json_lines(out)[0]["clock"] == "process"


@pytest.mark.parametrize("seconds, text", [
    (0.0, "0.00"), (0.0412345, "0.0412"), (0.000123456, "0.000123"), (1.23456, "1.23"), (12.345, "12.35"),
    (3e-9, "0.000000"),
])
def test_perft_times_keep_their_significant_digits(seconds, text):
    from interpreter.frontends.cli import seconds_text

    assert seconds_text(seconds) == text


def test_perft_after_a_record_given_after_the_options(capsys, record):
    code, out, _ = run(capsys, "perft", "lielow", "--depth", "1", record("d2-d3\n"), "--json")
    assert code == 0 and [(d["depth"], d["count"]) for d in json_lines(out)] == [(1, 46)]


def test_list(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0 and out.startswith("lielow — Lielow")
    code, out, _ = run(capsys, "list", "--json")
    games = {entry["name"]: entry for entry in json.loads(out)}
    assert games["lielow"] == {"name": "lielow", "title": "Lielow", "players": ["white", "black"], "options": {},
                               "variants": []}
    assert sorted(games) == bundled_games()


def test_bench_json(capsys):
    code, out, _ = run(capsys, "bench", "lielow", "--playouts", "5", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0
    assert list(data)[:4] == ["playouts", "seconds", "playouts_per_s", "actions_per_s"]
    assert data["playouts"] == 5 and data["seconds"] > 0 and data["actions_per_s"] > 0
    # Same seed, same games.
    _, again, _ = run(capsys, "bench", "lielow", "--playouts", "5", "--seed", "1", "--json")
    assert json.loads(again)["actions"] == data["actions"]


def test_bench_warms_up_without_changing_the_games_timed(capsys, monkeypatch):
    from interpreter.analysis import bench

    played = []
    monkeypatch.setattr(bench, "_warm_up", lambda *args: played.append(args[2:]))
    run(capsys, "bench", "lielow", "--playouts", "7", "--seed", "3", "--warm-up", "0.5", "--json")
    assert played == [(7, 3, 100_000, 0.5)]
    monkeypatch.undo()
    counts = set()
    for warm_up in ("0", "0.25", "2"):
        _, out, _ = run(capsys, "bench", "lielow", "--playouts", "7", "--seed", "3", "--warm-up", warm_up, "--json")
        counts.add(json.loads(out)["actions"])
    assert len(counts) == 1  # the same timed games


def test_bench_profile_credits_the_time_to_rules(capsys):
    code, out, _ = run(capsys, "bench", "lielow", "--playouts", "5", "--seed", "1", "--profile", "--json")
    data = json.loads(out)
    _, timed, _ = run(capsys, "bench", "lielow", "--playouts", "5", "--seed", "1", "--json")
    assert code == 0 and data["actions"] == json.loads(timed)["actions"]  # the same games
    rules = [row["rule"] for row in data["profile"]]
    assert abs(sum(row["share"] for row in data["profile"]) - 1) < 0.01
    # Lielow's one decision: its playouts draw a candidate and apply the leap's cases,
    # each named with its line of lielow.rules; the engine's own share is apart.
    assert any(rule.startswith("decision 'move'") and "lielow.rules:" in rule for rule in rules)
    assert any(rule.startswith("action 'leap', onto empty") for rule in rules)
    assert any(rule.startswith("the runtime") for rule in rules)
    assert all("generated code" not in rule for rule in rules)  # every generated function has its rule
    code, out, _ = run(capsys, "bench", "lielow", "--playouts", "3", "--profile", "--top", "2")
    lines = out.splitlines()
    assert code == 0 and "by rule" in lines[0]
    assert len([line for line in lines if line.strip().split(" ")[0].replace(".", "").isdigit()]) == 3
    assert "other rule" in lines[-1] and "--top" in lines[-1]


def test_bench_for_people(capsys):
    code, out, _ = run(capsys, "bench", "lielow", "--playouts", "3", "--seed", "2")
    assert code == 0 and "playouts/s" in out and "actions/s" in out and "(wall clock)" in out


def test_bench_in_processor_time(capsys, monkeypatch):
    from interpreter.analysis import bench

    # A processor clock that moves 2 s per reading, a wall clock that stands still:
    # the figure must come from the processor clock.
    ticks = iter(range(0, 1000, 2))
    monkeypatch.setitem(bench.CLOCKS, "process", lambda: float(next(ticks)))
    monkeypatch.setitem(bench.CLOCKS, "wall", lambda: 0.0)
    code, out, _ = run(capsys, "bench", "lielow", "--playouts", "4", "--warm-up", "0", "--clock", "process", "--json")
    data = json.loads(out)
    assert code == 0 and data["clock"] == "process" and data["seconds"] == 2.0 and data["playouts_per_s"] == 2.0
    code, out, _ = run(capsys, "bench", "lielow", "--playouts", "4", "--warm-up", "0", "--clock", "process")
    assert code == 0 and "(processor time)" in out


# -- play ----------------------------------------------------------------------------------------


def test_play_from_standard_input_writes_a_record_that_replays(capsys, monkeypatch, tmp_path):
    path = tmp_path / "played.txt"
    typed = "d2-d3\nnonsense\n?\nd3-d5\nundo\nh2-h3\n"  # then the input ends
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code, out, _ = run(capsys, "play", "lielow", "--players", "human,random", "--seed", "4", "--record", path,
                       "--lenient")
    assert code == 0
    assert "'nonsense' is not legal here" in out
    assert "a2: a2-a1 a2-a3" in out  # the legal actions, by the site they leave
    assert "back to ply 2" in out
    assert f"saved in {path}" in out
    assert "white: upper case" in out  # the board was drawn (plain, as stdout is no terminal)
    record = read_record(str(path))
    assert record.header.game == "lielow"
    assert record.header.seed == 4 and record.header.players == "human,random"
    assert len(record.notations) == 4
    assert record.notations[0] == "d2-d3" and record.notations[2] == "h2-h3"  # d3-d5 was undone
    code, out, _ = run(capsys, "replay", "lielow", path, "--json")
    assert code == 0 and json_lines(out)[-1]["ply"] == 4


def test_play_quit(capsys, monkeypatch, tmp_path):
    path = tmp_path / "q.txt"
    monkeypatch.setattr("sys.stdin", io.StringIO("d2-d3\nquit\nh2-h3\n"))
    code, _, _ = run(capsys, "play", "lielow", "--players", "human", "--record", path)
    assert code == 0 and read_record(str(path)).notations == ["d2-d3"]


def test_play_between_programs_is_reproducible(capsys, tmp_path):
    records = []
    for name in ("a.txt", "b.txt"):
        path = tmp_path / name
        code, out, _ = run(capsys, "play", "lielow", "--players", "random", "--seed", "11", "--record", path)
        assert code == 0 and "game over" in out
        records.append(read_record(str(path)).notations)
    assert records[0] == records[1]
    code, out, _ = run(capsys, "replay", "lielow", tmp_path / "a.txt", "--json")
    assert json_lines(out)[-1]["terminal"] is True


def test_play_records_in_the_data_folder_by_default(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, _ = run(capsys, "play", "lielow", "--players", "human")
    assert code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["data"]  # nothing left in the current folder
    [path] = (tmp_path / "data" / "regelwerk" / "games").iterdir()
    assert re.fullmatch(r"lielow-\d{8}-\d{6}\.txt", path.name)
    assert f"the game is recorded in {path}" in out
    assert f"continue it with: regelwerk play --resume {path}" in out


@pytest.mark.parametrize("players", ["human,random,random", "robot", "mcts:lots"])
def test_play_bad_players(capsys, tmp_path, players):
    code, _, err = run(capsys, "play", "lielow", "--players", players, "--record", tmp_path / "x.txt")
    assert code == 1 and err.startswith("regelwerk: --players:") and len(err.splitlines()) == 1


def test_agent_parameters_cut_by_a_comma_are_explained(capsys, tmp_path):
    code, _, err = run(capsys, "play", "lielow", "--players", "mcts:iterations=10,rollout=5",
                       "--record", tmp_path / "x.txt")
    assert code == 1
    assert err == ("regelwerk: --players: 'rollout=5' is no player; separate an agent's parameters with '/' "
                   "(e.g. mcts:iterations=500/rollout=40), the seats with ','\n")


# -- help, version, failures ---------------------------------------------------------------------


@pytest.mark.parametrize("command", ["list", "validate", "moves", "replay", "perft", "bench", "play"])
def test_every_command_explains_itself(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "examples:" in out and f"regelwerk {command}" in out


def test_no_command_shows_the_commands(capsys):
    code, out, err = run(capsys)
    assert code == 2 and out == ""  # a usage error (docs/interface.md)
    _, help_text, _ = run(capsys, "--help")
    assert err.startswith(help_text)  # the summary of every command, the examples
    for command in ("play", "analyze", "render", "lint", "list"):
        assert re.search(rf"^    {command} +\S", err, re.MULTILINE)
    assert err.endswith("regelwerk: error: no COMMAND given (one of those above)\n")


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("regelwerk ")


def test_interrupt_is_quiet(capsys, monkeypatch):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cmd_list", interrupted)
    assert run(capsys, "list") == (130, "", "")


def test_internal_error_is_one_line(capsys, monkeypatch):
    def broken(args):
        raise RuntimeError("boom")

    monkeypatch.delenv("REGELWERK_DEBUG", raising=False)
    monkeypatch.setattr(cli, "cmd_list", broken)
    code, _, err = run(capsys, "list")
    assert code == cli.EXIT_INTERNAL and len(err.splitlines()) == 1 and "boom" in err


def test_closed_pipe(monkeypatch):
    class ClosedPipe(io.StringIO):
        def write(self, text):
            raise BrokenPipeError

    monkeypatch.setattr("sys.stdout", ClosedPipe())
    assert cli.main(["moves", "lielow"]) == 1


# -- the other bundled games ------------------------------------------------------------------------


def test_regibus_perft_after_the_contact_record(capsys):
    # tests/data/perft.md
    code, out, _ = run(capsys, "perft", "regibus", "--depth", "3", RECORDS / "regibus-contact.txt", "--json")
    assert code == 0 and [line["count"] for line in json_lines(out)] == [5, 32, 334]


def test_royalfiz_play_with_chance_replays(capsys, tmp_path):
    path = tmp_path / "r.txt"
    code, _, _ = run(capsys, "play", "royalfiz", "--option", "players=2", "--option", "max_turns=80",
                     "--players", "random", "--seed", "3", "--record", path)
    assert code == 0
    record = read_record(str(path))
    assert record.header.options == {"players": "2", "max_turns": "80"}
    assert any(n.startswith(("start:", "roll:")) for n in record.notations)
    code, out, _ = run(capsys, "replay", "royalfiz", path, "--json")  # options from the header
    lines = json_lines(out)
    assert code == 0 and lines[0]["to_move"] == "chance" and lines[-1]["terminal"] is True


def test_a_definition_named_twice_is_reported_once(capsys, tmp_path):
    from tests.helpers import drop_where

    yaml = stones_and_rocks().replace("description: A board to try one construct on.",
                                      "description: misère " + "x" * 100 + " (default: 1)")
    path = write_definition(tmp_path, yaml, drop_where("true"))
    code, _, err = run(capsys, "validate", str(tmp_path / "game.yaml"), path)
    assert code == 1 and err.count("error:") == 1, err
    # the caret under the ':' it names, in a window cut with ASCII dots (one column each anywhere)
    headline, shown, caret = err.splitlines()[:3]
    assert headline.endswith("game.yaml:3:130: error: unexpected ':' (mapping values are not allowed here)")
    assert shown.startswith("    ...") and shown[caret.index("^")] == ":"
