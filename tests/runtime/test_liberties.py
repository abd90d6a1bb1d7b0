"""Groups and their liberties kept by the board's writes (runtime/chains.py),
asked instead of searched where the rules ask whether a group has an empty
neighbour (compilation/liberties.py): the records always agree with the board,
the questions answer what the searches answered (the mechanism off: the same
legal actions over random games), whatever documented spelling the rules use."""
import ast
import random

import pytest

from interpreter import load_game
from interpreter.compilation import board_keys, expr_sets
from interpreter.runtime import chains
from interpreter.runtime.helpers import group, group_kept
from tests.helpers import REPO, generated, helper_calls, play, write_definition

GO = str(REPO / "benchmarks/games/go")


@pytest.fixture
def off(monkeypatch):
    """Loads a game with the mechanism off: every liberty question a search again."""
    def load(path):
        with monkeypatch.context() as patched:
            patched.setattr(expr_sets, "liberty_test", lambda x, e, scope: None)
            return load_game(path)
    return load


def _liberties(board, adjacent, site):
    return {t for s in group(board, adjacent, site) for t in adjacent[s] if board[t] is None}


def _bits(sites):
    return sum(1 << s for s in sites)


def _adjacent(game):
    return tuple(tuple(a) for a in game.model.board.adjacent) + ((),)


def _check_records(records, board, adjacent):
    """Every known record is the group of its sites and that group's liberties."""
    if records is None:  # (nothing known)
        return
    n = len(board)
    assert len(records) == 3 * n
    for site, head in enumerate(records[:n - 1]):
        if head >= 0:
            stones = group(board, adjacent, site)
            assert records[head] == head and board[site] is not None
            assert records[n + head] == _bits(stones), f"site {site}"
            assert records[2 * n + head] == _bits(_liberties(board, adjacent, site)), f"site {site}"
            assert all(records[s] == head for s in stones)


# ---------------------------------------------------------------- the records alone
class _Position:
    chains = None


def test_records_follow_any_writes_of_one_site():
    # 6x6 with orthogonal neighbours; pieces of two players and neutral ones put,
    # taken and replaced by pieces of another owner (or the same) at random, the
    # records told of each write (a piece taken off by `wrote` or, as the generated
    # code tells it where it knows the site left empty, `cleared`); asked at random
    # sites in between.
    n = 6
    adjacent = tuple(tuple(t for t in (s - n if s >= n else -1, s + n if s < n * n - n else -1,
                                       s - 1 if s % n else -1, s + 1 if s % n < n - 1 else -1) if t != -1)
                     for s in range(n * n)) + ((),)
    rng = random.Random(4)
    for _ in range(20):
        board = [None] * (n * n + 1)
        position = _Position()
        for step in range(300):
            site = rng.randrange(n * n)
            was = board[site]
            board[site] = rng.choice([None, None, (0, 0), (1, 0), (1, 1), (-1, 2)])
            if board[site] is None and was is not None and step % 2:
                chains.cleared(position, board, adjacent, site)
            elif board[site] is not was:
                chains.wrote(position, board, adjacent, site, was)
            if step % 50 == 49:  # (a change the writes did not tell site by site)
                chains.forget(position)
            asked = rng.randrange(-1, n * n)
            expected = _bits(_liberties(board, adjacent, asked)) if asked >= 0 and board[asked] is not None else 0
            assert chains.liberties(position, board, adjacent, asked) == expected
            _check_records(position.chains, board, adjacent)


# ---------------------------------------------------------------- the benchmark's Go
def test_go_asks_the_kept_groups_and_searches_none():
    game = load_game(GO)
    assert game.engine.rules.keeps_chains
    assert helper_calls(game, "h_liberties", "decision 'move'")  # (the stone's `alive`)
    assert helper_calls(game, "h_liberties", "action 'stone'")  # (the capture)
    # (the capture's `remove` leaves its site empty: the records told so, no other write asked)
    assert helper_calls(game, "h_chains_cleared", "action 'stone'")
    # no search is written out for them any more (marks of a flood)
    assert not helper_calls(game, "h_unmarked", "decision 'move'")
    assert not helper_calls(game, "h_unmarked", "action 'stone'")
    s = game.engine.initial_state()
    assert s.chains is None  # (none known yet)
    game.engine.random_playout(s, random.Random(1), 100)
    assert s.chains is not None


