"""The constructs that let the format say more (moving a second piece, creating
pieces, choosing a kind, the position an action leaves, repetitions, the start
of a turn, counted loops, procedures with parameters, tracks, leaps by offset,
setup attributes), each on a small hand-built game with hand-checked results."""
import ast
import textwrap

import pytest

from interpreter import load_game
from interpreter.compilation import expr_tracks
from interpreter.frontends.cli import main
from tests.helpers import generated, helper_calls

YAML = """\
game: probe
title: Probe
description: A board to try one construct on.
rules: game.rules
players:
  - {{name: white, forward: n}}
  - {{name: black, forward: s}}
board:
  grid: {{files: {files}, ranks: {ranks}}}
pieces:
  man: {{symbol: M}}
  king: {{symbol: K}}
  queen: {{symbol: Q}}
  rook: {{symbol: R}}
  stone: {{symbol: "#", owner: neutral}}
attributes:
  count: {{type: int}}
  moved: {{type: flag}}
{extra}
setup:
{setup}
"""


def make(tmp_path, rules: str, setup: str, extra: str = "", files: int = 5, ranks: int = 5):
    (tmp_path / "game.yaml").write_text(YAML.format(files=files, ranks=ranks, setup=setup, extra=extra))
    (tmp_path / "game.rules").write_text(textwrap.dedent(rules))
    return load_game(str(tmp_path))


def one_decision(body: str, phase_extra: str = "") -> str:
    phase = "phase play:\n    turn: move\n" + textwrap.indent(textwrap.dedent(phase_extra), "    ")
    return phase + "decision move:\n" + textwrap.indent(textwrap.dedent(body), "    ")


# -------------------------------------------------------------- a second piece
def test_move_a_second_piece_in_one_action(tmp_path):
    # Castling in miniature: the king goes two to the east, the rook beyond it jumps over.
    rules = one_decision("""\
        action castle by king:
            where not piece.moved and neighbour(neighbour(from, e), e) is empty
            leap e distance 2
            notation "O-O"
            onto empty:
                move
                move neighbour(to, e) to neighbour(to, w)
    """)
    game = make(tmp_path, rules, "  white:\n    king: [a1]\n    rook: [d1]\n  black:\n    king: [a5]\n")
    state = game.initial_state()
    assert game.legal_notations(state) == ["O-O"]
    after = game.apply(state, "O-O")
    placed = {(p.site, p.kind) for p in game.pieces(after) if p.owner == "white"}
    assert placed == {("c1", "king"), ("b1", "rook")}
    assert after.ply == 1  # one action, one ply


def test_create_a_piece_where_the_action_says(tmp_path):
    # An arrow shot behind the moving piece: a neutral stone appears on the site left.
    rules = one_decision("""\
        action go by man:
            step n
            onto empty:
                move
                create stone at from
    """)
    game = make(tmp_path, rules, "  white:\n    man: [c1]\n  black:\n    man: [c5]\n")
    after = game.apply(game.initial_state(), "c1-c2")
    kinds = {p.site: (p.kind, p.owner) for p in game.pieces(after)}
    assert kinds["c1"] == ("stone", None) and kinds["c2"] == ("man", "white")


def test_create_for_another_player(tmp_path):
    rules = one_decision("""\
        action gift by man:
            step n
            onto empty:
                create man at to for opponent
    """)
    game = make(tmp_path, rules, "  white:\n    man: [c1]\n  black:\n    man: [c5]\n")
    after = game.apply(game.initial_state(), "c1-c2")
    assert {p.site: p.owner for p in game.pieces(after)} == {"c1": "white", "c2": "black", "c5": "black"}


def test_create_in_a_chance_event_is_for_the_player_whose_turn_it_is(tmp_path):
    # A chance event has no deciding player: its pieces are `player`'s (format.md 3.9, 3.10).
    rules = """\
        phase play:
            turn: spawn, move
        chance spawn:
            outcomes 1 to 2
            create man at (b3 if outcome == 1 else d3)
        decision move:
            action go by man:
                step n
                onto empty: move
    """
    game = make(tmp_path, rules, "  white:\n    man: [a1]\n  black:\n    man: [e5]\n")
    state = game.apply(game.initial_state(), "spawn:1")
    assert {p.site: p.owner for p in game.pieces(state)}["b3"] == "white"
    state = game.apply(game.apply(state, "a1-a2"), "spawn:2")
    assert game.to_move(state) == "black"
    assert {p.site: p.owner for p in game.pieces(state)}["d3"] == "black"


