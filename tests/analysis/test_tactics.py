"""Material, the bounded look-ahead over it and the tactical positions it finds
(analysis/material.py, lookahead.py, tactics.py), on hand-built positions."""
from __future__ import annotations

import json

import pytest

from interpreter import load_game
from interpreter.analysis.lookahead import WIN, Lookahead, move_values
from interpreter.analysis.material import Material
from interpreter.analysis.tactics import TacticalPosition, TacticalSet, classify, game_positions, generate, solve


def lielow_piece(owner: str, range_: int, king: bool = False) -> tuple:
    return (owner, "piece", {"range": range_, **({"king": True} if king else {})})


def test_the_engine_counts_pieces_by_player_and_kind_and_stones():
    regibus = load_game("regibus")
    state = regibus.make_state({
        "a1": ("white", "knight"), "b1": ("white", "king", {"stones": ["black", "white", "white"]}),
        "h8": ("black", "prince", {"stones": ["black", "black"]}),
    }, phase="play")
    # knight, prince, king, emperor, then the stones of the colour on the board
    assert regibus.engine.piece_counts(state) == [[1, 0, 1, 0, 3], [0, 1, 0, 0, 3]]
    lielow = load_game("lielow")
    assert lielow.engine.piece_counts(lielow.initial_state()) == [[8, 8], [8, 8]]


def test_material_counts_values_and_pools():
    # Regibus gives its kinds values (power): a king is worth 4, a knight 1; the
    # twelve stones of each player wait in its pool before the setup.
    regibus = load_game("regibus")
    assert Material(regibus).of(regibus.initial_state()) == [12.0, 12.0]
    state = regibus.make_state({"a1": ("white", "knight"), "b1": ("white", "king"), "h8": ("black", "prince")},
                               phase="play", pools={"stones": {"white": 0, "black": 3}})
    assert Material(regibus).of(state) == [5.0, 5.0]
    # Without values every piece is worth 1; morris' men to place count.
    morris = load_game("morris")
    assert Material(morris).of(morris.initial_state()) == [9.0, 9.0]
    assert Material(morris).balance(morris.apply(morris.initial_state(), "@a1"), 1) == 0.0


def test_a_piece_left_to_be_taken_loses_material():
    game = load_game("lielow")
    w, b = "white", "black"
    # White's f3 (range 2) takes d5 unless it moves: d5-c5 keeps the piece,
    # h7-h6 leaves it, e8-h5 puts the king where f3 takes it.
    state = game.make_state({
        "h2": lielow_piece(w, 3, True), "f3": lielow_piece(w, 2), "a2": lielow_piece(w, 1),
        "e8": lielow_piece(b, 3, True), "d5": lielow_piece(b, 1), "h7": lielow_piece(b, 1),
    }, to_move="black")
    look = Lookahead(game.engine, Material(game), me=1)
    values = {game.engine.notation(code): value for code, value in move_values(look, state, turns=1)}
    assert look.balance(state) == 0.0
    assert values["d5-c5"] == 0.0
    assert values["h7-h6"] == -1.0
    assert values["e8-h5"] == -WIN


def test_the_lielow_start_has_two_actions_that_give_a_piece_away():
    game = load_game("lielow")
    found = classify(game, game.initial_state())
    assert found.losing() == {"a2-off", "h2-off"}  # a range-1 piece leaping off the board
    assert found.kinds == ["avoid-material"] and found.gives_away("a2-off") and not found.gives_away("d2-d3")


def test_the_kinds_of_a_position_and_what_solves_it():
    position = TacticalPosition("p", 0.0, {"a": WIN, "b": 0.0, "c": -1.0, "d": -WIN})
    assert position.kinds == ["win", "avoid-loss", "avoid-material", "win-material", "must-avoid"]
    assert position.good() == {"a"}
    assert position.solves("avoid-material", "b") and not position.solves("avoid-material", "c")
    threat = TacticalPosition("p", 0.0, {"a": 0.0, "b": -1.0, "c": -1.0})
    assert threat.kinds == ["avoid-material", "must-avoid"] and threat.good() == {"a"}
    assert TacticalPosition.from_json(json.loads(json.dumps(threat.to_json()))) == threat
    quiet = TacticalPosition("p", 0.0, {"a": 0.0, "b": 0.0})
    assert quiet.kinds == [] and quiet.good() == {"a", "b"}


