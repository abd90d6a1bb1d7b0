"""Where a bare game name is looked up (docs/format.md 4, README "The regelwerk
command"): a bundled game's name is the bundled game, whatever the current folder
holds, and a variant's `extends` is found from the variant file, never from the
current folder — a record replays the same game from every directory."""
import shutil
from pathlib import Path

from interpreter import assets, load_game
from interpreter.frontends.cli import main
from interpreter.loading.definition import load_definition
from tests.helpers import REPO

MORRIS = REPO / "games" / "morris"
OWN = (MORRIS / "morris.yaml").resolve()  # the game of the variants in MORRIS / "variants"
BUNDLED = (assets.games_dir() / "morris" / "morris.yaml").resolve()  # the installed copy


def _local_morris(folder: Path) -> Path:
    """A game folder `morris` of its own (another title) in `folder`."""
    local = folder / "morris"
    shutil.copytree(MORRIS, local)
    yaml = local / "morris.yaml"
    yaml.write_text(yaml.read_text().replace("title: Nine men's morris\n", "title: My morris\n"))
    return local


def test_a_bundled_variant_extends_its_own_game_not_a_folder_here(tmp_path, monkeypatch):
    _local_morris(tmp_path)
    monkeypatch.chdir(tmp_path)
    # (read, not loaded: the tests' load_game keeps games of the repository's files)
    definition = load_definition(str(MORRIS / "variants" / "openspiel.yaml"))
    assert Path(definition.yaml_file).resolve() == OWN


def test_a_bundled_name_is_the_bundled_game_and_a_path_the_folder(tmp_path, monkeypatch):
    _local_morris(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert load_game("morris").title == "Nine men's morris"
    assert load_game("./morris").title == "My morris"
    assert load_game("morris/").title == "My morris"


def test_a_copied_game_folder_with_variants_extends_itself(tmp_path):
    # `extends: morris` in morris/variants/: the game folder it lies in, by that name.
    local = _local_morris(tmp_path)
    game = load_game(str(local / "variants" / "openspiel.yaml"))
    assert Path(game.definition.yaml_file).resolve() == (local / "morris.yaml").resolve()


def test_validate_and_show_say_which_copy_they_read(tmp_path, monkeypatch, capsys):
    _local_morris(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "morris", "./morris"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("morris: ok (Nine men's morris, 2 players; read from ")
    assert str(BUNDLED) in lines[0] and "name that ./morris" in lines[0]
    assert lines[1] == "./morris: ok (My morris, 2 players)"
    assert main(["show", "morris"]) == 0
    assert capsys.readouterr().out.startswith(f"# read from {BUNDLED} (the bundled game")