# -------------------------------------------------------------- one of several kinds
def test_promote_to_one_of_several_kinds_is_one_action_each(tmp_path):
    rules = one_decision("""\
        action push by man:
            step n
            onto empty:
                move
                if to in top:
                    promote piece to one of queen, rook
    """)
    extra = "regions:\n  top: {ranks: [5]}\n"
    game = make(tmp_path, rules, "  white:\n    man: [a4, c2]\n  black:\n    man: [e5]\n", extra)
    state = game.initial_state()
    assert game.legal_notations(state) == ["a4-a5=Q", "a4-a5=R", "c2-c3"]
    after = game.apply(state, "a4-a5=R")
    assert {p.site: p.kind for p in game.pieces(after)}["a5"] == "rook"


def test_the_choice_can_be_placed_in_the_notation(tmp_path):
    rules = one_decision("""\
        action push by man:
            step n
            notation "{from}{to}{choice}"
            onto empty:
                move
                promote piece to one of queen, rook
    """)
    game = make(tmp_path, rules, "  white:\n    man: [a4]\n  black:\n    man: [e5]\n")
    assert game.legal_notations(game.initial_state()) == ["a4a5Q", "a4a5R"]


def test_two_choices_in_one_case_are_an_error(tmp_path, capsys):
    rules = one_decision("""\
        action push by man:
            step n
            onto empty:
                promote piece to one of queen, rook
                promote piece to one of king, queen
    """)
    make_files(tmp_path, rules, "  white:\n    man: [a4]\n  black:\n    man: [e5]\n")
    assert main(["validate", str(tmp_path)]) == 1
    assert "a case can have one 'promote ... to one of'" in capsys.readouterr().err


def make_files(tmp_path, rules: str, setup: str, extra: str = "") -> None:
    (tmp_path / "game.yaml").write_text(YAML.format(files=5, ranks=5, setup=setup, extra=extra))
    (tmp_path / "game.rules").write_text(textwrap.dedent(rules))


# -------------------------------------------------------------- the position an action leaves
def test_forbid_result_judges_the_position_after_the_action(tmp_path):
    # A king may not end next to an enemy man (a stand-in for "in check").
    rules = one_decision("""\
        action step by king:
            step all
            onto empty: move
    """) + "forbid result where exists(pieces of player where it is king, exists(around, neighbour(it, it) is enemy))\n"
    # `around` is every direction; defined in the YAML below
    extra = "directions:\n  around: [all]\n"
    game = make(tmp_path, rules.replace("exists(around, neighbour(it, it) is enemy)",
                                        "exists(d in around, neighbour(it, d) is enemy)"),
                "  white:\n    king: [a1]\n  black:\n    man: [c2]\n", extra)
    # a1's neighbours: a2, b1, b2; b1 and b2 touch c2.
    assert game.legal_notations(game.initial_state()) == ["a1-a2"]


def test_forbid_result_applies_before_prefer_tiers(tmp_path):
    # The preferred capture would leave the king next to an enemy: it is not legal, so
    # the other tier is offered.
    rules = one_decision("""\
        prefer: take
        action take by king:
            step e
            onto enemy:
                remove target
                move
        action walk by king:
            step n
            onto empty: move
    """) + ("forbid result where exists(pieces of opponent, it in neighbours(a2) and it != a2 "
            "and a1 is empty and false)\n")
    game = make(tmp_path, rules, "  white:\n    king: [a1]\n  black:\n    man: [b1, c1]\n")
    # nothing forbidden here (the condition is never true): take is preferred
    assert game.legal_notations(game.initial_state()) == ["a1xb1"]