def test_games_that_ask_no_liberties_keep_no_records():
    for path in ("benchmarks/games/lines_of_action", "benchmarks/games/othello"):
        engine = load_game(str(REPO / path)).engine
        assert not engine.rules.keeps_chains and engine.initial_state().chains is None
    # Hex asks its named group's bitmask (`exists(chain, it in start[player])`):
    # the records keep the groups' stones only, no liberties
    hex_ = load_game(str(REPO / "docs/examples/hex"))
    assert hex_.engine.rules.keeps_chains and hex_.engine.initial_state().chains is None
    assert helper_calls(hex_, "h_chains_stones_wrote") and not helper_calls(hex_, "h_chains_wrote")


def test_the_records_agree_with_the_board_at_every_ply():
    game = load_game(GO)
    engine = game.engine
    adjacent = _adjacent(game)
    rng = random.Random(2)
    for _ in range(4):
        s = engine.initial_state()
        while s.result is None:
            _check_records(s.chains, s.board, adjacent)
            copy = s.copy()
            engine.random_playout(s, rng, 1)
            engine.legal(copy)
            _check_records(copy.chains, copy.board, adjacent)
        assert s.ply > 40 and s.chains is not None


def test_a_copy_keeps_the_records_and_its_children_keep_them_exact():
    # (perft and a search play each child on a copy of its parent: the records the
    # parent's listing made go with it, kept by the child's writes — captures too)
    game = load_game(GO)
    engine = game.engine
    adjacent = _adjacent(game)
    rng = random.Random(5)
    children = captures = 0
    for _ in range(3):
        s = engine.initial_state()
        engine.random_playout(s, rng, 30)  # (groups on the board, from here on)
        while s.result is None:
            legal = engine.legal(s)  # (the listing asks liberties: the records made)
            assert s.chains is not None
            before = s.chains[:]
            for code in rng.sample(legal, min(6, len(legal))):
                child = s.copy()
                assert child.chains == before and child.chains is not s.chains
                engine.apply_in_place(child, code)
                _check_records(child.chains, child.board, adjacent)
                engine.legal(child)
                _check_records(child.chains, child.board, adjacent)
                children += 1
                stones = sum(p is not None for p in s.board)  # (a stone placed, some taken:)
                captures += child.board != s.board and sum(p is not None for p in child.board) <= stones
            assert s.chains == before  # (the children's writes left the parent's records alone)
            engine.random_playout(s, rng, 1)
    assert children > 300 and captures > 5


def _same_legal_actions(game, reference, seeds, plies=400):
    compared = 0
    for seed in seeds:
        rng = random.Random(seed)
        s, t = game.engine.initial_state(), reference.engine.initial_state()
        while s.result is None and s.ply < plies:
            legal = game.engine.legal(s)
            assert sorted(legal) == sorted(reference.engine.legal(t)), f"seed {seed}, ply {s.ply}"
            code = legal[rng.randrange(len(legal))]
            game.engine.apply_in_place(s, code)
            reference.engine.apply_in_place(t, code)
            compared += 1
        assert s.result == t.result
    return compared


def test_the_same_legal_actions_as_the_searches_over_random_games(off):
    searched = off(GO)
    assert not searched.engine.rules.keeps_chains and helper_calls(searched, "h_unmarked")
    assert _same_legal_actions(load_game(GO), searched, range(6)) > 500


def _go_position(game, black, white, to_move="black"):
    pieces = {site: ("black", "stone") for site in black} | {site: ("white", "stone") for site in white}
    return game.make_state(pieces, to_move=to_move)


