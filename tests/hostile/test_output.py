"""Where the output goes: files named on the command line, a full disk, Ctrl-C.

- `render --svg FILE` (and `analyze --report DIR`) write like `--record`: a named
  pipe or a device is refused at once (a pipe would block until somebody reads it),
  a symbolic link is replaced, never written through.
- Output the system refuses (a full disk: /dev/full) is one line naming the
  reason, exit status 1 — not "internal error" (70).
- `match` stopped by Ctrl-C reports the games finished so far (as `analyze` does)
  and exits 130; `analyze --games` has the bound of `match --games`.
"""
from __future__ import annotations

import io
import json
import os
import sys

import pytest

from interpreter.frontends import match as match_module
from interpreter.frontends.common import EXIT_INTERRUPTED, MAX_PLAYOUTS

from .conftest import assert_clean, run_cli

fifo_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
full_disk = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")


# -- files named on the command line ------------------------------------------------------------

@fifo_only
def test_render_svg_to_a_named_pipe_is_refused_at_once(capsys, tmp_path):
    fifo = tmp_path / "picture.svg"
    os.mkfifo(fifo)
    code, _, err = run_cli(capsys, "render", "lielow", "--svg", fifo)  # (before: blocked for ever)
    assert_clean(code, err)
    assert err == f"regelwerk: cannot write {fifo}: it is a named pipe (FIFO), not a file\n"


@fifo_only
def test_render_svg_to_a_link_to_a_named_pipe_is_refused_too(capsys, tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "picture.svg").symlink_to(tmp_path / "pipe")
    code, _, err = run_cli(capsys, "render", "lielow", "--svg", tmp_path / "picture.svg")
    assert_clean(code, err)
    assert "it is a named pipe (FIFO), not a file" in err


def test_render_svg_replaces_a_link_and_leaves_what_it_points_at(capsys, tmp_path):
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    link = tmp_path / "picture.svg"
    link.symlink_to(victim)
    code, _, err = run_cli(capsys, "render", "lielow", "--svg", link)
    assert code == 0, err
    assert victim.read_text() == "keep me\n"
    assert not link.is_symlink() and link.read_text().startswith("<svg")


@pytest.mark.parametrize("target", ["/dev/null", "folder"])
def test_render_svg_to_a_device_or_a_folder(capsys, tmp_path, target):
    path = tmp_path if target == "folder" else target
    code, _, err = run_cli(capsys, "render", "lielow", "--svg", path)
    assert_clean(code, err)
    assert "not a file" in err


@fifo_only
def test_analyze_report_never_writes_into_a_pipe_or_through_a_link(capsys, tmp_path):
    pytest.importorskip("matplotlib", reason="the report draws with the analysis extra")
    report = tmp_path / "report"
    report.mkdir()
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    (report / "lengths.svg").symlink_to(victim)
    os.mkfifo(report / "index.html")
    code, _, err = run_cli(capsys, "analyze", "lielow", "--games", "2", "--report", report)
    assert_clean(code, err)
    assert f"cannot write {report / 'index.html'}: it is a named pipe (FIFO), not a file" in err
    assert victim.read_text() == "keep me\n"


# -- a full disk ----------------------------------------------------------------------------------

RECORD = "a2-a3\n"
COMMANDS = [
    ["moves", "lielow"], ["moves", "lielow", "--json"], ["perft", "lielow", "--depth", "1"], ["list"],
    ["list", "--json"], ["show", "lielow"], ["replay", "lielow", "{record}"],
    ["replay", "lielow", "{record}", "--json"],
    ["validate", "lielow"], ["render", "lielow"], ["render", "lielow", "--svg", "-"],
    ["bench", "lielow", "--playouts", "2"], ["lint", "lielow", "--playouts", "2"],
    ["match", "lielow", "--players", "random", "--games", "2"], ["analyze", "lielow", "--games", "2"],
]


