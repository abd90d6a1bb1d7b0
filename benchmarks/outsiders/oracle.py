"""Play random games of a regelwerk definition and of an OpenSpiel game side by side.

Shared by the outsiders' `agree.py` scripts (one per game folder; `agree.py speed` and
`agree.py perft` time both sides):
each gives the definition, the OpenSpiel game and a function that writes an
OpenSpiel action as the definition's notation. Uses only the documented API
(docs/api.md): `load_game`, `Game`, `game.engine.random_playout`.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from typing import Callable

import pyspiel

from interpreter import load_game

# (OpenSpiel state, OpenSpiel action) -> the definition's notation of it
ActionWriter = Callable[[object, int], str]
# (OpenSpiel's final state, the regelwerk game, its final state) -> what differs, or None.
# The winner says little of a one-player game (2048) or of a score (Yacht's totals):
# a script compares the returns or the scores with it.
EndCheck = Callable[[object, object, object], "str | None"]
# (regelwerk game, OpenSpiel game) -> the two as compared
Wrapper = Callable[[object, object], "tuple[object, object]"]


@dataclass
class Disagreement:
    game: int
    ply: int
    what: str
    history: list[str]

    def __str__(self) -> str:
        return f"game {self.game}, ply {self.ply}: {self.what}\n  record: {' '.join(self.history)}"


def _os_winner(returns: list[float]) -> int | None:
    best = max(returns)
    if best <= 0 or returns.count(best) > 1:
        return None
    return returns.index(best)


def _os_top(returns: list[float], players: list[str]) -> set[str]:
    """The players holding OpenSpiel's best return (none when every player holds it):
    a team game's winners, partners sharing their side's return."""
    best = max(returns)
    top = {p for p, r in zip(players, returns) if r == best}
    return set() if len(top) == len(returns) else top


def same_score(os_state, rw_game, rw_state) -> str | None:
    """A `check_end` for a one-player game, whose winner says nothing: OpenSpiel's
    return against the player's score."""
    theirs = os_state.returns()[0]
    mine = rw_game.result(rw_state).scores[rw_game.players[0]]
    return None if theirs == mine else f"score: OpenSpiel {theirs}, regelwerk {mine}"


def same_returns(os_state, rw_game, rw_state) -> str | None:
    """A `check_end` for a game whose returns are amounts (chips won or lost): every
    player's OpenSpiel return against that player's score (OpenSpiel's players only:
    a definition's seat beyond them, one that holds the deck, is not compared)."""
    theirs = list(os_state.returns())
    scores = rw_game.result(rw_state).scores
    mine = [scores[player] for player in rw_game.players[:len(theirs)]]
    return None if theirs == mine else f"returns: OpenSpiel {theirs}, regelwerk {mine}"


def outcome_index(state, action: int) -> tuple[int, int]:
    """(how many outcomes OpenSpiel's chance node has, the index of `action` among them):
    a deal without replacement written as one event per count of cards left, the
    outcome an index into them (format.md 3.9)."""
    deck = [outcome for outcome, _ in state.chance_outcomes()]
    return len(deck), deck.index(action)


