"""Dou Dizhu against OpenSpiel's dou_dizhu, move by move (benchmarks/outsiders/oracle.py).

OpenSpiel numbers its 26,057 actions by combination; the definition writes a play as
the kind of combination and the site of its rank in the mover's row (files a..o the
ranks 3 ... 2, black and red joker; rank 1..3 the rows of p0..p2). `write` reads the
kind from OpenSpiel's action number (the ranges of dou_dizhu_utils.h) and the ranks
from its action string. The airplanes with kickers (actions 516..26042) are not in
the definition: OpenSpiel's legal lists are compared without them and random games
never choose them (README.md).

    agree.py [--games N --seed S]     random games, every position compared
    agree.py speed                    random playouts per second, both sides
    agree.py perft --depth D          perft counts and times after --record / --random-plies
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

import pyspiel

from benchmarks.outsiders import oracle
from interpreter import load_game

DEFINITION = str(Path(__file__).with_name("dou_dizhu.yaml"))
FILES = "abcdefghijklmno"
RANKS = "3456789TJQKA2"
FACE_UP_CARDS = 51
SOLO, SOLO_CHAIN, PAIR, PAIR_CHAIN, TRIO = 4, 19, 55, 68, 120
TRIO_SOLO, TRIO_PAIR, AIRPLANE, AIRPLANE_SOLO, AIRPLANE_PAIR, BOMB, ROCKET = (
    133, 315, 471, 516, 23104, 26043, 26056)


def ranks_of(text: str) -> list[int]:
    """The ranks (0..14) of an action string, one a card: '334455', '3(BWJ)(CJ)'."""
    ranks, i = [], 0
    while i < len(text):
        if text.startswith("(BWJ)", i):
            ranks.append(13)
            i += 5
        elif text.startswith("(CJ)", i):
            ranks.append(14)
            i += 4
        else:
            ranks.append(RANKS.index(text[i]))
            i += 1
    return ranks


def card_site(card: int) -> str:
    if card >= 52:
        return FILES[card - 52 + 13] + "4"
    return FILES[card % 13] + str(4 + card // 13)


def without_kickers(action: int) -> bool:
    """Whether a play is one of the definition with `airplane_kickers=false`."""
    return not AIRPLANE_SOLO <= action < BOMB


def airplane_with_kickers(text: str, row: str, pairs: bool) -> str:
    """'333444-5566' as the chain's action and one action a kicker: 'aa2:a1 kpc1 kpd1'."""
    chain, kickers = text.split("-")
    chain_ranks, kicker_ranks = ranks_of(chain), ranks_of(kickers)
    length = len(chain_ranks) // 3
    head = FILES[chain_ranks[0]] + row
    if pairs:
        return " ".join([f"aa{length}:{head}"] + [f"kp{FILES[r]}{row}" for r in kicker_ranks[::2]])
    return " ".join([f"a{length}:{head}"] + [f"k{FILES[r]}{row}" for r in kicker_ranks])


def write(state, action: int) -> str:
    if state.is_chance_node():
        if action < FACE_UP_CARDS:
            return f"face_up:{action}"
        return "deal:" + card_site(action - FACE_UP_CARDS)
    if action == 0:
        return "pass"
    if action < SOLO:
        return f"bid{action}"
    row = str(state.current_player() + 1)
    text = state.action_to_string(state.current_player(), action)
    if AIRPLANE_SOLO <= action < BOMB:
        return airplane_with_kickers(text, row, action >= AIRPLANE_PAIR)
    ranks = ranks_of(text)

    def site(rank: int) -> str:
        return FILES[rank] + row
    if action == ROCKET:
        return "rocket"
    if action >= BOMB:
        return "b" + site(ranks[0])
    if action >= AIRPLANE:
        return f"ccc{len(ranks) // 3}:{site(ranks[0])}"
    if action >= TRIO_SOLO:
        trio = max(set(ranks), key=ranks.count)
        kicker = next(r for r in ranks if r != trio)
        return f"t{trio + 1}+{'p' if action >= TRIO_PAIR else ''}{site(kicker)}"
    if action >= TRIO:
        return "t" + site(ranks[0])
    if action >= PAIR_CHAIN:
        return f"cc{len(ranks) // 2}:{site(ranks[0])}"
    if action >= PAIR:
        return "p" + site(ranks[0])
    if action >= SOLO_CHAIN:
        return f"c{len(ranks)}:{site(ranks[0])}"
    return "s" + site(ranks[0])


