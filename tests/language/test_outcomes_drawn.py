"""`outcomes one of SET` (format.md 3.9): a chance event drawing one site of a set
as the position stands, each as likely — a card dealt from what is left of a
deck, a tile put on one of the empty cells — where fixed outcomes needed one
event per count of what is left."""
import ast
import random
from collections import Counter

import pytest

from interpreter import load_game
from interpreter.api import IllegalActionError
from interpreter.frontends.agents.base import sample_chance
from interpreter.frontends.cli import main
from interpreter.runtime.errors import RuleRuntimeError
from tests.helpers import validate_says, write_definition

YAML = """\
game: deal
title: Deal
description: Four cards face down; in turn each player is dealt one and keeps it.
rules: game.rules
players: [red, blue]
board:
  grid: {files: 4, ranks: 1}
pieces:
  card:
setup:
  red:
    card: [a1, b1, c1, d1]
variables:
  aces: {type: int, per_player: true}
"""
RULES = """\
phase play:
    turn: deal, keep

chance deal:
    outcomes one of pieces
    remove outcome
    if outcome == a1:
        aces[player] += 1

decision keep:
    action done:
        pass:
            if count(pieces) == 0:
                if aces[red] > aces[blue]:
                    win red
                else:
                    win blue
"""


def _game(tmp_path, rules=RULES):
    return load_game(write_definition(tmp_path, YAML, rules))


def _outcomes(game, state):
    return {action.notation: round(chance, 4) for action, chance in game.chance_outcomes(state)}


def test_the_outcomes_are_the_sets_members_as_the_position_stands(tmp_path):
    game = _game(tmp_path)
    state = game.initial_state()
    assert game.is_drawn_from_set(state)
    assert _outcomes(game, state) == {"deal:a1": 0.25, "deal:b1": 0.25, "deal:c1": 0.25, "deal:d1": 0.25}
    state = game.apply(state, game.parse_action(state, "deal:c1"))
    assert not game.is_drawn_from_set(state)  # (a decision of the player's)
    state = game.apply(state, game.legal_actions(state)[0])
    assert _outcomes(game, state) == {"deal:a1": 0.3333, "deal:b1": 0.3333, "deal:d1": 0.3333}
    state = game.apply(state, game.parse_action(state, "deal:a1"))
    assert game.variables(state)["aces"] == {"red": 0, "blue": 1}
    state = game.apply(state, game.legal_actions(state)[0])
    assert _outcomes(game, state) == {"deal:b1": 0.5, "deal:d1": 0.5}
    with pytest.raises(IllegalActionError, match="not legal"):
        game.parse_action(state, "deal:a1")


def test_perft_counts_every_order_of_the_deal(tmp_path):
    # 4 cards, then the pass, 3, the pass, ...: 4 * 3 * 2 * 1 = 24 deals
    game = _game(tmp_path)
    assert game.engine.perft(game.initial_state(), 4 * 2) == [4, 4, 12, 12, 24, 24, 24, 24]


def test_each_member_is_as_likely(tmp_path):
    game = _game(tmp_path)
    state = game.initial_state()
    state = game.apply(state, game.parse_action(state, "deal:b1"))
    state = game.apply(state, game.legal_actions(state)[0])
    rng = random.Random(7)
    drawn = Counter(game.engine.notation(game.engine.pick_random(state, rng)) for _ in range(3000))
    assert set(drawn) == {"deal:a1", "deal:c1", "deal:d1"}
    assert all(900 < n < 1100 for n in drawn.values()), drawn
    sampled = Counter(sample_chance(game, state, rng).notation for _ in range(3000))
    assert set(sampled) == set(drawn) and all(900 < n < 1100 for n in sampled.values()), sampled


def test_random_playouts_deal_every_card_once(tmp_path):
    game = _game(tmp_path)
    for seed in range(50):
        state = game.initial_state()
        assert game.engine.random_playout(state, random.Random(seed), 100) == 8
        assert game.is_terminal(state)


def test_the_players_and_the_analysis_draw_from_the_set(tmp_path, capsys):
    folder = tmp_path / "deal"
    folder.mkdir()
    write_definition(folder, YAML, RULES)
    assert main(["match", str(folder), "--games", "4", "--players", "mcts:40,greedy", "--seed", "3"]) == 0
    assert main(["analyze", str(folder), "--games", "40"]) == 0
    assert main(["lint", str(folder)]) == 0
    assert "internal error" not in capsys.readouterr().err


