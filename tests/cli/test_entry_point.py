"""The command as a separate process: what `regelwerk` (the installed script) runs."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.helpers import REPO


def test_module_entry_point(tmp_path):
    (tmp_path / "game.txt").write_text("d2-d3\ne7-e6\na2-a5\n")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("REGELWERK_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-m", "interpreter.frontends.cli", "replay", "lielow", "game.txt", "--json"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2
    assert [json.loads(line)["ply"] for line in done.stdout.splitlines()] == [0, 1, 2]
    assert done.stderr == (
        "game.txt:3:1: error: lielow: ply 3: action 'a2-a5' is not legal here "
        "(legal at ply 3: a2-a1 a2-a3 a2-b1 a2-b3 a2-off b2-a1 b2-a3 b2-b1 b2-b3 b2-c1 b2-c3 c2-b1 ...)\n"
    )
