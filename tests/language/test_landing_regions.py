"""`forbid landing where site not in REGION` (or `site in REGION`): the sites no
action may ever land on, whatever the piece and the position. A step and a jump
listed in one pass over the directions leave out the ways that land on none but
those sites, a jump's pairs those that land there, and they do not ask the forbid
again where every way left lands elsewhere (compilation/patterns.py,
Restrictions.static_forbidden). Hand-checked, and the same as with the forbid
written so that it is asked at each site."""
from interpreter import load_game
from tests.helpers import stones_and_rocks, write_definition

#   4  .  X  .  X      X: off the region `inside` (c2 holds a black stone from the setup)
#   3  .  b  .  b
#   2  .  w  b  .
#   1  w  .  .  X
#      a  b  c  d
YAML = stones_and_rocks(extra=(
    "regions:\n  inside: [a1, b1, c1, a2, b2, d2, a3, b3, c3, d3, a4, c4]\n"
    "setup:\n  white:\n    stone: [a1, b2]\n  black:\n    stone: [b3, c2, d3]\n"))

RULES = """\
    forbid landing where {forbid}

    phase play:
        turn: move

    decision move:
        action step by stone:
            step orthogonal
            onto empty: move
        action hop by stone:
            jump orthogonal
            over own: move
            over enemy:
                move
                then more

    decision more:
        action hop by the same piece:
            jump orthogonal
            over own: move
            over enemy: move
        action stop:
            pass
    """


def _moves(tmp_path, forbid: str) -> tuple[list, list]:
    """The first moves of white, and the hops after b2 hops c2 onto d2."""
    folder = tmp_path / forbid.replace(" ", "_").replace("(", "").replace(")", "")
    folder.mkdir()
    game = load_game(write_definition(folder, YAML, RULES.format(forbid=forbid)))
    state = game.initial_state()
    first = game.legal_notations(state)
    state = game.apply(state, next(a for a in game.legal_actions(state) if a.notation == "b2xd2"))
    return first, game.legal_notations(state)


def test_no_step_or_jump_lands_off_a_region(tmp_path):
    first, then = _moves(tmp_path, "site not in inside")
    # b2 may not step onto c2 (taken, and off the region) nor hop b3 onto b4 (off
    # the region), but hops c2 onto d2 (a way whose step is off the region);
    # a1 steps to a2 and b1.
    assert sorted(first) == ["a1-a2", "a1-b1", "b2-a2", "b2-b1", "b2xd2"]
    # From d2: back over c2 onto b2, not over d3 onto d4 (off the region).
    assert [n for n in then if "x" in n] == ["d2xb2"] and len(then) == 2
    # The same where the forbid is asked of each site (`not (...)` is no region).
    assert (first, then) == _moves(tmp_path, "not (site in inside)")
