"""The playouts' blocks (playout.Playout.block) and the forced-win check that tries
only the kinds that have won (safety.allows_forced_win's `may_win`), on Tablut
positions checked by hand: the king on f7 with one free line (to a7) or two (a
fork, to a7 and i7)."""
from __future__ import annotations

import random

from interpreter import load_game
from interpreter.frontends.agents.playout import BLOCK_RATE, BLOCK_TRIAL, Playout, Tactics, passed_sites
from interpreter.frontends.agents.safety import allows_forced_win
from interpreter.frontends.agents.tree import Node

# Attackers to move. The king (f7) is shut in above (f8), below (f6) and to the
# right (its own soldier on g7: no capture of the king); its line to the left (e7
# to a7) is open: f7-a7 wins. d9 (to d8 or
# d7), b5 (to b6 or b7), a5 (to a6 or a7) and e9 (to e8 or e7) can land on it.
ONE_LINE = ("rw2; game tablut; ply 30; phase play; turn attackers move 0; board e1=attackers.soldier "
            "f1=attackers.soldier a5=attackers.soldier b5=attackers.soldier i4=attackers.soldier "
            "f6=attackers.soldier g7=defenders.soldier f7=defenders.king f8=attackers.soldier "
            "d9=attackers.soldier e9=attackers.soldier i5=attackers.soldier")
# (a position of a game of the default player's, as the attackers, against `mcts-v1`)
# d9-d5 takes c5 (b5 beyond it), but opens the fork: f5-f7, and the king reaches
# a7 or i7 whatever the attackers do. f8-f6 keeps the king from f7.
FORK = ("rw2; game tablut; ply 34; phase play; turn attackers move 0; board e1=attackers.soldier "
        "f1=attackers.soldier f3=attackers.soldier e4=attackers.soldier g4=attackers.soldier i4=attackers.soldier "
        "b5=attackers.soldier c5=defenders.soldier f5=defenders.king h5=attackers.soldier i5=attackers.soldier "
        "g6=attackers.soldier h6=attackers.soldier i6=attackers.soldier f8=attackers.soldier d9=attackers.soldier "
        "e9=attackers.soldier")


def _learnt_wins(game, state, moves: list[str]) -> Tactics:
    """Tactics that know the kinds of the defenders' wins at once after `moves` from `state`."""
    engine, tactics = game.engine, Tactics()
    for move in moves:
        state = game.apply(state, game.parse_action(state, move))
    for code in engine.legal(state):
        after = engine.copy(state)
        engine.apply_in_place(after, code)
        if engine.outcome(after) is not None:
            tactics.learn(engine, after, code, game.players.index("defenders"))
    return tactics


def _wins_at_once(game, state) -> bool:
    return any(game.result(game.apply(state, a)) is not None for a in game.legal_actions(state))


def test_the_sites_a_move_passes_over_and_lands_on():
    game = load_game("tablut")
    passed = passed_sites(game.board)
    site = {name: i for i, name in enumerate(game.board.sites)}
    named = lambda a, b: {game.board.sites[s] for s in passed(site[a], site[b])}  # noqa: E731
    assert named("f7", "a7") == {"e7", "d7", "c7", "b7", "a7"}
    assert named("a1", "a4") == {"a2", "a3", "a4"}
    assert named("a1", "c3") == {"b2", "c3"}  # a diagonal
    assert named("a1", "b3") == {"b3"}  # on no line: the destination alone
    assert named("e5", "e6") == {"e6"}
    assert passed(-1, site["c3"]) == frozenset({site["c3"]})  # (a drop: no origin on the board)


def _steps(game, state, tactics: Tactics, block: bool, seeds: range) -> list:
    engine, attackers = game.engine, game.players.index("attackers")
    positions = []
    for seed in seeds:
        playout = Playout(engine, random.Random(seed), tactics, 2, 100, 0.1)
        if block:
            playout.passed = passed_sites(game.board)
        position = engine.copy(state)
        engine.prepare(position)
        positions.append(playout.step(position, attackers)[0])
    return positions


def test_a_playout_blocks_the_line_a_win_at_once_takes():
    game = load_game("tablut")
    state = game.parse_position(ONE_LINE)
    assert not _wins_at_once(game, state)  # (the attackers cannot take the king)
    tactics = _learnt_wins(game, state, ["e1-e2"])
    seeds = range(12)
    blocked = _steps(game, state, tactics, True, seeds)
    assert not any(_wins_at_once(game, position) for position in blocked)
    # without the blocks, random moves leave the line open
    unblocked = _steps(game, state, tactics, False, seeds)
    assert sum(_wins_at_once(game, position) for position in unblocked) >= len(seeds) // 2


