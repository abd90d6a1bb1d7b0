"""Hints for the usual slips in a rules file, on the base game of the broken-definition
corpus with one line changed."""
import shutil
from pathlib import Path

import pytest

from interpreter.frontends.cli import main
from tests.helpers import write_definition

BASE = Path(__file__).resolve().parents[1] / "broken" / "_base"


_ELIF = "hint: a chained condition is written 'elif COND:' ('if C: ... elif D: ... else: ...', format.md 3.10)"


@pytest.mark.parametrize("old,new,first,hint", [
    # An effect written straight under the action, without a case.
    ("        onto empty: advance\n", "        advance\n",
     'game.rules:14:9: error: found "advance"',
     "hint: what an action does goes in a case under it: 'onto empty:', 'onto enemy:', 'over enemy:', 'off board:'"),
    ("        step ahead\n        onto empty: advance\n", "        step ahead\n        move\n",
     'game.rules:14:9: error: found "move"',
     "hint: what an action does goes in a case under it: 'onto empty:', 'onto enemy:', 'over enemy:', 'off board:'"),
    # A pass has no cases: a statement after a bare `pass` belongs in its block.
    ("        drop man from reserve on home[player]\n        onto empty: place\n",
     "        pass\n        place\n",
     'game.rules:22:9: error: found "place"',
     "hint: a pass has no cases: what it does goes in its block, 'pass:' with the statements on the same line "
     "or indented below it (format.md 3.5)"),
    ("        drop man from reserve on home[player]\n        onto empty: place\n",
     "        pass if no other action\n        then move\n",
     'game.rules:22:9: error: found "then"',
     "hint: a pass has no cases: what it does goes in its block, 'pass if no other action:' with"),
    # A condition on the pattern's line.
    ("        jump ahead\n", "        jump ahead where capture == \"jump\"\n",
     'game.rules:17:20: error: found "where"',
     "hint: 'where' cannot stand here; in an action, a 'where' condition has a line of its own"),
    # At the end of an action's line (a drop's sites), the condition's own line is the hint.
    ("        drop man from reserve on home[player]\n",
     "        drop man from reserve on home[player] where reserve[player] > 0\n",
     'game.rules:21:47: error: found "where"',
     "hint: 'where' cannot stand here; in an action, a 'where' condition has a line of its own"),
    # `where` after a set other than `pieces`, in an expression: what it filters, what to write.
    ("    quiet = 0\n", "    quiet = 0\n    if exists(neighbours(to) where it is man, true):\n        quiet = 1\n",
     'game.rules:39:30: error: found "where"',
     "hint: 'where' filters only 'pieces [of P]' (format.md 3.12.1); to test the elements of another set, give "
     "the condition to the function: 'exists(SET, COND)', 'count(SET, COND)', 'all(SET, COND)'"),
    # ... and at the end of a define's line, which is no action's.
    ("define in_goal = to in goal[player]\n",
     "define in_goal = to in goal[player]\ndefine near = neighbours(to) where it is man\n",
     'game.rules:4:30: error: found "where"',
     "hint: 'where' filters only 'pieces [of P]' (format.md 3.12.1)"),
    # A misspelt keyword read as a name: the error shows only at the next word.
    ("define in_goal = to in goal[player]\n",
     "define in_goal = to in goal[player]\nforbid landng where site in centre\n",
     'game.rules:4:15: error: found "where", expected ":"',
     'hint: did you mean "landing" instead of "landng" (4:8)?'),
    # One '=' where a comparison could stand, inside brackets: not the bracket's fault.
    ("    quiet = 0\n", "    quiet = 0\n    if exists(pieces of player, it.steps = quiet):\n        quiet = 1\n",
     'game.rules:39:42: error: found "=", expected ")" or ",", or an operator that goes on with the expression',
     "hint: did you mean '=='? '=' assigns a value; to compare, write '=='"),
    ("    quiet = 0\n", "    if exists(pieces of player,\n              it.steps = quiet):\n        quiet = 1\n",
     'game.rules:39:24: error: found "=", expected ")" or ",", or an operator that goes on with the expression',
     "hint: did you mean '=='? '=' assigns a value; to compare, write '=='"),
    # Division.
    ("    quiet = 0\n", "    quiet = quiet / 2\n",
     "game.rules:38:13: error: variables hold whole numbers; this value may have a fractional part (quiet / 2)",
     "hint: '/' is the exact quotient; '//' is the whole number below it (-7 // 2 is -4), '%' the remainder "
     "(format.md 3.12)"),
    # Another language's remainder, inside brackets: the word, not the bracket, is the slip.
    ("    quiet = 0\n", "    quiet = (quiet mod 2)\n",
     'game.rules:38:20: error: found "mod", expected "(", ")" or ",", or an operator that goes on with the expression',
     "hint: the remainder is written '%' (7 % 3 is 1; format.md 3.12)"),
    ("    quiet = 0\n", "    quiet = quiet div 2\n",
     'game.rules:38:19: error: found "div"',
     "hint: whole-number division is written '//' (7 // 2 is 3; format.md 3.12)"),
    # Another language's loop or function, read as a name at the start of a line.
    ("    quiet = 0\n", "    while quiet > 0:\n        quiet -= 1\n",
     'game.rules:38:11: error: found "quiet"',
     "hint: the rules language has no 'while': repeat a block with 'repeat N times:'"),
    ("    quiet = 0\n", "    loop:\n        quiet -= 1\n",
     'game.rules:38:9: error: found ":"',
     "hint: the rules language has no 'loop': use 'repeat N times:' or 'for each X in SET:' (format.md 3.10)"),
    ("    quiet = 0\n", "    def reset(x):\n        quiet = 0\n",
     'game.rules:38:9: error: found "reset"',
     "hint: a procedure is declared 'procedure NAME(A, B):' and a value 'define NAME = ...' (format.md 3.13)"),
    # A keyword run into the word after it (`if no actions`): the lexer reads the
    # keyword and the rest as two words, and the error shows at the rest.
    ("    after each turn:\n", "    if no actions:\n        draw\n    after each turn:\n",
     'game.rules:7:17: error: found "s", expected ":"',
     'hint: "actions" is no keyword here: it was read as "action" and "s"; did you mean "if no action"?'),
    # Where an expression may go on, its operators are one entry, after what may end it.
    ("    quiet = 0\n", "    quiet = 0\n    rotate [a1, b1, a2, b2] clockwize\n",
     'game.rules:39:29: error: found "clockwize", expected "anticlockwise" or "clockwise", or an operator that '
     'goes on with the expression',
     'hint: did you mean "clockwise"?'),
    # A chance event's outcomes as a range.
    ("    quiet = 0\n", "    quiet = 0\n\nchance roll:\n    outcomes 1..6\n    quiet = outcome\n",
     'game.rules:41:16: error: found ".", expected a name',
     "hint: a range of outcomes is written with 'to': 'outcomes 1 to 6'"),
    # A chance event has no `where`, after its outcomes or before them.
    ("    quiet = 0\n",
     "    quiet = 0\n\nchance roll:\n    outcomes 1 to 6\n    where quiet == 0\n    quiet = outcome\n",
     "game.rules:42:5: error: a chance event has no 'where'",
     "hint: test the condition where the event is started ('if C: then NAME'), or with 'if' in its "
     "statements (format.md 3.9)"),
    ("    quiet = 0\n", "    quiet = 0\n\nchance roll:\n    where quiet == 0  # only then\n    outcomes 1 to 6\n",
     "game.rules:41:5: error: a chance event has no 'where'",
     "hint: test the condition where the event is started"),
    # `pass` as an empty statement.
    ("    quiet = 0\n", "    if quiet == 0:\n        quiet = 1\n    else:\n        pass\n",
     "game.rules:41:9: error: unknown procedure or statement 'pass'",
     "hint: there is no empty statement ('pass' is an action): leave out an 'else:' that would do "
     "nothing; for an 'if' whose block would be empty, write 'if not C:' (format.md 3.10)"),
    # A statement's `for each` over numbers.
    ("    quiet = 0\n", "    for each i in [1, 2, 3]:\n        quiet += i\n",
     "game.rules:38:20: error: an element of a list must be a site or piece, found a number (1)",
     "hint: a statement's 'for each' walks sites, players or directions, or the whole numbers from A "
     "to B: 'for each i in 1 to 3:' (format.md 3.10); a list of numbers is for an action's 'for each'"),
    # A list of directions in an expression: a named set is what `exists` walks.
    ("    quiet = 0\n", "    if exists(d in [n, e], quiet == 0):\n        quiet = 1\n",
     "game.rules:38:21: error: an element of a list must be a site or piece, found a direction",
     "hint: a list in brackets holds sites; name a set of directions in the YAML (`directions: {axes: [e, n, ne, "
     "nw]}`) and write `d in axes`"),
    # A function that does not exist and is near none: the functions are listed, and
    # the defines with parameters.
    ("    quiet = 0\n", "    quiet = longest(pieces)\n",
     "game.rules:38:13: error: unknown function 'longest'",
     "hint: the functions: count, exists, all, sum, max, min, unique_max, abs, player_after, same_team, first, "
     "last, nth, neighbour, neighbours, ray, beyond, opposite, file, rank, connected, group, on_full_line, ahead, "
     "behind, along, steps_on (format.md 3.12.2)\n"),
    ("    quiet = 0\n    if in_goal:\n        win\n",
     "    quiet = longest(pieces) + steps(to)\n    if in_goal:\n        win\n\ndefine steps(s) = s.steps\n",
     "game.rules:38:13: error: unknown function 'longest'",
     "ahead, behind, along, steps_on (format.md 3.12.2); the defines with parameters: steps\n"),
    # A count of turns other systems have built in.
    ("    quiet = 0\n", "    quiet = ply\n", "game.rules:38:13: error: unknown name 'ply'",
     "hint: nothing counts turns or actions unless the rules do: declare a number variable (format.md 2.11) "
     "and add 1 to it in the phase's 'after each turn' or 'after each action' (3.3)"),
    # The direction a pattern is trying, in its action's 'where': it has a name only by 'for each'.
    ("        step ahead\n", "        step ahead\n        where count(ray(from, dir)) > 0\n",
     "game.rules:14:31: error: unknown name 'dir'",
     "hint: the direction the pattern is trying has no name; to name it, make the action once for each "
     "direction: 'action NAME for each d in DIRS:' with 'd' in the pattern ('leap d distance ...')"),
    # Another language's chained condition: after an 'if' block, and where no 'if' is before it.
    ("    quiet = 0\n", "    if quiet == 0:\n        quiet = 1\n    else if quiet == 1:\n        quiet = 2\n",
     'game.rules:40:10: error: found "if", expected ":"', _ELIF),
    ("    quiet = 0\n", "    if quiet == 0:\n        quiet = 1\n    elsif quiet == 1:\n        quiet = 2\n",
     'game.rules:40:11: error: found "quiet"', _ELIF),
    ("    quiet = 0\n", "    else if quiet == 1:\n        quiet = 2\n", 'game.rules:38:10: error: found "if"', _ELIF),
    # A distance given to `slide`, which goes as far as the way is free.
    ("        step ahead\n", "        slide ahead distance 2\n", 'game.rules:13:21: error: found "distance"',
     "hint: 'slide' goes as far as the way is free and takes no distance: `step DIRS distance A to B`"),
    # An expression where a pattern names its directions.
    ("        step ahead\n", "        step ahead, opposite(ahead)\n", 'game.rules:13:29: error: found "("',
     "hint: a pattern's directions are names: a direction, a set of directions (`directions:` in the YAML) "
     "or the D of `action NAME for each D in [...]` (format.md 3.4) — not an expression"),
    # `empty` read as a set of sites.
    ("        drop man from reserve on home[player]\n", "        drop man from reserve on empty\n",
     "game.rules:21:34: error: 'empty' is a test of a site, not a set of sites: write 'X is empty'",
     "hint: to place on empty sites, drop on `sites` (or a region) and let 'onto empty:' take them; "
     "to count them, `count(sites, it is empty)`"),
])
def test_hint(tmp_path, capsys, old, new, first, hint):
    err = _broken_base_says(tmp_path, capsys, old, new, first)
    assert hint in err, err