def test_an_empty_set_when_the_event_comes_is_an_error(tmp_path):
    game = _game(tmp_path, RULES.replace("if count(pieces) == 0:", "if count(pieces) == 9:"))
    state = game.initial_state()
    for notation in ["deal:a1", "pass", "deal:b1", "pass", "deal:c1", "pass", "deal:d1"]:
        state = game.apply(state, game.parse_action(state, notation))
    with pytest.raises(RuleRuntimeError, match="chance 'deal' has no outcome here: the set it draws from is empty"):
        game.apply(state, game.legal_actions(state)[0])
    # the same in a random playout (one outcome drawn without the list) and in perft's
    # last ply (the outcomes counted without the list)
    with pytest.raises(RuleRuntimeError, match="chance 'deal' has no outcome here"):
        game.engine.random_playout(game.initial_state(), random.Random(1), 100)
    with pytest.raises(RuleRuntimeError, match="chance 'deal' has no outcome here"):
        game.engine.perft(game.initial_state(), 9)


@pytest.mark.parametrize("outcomes, message", [
    ("outcomes one of 3", "'outcomes one of' needs a set of sites, found a number"),
    ("outcomes one of players", "'outcomes one of' needs a set of sites, found a set of players"),
])
def test_what_is_not_a_set_of_sites(tmp_path, capsys, outcomes, message):
    write_definition(tmp_path, YAML, RULES.replace("outcomes one of pieces", outcomes))
    validate_says(tmp_path, capsys, message)


DECK_YAML = """\
game: deck
title: Deck
description: Cards not dealt are pieces of nobody; each turn one of them is dealt.
rules: game.rules
players: [red, blue]
board:
  grid: {files: 4, ranks: 2}
pieces:
  deck: {owner: neutral}
  card:
setup:
  neutral:
    deck: [a1, b1, c1]
  red:
    card: [d1, a2, b2, c2, d2]
"""
DECK_RULES = """\
phase play:
    turn: go, deal

decision go:
    action ready:
        pass

chance deal:
    outcomes one of pieces where it is deck
    create card at outcome for player
    if not exists(pieces where it is deck):
        draw
"""


def test_a_deck_of_pieces_of_nobody_each_card_as_likely_in_playouts(tmp_path):
    # The playouts' picker tries pieces drawn among all eight and keeps the first
    # deck piece (rejection sampling), listing the three only when none was: each
    # card still a third of the time.
    game = load_game(write_definition(tmp_path, DECK_YAML, DECK_RULES))
    state = game.apply(game.initial_state(), "pass")
    assert _outcomes(game, state) == {"deal:a1": 0.3333, "deal:b1": 0.3333, "deal:c1": 0.3333}
    dealt: Counter[str] = Counter()
    rng = random.Random(11)
    for _ in range(3000):
        position = game.initial_state()
        assert game.engine.random_playout(position, rng, 2) == 2  # (the pass, then the card drawn by the picker)
        dealt.update(p.site for p in game.pieces(position) if p.site in ("a1", "b1", "c1") and p.kind == "card")
    assert set(dealt) == {"a1", "b1", "c1"} and all(900 < n < 1100 for n in dealt.values()), dealt
    game.engine.random_playout(position, rng, 100)
    assert game.result(position).winner is None and not any(p.kind == "deck" for p in game.pieces(position))


NOBODY_YAML = """\
game: nobody
title: Nobody's cards
description: Cards not dealt are pieces of nobody, beside a neutral rock; a card dealt changes hands.
rules: game.rules
players: [red, blue]
board:
  grid: {files: 4, ranks: 2}
pieces:
  deck: {owner: neutral}
  rock: {owner: neutral}
  card:
setup:
  neutral:
    deck: [a1, b1, c1]
    rock: [b2]
  red:
    card: [d2]
variables:
  neutrals: {}
  decks: {}
  first_left: {type: site}
"""
NOBODY_RULES = """\
phase play:
    turn: go, deal

decision go:
    action ready:
        pass

chance deal:
    outcomes one of pieces where it is deck and it is neutral
    outcome.owner = player
    neutrals = count(pieces where it is neutral)
    decks = count(pieces where it is neutral and it is deck)
    first_left = first(pieces where it is neutral and it is deck)
    if decks == 0:
        draw
"""


