"""The code of format.md 3.9's draw among the items left: the event for the count
started from an `if k == 1: then pick1 elif ...` chain (one look-up in a table,
compilation/dispatch.py), the i-th item found by walking a bit mask (`mask // bit`,
a division by a variable), a `for each k in A to B` with fixed ends. Each keeps
what the rules say: the event started, the numbers, the faults."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from interpreter import load_game
from tests.helpers import generated, helper_calls, write_definition

YAML = """\
game: count_dispatch
rules: game.rules
players: [white, black]
board:
  grid: {files: 3, ranks: 1}
variables:
  k: {type: int}
  v: {type: int}
  d: {type: int}
  dealt: {type: int}
  bit: {type: int}
  idx: {type: int}
  drawn: {type: int}
pieces:
  stone: {symbol: S}
"""

PUT = """
decision put:
    action stone:
        drop stone on sites
        onto empty: place
"""

# One event per count 1..5, each drawing an index among the k items left.
PICKS = "".join(f"\nchance pick{k}:\n    outcomes 0 to {k - 1}\n    v = outcome\n" for k in range(1, 6))


def _chain(otherwise: str = "") -> str:
    branches = "\n".join(f"    {'if' if k == 1 else 'elif'} k == {k}:\n        then pick{k}" for k in range(1, 6))
    return branches + ("\n    else:\n        then " + otherwise if otherwise else "")


def _game(folder: Path, rules: str, yaml: str = YAML) -> object:
    folder.mkdir(exist_ok=True)
    return load_game(write_definition(folder, yaml, rules))


def _counting(tmp_path: Path, otherwise: str = "") -> object:
    rules = ("phase play:\n    turn: roll, put\n\nchance roll:\n    outcomes 0 to 6\n    k = outcome\n"
             + _chain(otherwise) + "\n" + PICKS + PUT)
    return _game(tmp_path, rules)


def _pending(game: object, roll: int) -> list[str]:
    after = game.apply(game.initial_state(), f"roll:{roll}")  # type: ignore[attr-defined]
    if game.to_move(after) != "chance":  # type: ignore[attr-defined]
        return []
    return [str(action) for action, _ in game.chance_outcomes(after)]  # type: ignore[attr-defined]


def _tests_of_k(game: object) -> list[ast.Compare]:
    """The comparisons of `k` (v[0]) with a number in the roll's code."""
    return [node for node in generated(game, ast.Compare, "chance 'roll'")
            if isinstance(node.left, ast.Subscript) and isinstance(node.left.slice, ast.Constant)
            and node.left.slice.value == 0 and isinstance(node.ops[0], ast.Eq)]


def test_the_event_for_the_count_is_started_by_one_look_up(tmp_path: Path) -> None:
    game = _counting(tmp_path)
    assert _tests_of_k(game) == []  # (no branch tested one by one)
    assert _pending(game, 3) == ["pick3:0", "pick3:1", "pick3:2"]
    assert _pending(game, 1) == ["pick1:0"]
    assert _pending(game, 5) == [f"pick5:{i}" for i in range(5)]
    # Outside the counts (0 and 6) no event is started: the stone is put next.
    assert _pending(game, 0) == [] and _pending(game, 6) == []
    after = game.apply(game.apply(game.initial_state(), "roll:4"), "pick4:2")  # type: ignore[attr-defined]
    assert game.variables(after)["v"] == 2  # type: ignore[attr-defined]
    assert game.to_move(after) == "white"  # type: ignore[attr-defined]


def test_the_else_of_the_chain_is_kept(tmp_path: Path) -> None:
    game = _counting(tmp_path, otherwise="pick1")
    assert _tests_of_k(game) == []
    assert _pending(game, 0) == ["pick1:0"] and _pending(game, 6) == ["pick1:0"]
    assert _pending(game, 2) == ["pick2:0", "pick2:1"]


def test_a_chain_with_a_gap_or_other_statements_stays_a_chain(tmp_path: Path) -> None:
    gap = _chain().replace("k == 3", "k == 13")
    rules = "phase play:\n    turn: roll, put\n\nchance roll:\n    outcomes 0 to 13\n    k = outcome\n" + gap + "\n" \
        + PICKS + PUT
    game = _game(tmp_path, rules)
    assert len(_tests_of_k(game)) == 5
    assert _pending(game, 13) == ["pick3:0", "pick3:1", "pick3:2"] and _pending(game, 3) == []
    more = _chain().replace("then pick2", "then pick2\n        v = 7")
    game = _game(tmp_path / "more", "phase play:\n    turn: roll, put\n\nchance roll:\n    outcomes 0 to 6\n"
                 "    k = outcome\n" + more + "\n" + PICKS + PUT)
    assert len(_tests_of_k(game)) == 5
    assert _pending(game, 2) == ["pick2:0", "pick2:1"]