def _broken_base_says(tmp_path, capsys, old: str, new: str, first: str) -> str:
    """`validate` on the base game with `old` replaced by `new`: it fails, its first
    line holding `first`; the whole message."""
    shutil.copytree(BASE, tmp_path / "game")
    rules = tmp_path / "game" / "game.rules"
    text = rules.read_text()
    assert old in text
    rules.write_text(text.replace(old, new, 1))
    assert main(["validate", str(tmp_path / "game")]) == 1
    err = capsys.readouterr().err
    assert first in err.splitlines()[0], err
    return err


def test_a_site_joined_to_a_set_and_no_error_after_it(tmp_path, capsys):
    # `X + ray(...)` with X a site: the set needs a list, [X]. The `let` that failed
    # is reported once: its uses below are not "unknown names" on top of it.
    shutil.copytree(BASE, tmp_path / "game")
    rules = tmp_path / "game" / "game.rules"
    text = rules.read_text()
    old = "procedure take:\n    remove jumped\n"
    assert old in text
    rules.write_text(text.replace(old, old + "    let passed = jumped + ray(jumped, n)\n"
                                         "    if count(passed) > 1:\n        quiet = 0\n", 1))
    assert main(["validate", str(tmp_path / "game")]) == 1
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if ": error: " in line]
    assert len(lines) == 1 and lines[0].endswith(
        "game.rules:36:18: error: the left side of '+' is a site, and '+' joins sets of sites"), err
    assert "hint: a list makes a set of it: [X] + ... (format.md 3.12.1)" in err


