"""Gin rummy against OpenSpiel's gin_rummy (default parameters), move by move.

python benchmarks/outsiders/gin_rummy/agree.py --games 300 --seed 1
python benchmarks/outsiders/gin_rummy/agree.py knocks --games 200 --seed 13
python benchmarks/outsiders/gin_rummy/agree.py knocks --games 100 --seed 14 --knock-odds 0.02
python benchmarks/outsiders/gin_rummy/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/gin_rummy/agree.py perft --depth 3 --random-plies 21

A card is a site: the file its rank (a ace ... m king), the grid's rank its suit
(1 spades, 2 clubs, 3 diamonds, 4 hearts), so OpenSpiel's card 13 * suit + rank is
the site of file rank + 1, rank suit + 1 (`a1` the ace of spades, `m4` the king of
hearts). A card dealt or drawn is `deal:` and the site, a discard or a layoff the
site, 52 `up`, 53 `stock`, 54 `pass`, 55 `knock`; a meld (56 + OpenSpiel's meld id)
is `s3-` and the card a set of three leaves out, `s4-` and the spade of a set of
four, `r3-`, `r4-`, `r5-` and the lowest card of a run. The returns are compared
with the scores.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = "abcdefghijklm"
WORDS = {52: "up", 53: "stock", 54: "pass", 55: "knock"}
FIRST_MELD = 56


def site(card: int) -> str:
    return f"{FILES[card % 13]}{card // 13 + 1}"


def meld(number: int) -> str:
    """OpenSpiel's meld id (MeldToInt in gin_rummy_utils.cc) as the definition's notation."""
    if number < 65:   # sets: rank * 5 + the suit left out, or + 4 for all four
        rank, kind = divmod(number, 5)
        return f"s4-{site(rank)}" if kind == 4 else f"s3-{site(13 * kind + rank)}"
    for length, base, starts in ((3, 65, 11), (4, 109, 10), (5, 149, 9)):
        if number < base + 4 * starts:
            suit, rank = divmod(number - base, starts)
            return f"r{length}-{site(13 * suit + rank)}"
    raise ValueError(number)


def write(state, action: int) -> str:
    if state.is_chance_node():
        return "deal:" + site(action)
    if action < 52:
        return site(action)
    if action in WORDS:
        return WORDS[action]
    return meld(action - FIRST_MELD)


def deadwood(state, player: int) -> int:
    text = str(state)
    return int(text.split(f"Player{player}: Deadwood=")[1].split()[0])


def greedy(state, legal: list[int], rng, knock_odds: float = 0.5) -> int:
    """Knock where legal (with deadwood left, half the time: gin comes of waiting);
    discard (most of the time) a card that leaves the least deadwood, and take the
    upcard where that lowers it, lay melds rather than pass: the knocks, gins, layoffs and undercuts that uniform
    random play (a knock in 2 games of 100) seldom reaches."""
    me = state.current_player()
    if 55 in legal and (deadwood(state, me) == 0 or rng.random() < knock_odds):
        return 55
    melds = [a for a in legal if a >= FIRST_MELD]
    if melds and rng.random() < 0.9:
        return rng.choice(melds)
    cards = [a for a in legal if a < 52]
    if len(cards) == len(legal) and len(cards) > 1 and rng.random() < 0.9 and "Phase: Discard" in str(state):
        return min(cards, key=lambda a: (deadwood(state.child(a), me), rng.random()))
    if legal == [52, 53] and rng.random() < 0.9:
        return 52 if deadwood(state.child(52), me) < deadwood(state, me) else 53
    return rng.choice(legal)


def knocks(argv) -> int:
    """Games played by `greedy` on both sides, chance uniformly: the legal sets compared
    at every player's position, the returns at the end."""
    import random
    parser = oracle.arguments("gin_rummy against OpenSpiel's, greedy play that knocks")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--knock-odds", type=float, default=0.5,
                        help="how often a player who may knock with deadwood left does (gin: 0.1)")
    args = parser.parse_args(argv)
    rw_game, os_game = oracle.games_from(HERE, "gin_rummy", args, None, None)
    rng = random.Random(args.seed)
    problems = plies = 0
    ends: dict[str, int] = {}
    for number in range(args.games):
        os_state, rw_state = os_game.new_initial_state(), rw_game.initial_state()
        history: list[str] = []
        while not os_state.is_terminal():
            legal = os_state.legal_actions()
            if os_state.is_chance_node():
                action = rng.choice(legal)
            else:
                theirs, mine = sorted(write(os_state, a) for a in legal), sorted(rw_game.legal_notations(rw_state))
                if theirs != mine or rw_game.to_move(rw_state) != f"p{os_state.current_player()}":
                    print(f"game {number}: OpenSpiel {theirs}, regelwerk {mine}\n  {' '.join(history)}")
                    problems += 1
                    break
                action = greedy(os_state, legal, rng, args.knock_odds)
            history.append(write(os_state, action))
            rw_state = rw_game.apply(rw_state, history[-1])
            os_state.apply_action(action)
            plies += 1
        else:
            ending = rw_game.variables(rw_state)
            knocker = ending["knocker"]
            kind = ("no knock" if knocker is None else "gin" if ending["gin"]
                    else "undercut" if ending["result"][knocker] < 0 else "knock")
            ends[kind] = ends.get(kind, 0) + 1
            found = oracle.same_returns(os_state, rw_game, rw_state)
            if found or not rw_game.is_terminal(rw_state):
                print(f"game {number}: {found or 'regelwerk not over'}\n  {' '.join(history)}")
                problems += 1
    print(f"{args.games} games, {plies} plies, seed {args.seed}, greedy ({ends}): {problems} disagreements")
    return 1 if problems else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["knocks"]:
        sys.exit(knocks(sys.argv[2:]))
    sys.exit(oracle.main(HERE, "gin_rummy", write, sys.argv[1:], check_end=oracle.same_returns))
