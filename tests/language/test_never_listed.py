"""An action that can never be written like another costs nothing (issue 26).

A drop onto empty sites and a select of enemy pieces, both written "@{to}", never
land on one site in one position (decisions._landings_apart: a drop or select
moves nothing before it lands): their candidates are not compared by notation.
An action whose `where` is false when compiling — an option's value folded in —
is left out of the listers (actions.never_listed): the decision lists as if it
were not written. Hand-checked on a 2x2 board."""
import ast
import re

from interpreter import load_game
from tests.helpers import names_read, play, stones_and_rocks, write_definition

# the helpers that compare notations while listing (decisions.py)
COMPARING = {"h_dedup", "h_drop_seen", "h_landings", "h_drop_landing", "h_drop_landing_alike"}

OPTIONS = """\
options:
  swap: {values: ["false", "true"], default: "%s", description: The second player may take the first stone.}
variables:
  moves: {type: int, hidden: true, in_position: false}
"""

RULES = """\
phase play:
    turn: place
    if no action:
        draw
decision place:
    action stone:
        drop stone on sites
        onto empty:
            place
            moves += 1
    action swap:
        where WHERE
        select pieces of opponent
        onto enemy:
            notation "@{to}"
            target.owner = player
            moves += 1
"""


def _game(tmp_path, swap, where='swap == "true" and moves == 1'):
    tmp_path.mkdir(exist_ok=True)
    yaml = stones_and_rocks(files=2, ranks=2, extra=OPTIONS % swap)
    return load_game(write_definition(tmp_path, yaml, RULES.replace("WHERE", where)))


def test_swap_off_is_never_listed(tmp_path):
    game = _game(tmp_path, "false")
    assert not names_read(game) & COMPARING
    state = game.initial_state()
    assert sorted(game.legal_notations(state)) == ["@a1", "@a2", "@b1", "@b2"]
    state = play(game, "@a1", state=state)
    # black: the empty sites only (the swap is off)
    assert sorted(game.legal_notations(state)) == ["@a2", "@b1", "@b2"]


def test_swap_on_lists_both_without_comparing(tmp_path):
    game = _game(tmp_path, "true")
    assert not names_read(game) & COMPARING
    state = play(game, "@a1")
    # black: the empty sites and the swap of white's a1 (one text each)
    assert sorted(game.legal_notations(state)) == ["@a1", "@a2", "@b1", "@b2"]
    swapped = play(game, "@a1", state=state)
    assert sorted(game.legal_notations(swapped)) == ["@a2", "@b1", "@b2"]  # moves is 2: no swap
    assert game.to_move(swapped) == "white"


def test_a_false_where_read_after_a_variable_is_left_out_too(tmp_path):
    on = _game(tmp_path / "on", "true", 'moves == 1 and swap == "true"')
    off = _game(tmp_path / "off", "false", 'moves == 1 and swap == "true"')
    assert sorted(on.legal_notations(play(on, "@b2"))) == ["@a1", "@a2", "@b1", "@b2"]
    assert sorted(off.legal_notations(play(off, "@b2"))) == ["@a1", "@a2", "@b1"]
    plain = _game(tmp_path / "plain", "false", "1 == 1")  # (always on: the swap listed)
    assert sorted(plain.legal_notations(play(plain, "@b2"))) == ["@a1", "@a2", "@b1", "@b2"]
    # the swap left out, the decision lists like a definition without it
    (tmp_path / "without").mkdir()
    without = load_game(write_definition(tmp_path / "without", stones_and_rocks(files=2, ranks=2,
                                         extra=OPTIONS % "false"), RULES.split("    action swap:")[0]))
    assert _lister_code(off) == _lister_code(without)


def _lister_code(game):
    """The generated functions listing the legal actions (and drawing one), the
    generated names (constants `k..`, locals `l..`, `t..`, `i..`) numbered by first
    appearance: compiling the left-out action used some names up."""
    rules = game.rules
    code = "\n".join(ast.unparse(f) for f in rules.module.body
                     if ": the legal actions" in str(rules.source_map.get(f.name, "")))
    numbers: dict[str, str] = {}
    return re.sub(r"\b[klti]\d+\b", lambda m: numbers.setdefault(m.group(), f"{m.group()[0]}_{len(numbers)}"), code)


def test_drops_landing_onto_shared_contents_are_still_compared(tmp_path):
    # two drops onto empty sites, both written "@{to}": the same text for one site
    rules = RULES.replace("WHERE", "1 == 1").replace("select pieces of opponent", "drop stone on sites") \
        .replace("onto enemy:", "onto empty:").replace("target.owner = player", "place")
    game = load_game(write_definition(tmp_path, stones_and_rocks(files=2, ranks=2, extra=OPTIONS % "false"), rules))
    assert names_read(game) & COMPARING
    assert sorted(game.legal_notations(game.initial_state())) == ["@a1", "@a2", "@b1", "@b2"]
