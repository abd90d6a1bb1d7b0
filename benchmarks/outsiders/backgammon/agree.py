"""Backgammon against OpenSpiel's backgammon, position by position.

python benchmarks/outsiders/backgammon/agree.py [agree] --games 200 --seed 1 [--option scoring_type=full_scoring]
python benchmarks/outsiders/backgammon/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/backgammon/agree.py perft --depth 3 --rw-depth 5 --random-plies 40 --seed 4

One OpenSpiel action plays both dice (or the two moves of half a double); the definition
takes one decision per die. So the legal sets are compared by what they do to the
board: the positions (checkers on every point, on the bar, borne off) that OpenSpiel's
actions reach against those the definition's two decisions reach. The chance outcomes
are compared one to one (`start:12`, `roll:21`), with their probabilities.
"""

import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# OpenSpiel's chance outcomes in its order: the non-doubles with both orders, then doubles.
THROWS = [f"{a}{b}" for lo in range(1, 7) for hi in range(lo + 1, 7) for a, b in ((lo, hi), (hi, lo))] \
    + [f"{d}{d}" for d in range(1, 7)]
POINTS = 24


def write_chance(state, action: int) -> str:
    """An OpenSpiel chance outcome as the definition's notation."""
    opening = "starts" in state.action_to_string(-1, action)
    return f"{'start' if opening else 'roll'}:{THROWS[action]}"


def openspiel_board(state) -> tuple:
    """(x's checkers on p0..p23, o's, bar x, bar o, off x, off o), read from the
    observation tensor (Tesauro's encoding: 1, 2, 3, and the count above 3)."""
    values = state.observation_tensor(0)

    def counts(start: int) -> tuple:
        out = []
        for point in range(POINTS):
            one, two, three, more = values[start + 4 * point: start + 4 * point + 4]
            out.append(int(one + 2 * two + 3 * three + (3 + more if more > 0 else 0)))
        return tuple(out)
    tail = 8 * POINTS
    return (counts(0), counts(4 * POINTS), int(values[tail]), int(values[tail + 3]),
            int(values[tail + 1]), int(values[tail + 4]))


def regelwerk_board(game, state) -> tuple:
    heights = {"x": [0] * POINTS, "o": [0] * POINTS}
    for piece in game.pieces(state):
        heights[piece.owner][int(piece.site[1:])] = len(piece.stones)
    bar = game.pools(state)["bar"]
    off = game.variables(state)["off"]
    return (tuple(heights["x"]), tuple(heights["o"]), bar["x"], bar["o"], off["x"], off["o"])


def half_turns(game, state) -> dict:
    """{board reached: the definition's record of the two decisions reaching it}."""
    reached = {}
    for first in game.legal_actions(state):
        after_first = game.apply(state, first)
        if game.is_terminal(after_first):
            reached.setdefault(regelwerk_board(game, after_first), [first])
            continue
        for second in game.legal_actions(after_first):
            after = game.apply(after_first, second)
            reached.setdefault(regelwerk_board(game, after), [first, second])
    return reached


def returns_check(os_state, rw_game, rw_state) -> str | None:
    return oracle.same_returns(os_state, rw_game, rw_state)