def _empty(game, state, site):
    return state.board[list(game.model.board.names).index(site)] is None


def test_a_stone_without_liberties_that_takes_nothing_is_not_legal():
    game = load_game(GO)
    # a1 between white a2 and b1, which keep other liberties: not for black; white
    # may fill it (its a2 and b1 keep liberties)
    s = _go_position(game, black=["e5"], white=["a2", "b1"])
    assert "a1" not in game.legal_notations(s) and "b2" in game.legal_notations(s)
    s = _go_position(game, black=["e5"], white=["a2", "b1"], to_move="white")
    assert "a1" in game.legal_notations(s)


def test_a_stone_that_takes_is_legal_and_takes():
    game = load_game(GO)
    # white a1 b1 have one liberty, c1; black c1 would have no empty neighbour
    # (b1, d1, c2 white) but takes a1 and b1
    s = _go_position(game, black=["a2", "b2", "d2", "c3"], white=["a1", "b1", "c2", "d1"])
    assert "c1" in game.legal_notations(s)
    after = play(game, "c1", state=s)
    assert _empty(game, after, "a1") and _empty(game, after, "b1") and not _empty(game, after, "c1")
    _check_records(after.chains, after.board, _adjacent(game))
    # white may not play b1 now (b1's group would be b1 alone, with a1 left: it may)
    assert "b1" in game.legal_notations(after)


def test_simple_ko_is_kept():
    game = load_game(GO)
    #   row 2:  .  B  W         white b1 takes c1 (alone, its last liberty b1)
    #   row 1:  B  .  B  W      and stands among black stones only: a ko at c1
    s = _go_position(game, black=["a1", "b2", "c1"], white=["c2", "d1"], to_move="white")
    assert "b1" in game.legal_notations(s)
    after = play(game, "b1", state=s)
    assert _empty(game, after, "c1") and not _empty(game, after, "a1")
    assert "c1" not in game.legal_notations(after)  # (taking b1 back at once)
    later = play(game, "i9", "i8", state=after)
    assert "c1" in game.legal_notations(later)
    _check_records(later.chains, later.board, _adjacent(game))


# ---------------------------------------------------------------- other spellings
_GO_RULES = (REPO / "benchmarks/games/go/go.rules").read_text()
_GO_YAML = (REPO / "benchmarks/games/go/go.yaml").read_text()

# The same rules written other ways: named elements, `is not occupied`, the
# excluded site first; the liberty as the negation of `all`, the capture's test
# as `all`.
_SPELLINGS = [{
    "define breathes(s) = exists(group(s), exists(neighbours(it), it is empty and it != to))":
        "define breathes(s) = exists(x in group(s), exists(n in neighbours(x), to != n and n is not occupied))",
    "if n is enemy and not exists(group(n), exists(neighbours(it), it is empty)):":
        "if n is enemy and all(x in group(n), all(neighbours(x), it is occupied)):",
}, {
    "define breathes(s) = exists(group(s), exists(neighbours(it), it is empty and it != to))":
        "define breathes(s) = not all(group(s), all(m in neighbours(it), not (m is empty) or m == to))",
}]


def _respelled(tmp_path, replacements):
    rules = _GO_RULES
    for old, new in replacements.items():
        assert old in rules
        rules = rules.replace(old, new)
    return load_game(write_definition(tmp_path, _GO_YAML.replace("rules: go.rules", "rules: game.rules"), rules))


@pytest.mark.parametrize("spelling", _SPELLINGS)
def test_other_spellings_ask_the_kept_groups_too(tmp_path, spelling):
    game = _respelled(tmp_path, spelling)
    assert helper_calls(game, "h_liberties", "decision 'move'") and helper_calls(game, "h_liberties", "action 'stone'")
    assert not helper_calls(game, "h_unmarked")
    assert _same_legal_actions(game, load_game(GO), range(3)) > 200


