"""Set differences and unions with a fixed set, and per-player regions asked of a
named group's bitmask, as the docs write them (format.md 3.12.1, 3.14, 7):
- `T[i] - R` / `T[i] + R`, T a constant table of sets (the neighbours by site, a
  region by player) and R fixed: one table worked out when the rules are compiled
  (compilation/expr_logic.py `_row_of_table_joined`);
- `S - [X]`, X one site: `h_without(S, X)`; `S + [X]`: `h_with_site(S, X)` (S the
  sites of pieces, each listed once: `h_with_site_distinct`, no set made);
  `first(T[i] - [X])`: the first other site of T's sorted row, `h_first_but`
  (expr_sets.py `_first_but`);
- `exists/count/all(g, it in R[P])`, g a named group: one mask by player
  (liberties.py `region_test`).
Each is checked against the code it replaces over random games."""

import random

from interpreter import load_game
from interpreter.compilation import expr_logic, expr_sets
from interpreter.runtime import helpers
from tests.helpers import helper_calls, placing, random_games_seen, stones_and_rocks, write_definition

REGIONS = """\
regions:
  rim: [a1, b1, c1, d1, e1, a5, b5, c5, d5, e5, a2, a3, a4, e2, e3, e4]
  home:
    per_player:
      white: [a1, b1, c1, b2, c2]
      black: [e5, d5, c5, d4, c4]
"""

SETS = placing("""\
                if first(neighbours(to) - rim - to) is own and count(neighbours(to) + rim, it is enemy) >= 4:
                    win
                elif exists(home[player] - rim, it is enemy) \\
                        and count(neighbours(to) - [to] - home[opponent], it is own) >= 3:
                    lose
                elif first(neighbours(to) - to) is enemy and first(home[opponent] + rim) is own \\
                        and count(sites - [to], it is own) >= 9:
                    win
""")


def test_set_operations_with_tables_answer_what_the_lists_answer(tmp_path, monkeypatch):
    path = write_definition(tmp_path, stones_and_rocks(files=5, ranks=5, extra=REGIONS), SETS)
    game = load_game(path)
    assert helper_calls(game, "h_first_but") and helper_calls(game, "h_without")
    assert not helper_calls(game, "h_first") and not helper_calls(game, "h_union")
    assert len(helper_calls(game, "h_minus")) == 1  # (only `... - home[opponent]`: not fixed)
    with monkeypatch.context() as patched:
        patched.setattr(expr_logic.LogicFamily, "_row_of_table_joined", lambda *args: None)
        patched.setattr(expr_logic.LogicFamily, "_without", lambda *args: None)
        patched.setattr(expr_sets.SetFamily, "_first_but", lambda *args: None)
        listed = load_game(path)
    assert not helper_calls(listed, "h_first_but") and helper_calls(listed, "h_union")
    seeds = range(40)
    games = random_games_seen(game, seeds)
    assert games == random_games_seen(listed, seeds)
    assert {winner for _, winner, _ in games} >= {"white", "black"}


GROUPS = placing("""\
                let g = group(to)
                if count(g, it in home[player]) >= 2 and exists(g, it in home[opponent]):
                    win
                elif all(g, it in rim) and count(g, it not in home[opponent]) >= 3 \\
                        and not all(g, it not in home[player]):
                    lose
""")


def test_per_player_regions_of_a_group_are_one_mask_by_player(tmp_path, monkeypatch):
    path = write_definition(tmp_path, stones_and_rocks(files=5, ranks=5, extra=REGIONS), GROUPS)
    game = load_game(path)
    assert helper_calls(game, "h_group_mask") and not helper_calls(game, "h_group")
    with monkeypatch.context() as patched:
        patched.setattr(expr_sets, "region_test", lambda *args: None)
        searched = load_game(path)
    assert not helper_calls(searched, "h_group_mask")
    seeds = range(60)
    games = random_games_seen(game, seeds)
    assert games == random_games_seen(searched, seeds)
    assert {winner for _, winner, _ in games} >= {"white", "black"}


WITH_ONE_SITE = placing("""\
                # (`above`: north of the stone before, none at first and at the edge)
                if count(neighbours(to) - home[opponent] + [above], it is own) >= 3:
                    win
                elif first([above] + (sites - home[player] - [to])) is enemy \\
                        and count([above] + (rim - home[player]), it is enemy) >= 6:
                    lose
                above = neighbour(to, n)
""")


def test_a_set_and_one_site_joined_in_one_step(tmp_path, monkeypatch):
    # `S + [X]` and `[X] + S`, X one site (none at the edge; already in S, or not):
    # `h_with_site(S, X)`, sorted and each site once, as the union of the two lists.
    extra = REGIONS + "variables:\n  above: {type: site}\n"
    path = write_definition(tmp_path, stones_and_rocks(files=5, ranks=5, extra=extra), WITH_ONE_SITE)
    game = load_game(path)
    assert len(helper_calls(game, "h_with_site")) == 3 and not helper_calls(game, "h_union")
    with monkeypatch.context() as patched:
        patched.setattr(expr_logic, "_one_site", lambda *args: None)
        listed = load_game(path)
    assert not helper_calls(listed, "h_with_site") and len(helper_calls(listed, "h_union")) == 3
    seeds = range(40)
    games = random_games_seen(game, seeds)
    assert games == random_games_seen(listed, seeds)
    assert {winner for _, winner, _ in games} >= {"white", "black"}


WITH_PIECES = placing("""\
                # (`theirs` kept through a removal; a procedure's parameter; a list
                # literal naming one site twice)
                let theirs = pieces of opponent
                if count(theirs + [above], it is enemy) >= 5 and first(theirs + [to]) is enemy:
                    remove first(theirs)
                    if count(theirs + [above], it is own) >= 2:
                        win
                tally((pieces where it is stone) + [above])
                if count([to, to] + [above], it is own) >= 2 and first([above, to] + [above]) is own:
                    lose
                above = neighbour(to, n)
""", before="""\
procedure tally(h):
    if first(h + [to]) is own and count(h + [above], it is enemy) >= 6:
        lose

""")


def test_the_sites_of_pieces_and_one_site_joined_without_a_set(tmp_path, monkeypatch):
    # `S + [X]`, S the sites of pieces (named by a `let` or a procedure's parameter,
    # pieces removed since): each site is listed once, `h_with_site_distinct`; a
    # list literal may name a site twice, `h_with_site`. The same games as with
    # `h_with_site` everywhere.
    extra = "variables:\n  above: {type: site}\n"
    path = write_definition(tmp_path, stones_and_rocks(files=5, ranks=5, extra=extra), WITH_PIECES)
    game = load_game(path)
    assert len(helper_calls(game, "h_with_site_distinct")) == 6 and len(helper_calls(game, "h_with_site")) == 2
    with monkeypatch.context() as patched:
        patched.setattr(expr_logic, "_with_one_site", lambda sites: "h_with_site")
        with_sets = load_game(path)
    assert not helper_calls(with_sets, "h_with_site_distinct")
    seeds = range(60)
    games = random_games_seen(game, seeds)
    assert games == random_games_seen(with_sets, seeds)
    assert {winner for _, winner, _ in games} >= {"white", "black"}


def test_a_site_joined_to_sites_listed_once_gives_what_the_set_gives():
    rng = random.Random(7)
    for _ in range(500):
        sites = rng.sample(range(30), rng.randrange(8))
        for site in (-1, rng.randrange(30), *sites[:1]):
            assert helpers.with_site_distinct(sites, site) == helpers.with_site(sites, site)
            assert helpers.with_site_distinct(tuple(sites), site) == helpers.with_site(sites, site)
