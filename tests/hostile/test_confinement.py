"""Paths in files from strangers lead only to definitions of their own game folder
(variants) or of the allowed folders (records), and no other file is ever quoted."""
from __future__ import annotations

import os
import shutil

import pytest

from interpreter.frontends.records import read_record

from .conftest import BASE, assert_clean, run_cli

SECRET = "root:x:0:0:SECRET-LINE:/root:/bin/bash\n"


@pytest.fixture
def secret(tmp_path):
    """A private file outside the game's folder (think /etc/passwd, ~/.ssh/...)."""
    path = tmp_path / "private" / "secret.yaml"
    path.parent.mkdir()
    path.write_text(SECRET)
    return path


def variant(folder, extends: str):
    path = folder / "v.yaml"
    path.write_text(f"variant: v\nextends: {extends}\n")
    return path


@pytest.mark.parametrize("how", ["absolute", "relative", "link"])
def test_extends_outside_the_game_folder_is_refused_unread(capsys, base_game, secret, how):
    target = {"absolute": str(secret), "relative": "../private/secret.yaml", "link": "link.yaml"}[how]
    if how == "link":
        os.symlink(secret, base_game.path / "link.yaml")
    code, _, err = run_cli(capsys, "validate", variant(base_game.path, target))
    assert_clean(code, err)
    assert f"'extends: {target}' leads outside the game's folder" in err and "SECRET" not in err


def test_extends_a_file_of_the_folder_that_is_no_definition_is_not_quoted(capsys, base_game):
    (base_game.path / "notes.yaml").write_text("password: SECRET-LINE\n")
    code, _, err = run_cli(capsys, "validate", variant(base_game.path, "notes.yaml"))
    assert_clean(code, err)
    assert "notes.yaml is not a game definition" in err and "SECRET" not in err


def test_a_game_folder_whose_game_file_links_outside(capsys, tmp_path, secret):
    folder = tmp_path / "evil"
    folder.mkdir()
    os.symlink(secret, folder / "evil.yaml")
    code, _, err = run_cli(capsys, "validate", folder)
    assert_clean(code, err)
    assert "is a link that leads outside the folder" in err and "SECRET" not in err


def test_variants_in_a_variants_folder_extend_the_game_above(capsys, base_game):
    folder = base_game.path / "variants"
    folder.mkdir()
    code, out, err = run_cli(capsys, "validate", variant(folder, "../game.yaml"))
    assert code == 0, err
    code, out, err = run_cli(capsys, "validate", variant(folder, "lielow"))  # a bundled game by name
    assert code == 0, err


def test_a_variant_named_from_inside_its_variants_folder(capsys, monkeypatch, base_game, secret):
    # `regelwerk validate v.yaml` in the variants folder: the same game folder, the
    # same confinement, as `variants/v.yaml` from the folder above.
    folder = base_game.path / "variants"
    folder.mkdir()
    variant(folder, "../game.yaml")
    monkeypatch.chdir(folder)
    for name in ("v.yaml", "./v.yaml"):
        code, _, err = run_cli(capsys, "validate", name)
        assert code == 0, err
    (folder / "away.yaml").write_text(f"variant: away\nextends: {os.path.relpath(secret, folder)}\n")
    code, _, err = run_cli(capsys, "validate", "away.yaml")
    assert_clean(code, err)
    assert "leads outside the game's folder" in err and "SECRET" not in err


@pytest.mark.parametrize("levels, ok", [(16, True), (17, False)])
def test_at_most_16_variants_extend_each_other(capsys, base_game, levels, ok):
    base = "game.yaml"
    for level in range(1, levels + 1):
        (base_game.path / f"v{level}.yaml").write_text(f"variant: v{level}\nextends: {base}\n")
        base = f"v{level}.yaml"
    code, _, err = run_cli(capsys, "validate", base_game.path / base)
    if ok:
        assert code == 0, err
    else:
        assert_clean(code, err)
        assert "more than 16 variants extend each other" in err


# -- records -------------------------------------------------------------------------------------


def record(tmp_path, header: str, name="r.txt"):
    path = tmp_path / name
    path.write_text(header + "a2-a3\n")
    return path


@pytest.mark.parametrize("header, key", [
    ("# game: x\n# game-path: {secret}\n", "game-path"),
    ("# game: x\n# game-path: ../private/secret.yaml\n", "game-path"),
    ("# game: {secret}\n", "game"),
])
def test_a_record_naming_a_game_outside_is_refused_unread(capsys, monkeypatch, tmp_path, secret, header, key):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    path = record(work, header.format(secret=secret))
    code, _, err = run_cli(capsys, "play", "--resume", path)
    assert_clean(code, err)
    assert f"the record's {key}:" in err and "is outside this folder" in err and "SECRET" not in err
    assert f"regelwerk play GAME --resume {path}" in err


