"""docs/tutorial.md: its snippets are run, its claims checked, its game played.

The tutorial marks its code blocks with HTML comments (invisible when rendered):

* ``<!-- file: PATH -->``: the block is the content of PATH (relative to the
  reader's working folder); it is written there, in the order of the text. Files
  under ``breakthrough/`` must end up identical to docs/tutorial/breakthrough/.
* ``<!-- fragment: PATH -->``: a part of the finished PATH (it must occur in it);
  after the fragments, the working folder holds the finished game.
* ``<!-- run[: SETUP][; excerpt] -->``: a console block; every ``$ regelwerk ...``
  line is run and its output compared with the text (timings aside). SETUP names
  a temporary edit described in the prose; ``excerpt``: the text shows parts of
  the output, ``...`` standing for lines left out.
"""

from __future__ import annotations

import random
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from interpreter import DefinitionError, load_game
from interpreter.analysis.perft import perft
from interpreter.frontends import cli
from tests.helpers import REPO as ROOT

TUTORIAL = ROOT / "docs" / "tutorial.md"
FINISHED = ROOT / "docs" / "tutorial" / "breakthrough"

BLOCK = re.compile(r"<!-- (file|fragment|run)(?::\s*([^>]*?))?\s*-->\n```[a-z]*\n(.*?)```\n", re.S)
TIMING = re.compile(r"\(\d+\.\d+ s")

# The temporary edits the prose describes before a console block: replacements
# in the rules file, or "first-version": the rules as first written.
SETUPS = {
    "broken": [("step forward_diagonal\n", "step forward_diagonals\n"), ("if to in goal[player]:", "if to in goal:")],
    "first-version": None,
}


def blocks():
    text = TUTORIAL.read_text(encoding="utf-8")
    return [(m.group(1), (m.group(2) or "").strip(), m.group(3)) for m in BLOCK.finditer(text)]


def normalise(lines):
    return [TIMING.sub("(T s", line.rstrip()) for line in lines]


def commands(body):
    """[(argv, expected output lines)] of a console block."""
    out = []
    for line in body.splitlines():
        if line.startswith("$ "):
            argv = shlex.split(line[2:])
            assert argv[0] == "regelwerk", line
            out.append((argv[1:], []))
        else:
            out[-1][1].append(line)
    return out


def matches(expected, actual, excerpt):
    if not excerpt:
        return expected == actual
    # chunks between '...' lines appear in order, each as consecutive lines
    chunks, chunk = [], []
    for line in expected + ["..."]:
        if line == "...":
            if chunk:
                chunks.append(chunk)
            chunk = []
        else:
            chunk.append(line)
    i = 0
    for chunk in chunks:
        while i + len(chunk) <= len(actual) and actual[i:i + len(chunk)] != chunk:
            i += 1
        if i + len(chunk) > len(actual):
            return False
        i += len(chunk)
    return True


