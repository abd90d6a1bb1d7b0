"""A whole game in a real terminal (a pseudo-terminal driven by pexpect): the
prompt, the board after each move, the game-over screen with its review and a
rematch, and the exit status."""
from __future__ import annotations

import os
import signal
import sys

import pytest

pexpect = pytest.importorskip("pexpect", reason="the terminal is driven by pexpect: the test extra")

# White loses at ply 5: a2-b3 makes b3 White's king, b3-off takes it off the board.
MOVES = ["a2-b3", "c7-d6", "b2-c3", "g7-f6"]


@pytest.fixture
def terminal(tmp_path):
    env = dict(os.environ, NO_COLOR="1", XDG_DATA_HOME=str(tmp_path / "data"), TERM="xterm")
    # Ctrl-C as in a terminal, even where the tests run with it ignored (a background
    # job of a shell script, as in .ci/run: an ignored SIGINT stays ignored in children).
    child = pexpect.spawn(sys.executable, ["-m", "interpreter", "play", "lielow", "--players", "human,human",
                                           "--seed", "1", "--record", str(tmp_path / "game.txt")],
                          env=env, encoding="utf-8", dimensions=(24, 80), timeout=30,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    yield child
    child.close(force=True)


def test_a_whole_game_in_a_terminal(terminal, tmp_path):
    child = terminal
    child.expect_exact("Lielow | ply 0 | phase play | white to move")
    for move in MOVES:
        child.expect(r"(white|black) \[move\]> ")
        child.sendline(move)
    child.expect_exact("white [move]> ")
    child.sendline("b3-off")
    # The game-over screen: the result, the rule that ended it, what may follow.
    child.expect_exact("game over: black wins (white 0, black 1)")
    child.expect_exact("the rule that ended it: lose (")
    child.expect_exact("next: review, undo, rematch, swap, new [GAME] or quit")
    child.expect_exact("game over> ")
    child.sendline("review")
    child.expect_exact("ply 5 of 5: white played b3-off")
    child.sendline("p")
    child.expect_exact("ply 4 of 5: black played g7-f6")
    child.sendline("q")
    child.expect_exact("game over> ")
    child.sendline("undo")  # back into the game: white's b3-off is taken back
    child.expect_exact("back to ply 4")
    child.expect_exact("white [move]> ")
    child.sendline("b3-d5")
    child.expect_exact("5. white: b3-d5")
    child.expect_exact("black [move]> ")
    child.sendline("quit")
    child.expect_exact("continue it with: regelwerk play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert (tmp_path / "game.txt").read_text().split("\n")[-6:-1] == MOVES + ["b3-d5"]


def test_a_rematch_with_swapped_seats(terminal):
    child = terminal
    for move in MOVES + ["b3-off"]:
        child.expect(r"\[move\]> ")
        child.sendline(move)
    child.expect_exact("game over> ")
    child.sendline("swap")
    child.expect_exact("Lielow: white = human, black = human; seed 2")  # the next seed, a new record
    child.expect_exact("white [move]> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_says_how_to_resume(terminal):
    child = terminal
    child.expect_exact("white [move]> ")
    child.sendline("d2-d3")
    child.expect_exact("black [move]> ")
    child.sendintr()
    child.expect_exact("interrupted; the game is saved in")
    child.expect_exact("continue it with: regelwerk play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
