"""Block dominoes against OpenSpiel's python_block_dominoes, move by move.

python benchmarks/outsiders/dominoes/agree.py --games 1000 --seed 1
python benchmarks/outsiders/dominoes/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/dominoes/agree.py perft --depth 14 --random-plies 14
python benchmarks/outsiders/dominoes/agree.py --games 1000 --seed 1 \
    --variant benchmarks/outsiders/dominoes/variants/team.yaml
(with --variant the OpenSpiel side is python_team_dominoes)
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from open_spiel.python import games  # noqa: E402,F401  (registers the python_ games)
from oracle import main, outcome_index, same_returns  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# "p0 tile:(3.0, 5.0) pip:3.0", "p1 tile:(0.0, 0.0) pip:None"
_ACTION = re.compile(r"p\d tile:\((\d)\.0, (\d)\.0\) pip:(None|\d\.0)")


def write(state, action: int) -> str:
    """A deal is `dealN:I`, the I-th (from 0) of the N tiles left in the deck's
    order; a tile is `LO-HI` when it starts the line, `LO-HI@E` on the end showing E."""
    if state.is_chance_node():
        left, index = outcome_index(state, action)
        return f"deal{left}:{index}"
    lo, hi, edge = _ACTION.fullmatch(state.action_to_string(state.current_player(), action)).groups()
    return f"{lo}-{hi}" if edge == "None" else f"{lo}-{hi}@{edge[0]}"


def same_end(os_state, rw_game, rw_state) -> str | None:
    """The tiles left in each hand (a wrong deal or a tile not taken shows here),
    then the returns."""
    for index, player in enumerate(rw_game.players):
        theirs = sorted(f"{int(lo)}-{int(hi)}" for lo, hi in os_state.hands[index])
        mine = sorted(p.site for p in rw_game.pieces(rw_state) if p.owner == player)
        if theirs != mine:
            return f"hand of {player}: OpenSpiel {theirs}, regelwerk {mine}"
    return same_returns(os_state, rw_game, rw_state)


if __name__ == "__main__":
    team = any(arg.startswith("--variant") for arg in sys.argv[1:])
    sys.exit(main(HERE, "python_team_dominoes" if team else "python_block_dominoes", write,
                  check_end=same_end))