def test_every_snippet(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    written = {}
    first_rules = None
    fragments_done = False
    runs = 0
    for kind, arg, body in blocks():
        if kind == "file":
            path = tmp_path / arg
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(body, encoding="utf-8")
            written[arg] = body
            if arg == "breakthrough/breakthrough.rules" and first_rules is None:
                first_rules = body
        elif kind == "fragment":
            finished = (FINISHED.parent / arg).read_text(encoding="utf-8")
            assert body in finished, f"fragment of {arg} not in the finished file"
            if not fragments_done:
                # the reader has now edited the files into their finished form
                for name in ("breakthrough.yaml", "breakthrough.rules"):
                    shutil.copy(FINISHED / name, tmp_path / "breakthrough" / name)
                fragments_done = True
        else:
            setup, _, mode = arg.partition(";")
            setup, excerpt = setup.strip(), "excerpt" in (mode.strip(), setup)
            if setup == "excerpt":
                setup = ""
            rules = tmp_path / "breakthrough" / "breakthrough.rules"
            original = rules.read_text(encoding="utf-8")
            assert not setup or setup in SETUPS, setup
            edited = original if setup != "first-version" else first_rules
            for old, new in SETUPS.get(setup) or []:
                assert old in edited, (setup, old)
                edited = edited.replace(old, new)
            rules.write_text(edited, encoding="utf-8")
            try:
                for argv, expected in commands(body):
                    cli.main(argv)
                    out, err = capsys.readouterr()
                    actual_lines = [normalise((err + out).splitlines()), normalise((out + err).splitlines())]
                    assert any(matches(normalise(expected), a, excerpt) for a in actual_lines), (
                        f"regelwerk {' '.join(argv)}\n--- expected\n" + "\n".join(expected)
                        + "\n--- actual\n" + err + out)
                    runs += 1
            finally:
                rules.write_text(original, encoding="utf-8")
    assert runs >= 10 and fragments_done
    # the files of the text are the finished files
    for name, body in written.items():
        if name.startswith("breakthrough/"):
            assert (FINISHED.parent / name).read_text(encoding="utf-8") == body, name
    finished = sorted(str(p.relative_to(FINISHED.parent)) for p in FINISHED.rglob("*") if p.is_file())
    assert finished == sorted(n for n in written if n.startswith("breakthrough/"))


# ------------------------------------------------------------------ the finished game
GAME = load_game(str(FINISHED))


def test_random_games_end_with_a_winner():
    rng = random.Random(3)
    for _ in range(20):
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            s = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
        assert GAME.result(s).winner in GAME.players  # Breakthrough has no draw
        assert s.ply <= 2 * 16 * 7  # every move goes forward


def test_perft_as_quoted():
    assert perft(GAME, GAME.initial_state(), 3) == [22, 484, 11132]


def test_rules_as_described():
    pawns = lambda d: {s: (o, "pawn") for s, o in d.items()}  # noqa: E731
    s = GAME.make_state(pawns({"d4": "white", "d5": "black", "c5": "black", "a8": "black"}))
    # straight ahead is blocked; the capture is diagonal only
    assert GAME.legal_notations(s) == ["d4-e5", "d4xc5"]
    s = GAME.make_state(pawns({"d7": "white", "a8": "black"}))
    assert GAME.result(GAME.apply(s, "d7-d8")).winner == "white"
    # white's last piece is captured: white cannot move and loses
    s = GAME.make_state(pawns({"d4": "white", "c5": "black", "a8": "black"}), to_move="black")
    t = GAME.apply(s, "c5xd4")
    assert GAME.legal_notations(t) == [] and GAME.result(t).winner == "black"


def test_option_goal_pieces():
    g = load_game(str(FINISHED), options={"goal_pieces": "2"})
    s = g.make_state({"d7": ("white", "pawn"), "a7": ("white", "pawn"), "h6": ("black", "pawn")})
    t = g.apply(s, "d7-d8")
    assert not g.is_terminal(t)
    t = g.apply(g.apply(t, "h6-h5"), "a7-a8")
    assert g.result(t).winner == "white"
    with pytest.raises(DefinitionError):
        load_game(str(FINISHED), options={"goal_pieces": "0"})


def test_variants_as_described():
    straight = load_game(str(FINISHED / "variants" / "straight-capture.yaml"))
    assert straight.options["goal_pieces"] == 2
    assert straight.title == "Breakthrough (straight captures)"
    pieces = {"d4": ("white", "pawn"), "d5": ("black", "pawn"), "a8": ("black", "pawn")}
    assert straight.legal_notations(straight.make_state(pieces)) == ["d4-c5", "d4-e5", "d4xd5"]
    assert GAME.legal_notations(GAME.make_state(pieces)) == ["d4-c5", "d4-e5"]
    # the same through --variant on top of the game
    same = load_game(str(FINISHED), variant=str(FINISHED / "variants" / "straight-capture.yaml"))
    assert same.legal_notations(same.make_state(pieces)) == ["d4-c5", "d4-e5", "d4xd5"]
    diagonal = load_game(str(FINISHED / "variants" / "diagonal.yaml"))
    assert perft(diagonal, diagonal.initial_state(), 2) == [14, 196]
    assert all(a[0] != a[3] for a in diagonal.legal_notations(diagonal.initial_state()))


def test_playing_in_the_terminal(tmp_path):
    record = tmp_path / "game.txt"
    run = subprocess.run(
        [sys.executable, "-m", "interpreter", "play", str(FINISHED), "--players", "human,random",
         "--seed", "1", "--record", str(record)],
        input="?\nd2-d3\nhelp\nquit\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    out = run.stdout
    assert run.returncode == 0, run.stderr
    assert "white: upper case, black: lower case" in out and "3  .  .  . [P] .  .  .  .  3" in out
    assert all(m in out for m in ("a2-a3", "h2-h3", "d2-e3"))  # '?' lists the legal moves
    assert all(word in out for word in ("undo", "quit"))  # 'help' tells about them
    moves = [w for line in record.read_text().splitlines() if not line.startswith("#") for w in line.split()]
    assert moves[0] == "d2-d3" and len(moves) == 2  # White's move and the random reply
