"""RoyalFiz as bundled (games/royalfiz), against the rules as played (games/royalfiz/README.md).

* hand-checked positions: every expected legal list below was worked out from the
  README's board (rings, paths, homes, moat) by hand, not printed by the interpreter;
* turn order, chance events, the turn limit, record replay;
* perft from the start for 2, 3 and 4 players (tests/data/perft.md);
* a differential test against the independent reference implementation
  tests/reference/royalfiz_ref.py on random games.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from interpreter import IllegalActionError, load_game
from tests import helpers
from tests.helpers import api_perft, play
from tests.reference import royalfiz_ref

START_BARRICADES = [f"s{k}b" for k in range(1, 9)] + ["c3", "c5", "c7"]
PATHS = [f"s{k}{ab}" for k in range(1, 9) for ab in "ab"]
INNER = [f"i{k}" for k in range(1, 17)]
CENTRE = [f"c{k}" for k in range(1, 9)]
OUTER = [f"o{k}" for k in range(1, 41)]

_GAMES: dict = {}


def game(players=2, max_turns=1000):
    key = (players, max_turns)
    if key not in _GAMES:
        _GAMES[key] = load_game("royalfiz", options={"players": players, "max_turns": max_turns})
    return _GAMES[key]


def position(g, pieces, barricades=START_BARRICADES, to_move="red", die=None, turns=0):
    """``{site: colour}`` on the board, every other piece of a colour at home;
    ``die=None``: the roll is next, else the move with that roll."""
    spec = {site: (colour, "pawn") for site, colour in pieces.items()}
    for site in barricades:
        spec[site] = ("neutral", "barricade")
    home = {p: 5 - sum(1 for c in pieces.values() if c == p) for p in g.players}
    return g.make_state(pieces=spec, to_move=to_move, phase="play",
                        decision="roll" if die is None else "move",
                        variables={"die": die or 0, "turns": turns}, pools={"home": home})


def where(g, s):
    """``{site: colour or 'barricade'}``."""
    return helpers.board(g, s, lambda p: p.owner if p.kind == "pawn" else "barricade")


def moves_from(g, s, site):
    return sorted(a for a in g.legal_notations(s) if a.split("-")[0].split("x")[0] == site)


# ======================================================================== board, start
def test_start_position():
    for n, players in ((2, ("red", "green")), (3, ("red", "blue", "green")),
                       (4, ("red", "blue", "green", "yellow"))):
        g = game(n)
        s = g.initial_state()
        assert g.players == players
        assert g.pools(s) == {"home": {p: 5 for p in players}}
        assert where(g, s) == {site: "barricade" for site in START_BARRICADES}
        assert g.variables(s) == {"die": 0, "turns": 0}
        assert g.to_move(s) == "chance" and g.phase(s) == "opening"


def test_homes_of_colours_not_in_play_stay_empty():
    g = game(2)
    assert set(g.pools(g.initial_state())["home"]) == {"red", "green"}
    with pytest.raises(IllegalActionError):
        g.apply(g.initial_state(), "start:blue")


# ======================================================================== chance
@pytest.mark.parametrize("n, players", [(2, ["red", "green"]),
                                        (3, ["red", "blue", "green"]),
                                        (4, ["red", "blue", "green", "yellow"])])
def test_chance_start_then_roll(n, players):
    g = game(n)
    s = g.initial_state()
    outcomes = {a.notation: p for a, p in g.chance_outcomes(s)}
    assert outcomes == pytest.approx({f"start:{c}": 1 / n for c in players})
    assert g.legal_notations(s) == sorted(outcomes)
    for c in players:
        t = g.apply(s, f"start:{c}")
        assert g.to_move(t) == "chance" and g.phase(t) == "play"
        assert g.variables(t)["turns"] == 0  # the start event is not a turn
        rolls = {a.notation: p for a, p in g.chance_outcomes(t)}
        assert rolls == pytest.approx({f"roll:{k}": 1 / 6 for k in range(1, 7)})
        u = g.apply(t, "roll:3")
        assert g.to_move(u) == c and g.variables(u)["die"] == 3


# ======================================================================== walking
# From home the entry field is the first step (red enters at o1; s1 starts at o3,
# s8 at o38; green enters at o21; s5 starts at o23, s4 at o18).
RED_FROM_HOME = {
    1: ["home_red-o1"],
    2: ["home_red-o2", "home_red-o40"],
    3: ["home_red-o3", "home_red-o39"],
    4: ["home_red-o4", "home_red-o38", "home_red-s1a"],
    5: ["home_red-o5", "home_red-o37", "home_red-s8a", "home_redxs1b"],
    6: ["home_red-o6", "home_red-o36", "home_redxs8b"],  # via s1b: blocked at step 5
}
GREEN_FROM_HOME = {
    1: ["home_green-o21"],
    2: ["home_green-o20", "home_green-o22"],
    3: ["home_green-o19", "home_green-o23"],
    4: ["home_green-o18", "home_green-o24", "home_green-s5a"],
    5: ["home_green-o17", "home_green-o25", "home_green-s4a", "home_greenxs5b"],
    6: ["home_green-o16", "home_green-o26", "home_greenxs4b"],
}


@pytest.mark.parametrize("roll", range(1, 7))
def test_home_entry_is_the_first_step(roll):
    g = game(2)
    s = play(g, "start:red", f"roll:{roll}")
    assert g.legal_notations(s) == sorted(RED_FROM_HOME[roll])
    s = play(g, "start:green", f"roll:{roll}")
    assert g.legal_notations(s) == sorted(GREEN_FROM_HOME[roll])


def test_all_pieces_at_home_are_one_starting_point():
    g = game(2)
    s = play(g, "start:red", "roll:4", "home_red-o4")
    assert g.pools(s)["home"] == {"red": 4, "green": 5}
    assert where(g, s)["o4"] == "red"
    assert g.to_move(s) == "chance"  # green's roll


def test_no_field_twice_and_nothing_moves_into_a_home():
    g = game(2)
    # o10, roll 2: o8 or o12; never back to o10
    s = position(g, {"o10": "red"}, die=2)
    assert moves_from(g, s, "o10") == ["o10-o12", "o10-o8"]
    # s1a, roll 2: to i2 (s1b is free here), o2 or o4 (via o3); never s1a itself
    s = position(g, {"s1a": "red"}, barricades=[], die=2)
    assert moves_from(g, s, "s1a") == ["s1a-i2", "s1a-o2", "s1a-o4"]
    # o2, roll 2: o1 has no way into home_red (one-way edge)
    s = position(g, {"o2": "red"}, die=2)
    assert moves_from(g, s, "o2") == ["o2-o4", "o2-o40", "o2-s1a"]


def test_two_walks_to_the_same_field_are_one_action():
    g = game(2)
    # c1, roll 4, no barricades: c1-c2-c3-c4-c5 and c1-c8-c7-c6-c5 both end on c5;
    # the goal is a dead end (only as the last step)
    s = position(g, {"c1": "red"}, barricades=[], die=4)
    assert moves_from(g, s, "c1") == ["c1-c5"]
    s = position(g, {"c1": "red"}, barricades=[], die=1)
    assert moves_from(g, s, "c1") == ["c1-c2", "c1-c8", "c1-goal"]


def test_barricade_blocks_passing_but_can_be_landed_on():
    g = game(2)
    # o3 with a barricade on s1a: roll 1 lands on it, roll 2 cannot pass it
    s = position(g, {"o3": "red"}, barricades=["s1a"], die=1)
    assert moves_from(g, s, "o3") == ["o3-o2", "o3-o4", "o3xs1a"]
    s = position(g, {"o3": "red"}, barricades=["s1a"], die=2)
    assert moves_from(g, s, "o3") == ["o3-o1", "o3-o5"]
    # pieces (own and enemy) are passed over
    s = position(g, {"o3": "red", "s1a": "red", "s1b": "green"}, barricades=[], die=3)
    assert moves_from(g, s, "o3") == ["o3-i2", "o3-o40", "o3-o6"]


def test_own_piece_blocks_landing_and_enemy_goes_home():
    g = game(2)
    s = position(g, {"o5": "red", "o7": "red", "o3": "green"}, barricades=[], die=2)
    # o5: o7 is own (not a landing), o3 is green (a capture); o7: o9, o5 own, via o8 s2a
    assert moves_from(g, s, "o5") == ["o5xo3"]
    assert moves_from(g, s, "o7") == ["o7-o9", "o7-s2a"]
    t = g.apply(s, "o5xo3")
    assert g.pools(t)["home"] == {"red": 3, "green": 5}
    assert where(g, t) == {"o3": "red", "o7": "red"}
    # green's own pieces: entering at o21 passes an own piece there, cannot end on one
    s = position(g, {"o21": "green", "o22": "green"}, to_move="green", barricades=[], die=2)
    assert moves_from(g, s, "home_green") == ["home_green-o20"]


def test_barricade_taken_is_placed_by_the_same_player():
    g = game(2)
    # red steps from s1a onto the barricade s1b and must place it
    s = position(g, {"s1a": "red", "i3": "green"}, die=1)
    assert "s1axs1b" in g.legal_notations(s)
    t = g.apply(s, "s1axs1b")
    assert g.to_move(t) == "red" and g.variables(t)["turns"] == 0
    assert where(g, t)["s1b"] == "red"
    # empty fields off the outer ring, not a home, not the goal: the paths (s1a just
    # left included), inner and centre ring (c1 included), minus barricades and pieces
    taken = {"s2b", "s3b", "s4b", "s5b", "s6b", "s7b", "s8b", "c3", "c5", "c7", "s1b", "i3"}
    expected = sorted("@" + x for x in PATHS + INNER + CENTRE if x not in taken)
    assert g.legal_notations(t) == expected
    assert "@s1a" in expected and "@c1" in expected and len(expected) == 16 + 16 + 8 - 12
    for bad in ("@o5", "@home_red", "@goal", "@s2b", "@i3", "@s1b"):
        with pytest.raises(IllegalActionError):
            g.apply(t, bad)
    u = g.apply(t, "@s1a")  # back where the piece came from
    assert where(g, u)["s1a"] == "barricade" and where(g, u)["s1b"] == "red"
    assert g.to_move(u) == "chance" and g.variables(u)["turns"] == 1
    u = g.apply(g.apply(u, "roll:1"), "home_green-o21")
    assert g.to_move(u) == "chance"  # red's turn again
    t2 = g.apply(t, "@c1")
    assert where(g, t2)["c1"] == "barricade"


# ======================================================================== the moat
def test_moat_jumps_with_a_six():
    g = game(2)
    s = position(g, {"i5": "red", "c4": "green", "c6": "red"}, die=6)
    # i5 walks: i11 (i6..i11), i15 (i4..i15), s5b via i10, s8b via i16; i6-s3b, i4-s2b,
    # i8-s4b, i2-s1b are barricades before the last step
    # i5 jumps: c2..c8, not c1; c6 is red's own; c3, c5, c7 barricades; c4 green
    assert moves_from(g, s, "i5") == sorted([
        "i5-i11", "i5-i15", "i5xs5b", "i5xs8b",
        "i5-c2", "i5xc3", "i5xc4", "i5xc5", "i5xc7", "i5-c8"])
    # c6 walks are blocked by c5 and c7; it jumps to any field of the inner ring
    assert moves_from(g, s, "c6") == sorted(
        ["c6-" + x for x in INNER if x != "i5"])
    t = g.apply(s, "i5xc4")
    assert g.pools(t)["home"]["green"] == 5 and where(g, t)["c4"] == "red"
    t = g.apply(s, "i5xc3")  # a barricade taken by a jump: placement follows
    assert g.to_move(t) == "red" and g.legal_notations(t)[0].startswith("@")
    assert "@i5" in g.legal_notations(t)


def test_no_jump_without_a_six():
    g = game(2)
    for die in range(1, 6):
        s = position(g, {"i5": "red", "c4": "red"}, barricades=[], die=die)
        assert not any(a.split("-")[-1].split("x")[-1].startswith("c")
                       for a in moves_from(g, s, "i5")), die
        assert not any(a.split("-")[-1].split("x")[-1].startswith("i")
                       for a in moves_from(g, s, "c4")), die


def test_pass_only_when_no_move_exists():
    g = game(2)
    # all five red pieces are boxed in by barricades (c1 c3 c5 c7 around the centre
    # pieces, i2 i16 around i1); nothing at home
    pieces = {"c2": "red", "c4": "red", "c6": "red", "c8": "red", "i1": "red"}
    bars = ["c1", "c3", "c5", "c7", "i2", "i16", "s2b", "s3b", "s4b", "s5b", "s6b"]
    for die in (2, 3, 4, 5):
        s = position(g, pieces, barricades=bars, die=die, turns=7)
        assert g.legal_notations(s) == ["pass"]
    t = g.apply(position(g, pieces, barricades=bars, die=3, turns=7), "pass")
    assert g.variables(t)["turns"] == 8 and g.to_move(t) == "chance"
    assert where(g, t) == where(g, position(g, pieces, barricades=bars))
    assert g.to_move(g.apply(t, "roll:1")) == "green"
    # with a 1 the barricades next door can be taken; with a 6, jumps: no pass
    s = position(g, pieces, barricades=bars, die=1)
    assert "pass" not in g.legal_notations(s)
    assert moves_from(g, s, "i1") == ["i1xi16", "i1xi2"]
    s = position(g, pieces, barricades=bars, die=6)
    assert "pass" not in g.legal_notations(s)
    # a normal position never offers `pass`
    assert "pass" not in g.legal_notations(play(g, "start:red", "roll:1"))


# ======================================================================== the end
def test_win_by_entering_the_goal_as_last_step():
    g = game(2)
    s = position(g, {"c2": "red"}, barricades=[], die=2)
    assert moves_from(g, s, "c2") == ["c2-c4", "c2-c8", "c2-goal"]
    t = g.apply(s, "c2-goal")
    assert g.is_terminal(t) and g.to_move(t) is None and g.legal_notations(t) == []
    r = g.result(t)
    assert r.winner == "red" and r.scores == {"red": 1, "green": 0}
    # the goal cannot be passed: from c1 with a 2 no walk goes through it
    s = position(g, {"c1": "red"}, barricades=[], die=2)
    assert moves_from(g, s, "c1") == ["c1-c3", "c1-c7"]
    # 4 players
    g4 = game(4)
    s = position(g4, {"c8": "yellow"}, barricades=[], to_move="yellow", die=2)
    r = g4.result(g4.apply(s, "c8-goal"))
    assert r.winner == "yellow"
    assert r.scores == {"red": 0, "blue": 0, "green": 0, "yellow": 1}


def test_max_turns_draw():
    g = game(2, max_turns=3)
    s = play(g, "start:red", "roll:1", "home_red-o1")
    assert g.variables(s)["turns"] == 1  # the start event is not a turn
    s = play(g, "roll:1", "home_green-o21", state=s)
    assert not g.is_terminal(s) and g.variables(s)["turns"] == 2
    s = play(g, "roll:1", "o1-o2", state=s)
    assert g.is_terminal(s) and g.to_move(s) is None
    r = g.result(s)
    assert r.winner is None and r.scores == {"red": 0, "green": 0}


def test_a_pass_turn_counts_and_a_placement_turn_counts_once():
    g = game(2, max_turns=8)
    pieces = {"c2": "red", "c4": "red", "c6": "red", "c8": "red", "i1": "red"}
    bars = ["c1", "c3", "c5", "c7", "i2", "i16", "s2b", "s3b", "s4b", "s5b", "s6b"]
    t = g.apply(position(g, pieces, barricades=bars, die=3, turns=7), "pass")
    assert g.is_terminal(t) and g.result(t).winner is None
    assert g.result(t).scores == {"red": 0, "green": 0}
    # taking a barricade: the turn ends with the placement
    s = position(g, {"s1a": "red"}, die=1, turns=7)
    t = g.apply(s, "s1axs1b")
    assert not g.is_terminal(t) and g.variables(t)["turns"] == 7
    t = g.apply(t, "@c1")
    assert g.is_terminal(t) and g.result(t).winner is None


def test_winning_ends_the_game_before_the_turn_limit():
    g = game(2, max_turns=8)
    s = position(g, {"c2": "green"}, barricades=[], to_move="green", die=2, turns=7)
    r = g.result(g.apply(s, "c2-goal"))
    assert r.winner == "green" and r.scores == {"red": 0, "green": 1}


# ======================================================================== turn order
def turn_order(g, first, turns):
    """The players of the first ``turns`` turns, rolling 1 and taking the first move."""
    s = g.apply(g.initial_state(), f"start:{first}")
    seen = []
    for _ in range(turns):
        s = g.apply(s, "roll:1")
        seen.append(g.to_move(s))
        s = g.apply(s, g.legal_notations(s)[0])
        while g.to_move(s) not in ("chance", None):  # a placement
            s = g.apply(s, g.legal_notations(s)[0])
    return seen


@pytest.mark.parametrize("n, first, expected", [
    (2, "red", ["red", "green", "red", "green", "red"]),
    (2, "green", ["green", "red", "green", "red", "green"]),
    (3, "red", ["red", "blue", "green", "red", "blue", "green", "red"]),
    (3, "green", ["green", "red", "blue", "green", "red", "blue", "green"]),
    (3, "blue", ["blue", "green", "red", "blue", "green", "red", "blue"]),
    (4, "red", ["red", "blue", "green", "yellow", "red", "blue", "green", "yellow", "red"]),
    (4, "yellow", ["yellow", "red", "blue", "green", "yellow", "red", "blue", "green",
                   "yellow"]),
])
def test_turn_order(n, first, expected):
    assert turn_order(game(n), first, len(expected)) == expected


# ======================================================================== records
RECORD = [
    "start:green", "roll:6", "home_greenxs4b", "@c1",   # green takes s4b, puts it on c1
    "roll:3", "home_red-o3",
    "roll:2", "s4b-i9",
    "roll:6", "home_red-o6",
    "roll:5", "home_green-o25",
    "roll:2", "o3xs1b", "@s1a",                         # red takes s1b, puts it on s1a
    "roll:1", "i9-i10",
    "roll:2", "s1b-i3",
    "roll:6", "i10xc3", "@i9",                          # green jumps the moat onto c3
    "roll:1", "i3-i4",
    "roll:2", "c3xc1", "@i10",                          # c1 held the barricade
    "roll:1", "o6-o7",
    "roll:1", "c1-goal",
]


def test_record_with_chance_replays_exactly():
    g = game(2)
    runs = []
    for _ in range(2):
        s = g.initial_state()
        trace = []
        for a in RECORD:
            s = g.apply(s, a)
            trace.append((g.to_move(s), g.legal_notations(s), sorted(where(g, s).items()),
                          g.pools(s), g.variables(s), g.phase(s), s.ply))
        runs.append(trace)
    assert runs[0] == runs[1]
    assert g.is_terminal(s) and g.result(s).winner == "green"
    assert s.ply == len(RECORD)
    # and the reference agrees on every position of the record
    ref = royalfiz_ref.Game({"players": 2})
    rs = ref.initial()
    for a, (to_move, legal, *_rest) in zip(RECORD, runs[0]):
        rs = ref.apply(rs, a)
        assert (ref.to_move(rs), sorted(ref.legal(rs))) == (to_move, legal), a


# ======================================================================== perft
@pytest.mark.parametrize("n, counts", [(4, [4, 24, 60, 544]), (3, [3, 18, 45, 408]),
                                       (2, [2, 12, 30, 272])])
def test_perft_from_start(n, counts):
    g = game(n)
    assert [api_perft(g, g.initial_state(), d) for d in (1, 2, 3, 4)] == counts


# ======================================================================== differential
def ref_where(rs):
    out = {royalfiz_ref.NAMES[f]: royalfiz_ref.COLOURS[c] for f, c in enumerate(rs.occ)
           if c >= 0}
    for f in range(royalfiz_ref.N_NODES):
        if rs.bar >> f & 1:
            out[royalfiz_ref.NAMES[f]] = "barricade"
    return out


def near_the_goal(n):
    """Two pieces per colour on the inner and centre rings: jumps, captures and wins."""
    layout = {"red": ["i1", "c2"], "blue": ["i5", "c4"], "green": ["i9", "c6"],
              "yellow": ["i13", "c8"]}
    colours = [royalfiz_ref.COLOURS[c] for c in royalfiz_ref.IN_PLAY[n]]
    pieces = {site: c for c in colours for site in layout[c]}
    return pieces, START_BARRICADES


def boxed(n):
    """Red's five pieces boxed in by barricades (as in test_pass_only_when_no_move_exists),
    the others spread out: red passes on 2 to 5 until something opens up."""
    pieces = {"c2": "red", "c4": "red", "c6": "red", "c8": "red", "i1": "red",
              "i7": "green", "i11": "green", "o25": "green"}
    if n >= 3:
        pieces.update({"i5": "blue", "o12": "blue"})
    if n == 4:
        pieces.update({"i13": "yellow"})
    bars = ["c1", "c3", "c5", "c7", "i2", "i16", "s2b", "s3b", "s4b", "s5b", "s6b"]
    return pieces, bars


def kind_of(a):
    if a == "pass" or a.startswith("@"):
        return a[:1]
    frm, to = a.replace("x", "-").split("-")
    if to == "goal":
        return "goal"
    if frm[0] + to[0] in ("ic", "ci"):
        return "jump"
    return "x" if "x" in a else "-"


def run_differential(g, ref, s, rs, rng, seen):
    plies = 0
    while True:
        assert g.is_terminal(s) == ref.is_terminal(rs), s.ply
        if g.is_terminal(s):
            break
        assert g.to_move(s) == ref.to_move(rs), s.ply
        legal = g.legal_notations(s)
        assert legal == sorted(ref.legal(rs)), s.ply
        assert where(g, s) == ref_where(rs), s.ply
        assert g.pools(s)["home"] == {royalfiz_ref.COLOURS[c]: rs.home[c] for c in ref.colours}
        assert g.variables(s)["turns"] == rs.turns
        if g.to_move(s) == "chance":
            outcomes = g.chance_outcomes(s)
            expected = dict(ref.chance(rs))
            assert {a.notation: p for a, p in outcomes} == pytest.approx(expected)
            a = rng.choices([a.notation for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            a = rng.choice(legal)
            seen[kind_of(a)] += 1
        s, rs = g.apply(s, a), ref.apply(rs, a)
        plies += 1
    assert where(g, s) == ref_where(rs)
    winner, scores = ref.result(rs)
    r = g.result(s)
    assert (r.winner, r.scores) == (winner, scores)
    seen["win" if winner else "draw"] += 1
    return plies


@pytest.mark.parametrize("n", [2, 3, 4])
def test_differential_from_start(n):
    g = game(n, max_turns=120)
    ref = royalfiz_ref.Game({"players": n, "max_turns": 120})
    rng = random.Random(100 + n)
    seen = Counter()
    plies = sum(run_differential(g, ref, g.initial_state(), ref.initial(), rng, seen)
                for _ in range(25))
    assert plies > 25 * 200
    assert seen["x"] and seen["@"] and seen["-"] and seen["draw"]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("start", [near_the_goal, boxed])
def test_differential_from_positions(start, n):
    g = game(n, max_turns=150)
    ref = royalfiz_ref.Game({"players": n, "max_turns": 150})
    rng = random.Random(200 + n)
    pieces, bars = start(n)
    seen = Counter()
    for i in range(30):
        first = g.players[i % n]
        s = position(g, pieces, barricades=bars, to_move=first)
        rs = ref.position(pieces, first, barricades=bars)
        run_differential(g, ref, s, rs, rng, seen)
    assert seen["jump"] and seen["goal"] and seen["win"] and seen["@"] and seen["x"]
    if start is boxed:
        assert seen["p"] > 10