def test_pieces_of_nobody_are_the_neutral_pieces_as_the_position_stands(tmp_path):
    # `it is neutral` reads the neutral pieces' list the position keeps: a card dealt
    # (its owner changed) leaves it, the rock stays in it, red's card never was.
    game = load_game(write_definition(tmp_path, NOBODY_YAML, NOBODY_RULES))
    state = game.apply(game.initial_state(), "pass")
    assert _outcomes(game, state) == {"deal:a1": 0.3333, "deal:b1": 0.3333, "deal:c1": 0.3333}
    state = game.apply(state, game.parse_action(state, "deal:a1"))
    assert {k: game.variables(state)[k] for k in ("neutrals", "decks", "first_left")} == \
        {"neutrals": 3, "decks": 2, "first_left": "b1"}
    state = game.apply(state, "pass")
    assert _outcomes(game, state) == {"deal:b1": 0.5, "deal:c1": 0.5}
    dealt: Counter[str] = Counter()
    rng = random.Random(5)
    for _ in range(3000):
        position = game.initial_state()
        assert game.engine.random_playout(position, rng, 2) == 2
        dealt.update(p.site for p in game.pieces(position) if p.owner == "red" and p.site != "d2")
    assert set(dealt) == {"a1", "b1", "c1"} and all(900 < n < 1100 for n in dealt.values()), dealt
    game.engine.random_playout(position, rng, 100)
    assert game.result(position).winner is None
    assert sorted(p.site for p in game.pieces(position) if p.owner is None) == ["b2"]


PHASES_RULES = """\
phase dealing:
    turn: deal
    after each turn:
        start phase playing

phase playing:
    turn: go

phase counting:
    turn: go

chance deal:
    outcomes one of pieces where it is neutral
    outcome.owner = player
    dealt += 1
    if outcome == a1 or outcome == b1:
        low += 1
    if outcome == c1 or outcome == d1:
        high += 1
    if outcome == a2:
        low += 2
    if outcome == b2:
        high += 2
    if outcome == c2:
        low += 3
    if outcome == d2:
        high += 3
    if low > 50:
        low = 50
    if high > 50:
        high = 50
    if dealt % 2 == 0:
        low += 10
    else:
        high += 10
    if dealt < 3:
        then deal

decision go:
    action ready:
        pass:
            if not exists(pieces where it is neutral):
                draw
"""
PHASES_YAML = """\
game: phases
title: Phases
description: Cards dealt in a phase of their own; a hand-made position deals in another.
rules: game.rules
players: [red, blue]
board:
  grid: {files: 4, ranks: 2}
pieces:
  card: {owner: neutral}
setup:
  neutral:
    card: [a1, b1, c1, d1, a2, b2]
variables:
  dealt: {}
  low: {}
  high: {}
"""


def test_an_event_in_a_phase_play_does_not_bring_it_to_plays_as_in_its_own(tmp_path, capsys):
    # The event's statements are written once for the two phases it never comes in
    # (a call in each); a hand-made position puts it in one: it does what it does in
    # its own phase, then that phase's turn goes on.
    folder = write_definition(tmp_path, PHASES_YAML, PHASES_RULES)
    game = load_game(folder)
    state = game.apply(game.initial_state(), game.parse_action(game.initial_state(), "deal:b2"))
    assert game.phase(state) == "dealing" and game.variables(state)["high"] == 12
    text = game.position_text(game.apply(state, game.parse_action(state, "deal:a1")))
    assert "phase dealing" in text and "turn red deal" in text
    for phase in ("playing", "counting"):
        moved = game.parse_position(text.replace("phase dealing", f"phase {phase}"))
        after = game.apply(moved, game.parse_action(moved, "deal:c1"))
        assert {k: game.variables(after)[k] for k in ("dealt", "low", "high")} == {"dealt": 3, "low": 11, "high": 23}
        assert game.phase(after) == phase and [str(a) for a in game.legal_actions(after)] == ["pass"]
        assert sorted(p.site for p in game.pieces(after) if p.owner == "red") == ["a1", "b2", "c1"]
    assert main(["show", "--compiled", str(folder)]) == 0
    assert capsys.readouterr().out.count("chance 'deal', its statements (in the phases play does not bring it to)") == 1


EMPTY_YAML = """\
game: cells
title: Cells
description: A stone put on one of the empty cells, each as likely.
rules: game.rules
players: [red, blue]
board:
  grid: {files: 3, ranks: 3}
pieces:
  stone:
setup:
  red:
    stone: [a1, b1, c1, a2, c2, a3, b3]
"""
EMPTY_RULES = """\
phase play:
    turn: put

chance put:
    outcomes one of sites - pieces
    create stone at outcome for blue
    if count(sites - pieces) == 0:
        draw
"""


