"""Positions as text (`Game.position_text` / `Game.parse_position`): every position of
random games of every bundled game and example reads back equal, with the same text;
broken texts are clear errors."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from interpreter import bundled_games, load_game
from interpreter.positions import PositionError, PositionNote

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
GAMES = [(name, {}) for name in bundled_games()] + [("royalfiz", {"players": "2"})] + [
    (str(path), {}) for path in sorted(EXAMPLES.iterdir()) if path.is_dir()]


def positions(game, seed: int, limit: int = 150):
    rng = random.Random(seed)
    state = game.initial_state()
    yield state
    while not game.is_terminal(state) and state.ply < limit:
        choices = game.legal_actions(state) or [a for a, _ in game.chance_outcomes(state)]
        state = game.apply(state, rng.choice(choices))
        yield state


@pytest.mark.parametrize("name, options", GAMES, ids=[n.rsplit("/", 1)[-1] + str(o) for n, o in GAMES])
def test_every_position_reads_back_equal(name, options):
    game = load_game(name, options)
    for seed in range(3):
        for state in positions(game, seed):
            text = game.position_text(state)
            back = game.parse_position(text)
            assert back == state and hash(back) == hash(state), text
            assert game.position_text(back) == text
            assert game.legal_notations(back) == game.legal_notations(state)


def test_a_position_in_words():
    game = load_game("lielow")
    state = game.apply(game.apply(game.initial_state(), "d2-d3"), "e7-e6")
    text = game.position_text(state)
    assert text.startswith("rw2; game lielow; ply 2; phase play; turn white move 0; board a2=white.piece ")
    # Only what differs from a new piece: the range, and the crown of the uniquely longest range.
    assert " d3=white.piece[range=2,king=1] e6=black.piece[range=2,king=1] a7=black.piece " in text
    stacked = load_game("regibus").parse_position(
        "rw1; game regibus; ply 30; phase play; turn black move 0; board d4=white.king(black,white)")
    [piece] = load_game("regibus").pieces(stacked)
    assert (piece.site, piece.kind, piece.owner, piece.stones) == ("d4", "king", "white", ("black", "white"))


@pytest.mark.parametrize("text, message", [
    ("lielow board", "a position starts with 'rw2', not 'lielow board'"),
    ("rw1; game lielow; phase play; turn white move 0", "the field 'board' is missing"),
    ("rw1; phase play; turn white move 0; board -; history 3", "unknown field 'history'"),
    ("rw1; phase play; turn white move 0; board -; board -", "the field 'board' is given twice"),
    ("rw1; game tablut; phase play; turn white move 0; board -", "this is a position of 'tablut', not of 'lielow'"),
    ("rw1; phase play; turn red move 0; board -", "unknown player 'red' in lielow"),
    ("rw1; phase play; turn white move 0; board a2=white.pawn", "unknown kind of piece 'pawn' in lielow"),
    ("rw1; phase play; turn white move 0; board a2=white", "board: 'a2=white' is not SITE=OWNER.KIND"),
    ("rw1; phase play; turn white move 0; board a2=white.piece a2=black.piece", "board: two pieces on a2"),
    ("rw1; phase play; turn white move 0; board a2=white.piece[range=x]", "expected a whole number, got 'x'"),
    ("rw1; phase play; turn white move 0; board a2=white.piece(white,black)", "this game has no stacks"),
    ("rw1; phase play; turn white move; board -", "turn: expected PLAYER DECISION STEP"),
    ("rw1; ply -1; phase play; turn white move 0; board -", "ply: expected a number of at least 0"),
])
def test_broken_positions_are_explained(text, message):
    with pytest.raises(PositionError) as error:
        load_game("lielow").parse_position(text)
    assert message in str(error.value)


def test_the_positions_seen_before_are_part_of_a_position():
    # Tablut: a position that occurs for the third time is a draw. Two pieces go
    # back and forth; after the text of the position, the same moves end it alike.
    game = load_game("tablut")
    shuffle = ["e2-h2", "e4-h4", "h2-e2", "h4-e4"]
    state = game.initial_state()
    for notation in shuffle:
        state = game.apply(state, notation)
    text = game.position_text(state)
    assert "; seen " in text
    back = game.parse_position(text)
    assert back == state
    for notation in shuffle:
        state, back = game.apply(state, notation), game.apply(back, notation)
    assert game.result(state) == game.result(back) and game.result(state).winner is None
    # Without the history the position is another one: the third occurrence is the second.
    forgetful = game.parse_position(text.split("; seen ")[0])
    assert forgetful != state
    for notation in shuffle:
        forgetful = game.apply(forgetful, notation)
    assert game.result(forgetful) is None


@pytest.mark.parametrize("name, field, message", [
    ("lielow", "seen 12:1", "the rules of lielow do not count repeated positions"),
    ("tablut", "seen keys=3 12", "seen: expected KEY:COUNT, got '12'"),
    ("tablut", "seen keys=3 12:0", "a position occurred at least once, not 0 times"),
    ("tablut", "seen keys=3 x:1", "seen: expected a whole number, got 'x'"),
    ("tablut", "seen 12:1", "seen: expected keys=NUMBER first, got '12:1'"),
    ("tablut", "seen keys=x 12:1", "seen keys: expected a whole number, got 'x'"),
])
def test_broken_histories_are_explained(name, field, message):
    game = load_game(name)
    text = game.position_text(game.initial_state()).split("; seen ")[0] + "; " + field
    with pytest.raises(PositionError) as error:
        game.parse_position(text)
    assert message in str(error.value)


def test_an_overlong_position_is_refused_before_reading():
    with pytest.raises(PositionError, match="too long"):
        load_game("lielow").parse_position("rw1;" + " " * 300_000)


def _tablut_shuffled():
    # Two pieces back and forth: the position of the fourth turn has occurred twice.
    game = load_game("tablut")
    state = game.initial_state()
    for notation in ["e2-h2", "e4-h4", "h2-e2", "h4-e4"]:
        state = game.apply(state, notation)
    return game, state


def test_the_seen_of_an_older_version_is_left_out_with_a_note():
    # Version 1 counted positions by the hash of the whole position: its keys are
    # not carried over. The position reads (a note, not an error) without a past.
    game, state = _tablut_shuffled()
    text = game.position_text(state)
    assert text.startswith("rw2; ") and "; seen keys=" in text
    older = re.sub(r"keys=\S+ ", "", text.replace("rw2; ", "rw1; ", 1))
    with pytest.warns(PositionNote, match="written by rw1, whose keys are not those"):
        back = game.parse_position(older)
    forgetful = game.parse_position(text.split("; seen ")[0])
    assert back == forgetful and game.engine.repetitions(back) == 0  # (not even this one: no past)
    # a position of version 1 without `seen` reads as it did
    assert game.parse_position(forgetful_text := game.position_text(forgetful).replace("rw2; ", "rw1; ", 1)) \
        == forgetful, forgetful_text


def test_keys_made_otherwise_are_left_out_with_a_note():
    # Keys made by another interpreter (before Python 3.12, by another process:
    # the hash of None differs) would miscount: they are left out, said so.
    game, state = _tablut_shuffled()
    text = game.position_text(state)
    own = int(re.search(r"keys=(\S+)", text).group(1))
    with pytest.warns(PositionNote, match="keys made otherwise"):
        back = game.parse_position(text.replace(f"keys={own}", f"keys={own + 1}"))
    assert game.engine.repetitions(back) == 0
    assert game.engine.repetitions(game.parse_position(text)) == 2


def test_the_command_prints_the_note(capsys):
    from interpreter.frontends.cli import main
    game, state = _tablut_shuffled()
    older = re.sub(r"keys=\S+ ", "", game.position_text(state).replace("rw2; ", "rw1; ", 1))
    assert main(["moves", "tablut", "--position", older]) == 0
    out, err = capsys.readouterr()
    assert "e2-h2" in out.split() and err.startswith("note: --position: seen: the positions seen before")