def play_and_compare(rw_game, os_game, write: ActionWriter, games: int, seed: int,
                     max_plies: int = 100_000, check_end: EndCheck | None = None
                     ) -> tuple[int, list[Disagreement]]:
    """Random games driven by OpenSpiel's actions (chance drawn by its probabilities);
    every position compares the player to move, the legal sets (chance outcomes and
    their probabilities), the end and the winner (and `check_end`'s findings at the
    end). Returns (plies, disagreements)."""
    rng = random.Random(seed)
    players = list(rw_game.players)
    problems: list[Disagreement] = []
    plies = 0
    for number in range(games):
        os_state = os_game.new_initial_state()
        rw_state = rw_game.initial_state()
        history: list[str] = []
        for ply in range(max_plies):
            def fail(what: str) -> None:
                problems.append(Disagreement(number, ply, what, list(history)))
            if os_state.is_terminal() or rw_game.is_terminal(rw_state):
                if os_state.is_terminal() != rw_game.is_terminal(rw_state):
                    fail(f"over: OpenSpiel {os_state.is_terminal()}, regelwerk {rw_game.is_terminal(rw_state)}")
                    break
                winner = _os_winner(os_state.returns())
                rw_result = rw_game.result(rw_state)
                if rw_game.teams:  # (partners share the top return)
                    if _os_top(os_state.returns(), players) != set(rw_result.winners):
                        fail(f"winners: OpenSpiel {os_state.returns()}, regelwerk {rw_result.winners}")
                elif (None if winner is None else players[winner]) != rw_result.winner:
                    fail(f"winner: OpenSpiel {winner} {os_state.returns()}, regelwerk {rw_result.winner}")
                elif check_end is not None and (what := check_end(os_state, rw_game, rw_state)):
                    fail(what)
                break
            if os_state.is_chance_node():
                outcomes = os_state.chance_outcomes()
                expected = {write(os_state, a): p for a, p in outcomes}
                mine = {a.notation: p for a, p in rw_game.chance_outcomes(rw_state)}
                if expected.keys() != mine.keys() or any(abs(expected[k] - mine[k]) > 1e-12 for k in mine):
                    fail(f"chance outcomes differ: only OpenSpiel {sorted(set(expected) - set(mine))[:5]}, "
                         f"only regelwerk {sorted(set(mine) - set(expected))[:5]}")
                    break
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                mover = players[os_state.current_player()]
                if rw_game.to_move(rw_state) != mover:
                    fail(f"to move: OpenSpiel {mover}, regelwerk {rw_game.to_move(rw_state)}")
                    break
                legal = os_state.legal_actions()
                expected_moves = sorted(write(os_state, a) for a in legal)
                mine_moves = rw_game.legal_notations(rw_state)
                if expected_moves != sorted(mine_moves):
                    fail(f"legal moves: OpenSpiel {expected_moves}, regelwerk {sorted(mine_moves)}")
                    break
                action = rng.choice(legal)
            notation = write(os_state, action)
            history.append(notation)
            rw_state = rw_game.apply(rw_state, notation)
            os_state.apply_action(action)
            plies += 1
        else:
            problems.append(Disagreement(number, max_plies, "no end within the ply limit", history))
    return plies, problems


def parse_values(pairs: list[str]) -> dict[str, int | float | bool | str]:
    """NAME=VALUE pairs of the command line: whole numbers, numbers with a point (a
    komi of 6.5), true, false, else the text (a text option such as liars_dice's
    `bidding_rule=reset-quantity`)."""
    flags = {"true": True, "false": False}

    def value_of(text: str) -> int | float | bool | str:
        if text in flags:
            return flags[text]
        for number in (int, float):
            try:
                return number(text)
            except ValueError:
                pass
        return text
    return {name: value_of(value) for name, value in (pair.split("=", 1) for pair in pairs)}


def arguments(description: str):
    """The arguments every script takes: a game's setting on both sides."""
    import argparse
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an option of both sides, named alike (gomoku: size, connect, anti)")
    parser.add_argument("--variant", help="a variant file of the regelwerk side")
    parser.add_argument("--openspiel", action="append", default=[], metavar="NAME=VALUE",
                        help="a parameter of the OpenSpiel side only (dots_and_boxes: num_rows)")
    return parser


def games_from(definition: str, os_name: str, args, options: dict | None, os_params: dict | None,
               wrap: Wrapper | None = None):
    """The two games as compared: `wrap(rw_game, os_game)` when given (OpenSpiel's
    game read otherwise, say, or turned turn-based)."""
    both = parse_values(args.option)
    rw_game = load_game(definition, options={**(options or {}), **both}, variant=args.variant)
    os_game = pyspiel.load_game(os_name, {**(os_params or {}), **both, **parse_values(args.openspiel)})
    return (rw_game, os_game) if wrap is None else wrap(rw_game, os_game)