def test_suicide_forbidden_by_result_asks_the_kept_groups(tmp_path, off):
    # the stone's `alive` dropped, suicide a `forbid result` asked after the captures
    rules = _GO_RULES.replace("        where to != ko and alive\n", "        where to != ko\n") + (
        "forbid result where to != none and not exists(group(to), exists(neighbours(it), it is empty))\n")
    yaml = _GO_YAML.replace("rules: go.rules", "rules: game.rules")
    (tmp_path / "on").mkdir()
    (tmp_path / "off").mkdir()
    game = load_game(write_definition(tmp_path / "on", yaml, rules))
    assert helper_calls(game, "h_liberties")
    searched = off(write_definition(tmp_path / "off", yaml, rules))
    assert not helper_calls(searched, "h_liberties")
    assert _same_legal_actions(game, searched, range(3)) > 200
    assert _same_legal_actions(game, load_game(GO), range(2)) > 100


@pytest.mark.parametrize("condition", [
    "exists(group(to), exists(neighbours(it), it is empty or it == to))",  # (not the shape: an `or`)
    "exists(group(to), exists(neighbours(to), it is empty))",  # (the neighbours of to, not of the group)
    "exists(group(to), exists(neighbours(it), it is empty and it != it))",
])
def test_other_questions_are_still_searched(tmp_path, condition):
    rules = _GO_RULES + f"define other = {condition}\nforbid result where to != none and other and false\n"
    game = load_game(write_definition(tmp_path, _GO_YAML.replace("rules: go.rules", "rules: game.rules"), rules))
    assert helper_calls(game, "h_unmarked") or helper_calls(game, "h_group") or helper_calls(game, "h_group_kept")


# ------------------------------------------------- a capture's group from the records
def test_a_group_alone_in_its_records_is_not_searched_and_agrees_with_group():
    game = load_game(GO)
    assert helper_calls(game, "h_group_kept", "action 'stone'") and not helper_calls(game, "h_group", "action 'stone'")
    adjacent = _adjacent(game)
    rng = random.Random(4)
    alone = 0
    for _ in range(3):
        s = game.engine.initial_state()
        while s.result is None:
            for site, piece in enumerate(s.board):
                if piece is not None:
                    assert group_kept(s, s.board, adjacent, site) == group(s.board, adjacent, site)
                    alone += chains.alone(s, s.board, site)
            game.engine.random_playout(s, rng, 1)
    assert alone > 100


def test_the_same_games_with_the_groups_searched(monkeypatch):
    with monkeypatch.context() as patched:
        patched.setattr(board_keys, "_groups_from_records", lambda function, adjacent: None)
        searched = load_game(GO)
    assert helper_calls(searched, "h_group", "action 'stone'") and not helper_calls(searched, "h_group_kept")
    game = load_game(GO)
    for seed in range(4):
        s, t = game.engine.initial_state(), searched.engine.initial_state()
        game.engine.random_playout(s, random.Random(seed), 400)
        searched.engine.random_playout(t, random.Random(seed), 400)
        assert (s.board, s.ply, s.result, s.vars) == (t.board, t.ply, t.result, t.vars)
    assert _same_legal_actions(game, searched, range(2)) > 150


def test_the_liberties_read_in_place_agree_with_the_helper(monkeypatch):
    from interpreter.compilation import liberties
    game = load_game(GO)
    with monkeypatch.context() as patched:
        patched.setattr(liberties, "_looked_up", lambda x, site, asked: asked)
        called = load_game(GO)
    assert [a for a in generated(game, ast.Attribute, "action 'stone'") if a.attr == "chains"]
    assert not [a for a in generated(called, ast.Attribute) if a.attr == "chains"]
    for seed in range(4):
        s, t = game.engine.initial_state(), called.engine.initial_state()
        game.engine.random_playout(s, random.Random(seed), 400)
        called.engine.random_playout(t, random.Random(seed), 400)
        assert (s.board, s.ply, s.result, s.vars) == (t.board, t.ply, t.result, t.vars)
    assert _same_legal_actions(game, called, range(2)) > 150
