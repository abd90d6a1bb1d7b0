"""Reading and writing game records (interpreter/frontends/records.py)."""
from __future__ import annotations

import io

import pytest

from interpreter.frontends.records import (
    RecordError,
    RecordHeader,
    format_record,
    parse_record,
    read_record,
    write_record,
)


def test_plain_list_with_comments_keeps_positions():
    text = "d2-d3 e7-e6   # the opening\n\n  d3xf5\n# a whole-line comment a2-a3\nb7-off"
    record = parse_record(text, "game.txt")
    assert record.notations == ["d2-d3", "e7-e6", "d3xf5", "b7-off"]
    assert [(a.line, a.column) for a in record.actions] == [(1, 1), (1, 7), (3, 3), (5, 1)]
    assert record.where(2) == "game.txt:3:3"
    assert record.header == RecordHeader()


def test_comment_without_space_before_it():
    assert parse_record("a1-a2#note\nb1-b2").notations == ["a1-a2", "b1-b2"]


def test_header_is_read_from_comment_lines_before_the_first_action():
    text = (
        "# A friendly game.\n"
        "# game: regibus\n"
        "# option: capture=whole\n"
        "#option:travel_min = 2\n"
        "# variant: fast.yaml\n"
        "# players: human,mcts:200\n"
        "# seed: 7\n"
        "# date: 2025-01-31T20:15:00\n"
        "# event: club night\n"
        "@a4\n"
        "# game: lielow\n"  # after the first action: a plain comment
        "@a5\n"
    )
    record = parse_record(text)
    header = record.header
    assert header.game == "regibus"
    assert header.options == {"capture": "whole", "travel_min": "2"}
    assert header.variant == "fast.yaml"
    assert header.players == "human,mcts:200"
    assert header.seed == 7
    assert header.date == "2025-01-31T20:15:00"
    assert header.extra == {"event": "club night"}
    assert header.positions["game"] == (2, 9)
    assert record.notations == ["@a4", "@a5"]


@pytest.mark.parametrize(
    "line, message",
    [("# option: capture", "NAME=VALUE"), ("# seed: seven", "whole number")],
)
def test_bad_header_lines_point_at_the_value(line, message):
    with pytest.raises(RecordError) as caught:
        parse_record("# game: x\n" + line + "\nd2-d3\n", "r.txt")
    text = str(caught.value)
    assert text.startswith(f"r.txt:2:{line.index(':') + 3}: error:")
    assert message in text
    assert line in text  # the offending line is shown under the message


def test_round_trip_with_header(tmp_path):
    header = RecordHeader(
        game="regibus", options={"capture": "whole"}, variant="v.yaml", players="human,random",
        seed=3, date="2025-02-01T10:00:00", extra={"event": "test"},
    )
    notations = ["start:red", "@a4", "@a5", "roll:4", "c2-c3"]
    path = tmp_path / "game.txt"
    write_record(str(path), notations, header)
    text = path.read_text()
    assert text.splitlines()[-5:] == notations  # one action per line
    record = read_record(str(path))
    assert record.notations == notations
    assert record.header == header
    assert format_record(record.notations, record.header) == text


def test_round_trip_without_header():
    text = format_record(["a2-a3", "h7-h6"])
    assert text == "a2-a3\nh7-h6\n"
    assert parse_record(text).notations == ["a2-a3", "h7-h6"]


def test_write_replaces_the_file_whole(tmp_path):
    path = tmp_path / "game.txt"
    write_record(str(path), ["a2-a3", "h7-h6"])
    write_record(str(path), ["a2-a3"])
    assert path.read_text() == "a2-a3\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]  # no temporary file left


def test_missing_file_is_a_located_error(tmp_path):
    missing = tmp_path / "nope.txt"
    with pytest.raises(RecordError) as caught:
        read_record(str(missing))
    assert str(caught.value) == f"{missing}:1:1: error: cannot read {missing}: No such file or directory"


def test_not_utf8(tmp_path):
    path = tmp_path / "bin.txt"
    path.write_bytes(b"\xff\xfe\x00d2-d3")
    with pytest.raises(RecordError, match="not UTF-8"):
        read_record(str(path))


def test_byte_order_mark_is_not_part_of_the_first_action(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeffd2-d3\n".encode("utf-8"))
    assert read_record(str(path)).notations == ["d2-d3"]


def test_dash_reads_standard_input(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("# game: lielow\nd2-d3\n"))
    record = read_record("-")
    assert record.notations == ["d2-d3"]
    assert record.header.game == "lielow"
    assert record.where(0) == "<stdin>:2:1"
