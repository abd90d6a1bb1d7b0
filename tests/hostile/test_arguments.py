"""Command-line arguments out of all proportion: refused with the bound, or cut to it."""
from __future__ import annotations

import pytest

from interpreter.frontends import match
from interpreter.frontends.agents import make_agent

from .conftest import assert_clean, run_cli

HUGE = "9" * 5000


@pytest.mark.parametrize("argv, bound", [
    (["perft", "lielow", "--depth", "99"], "at most 30"),
    (["bench", "lielow", "--playouts", "99999999999"], "at most 1000000"),
    (["lint", "lielow", "--max-plies", HUGE], "expected a whole number"),
    (["match", "lielow", "--games", "10000000"], "at most 1000000"),
    (["match", "lielow", "--max-plies", "200000"], "at most 100000"),
    (["bench", "lielow", "--warm-up", "1e300"], "from 0 to 60"),
    (["bench", "lielow", "--warm-up", "nan"], "from 0 to 60"),
    (["bench", "lielow", "--warm-up", "-1"], "from 0 to 60"),
    (["bench", "lielow", "--warm-up", "soon"], "expected a number of seconds"),
])
def test_counts_beyond_their_bound(capsys, argv, bound):
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and bound in err and len(err) < 700, err  # argparse's usage error


@pytest.mark.parametrize("spec, message", [
    ("mcts:1000000000", "the number of iterations is at most 1000000"),
    ("mcts:5000s", "the thinking time in seconds is at most 3600"),
    ("mcts:c=1e300", "the exploration constant c is at most 100"),
    ("mcts:c=-1", "the exploration constant c is at least 0, here it is -1"),
    ("mcts:rollout=99999999", "the length of a rollout is at most 100000"),
])
def test_agent_parameters_beyond_their_bound(capsys, spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec)
    code, _, err = run_cli(capsys, "match", "lielow", "--players", f"{spec},random")
    assert_clean(code, err)
    assert message in err


def test_jobs_are_cut_to_the_processors(capsys, monkeypatch):
    monkeypatch.setattr(match, "available_processors", lambda: 1)
    code, out, err = run_cli(capsys, "match", "lielow", "--players", "random", "--games", "2", "--jobs", "500")
    assert code == 0, err
    assert "note: --jobs 500 is more than the 1 processors here; using 1" in err
    assert match.capped_jobs(1) == (1, None)


def test_a_huge_seed_or_path_is_not_echoed_whole(capsys):
    code, _, err = run_cli(capsys, "bench", "lielow", "--seed", HUGE)
    assert code == 2 and len(err) < 700
    code, _, err = run_cli(capsys, "validate", "x" * 5000)
    assert_clean(code, err)
    assert len(err) < 1000
    code, _, err = run_cli(capsys, "replay", "lielow", "x" * 5000)
    assert_clean(code, err)


@pytest.mark.parametrize("argv", [
    ["perft", "lielow", "--depth", "1\x1b[2J"],
    ["moves", "lielow", "--bogus", "\x1b]0;title\x07"],
    ["moves", "lielow", "--option", "noeq\u202e"],
])
def test_usage_errors_show_what_was_typed_fit_to_print(capsys, argv):
    code, _, err = run_cli(capsys, *argv)
    assert code == 2
    assert not any(ord(c) < 32 and c != "\n" or c in "\x7f\u202e" for c in err), repr(err)
    assert "?" in err.splitlines()[-1]


@pytest.mark.parametrize("typed, first_line", [
    ("limit=\u0661\u0662", "--option:1:1: error: option 'limit' takes a whole number, not '\u0661\u0662'"),
    ("limit=1_000", "--option:1:1: error: option 'limit' takes a whole number, not '1_000'"),
    ("limit=" + "9" * 5000, "--option:1:1: error: option 'limit' must lie between -1000000000 and 1000000000"),
    ("limit=" + "0" * 5000 + "7", None),  # (seven, however many zeros come first)
])
def test_a_whole_number_option_is_read_from_digits_0_to_9(capsys, base_game, typed, first_line):
    code, _, err = run_cli(capsys, "moves", base_game, "--option", typed)
    if first_line is None:
        assert code == 0, err
    else:
        assert_clean(code, err)
        assert err.splitlines()[0] == first_line


def test_a_decimal_option_is_read_from_digits_0_to_9():
    from fractions import Fraction

    from interpreter.loading.options import Option, parse_option_value

    komi = Option("komi", "decimal", Fraction(15, 2), None, 0, 100, "")
    assert parse_option_value(komi, "6.5") == Fraction(13, 2)
    with pytest.raises(ValueError, match="option 'komi' takes a number with at most 6 digits after the point, "
                                         "such as 7.5, not '\u0667.\u0665'"):
        parse_option_value(komi, "\u0667.\u0665")
