"""Shogi against OpenSpiel's shogi, move by move.

python benchmarks/outsiders/shogi/agree.py --games 200 --seed 1
python benchmarks/outsiders/shogi/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/shogi/agree.py perft --depth 3 --random-plies 60 --seed 4
python benchmarks/outsiders/shogi/agree.py positions --games 20 --seed 1

OpenSpiel writes USI (`7g7f`, `8h2b+`, `P*5e`): files 9..1 from the left, ranks a..i
from the top, sente (black) moving up. The definition's grid names the same square
by file a..i from the left and rank 1..9 from the bottom: 7g is c3, 1a is i9.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def square(usi: str) -> str:
    return "abcdefghi"[ord("9") - ord(usi[0])] + str(ord("i") - ord(usi[1]) + 1)


def write(state, action: int) -> str:
    text = state.action_to_string(state.current_player(), action)
    if text[1] == "*":
        return text[:2] + square(text[2:4])
    return square(text[0:2]) + square(text[2:4]) + text[4:]


# Positions the random games from the start seldom or never reach (SFEN, as OpenSpiel
# reads them), each followed by the moves of a line played on both sides before the
# random games from the position start: a pawn drop that would mate (uchifuzume) with
# the king hemmed in by its own pieces, by a rook's line, and with the piece that could
# take the pawn pinned; the same with the pin gone; the entering king with enough
# points and without; both kings in the enemy camps; a perpetual check (the checking
# side loses at the fourth repetition) and a plain fourfold repetition; two pawn drops
# that do not mate because the pawn blocks a line: the king's escape seen through it,
# a rook behind it that the capture no longer pins.
POSITIONS = [
    ("7nk/7s1/8G/9/9/9/9/9/K8 b P 1", ""),
    ("7lk/R8/9/9/9/9/9/9/K8 b P 1", ""),
    ("7lk/7g1/8G/9/4B4/9/9/9/K8 b P 1", ""),
    ("7lk/7g1/8G/9/9/9/9/9/K8 b P 1", ""),
    ("4k4/9/4K4/9/9/9/9/9/9 b 2R2B4G4S4N4L 1", ""),
    ("4k4/9/4K4/9/9/9/9/9/9 b 2R2B4G4S 1", ""),
    ("9/9/9/4K4/9/9/4k4/9/9 b - 1", ""),
    ("8k/R8/9/9/9/9/9/9/K8 b - 1", "9b9a 1a1b 9a9b 1b1a " * 3),
    ("8k/R8/9/9/9/9/9/9/K8 b - 1", "9i8i 1a2a 8i9i 2a1a " * 3),
    ("9/9/9/3ppp3/4kp3/3s1s3/4G4/6B2/K8 b P 1", ""),
    ("9/9/9/3ppp3/3pkp3/3s1s3/9/4rN3/K3R4 b P 1", ""),
]
KINDS = {"k": "king", "r": "rook", "b": "bishop", "g": "gold", "s": "silver", "n": "knight",
         "l": "lance", "p": "pawn", "+r": "dragon", "+b": "horse", "+s": "narigin",
         "+n": "narikei", "+l": "narikyo", "+p": "tokin"}
POOLS = {"p": "pawns", "l": "lances", "n": "knights", "s": "silvers", "g": "golds",
         "b": "bishops", "r": "rooks"}


def position_text(rw_game, sfen: str) -> str:
    """The definition's position for an SFEN (black to move or white), the position
    itself counted once among those seen, as OpenSpiel counts a start position."""
    rows, side, hand, _ = sfen.split()
    board = []
    for row, text in enumerate(rows.split("/")):
        column = 0
        for token in re.findall(r"\+?[a-zA-Z]|\d", text):
            if token.isdigit():
                column += int(token)
                continue
            owner = "white" if token[-1].islower() else "black"
            board.append(f"{'abcdefghi'[column]}{9 - row}={owner}.{KINDS[token.lower()]}")
            column += 1
    counts = {(pool, player): 0 for pool in POOLS.values() for player in ("black", "white")}
    for number, letter in re.findall(r"(\d*)([a-zA-Z])", "" if hand == "-" else hand):
        counts[POOLS[letter.lower()], "white" if letter.islower() else "black"] += int(number or 1)
    pools = " ".join(f"{pool}=black:{counts[pool, 'black']},white:{counts[pool, 'white']}"
                     for pool in POOLS.values())
    mover = "black" if side == "b" else "white"
    text = (f"rw2; game shogi; ply 0; phase play; turn {mover} move 0; board {' '.join(board)}; "
            f"variables checks=black:0,white:0; pools {pools}")
    made = rw_game.position_text(rw_game.initial_state()).split("seen keys=")[1].split()[0]
    key = rw_game.engine.history_key(rw_game.parse_position(text))
    return f"{text}; seen keys={made} {key}:1"


class FromPosition:
    """A game whose start is another position: OpenSpiel's from an SFEN, the
    definition's from the same position as text, after the moves of a line."""

    def __init__(self, game, start):
        self.game, self.start = game, start

    def __getattr__(self, name):
        return getattr(self.game, name)

    def new_initial_state(self):
        return self.start()

    def initial_state(self):
        return self.start()


def positions(argv) -> int:
    parser = oracle.arguments("shogi from chosen positions against OpenSpiel")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rw_game, os_game = oracle.games_from(HERE, "shogi", args, None, None)
    failures = 0
    for number, (sfen, line) in enumerate(POSITIONS):
        def os_start(sfen=sfen, line=line):
            state = os_game.new_initial_state(sfen)
            for move in line.split():
                state.apply_action(state.string_to_action(move))
            return state

        def rw_start(sfen=sfen, line=line):
            state = rw_game.parse_position(position_text(rw_game, sfen))
            probe = os_game.new_initial_state(sfen)
            for move in line.split():
                action = probe.string_to_action(move)
                state = rw_game.apply(state, write(probe, action))
                probe.apply_action(action)
            return state
        # The line itself, move by move: the legal sets along it and its end.
        probe, mine = os_game.new_initial_state(sfen), rw_start(line="")
        for move in line.split():
            expected = sorted(write(probe, a) for a in probe.legal_actions())
            if expected != sorted(rw_game.legal_notations(mine)):
                print(f"position {number}: legal moves differ before {move}")
                failures += 1
                break
            action = probe.string_to_action(move)
            mine = rw_game.apply(mine, write(probe, action))
            probe.apply_action(action)
        plies, problems = oracle.play_and_compare(FromPosition(rw_game, rw_start),
                                                  FromPosition(os_game, os_start), write,
                                                  args.games, args.seed + number)
        end = os_start()
        there = f"over {end.returns()}" if end.is_terminal() else f"{len(end.legal_actions())} moves"
        print(f"position {number} ({sfen}{', then ' + line.strip() if line else ''}): "
              f"{args.games} games, {plies} plies, {len(problems)} disagreements; OpenSpiel {there}")
        for problem in problems[:3]:
            print(problem)
        failures += len(problems)
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["positions"]:
        sys.exit(positions(sys.argv[2:]))
    sys.exit(oracle.main(HERE, "shogi", write))
