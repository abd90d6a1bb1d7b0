"""The two examples of docs/rl.md run as written."""
from __future__ import annotations

import ast
import re

import pytest

from tests.helpers import REPO

EXAMPLES = re.findall(r"```python\n(.*?)```", (REPO / "docs" / "rl.md").read_text(), re.S)


def test_the_page_has_its_two_examples_of_ten_lines_or_so():
    assert len(EXAMPLES) == 2
    assert all(len(code.splitlines()) <= 15 for code in EXAMPLES)


def test_the_random_agent_loop(capsys):
    pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs the rl extra")
    exec(compile(EXAMPLES[0], "docs/rl.md", "exec"), {})
    assert "Result(winner=" in capsys.readouterr().out


def test_openspiel_mcts_against_regelwerk_mcts(capsys):
    pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the rl extra (open_spiel)")
    exec(compile(EXAMPLES[1], "docs/rl.md", "exec"), {})
    returns = ast.literal_eval(capsys.readouterr().out.strip().splitlines()[-1])
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
