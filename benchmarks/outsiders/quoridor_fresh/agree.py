"""Random games of Quoridor on regelwerk and OpenSpiel (quoridor), compared position by position.

    python benchmarks/outsiders/quoridor_fresh/agree.py --games 200 --seed 1            # 9x9, 2 players
    python benchmarks/outsiders/quoridor_fresh/agree.py --size 5 --players 4 --games 300 --seed 2
    python benchmarks/outsiders/quoridor_fresh/agree.py speed --size 7 --seconds 3 --rounds 3
    python benchmarks/outsiders/quoridor_fresh/agree.py perft --size 9 --depth 2
    ... --definition benchmarks/outsiders/quoridor_fresh/first_form                      # another form

`--size N` and `--players N` stand for the option and OpenSpiel's parameter alike.
OpenSpiel's quirks the comparison reads through (README.md):
- its returns are indexed by seat in turn order (p1, p3, p2, p4), not by player number;
- with four players a diagonal jump two pawns lead to is listed twice (compared as a set);
- a player with no legal move gets a "pass" action that OpenSpiel cannot apply (it
  fails a check, or moves the pawn elsewhere): the comparison stops there, where the
  definition's only action is `pass`, and counts the game as cut.
"""
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pyspiel

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from oracle import arguments, games_from, perft_main, regelwerk_playouts_per_second  # noqa: E402

DEFAULT_SIZE = 9


# The first form (first_form/) writes a pawn's move as its landing cell alone.
FROM_IN_PAWN_MOVES = True