def legal(state, kickers: bool = True) -> list[int]:
    actions = state.legal_actions()
    if kickers or state.is_chance_node():
        return actions
    return [a for a in actions if not AIRPLANE_SOLO <= a < BOMB]


def apply(rw_game, rw_state, notations: str):
    for notation in notations.split():
        rw_state = rw_game.apply(rw_state, notation)
    return rw_state


def plays(rw_game, rw_state) -> list[str]:
    """The legal actions, an airplane's chain followed by every way of choosing its kickers."""
    found = []
    mover = rw_game.to_move(rw_state)

    def follow(state, done: str) -> None:
        for notation in rw_game.legal_notations(state):
            play = f"{done} {notation}".strip()
            if notation.startswith("a") or notation.startswith("k"):
                after = rw_game.apply(state, notation)
                if not rw_game.is_terminal(after) and rw_game.to_move(after) == mover \
                        and rw_game.legal_notations(after)[0].startswith("k"):
                    follow(after, play)
                    continue
            found.append(play)
    follow(rw_state, "")
    return found


def compare(games: int, seed: int) -> int:
    rw_game, os_game = load_game(DEFINITION), pyspiel.load_game("dou_dizhu")
    players = list(rw_game.players)
    rng = random.Random(seed)
    problems = plies = airplanes = 0
    returns_seen = set()
    for number in range(games):
        os_state, rw_state, history = os_game.new_initial_state(), rw_game.initial_state(), []

        def fail(what: str) -> None:
            nonlocal problems
            problems += 1
            if problems <= 10:
                print(f"game {number}, ply {len(history)}: {what}\n  record: {' '.join(history)}")
        while True:
            if os_state.is_terminal() or rw_game.is_terminal(rw_state):
                if os_state.is_terminal() != rw_game.is_terminal(rw_state):
                    fail(f"over: OpenSpiel {os_state.is_terminal()}, regelwerk {rw_game.is_terminal(rw_state)}")
                elif what := oracle.same_returns(os_state, rw_game, rw_state):
                    fail(what)
                else:
                    returns_seen.add(tuple(os_state.returns()))
                break
            if os_state.is_chance_node():
                expected = {write(os_state, a): p for a, p in os_state.chance_outcomes()}
                mine = {a.notation: p for a, p in rw_game.chance_outcomes(rw_state)}
                if expected.keys() != mine.keys() or any(abs(expected[k] - mine[k]) > 1e-12 for k in mine):
                    fail(f"chance outcomes: only OpenSpiel {sorted(set(expected) - set(mine))[:5]}, "
                         f"only regelwerk {sorted(set(mine) - set(expected))[:5]}")
                    break
                action = rng.choice(os_state.legal_actions())
            else:
                mover = players[os_state.current_player()]
                if rw_game.to_move(rw_state) != mover:
                    fail(f"to move: OpenSpiel {mover}, regelwerk {rw_game.to_move(rw_state)}")
                    break
                actions = legal(os_state)
                theirs = sorted(write(os_state, a) for a in actions)
                mine_moves = sorted(plays(rw_game, rw_state))
                if theirs != mine_moves:
                    fail(f"legal: only OpenSpiel {sorted(set(theirs) - set(mine_moves))}, "
                         f"only regelwerk {sorted(set(mine_moves) - set(theirs))}")
                    break
                action = rng.choice(actions)
            notation = write(os_state, action)
            history.append(notation)
            airplanes += " " in notation
            rw_state = apply(rw_game, rw_state, notation)
            os_state.apply_action(action)
            plies += 1
    print(f"{games} games, {plies} plies ({airplanes} airplanes with kickers), seed {seed} "
          f"({len(returns_seen)} different returns): "
          f"{problems} disagreements")
    return 1 if problems else 0


