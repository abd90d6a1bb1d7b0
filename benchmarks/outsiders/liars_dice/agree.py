"""Liar's dice against OpenSpiel's liars_dice, move by move.

python benchmarks/outsiders/liars_dice/agree.py --games 1000 --seed 1
python benchmarks/outsiders/liars_dice/agree.py --games 500 --seed 2 --option numdice=3 --option dice_sides=4
python benchmarks/outsiders/liars_dice/agree.py --games 500 --seed 3 --option numdice=2 --bidding-rule reset-quantity
python benchmarks/outsiders/liars_dice/agree.py --games 500 --seed 4 --option players=3 --option numdice=2
python benchmarks/outsiders/liars_dice/agree.py speed --seconds 3 --rounds 3 [--option ...]
python benchmarks/outsiders/liars_dice/agree.py perft --depth 4 [--option ...]

OpenSpiel's liars_dice takes exactly two players (`players=3` is refused: "num_players_
<= kGameType.max_num_players"). For more players the other side is `Transcription`,
OpenSpiel's liars_dice.cc written out in Python for any number of players (its code
already loops over the players: NextPlayerRoundRobin, ResolveWinner's count, the
returns); with two players `--check-transcription` plays it against OpenSpiel itself.
"""

from __future__ import annotations

import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import pyspiel  # noqa: E402
from oracle import (  # noqa: E402
    openspiel_perft,
    openspiel_playouts_per_second,
    parse_values,
    play_and_compare,
    regelwerk_playouts_per_second,
    same_returns,
)

from interpreter import load_game  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CHANCE = pyspiel.PlayerId.CHANCE


def write(state, action: int) -> str:
    """OpenSpiel's `Roll 3` is `roll:3`; its bids (`2-5`) and `Liar` are written alike."""
    if state.is_chance_node():
        return f"roll:{action + 1}"
    return state.action_to_string(state.current_player(), action)


class Transcription:
    """OpenSpiel's LiarsDiceState (liars_dice.cc) for any number of players, with the
    members of a pyspiel state that oracle.play_and_compare reads."""

    def __init__(self, players: int, numdice: int, dice_sides: int, bidding_rule: str):
        self.players, self.numdice, self.sides = players, numdice, dice_sides
        self.reset_face = bidding_rule == "reset-face"
        self.total = players * numdice
        self.liar = self.total * dice_sides
        self.dice: list[list[int]] = [[] for _ in range(players)]
        self.roller = 0
        self.player = CHANCE
        self.bid = -1
        self.bidder = 0
        self.moves = 0
        self.winner = self.loser = None
        self.chance: list[int] = []

    def new_initial_state(self) -> "Transcription":   # the game is its own factory
        return Transcription(self.players, self.numdice, self.sides,
                             "reset-face" if self.reset_face else "reset-quantity")

    def is_terminal(self) -> bool:
        return self.winner is not None

    def is_chance_node(self) -> bool:
        return not self.is_terminal() and self.player == CHANCE

    def current_player(self) -> int:
        return self.player

    def chance_outcomes(self):
        return [(i, 1.0 / self.sides) for i in range(self.sides)]

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.is_chance_node():
            return list(range(self.sides))
        return list(range(self.bid + 1, self.liar)) + ([self.liar] if self.moves > 0 else [])

    def unrank(self, b: int) -> tuple[int, int]:
        if self.reset_face:
            return b // self.sides + 1, b % self.sides + 1
        return b % self.total + 1, b // self.total + 1

    def action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"Roll {action + 1}"
        if action == self.liar:
            return "Liar"
        quantity, face = self.unrank(action)
        return f"{quantity}-{face}"

    def apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self.chance.append(action)
            self.dice[self.roller].append(action + 1)
            if len(self.dice[self.roller]) == self.numdice:
                self.roller += 1
                if self.roller == self.players:
                    self.player = 0
            return
        if action == self.liar:
            quantity, face = self.unrank(self.bid)
            matches = sum(d == face or d == self.sides for hand in self.dice for d in hand)
            if matches >= quantity:
                self.winner, self.loser = self.bidder, self.player
            else:
                self.winner, self.loser = self.player, self.bidder
        else:
            self.bid, self.bidder = action, self.player
            self.player = (self.player + 1) % self.players
        self.moves += 1

    def returns(self) -> list[float]:
        values = [0.0] * self.players
        if self.winner is not None:
            values[self.winner], values[self.loser] = 1.0, -1.0
        return values


def rolls_of(os_state) -> list[int]:
    if isinstance(os_state, Transcription):
        return [action + 1 for action in os_state.chance]
    return [x.action + 1 for x in os_state.full_history() if x.player == CHANCE]


def same_end(os_state, rw_game, rw_state) -> str | None:
    """The dice rolled, seat by seat in the order rolled (the board's ranks, files), and
    every player's return against the scores."""
    dice = sorted(rw_game.pieces(rw_state), key=lambda p: (int(p.site[1:]), p.site[0]))
    mine = [p.attributes["face"] for p in dice]
    if rolls_of(os_state) != mine:
        return f"dice: OpenSpiel {rolls_of(os_state)}, regelwerk {mine}"
    return same_returns(os_state, rw_game, rw_state)