# The i-th card not dealt of eight, a bit each in `dealt`, as format.md 3.9 walks it.
WALK = """phase play:
    turn: deal, put

chance deal:
    outcomes 0 to 7
    hand_out(outcome)
    v = drawn

procedure hand_out(i):
    idx = 0
    bit = 1
    for each c in 0 to 7:
        if dealt // bit % 2 == 0:
            if idx == i:
                dealt += bit
                drawn = c
            idx += 1
        bit = bit * 2
    idx = 0
    bit = 0
"""


def test_the_walk_of_a_bit_mask_finds_the_card_left(tmp_path: Path) -> None:
    yaml = YAML.replace("dealt: {type: int}", "dealt: {type: int, default: 37}")  # cards 0, 2, 5 dealt
    game = _game(tmp_path, WALK + PUT, yaml)
    # The fixed range is looped over as it is: no check of its length at run time.
    assert helper_calls(game, "h_fail", "chance 'deal'") == []
    # The divisor is tested, the helper that reports a zero one called only then.
    divisions = helper_calls(game, "h_floordiv", "chance 'deal'")
    assert len(divisions) == 1 and any(isinstance(node, ast.IfExp) and node.orelse is divisions[0]
                                       for node in generated(game, ast.IfExp, "chance 'deal'"))
    left = [1, 3, 4, 6, 7]
    for index, card in enumerate(left):
        after = game.apply(game.initial_state(), f"deal:{index}")  # type: ignore[attr-defined]
        values = game.variables(after)  # type: ignore[attr-defined]
        assert (values["v"], values["dealt"]) == (card, 37 + 2 ** card)


@pytest.mark.parametrize("op, expected", [("//", [-4, 3, -3, 2]), ("%", [1, 1, -2, -1])])
def test_a_division_by_a_variable_floors_and_a_zero_divisor_is_located(tmp_path: Path, op: str,
                                                                       expected: list[int]) -> None:
    rules = f"""phase play:
    turn: roll, put

chance roll:
    outcomes 1 to 1
    v = k {op} d
""" + PUT
    for (number, divisor), want in zip([(-7, 2), (7, 2), (7, -3), (-7, -3)], expected):
        yaml = YAML.replace("k: {type: int}", f"k: {{type: int, default: {number}}}") \
            .replace("d: {type: int}", f"d: {{type: int, default: {divisor}}}")
        game = _game(tmp_path / f"{number}_{divisor}", rules, yaml)
        after = game.apply(game.initial_state(), "roll:1")  # type: ignore[attr-defined]
        assert game.variables(after)["v"] == want  # type: ignore[attr-defined]
    game = _game(tmp_path / "zero", rules)
    with pytest.raises(Exception) as fault:
        game.apply(game.initial_state(), "roll:1")  # type: ignore[attr-defined]
    assert "division by zero" in str(fault.value) and "game.rules:6:" in str(fault.value)


def test_a_count_in_a_local_name_starts_its_event_by_one_look_up(tmp_path: Path) -> None:
    # format.md 3.9's fragment: the count of empty cells in a `let`, compared branch by branch.
    chain = "\n".join("        " + line for line in _chain().replace("k ==", "n ==").splitlines())
    rules = ("phase play:\n    turn: put\n\ndecision put:\n    action stone:\n        drop stone on sites\n"
             "        onto empty:\n            place\n            let n = count(sites, it is empty)\n"
             + chain + "\n" + PICKS)
    game = _game(tmp_path, rules)
    compares = [node for node in generated(game, ast.Compare, "action 'stone'")
                if isinstance(node.ops[0], ast.Eq) and isinstance(node.comparators[0], ast.Constant)]
    assert compares == []
    after = game.apply(game.initial_state(), "@a1")  # type: ignore[attr-defined]
    assert [str(action) for action, _ in game.chance_outcomes(after)] == ["pick2:0", "pick2:1"]  # type: ignore[attr-defined]
    after = game.apply(game.apply(after, "pick2:1"), "@b1")  # type: ignore[attr-defined]
    assert [str(action) for action, _ in game.chance_outcomes(after)] == ["pick1:0"]  # type: ignore[attr-defined]