def to_notation(state: Any, action: int) -> str:
    """OpenSpiel writes a pawn's target cell `e1` (column, row from the top) and a wall by
    the cell at its top-left end with `h` or `v`; the lattice's cell is file 2 column - 1,
    rank counted from the bottom; a pawn's step is written `{from}-{to}`, a jump straight
    `{from}^{to}`, a jump to the side `{from}/{to}`, and a wall at its middle node."""
    text = state.action_to_string(state.current_player(), action)
    diameter = 2 * int(state.get_game().get_parameters()["board_size"]) - 1
    column, kind = ord(text[0]) - ord("a"), text[-1]
    row = int(text[1:-1] if kind in "hv" else text[1:]) - 1
    x, y = 2 * column, 2 * row
    if kind in "hv":
        return f"{site(x + 1, y + 1, diameter)}{kind}"
    if not FROM_IN_PAWN_MOVES:
        return site(x, y, diameter)
    at = pawn_xy(state, state.current_player(), diameter)
    dx, dy = abs(x - at % diameter), abs(y - at // diameter)
    sign = "/" if dx and dy else "^" if max(dx, dy) == 4 else "-"
    return f"{site(at % diameter, at // diameter, diameter)}{sign}{site(x, y, diameter)}"


def site(x: int, y: int, diameter: int) -> str:
    """OpenSpiel's (x, y), y counted from the top, as the lattice's site."""
    return f"{chr(ord('a') + x)}{diameter - y}"


def seats(players: int) -> list[int]:
    """OpenSpiel's player numbers in turn order (its returns are indexed so)."""
    return {2: [0, 1], 3: [0, 2, 1], 4: [0, 2, 1, 3]}[players]


def expected_returns(rw_game, rw_state) -> list[float]:
    """The definition's result as OpenSpiel's returns: by seat, 1 to the winner and
    -1 / (n - 1) to the others, all 0 in a draw."""
    players = list(rw_game.players)
    winner = rw_game.result(rw_state).winner
    if winner is None:
        return [0.0] * len(players)
    return [1.0 if players[seat] == winner else -1.0 / (len(players) - 1) for seat in seats(len(players))]


def pawn_xy(os_state, player: int, diameter: int) -> int:
    """The cell of `player`'s pawn, as OpenSpiel numbers it (its observation's plane of that player)."""
    plane = os_state.observation_tensor(0)[player * diameter * diameter:(player + 1) * diameter * diameter]
    return plane.index(1.0)


def compare(rw_game, os_game, games: int, seed: int) -> int:
    rng = random.Random(seed)
    players = list(rw_game.players)
    diameter = 2 * int(os_game.get_parameters()["board_size"]) - 1
    problems = plies = cut = doubled = 0
    ends: dict[str, int] = {}
    for number in range(games):
        os_state, rw_state = os_game.new_initial_state(), rw_game.initial_state()
        history: list[str] = []

        def fail(what: str) -> None:
            nonlocal problems
            problems += 1
            if problems <= 10:
                print(f"game {number}, ply {len(history)}: {what}\n  record: {' '.join(history)}")
        while True:
            if os_state.is_terminal() or rw_game.is_terminal(rw_state):
                if os_state.is_terminal() != rw_game.is_terminal(rw_state):
                    fail(f"over: OpenSpiel {os_state.is_terminal()}, regelwerk {rw_game.is_terminal(rw_state)}")
                    break
                theirs, mine = list(os_state.returns()), expected_returns(rw_game, rw_state)
                if any(abs(a - b) > 1e-9 for a, b in zip(theirs, mine)):
                    fail(f"returns: OpenSpiel {theirs}, regelwerk {mine} ({rw_game.result(rw_state).winner})")
                key = "draw" if max(theirs) <= 0 else "won"
                ends[key] = ends.get(key, 0) + 1
                break
            mover = players[os_state.current_player()]
            if rw_game.to_move(rw_state) != mover:
                fail(f"to move: OpenSpiel {mover}, regelwerk {rw_game.to_move(rw_state)}")
                break
            legal = os_state.legal_actions()
            mine_moves = sorted(rw_game.legal_notations(rw_state))
            if mine_moves == ["pass"]:
                if legal != [pawn_xy(os_state, os_state.current_player(), diameter)]:
                    fail(f"legal moves: OpenSpiel {legal} (no pass), regelwerk pass")
                cut += 1
                break
            if len(set(legal)) != len(legal):
                doubled += 1
            expected = sorted({to_notation(os_state, a) for a in legal})
            if expected != mine_moves:
                fail(f"legal moves: only OpenSpiel {sorted(set(expected) - set(mine_moves))}, "
                     f"only regelwerk {sorted(set(mine_moves) - set(expected))}")
                break
            action = rng.choice(legal)
            notation = to_notation(os_state, action)
            history.append(notation)
            rw_state = rw_game.apply(rw_state, notation)
            os_state.apply_action(action)
            plies += 1
    print(f"{games} games, {plies} plies, seed {seed}: {problems} disagreements; ends {ends}; "
          f"{cut} cut at OpenSpiel's pass; {doubled} positions with an action listed twice by OpenSpiel")
    return 1 if problems else 0


def surely_pass(action: int, diameter: int) -> bool:
    """Whether OpenSpiel's only action is surely its pass, the pawn's own cell: a cell beyond
    the corner of the 3x3 cells that number the pawn's moves (within it, a pass cannot be
    told from a move without reading the pawn's cell, which costs more than the move)."""
    x, y = action % diameter, action // diameter
    return not (x % 2 or y % 2) and (x > 4 or y > 4)


def openspiel_playouts_per_second(os_game, seconds: float, seed: int) -> float:
    """As the oracle's, but a game that reaches OpenSpiel's broken pass ends there."""
    rng = random.Random(seed)
    diameter = 2 * int(os_game.get_parameters()["board_size"]) - 1
    done = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        for _ in range(20):
            state = os_game.new_initial_state()
            # A pass OpenSpiel cannot apply ends the game: pyspiel raises, or (seen with four
            # players on 7x7) never comes back from the next listing, where the pass is told
            # from a move by its number alone.
            try:
                while not state.is_terminal():
                    legal = state.legal_actions()
                    if len(legal) == 1 and surely_pass(legal[0], diameter):
                        break
                    state.apply_action(rng.choice(legal))
            except (pyspiel.SpielError, UnicodeDecodeError):  # (its message holds bytes read past the board)
                pass
        done += 20
    return done / (time.process_time() - began)


def speed(definition: str, argv: list[str]) -> None:
    parser = arguments(f"playouts: {definition} against OpenSpiel's quoridor")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rw_game, os_game = games_from(definition, "quoridor", args, None, None)
    regelwerk_playouts_per_second(rw_game, 0.3, args.seed)  # warm up
    ours, theirs = [], []
    for round_ in range(args.rounds):
        ours.append(regelwerk_playouts_per_second(rw_game, args.seconds, args.seed + round_))
        theirs.append(openspiel_playouts_per_second(os_game, args.seconds, args.seed + round_))
        print(f"round {round_ + 1}: regelwerk {ours[-1]:.1f}/s, OpenSpiel {theirs[-1]:.1f}/s")
    mine, other = statistics.median(ours), statistics.median(theirs)
    print(f"medians: regelwerk {mine:.1f}, OpenSpiel {other:.1f} playouts per processor second; "
          f"ratio {mine / other:.2f}")


def sized(argv: list[str]) -> list[str]:
    """`--size N`, `--players N` as the option and OpenSpiel's parameter they stand for."""
    for flag, name in (("--size", "board_size"), ("--players", "players")):
        if flag in argv:
            at = argv.index(flag)
            value = argv[at + 1]
            argv = argv[:at] + argv[at + 2:] + ["--option", f"{name}={value}"]
    return argv


def main(argv: list[str]) -> int:
    definition = str(HERE)
    if "--definition" in argv:
        at = argv.index("--definition")
        definition = argv[at + 1]
        argv = argv[:at] + argv[at + 2:]
        global FROM_IN_PAWN_MOVES
        FROM_IN_PAWN_MOVES = Path(definition).name != "first_form"
    argv = sized(argv)
    if argv and argv[0] == "speed":
        speed(definition, argv[1:])
        return 0
    if argv and argv[0] == "perft":
        perft_main(definition, "quoridor", to_notation, argv[1:])
        return 0
    parser = arguments(f"{definition} against OpenSpiel's quoridor, move by move")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rw_game, os_game = games_from(definition, "quoridor", args, None, None)
    return compare(rw_game, os_game, args.games, args.seed)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
