"""Constants equal in value are one constant (compilation/source.Source.const),
whatever key each was made under: a table worked out twice under two names (the
count along a line from each of its two directions) is bound once."""
from __future__ import annotations

from interpreter import load_game
from interpreter.compilation.source import Source
from tests.helpers import stones_and_rocks, write_definition


def test_equal_keyed_tables_share_one_name():
    src = Source()
    north = src.const((1, 2, 3), key=("line", "n"))
    south = src.const((1, 2, 3), key=("line", "s"))
    assert north.id == south.id
    assert src.const((1, 2, 3)).id == north.id
    # asked again by its key: the same name
    assert src.const((1, 2, 3), key=("line", "s")).id == north.id


def test_tables_equal_only_as_numbers_or_changeable_stay_apart():
    src = Source()
    numbers = src.const((1, 0), key="numbers")
    truths = src.const((True, False), key="truths")
    assert numbers.id != truths.id  # (code may ask `is True` of an entry)
    # tables filled in while playing (lists) are each their own
    first, second = src.const([None, None], key=("codes", 0)), src.const([None, None], key=("codes", 1))
    assert first.id != second.id


def test_a_line_counted_from_either_end_is_one_table(tmp_path):
    # An action per direction (Lines of Action as format.md writes it): the count
    # of a line through `from` is the same table for n and s, for e and w ...
    rules = """\
        phase play:
            turn: move
        decision move:
            action line_move for each d in all:
                leap d distance 1 + count(ray(from, d), it is occupied) + count(ray(from, opposite(d)), it is occupied)
                onto empty: move
                onto enemy: move
        """
    setup = "setup:\n  white:\n    stone: [a1, b1]\n  black:\n    stone: [a4, d4]\n"
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=setup), rules))
    tables: dict[str, str] = {}
    for name, value in game.rules.constants.items():
        if isinstance(value, tuple) and len(value) > 8:
            assert repr(value) not in tables, (name, tables.get(repr(value)))
            tables[repr(value)] = name
    # a1: two on its file (a4), its rank (b1) and its diagonal (d4); b1: two on
    # its rank, alone on its file and diagonals
    assert sorted(game.legal_notations(game.initial_state())) == sorted(
        ["a1-a3", "a1-c1", "a1-c3", "b1-b2", "b1-d1", "b1-c2", "b1-a2"])
