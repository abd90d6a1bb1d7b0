"""Random games of Kalah on regelwerk and OpenSpiel's `mancala`, compared position by position.

    python benchmarks/outsiders/mancala/agree.py --games 200 --seed 1
    python benchmarks/outsiders/mancala/agree.py speed --seconds 3 --rounds 3
    python benchmarks/outsiders/mancala/agree.py perft --depth 8
"""
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from oracle import main  # noqa: E402


def to_notation(state: Any, action: int) -> str:
    """The sites are named as OpenSpiel numbers the pits: its action is the site."""
    return state.action_to_string(state.current_player(), action)


def same_scores(os_state: Any, rw_game: Any, rw_state: Any) -> "str | None":
    """Each player's seeds at the end (pits and store), read from OpenSpiel's board
    (its returns are ±1): the middle line is North's store, then South's."""
    lines = str(os_state).splitlines()
    north_pits = [int(x) for x in lines[0].strip("-").split("-")]
    south_pits = [int(x) for x in lines[2].strip("-").split("-")]
    north_store, south_store = (int(x) for x in lines[1].split("-") if x)
    theirs = [sum(south_pits) + south_store, sum(north_pits) + north_store]
    scores = rw_game.result(rw_state).scores
    mine = [scores[p] for p in rw_game.players]
    return None if theirs == mine else f"scores: OpenSpiel {theirs}, regelwerk {mine}"


if __name__ == "__main__":
    sys.exit(main(str(HERE), "mancala", to_notation, check_end=same_scores))
