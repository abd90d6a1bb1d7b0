"""Constructs of the rules language on small hand-built positions: what is off the
board, quantifiers over directions and named elements, rays, groups, changing a
piece's owner, and `prefer`."""
import textwrap

import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from interpreter.loading.show import effective_definition
from interpreter.runtime.pieces import ActionCode

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
directions:
  lines: [n, ne, e, se, s, sw, w, nw]
regions:
  top: {{ranks: [{ranks}]}}
  bottom: {{ranks: [1]}}
pieces:
  man: {{symbol: M, description: A man.}}
  king: {{symbol: K, description: A king.}}
setup:
{setup}
"""


def make(tmp_path, rules: str, setup: dict, files: int = 5, ranks: int = 5):
    lines = []
    for player, kinds in setup.items():
        lines.append(f"  {player}:")
        for kind, sites in kinds.items():
            lines.append(f"    {kind}: [{', '.join(sites)}]")
    (tmp_path / "game.yaml").write_text(YAML.format(files=files, ranks=ranks, setup="\n".join(lines)))
    (tmp_path / "game.rules").write_text(textwrap.dedent(rules))
    return load_game(str(tmp_path))


def moves(tmp_path, rules: str, setup: dict, **size) -> list:
    game = make(tmp_path, rules, setup, **size)
    return game.legal_notations(game.initial_state())


def one_action(body: str) -> str:
    return "phase play:\n    turn: move\ndecision move:\n" + textwrap.indent(textwrap.dedent(body), "    ")


# -------------------------------------------------------------- beyond the edge

# (for the ray-count tests: how many occupied sites follow `site` in a direction)
_COMPARISONS = {">=": int.__ge__, ">": int.__gt__, "<": int.__lt__, "<=": int.__le__, "==": int.__eq__,
                "!=": int.__ne__}


def _run_length(occupied: list[str], site: str, step: int, up: int = 0) -> int:
    f, r, k = ord(site[0]), int(site[1]), 0
    while f"{chr(f + step)}{r + up}" in occupied:
        f, r, k = f + step, r + up, k + 1
    return k


def test_beyond_the_edge_is_not_an_empty_site(tmp_path):
    rules = one_action("""\
        action step by man:
            where neighbour(from, sw) is empty
            step n
            onto empty: move
        """)
    # a1 has no south-west neighbour; b2's is a1, empty.
    assert moves(tmp_path, rules, {"white": {"man": ["a1", "c2"]}}) == ["c2-c3"]
    negated = rules.replace("is empty", "is not empty")
    assert moves(tmp_path, negated, {"white": {"man": ["a1", "c2"]}}) == ["a1-a2"]


# -------------------------------------------------------------- quantifiers
def test_exists_and_count_over_directions(tmp_path):
    rules = one_action("""\
        action step by man, king:
            where exists(lines, neighbour(from, it) is enemy)
            where count(lines, neighbour(from, it) is empty) >= 3
            step n
            onto empty: move
        """)
    # a1: enemy on b2, empty a2 and b1: 2 empty neighbours; c3: enemy on b2, 7 empty.
    assert moves(tmp_path, rules, {"white": {"man": ["a1", "c3", "e5"]}, "black": {"man": ["b2"]}}) == ["c3-c4"]


def test_a_named_element_leaves_the_outer_it_reachable(tmp_path):
    rules = one_action("""\
        action step by man:
            # Some neighbour of a piece of the opponent is next to an own man
            where exists(pieces of opponent, exists(d in lines, neighbour(it, d) == from))
            step n
            onto empty: move
        """)
    assert moves(tmp_path, rules, {"white": {"man": ["a1", "c2"]}, "black": {"man": ["d3"]}}) == ["c2-c3"]


def test_a_named_element_must_be_a_new_name(tmp_path, capsys):
    rules = one_action("""\
        action step by man:
            where exists(to in top)
            step n
            onto empty: move
        """)
    (tmp_path / "game.yaml").write_text(YAML.format(files=3, ranks=3, setup="  white:\n    man: [a1]"))
    (tmp_path / "game.rules").write_text(rules)
    assert main(["validate", str(tmp_path)]) == 1
    assert "game.rules:5:22: error: 'to' already means something here" in capsys.readouterr().err


# -------------------------------------------------------------- rays and groups
RAY_RULES = """\
    action step by man:
        where count(ray(from, e, it is enemy)) == 2
        where beyond(from, e, it is enemy) is own
        where count(ray(from, n)) == 4
        step n
        onto empty: move
    """


def test_ray_and_beyond(tmp_path):
    # a1: two enemies east, then its own man on d1, and four sites north: it may
    # step, but a2 is taken by its own man. a2: four enemies east, then the edge.
    setup = {"white": {"man": ["a1", "d1", "a2"]}, "black": {"man": ["b1", "c1", "b2", "c2", "d2", "e2"]}}
    assert moves(tmp_path, one_action(RAY_RULES), setup) == []
    setup["white"]["man"] = ["a1", "d1", "a3"]
    assert moves(tmp_path, one_action(RAY_RULES), setup) == ["a1-a2"]


def test_beyond_is_none_when_the_ray_ends(tmp_path):
    rules = one_action("""\
        action step by man:
            where beyond(from, e, it is enemy) == none
            step n
            onto empty: move
        """)
    pieces = {"white": {"man": ["a1", "a3"]}, "black": {"man": ["b1", "c1", "d1", "e1"]}}
    assert moves(tmp_path, rules, pieces) == ["a1-a2"]


def test_group_joins_own_pieces_through_neighbours(tmp_path):
    rules = one_action("""\
        action step by man:
            where exists(group(from), it in top) and exists(group(from), it in bottom)
            where count(group(from)) == 5
            step e
            onto empty: move
        """)
    # a1-a5 is one group (five men) touching both edges; c3 stands alone; the
    # black man on b3 is no part of it.
    setup = {"white": {"man": ["a1", "a2", "a3", "a4", "a5", "c3"]}, "black": {"man": ["b3"]}}
    assert moves(tmp_path, rules, setup) == ["a1-b1", "a2-b2", "a4-b4", "a5-b5"]


# -------------------------------------------------------------- owner
def test_setting_the_owner_turns_a_piece(tmp_path):
    rules = one_action("""\
        action step by man:
            step forward
            onto empty:
                move
                for each s in neighbours(to):
                    if s is enemy:
                        s.owner = player
        """)
    game = make(tmp_path, rules, {"white": {"man": ["b1"]}, "black": {"man": ["a2", "c2", "b3", "e5"]}})
    state = game.apply(game.initial_state(), "b1-b2")
    owners = {p.site: p.owner for p in game.pieces(state)}
    assert owners == {"b2": "white", "a2": "white", "c2": "white", "b3": "white", "e5": "black"}
    # The turned pieces are now White's to move.
    assert game.legal_notations(state) == ["e5-e4"]
    assert game.legal_notations(game.apply(state, "e5-e4")) == ["a2-a3", "b3-b4", "c2-c3"]


@pytest.mark.parametrize("statement,message", [
    ("target.owner += 1", "'+=' needs a number; an owner is set with '='"),
    ("target.owner = 3", "an owner is a player (or none), found a number"),
])
def test_owner_errors(tmp_path, capsys, statement, message):
    rules = one_action(f"""\
        action step by man:
            step n
            onto enemy:
                {statement}
        """)
    make_args = {"white": {"man": ["a1"]}, "black": {"man": ["a2"]}}
    with pytest.raises(Exception) as caught:
        make(tmp_path, rules, make_args)
    assert message in str(caught.value)
    assert main(["validate", str(tmp_path)]) == 1
    assert message in capsys.readouterr().err


# -------------------------------------------------------------- prefer
PREFER_RULES = """\
    prefer: capture
    action walk by man:
        step n
        onto empty: move
    action capture by man:
        step ne
        onto enemy:
            remove target
            move
    """


def test_prefer_offers_a_preferred_action_alone(tmp_path):
    rules = one_action(PREFER_RULES)
    assert moves(tmp_path, rules, {"white": {"man": ["a1", "c1"]}, "black": {"man": ["b2"]}}) == ["a1xb2"]
    # Nothing preferred is legal: the rest is offered.
    assert moves(tmp_path, rules, {"white": {"man": ["a1", "c1"]}, "black": {"man": ["e5"]}}) == ["a1-a2", "c1-c2"]


@pytest.mark.parametrize("line,expected", [
    ("prefer: captur", "game.rules:4:13: error: decision 'move' has no action 'captur'"),
    ("prefer: capture, capture", "game.rules:4:22: error: action 'capture' is already preferred at "),
])
def test_prefer_errors(tmp_path, capsys, line, expected):
    rules = one_action(PREFER_RULES.replace("prefer: capture", line))
    (tmp_path / "game.rules").write_text(rules)
    make_args = {"white": {"man": ["a1"]}, "black": {"man": ["b2"]}}
    with pytest.raises(Exception):
        make(tmp_path, rules, make_args)
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert expected in err
    if "captur'" in expected:
        assert "did you mean 'capture'?" in err


def test_a_variant_replaces_the_prefer_lines(tmp_path):
    make(tmp_path, one_action(PREFER_RULES), {"white": {"man": ["a1", "c1"]}, "black": {"man": ["b2"]}})
    (tmp_path / "free.yaml").write_text("variant: free\nextends: game.yaml\nrules: free.rules\n")
    (tmp_path / "free.rules").write_text("decision move:\n    prefer: walk\n")
    game = load_game(str(tmp_path / "free.yaml"))
    assert game.legal_notations(game.initial_state()) == ["a1-a2", "c1-c2"]
    shown = effective_definition(game.definition)
    assert "free.rules:2:5\n    prefer: walk\n" in shown and "prefer: capture" not in shown


def test_removing_a_preferred_action_removes_it_from_prefer(tmp_path):
    make(tmp_path, one_action(PREFER_RULES), {"white": {"man": ["a1", "c1"]}, "black": {"man": ["b2"]}})
    (tmp_path / "calm.yaml").write_text("variant: calm\nextends: game.yaml\nrules: calm.rules\n")
    (tmp_path / "calm.rules").write_text("remove action move.capture\n")
    game = load_game(str(tmp_path / "calm.yaml"))
    assert game.legal_notations(game.initial_state()) == ["a1-a2", "c1-c2"]


# -------------------------------------------------------------- defines
def _validation_errors(tmp_path, capsys, rules: str) -> str:
    """What `regelwerk validate` says of `rules` with one white man on a1 (it must fail)."""
    (tmp_path / "game.yaml").write_text(YAML.format(files=3, ranks=3, setup="  white:\n    man: [a1]"))
    (tmp_path / "game.rules").write_text(rules)
    assert main(["validate", str(tmp_path)]) == 1
    return capsys.readouterr().err


def test_an_error_in_a_define_names_the_use(tmp_path, capsys):
    rules = "define below = neighbour(it, s) is occupied\n" + one_action("""\
        action step by man:
            where exists([from], below)
            where below
            step n
            onto empty: move
        """)
    err = _validation_errors(tmp_path, capsys, rules)
    assert "game.rules:1:26: error: unknown name 'it'" in err
    assert "'below' is used at " in err and "game.rules:7:15" in err


def test_an_error_in_a_define_used_by_a_define_names_both(tmp_path, capsys):
    # The error is in 'probe'; the hint names 'probe' first, then the define using it.
    rules = ("define probe = neighbour(it, n) is occupied\n"
             "define blocked = probe\n") + one_action("""\
        action step by man:
            where blocked
            step n
            onto empty: move
        """)
    err = _validation_errors(tmp_path, capsys, rules)
    assert "game.rules:1:26: error: unknown name 'it'" in err
    assert "'probe' is used at " in err and "game.rules:2:18, in 'blocked', used at " in err
    assert "game.rules:7:15" in err


def test_opposite_turns_a_direction_round(tmp_path):
    rules = one_action("""\
        action step by man:
            step n
            onto empty:
                move
                # Four in a row through the landing site, along some line.
                if exists(d in lines, count(ray(to, d, it is own)) + count(ray(to, opposite(d), it is own)) >= 3):
                    win
        """)
    four = make(tmp_path, rules, {"white": {"man": ["a3", "b3", "c2", "d3"]}, "black": {"man": ["e5"]}})
    assert four.result(four.apply(four.initial_state(), "c2-c3")).winner == "white"
    # Three in a row, and the fourth square beyond b3's row is empty: no win (the
    # game then ends only because Black, stepping north, cannot move).
    three = make(tmp_path, rules, {"white": {"man": ["a3", "b3", "c2"]}, "black": {"man": ["e5"]}})
    assert three.result(three.apply(three.initial_state(), "c2-c3")).winner is None


# -------------------------------------------------------------- defines with parameters
def test_a_define_with_parameters(tmp_path):
    rules = "define held_by(s, p) = s.owner == p and s is man\n" + one_action("""\
        action step by man:
            where held_by(neighbour(from, e), opponent) or held_by(neighbour(from, w), player)
            step n
            onto empty: move
        """)
    # a1: a black man east. c1: west of it the black man, which is not its own.
    assert moves(tmp_path, rules, {"white": {"man": ["a1", "c1"]}, "black": {"man": ["b1"]}}) == ["a1-a2"]
    # b1: its own man west.
    assert moves(tmp_path, rules, {"white": {"man": ["a1", "b1"]}, "black": {"man": ["e5"]}}) == ["b1-b2"]
    # A black king is no man.
    assert moves(tmp_path, rules, {"white": {"man": ["a1"]}, "black": {"king": ["b1"]}}) == []


@pytest.mark.parametrize("define,use,message", [
    ("define near(s) = s is empty", "where near(from, to)",
     "game.rules:6:15: error: 'near' takes 1 argument(s) (s), found 2"),
    ("define near(s) = s is empty", "where near", "game.rules:6:15: error: 'near' takes 1 argument(s): write near(s)"),
    ("define near(s, s) = s is empty", "where near(from, to)",
     "game.rules:1:16: error: 's' is named twice in the parameters of 'near'"),
])
def test_define_parameter_errors(tmp_path, capsys, define, use, message):
    rules = define + "\n" + one_action(f"""\
        action step by man:
            {use}
            step n
            onto empty: move
        """)
    (tmp_path / "game.yaml").write_text(YAML.format(files=3, ranks=3, setup="  white:\n    man: [a1]"))
    (tmp_path / "game.rules").write_text(rules)
    assert main(["validate", str(tmp_path)]) == 1
    assert message in capsys.readouterr().err


# -------------------------------------------------------------- actions written alike
@pytest.mark.parametrize("coverage", [False, True])
def test_second_action_written_alike_lists_only_new_landings(tmp_path, coverage):
    # A step and a `go` of the same piece both write "from-to": where both land, the
    # step's action is the one listed, once (with coverage on too, which lists them
    # another way).
    rules = one_action("""\
        action step by king:
            step all
            onto empty: move
        action teleport by king:
            go to bottom
            onto empty: move
        """)
    make(tmp_path, rules, {"white": {"king": ["c2"]}, "black": {"man": ["e5"]}})
    game = load_game(str(tmp_path), coverage=coverage)
    listed = [(a.notation, ActionCode.of(a.code).case) for a in game.legal_actions(game.initial_state())]
    step, teleport = 0, 1  # (the cases, in the order of the rules)
    assert listed == [("c2-c3", step), ("c2-d3", step), ("c2-d2", step), ("c2-d1", step), ("c2-c1", step),
                      ("c2-b1", step), ("c2-b2", step), ("c2-b3", step), ("c2-a1", teleport), ("c2-e1", teleport)]


PICK = """\
    forbid result where a1 is empty
    phase play:
        turn: move
    decision move:
        action step by man:
            step n
            onto empty: move
        action pick:
            select pieces of player where it is man
            notation "pick"
            onto own:
                remove to
    """


@pytest.mark.parametrize("coverage", [False, True])
def test_actions_written_alike_are_compared_after_forbid_result(tmp_path, coverage):
    # Every `pick` writes "pick": compared among the legal actions only (the steps,
    # which no other action writes alike, are not), the first allowed one kept —
    # a1's is forbidden (a1 left empty), c1's is listed, e1's merged away; with one
    # `pick` left, nothing to compare.
    from tests.helpers import names_read
    make(tmp_path, PICK, {"white": {"man": ["a1", "c1", "e1"]}, "black": {"man": ["e5"]}})
    game = load_game(str(tmp_path), coverage=coverage)
    listed = [(a.notation, ActionCode.of(a.code).case, ActionCode.of(a.code).destination) for a in
              game.legal_actions(game.initial_state())]
    assert listed == [("c1-c2", 0, 7), ("e1-e2", 0, 9), ("pick", 1, 2)]
    assert "h_dedup_alike" in names_read(game)
    game = make(tmp_path, PICK, {"white": {"man": ["a1", "c1"]}, "black": {"man": ["e5"]}})
    assert game.legal_notations(game.initial_state()) == ["c1-c2", "pick"]
    game = make(tmp_path, PICK.replace("a1 is empty", "b4 is occupied"), {"white": {"man": ["a1", "c1"]},
                                                                       "black": {"man": ["e5"]}})
    listed = [(a.notation, ActionCode.of(a.code).destination) for a in game.legal_actions(game.initial_state())]
    assert listed == [("a1-a2", 5), ("c1-c2", 7), ("pick", 0)]


def test_a_count_along_a_ray_compared_with_a_number(tmp_path):
    # The loop of a count compared with a constant stops at the bound (and with
    # `for each`'s value as the bound): every comparison, both ways round, bounds
    # past the longest ray and past the written-out steps, as counted by hand.
    ops = {"ge": ">=", "gt": ">", "lt": "<", "le": "<=", "eq": "==", "ne": "!="}
    body = []
    for name, op in ops.items():
        body.append(f"""\
            action {name} for each n in [-1, 0, 1, 2, 3, 4, 5, 6, 7]:
                drop man on sites
                where count(ray(to, e, it is occupied)) {op} n
                notation "{name}{{n}}@{{to}}"
                onto empty: place
            """)
    body.append("""\
        action rev for each n in [0, 2, 5]:
            drop man on sites
            where n <= count(ray(to, w, it is occupied))
            notation "rev{n}@{to}"
            onto empty: place
        action any for each n in [1, 5]:
            drop man on sites
            where exists(d in lines, count(ray(to, d, it is occupied)) >= n)
            notation "any{n}@{to}"
            onto empty: place
        """)
    rules = one_action("".join(textwrap.dedent(b) for b in body))
    occupied = ["b1", "c1", "d1", "e1", "f1", "g1", "b2", "d2", "e2", "f2", "g2"]
    game = make(tmp_path, rules, {"white": {"man": occupied}}, files=8, ranks=2)
    got = sorted(game.legal_notations(game.initial_state()))

    def run(site: str, step: int, up: int = 0) -> int:
        return _run_length(occupied, site, step, up)

    empty = [f"{chr(f)}{r}" for r in "12" for f in range(ord("a"), ord("h") + 1)
             if f"{chr(f)}{r}" not in occupied]
    expected = [f"{name}{n}@{s}" for name, op in ops.items() for n in range(-1, 8) for s in empty
                if _COMPARISONS[op](run(s, 1), n)]
    expected += [f"rev{n}@{s}" for n in (0, 2, 5) for s in empty if n <= run(s, -1)]
    longest = {s: max(run(s, df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1)) for s in empty}
    expected += [f"any{n}@{s}" for n in (1, 5) for s in empty if longest[s] >= n]
    assert got == sorted(expected)
    assert "ge6@a1" in got and "eq6@a1" in got and "ge4@c2" in got and "ge5@c2" not in got and "rev5@h2" not in got


def test_a_sum_of_counts_along_rays_compared_with_a_number(tmp_path):
    # Counts along rays added (and constants) and compared with a constant look at
    # no more sites than the bound needs: written out for small bounds, loops for
    # larger ones, `==` and `!=`, three counts, both ways round and with the
    # direction a variable, as counted by hand.
    ops = {"ge": ">=", "gt": ">", "lt": "<", "le": "<=", "eq": "==", "ne": "!="}
    both = "count(ray(to, e, it is occupied)) + count(ray(to, w, it is occupied))"
    pair = "count(ray(to, d, it is occupied)) + count(ray(to, opposite(d), it is occupied))"
    body = []
    for name, op in ops.items():
        body.append(f"""\
            action {name} for each k in [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 15]:
                drop man on sites
                where {both} {op} k
                notation "{name}{{k}}@{{to}}"
                onto empty: place
            """)
    body.append(f"""\
        action three for each k in [0, 1, 2, 3, 4, 5, 6, 9]:
            drop man on sites
            where 1 + {both} - 1 + count(ray(to, n, it is occupied)) >= k - 1 + 1
            notation "three{{k}}@{{to}}"
            onto empty: place
        action any for each k in [1, 2, 3, 5]:
            drop man on sites
            where exists(d in lines, k <= {pair})
            notation "any{{k}}@{{to}}"
            onto empty: place
        """)
    rules = one_action("".join(textwrap.dedent(b) for b in body))
    occupied = ["b1", "c1", "d1", "e1", "f1", "g1", "b2", "d2", "e2", "f2", "g2", "c3", "e3", "a3", "h3"]
    game = make(tmp_path, rules, {"white": {"man": occupied}}, files=8, ranks=3)
    got = sorted(game.legal_notations(game.initial_state()))

    def run(site: str, step: int, up: int = 0) -> int:
        return _run_length(occupied, site, step, up)

    empty = [f"{chr(f)}{r}" for r in "123" for f in range(ord("a"), ord("h") + 1)
             if f"{chr(f)}{r}" not in occupied]
    across = {s: run(s, 1) + run(s, -1) for s in empty}
    expected = [f"{name}{n}@{s}" for name, op in ops.items() for n in [*range(-1, 9), 15] for s in empty
                if _COMPARISONS[op](across[s], n)]
    expected += [f"three{n}@{s}" for n in (0, 1, 2, 3, 4, 5, 6, 9) for s in empty if across[s] + run(s, 0, 1) >= n]
    lines = ((1, 0), (0, 1), (1, 1), (-1, 1))
    best = {s: max(run(s, df, dr) + run(s, -df, -dr) for df, dr in lines) for s in empty}
    expected += [f"any{n}@{s}" for n in (1, 2, 3, 5) for s in empty if best[s] >= n]
    assert got == sorted(expected)
    # (a1: 6 to the east; h2: 4 to the west; c2: 4 east, 1 west, 1 north)
    assert "eq6@a1" in got and "gt6@a1" not in got and "eq4@h2" in got and "three6@c2" in got
    assert "three9@c2" not in got


TAKES = """\
    action take for each k in [1, 2, 3]:
        drop man on sites
        notation "t{k}"
        onto empty: place
    action put for each k in [2, 3]:
        drop man on sites
        notation "p{to}{k}"
        onto empty: place
    """


def test_copies_of_an_action_showing_their_own_value_are_not_compared(tmp_path):
    # On a board of one site, each copy of `take` shows its own k: no two of its
    # codes write one notation, so nothing compares them while listing (`put`
    # shows its site). With `grab` also writing "t3", they are compared: the
    # first is kept.
    from tests.helpers import names_read
    comparing = {"h_dedup", "h_drop_seen", "h_landings", "h_drop_landing", "h_drop_landing_alike"}
    game = make(tmp_path, one_action(TAKES), {"white": {"king": []}}, files=1, ranks=1)
    assert sorted(game.legal_notations(game.initial_state())) == ["pa12", "pa13", "t1", "t2", "t3"]
    assert game.rules.decisions[0].alike_keys is None and not names_read(game) & comparing
    grab = TAKES.rstrip(" ") + """\
    action grab for each k in [3, 4]:
        drop king on sites
        notation "t{k}"
        onto empty: place
    """
    game = make(tmp_path, one_action(grab), {"white": {"king": []}}, files=1, ranks=1)
    assert sorted(game.legal_notations(game.initial_state())) == ["pa12", "pa13", "t1", "t2", "t3", "t4"]
    assert names_read(game) & comparing
    state = game.apply(game.initial_state(), "t3")  # (take's, listed first: a man)
    assert [p.kind for p in game.pieces(state)] == ["man"]


@pytest.mark.parametrize("values, drawn", [(7, True), (8, False)])
def test_many_copies_of_one_candidate_each_are_listed_not_drawn(tmp_path, values, drawn):
    # On a board of one site each copy gives one candidate: from 8 copies on
    # (draws.MANY_SINGLES) playouts list them rather than draw them.
    rules = one_action(f"""\
        action take for each k in [{", ".join(str(k) for k in range(1, values + 1))}]:
            drop man on sites
            notation "t{{k}}"
            onto empty: place
        """)
    game = make(tmp_path, rules, {"white": {"king": []}}, files=1, ranks=1)
    assert (game.engine.decisions[0].draws is not None) == drawn
    assert len(game.legal_notations(game.initial_state())) == values


# -------------------------------------------------------------- a direction set as another player sees it
ATTACKS = """\
define attacked_by(k, p) = exists(d in backward_diagonal[p], neighbour(k, d) is man and neighbour(k, d).owner == p)
forbid result where exists(pieces of player where it is king, attacked_by(it, opponent))
phase play:
    turn: move
    after each action:
        if exists(pieces of opponent where it is king, attacked_by(it, player)):
            win