def games(args):
    options = parse_values(args.option)
    settings = {"players": 2, "numdice": 1, "dice_sides": 6, **options}
    rw_game = load_game(HERE, options={**options, "bidding_rule": args.bidding_rule})
    if settings["players"] == 2 and not args.transcription:
        os_game = pyspiel.load_game("liars_dice", {**options, "bidding_rule": args.bidding_rule})
    else:
        os_game = Transcription(settings["players"], settings["numdice"], settings["dice_sides"],
                                args.bidding_rule)
    return rw_game, os_game


def main(argv: list[str]) -> int:
    import argparse
    command = argv[0] if argv and argv[0] in ("speed", "perft", "agree") else "agree"
    if argv and argv[0] == command:
        argv = argv[1:]
    parser = argparse.ArgumentParser(description=f"liars_dice against OpenSpiel: {command}")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="players, numdice, dice_sides (whole numbers), both sides")
    parser.add_argument("--bidding-rule", default="reset-face", choices=["reset-face", "reset-quantity"])
    parser.add_argument("--transcription", action="store_true",
                        help="the Python transcription of liars_dice.cc as the other side (any players)")
    parser.add_argument("--check-transcription", action="store_true",
                        help="the transcription against OpenSpiel (two players), not regelwerk")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--depth", type=int, default=4)
    args = parser.parse_args(argv)
    rw_game, os_game = games(args)
    if command == "speed":
        regelwerk_playouts_per_second(rw_game, 0.3, args.seed)   # warm up
        ours, theirs = [], []
        for round_ in range(args.rounds):
            ours.append(regelwerk_playouts_per_second(rw_game, args.seconds, args.seed + round_))
            theirs.append(openspiel_playouts_per_second(os_game, args.seconds, args.seed + round_))
            print(f"round {round_ + 1}: regelwerk {ours[-1]:.1f}/s, OpenSpiel {theirs[-1]:.1f}/s")
        mine, other = statistics.median(ours), statistics.median(theirs)
        print(f"medians: regelwerk {mine:.1f}, OpenSpiel {other:.1f} playouts per processor "
              f"second; ratio {mine / other:.2f}")
        return 0
    if command == "perft":
        import time
        ours, theirs = [], []
        for _ in range(args.rounds):
            began = time.process_time()
            rw_counts = rw_game.engine.perft(rw_game.initial_state(), args.depth)
            ours.append(time.process_time() - began)
            began = time.process_time()
            os_counts = openspiel_perft(os_game.new_initial_state(), args.depth)
            theirs.append(time.process_time() - began)
        print(f"counts: regelwerk {list(rw_counts)}, OpenSpiel {os_counts}"
              f"{'' if list(rw_counts) == os_counts else '  DIFFERENT'}")
        mine, other = statistics.median(ours), statistics.median(theirs)
        print(f"medians: regelwerk {mine:.3f} s, OpenSpiel {other:.3f} s of processor time; "
              f"OpenSpiel / regelwerk {other / mine:.2f}")
        return 0
    if args.check_transcription:
        return check_transcription(args)
    plies, problems = play_and_compare(rw_game, os_game, write, args.games, args.seed,
                                       check_end=same_end)
    for problem in problems[:10]:
        print(problem)
    side = "the transcription" if isinstance(os_game, Transcription) else "OpenSpiel"
    print(f"{args.games} games against {side}, {plies} plies, seed {args.seed}: "
          f"{len(problems)} disagreements")
    return 1 if problems else 0


def check_transcription(args) -> int:
    """The transcription against OpenSpiel itself, random games at two players: the
    legal actions, their strings, the chance outcomes, the end and the returns."""
    import random
    options = parse_values(args.option)
    os_game = pyspiel.load_game("liars_dice", {**options, "bidding_rule": args.bidding_rule})
    rng = random.Random(args.seed)
    for number in range(args.games):
        theirs = os_game.new_initial_state()
        mine = Transcription(2, options.get("numdice", 1), options.get("dice_sides", 6),
                             args.bidding_rule)
        while not theirs.is_terminal():
            player = theirs.current_player()
            legal = theirs.legal_actions()
            strings = [theirs.action_to_string(player, a) for a in legal]
            if (legal != mine.legal_actions() or player != mine.current_player()
                    or strings != [mine.action_to_string(player, a) for a in legal]):
                print(f"game {number}: differ at {theirs.history()}")
                return 1
            action = rng.choice(legal)
            theirs.apply_action(action)
            mine.apply_action(action)
        if not mine.is_terminal() or list(theirs.returns()) != mine.returns():
            print(f"game {number}: end differs at {theirs.history()}")
            return 1
    print(f"{args.games} games, seed {args.seed}: the transcription agrees with OpenSpiel")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
