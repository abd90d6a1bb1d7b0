"""Files a stranger names: only regular files are read, and never more than a limit."""
from __future__ import annotations

import os

import pytest

from interpreter.frontends.records import MAX_NOTATION_CHARS
from interpreter.validation.files import FileRefused, read_bounded

from .conftest import assert_clean, run_cli

fifo_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")


def test_read_bounded_refuses_what_is_not_a_regular_file(tmp_path):
    with pytest.raises(FileRefused, match="it is a folder, not a file"):
        read_bounded(tmp_path, 10)
    with pytest.raises(FileRefused, match="character device"):
        read_bounded(os.devnull, 10)


def test_read_bounded_stops_after_the_limit(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(b"x" * 11)
    assert read_bounded(path, 11) == b"x" * 11
    with pytest.raises(FileRefused) as caught:
        read_bounded(path, 10)
    assert caught.value.too_large


@fifo_only
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(FileRefused, match=r"named pipe \(FIFO\)"):
        read_bounded(fifo, 10)


@fifo_only
def test_a_record_given_as_a_pipe_is_refused_with_the_way_that_works(capsys, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, _, err = run_cli(capsys, "replay", "lielow", fifo)
    assert_clean(code, err)
    assert "it is a named pipe (FIFO), not a file" in err
    assert "hint: to pipe a record in, name it '-' and send it on standard input" in err


@fifo_only
@pytest.mark.parametrize("where", ["record", "rules", "yaml", "variant", "extends"])
def test_a_fifo_anywhere_a_file_is_read_is_a_clear_error(capsys, base_game, tmp_path, where):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    args = ["validate", base_game]
    if where == "record":
        args = ["replay", base_game, fifo]
    elif where == "rules":
        (base_game.path / "game.rules").unlink()
        os.mkfifo(base_game.path / "game.rules")
    elif where == "yaml":
        args = ["validate", fifo]
    elif where == "variant":
        args = ["validate", base_game, "--variant", fifo]
    else:
        (base_game.path / "v.yaml").write_text("extends: pipe.yaml\n")
        os.replace(fifo, base_game.path / "pipe.yaml")
        args = ["validate", base_game.path / "v.yaml"]
    code, _, err = run_cli(capsys, *args)
    assert_clean(code, err)
    assert "named pipe (FIFO)" in err, err


def test_a_device_as_a_record(capsys):
    code, _, err = run_cli(capsys, "replay", "lielow", os.devnull)
    assert_clean(code, err)
    assert f"{os.devnull}:1:1: error: cannot read {os.devnull}: it is a character device, not a file" in err


def test_a_record_larger_than_the_limit(capsys, tmp_path, monkeypatch):
    from interpreter.frontends import records

    monkeypatch.setattr(records, "MAX_RECORD_BYTES", 1000)
    path = tmp_path / "big.txt"
    path.write_text("a2-a3 " * 200)
    code, _, err = run_cli(capsys, "replay", "lielow", path)
    assert_clean(code, err)
    assert "larger than" in err and len(err) < 300


def test_a_giant_token_is_refused_and_not_echoed(capsys, tmp_path):
    path = tmp_path / "token.txt"
    path.write_text("a2-a3\n" + "x" * 100_000 + "\n")
    code, _, err = run_cli(capsys, "replay", "lielow", path)
    assert_clean(code, err)
    assert err.startswith(f"{path}:2:1: error: this is no action: 100000 characters")
    assert f"at most {MAX_NOTATION_CHARS}" in err
    assert len(err) < 600 and "..." in err


def test_too_many_actions(capsys, tmp_path, monkeypatch):
    from interpreter.frontends import records

    monkeypatch.setattr(records, "MAX_RECORD_ACTIONS", 3)
    path = tmp_path / "long.txt"
    path.write_text("a2-a3 h7-h6\nb2-b3 g7-g6\n")
    code, _, err = run_cli(capsys, "replay", "lielow", path)
    assert_clean(code, err)
    assert err.startswith(f"{path}:2:7: error: a record holds at most 3 actions")


def test_standard_input_is_bounded_too(capsys, monkeypatch):
    import io

    from interpreter.frontends import records

    monkeypatch.setattr(records, "MAX_RECORD_BYTES", 100)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"a2-a3 " * 1000)))
    code, _, err = run_cli(capsys, "replay", "lielow", "-")
    assert_clean(code, err)
    assert "<stdin>:1:1: error: cannot read <stdin>: it is larger than" in err


def test_rules_file_that_is_not_utf8_is_located_at_the_byte(capsys, base_game):
    path = base_game.path / "game.rules"
    path.write_bytes(path.read_bytes().replace(b"Fivefold.", b"F\xe9vefold."))
    code, _, err = run_cli(capsys, "validate", base_game)
    assert_clean(code, err)
    assert err.startswith(f"{base_game}/game.rules:1:4: error: ") and "not valid UTF-8 text (byte 0xe9)" in err


