"""Cribbage against OpenSpiel's cribbage, move by move.

python benchmarks/outsiders/cribbage/agree.py --games 200 --seed 1
python benchmarks/outsiders/cribbage/agree.py --games 200 --seed 2 --option players=3
python benchmarks/outsiders/cribbage/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/cribbage/agree.py perft --depth 3 --random-plies 15

The cards are the sites CA C2 ... CK DA ... SK (OpenSpiel's order, suit * 13 + rank);
OpenSpiel's "Choose 5C 9C" (two cards to the crib) is `C5+C9`, "Choose 5C" `C5`,
"Pass" (go) `pass`. A card dealt is `deal:CARD` (drawn among the cards left, `deal:H7`),
the starter `cut:CARD`. Every player's score is compared after every
action by `agree.py scores`; the default comparison (the shared harness) checks the
legal sets, the chance outcomes, the end and the returns.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RANKS = "A23456789TJQK"
SUITS = "CDHS"
PASS = 2756


def card(card_id: int) -> str:
    return SUITS[card_id // 13] + RANKS[card_id % 13]


def write(state, action: int) -> str:
    if state.is_chance_node():
        cut = len(state.legal_actions()) == 48 - 4 * state.num_players()
        return ("cut:" if cut else "deal:") + card(action)
    if action == PASS:
        return "pass"
    if action < 52:
        return card(action)
    first, second = divmod(action - 52, 52)
    return f"{card(first)}+{card(second)}"


def compare_scores(argv) -> int:
    """The harness's comparison, and every player's points after every action."""
    import random
    parser = oracle.arguments("cribbage against OpenSpiel's cribbage, scores after each action")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rw_game, os_game = oracle.games_from(HERE, "cribbage", args, None, None)
    players = list(rw_game.players)
    rng = random.Random(args.seed)
    problems = plies = 0
    for number in range(args.games):
        os_state, rw_state = os_game.new_initial_state(), rw_game.initial_state()
        history = []
        while not os_state.is_terminal():
            if os_state.is_chance_node():
                outcomes = os_state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(os_state.legal_actions())
            notation = write(os_state, action)
            history.append(notation)
            rw_state = rw_game.apply(rw_state, notation)
            os_state.apply_action(action)
            plies += 1
            if os_state.is_terminal():
                break   # the returns (points and the bonus) are compared by the harness
            # Before the end OpenSpiel's returns are the points.
            theirs = [int(x) for x in os_state.returns()]
            mine = [rw_game.variables(rw_state)["points"][p] for p in players]
            if theirs != mine:
                print(f"game {number}, ply {len(history)}: points OpenSpiel {theirs}, regelwerk {mine}\n"
                      f"  record: {' '.join(history)}")
                problems += 1
                break
    print(f"{args.games} games, {plies} plies, seed {args.seed}, points after each action: "
          f"{problems} disagreements")
    return 1 if problems else 0


def split_bonus(argv: list[str]) -> tuple[list[str], dict, dict]:
    """`--option winner_bonus_reward=X` for both sides: a decimal option here, a double
    in OpenSpiel (which refuses the whole number the shared harness would give it)."""
    rest, options, os_params = [], {}, {}
    pairs = iter(argv)
    for word in pairs:
        if word == "--option":
            value = next(pairs)
            if value.startswith("winner_bonus_reward="):
                text = value.split("=", 1)[1]
                options["winner_bonus_reward"] = text
                os_params["winner_bonus_reward"] = float(text)
                continue
            rest += [word, value]
        else:
            rest.append(word)
    return rest, options, os_params


if __name__ == "__main__":
    argv, bonus, os_bonus = split_bonus(sys.argv[1:])
    if argv and argv[0] == "scores":
        sys.exit(compare_scores(argv[1:]))
    sys.exit(oracle.main(HERE, "cribbage", write, argv, options=bonus, os_params=os_bonus,
                         check_end=oracle.same_returns))
