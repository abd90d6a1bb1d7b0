"""Which YAML file of a folder is the game, and what is said when none is."""
from __future__ import annotations

import shutil
from pathlib import Path

from interpreter.frontends.cli import main

BASE = Path(__file__).resolve().parents[1] / "broken" / "_base"


def _folder_with(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "havannah"
    folder.mkdir()
    shutil.copy(BASE / "game.rules", folder / "game.rules")
    for name in names:
        shutil.copy(BASE / "game.yaml", folder / name)
    return folder


def test_a_folder_of_several_yaml_files_lists_them(tmp_path, capsys):
    folder = _folder_with(tmp_path, "havannah5.yaml", "havannah4.yaml")
    assert main(["validate", str(folder)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (
        f"{folder}:1:1: error: no game definition in folder {folder} (expected havannah.yaml or "
        "game.yaml; it holds 2 YAML files: havannah4.yaml, havannah5.yaml)"), err
    assert f"hint: give one of them by its path, e.g. {folder / 'havannah4.yaml'}" in err[-1], err
    # ... and so it validates.
    assert main(["validate", str(folder / "havannah4.yaml")]) == 0


def test_a_long_list_is_cut(tmp_path, capsys):
    folder = _folder_with(tmp_path, *(f"size{n:02}.yaml" for n in range(11)))
    assert main(["validate", str(folder)]) == 1
    first = capsys.readouterr().err.splitlines()[0]
    assert first.endswith("it holds 11 YAML files: size00.yaml, size01.yaml, size02.yaml, size03.yaml, "
                          "size04.yaml, size05.yaml, size06.yaml, size07.yaml and 3 more)"), first


def test_a_folder_without_yaml_files(tmp_path, capsys):
    folder = _folder_with(tmp_path)
    assert main(["validate", str(folder)]) == 1
    first = capsys.readouterr().err.splitlines()[0]
    assert first == f"{folder}:1:1: error: no game definition in folder {folder} (expected havannah.yaml)"


def test_a_folder_of_one_yaml_file_is_that_game(tmp_path):
    folder = _folder_with(tmp_path, "size4.yaml")
    assert main(["validate", str(folder)]) == 0
