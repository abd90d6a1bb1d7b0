"""Cases sharing one block (docs/format.md 3.6): `onto empty, onto enemy: move` is
the two cases, each with its own copy of the statements and notation."""
from interpreter import load_game
from interpreter.frontends.cli import main
from tests.helpers import board, stones_and_rocks, write_definition

# White's stone on a1 with black stones on a2 and b2 and a rock on b1: each of its
# three steps lands on something.
YAML = stones_and_rocks(files=3, ranks=3) + (
    "setup:\n  white: {stone: [a1]}\n  black: {stone: [a2, b2]}\n  neutral: {rock: [b1]}\n")


def rules(cases: str) -> str:
    body = "".join(f"\n        {line}" for line in cases.splitlines())
    return ("phase play:\n    turn: move\ndecision move:\n    action go:\n        step n, e, ne\n"
            f"        notation \"{{from}}{{to}}\"{body}\n")


def legal(tmp_path, cases):
    game = load_game(write_definition(tmp_path, YAML, rules(cases)))
    return game, sorted(str(a) for a in game.legal_actions(game.initial_state()))


def test_the_cases_named_are_the_ones_taken(tmp_path):
    assert legal(tmp_path, "onto enemy, onto neutral: move")[1] == ["a1a2", "a1b1", "a1b2"]
    assert legal(tmp_path, "onto empty, onto enemy: move")[1] == ["a1a2", "a1b2"]


def test_a_shared_block_plays_as_the_cases_written_apart(tmp_path):
    (tmp_path / "shared").mkdir()
    (tmp_path / "apart").mkdir()
    shared, moves = legal(tmp_path / "shared", "onto enemy, onto neutral:\n    notation \"{to}\"\n    move")
    apart, moves_apart = legal(tmp_path / "apart", "onto enemy:\n    notation \"{to}\"\n    move\n"
                               "onto neutral:\n    notation \"{to}\"\n    move")
    assert moves == moves_apart == ["a2", "b1", "b2"]
    for name in moves:
        after = board(shared, shared.apply(shared.initial_state(), name), lambda p: (p.kind, p.owner))
        assert after == board(apart, apart.apply(apart.initial_state(), name), lambda p: (p.kind, p.owner))
        assert after[name] == ("stone", "white") and "a1" not in after


def test_a_case_named_twice_is_told_where(tmp_path, capsys):
    folder = write_definition(tmp_path, YAML, rules("onto enemy, onto neutral, onto enemy: move"))
    assert main(["validate", folder]) != 0
    assert "game.rules:7:9: error: 'onto enemy' appears twice in action 'go'" in capsys.readouterr().err