@full_disk
@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_output_to_a_full_disk_is_one_clear_line(capsys, monkeypatch, tmp_path, argv):
    record = tmp_path / "r.txt"
    record.write_text(RECORD)
    full = open("/dev/full", "w", encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", full)
    try:
        code, _, err = run_cli(capsys, *[part.format(record=record) for part in argv])
    finally:
        full.close() if not full.closed else None
    assert_clean(code, err)
    assert err.splitlines()[-1] == "regelwerk: cannot write the output: No space left on device", err


@full_disk
def test_render_svg_to_a_full_disk(capsys, tmp_path, monkeypatch):
    import errno

    from interpreter.frontends import output_file

    def no_room(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(output_file.os, "replace", no_room)
    code, _, err = run_cli(capsys, "render", "lielow", "--svg", tmp_path / "p.svg")
    assert_clean(code, err)
    assert err == f"regelwerk: cannot write {tmp_path / 'p.svg'}: No space left on device\n"
    assert not list(tmp_path.iterdir())  # the temporary file is gone


def test_errors_cannot_be_written_either(monkeypatch):
    """Standard error full as well: still the exit status, and no traceback escapes."""
    from interpreter.frontends import cli

    class Full(io.StringIO):
        def write(self, text):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(sys, "stdout", Full())
    monkeypatch.setattr(sys, "stderr", Full())
    assert cli.main(["moves", "lielow"]) == 1
    assert cli.main(["moves", "no-such-game"]) == 1


# -- bounds and Ctrl-C ---------------------------------------------------------------------------------

@pytest.mark.parametrize("argument", ["--games", "--depth-games"])
def test_analyze_games_are_bounded_like_match(capsys, argument):
    code, _, err = run_cli(capsys, "analyze", "lielow", argument, str(MAX_PLAYOUTS + 1))
    assert code == 2
    assert f"argument {argument}: expected a number of at most {MAX_PLAYOUTS}" in err


def interrupt_after(monkeypatch, games: int) -> None:
    """Ctrl-C while game number `games` (from 0) is played."""
    play_one = match_module.play_one

    def play(game, specs, plan, *args, **kwargs):
        if plan.index == games:
            raise KeyboardInterrupt
        return play_one(game, specs, plan, *args, **kwargs)

    monkeypatch.setattr(match_module, "play_one", play)


def test_an_interrupted_match_reports_the_games_finished(capsys, monkeypatch):
    interrupt_after(monkeypatch, 3)
    code, out, err = run_cli(capsys, "match", "lielow", "--players", "random", "--games", "10", "--seed", "3")
    assert code == EXIT_INTERRUPTED
    assert out.startswith("lielow: 3 games, seed 3;")
    assert "random#1      3" in out and "wins by seat:" in out
    assert err == "interrupted: the figures above are of the 3 games finished before Ctrl-C\n"


def test_an_interrupted_match_in_json_says_so(capsys, monkeypatch):
    interrupt_after(monkeypatch, 2)
    code, out, _ = run_cli(capsys, "match", "lielow", "--players", "random", "--games", "5", "--json")
    report = json.loads(out)
    assert code == EXIT_INTERRUPTED and report["games"] == 2 and report["interrupted"] is True
    # the figures are those of the same two games played without interruption
    monkeypatch.undo()
    _, whole, _ = run_cli(capsys, "match", "lielow", "--players", "random", "--games", "2", "--json")
    assert {k: v for k, v in report.items() if k != "interrupted"} == json.loads(whole)


def test_an_interrupted_match_saves_the_records_of_the_games_finished(capsys, monkeypatch, tmp_path):
    interrupt_after(monkeypatch, 2)
    code, _, _ = run_cli(capsys, "match", "lielow", "--players", "random", "--games", "5",
                         "--records", tmp_path / "games")
    assert code == EXIT_INTERRUPTED
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == ["lielow-match-0001.txt", "lielow-match-0002.txt"]


def test_an_interrupted_match_before_any_game_ends(capsys, monkeypatch):
    interrupt_after(monkeypatch, 0)
    code, out, err = run_cli(capsys, "match", "lielow", "--players", "random", "--games", "3")
    assert code == EXIT_INTERRUPTED and out.startswith("lielow: 0 games")
    assert "of the 0 games finished" in err


@fifo_only
def test_match_records_never_write_into_a_pipe(capsys, tmp_path):
    os.mkfifo(tmp_path / "lielow-match-0001.txt")
    code, _, err = run_cli(capsys, "match", "lielow", "--players", "random", "--games", "2", "--records", tmp_path)
    assert_clean(code, err)
    assert err == f"regelwerk: cannot write the records in {tmp_path}: it is a named pipe (FIFO), not a file\n"
