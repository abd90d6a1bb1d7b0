"""Phantom tic-tac-toe against OpenSpiel's phantom_ttt (classical, reveal-nothing), move by move.

python benchmarks/outsiders/phantom_ttt/agree.py --games 300 --seed 1
python benchmarks/outsiders/phantom_ttt/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/phantom_ttt/agree.py perft --depth 6
python benchmarks/outsiders/phantom_ttt/agree.py --option gameversion=abrupt --games 300
python benchmarks/outsiders/phantom_ttt/agree.py --openspiel obstype=reveal-numturns --games 300

OpenSpiel's cell r * 3 + c (row 0 printed at the top) is the definition's site of file
c + 1 and rank 3 - r, its action the drop `@{to}` there. Beside the oracle's comparison
(player to move, legal actions, end, returns) the default mode compares, at every
position, each player's view as the definition keeps it — its own marks and the
opponent's marks whose `seen` flag is set — with OpenSpiel's ObservationString of that
player, and the view with the player's own actions (read from the record) with its
InformationStateString.
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = "abc"


def site_of(cell: int) -> str:
    return f"{FILES[cell % 3]}{3 - cell // 3}"


def write(state, action: int) -> str:
    return "@" + site_of(action)


def view(rw_game, rw_state, player: str) -> str:
    """What `player` knows of each cell, written as OpenSpiel's ViewToString."""
    known = {}
    for piece in rw_game.pieces(rw_state):
        if piece.owner == player or piece.attributes.get("seen"):
            known[piece.site] = piece.owner
    rows = ("".join(known.get(site_of(r * 3 + c), ".") for c in range(3)) for r in range(3))
    return "\n".join(rows)


def observation(rw_game, rw_state, player: str, record: list[tuple[str, int]], numturns: bool) -> str:
    """OpenSpiel's observation: the view, and with reveal-numturns the number of tries so far."""
    seen = view(rw_game, rw_state, player)
    return f"{seen}\nTotal turns: {len(record)}" if numturns else seen


def information_state(rw_game, rw_state, player: str, record: list[tuple[str, int]], numturns: bool) -> str:
    """OpenSpiel's information state: the view, then the player's own tries; with
    reveal-numturns the number of tries first and each of the opponent's as `?`."""
    def written(mover: str, cell: int) -> str:
        index = rw_game.players.index(mover)
        return f"{index},{cell} " if mover == player else f"{index},? " if numturns else ""
    count = f"{len(record)}\n" if numturns else ""
    return view(rw_game, rw_state, player) + "\n" + count + "".join(written(m, c) for m, c in record)


def compare_views(argv) -> int:
    parser = oracle.arguments("each player's view against OpenSpiel's observation and information state")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rw_game, os_game = oracle.games_from(HERE, "phantom_ttt", args, None, None)
    # The observation type changes what the players see, not the rules: an OpenSpiel
    # parameter only (`--openspiel obstype=reveal-numturns`).
    numturns = os_game.get_parameters().get("obstype") == "reveal-numturns"
    rng = random.Random(args.seed)
    problems = positions = 0
    for number in range(args.games):
        os_state, rw_state = os_game.new_initial_state(), rw_game.initial_state()
        record: list[tuple[str, int]] = []
        while True:
            for index, player in enumerate(rw_game.players):
                mine = observation(rw_game, rw_state, player, record, numturns)
                theirs = os_state.observation_string(index)
                mine_info = information_state(rw_game, rw_state, player, record, numturns)
                theirs_info = os_state.information_state_string(index)
                if mine != theirs or mine_info != theirs_info:
                    print(f"game {number}, ply {len(record)}, {player}: OpenSpiel {theirs_info!r}, "
                          f"regelwerk {mine_info!r}")
                    problems += 1
            positions += 1
            if os_state.is_terminal():
                break
            action = rng.choice(os_state.legal_actions())
            record.append((rw_game.players[os_state.current_player()], action))
            rw_state = rw_game.apply(rw_state, write(os_state, action))
            os_state.apply_action(action)
    print(f"{args.games} games, {positions} positions, seed {args.seed}: "
          f"{problems} views differing from OpenSpiel's")
    return 1 if problems else 0


def main() -> int:
    argv = sys.argv[1:]
    if argv and argv[0] in ("speed", "perft"):
        return oracle.main(HERE, "phantom_ttt", write, argv)
    if argv and argv[0] == "agree":
        argv = argv[1:]
    moves = oracle.main(HERE, "phantom_ttt", write, argv)
    return moves or compare_views(argv)


if __name__ == "__main__":
    sys.exit(main())
