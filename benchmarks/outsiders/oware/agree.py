"""Random games of Oware on regelwerk and OpenSpiel, compared position by position.

    python benchmarks/outsiders/oware/agree.py --games 200 --seed 1
    python benchmarks/outsiders/oware/agree.py speed --seconds 3 --rounds 3
    python benchmarks/outsiders/oware/agree.py perft --depth 8
"""
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from oracle import main  # noqa: E402

# OpenSpiel's action k is the player's k-th house in sowing order: South's A..F are
# a1..f1, North's a..f are f2..a2.
HOUSES = ("abcdef", "fedcba")


def to_notation(state: Any, action: int) -> str:
    player = state.current_player()
    return f"{HOUSES[player][action]}{player + 1}"


def same_scores(os_state: Any, rw_game: Any, rw_state: Any) -> "str | None":
    """The seeds each player ends with: OpenSpiel keeps them in its board's score
    (not in the returns, which are ±1), read from its text."""
    lines = str(os_state).splitlines()
    theirs = [int(next(line for line in lines if line.startswith(f"Player {p} score"))
                  .split("=")[1].split()[0]) for p in (0, 1)]
    scores = rw_game.result(rw_state).scores
    mine = [scores[p] for p in rw_game.players]
    return None if theirs == mine else f"scores: OpenSpiel {theirs}, regelwerk {mine}"


if __name__ == "__main__":
    sys.exit(main(str(HERE), "oware", to_notation, check_end=same_scores))
