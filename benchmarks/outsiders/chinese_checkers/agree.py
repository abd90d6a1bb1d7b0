"""Chinese checkers against OpenSpiel's chinese_checkers, move by move.

python benchmarks/outsiders/chinese_checkers/agree.py --games 200 --seed 1
python benchmarks/outsiders/chinese_checkers/agree.py --games 100 --seed 2 --option players=3
python benchmarks/outsiders/chinese_checkers/agree.py --games 100 --seed 3 --option players=6 --option max_moves=300
python benchmarks/outsiders/chinese_checkers/agree.py greedy --games 100 --seed 5
python benchmarks/outsiders/chinese_checkers/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/chinese_checkers/agree.py perft --depth 4
"""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
from gen_yaml import OPPOSITE, SITES, TRIANGLES  # noqa: E402
from oracle import arguments, games_from, main  # noqa: E402


def write(state, action: int) -> str:
    # OpenSpiel writes "3->14" (a step), "3=>14" (a hop) and "Pass", cells numbered 0..120.
    text = state.action_to_string(state.current_player(), action)
    if text == "Pass":
        return "pass"
    for sign, mine in (("->", "-"), ("=>", "x")):
        if sign in text:
            start, end = text.split(sign)
            return f"{SITES[int(start)]}{mine}{SITES[int(end)]}"
    raise ValueError(f"unexpected OpenSpiel action {text!r}")


# Random games never fill a triangle: `greedy` plays mostly the action that brings a
# marble nearest the far corner of its goal, so that games end in wins, and compares
# both sides at every position as oracle.py does.

def xy(cell: int) -> tuple[int, int]:
    return ord(SITES[cell][0]) - ord("a"), int(SITES[cell][1:])


def distance(a: int, b: int) -> int:
    (xa, ya), (xb, yb) = xy(a), xy(b)
    dx, dy = xb - xa, yb - ya
    return max(abs(dx), abs(dy)) if dx * dy >= 0 else abs(dx) + abs(dy)


CENTRE = 60


def goal_corner(seat: str) -> int:
    return max(TRIANGLES[OPPOSITE[seat]], key=lambda cell: distance(CENTRE, cell))


def progress(state, action: int, corner: int) -> int:
    text = state.action_to_string(state.current_player(), action)
    if text == "Pass":
        return 0
    start, end = (int(part) for part in text.replace("=>", "->").split("->"))
    return distance(start, corner) - distance(end, corner)


def greedy_main(argv) -> int:
    parser = arguments("Chinese checkers against OpenSpiel, greedy games that end in wins")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--explore", type=float, default=0.1, help="share of random actions")
    args = parser.parse_args(argv)
    rw_game, os_game = games_from(HERE, "chinese_checkers", args, None, None)
    players = list(rw_game.players)
    corners = [goal_corner(seat) for seat in players]
    rng = random.Random(args.seed)
    problems, wins, plies = 0, 0, 0
    for number in range(args.games):
        os_state, rw_state = os_game.new_initial_state(), rw_game.initial_state()
        history = []
        while True:
            what = None
            if os_state.is_terminal() or rw_game.is_terminal(rw_state):
                returns = os_state.returns()
                best = max(returns)
                winner = players[returns.index(best)] if best > 0 else None
                if not (os_state.is_terminal() and rw_game.is_terminal(rw_state)):
                    what = f"over: OpenSpiel {os_state.is_terminal()}, regelwerk {rw_game.is_terminal(rw_state)}"
                elif rw_game.result(rw_state).winner != winner:
                    what = f"winner: OpenSpiel {winner}, regelwerk {rw_game.result(rw_state).winner}"
                wins += winner is not None
            else:
                mover = os_state.current_player()
                legal = os_state.legal_actions()
                expected = sorted(write(os_state, a) for a in legal)
                if rw_game.to_move(rw_state) != players[mover]:
                    what = f"to move: OpenSpiel {players[mover]}, regelwerk {rw_game.to_move(rw_state)}"
                elif expected != rw_game.legal_notations(rw_state):
                    what = f"legal: OpenSpiel {expected}, regelwerk {rw_game.legal_notations(rw_state)}"
            if what:
                problems += 1
                print(f"game {number}, ply {len(history)}: {what}\n  record: {' '.join(history)}")
            if what or os_state.is_terminal():
                break
            if rng.random() < args.explore:
                action = rng.choice(legal)
            else:
                scored = [(progress(os_state, a, corners[mover]), rng.random(), a) for a in legal]
                action = max(scored)[2]
            history.append(write(os_state, action))
            rw_state = rw_game.apply(rw_state, history[-1])
            os_state.apply_action(action)
            plies += 1
    print(f"{args.games} greedy games, {plies} plies, {wins} won, seed {args.seed}: {problems} disagreements")
    return 1 if problems else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["greedy"]:
        sys.exit(greedy_main(sys.argv[2:]))
    sys.exit(main(HERE, "chinese_checkers", write))