def test_a_record_naming_a_yaml_that_is_no_definition(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.yaml").write_text("token: SECRET-LINE\n")
    code, _, err = run_cli(capsys, "play", "--resume", record(tmp_path, "# game: x\n# game-path: config.yaml\n"))
    assert_clean(code, err)
    assert "config.yaml is not a game definition file" in err and "SECRET" not in err


def test_a_record_naming_a_variant_outside_is_refused(capsys, monkeypatch, tmp_path, secret):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "replay", "lielow", record(tmp_path, f"# game: lielow\n# variant: {secret}\n"))
    assert_clean(code, err)
    assert "the record's variant:" in err and "SECRET" not in err


def play(capsys, monkeypatch, stdin: str, *argv):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return run_cli(capsys, "play", *argv)


def test_resume_finds_the_game_of_a_local_folder_not_the_bundled_one(capsys, monkeypatch, tmp_path):
    # A local game whose identifier is that of a bundled game: resume must not mix them up.
    game = tmp_path / "games" / "mine"
    shutil.copytree(BASE, game)
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("game: fivefold", "game: lielow"))
    monkeypatch.chdir(tmp_path)
    code, out, err = play(capsys, monkeypatch, "a2-a3\nquit\n", "games/mine", "--players", "human", "--record", "r.txt")
    assert code == 0, err
    header = read_record(str(tmp_path / "r.txt")).header
    assert (header.game, header.path) == ("lielow", "games/mine/game.yaml")
    assert "continue it with: regelwerk play --resume r.txt" in out

    monkeypatch.chdir(tmp_path / "games")  # from elsewhere: the path is the record's
    code, out, err = play(capsys, monkeypatch, "b4-b3\nquit\n", "--resume", tmp_path / "r.txt")
    assert code == 0, err
    assert read_record(str(tmp_path / "r.txt")).notations == ["a2-a3", "b4-b3"]  # fivefold's moves, not Lielow's


def test_resume_refuses_a_game_whose_identifier_changed(capsys, monkeypatch, tmp_path):
    shutil.copytree(BASE, tmp_path / "mine")
    monkeypatch.chdir(tmp_path)
    path = record(tmp_path, "# game: other\n# game-path: mine/game.yaml\n")
    code, _, err = play(capsys, monkeypatch, "quit\n", "--resume", path)
    assert_clean(code, err)
    assert "this is a record of 'other', not of 'fivefold'" in err


def test_the_resume_command_names_a_game_outside_the_usual_folders(capsys, monkeypatch, tmp_path):
    shutil.copytree(BASE, tmp_path / "games" / "mine")
    (tmp_path / "play").mkdir()
    monkeypatch.chdir(tmp_path / "play")
    code, out, err = play(capsys, monkeypatch, "quit\n", "../games/mine", "--players", "human", "--record", "r.txt")
    assert code == 0, err
    game_file = (tmp_path / "games" / "mine" / "game.yaml").resolve()
    assert f"continue it with: regelwerk play {game_file} --resume r.txt" in out
    code, out, err = play(capsys, monkeypatch, "quit\n", str(game_file), "--resume", "r.txt")
    assert code == 0, err


def test_resume_of_a_local_variant_from_another_folder(capsys, monkeypatch, tmp_path):
    shutil.copytree(BASE, tmp_path / "mine")
    (tmp_path / "mine" / "variants").mkdir()
    calm = "variant: calm\nextends: ../game.yaml\noptions:\n  limit: 3\n"
    (tmp_path / "mine" / "variants" / "calm.yaml").write_text(calm)
    monkeypatch.chdir(tmp_path)
    code, _, err = play(capsys, monkeypatch, "quit\n", "mine/variants/calm.yaml", "--players", "human",
                        "--record", "r.txt")
    assert code == 0, err
    header = read_record(str(tmp_path / "r.txt")).header
    assert (header.path, header.variant) == ("mine/game.yaml", "mine/variants/calm.yaml")
    monkeypatch.chdir(tmp_path / "mine")
    code, out, err = play(capsys, monkeypatch, "quit\n", "--resume", tmp_path / "r.txt")
    assert code == 0, err
    assert "Fivefold (calm)" in out