def test_a_search_stops_looking_for_blocks_where_they_never_pay():
    # One playout stepping the same position again and again, the king's line open:
    # the looks block, so it goes on looking. Counts as a game whose wins nothing can
    # stand in the way of leaves them (BLOCK_TRIAL looks and no block): it looks no
    # more; one block in BLOCK_RATE looks: it looks again.
    game = load_game("tablut")
    state = game.parse_position(ONE_LINE)
    tactics = _learnt_wins(game, state, ["e1-e2"])
    engine, attackers = game.engine, game.players.index("attackers")
    playout = Playout(engine, random.Random(1), tactics, 2, 100, 0.1)
    playout.passed = passed_sites(game.board)

    def step() -> None:
        position = engine.copy(state)
        engine.prepare(position)
        playout.step(position, attackers)

    for _ in range(40):
        step()
    assert playout.block_looks == 40 and playout.blocks >= 30  # (a drawn action that blocks is no block)
    playout.block_looks, playout.blocks = BLOCK_TRIAL + 10, 0
    step()
    assert playout.block_looks == BLOCK_TRIAL + 10  # not looked
    playout.blocks = (BLOCK_TRIAL + 10) // BLOCK_RATE + 1
    step()
    assert playout.block_looks == BLOCK_TRIAL + 11  # one block in BLOCK_RATE looks: looked again


class _Counting:
    """The engine, counting the positions made (copies)."""

    def __init__(self, engine) -> None:
        self.engine = engine
        self.copies = 0

    def copy(self, state):
        self.copies += 1
        return self.engine.copy(state)

    def __getattr__(self, name):
        return getattr(self.engine, name)


def test_the_forced_win_check_tries_only_the_kinds_that_have_won():
    game = load_game("tablut")
    state = game.parse_position(FORK)
    attackers = game.players.index("attackers")
    tactics = _learnt_wins(game, state, ["d9-d5", "f5-f7", "e1-e2"])  # (the king's wins on a7 and i7)

    def check(move: str, may_win=None) -> tuple[bool, int]:
        engine = _Counting(game.engine)
        node = Node(None)
        node.state = game.engine.copy(game.apply(state, game.parse_action(state, move)))
        return allows_forced_win(engine, node, attackers, 100_000, may_win=may_win), engine.copies

    assert check("d9-d5")[0] and check("d9-d5", tactics.has_won)[0]
    # a win of a kind never seen is missed, never claimed
    assert not check("d9-d5", Tactics().has_won)[0]
    everything, copies = check("f8-f6")
    kinds_only, copies_kinds = check("f8-f6", tactics.has_won)
    assert not everything and not kinds_only
    assert copies_kinds * 5 < copies, (copies_kinds, copies)


def test_the_forced_win_check_names_the_forcing_answer_and_keeps_the_wins():
    """d9-d5 opens the fork: the check names f5-f7 (the king's move between its two
    lines) and keeps the wins it found (to a7 and i7 after it), which a look trying
    no kind at all then finds again (the kept wins are tried whatever the kinds say)."""
    game = load_game("tablut")
    state = game.parse_position(FORK)
    attackers = game.players.index("attackers")
    engine = game.engine
    node = Node(None)
    node.state = engine.copy(game.apply(state, game.parse_action(state, "d9-d5")))
    threats: list = []
    winners: list = []
    assert allows_forced_win(engine, node, attackers, 100_000, winners=winners, threats=threats)
    assert [engine.notation(code) for code in threats] == ["f5-f7"]
    assert {"f7-a7", "f7-i7"} <= {engine.notation(code) for code in winners}  # (f6-a6 too: an earlier answer's)
    assert not allows_forced_win(engine, node, attackers, 100_000, may_win=Tactics().has_won)
    assert allows_forced_win(engine, node, attackers, 100_000, may_win=Tactics().has_won, winners=winners)


# Attackers to move (a game of the default player's against `mcts-v1`, ply 18): the
# king's e6-h6 forks (h6-h1, h6-h9) after 79 of the 89 moves; the 10 others stand on
# its way (f6, g6, h6) or on one of the two lines. The safety check vetoes 69 of the 89
# for material, among them most of the 10.
EARLY_FORK = ("rw2; game tablut; ply 18; phase play; turn attackers move 0; board d1=attackers.soldier "
              "e1=attackers.soldier f1=attackers.soldier e2=attackers.soldier e4=attackers.soldier "
              "f4=defenders.soldier a5=attackers.soldier b5=attackers.soldier d5=defenders.soldier "
              "g5=attackers.soldier i5=attackers.soldier a6=attackers.soldier c6=attackers.soldier "
              "e6=defenders.king i6=attackers.soldier e7=defenders.soldier c8=defenders.soldier "
              "e8=attackers.soldier d9=attackers.soldier e9=attackers.soldier f9=attackers.soldier")
