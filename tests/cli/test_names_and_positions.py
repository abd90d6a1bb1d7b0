"""Bundled variants by name (GAME/VARIANT), the variant's name wherever a game is
named, which copy of a game was read, positions as text on the command line, and
stepping through a record."""
from __future__ import annotations

import io
import json

import pytest

from interpreter import bundled_games, load_game
from interpreter.frontends import cli
from interpreter.frontends.names import all_names, complete_game, display_name, resolve_game
from interpreter.frontends.records import read_record

pytestmark = pytest.mark.skipif("regibus" not in bundled_games(), reason="regibus is not bundled")


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_a_bundled_variant_is_played_by_its_name(capsys, monkeypatch, tmp_path):
    path = tmp_path / "q.txt"
    monkeypatch.setattr("sys.stdin", io.StringIO("a2-a3\nquit\n"))
    code, out, _ = run(capsys, "play", "regibus/quick-start", "--players", "human", "--record", path)
    assert code == 0 and "Regibus (quick start)" in out and "1. white: a2-a3" in out
    header = read_record(str(path)).header
    assert (header.game, header.variant) == ("regibus/quick-start", None)
    code, out, _ = run(capsys, "moves", "regibus/quick-start", path)
    assert code == 0 and "a7-a6" in out.split()


def test_an_unknown_variant_lists_the_known_ones(capsys):
    code, _, err = run(capsys, "moves", "regibus/quick")
    assert code == 1
    assert err == ("regelwerk: regibus has no variant 'quick' (its variants: regibus/quick-start, "
                   "regibus/short-travel, regibus/whole-capture)\n")


def test_list_shows_the_variants(capsys):
    code, out, _ = run(capsys, "list")
    assert "    variants: regibus/quick-start, regibus/short-travel, regibus/whole-capture" in out
    code, out, _ = run(capsys, "list", "--json")
    entry = next(e for e in json.loads(out) if e["name"] == "regibus")
    assert entry["variants"] == ["regibus/quick-start", "regibus/short-travel", "regibus/whole-capture"]


def test_the_variant_is_named_in_match_and_lint(capsys):
    code, out, _ = run(capsys, "match", "regibus/quick-start", "--players", "random", "--games", "1",
                       "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["game"] == "regibus/quick-start"
    code, out, _ = run(capsys, "lint", "regibus/whole-capture", "--playouts", "2", "--max-plies", "30")
    assert "regibus/whole-capture" in out
    assert display_name(load_game(resolve_game("regibus/short-travel"))) == "regibus/short-travel"
    assert display_name(load_game("regibus")) == "regibus"


def test_validate_and_show_say_which_copy_they_read(capsys):
    code, out, _ = run(capsys, "validate", "regibus/quick-start")
    assert code == 0 and "; read from /" in out and out.rstrip().endswith("regibus.yaml)")
    code, out, _ = run(capsys, "show", "lielow")
    assert code == 0 and out.startswith("# read from /") and out.splitlines()[0].endswith("lielow.yaml")


def test_a_misspelt_region_to_mark_is_a_warning(capsys, tmp_path):
    import shutil
    from pathlib import Path

    folder = tmp_path / "tablut"
    shutil.copytree(Path(load_game("tablut").definition.yaml_file).resolve().parent, folder)
    yaml = folder / "tablut.yaml"
    yaml.write_text(yaml.read_text().replace("    throne: {title: throne", "    thron: {title: throne"))
    code, out, err = run(capsys, "validate", folder)
    assert code == 0 and "warning: display: no region or site 'thron' to mark" in err
    assert "did you mean 'throne'?" in err


def test_games_and_variants_complete_in_the_shell():
    assert complete_game("regibus/q") == ["regibus/quick-start"]
    assert complete_game("li")[:1] == ["lielow"]
    assert set(bundled_games()) <= set(all_names())


def test_positions_on_the_command_line(capsys, tmp_path):
    record = tmp_path / "g.txt"
    record.write_text("d2-d3 e7-e6\n")
    code, out, _ = run(capsys, "replay", "lielow", record, "--positions")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 3 and all(line.startswith("rw2; game lielow; ply ") for line in lines)
    code, from_position, _ = run(capsys, "moves", "lielow", "--position", lines[-1])
    code2, from_record, _ = run(capsys, "moves", "lielow", record)
    assert code == code2 == 0 and from_position == from_record
    code, _, err = run(capsys, "moves", "lielow", "--position", "rw1; game lielow; phase play; turn white move 0; "
                       "board z9=white.piece")
    assert code == 1 and err.startswith("regelwerk: --position: unknown site 'z9' in lielow")


def test_view_steps_through_a_record(capsys, monkeypatch, tmp_path):
    record = tmp_path / "g.txt"
    record.write_text("a2-b3 c7-d6\nb2-c3 g7-f6\nb3-off\n")
    monkeypatch.setattr("sys.stdin", io.StringIO("p\np\nfirst\n9\n2\nq\n"))
    code, out, _ = run(capsys, "view", "lielow", record)
    assert code == 0
    steps = [line for line in out.splitlines() if line.startswith("ply ") and " of 5" in line]
    assert steps == [
        "ply 5 of 5: white played b3-off",
        "ply 4 of 5: black played g7-f6",
        "ply 3 of 5: white played b2-c3",
        "ply 0 of 5: the start",
        "ply 2 of 5: black played c7-d6",
    ]
    assert "this is the last position (ply 5)" in out  # 9 is beyond the end
    assert "review ply 2 of 5> q" in out
