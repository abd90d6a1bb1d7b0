"""`play the longest turn[, then the highest|lowest EXPR]`, `action NAME for each D
in [...]` and values in notations (docs/format.md 3.4, 3.8) on hand-built
positions of a small dice race: a turn of two moves, one per die."""
import random
import textwrap

import pytest

from interpreter import load_game
from interpreter.frontends.cli import main

YAML = """\
game: race
title: Race
description: Two dice, two moves.
rules: game.rules
players:
  - {{name: white}}
  - {{name: black}}
board:
  grid: {{files: {files}, ranks: 1}}
pieces:
  man: {{symbol: M}}
variables:
  hi: {{default: {hi}}}
  lo: {{default: {lo}}}
  pips: {{}}
options:
  bonus: {{type: int, default: 7}}
setup:
{setup}
"""
RULES = """\
phase play:
    turn: move, move
    after each turn:
        pips = 0

decision move:
    {longest}
    action run by man for each d in [hi, lo]:
        where d > 0
        leap e distance d
        notation "{{from}}-{{to}}"
        onto empty:
            move
            pips += d
            if hi == d:
                hi = 0
            else:
                lo = 0
        off board:
            notation "{{from}}-off:{{d}}"
            remove piece
            pips += d
            if hi == d:
                hi = 0
            else:
                lo = 0
    action stuck:
        pass if no other action
"""


# The same without bearing off: a man that reaches the end stays there.
ON_BOARD = RULES[:RULES.index("        off board:")] + RULES[RULES.index("    action stuck:"):]


def make(tmp_path, setup: str, hi: int, lo: int, files: int = 6, longest: str = "play the longest turn",
         rules: str = RULES):
    (tmp_path / "game.yaml").write_text(YAML.format(files=files, hi=hi, lo=lo, setup=textwrap.indent(setup, "  ")))
    (tmp_path / "game.rules").write_text(rules.format(longest=longest))
    return load_game(str(tmp_path))


def legal(game, state=None) -> list[str]:
    return sorted(game.legal_notations(state if state is not None else game.initial_state()))


BLOCKED = "white:\n  man: [a1, d1]\nblack:\n  man: [c1, g1]\n"


def test_only_the_actions_that_begin_the_longest_turn(tmp_path):
    # hi 2, lo 1: a1-b1 (then d1-f1) and d1-f1 (then a1-b1) play both dice; d1-e1
    # leaves the high die unplayable (a1-c1 and e1-g1 land on black men).
    game = make(tmp_path, BLOCKED, 2, 1, files=7)
    assert legal(game) == ["a1-b1", "d1-f1"]
    without = make(tmp_path, BLOCKED, 2, 1, files=7, longest="")
    assert legal(without) == ["a1-b1", "d1-e1", "d1-f1"]


def test_the_second_decision_keeps_what_the_first_left(tmp_path):
    game = make(tmp_path, BLOCKED, 2, 1, files=7)
    state = game.apply(game.initial_state(), "d1-f1")
    assert legal(game, state) == ["a1-b1"]


def test_when_no_way_plays_both_dice_the_tie_break_decides(tmp_path):
    # One man on d1 of six files: d1-f1 (hi) or d1-e1 (lo), the other die never
    # after: the higher pips win; with `lowest`, the lower.
    setup = "white:\n  man: [d1]\n"
    game = make(tmp_path, setup, 2, 1, longest="play the longest turn, then the highest pips", rules=ON_BOARD)
    assert legal(game) == ["d1-f1"]
    game = make(tmp_path, setup, 2, 1, longest="play the longest turn, then the lowest pips", rules=ON_BOARD)
    assert legal(game) == ["d1-e1"]
    game = make(tmp_path, setup, 2, 1, rules=ON_BOARD)
    assert legal(game) == ["d1-e1", "d1-f1"]


def test_ways_that_play_the_whole_turn_are_not_compared_by_the_tie_break(tmp_path):
    # Both orders play both dice (pips 3 either way): both kept.
    game = make(tmp_path, "white:\n  man: [a1]\n", 2, 1, longest="play the longest turn, then the lowest pips")
    assert legal(game) == ["a1-b1", "a1-c1"]


def test_a_pass_with_statements_is_a_pass_for_the_length(tmp_path):
    # A pass that does something (`pass: ...`) is still no move: waiting, then
    # moving plays one die where a1-b1 or a1-c1 and the other die play two.
    rules = ON_BOARD.replace("    action stuck:\n        pass if no other action\n",
                             '    action wait:\n        pass: pips += 10\n        notation "wait"\n')
    game = make(tmp_path, "white:\n  man: [a1]\n", 2, 1, rules=rules)
    assert legal(game) == ["a1-b1", "a1-c1"]
    # One man on f1, the last file: no die can be played, the pass is the turn.
    game = make(tmp_path, "white:\n  man: [f1]\n", 2, 1, rules=rules)
    assert legal(game) == ["wait"]
    assert game.variables(game.apply(game.initial_state(), "wait"))["pips"] == 10