EARLY_FORK_SAFE = {"f1-h1", "i5-h5", "i6-h6", "i6-g6", "i6-f6", "e8-h8", "f9-h9", "f9-f6", "g5-g6", "e2-h2"}


def test_after_a_veto_the_player_looks_at_the_moves_in_the_threats_way(monkeypatch):
    from interpreter.frontends.agents import mcts

    game = load_game("tablut")
    state = game.parse_position(EARLY_FORK)

    def choices() -> set[str]:
        return {str(mcts.MCTSAgent(iterations=60, seed=seed).choose(game, state)) for seed in range(3)}

    assert choices() <= EARLY_FORK_SAFE
    # the search's order alone: its clean choices run out, then its most visited is played
    monkeypatch.setattr(mcts, "_stands_in_the_way", lambda *_: None)
    assert not choices() <= EARLY_FORK_SAFE


def test_the_roots_check_tries_the_winning_kinds_after_every_action_before_its_full_pass():
    # ONE_LINE, the attackers to move: every action but those landing on the king's
    # line to a7 (b7..e7) lets the king win at once. With the answers' full pass given
    # no time (its deadline past), the kinds that have won (the king to a7) alone
    # prove the same actions lost as the full pass does; without those kinds known,
    # nothing is proven.
    from interpreter.frontends.agents.search import Search
    from interpreter.frontends.agents.tree import loses_for

    game = load_game("tablut")
    state = game.parse_position(ONE_LINE)
    attackers = game.players.index("attackers")

    def lost(tactics: Tactics, answers_deadline) -> set[str]:
        search = Search(game.engine, random.Random(0), tactics, 2, exploration=1.0, rollout_limit=50,
                        score_weight=0.1, clock=lambda: 0.0)
        root = search.new_root(game.engine.copy(state))
        search.check_root(root, answers_deadline=answers_deadline)
        assert root.children is not None and root.proven is None
        return {game.engine.notation(c.code) for c in root.children if loses_for(c, attackers)}

    everything = lost(Tactics(), None)
    assert len(everything) == len(game.legal_actions(state)) - 4  # (d9-d7, b5-b7, a5-a7, e9-e7 stand in the way)
    assert lost(Tactics(), -1.0) == set()
    assert lost(_learnt_wins(game, state, ["e1-e2"]), -1.0) == everything


def test_the_forced_looks_share_grows_only_once_a_look_has_found_a_win_at_once(monkeypatch):
    """The look after the choice is made to take half the budget (a clock that jumps
    after each look). Without the room denied (so without the king's escape known),
    from the start, where no look finds the defenders a win at once (the king shut in,
    two moves deep), its share of the next move stays FORCED_SHARE: the search keeps
    its time. At EARLY_FORK, where the look finds the king's wins (most moves let it
    fork), the share grows to FORCED_SHARE_MOST. With the room denied, the king's
    escape (the defenders' wins in the random games) makes it grow from the start."""
    import dataclasses
    import time

    from interpreter.frontends.agents import mcts

    game = load_game("tablut")
    seconds = 1.0  # (the iterations end the search; the checks' deadlines are far off)
    jumped = [0.0]
    monkeypatch.setattr(mcts, "CHECK_CLOCK", lambda: time.process_time() + jumped[0])
    real = mcts.allows_forced_win

    def slow(*args, **kwargs) -> bool:
        found = real(*args, **kwargs)
        jumped[0] += seconds / 2
        return found

    monkeypatch.setattr(mcts, "allows_forced_win", slow)

    def share_after(state, room: bool) -> float:
        agent = mcts.MCTSAgent(iterations=40, seconds=seconds, seed=0,
                               methods=dataclasses.replace(mcts.CURRENT, room=room))
        agent.choose(game, state)
        return agent._forced_share

    assert share_after(game.initial_state(), room=False) == mcts.FORCED_SHARE
    assert share_after(game.parse_position(EARLY_FORK), room=False) == mcts.FORCED_SHARE_MOST
    assert share_after(game.initial_state(), room=True) == mcts.FORCED_SHARE_MOST
