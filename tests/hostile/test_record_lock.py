"""Two `play` sessions on one record: the second is refused, nothing is overwritten."""
from __future__ import annotations

import io

import pytest

from interpreter.frontends import records
from interpreter.frontends.records import RecordLock, RecordLocked, claim_record

from .conftest import assert_clean, run_cli

pytestmark = pytest.mark.skipif(records.fcntl is None, reason="records are locked on POSIX systems only")


def play(capsys, monkeypatch, stdin: str, *argv):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return run_cli(capsys, "play", *argv)


def test_a_second_writer_is_refused_and_the_record_kept(capsys, monkeypatch, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("# game: lielow\na2-a3\n")
    other = RecordLock(path)  # another session holds it (flock: per open file, so in-process too)
    other.acquire()
    try:
        code, _, err = play(capsys, monkeypatch, "quit\n", "lielow", "--players", "human", "--record", path)
        assert_clean(code, err)
        assert f"cannot write the record {path}: another regelwerk (process " in err and "is writing game.txt" in err
        assert path.read_text() == "# game: lielow\na2-a3\n"
        code, _, err = play(capsys, monkeypatch, "quit\n", "--resume", path, "--players", "human")
        assert_clean(code, err)
    finally:
        other.release()
    code, _, err = play(capsys, monkeypatch, "quit\n", "--resume", path, "--players", "human")
    assert code == 0, err
    assert not (tmp_path / ".game.txt.lock").exists()  # let go at the end


def test_claiming_another_record_keeps_the_first_until_the_second_is_had(tmp_path):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    held = claim_record(first, None)
    assert claim_record(first, held) is held
    blocker = RecordLock(second)
    blocker.acquire()
    with pytest.raises(RecordLocked):
        claim_record(second, held)
    assert held.fd is not None  # still ours: `save FILE` to a busy file changes nothing
    blocker.release()
    moved = claim_record(second, held)
    assert moved.path == second.resolve() and held.fd is None
    moved.release()



def test_a_link_planted_as_the_lock_file_is_not_followed(tmp_path):
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    (tmp_path / ".game.txt.lock").symlink_to(victim)
    with pytest.raises(OSError):
        claim_record(tmp_path / "game.txt", None)
    assert victim.read_text() == "keep me\n"
