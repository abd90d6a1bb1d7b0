"""A kind the first phase makes — here a start chance creating the kings — is
proven one a player by playing that phase (compilation/start_kinds.py): the rules
are then compiled with the kind lone, as if the setup had placed it. Where a way
through the phase gives a player two, there is no proof and the game plays as with
the proof off; a position built by hand with two, or in the first phase where its
play never goes, is refused."""
import ast

import pytest

from interpreter import load_game
from interpreter.compilation import start_kinds
from interpreter.compilation.compiler import Compiler
from interpreter.compilation.items import collect_items, specialise_kind_arguments
from interpreter.compilation.single_kinds import start_made_kinds
from interpreter.positions import PositionError
from tests.helpers import REPO, play, write_definition

YAML = """\
game: probe
title: Probe
description: Kings drawn at the start, that no enemy may stand north of.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 4, ranks: 4}
pieces:
  king: {symbol: K, description: Made by the start.}
  stone: {symbol: S, description: Many a player.}
setup:
  white:
    stone: [d1]
  black:
    stone: [b3, c2]
"""
RULES = """\
phase setup:
    turn: start
phase play:
    order: white, black
    turn: move
    if no action: lose
chance start:
    outcomes 0 to 1
    if outcome == 0:
        create king at b1 for white
    else:
        OTHER
    create king at d4 for black
    start phase play
decision move:
    action king_move by king:
        step orthogonal
        notation "{from}{to}"
        onto empty: move
    action stone_move by stone:
        step orthogonal
        notation "{from}{to}"
        onto empty: move
forbid result where exists(pieces of player, it is king and neighbour(it, n) is enemy)
"""
ONE = "create king at a1 for white"
# (the second king stands under the black stone on c2)
TWO = "create king at a1 for white\n        create king at c1 for white"


def _game(tmp_path, other: str = ONE, rules: str = RULES):
    tmp_path.mkdir(exist_ok=True)
    return load_game(write_definition(tmp_path, YAML, rules.replace("OTHER", other)))


def _king(game) -> int:
    return game.model.kinds["king"].index


def _mover_loops(game) -> list[ast.For]:
    """The generated loops going over the mover's site alone where the mover is a lone kind (lone_pieces.py)."""
    return [node for node in ast.walk(game.rules.module)
            if isinstance(node, ast.For) and isinstance(node.iter, ast.IfExp)]


def _lists(game) -> list[list[str]]:
    """The legal moves after each start."""
    return [game.legal_notations(play(game, f"start:{n}")) for n in (0, 1)]


def test_one_king_a_player_is_proven_by_the_start(tmp_path):
    game = _game(tmp_path)
    assert start_made_kinds(game.model, _items(game)) == {_king(game)}
    assert game.rules.lone_from_start == {_king(game)}
    assert game.rules.start_keys is not None and len(game.rules.start_keys) == 1  # (the start position)
    assert _mover_loops(game)  # (the king's check asks the mover's site alone)
    # b1b2 and b1c1 end under an enemy stone (b3, c2); from a1 both steps are free (a3, b2
    # empty). The stone's steps leave the king where it stands (the rule asks of kings only)
    assert _lists(game) == [["b1a1", "d1c1", "d1d2"], ["a1a2", "a1b1", "d1c1", "d1d2"]]


def test_the_lists_are_those_without_the_proof(tmp_path, monkeypatch):
    proven = _lists(_game(tmp_path / "on"))
    monkeypatch.setattr(start_kinds, "LONE_FROM_START", False)
    game = _game(tmp_path / "off")
    assert game.rules.start_keys is None and not game.rules.lone_from_start
    assert not _mover_loops(game)
    assert _lists(game) == proven


def test_two_kings_from_the_start_give_no_proof(tmp_path, monkeypatch):
    game = _game(tmp_path / "two", TWO)
    tables = _tables(game)  # (before it plays)
    assert not game.rules.lone_from_start and game.rules.start_keys is None
    assert not _mover_loops(game)
    # the king on c1 stands under c2: only its own step away lifts that
    assert _lists(game) == [["b1a1", "d1c1", "d1d2"], ["c1b1"]]
    monkeypatch.setattr(start_kinds, "LONE_FROM_START", False)
    off = _game(tmp_path / "off", TWO)
    assert _tables(off) == tables  # (the start's play left the tables as compiled)
    assert _lists(off) == _lists(game)


def _tables(game) -> dict[str, str]:
    return {name: repr(value) for name, value in game.rules.constants.items() if isinstance(value, list)}


def test_the_proof_forced_on_two_kings_would_list_wrongly(tmp_path):
    """What the play of the start guards against: compiled with the king lone, the
    check of a1's steps asks a1 alone and misses the king under c2."""
    game = _game(tmp_path, TWO)
    forced = Compiler(game.model, _items(game), lone_from_start=frozenset({_king(game)})).compile()
    assert forced is not None
    state = play(game, "start:1")
    listed = sorted(game.engine.rules.cases[code[0]].action for code in forced.decisions[state.decision].legal(state))
    assert listed.count("king_move") > 1


def test_a_position_with_two_kings_is_refused(tmp_path):
    game = _game(tmp_path)
    after = play(game, "start:1")
    text = game.position_text(after)
    assert game.parse_position(text) == after
    with pytest.raises(PositionError, match="two pieces of kind 'king'"):
        game.parse_position(text.replace("d1=white.stone", "d1=white.king"))
    with pytest.raises(ValueError, match="two pieces of kind 'king'"):
        game.make_state({"a1": ("white", "king"), "b1": ("white", "king"), "d4": ("black", "king")},
                        phase="play", to_move="white")


def test_a_first_phase_position_its_play_never_meets_is_refused(tmp_path):
    game = _game(tmp_path)
    start = game.initial_state()
    assert game.parse_position(game.position_text(start)) == start
    with pytest.raises(ValueError, match="first phase 'setup'"):
        game.make_state({"a1": ("white", "king")}, phase="setup", before_turn_done=True)
    # (a finished game's position runs no rule)
    game.make_state({"a1": ("white", "king"), "b1": ("white", "king")}, result=(None, {}))


@pytest.mark.parametrize("change", [
    # a king made in play too
    ("onto empty: move\n    action stone", "onto empty:\n            move\n            create king at a4\n"
                                         "    action stone"),
    # the start phase started again
    ("if no action: lose", "if no action: start phase setup"),
])
def test_no_proof_where_play_could_make_one(tmp_path, change):
    rules = RULES.replace(*change)
    assert rules != RULES
    game = _game(tmp_path, ONE, rules)
    assert start_made_kinds(game.model, _items(game)) == frozenset()
    assert not game.rules.lone_from_start and game.rules.start_keys is None


def _items(game):
    """The rules' items, as the compiler gets them."""
    items = collect_items(game.definition.rules, [])
    specialise_kind_arguments(items, game.model.kinds)
    return items


def test_an_outsiders_chess960_has_its_kings_proven():
    """Its kings are created by the start chance (960 arrangements): each gives one a player."""
    game = load_game(str(REPO / "benchmarks" / "outsiders" / "chess960"))
    assert game.rules.lone_from_start == {_king(game)}
    assert len(game.rules.start_keys) == 1  # (the start; the 960 positions after it are in play)
    after = play(game, "start:518")
    assert len(game.legal_notations(after)) == 19
    with pytest.raises(PositionError, match="two pieces of kind 'king'"):
        game.parse_position(game.position_text(after).replace("d1=white.knight", "d1=white.king"))