def test_generated_positions_are_tactical_and_differ():
    game = load_game("morris")
    found = generate(game, 6, seed=2, every=2, games_per_source=20)
    assert len(found.positions) == 6
    assert len({p.position for p in found.positions}) == 6
    assert all(p.kinds for p in found.positions)
    assert game_positions(game, 1, 1).__next__()[0] == "random 1/0 ply 0"


def test_solving_counts_per_kind():
    game = load_game("lielow")
    tactical = TacticalSet("lielow", [classify(game, game.initial_state())])
    report = solve(game, tactical, lambda g, s: "a2-off")
    assert report.positions == {"avoid-material": 1, "all": 1} and report.solved == {"avoid-material": 0, "all": 0}
    assert len(report.gave_away) == 1 and report.share("avoid-material") == 0.0
    assert solve(game, tactical, lambda g, s: "d2-d3").share("all") == 1.0


@pytest.mark.parametrize("limit", [1, 40])
def test_the_look_ahead_stops_at_its_limit(limit):
    from interpreter.analysis.lookahead import OutOfNodes

    game = load_game("tablut")
    look = Lookahead(game.engine, Material(game), me=0, node_limit=limit)
    with pytest.raises(OutOfNodes):
        move_values(look, game.initial_state(), turns=1)
    assert classify(game, game.initial_state(), node_limit=limit) is None


def test_an_answer_that_refuted_one_move_is_remembered_and_changes_no_value(monkeypatch):
    # Tablut, attackers to move: the defenders threaten two soldiers, and nearly
    # every action is refuted by the same capture. The look-ahead remembers it (a
    # killer: tried first against the next action, and the safety check's
    # refutation, safety.py) — the values are those found without.
    from interpreter.analysis import lookahead
    from tests.frontends.test_tactical_positions import TABLUT_THREAT

    game = load_game("tablut")
    state = game.parse_position(TABLUT_THREAT)
    material = Material(game)

    def losing() -> tuple[dict, Lookahead]:
        look = Lookahead(game.engine, material, me=0)
        now = look.balance(state)
        values = {}
        for code in game.engine.legal(state):
            # the null window of the safety check: is the balance below now?
            v = look.value(look.child(state, code), 1, now - lookahead.EPSILON, now)
            values[game.engine.notation(code)] = v < now - lookahead.EPSILON
        return values, look

    with_killers, look = losing()
    assert sum(with_killers.values()) == 102
    # (the last two kept: b7 taken by c5 or by the king; e3-i3, taking i4, came before)
    assert {game.engine.notation(code) for code in look.killers[(1, 1)]} == {"c5-c7", "e7-c7"}
    monkeypatch.setattr(lookahead, "KILLERS", 0)
    without, look = losing()
    assert without == with_killers
    assert not any(look.killers.values())


def test_another_out_folder_starts_from_the_kept_set(tmp_path, capsys):
    """`benchmarks.tactics --out DIR` asks the kept positions, copied there, not a
    set generated anew (minutes, and other positions)."""
    from benchmarks.tactics import RESULTS, tactical_set

    found = tactical_set(load_game("morris"), 60, tmp_path / "morris.json")
    kept = json.loads((RESULTS / "morris.json").read_text(encoding="utf-8"))
    assert len(found.positions) == len(kept["positions"])
    assert json.loads((tmp_path / "morris.json").read_text(encoding="utf-8")) == kept
    assert "the kept set benchmarks/tactics-results/morris.json copied there" in capsys.readouterr().err


def test_material_given_away_where_keeping_it_loses_by_force_is_told_apart():
    """The kept Tablut set's position where the default player gives a soldier away
    (a4-b4): each of the two actions that keep the balance, b1-b2 and b6-a6, lets the
    king escape by force (two moves deep); a4-b4 stands in its line, a4-d4 does not."""
    from benchmarks.tactics import RESULTS, for_the_game, lost_by_force

    game = load_game("tablut")
    kept = json.loads((RESULTS / "tablut.json").read_text(encoding="utf-8"))
    position = next(TacticalPosition.from_json(p) for p in kept["positions"] if p["source"] == "random 1/0 ply 78")
    assert position.good() == {"b1-b2", "b6-a6"}
    assert position.gives_away("a4-b4") and position.gives_away("a4-d4")
    assert lost_by_force(game, position, ["a4-b4", "a4-d4", "b1-b2", "b6-a6"], moves=2) == ["a4-d4", "b1-b2", "b6-a6"]
    assert for_the_game(game, position)