def test_a_long_yaml_line_is_shown_as_a_window(capsys, base_game):
    base_game.edit("game.yaml", "  centre: [c3]", "  centre: [c3, " + "c3, " * 5000 + "zz9]")
    code, _, err = run_cli(capsys, "validate", base_game)
    assert_clean(code, err)
    assert max(len(line) for line in err.splitlines()) < 200 and "..." in err


def test_a_header_value_with_a_line_break_stays_on_its_line(tmp_path):
    from interpreter.frontends.records import RecordHeader, format_record, parse_record

    header = RecordHeader(game="lielow", options={"name": "a\n# game-path: /etc/passwd"})
    record = parse_record(format_record(["a2-a3"], header))
    assert record.header.path is None and record.header.options == {"name": "a # game-path: /etc/passwd"}


@fifo_only
def test_a_record_is_never_written_over_what_is_not_a_file(capsys, monkeypatch, tmp_path):
    import io
    import stat

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target in (fifo, tmp_path):
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        code, _, err = run_cli(capsys, "play", "lielow", "--players", "human", "--record", target)
        assert_clean(code, err)
        assert f"cannot write the record {target}: it is a" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still the pipe it was


def test_a_giant_entry_piped_to_play_is_refused_without_a_search_in_it(capsys, monkeypatch, tmp_path):
    # (the hint looked for a site name at each of its characters: minutes for a few megabytes)
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("a" * 100_000 + "\n"))
    code, _, err = run_cli(capsys, "play", "lielow", "--players", "human,random", "--seed", "1",
                           "--record", tmp_path / "r.txt")
    assert code == 2 and "Traceback" not in err
    assert f"'{'a' * 39}…' is no action: 100000 characters, a notation has at most {MAX_NOTATION_CHARS}" in err
    assert len(err) < 600


def test_a_yaml_file_of_too_many_values_is_refused_where_they_pass_the_bound(capsys, monkeypatch, base_game):
    # (PyYAML reads about 30 000 values a second: 2 MB of `c3, ` took 17 s to load)
    from interpreter.validation import yaml_source
    monkeypatch.setattr(yaml_source, "MAX_YAML_VALUES", 200)
    base_game.edit("game.yaml", "  centre: [c3]", "  centre: [" + "c3, " * 300 + "c3]")
    code, _, err = run_cli(capsys, "validate", base_game)
    assert_clean(code, err)
    # (the 201st value: the list's 136th site, 65 values of the document coming before it)
    assert err.splitlines()[0] == (f"{base_game}/game.yaml:25:{12 + 4 * 135}: error: the document holds more than 200 "
                                   "values (keys, values and list items)")


def test_the_largest_definitions_hold_far_fewer_values_than_the_bound():
    from interpreter.validation.yaml_source import MAX_YAML_VALUES, load_yaml_text
    from tests.helpers import REPO
    largest = max((REPO / "benchmarks" / "outsiders").glob("*/*.yaml"), key=lambda path: path.stat().st_size)
    document = load_yaml_text(largest.read_text(encoding="utf-8"), str(largest))
    assert document.ok and len(document.positions.values) < MAX_YAML_VALUES // 50


def test_an_entry_piped_to_play_is_echoed_cut_and_fit_to_print(capsys, monkeypatch, tmp_path):
    # (the transcript wrote back the whole megabyte of a piped line, escape sequences and all)
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("\x1b]0;title\x07" + "a" * 100_000 + "\nquit\n"))
    code, out, err = run_cli(capsys, "play", "lielow", "--players", "human,random", "--seed", "1",
                             "--record", tmp_path / "r.txt", "--lenient")
    assert code == 0, err
    echoed = [line for line in out.splitlines() if "aaaa" in line]
    assert echoed and all(len(line) < 260 and "\x1b" not in line and "\x07" not in line for line in echoed)
    assert echoed[0].endswith("> ?]0;title?" + "a" * (MAX_NOTATION_CHARS - 11) + "…")  # (the notation's bound in all)


def test_a_piped_stream_without_line_breaks_is_read_in_bounded_pieces(capsys, monkeypatch, tmp_path):
    import io

    from interpreter.frontends import prompt

    monkeypatch.setattr(prompt, "MAX_LINE_CHARS", 1000)
    monkeypatch.setattr("sys.stdin", io.StringIO("\x00" * 25_000))
    code, _, err = run_cli(capsys, "play", "lielow", "--players", "human,random", "--seed", "1",
                           "--record", tmp_path / "r.txt")
    assert code == 2 and "Traceback" not in err
    assert f"is no action: 1000 characters, a notation has at most {MAX_NOTATION_CHARS}" in err