@pytest.mark.parametrize("outcomes,uses,first,hint", [
    # A set of sites that depends on the position: the outcome is still a site below.
    ("sites - pieces", "    if outcome is empty:\n        quiet = 1\n",
     "game.rules:43:14: error: outcomes must be fixed values (numbers, strings, players, sites or fixed sets "
     "of them), the same in every position",
     "hint: to draw one site of a set as the position stands, each as likely, write 'outcomes one of SET' "
     "(e.g. 'outcomes one of sites - pieces', format.md 3.9)"),
    ("1 to count(sites, it is empty)", "    quiet = outcome\n",
     "game.rules:43:19: error: outcome ranges need fixed numbers (or number options), e.g. 'outcomes 1 to 6': "
     "a chance event's outcomes are the same in every position",
     "hint: outcomes cannot depend on the position: draw from fixed ones and act on the one drawn, "
     "e.g. 'outcomes sites', then 'if outcome is empty:' ... 'else: then spawn' to draw again "
     "(the redraws are in the record); for exact odds, one event per count of what is left, "
     "its outcome an index into it; a site of a set as the position stands: 'outcomes one of SET' "
     "(format.md 3.9)"),
])
def test_outcomes_that_depend_on_the_position_one_error(tmp_path, capsys, outcomes, uses, first, hint):
    # One error at the outcomes line: not "chance 'spawn' has no outcome" before it,
    # nor a statement reading the outcome as a number after it.
    shutil.copytree(BASE, tmp_path / "game")
    rules = tmp_path / "game" / "game.rules"
    text = rules.read_text()
    rules.write_text(text + f"\nchance spawn:\n    outcomes {outcomes}\n" + uses)
    assert main(["validate", str(tmp_path / "game")]) == 1
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if ": error: " in line]
    assert len(lines) == 1 and lines[0].endswith(first), err
    assert hint in err, err


