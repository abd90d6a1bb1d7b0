"""Euchre against OpenSpiel's euchre, move by move.

python benchmarks/outsiders/euchre/agree.py --games 200 --seed 1
python benchmarks/outsiders/euchre/agree.py --games 200 --seed 2 --option stick_the_dealer=false
python benchmarks/outsiders/euchre/agree.py reluctant --games 200 --seed 3 \
    --option stick_the_dealer=false
python benchmarks/outsiders/euchre/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/euchre/agree.py perft --depth 4 --random-plies 22

The cards are the sites C9 D9 H9 S9 CT ... SA (OpenSpiel's order); the dealer is
`cut:north` ... `cut:west`; a card dealt is `deal:CARD` (`deal:HJ`), drawn among those
left, the upcard `upcard:CARD` among the last four. The players' actions are OpenSpiel's own strings
(`Pass`, `Clubs`, `Alone`, `Partner`, `CJ`).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SEATS = ["north", "east", "south", "west"]
# OpenSpiel's card numbers: rank * 4 + suit (the board's sites in that order)
DECK_ORDER = [suit + rank for rank in "9TJQKA" for suit in "CDHS"]


def write(state, action: int) -> str:
    if state.is_chance_node():
        if not state.history():
            return f"cut:{SEATS[action]}"
        return ("upcard:" if len(state.legal_actions()) == 4 else "deal:") + DECK_ORDER[action]
    return state.action_to_string(action)


def reluctant(argv) -> int:
    """Games whose bidders pass with probability --pass-odds whenever they may (else
    random choices): the second round, the dealer stuck and (stick_the_dealer=false)
    hands passed out, which random games seldom reach. Compares the player to move,
    the legal sets, the chance outcomes, the end and the returns."""
    import random
    parser = oracle.arguments("euchre against OpenSpiel's euchre, bidders reluctant")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pass-odds", type=float, default=0.85)
    args = parser.parse_args(argv)
    rw_game, os_game = oracle.games_from(HERE, "euchre", args, None, None)
    rng = random.Random(args.seed)
    problems = plies = passed_out = second_round = 0
    for number in range(args.games):
        os_state, rw_state = os_game.new_initial_state(), rw_game.initial_state()
        history: list[str] = []
        while not os_state.is_terminal():
            legal = os_state.legal_actions()
            if os_state.is_chance_node():
                outcomes = os_state.chance_outcomes()
                expected = {write(os_state, a): p for a, p in outcomes}
                mine = {a.notation: p for a, p in rw_game.chance_outcomes(rw_state)}
                if expected.keys() != mine.keys() or any(abs(expected[k] - mine[k]) > 1e-12 for k in mine):
                    print(f"game {number}: chance outcomes differ after {' '.join(history)}")
                    problems += 1
                    break
                action = rng.choice(legal)
            else:
                mover = rw_game.players[os_state.current_player()]
                theirs = sorted(write(os_state, a) for a in legal)
                mine_moves = sorted(rw_game.legal_notations(rw_state))
                if rw_game.to_move(rw_state) != mover or theirs != mine_moves:
                    print(f"game {number}: OpenSpiel {mover} {theirs}, regelwerk "
                          f"{rw_game.to_move(rw_state)} {mine_moves} after {' '.join(history)}")
                    problems += 1
                    break
                if "Pass" in theirs and rng.random() < args.pass_odds:
                    action = 24    # OpenSpiel's pass
                else:
                    action = rng.choice(legal)
                if 25 <= action <= 28 and history.count("Pass") >= 4:
                    second_round += 1
            notation = write(os_state, action)
            history.append(notation)
            rw_state = rw_game.apply(rw_state, notation)
            os_state.apply_action(action)
            plies += 1
        else:
            passed_out += history.count("Pass") == 8
            what = oracle.same_returns(os_state, rw_game, rw_state)
            if what or not rw_game.is_terminal(rw_state):
                print(f"game {number}: {what or 'regelwerk not over'}")
                problems += 1
    print(f"{args.games} games, {plies} plies, seed {args.seed}, bidders reluctant: "
          f"{second_round} named in the second round, {passed_out} passed out; "
          f"{problems} disagreements")
    return 1 if problems else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["reluctant"]:
        sys.exit(reluctant(sys.argv[2:]))
    sys.exit(oracle.main(HERE, "euchre", write, check_end=oracle.same_returns))