def preferring_main(definition: str, os_name: str, write: ActionWriter, argv, prefer: Callable[[list], list],
                    what: str, check_end: EndCheck | None = None) -> int:
    """A script's mode of random games whose players draw among the actions `prefer`
    keeps of the legal ones (all where it keeps none) — the positions uniform random
    play seldom reaches (Hearts' unbroken hearts, Spades' low bids) —, chance uniformly:
    the legal sets compared at every player's position, the end by `check_end`."""
    parser = arguments(f"{os_name} against OpenSpiel's {os_name}, {what}")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rw_game, os_game = games_from(definition, os_name, args, None, None)
    rng = random.Random(args.seed)
    problems = plies = 0
    ends = set()
    for number in range(args.games):
        os_state, rw_state = os_game.new_initial_state(), rw_game.initial_state()
        while not os_state.is_terminal():
            legal = os_state.legal_actions()
            if not os_state.is_chance_node():
                theirs, mine = sorted(write(os_state, a) for a in legal), sorted(rw_game.legal_notations(rw_state))
                if theirs != mine:
                    print(f"game {number}: OpenSpiel {theirs}, regelwerk {mine}")
                    problems += 1
                    break
                legal = prefer(legal) or legal
            action = rng.choice(legal)
            rw_state = rw_game.apply(rw_state, write(os_state, action))
            os_state.apply_action(action)
            plies += 1
        else:
            ends.add(tuple(os_state.returns()))
            found = check_end(os_state, rw_game, rw_state) if check_end is not None else None
            if found or not rw_game.is_terminal(rw_state):
                print(f"game {number}: {found or 'regelwerk not over'}")
                problems += 1
    print(f"{args.games} games, {plies} plies, seed {args.seed}, {what} ({len(ends)} different returns): "
          f"{problems} disagreements")
    return 1 if problems else 0


def agree_main(definition: str, os_name: str, write: ActionWriter, argv=None,
               options: dict | None = None, os_params: dict | None = None,
               check_end: EndCheck | None = None, wrap: Wrapper | None = None) -> int:
    """`wrap(rw_game, os_game)`: the two games as compared (one read otherwise, say)."""
    parser = arguments(f"{definition} against OpenSpiel's {os_name}, move by move")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rw_game, os_game = games_from(definition, os_name, args, options, os_params, wrap)
    plies, problems = play_and_compare(rw_game, os_game, write, args.games, args.seed,
                                       check_end=check_end)
    for problem in problems[:10]:
        print(problem)
    print(f"{args.games} games, {plies} plies, seed {args.seed}: {len(problems)} disagreements")
    return 1 if problems else 0


# Playouts between two readings of the clock (a reading costs a few per cent of a
# short playout).
BATCH = 20


def regelwerk_playouts_per_second(rw_game, seconds: float, seed: int) -> float:
    engine = rw_game.engine
    start = engine.initial_state()
    rng = random.Random(seed)
    done = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        for _ in range(BATCH):
            state = engine.copy(start)
            engine.random_playout(state, rng, 100_000)
        done += BATCH
    return done / (time.process_time() - began)


def openspiel_playouts_per_second(os_game, seconds: float, seed: int,
                                  weighted_chance: bool = False) -> float:
    rng = random.Random(seed)
    done = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        for _ in range(BATCH):
            state = os_game.new_initial_state()
            # Where the chance events are uniform, a chance node's legal actions are
            # its outcomes, drawn like a player's (the brief's loop); where they are
            # not (2048's 2 and 4), `weighted_chance` draws them by their odds, as
            # regelwerk's random playouts do.
            while not state.is_terminal():
                if weighted_chance and state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
        done += BATCH
    return done / (time.process_time() - began)


def speed_main(definition: str, os_name: str, argv=None, options: dict | None = None,
               os_params: dict | None = None, wrap: Wrapper | None = None) -> None:
    """Random playouts per processor second, the two sides in alternating rounds.
    OpenSpiel's chance outcomes are drawn uniformly unless `--weighted-chance`
    (see openspiel_playouts_per_second)."""
    parser = arguments(f"playouts: {definition} against OpenSpiel's {os_name}")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weighted-chance", action="store_true",
                        help="OpenSpiel's chance outcomes drawn by their odds (not uniform)")
    args = parser.parse_args(argv)
    rw_game, os_game = games_from(definition, os_name, args, options, os_params, wrap)
    regelwerk_playouts_per_second(rw_game, 0.3, args.seed)  # warm up
    ours, theirs = [], []
    for round_ in range(args.rounds):
        ours.append(regelwerk_playouts_per_second(rw_game, args.seconds, args.seed + round_))
        theirs.append(openspiel_playouts_per_second(os_game, args.seconds, args.seed + round_,
                                                    args.weighted_chance))
        print(f"round {round_ + 1}: regelwerk {ours[-1]:.1f}/s, OpenSpiel {theirs[-1]:.1f}/s")
    mine, other = statistics.median(ours), statistics.median(theirs)
    print(f"medians: regelwerk {mine:.1f}, OpenSpiel {other:.1f} playouts per processor second; "
          f"ratio {mine / other:.2f}")