def test_no_legal_action_and_mate_order(tmp_path):
    rules = one_decision("""\
        action step by man:
            step n
            onto empty: move
    """, phase_extra="""\
        before each turn:
            if no legal action:
                lose
    """)
    game = make(tmp_path, rules, "  white:\n    man: [a4]\n  black:\n    man: [a1]\n")
    state = game.apply(game.initial_state(), "a4-a5")
    # black's man at a1 can step; after it, white's man at a5 cannot: white loses
    # (the `before each turn` rule ends the game before `if no action` would).
    state = game.apply(state, "a1-a2")
    result = game.result(state)
    assert result.winner == "black" and result.ending.how == "lose"


# -------------------------------------------------------------- repetitions
def test_repetitions_count_positions_at_the_start_of_turns(tmp_path):
    rules = one_decision("""\
        action step by man:
            step n, s
            onto empty: move
    """, phase_extra="""\
        before each turn:
            if repetitions >= 3:
                draw
    """)
    game = make(tmp_path, rules, "  white:\n    man: [a1]\n  black:\n    man: [e5]\n")
    state = game.initial_state()
    for notation in ["a1-a2", "e5-e4", "a2-a1", "e4-e5", "a1-a2", "e5-e4", "a2-a1"]:
        assert not game.is_terminal(state)
        state = game.apply(state, notation)
    assert not game.is_terminal(state)  # the start position has occurred twice
    state = game.apply(state, "e4-e5")
    result = game.result(state)
    assert result.winner is None and result.ending.how == "draw"


def test_a_counter_outside_the_position_does_not_break_repetition(tmp_path):
    rules = one_decision("""\
        action step by man:
            step n, s
            onto empty:
                move
                clock += 1
    """, phase_extra="""\
        before each turn:
            if repetitions >= 2:
                draw
    """)
    extra = "variables:\n  clock: {type: int, in_position: false}\n"
    game = make(tmp_path, rules, "  white:\n    man: [a1]\n  black:\n    man: [e5]\n", extra)
    state = game.initial_state()
    for notation in ["a1-a2", "e5-e4", "a2-a1", "e4-e5"]:
        state = game.apply(state, notation)
    assert game.is_terminal(state)
    # counted in the position, the clock makes every position new
    (tmp_path / "game.yaml").write_text((tmp_path / "game.yaml").read_text().replace(", in_position: false", ""))
    game = load_game(str(tmp_path))
    state = game.initial_state()
    for notation in ["a1-a2", "e5-e4", "a2-a1", "e4-e5"]:
        state = game.apply(state, notation)
    assert not game.is_terminal(state)


def test_repetitions_only_at_the_start_of_a_turn(tmp_path, capsys):
    rules = one_decision("""\
        action step by man:
            step n
            onto empty:
                move
                if repetitions > 2:
                    draw
    """)
    make_files(tmp_path, rules, "  white:\n    man: [a1]\n  black:\n    man: [e5]\n")
    assert main(["validate", str(tmp_path)]) == 1
    assert "'repetitions'" in capsys.readouterr().err


# -------------------------------------------------------------- loops and parameters
def test_repeat_and_procedures_with_parameters(tmp_path):
    rules = one_decision("""\
        action grow by man:
            step n
            onto empty:
                move
                grow(piece, 3)
    """) + textwrap.dedent("""\
        procedure grow(who, n):
            repeat n times:
                who.count += 1
    """)
    game = make(tmp_path, rules, "  white:\n    man: [a1]\n  black:\n    man: [e5]\n")
    after = game.apply(game.initial_state(), "a1-a2")
    assert {p.site: p.attributes["count"] for p in game.pieces(after)}["a2"] == 3


def test_a_procedure_called_with_the_wrong_number_of_arguments(tmp_path, capsys):
    rules = one_decision("""\
        action grow by man:
            step n
            onto empty:
                grow(piece)
    """) + "procedure grow(who, n):\n    who.count += n\n"
    make_files(tmp_path, rules, "  white:\n    man: [a1]\n  black:\n    man: [e5]\n")
    assert main(["validate", str(tmp_path)]) == 1
    assert "procedure 'grow' takes 2 argument(s) (who, n), found 1" in capsys.readouterr().err