PLACING_YAML = ("game: g\ntitle: G\nrules: game.rules\nplayers: [a, b, c]\n"
                "in_play: {option: players, choices: {2: [a, b], 3: [a, b, c]}}\n"
                "options:\n  players: {values: [2, 3], default: 3}\n"
                "board:\n  grid: {files: 3, ranks: 3}\npieces:\n  stone: {symbol: S}\n")
PLACING_RULES = ("phase play:\n    turn: place\ndecision place:\n    action stone:\n        drop stone on sites\n"
                 "        onto empty:\n            place\n")


@pytest.mark.parametrize("line, error, hint", [
    # an option hidden by a built-in name
    ("            if players - 1 > 0:\n                place\n",
     "game.rules:8:16: error: the left side of '-' must be a number, found a set of players",
     "hint: in the rules 'players' is built in (a set of players), not the option 'players': "
     "count(players) is how many play; give the option another name to read it"),
    ("            if players == 3:\n                place\n",
     "game.rules:8:16: error: cannot compare a set of players with a number (3)",
     "hint: in the rules 'players' is built in (a set of players), not the option 'players': "
     "count(players) is how many play; give the option another name to read it"),
    # a statement word called like a procedure
    ("            give(1, 0)\n", 'game.rules:8:17: error: found "("',
     'hint: "give" at the start of a statement is a word of the rules language, not a name: a procedure '
     "named so cannot be called (format.md 3.1); give it another name"),
])
def test_a_name_the_language_reads_otherwise(tmp_path, capsys, line, error, hint):
    write_definition(tmp_path, PLACING_YAML, PLACING_RULES + line)
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert error in err and hint in err, err


@pytest.mark.parametrize("old,new,first,offset_hint", [
    # an expression left out: no word about offsets ('-' starts an expression too)
    ("        if quiet >= limit:\n", "        if quiet >=:\n", 'game.rules:8:20: error: found ":"', False),
    ("        step ahead\n", "        leap (1, )\n", 'game.rules:13:18: error: found ")"', True),
])
def test_the_offset_hint_only_in_an_offset(tmp_path, capsys, old, new, first, offset_hint):
    err = _broken_base_says(tmp_path, capsys, old, new, first)
    assert ("hint: an offset is two whole numbers, (dx, dy)" in err) is offset_hint, err