def test_the_walk_stops_at_the_card_found_and_only_where_nothing_later_shows(tmp_path: Path) -> None:
    yaml = YAML.replace("dealt: {type: int}", "dealt: {type: int, default: 37}")  # cards 0, 2, 5 dealt
    game = _game(tmp_path / "reset", WALK + PUT, yaml)
    assert len(list(generated(game, ast.Break, "chance 'deal'"))) == 1
    # Not reset after the loop, the counter ends at the number of cards left (5):
    # every round must run.
    kept = WALK.replace("    idx = 0\n    bit = 0\n", "    bit = 0\n")
    game = _game(tmp_path / "kept", kept + PUT, yaml)
    assert list(generated(game, ast.Break, "chance 'deal'")) == []
    after = game.apply(game.initial_state(), "deal:1")  # type: ignore[attr-defined]
    values = game.variables(after)  # type: ignore[attr-defined]
    assert (values["v"], values["idx"], values["dealt"]) == (3, 5, 37 + 8)
    # A procedure called where the card is found (it may write the counter): no stop.
    called = WALK.replace("                drawn = c\n", "                drawn = c\n                note\n") \
        + "\nprocedure note:\n    k += 1\n"
    game = _game(tmp_path / "called", called + PUT, yaml)
    assert list(generated(game, ast.Break, "chance 'deal'")) == []


def test_a_walk_over_pieces_stops_at_the_one_drawn(tmp_path: Path) -> None:
    # Three stones; the i-th with no mark (in board order) is marked and its site's file noted.
    yaml = YAML + "attributes:\n  mark: {type: int}\nsetup:\n  white: {stone: [a1, b1, c1]}\n"
    rules = """phase play:
    turn: pick, put

chance pick:
    outcomes 0 to 1
    idx = 0
    for each x in sites:
        if x is occupied and x.mark == 0:
            if idx == outcome:
                x.mark = 1
                drawn += 1
            idx += 1
    idx = 0
""" + PUT
    game = _game(tmp_path, rules, yaml)
    assert len(list(generated(game, ast.Break, "chance 'pick'"))) == 1
    state = game.initial_state()  # type: ignore[attr-defined]
    state = game.apply(state, "pick:1")  # type: ignore[attr-defined]
    marks = {piece.site: piece.attributes["mark"] for piece in game.pieces(state)}  # type: ignore[attr-defined]
    assert marks == {"a1": 0, "b1": 1, "c1": 0}
    assert game.variables(state)["drawn"] == 1  # type: ignore[attr-defined]


def _counted_in_a_local(game: object) -> bool:
    """Whether a loop of the deal steps a local name by one (the walk's counter)."""
    return any(isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name)
               and isinstance(node.value, ast.Constant) and node.value.value == 1
               for loop in generated(game, ast.For, "chance 'deal'") for node in ast.walk(loop))


def test_the_walk_counts_in_a_local_unless_the_position_is_handed_on(tmp_path: Path) -> None:
    yaml = YAML.replace("dealt: {type: int}", "dealt: {type: int, default: 37}")  # cards 0, 2, 5 dealt
    game = _game(tmp_path / "local", WALK + PUT, yaml)
    assert _counted_in_a_local(game)
    # (the counter as the rules see it where the card is found: the rounds' count)
    seen = WALK.replace("                drawn = c\n", "                drawn = c * 10 + idx\n")
    game = _game(tmp_path / "seen", seen + PUT, yaml)
    assert _counted_in_a_local(game)
    for index, card in enumerate([1, 3, 4, 6, 7]):
        after = game.apply(game.initial_state(), f"deal:{index}")  # type: ignore[attr-defined]
        values = game.variables(after)  # type: ignore[attr-defined]
        assert (values["v"], values["idx"], values["dealt"]) == (card * 10 + index, 0, 37 + 2 ** card)
    # The game ended where the card is found: the ending is given the position whole
    # (its score may read the counter), so the counter stays in the variables.
    ended = WALK.replace("                drawn = c\n", "                drawn = c\n                end game\n")
    game = _game(tmp_path / "ended", ended + PUT, yaml)
    assert len(list(generated(game, ast.Break, "chance 'deal'"))) == 1 and not _counted_in_a_local(game)
    after = game.apply(game.initial_state(), "deal:2")  # type: ignore[attr-defined]
    assert game.variables(after)["dealt"] == 37 + 2 ** 4  # type: ignore[attr-defined]