def openspiel_perft(state, depth: int) -> list[int]:
    """The number of action sequences of each length 1..depth (chance outcomes count as
    actions; a terminal position has none), as `regelwerk perft` counts them."""
    counts = [0] * depth

    def walk(node, level: int) -> None:
        actions = node.legal_actions()
        counts[level] += len(actions)
        if level + 1 == depth:
            return
        for action in actions:
            walk(node.child(action), level + 1)
    if not state.is_terminal():
        walk(state, 0)
    return counts


def perft_main(definition: str, os_name: str, write: ActionWriter, argv=None,
               options: dict | None = None, os_params: dict | None = None,
               wrap: Wrapper | None = None) -> None:
    """Perft from the position after a record on both sides: counts (which must be
    equal) and processor time, alternating rounds, medians."""
    parser = arguments(f"perft: {definition} against OpenSpiel's {os_name}")
    parser.add_argument("--depth", type=int, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--record", default="", help="OpenSpiel actions, comma-separated, to start from")
    parser.add_argument("--random-plies", type=int, default=0,
                        help="then this many OpenSpiel actions drawn by random.Random(--seed)")
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args(argv)
    rw_game, os_game = games_from(definition, os_name, args, options, os_params, wrap)
    os_state = os_game.new_initial_state()
    rw_state = rw_game.initial_state()
    rng = random.Random(args.seed)
    actions = [int(text) for text in args.record.split(",") if text]
    for ply in range(len(actions) + args.random_plies):
        action = actions[ply] if ply < len(actions) else rng.choice(os_state.legal_actions())
        notation = write(os_state, action)
        rw_state = rw_game.apply(rw_state, notation)
        os_state.apply_action(action)
        print(notation, end=" ")
    print()
    ours, theirs = [], []
    for _ in range(args.rounds):
        began = time.process_time()
        rw_counts = rw_game.engine.perft(rw_state, args.depth)
        ours.append(time.process_time() - began)
        began = time.process_time()
        os_counts = openspiel_perft(os_state, args.depth)
        theirs.append(time.process_time() - began)
    print(f"counts: regelwerk {list(rw_counts)}, OpenSpiel {os_counts}"
          f"{'' if list(rw_counts) == os_counts else '  DIFFERENT'}")
    mine, other = statistics.median(ours), statistics.median(theirs)
    print(f"medians: regelwerk {mine:.3f} s, OpenSpiel {other:.3f} s of processor time; "
          f"OpenSpiel / regelwerk {other / mine:.2f}")


def main(definition: str, os_name: str, write: ActionWriter, argv=None,
         options: dict | None = None, os_params: dict | None = None,
         check_end: EndCheck | None = None, wrap: Wrapper | None = None) -> int:
    """A game's script: `agree.py [--games N ...]` compares random games move by move,
    `agree.py speed [...]` times random playouts on both sides, `agree.py perft --depth
    D [...]` counts and times perft on both sides."""
    import sys
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "speed":
        speed_main(definition, os_name, argv[1:], options=options, os_params=os_params, wrap=wrap)
        return 0
    if argv and argv[0] == "perft":
        perft_main(definition, os_name, write, argv[1:], options=options, os_params=os_params,
                   wrap=wrap)
        return 0
    if argv and argv[0] == "agree":
        argv = argv[1:]
    return agree_main(definition, os_name, write, argv, options=options, os_params=os_params,
                      check_end=check_end, wrap=wrap)