def openspiel_playouts(os_game, seconds: float, seed: int) -> float:
    """Random playouts without airplanes with kickers (chance drawn uniformly)."""
    rng, done, began = random.Random(seed), 0, time.process_time()
    while time.process_time() - began < seconds:
        for _ in range(oracle.BATCH):
            state = os_game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(legal(state, kickers=False)))
        done += oracle.BATCH
    return done / (time.process_time() - began)


def speed(argv: list[str]) -> None:
    parser = oracle.arguments("playouts: dou_dizhu against OpenSpiel's")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-kickers", action="store_true",
                        help="both sides without airplanes with kickers")
    args = parser.parse_args(argv)
    rw_game = load_game(DEFINITION, options={"airplane_kickers": not args.no_kickers})
    os_game = pyspiel.load_game("dou_dizhu")
    oracle.regelwerk_playouts_per_second(rw_game, 0.3, args.seed)
    ours, theirs = [], []
    for round_ in range(args.rounds):
        ours.append(oracle.regelwerk_playouts_per_second(rw_game, args.seconds, args.seed + round_))
        theirs.append(openspiel_playouts(os_game, args.seconds, args.seed + round_) if args.no_kickers
                      else oracle.openspiel_playouts_per_second(os_game, args.seconds, args.seed + round_))
        print(f"round {round_ + 1}: regelwerk {ours[-1]:.1f}/s, OpenSpiel {theirs[-1]:.1f}/s")
    mine, other = statistics.median(ours), statistics.median(theirs)
    print(f"medians: regelwerk {mine:.1f}, OpenSpiel {other:.1f} playouts per processor second; "
          f"ratio {mine / other:.2f}")


def openspiel_perft(state, depth: int, kickers: bool) -> list[int]:
    counts = [0] * depth

    def walk(node, level: int) -> None:
        actions = legal(node, kickers)
        counts[level] += len(actions)
        if level + 1 < depth:
            for action in actions:
                walk(node.child(action), level + 1)
    if not state.is_terminal():
        walk(state, 0)
    return counts


def perft(argv: list[str]) -> None:
    parser = oracle.arguments("perft: dou_dizhu against OpenSpiel's")
    parser.add_argument("--depth", type=int, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--record", default="", help="OpenSpiel actions, comma-separated, to start from")
    parser.add_argument("--random-plies", type=int, default=0)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--no-kickers", action="store_true",
                        help="both sides without airplanes with kickers (else counts differ where they are legal)")
    args = parser.parse_args(argv)
    kickers = not args.no_kickers
    rw_game = load_game(DEFINITION, options={"airplane_kickers": kickers})
    os_game = pyspiel.load_game("dou_dizhu")
    os_state, rw_state = os_game.new_initial_state(), rw_game.initial_state()
    rng = random.Random(args.seed)
    actions = [int(text) for text in args.record.split(",") if text]
    for ply in range(len(actions) + args.random_plies):
        action = actions[ply] if ply < len(actions) else rng.choice(legal(os_state, kickers))
        notation = write(os_state, action)
        rw_state = apply(rw_game, rw_state, notation)
        os_state.apply_action(action)
        print(notation, end=" ")
    print()
    ours, theirs = [], []
    for _ in range(args.rounds):
        began = time.process_time()
        rw_counts = list(rw_game.engine.perft(rw_state, args.depth))
        ours.append(time.process_time() - began)
        began = time.process_time()
        os_counts = openspiel_perft(os_state, args.depth, kickers)
        theirs.append(time.process_time() - began)
    print(f"counts: regelwerk {rw_counts}, OpenSpiel {os_counts}{'' if rw_counts == os_counts else '  DIFFERENT'}")
    mine, other = statistics.median(ours), statistics.median(theirs)
    print(f"medians: regelwerk {mine:.3f} s, OpenSpiel {other:.3f} s of processor time; "
          f"OpenSpiel / regelwerk {other / mine:.2f}")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "speed":
        speed(argv[1:])
        return 0
    if argv and argv[0] == "perft":
        perft(argv[1:])
        return 0
    if argv and argv[0] == "agree":
        argv = argv[1:]
    parser = oracle.arguments("dou_dizhu against OpenSpiel's, move by move")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return compare(args.games, args.seed)


if __name__ == "__main__":
    sys.exit(main())