# -------------------------------------------------------------- leaps by offset
def test_leap_by_offsets_is_symmetric(tmp_path):
    rules = one_decision("""\
        action jump by man:
            leap (1, 2)
            onto empty: move
    """)
    game = make(tmp_path, rules, "  white:\n    man: [c3]\n  black:\n    man: [e5]\n")
    assert game.legal_notations(game.initial_state()) == [
        "c3-a2", "c3-a4", "c3-b1", "c3-b5", "c3-d1", "c3-d5", "c3-e2", "c3-e4",
    ]


def test_exact_offsets_turn_with_the_player(tmp_path):
    rules = one_decision("""\
        action jump by man:
            leap exactly (1, 2), (-1, 2)
            onto empty: move
    """)
    game = make(tmp_path, rules, "  white:\n    man: [c1]\n  black:\n    man: [c5]\n")
    state = game.initial_state()
    assert game.legal_notations(state) == ["c1-b3", "c1-d3"]
    state = game.apply(state, "c1-b3")
    # black's forward is south: the same offsets lead to b3 (taken: no case) and d3
    assert game.legal_notations(state) == ["c5-d3"]


# -------------------------------------------------------------- tracks
TRACK_YAML = """\
tracks:
  lap: {sites: [a1, b1, c1, d1, e1], loop: false}
  round:
    per_player:
      white: {sites: [a1, b1, c1, d1, e1], loop: true}
      black: {sites: [e1, d1, c1, b1, a1], loop: true}
"""


def test_along_a_track_and_off_its_end(tmp_path):
    rules = one_decision("""\
        action run by man:
            along lap distance 3
            onto empty: move
            off board: remove piece
    """)
    game = make(tmp_path, rules, "  white:\n    man: [a1, c1]\n  black:\n    man: [e5]\n", TRACK_YAML)
    assert game.legal_notations(game.initial_state()) == ["a1-d1", "c1-off"]


def test_track_functions(tmp_path):
    rules = one_decision("""\
        action sow by man:
            step n
            onto empty:
                for each s in along(round[player], from, 7):
                    create stone at s
                if ahead(round[player], from, 7) == c1 and steps_on(round[player], d1) == 3:
                    win
    """)
    game = make(tmp_path, rules, "  white:\n    man: [a1]\n  black:\n    man: [e5]\n", TRACK_YAML)
    after = game.apply(game.initial_state(), "a1-a2")
    stones = sorted(p.site for p in game.pieces(after) if p.kind == "stone")
    assert stones == ["a1", "b1", "c1", "d1", "e1"]
    assert game.result(after).winner == "white"


def test_a_track_is_a_set_of_sites_to_choose_from(tmp_path):
    # format.md 2.15: a track serves as the set of its sites, where an action
    # chooses among sites too (select, drop ... on, go to).
    rules = one_decision("""\
        action mark:
            select round[player]
            notation "*{to}"
            onto empty: create stone at to
        action set:
            drop man on lap
            onto empty: place
        action fly by king:
            go to lap
            notation "K{to}"
            onto empty: move
    """)
    game = make(tmp_path, rules, "  white:\n    man: [a1]\n    king: [a5]\n  black:\n    man: [e5]\n", TRACK_YAML)
    notations = game.legal_notations(game.initial_state())
    assert sorted(n for n in notations if n.startswith("*")) == ["*b1", "*c1", "*d1", "*e1"]
    assert sorted(n for n in notations if n.startswith("@")) == ["@b1", "@c1", "@d1", "@e1"]
    assert sorted(n for n in notations if n.startswith("K")) == ["Kb1", "Kc1", "Kd1", "Ke1"]


ROUNDS_OF_TWO_LENGTHS = """\
variables:
  visits: {type: int}
  landed: {type: int}
tracks:
  round:
    per_player:
      white: {sites: [a1, b1, c1, d1, e1], loop: true}
      black: {sites: [e1, d1, c1], loop: true}
  lap: [a1, b1, c1, d1]
"""