decision move:
    action walk by king:
        step lines
        onto empty: move
    action advance by man:
        step forward
        onto empty: move
"""


def test_a_relative_direction_set_indexed_by_a_player(tmp_path):
    # One attack test for both sides: men attack forward-diagonally, each from its
    # owner's view (`backward_diagonal[p]`), whoever is deciding.
    setup = {"white": {"king": ["c2"], "man": ["b3", "e3"]}, "black": {"king": ["c5"], "man": ["c4"]}}
    game = make(tmp_path, ATTACKS, setup)
    start = game.initial_state()
    # d3 is attacked by the black man on c4 (from Black's view: c4 is north-west of d3).
    assert sorted(game.legal_notations(start)) == ["b3-b4", "c2-b1", "c2-b2", "c2-c1", "c2-c3", "c2-d1", "c2-d2",
                                                   "e3-e4"]
    # The man on b4 attacks c5 from White's view: the mover gives check and wins.
    assert game.result(game.apply(start, "b3-b4")).winner == "white"
    # Black: d4 is attacked by the white man on e3, b4 by none.
    after = game.apply(start, "c2-c1")
    assert game.result(after) is None
    assert sorted(game.legal_notations(after)) == ["c4-c3", "c5-b4", "c5-b5", "c5-d5"]


def test_a_single_direction_indexed_by_a_player(tmp_path):
    # A man advances only with the site behind it empty: behind is the opponent's forward.
    rules = one_action("""\
        action advance by man:
            where neighbour(from, forward[opponent]) is empty and count(forward[black]) == 1
            step forward
            onto empty: move
        """)
    setup = {"white": {"man": ["a2", "c2"], "king": ["c1"]}, "black": {"king": ["e5"]}}
    assert moves(tmp_path, rules, setup) == ["a2-a3"]