def test_a_value_met_before_is_skipped_and_values_show_in_notations(tmp_path):
    # Doubles: one action per site, not two; bearing off shows the die.
    game = make(tmp_path, "white:\n  man: [e1]\n", 2, 2)
    codes = game.engine.legal(game.initial_state())
    assert [game.engine.notation(c) for c in codes] == ["e1-off:2"]
    game = make(tmp_path, "white:\n  man: [e1]\n", 3, 2)
    assert legal(game) == ["e1-off:2", "e1-off:3"]


def test_random_playouts_draw_only_kept_actions_uniformly(tmp_path):
    game = make(tmp_path, BLOCKED, 2, 1, files=7)
    engine = game.engine
    state = engine.initial_state()
    decision = engine.decisions[state.decision]
    rng = random.Random(3)
    drawn = [engine.notation(decision.pick(state, rng.random)) for _ in range(400)]
    assert set(drawn) == {"a1-b1", "d1-f1"}
    assert 140 < drawn.count("a1-b1") < 260
    # Random games play to the end with the filter.
    for seed in range(5):
        s = engine.copy(state)
        engine.random_playout(s, random.Random(seed), 200)


FOLLOWUPS = """\
phase play:
    turn: move

decision move:
    {longest}
    action hop by man:
        jump e
        over enemy:
            taken += 1
            if jumped is king:
                kings += 1
            remove jumped
            move
            then again
    action step by man:
        step e
        onto empty: move

decision again:
    action hop by the same piece:
        jump e
        over enemy:
            taken += 1
            if jumped is king:
                kings += 1
            remove jumped
            move
            then again
    action stop:
        pass if no other action
"""
CHAIN_YAML = """\
game: chain
title: Chain
description: Majority capture.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 9, ranks: 2}
pieces:
  man: {symbol: M}
  king: {symbol: K}
variables:
  taken: {}
  kings: {}
setup:
"""


def chain(tmp_path, setup: str, longest: str) -> list[str]:
    (tmp_path / "game.yaml").write_text(CHAIN_YAML + textwrap.indent(setup, "  "))
    (tmp_path / "game.rules").write_text(FOLLOWUPS.format(longest=longest))
    game = load_game(str(tmp_path))
    return legal(game)


def test_follow_ups_count_and_the_tie_break_compares_every_longest_way(tmp_path):
    # a1 can take two men in a row (b1, d1); a2 one (b2, then c2-e2 is no jump).
    setup = "white:\n  man: [a1, a2]\nblack:\n  man: [b1, d1, b2]\n"
    assert chain(tmp_path, setup, "play the longest turn") == ["a1xc1"]
    # Two chains of one: the one taking a king wins the tie-break.
    setup = "white:\n  man: [a1, a2]\nblack:\n  man: [b1]\n  king: [b2]\n"
    assert chain(tmp_path, setup, "play the longest turn, then the highest kings") == ["a2xc2"]
    assert chain(tmp_path, setup, "play the longest turn") == ["a1xc1", "a2xc2"]


@pytest.mark.parametrize("longest,message", [
    ("play the longest turn, then the highest to", "'to' (the landing or chosen site) has no meaning in the tie-break "
                                                   "of 'play the longest turn'"),
    ("play the longest turn, then the highest hi > 0", "the tie-break of 'play the longest turn' must be a number"),
])
def test_errors_of_the_tie_break(tmp_path, capsys, longest, message):
    (tmp_path / "game.yaml").write_text(YAML.format(files=6, hi=2, lo=1, setup="  white:\n    man: [a1]\n"))
    (tmp_path / "game.rules").write_text(RULES.format(longest=longest))
    assert main(["validate", str(tmp_path)]) == 1
    assert message in capsys.readouterr().err


def test_a_turn_of_one_action_is_warned_about(tmp_path, capsys):
    rules = RULES.replace("turn: move, move", "turn: move")
    (tmp_path / "game.yaml").write_text(YAML.format(files=6, hi=2, lo=1, setup="  white:\n    man: [a1]\n"))
    (tmp_path / "game.rules").write_text(rules.format(longest="play the longest turn"))
    assert main(["validate", str(tmp_path)]) == 0
    assert "game.rules:7:5: warning: 'play the longest turn' changes nothing in decision 'move'" \
        in capsys.readouterr().err