@pytest.mark.parametrize("player,start,sites", [
    ("white", "a1", ["a1", "b1", "c1", "d1", "e1"]),
    ("black", "e1", ["e1", "d1", "c1"]),
])
@pytest.mark.parametrize("n", [-1, 0, 1, 3, 5, 6, 7, 10, 11, 16])
@pytest.mark.parametrize("tables", [True, False])
def test_along_and_ahead_round_tracks_of_two_lengths(tmp_path, monkeypatch, player, start, sites, n, tables):
    # `ahead` and `along` read a table of the sites after each site as far as it
    # reaches (twice round the shorter track), the helpers beyond: both must agree
    # with going round the track step by step, for both players' tracks; and so
    # must the helpers alone, where a game's tables would pass their bound.
    if not tables:
        monkeypatch.setattr(expr_tracks, "MAX_FOLLOWING_ENTRIES", 0)
    rules = one_decision("""\
        action sow by man:
            step n
            onto empty:
                for each s in along(round[player], from, piece.count):
                    visits = (visits * 7 + steps_on(round[player], s) + 1) % 1000003
                for each s in along(lap, from, piece.count):
                    visits = (visits * 7 + steps_on(lap, s) + 1) % 1000003
                landed = steps_on(round[player], ahead(round[player], from, piece.count)) * 10 \\
                    + steps_on(lap, ahead(lap, from, piece.count)) + 1
    """)
    other = "black" if player == "white" else "white"
    game = make(tmp_path, rules, "  white:\n    man: [c3]\n  black:\n    man: [c4]\n", ROUNDS_OF_TWO_LENGTHS)
    # `FOLLOWING[site][:n]`: the first n sites after a site, read from a table
    first_n = [node for node in generated(game, ast.Subscript) if isinstance(node.value, ast.Subscript)
               and isinstance(node.slice, ast.Slice) and node.slice.lower is None]
    assert bool(first_n) is tables
    state = game.make_state({start: (player, "man", {"count": n}), "a5": (other, "man")}, to_move=player)
    after = game.apply(state, f"{start}-{start[0]}2")
    lap = ["a1", "b1", "c1", "d1"]
    visits = 0
    for k in range(1, max(n, 0) + 1):
        visits = (visits * 7 + (k % len(sites)) + 1) % 1000003
    on_lap = lap.index(start) if start in lap else None
    if on_lap is not None:
        for k in range(1, max(n, 0) + 1):
            if on_lap + k < len(lap):
                visits = (visits * 7 + on_lap + k + 1) % 1000003
    round_end = n % len(sites) if n >= 0 else -1
    lap_end = on_lap + n if on_lap is not None and 0 <= on_lap + n < len(lap) and n >= 0 else -1
    assert game.variables(after)["visits"] == visits
    assert game.variables(after)["landed"] == round_end * 10 + lap_end + 1


@pytest.mark.parametrize("player,start", [("white", "a1"), ("black", "e1"), ("white", "c3")])
@pytest.mark.parametrize("n", [0, 4, 5, 6, 13])
def test_along_and_ahead_by_a_remainder_within_the_tables(tmp_path, monkeypatch, player, start, n):
    # A number of steps that is a remainder (`N % K`, plus or minus a number) is
    # known to lie within the tables' reach (twice round the shorter round: 6;
    # to the lap's end): `ahead` and `along` read them with no test of it and no
    # helper (off the track, an empty row: -1, no sites). Both must agree with the
    # helpers alone, on both tracks, from a site off either of them (c3) too.
    rules = one_decision("""\
        action sow by man:
            step n
            onto empty:
                for each s in along(round[player], from, piece.count % 6):
                    visits = (visits * 7 + steps_on(round[player], s) + 1) % 1000003
                for each s in along(lap, from, piece.count % 9):
                    visits = (visits * 7 + steps_on(lap, s) + 1) % 1000003
                landed = steps_on(round[player], ahead(round[player], from, piece.count % 6 + 1)) * 100 \\
                    + steps_on(lap, ahead(lap, from, piece.count % 9 + 1)) * 10 \\
                    + steps_on(round[player], ahead(round[player], from, piece.count % 7 + 1)) + 12
    """)
    other = "black" if player == "white" else "white"
    answers = []
    for tables in (True, False):
        if not tables:
            monkeypatch.setattr(expr_tracks, "MAX_FOLLOWING_ENTRIES", 0)
        game = make(tmp_path, rules, "  white:\n    man: [c2]\n  black:\n    man: [c4]\n", ROUNDS_OF_TWO_LENGTHS)
        # (with the tables, only `% 7 + 1` passes the round's reach: its helper stays)
        assert len(helper_calls(game, "h_along")) == (0 if tables else 2)
        assert len(helper_calls(game, "h_ahead")) == (1 if tables else 3)
        state = game.make_state({start: (player, "man", {"count": n}), "a5": (other, "man")}, to_move=player)
        after = game.apply(state, f"{start}-{start[0]}{int(start[1]) + 1}")
        answers.append((game.variables(after)["visits"], game.variables(after)["landed"]))
    assert answers[0] == answers[1]
    # (hand-checked: white from a1 with 13 seeds: round 13 % 6 = 1 step to b1, then
    # ahead 2 on the round is c1 (2), on the lap 13 % 9 + 1 = 5 steps is past d1 (-1),
    # 13 % 7 + 1 = 7 steps round the five is c1 (2))
    if (player, start, n) == ("white", "a1", 13):
        assert answers[0][1] == 2 * 100 - 10 + 2 + 12


