"""docs/interface.md (the command-line contract) says what the command does: its
examples are run here and compared with the real output."""
from __future__ import annotations

import json
import re

import pytest

from interpreter.frontends import cli, common
from tests.helpers import REPO

TEXT = (REPO / "docs" / "interface.md").read_text(encoding="utf-8")
# White takes its own king off the board at ply 5 (see tests/cli/test_cli.py).
LIELOW_LOST = "a2-b3 c7-d6\nb2-c3 g7-f6\nb3-off\n"


def documented(prefix: str) -> list[str]:
    """The example lines of the document that start with `prefix` (indented code)."""
    return [line.strip() for line in TEXT.splitlines() if line.strip().startswith(prefix)]


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_replay_lines_are_as_documented(capsys, tmp_path):
    record = tmp_path / "game.txt"
    record.write_text(LIELOW_LOST)
    code, out, _ = run(capsys, "replay", "lielow", record, "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    first, terminal = documented('{"ply": 0'), documented('{"ply": 5')
    assert code == 0 and len(first) == 1 and len(terminal) == 1
    assert re.findall(r'"(\w+)":', first[0]) == list(lines[0])
    assert json.loads(terminal[0]) == lines[-1]


def test_the_illegal_action_message_is_as_documented(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.txt").write_text("a2-a3 a3-a4\n")
    code, out, err = run(capsys, "replay", "lielow", "game.txt", "--json")
    assert code == 2 and len(out.splitlines()) == 2
    assert documented("game.txt:1:7: error: lielow:") == err.splitlines()


def test_perft_and_bench_json_are_as_documented(capsys):
    code, out, _ = run(capsys, "perft", "lielow", "--depth", "1", "--json")
    fields = json.loads(out)
    assert code == 0 and {key: fields[key] for key in ("depth", "count", "clock")} == {
        "depth": 1, "count": 46, "clock": "wall"}
    assert set(fields) == {"depth", "count", "seconds", "clock"}
    assert '`{"depth": 1, "count": 46, "seconds": 0.0012, "clock": "wall"}`' in TEXT
    code, out, _ = run(capsys, "bench", "lielow", "--playouts", "2", "--seed", "1", "--json")
    fields = json.loads(out)
    assert code == 0 and fields["playouts"] == 2
    assert {"playouts", "seconds", "playouts_per_s", "actions_per_s", "game", "seed", "actions", "unfinished"} <= set(
        fields)


@pytest.mark.parametrize("status, meaning", [
    (common.EXIT_ERROR, "a broken definition"), (common.EXIT_ILLEGAL, "a record with an illegal action"),
    (common.EXIT_INTERRUPTED, "interrupted"), (common.EXIT_INTERNAL, "an internal error"),
])
def test_the_exit_statuses_are_as_documented(status, meaning):
    assert re.search(rf"\b{status} {meaning}", " ".join(TEXT.split()))


def test_every_bundled_game_is_named():
    from interpreter import bundled_games

    assert all(f"`{name}`" in TEXT for name in bundled_games())