def test_a_cell_drawn_among_the_empty_ones_in_playouts(tmp_path):
    # The playouts' picker tries cells of the board at random and keeps the first
    # empty one, listing the empty cells only when none of its tries was: b2 and c3
    # each half the time, no occupied cell ever.
    game = load_game(write_definition(tmp_path, EMPTY_YAML, EMPTY_RULES))
    assert _outcomes(game, game.initial_state()) == {"put:b2": 0.5, "put:c3": 0.5}
    first: Counter[str] = Counter()
    rng = random.Random(3)
    for _ in range(2000):
        position = game.initial_state()
        assert game.engine.random_playout(position, rng, 1) == 1
        first.update(p.site for p in game.pieces(position) if p.owner == "blue")
    assert set(first) == {"b2", "c3"} and all(900 < n < 1100 for n in first.values()), first
    game.engine.random_playout(position, rng, 10)
    assert sorted(p.site for p in game.pieces(position) if p.owner == "blue") == ["b2", "c3"]


ACTION_RULES = """\
phase picking:
    turn: pick

phase waiting:
    turn: go

phase counting:
    turn: go

decision pick:
    action take for each c in sites:
        where c is neutral
        notation "{c}"
        pass:
            c.owner = player
            dealt += 1
            if dealt == 1:
                low += 1
            if dealt == 2:
                high += 1
            if dealt == 3:
                low += 2
            if dealt == 4:
                high += 2
            if dealt == 5:
                low += 3
            if dealt == 6:
                high += 3
            if low > 50:
                low = 50
            if high > 50:
                high = 50
            if dealt % 2 == 0:
                low += 10
            else:
                high += 10
            if dealt == 3:
                start phase waiting

decision go:
    action ready:
        pass:
            if not exists(pieces where it is neutral):
                draw
"""


def test_an_action_in_a_phase_play_does_not_bring_it_to_plays_as_in_its_own(tmp_path, capsys):
    # As for a chance event: the action's statements written once for the phases its
    # decision never comes in, a hand-made position putting it in one of them.
    folder = write_definition(tmp_path, PHASES_YAML, ACTION_RULES)
    game = load_game(folder)
    state = game.apply(game.initial_state(), "b2")
    state = game.apply(state, "a1")
    assert game.phase(state) == "picking" and game.variables(state)["low"] == 11  # (1, then 10)
    text = game.position_text(state)
    for phase in ("waiting", "counting"):
        moved = game.parse_position(text.replace("phase picking", f"phase {phase}"))
        after = game.apply(moved, "c1")
        assert {k: game.variables(after)[k] for k in ("dealt", "low", "high")} == {"dealt": 3, "low": 13, "high": 21}
        assert game.phase(after) == "waiting" and [str(a) for a in game.legal_actions(after)] == ["pass"]
        assert sorted(p.site for p in game.pieces(after) if p.owner == "red") == ["b2", "c1"]
    assert main(["show", "--compiled", str(folder)]) == 0
    # (one per case: the action is written for each of the 8 sites)
    assert capsys.readouterr().out.count("its statements (in the phases play does not bring it to)") == 8


REGION_YAML = EMPTY_YAML.replace("pieces:\n", "regions:\n  spots: [c3, b2, a1, c1]\npieces:\n")
REGION_RULES = EMPTY_RULES.replace("outcomes one of sites - pieces", "outcomes one of spots - pieces") \
    .replace("count(sites - pieces)", "count(spots - pieces)")


@pytest.mark.parametrize("yaml, rules, tried, read_from_a_table", [
    # every site of the board, in its order: the index drawn is the site
    (EMPTY_YAML, EMPTY_RULES, {0.5 / 9: None, 4.5 / 9: "put:b2", 8.5 / 9: "put:c3"}, False),
    # a region (a1 c1 b2 c3 in the board's order): the site read from it
    (REGION_YAML, REGION_RULES, {0.9: "put:c3", 0.6: "put:b2", 0.1: None, 0.3: None}, True),
])
def test_a_drawn_site_is_its_sets_member_at_the_index_drawn(tmp_path, yaml, rules, tried, read_from_a_table):
    game = load_game(write_definition(tmp_path, yaml, rules))
    event = next(d for d in game.engine.decisions if d.name == "put")
    start = game.engine.initial_state()
    for number, notation in tried.items():
        # (an occupied site drawn: the next try, here a number that finds b2)
        given = iter([number, 4.5 / 9 if not read_from_a_table else 0.6])
        code = event.pick(start, lambda: next(given))
        assert game.engine.notation(code) == (notation or "put:b2")
    picker = next(node for node in ast.parse(game.engine.rules.source).body
                  if isinstance(node, ast.FunctionDef) and node.name == event.pick.__name__)
    first_try = next(node for node in ast.walk(picker) if isinstance(node, ast.For))
    drawn = first_try.body[0]
    assert isinstance(drawn, ast.Assign) and isinstance(drawn.value, ast.Subscript) is read_from_a_table
