"""Random games of Clobber on regelwerk and OpenSpiel, compared position by position.

    python benchmarks/outsiders/clobber/agree.py --games 300 --seed 1
    python benchmarks/outsiders/clobber/agree.py --games 200 --seed 2 --option rows=4 --option columns=4
    python benchmarks/outsiders/clobber/agree.py --games 200 --seed 3 --option rows=7 --option columns=8
    python benchmarks/outsiders/clobber/agree.py speed --seconds 3 --rounds 3
    python benchmarks/outsiders/clobber/agree.py perft --depth 4 [--random-plies 10]
"""
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from oracle import main  # noqa: E402


def to_notation(state: Any, action: int) -> str:
    """OpenSpiel writes a move as its two squares (`a5b5`), rank 1 at the bottom as
    here: the definition's notation `{from}{to}` is the same text."""
    return state.action_to_string(state.current_player(), action)


if __name__ == "__main__":
    sys.exit(main(str(HERE), "clobber", to_notation))
