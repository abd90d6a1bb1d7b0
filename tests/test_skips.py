"""No test is skipped without saying why, and CI installs what the tests import.

Every skip names its reason (the run lists them: `-rs` in pyproject.toml); a
module a test skips without (`importorskip`) comes with an extra that `.ci/run`
installs (the bench extra too: python-chess checks positions in fast tests).
"""
from __future__ import annotations

import ast
import re

from tests.helpers import REPO

TESTS = REPO / "tests"
# module a test imports or skips -> the extra of pyproject.toml that installs it
EXTRA_OF = {"matplotlib": "analysis", "distributed": "cluster", "pexpect": "test", "hypothesis": "test",
            "pettingzoo": "rl", "numpy": "rl", "cairosvg": "rl", "pyspiel": "rl", "chess": "bench"}


def skip_calls():
    """(file:line, call) of every pytest skip in the tests."""
    for path in sorted(TESTS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = ast.unparse(node.func)
            if name in ("pytest.importorskip", "pytest.skip", "pytest.mark.skip", "pytest.mark.skipif"):
                yield f"{path.relative_to(REPO)}:{node.lineno}", name, node


def test_every_skip_says_why():
    silent = []
    for where, name, call in skip_calls():
        keywords = {k.arg for k in call.keywords}
        says = "reason" in keywords or (name == "pytest.skip" and call.args) or "msg" in keywords
        if not says:
            silent.append(f"{where}: {name} without a reason")
    assert not silent, silent


def test_the_run_lists_the_reasons():
    assert re.search(r'^addopts = ".*-rs', (REPO / "pyproject.toml").read_text(), re.MULTILINE)


def test_ci_installs_every_module_a_test_skips_without():
    installed = re.search(r'^EXTRAS="([a-z,]+)"$', (REPO / ".ci" / "run").read_text(), re.MULTILINE)
    assert installed, "the install line of .ci/run"
    extras = set(installed.group(1).split(","))
    for where, name, call in skip_calls():
        if name != "pytest.importorskip":
            continue
        module = ast.literal_eval(call.args[0])
        assert EXTRA_OF.get(module) in extras, f"{where}: {module} is not installed by .ci/run ({sorted(extras)})"