@pytest.mark.parametrize("notation,message", [
    ('"{from}-{pip}"', 'game.rules:11:18: error: {pip}: no such variable, option or value of the action; '
                       'did you mean {pips}?'),
    ('"{from}-{turns}"', "unknown notation field '{turns}'; the fields are {from}, {to}, {d}"),
])
def test_unknown_notation_fields(tmp_path, capsys, notation, message):
    rules = RULES.replace('notation "{{from}}-{{to}}"', "notation " + notation.replace("{", "{{").replace("}", "}}"))
    (tmp_path / "game.yaml").write_text(YAML.format(files=6, hi=2, lo=1, setup="  white:\n    man: [a1]\n"))
    (tmp_path / "game.rules").write_text(rules.format(longest=""))
    assert main(["validate", str(tmp_path)]) == 1
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("old,new,message", [
    # a record splits its actions at white space and '#' starts a comment there
    ('"{{from}}-{{to}}"', '"{{from}}, {{to}}"', "game.rules:11:26: warning: a notation holds a space"),
    ('"{{from}}-{{to}}"', '"{{from}}-{{to}}#"', "game.rules:11:30: warning: a notation holds '#'"),
    ('"{{from}}-off:{{d}}"', '"{{from}}\toff"', "game.rules:20:29: warning: a notation holds white space (U+0009)"),
    ('"{{from}}-{{to}}"', '"{{from}}' + "x" * 201 + '"', "error: a notation's text is 201 characters long"),
])
def test_notations_a_record_cannot_hold(tmp_path, capsys, old, new, message):
    rules = RULES.replace(old, new)
    (tmp_path / "game.yaml").write_text(YAML.format(files=6, hi=2, lo=1, setup="  white:\n    man: [a1]\n"))
    (tmp_path / "game.rules").write_text(rules.format(longest=""))
    # (a character a record cannot hold is a warning: the game still plays through the
    # API; a text longer than any record is an error)
    assert main(["validate", str(tmp_path)]) == (1 if "error:" in message else 0)
    err = capsys.readouterr().err
    assert message in err
    assert "hint: a notation is one word of printable characters other than '#'" in err or "201" in message


def test_variables_and_options_in_notations(tmp_path):
    rules = RULES.replace('notation "{{from}}-{{to}}"', 'notation "{{from}}-{{to}}/{{hi}}/{{bonus}}"')
    game = make(tmp_path, "white:\n  man: [a1]\n", 2, 1, longest="", rules=rules)
    # hi is the value where the action is listed; the option is written in.
    assert legal(game) == ["a1-b1/2/7", "a1-c1/2/7"]
    assert "a1-b1/2/7" in game.possible_notations()


@pytest.mark.parametrize("each,message", [
    ("for each hi in [1, 2]", "'hi' is a variable: the value of 'for each' needs a name of its own"),
    ("for each d in [1, a1]", "the values of 'for each' are of one type"),
    ("for each d in pieces of player", "takes a list in brackets ([A, B]) or a fixed set"),
])
def test_errors_of_for_each(tmp_path, capsys, each, message):
    rules = RULES.replace("for each d in [hi, lo]", each)
    (tmp_path / "game.yaml").write_text(YAML.format(files=6, hi=2, lo=1, setup="  white:\n    man: [a1]\n"))
    (tmp_path / "game.rules").write_text(rules.format(longest=""))
    assert main(["validate", str(tmp_path)]) == 1
    assert message in capsys.readouterr().err


def test_for_each_over_a_fixed_set(tmp_path):
    rules = """\
        phase play:
            turn: move
        decision move:
            action push by man for each d in [e, w]:
                where neighbour(from, d) is empty
                go to [neighbour(from, d)]
                notation "{from}{to}"
                onto empty: move
        """
    (tmp_path / "game.yaml").write_text(YAML.format(files=6, hi=2, lo=1, setup="  white:\n    man: [c1]\n"))
    (tmp_path / "game.rules").write_text(textwrap.dedent(rules))
    game = load_game(str(tmp_path))
    assert legal(game) == ["c1b1", "c1d1"]
    # A set of directions fixed when the rules are compiled: one copy per direction.
    (tmp_path / "game.rules").write_text(textwrap.dedent(rules).replace("[e, w]", "orthogonal"))
    assert legal(load_game(str(tmp_path))) == ["c1b1", "c1d1"]


def test_a_variant_changes_or_removes_the_longest_turn(tmp_path):
    make(tmp_path, BLOCKED, 2, 1, files=7)
    (tmp_path / "v.yaml").write_text("variant: v\nextends: game.yaml\nrules: v.rules\n")
    (tmp_path / "v.rules").write_text("change decision move:\n    remove play the longest turn\n")
    assert legal(load_game(str(tmp_path / "v.yaml"))) == ["a1-b1", "d1-e1", "d1-f1"]
    (tmp_path / "v.rules").write_text("change decision move:\n    play the longest turn, then the lowest pips\n")
    assert legal(load_game(str(tmp_path / "v.yaml"))) == ["a1-b1", "d1-f1"]
    (tmp_path / "game.rules").write_text(RULES.format(longest=""))
    (tmp_path / "v.rules").write_text("change decision move:\n    remove play the longest turn\n")
    with pytest.raises(Exception, match="decision 'move' has no 'play the longest turn' to remove"):
        load_game(str(tmp_path / "v.yaml"))
