"""`regelwerk analyze`: the table, JSON, the HTML report, diagnostics, Ctrl-C."""
import json
import shlex
import sys
import xml.etree.ElementTree as ET

import pytest

from interpreter.frontends.cli import main
from tests.helpers import REPO

from .helpers import COIN, DASH, DATA

HEAD_START = str(DATA / "dash" / "variants" / "head-start.yaml")


def test_the_table_fits_100_columns(capsys):
    argv = ["analyze", DASH, "--games", "5", "--variant", HEAD_START, "--variant", HEAD_START,
            "--variant", HEAD_START, "--seed", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    # (the legend's lines name the variants' files, as long as the folder the
    # repository is in: only the table must fit)
    table = [line for line in out.splitlines() if "--variant " not in line]
    assert max(len(line) for line in table) <= 100
    # Three columns after the base do not fit: two blocks, the base in each.
    assert sum(line.startswith("metric ") for line in out.splitlines()) == 2
    assert "head-start#3" in out and "length (plies)" in out and "-2*" in out
    assert "dash.rules:19:9: never fired in any game:" in out and "case action 'step', onto enemy" in out


def test_json_report(capsys):
    assert main(["analyze", COIN, "--games", "20", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "coin" and data["games"] == 20 and data["seed"] == 1
    assert [c["label"] for c in data["columns"]] == ["base"]
    assert len(data["columns"][0]["plies_per_game"]) == 20
    plies = next(m for m in data["metrics"] if m["key"] == "plies")["columns"]["base"]
    assert set(plies) == {"value", "n", "kind", "ci95"} and plies["n"] == 20


def test_compare_makes_one_column_per_option_set(capsys):
    assert main(["analyze", "regibus", "--games", "2", "--compare", "capture=top,capture=whole", "--json",
                 "--trace-every", "0"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["label"] for c in data["columns"]] == ["base", "capture=top", "capture=whole"]
    assert data["columns"][2]["options"] == {"capture": "whole"}


@pytest.mark.parametrize("argv, message", [
    (["--variant", "tests/analysis/data/dash/missing.yaml"], "missing.yaml:1:1: error:"),
    (["--option", "speed=3"], "--option:1:1: error: dash has no option 'speed'"),
    (["--compare", "speed=3"], "--compare:1:1: error: dash has no option 'speed'"),
    (["--compare", "speed"], "regelwerk: --compare: expected NAME=VALUE"),
    (["--players", "mcst:3"], "regelwerk: --players: unknown agent 'mcst:3'"),
])
def test_bad_input_is_a_located_diagnostic(capsys, argv, message):
    assert main(["analyze", DASH, "--games", "2"] + argv) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_ctrl_c_prints_what_was_measured(capsys, monkeypatch):
    from interpreter.analysis.analyze import runner

    real = runner.run_task
    calls = [0]

    def run_then_interrupt(task):
        calls[0] += 1
        if calls[0] == 3:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(runner, "run_task", run_then_interrupt)
    assert main(["analyze", DASH, "--games", "200", "--seed", "1"]) == 130
    captured = capsys.readouterr()
    assert "INTERRUPTED: only part of the games were measured (base 64)" in captured.out  # 2 runs of 32
    assert "length (plies)" in captured.out and "interrupted" in captured.err


def test_html_report(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="--report draws with matplotlib: the analysis extra "
                        "(pip install -e '.[analysis]'; .ci/run installs it)")
    folder = tmp_path / "report"
    assert main(["analyze", DASH, "--variant", HEAD_START, "--games", "4", "--report", str(folder)]) == 0
    page = (folder / "index.html").read_text()
    for picture in ("lengths.svg", "seats.svg", "coverage.svg", "heat-0.svg", "heat-1.svg", "heat-scale.svg"):
        assert (folder / picture).is_file() and picture in page
    assert not list(folder.glob("heat-*-scale.svg"))  # one colour scale for the whole comparison
    heat = ET.parse(folder / "heat-0.svg").getroot()
    texts = {e.get("class"): e for e in heat.iter() if e.tag.endswith("text")}
    # Titled, with the number of each site on it, and nothing of a position's legend.
    assert texts["caption"].text == "base: landings per game (1 traced game)"  # one game in 16 is traced
    numbers = {e.get("data-site"): e.text for e in heat.iter() if e.get("class") == "heat-number"}
    assert numbers == {"a1": "0", "b1": "0", "a2": "1.0", "b2": "1.0", "a3": "1.0", "b3": "0"}
    assert "legend" not in texts and "pieces:" not in (folder / "heat-0.svg").read_text()
    fills = {e.get("data-site"): e.get("fill") for e in heat.iter() if e.tag.endswith("rect") and e.get("data-site")}
    assert fills["a2"] != fills["b1"]  # landed on (a2) differs from never (b1)
    # Head start: the runner lands on a3 only, once a game, on the same scale as the base's.
    other = ET.parse(folder / "heat-1.svg").getroot()
    other_fills = {e.get("data-site"): e.get("fill") for e in other.iter() if e.tag.endswith("rect")
                   and e.get("data-site")}
    assert other_fills["a3"] == fills["a3"] and other_fills["a2"] == fills["b1"]
    assert "a2: landed on 1 times per game" in (folder / "heat-0.svg").read_text()
    assert "head-start" in page and "never" in page


def test_the_report_without_matplotlib_says_how_to_install_it_here(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` fails
    assert main(["analyze", DASH, "--games", "1", "--report", str(tmp_path / "r")]) == 1
    err = capsys.readouterr().err
    command = err.strip().rpartition(": ")[2]
    # Run from this checkout: this Python's pip installs the checkout with the extra.
    assert shlex.split(command) == [sys.executable, "-m", "pip", "install", "-e", f"{REPO}[analysis]"]
    assert 'analysis = ["matplotlib' in (REPO / "pyproject.toml").read_text()
    assert not (tmp_path / "r").exists()


def test_an_installed_copy_is_told_the_package_by_name(monkeypatch, tmp_path):
    from interpreter import assets

    monkeypatch.setattr(assets, "_SOURCE_ROOT", tmp_path)  # as in site-packages: no checkout around it
    assert shlex.split(assets.install_command("cluster")) == [sys.executable, "-m", "pip", "install",
                                                              "regelwerk[cluster]"]