def agree(argv) -> int:
    parser = oracle.arguments("backgammon against OpenSpiel's backgammon")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-returns", action="store_true",
                        help="compare the end but not the returns (hyper_backgammon: OpenSpiel "
                             "2.0.2 returns 0 and 0 for every game of three checkers)")
    args = parser.parse_args(argv)
    rw_game, os_game = oracle.games_from(HERE, "backgammon", args, None, None)
    rng = random.Random(args.seed)
    problems = plies = 0
    ends: dict = {}
    for number in range(args.games):
        os_state, rw_state = os_game.new_initial_state(), rw_game.initial_state()
        record: list[str] = []

        def fail(what: str) -> None:
            nonlocal problems
            problems += 1
            if problems <= 10:
                print(f"game {number}, ply {len(record)}: {what}\n  record: {' '.join(record)}")
        while True:
            if os_state.is_terminal() or rw_game.is_terminal(rw_state):
                if os_state.is_terminal() != rw_game.is_terminal(rw_state):
                    fail(f"over: OpenSpiel {os_state.is_terminal()}, regelwerk {rw_game.is_terminal(rw_state)}")
                elif not args.skip_returns and (found := returns_check(os_state, rw_game, rw_state)):
                    fail(found)
                else:
                    key = tuple(os_state.returns()) + tuple(rw_game.result(rw_state).scores.values())
                    ends[key] = ends.get(key, 0) + 1
                break
            if os_state.is_chance_node():
                expected = {write_chance(os_state, a): p for a, p in os_state.chance_outcomes()}
                mine = {a.notation: p for a, p in rw_game.chance_outcomes(rw_state)}
                if expected.keys() != mine.keys() or any(abs(expected[k] - mine[k]) > 1e-12 for k in mine):
                    fail(f"chance outcomes: OpenSpiel {sorted(expected)}, regelwerk {sorted(mine)}")
                    break
                outcomes = os_state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
                notation = write_chance(os_state, action)
                rw_state = rw_game.apply(rw_state, notation)
                os_state.apply_action(action)
                record.append(notation)
                plies += 1
                continue
            mover = "xo"[os_state.current_player()]
            if rw_game.to_move(rw_state) != mover:
                fail(f"to move: OpenSpiel {mover}, regelwerk {rw_game.to_move(rw_state)}")
                break
            theirs = {}
            for action in os_state.legal_actions():
                theirs.setdefault(openspiel_board(os_state.child(action)), action)
            mine = half_turns(rw_game, rw_state)
            if theirs.keys() != mine.keys():
                only_theirs = [os_state.action_to_string(os_state.current_player(), theirs[k])
                               for k in theirs.keys() - mine.keys()]
                only_mine = [" ".join(a.notation for a in mine[k]) for k in mine.keys() - theirs.keys()]
                fail(f"{mover} to move, dice {rw_game.variables(rw_state)['die_hi']}"
                     f"{rw_game.variables(rw_state)['die_lo']}: only OpenSpiel {sorted(only_theirs)[:6]}, "
                     f"only regelwerk {sorted(only_mine)[:6]}")
                break
            board = rng.choice(sorted(theirs))
            os_state.apply_action(theirs[board])
            for step in mine[board]:
                rw_state = rw_game.apply(rw_state, step)
                record.append(step.notation)
            plies += 1
    print(f"{args.games} games, {plies} OpenSpiel plies, seed {args.seed}, returns seen {ends}: "
          f"{problems} disagreements")
    return 1 if problems else 0


def perft(argv) -> None:
    """Perft times on both sides from one position (after --random-plies OpenSpiel plies):
    OpenSpiel's depth counts its actions (both dice one action), the definition's its
    decisions (one die each), so the two counts differ; --rw-depth gives the depth that
    spans the same turns."""
    parser = oracle.arguments("perft: backgammon against OpenSpiel's backgammon")
    parser.add_argument("--depth", type=int, required=True, help="OpenSpiel's depth")
    parser.add_argument("--rw-depth", type=int, required=True, help="the definition's depth")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--random-plies", type=int, default=0)
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args(argv)
    rw_game, os_game = oracle.games_from(HERE, "backgammon", args, None, None)
    rng = random.Random(args.seed)
    os_state, rw_state = os_game.new_initial_state(), rw_game.initial_state()
    for _ in range(args.random_plies):
        if os_state.is_chance_node():
            action = rng.choice(os_state.legal_actions())
            rw_state = rw_game.apply(rw_state, write_chance(os_state, action))
        else:
            theirs = {openspiel_board(os_state.child(a)): a for a in os_state.legal_actions()}
            mine = half_turns(rw_game, rw_state)
            board = rng.choice(sorted(theirs))
            action = theirs[board]
            for step in mine[board]:
                rw_state = rw_game.apply(rw_state, step)
        os_state.apply_action(action)
    print(os_state)
    ours, theirs_times = [], []
    for _ in range(args.rounds):
        began = time.process_time()
        rw_counts = rw_game.engine.perft(rw_state, args.rw_depth)
        ours.append(time.process_time() - began)
        began = time.process_time()
        os_counts = oracle.openspiel_perft(os_state, args.depth)
        theirs_times.append(time.process_time() - began)
    print(f"counts: regelwerk {list(rw_counts)}, OpenSpiel {os_counts}")
    mine, other = statistics.median(ours), statistics.median(theirs_times)
    print(f"medians: regelwerk {mine:.3f} s, OpenSpiel {other:.3f} s of processor time; "
          f"OpenSpiel / regelwerk {other / mine:.2f}")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments and arguments[0] == "speed":
        oracle.speed_main(HERE, "backgammon", arguments[1:])
    elif arguments and arguments[0] == "perft":
        perft(arguments[1:])
    else:
        sys.exit(agree(arguments[1:] if arguments and arguments[0] == "agree" else arguments))
