"""Contract bridge against OpenSpiel's bridge (use_double_dummy_result=false), move by move.

python benchmarks/outsiders/bridge/agree.py --games 300 --seed 1
python benchmarks/outsiders/bridge/agree.py --games 100 --seed 2 --option dealer_vul=true
python benchmarks/outsiders/bridge/agree.py short --games 300 --seed 1 --pass-odds 0.8
python benchmarks/outsiders/bridge/agree.py scores
python benchmarks/outsiders/bridge/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/bridge/agree.py perft --depth 4 --random-plies 52
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import main, same_returns  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# OpenSpiel's card c is rank c // 4 (0 the two) of suit c % 4 (clubs, diamonds, hearts,
# spades); the definition's site of it is file "abcd"[suit], rank c // 4 + 1.
FILES = "abcd"
STRAINS = "CDHSN"
BIDDING_BASE = 52   # OpenSpiel's calls: 52 pass, 53 double, 54 redouble, 55 + 5 * (level - 1) + strain


def site(card: int) -> str:
    return f"{FILES[card % 4]}{card // 4 + 1}"


def write(state, action: int) -> str:
    if state.is_chance_node():
        return f"deal:{site(action)}"
    if action < BIDDING_BASE:
        return site(action)
    call = action - BIDDING_BASE
    if call < 3:
        return ("pass", "X", "XX")[call]
    bid = call - 3
    return f"{bid // 5 + 1}{STRAINS[bid % 5]}"


OS_PARAMS = {"use_double_dummy_result": False}


def short_auctions(argv) -> int:
    """Random games whose calls are a pass with probability --pass-odds (else any legal
    call): low contracts, made and overtricks, part scores and passed-out deals, which
    uniform calls seldom reach (they climb to doubled slams). Every position's legal
    set and the player to move compared, every return at the end."""
    import random

    import pyspiel
    from oracle import arguments, parse_values

    from interpreter import load_game
    parser = arguments("bridge with short auctions against OpenSpiel's")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pass-odds", type=float, default=0.8)
    args = parser.parse_args(argv)
    both = parse_values(args.option)
    rw_game = load_game(HERE, options=both)
    os_game = pyspiel.load_game("bridge", {**OS_PARAMS, **both})
    rng = random.Random(args.seed)
    problems, returns = 0, set()
    for number in range(args.games):
        os_state, rw_state = os_game.new_initial_state(), rw_game.initial_state()
        while not os_state.is_terminal():
            legal = os_state.legal_actions()
            if not os_state.is_chance_node():
                mover = rw_game.players[os_state.current_player()]
                theirs, mine = sorted(write(os_state, a) for a in legal), sorted(rw_game.legal_notations(rw_state))
                if theirs != mine or rw_game.to_move(rw_state) != mover:
                    print(f"game {number}: OpenSpiel {mover} {theirs}, regelwerk {rw_game.to_move(rw_state)} {mine}")
                    problems += 1
                    break
            action = rng.choice(legal)
            if legal[0] == BIDDING_BASE and rng.random() < args.pass_odds:
                action = BIDDING_BASE
            rw_state = rw_game.apply(rw_state, write(os_state, action))
            os_state.apply_action(action)
        else:
            returns.add(tuple(os_state.returns()))
            found = same_returns(os_state, rw_game, rw_state)
            if found or not rw_game.is_terminal(rw_state):
                print(f"game {number}: {found or 'regelwerk not over'}")
                problems += 1
    print(f"{args.games} games, seed {args.seed}, pass odds {args.pass_odds} "
          f"({len(returns)} different returns): {problems} disagreements")
    return 1 if problems else 0


def reference_score(level: int, strain: int, dbl: int, tricks: int, vulnerable: bool) -> int:
    """bridge_scoring.cc's Score, transcribed: the declarer's side's points."""
    base = 20 if strain < 2 else 30
    result = tricks - 6 - level
    if result < 0:
        down = -result
        if dbl == 1:
            return (-100 if vulnerable else -50) * down
        if vulnerable:
            points = -200 - 300 * (down - 1)
        else:
            points = -100 if down == 1 else -300 if down == 2 else -500 - 300 * (down - 3)
        return points * (dbl // 2)
    contract_points = (level * base + (10 if strain == 4 else 0)) * dbl
    if level == 7:
        bonus = 2000 if vulnerable else 1300
    elif level == 6:
        bonus = 1250 if vulnerable else 800
    else:
        bonus = (500 if vulnerable else 300) if contract_points >= 100 else 50
    over = result * base if dbl == 1 else (100 if vulnerable else 50) * result * dbl
    return contract_points + bonus + 50 * (dbl // 2) + over


def every_score() -> int:
    """The score rule at every contract, doubling, declarer, vulnerability and number of
    tricks (21,840 endings): the last trick played from a position written as text (four
    clubs, West's the highest), the scores against reference_score."""
    from interpreter import load_game
    problems = checked = 0
    for dealer_vul in (False, True):
        for non_dealer_vul in (False, True):
            game = load_game(HERE, options={"dealer_vul": dealer_vul, "non_dealer_vul": non_dealer_vul})
            for declarer in game.players:
                ns = declarer in ("north", "south")
                to_move = declarer if ns else "north"   # the declarer plays North's card when North is dummy
                for level in range(1, 8):
                    for strain in range(5):
                        for dbl in (1, 2, 4):
                            for tricks in range(14):
                                won_before = tricks if ns else tricks - 1   # West takes the last trick
                                if not 0 <= won_before <= 12:
                                    continue
                                text = (f"rw2; game bridge; ply 100; phase playing; turn {to_move} play 0; "
                                        "board a1=north.card a2=east.card a3=south.card a4=west.card; "
                                        f"variables dealt=52 contract={5 * level + strain - 4} level={level} "
                                        f"strain={strain} dbl={dbl} declarer={declarer} "
                                        "named=north:0,east:0,south:0,west:0 passes=3 seat=north led_suit=0 "
                                        f"best_suit=0 best_rank=0 winner=- in_trick=0 tricks=12 won={won_before}")
                                state = game.parse_position(text)
                                while not game.is_terminal(state):
                                    state = game.apply(state, game.legal_notations(state)[0])
                                vulnerable = dealer_vul if ns else non_dealer_vul
                                expected = reference_score(level, strain, dbl, tricks, vulnerable)
                                scores = game.result(state).scores
                                side = {p: expected if (p in ("north", "south")) == ns else -expected
                                        for p in game.players}
                                checked += 1
                                if scores != side:
                                    problems += 1
                                    if problems <= 10:
                                        print(f"{level}{'CDHSN'[strain]} x{dbl} by {declarer}, {tricks} tricks, "
                                              f"vulnerable {vulnerable}: {scores}, expected {side}")
    print(f"{checked} endings scored: {problems} disagreements")
    return 1 if problems else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["scores"]:
        sys.exit(every_score())
    if sys.argv[1:2] == ["short"]:
        sys.exit(short_auctions(sys.argv[2:]))
    sys.exit(main(HERE, "bridge", write, os_params=OS_PARAMS, check_end=same_returns))