FIRST_YAML = """\
regions:
  corner: [e5]
  home:
    per_player:
      white: [d1, b1]
      black: [d5]
"""


def test_first_is_the_earliest_site_in_board_order(tmp_path):
    rules = one_decision("""\
        action step by man:
            step n
            onto empty:
                move
                create stone at first(corner)
                create stone at first(home[player])
                # the opponent's men in board order, whatever order they were set up in
                create stone at neighbour(first(pieces of opponent), n)
                if not first(pieces of opponent where it is king):
                    create stone at a5
    """)
    game = make(tmp_path, rules, "  white:\n    man: [c3]\n  black:\n    man: [e4, a3]\n", FIRST_YAML)
    after = game.apply(game.initial_state(), "c3-c4")
    stones = sorted(p.site for p in game.pieces(after) if p.kind == "stone")
    assert stones == ["a4", "a5", "b1", "e5"]
    assert helper_calls(game, "h_first")  # (the pieces' sites: known only when playing)


# -------------------------------------------------------------- setup attributes
def test_setup_gives_attribute_values(tmp_path):
    rules = one_decision("""\
        action step by man:
            step n
            onto empty: move
    """)
    setup = ("  white:\n    man: [{site: a1, count: 5}, b1]\n    king: {sites: [c1], count: 2, moved: true}\n"
             "  black:\n    man: [e5]\n")
    game = make(tmp_path, rules, setup)
    values = {p.site: (p.attributes["count"], p.attributes["moved"]) for p in game.pieces(game.initial_state())}
    assert values["a1"] == (5, False) and values["b1"] == (0, False) and values["c1"] == (2, True)


@pytest.mark.parametrize("entry,message", [
    ("[{site: a1, speed: 5}]", "unknown attribute 'speed'"),
    ("[{site: a1, count: true}]", "attribute 'count' takes a whole number"),
    ("[{site: a1, moved: 3}]", "attribute 'moved' is a flag"),
])
def test_setup_attribute_mistakes(tmp_path, capsys, entry, message):
    make_files(tmp_path, one_decision("action step by man:\n    step n\n    onto empty: move\n"),
               f"  white:\n    man: {entry}\n  black:\n    man: [e5]\n")
    assert main(["validate", str(tmp_path)]) == 1
    assert message in capsys.readouterr().err


def test_the_same_piece_after_a_select_is_the_piece_selected(tmp_path):
    rules = """\
        phase play:
            turn: choose
        decision choose:
            action pick:
                select pieces of player
                onto own:
                    then go
        decision go:
            action step by the same piece:
                step e
                onto empty: move
    """
    game = make(tmp_path, rules, "  white:\n    man: [a1, c1]\n  black:\n    man: [e5]\n")
    state = game.apply(game.initial_state(), "a1")
    assert game.legal_notations(state) == ["a1-b1"]
