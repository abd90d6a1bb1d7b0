"""Random games of Havannah on regelwerk and OpenSpiel, compared position by position.

    python benchmarks/outsiders/havannah/agree.py --games 200 --seed 1          # side 8
    python benchmarks/outsiders/havannah/agree.py --size 5 --games 300 --seed 2
    python benchmarks/outsiders/havannah/agree.py speed --size 5 --seconds 3 --rounds 3
    python benchmarks/outsiders/havannah/agree.py perft --size 5 --depth 3

`--size N` stands for `--option board_size=N --openspiel board_size=N`.
"""
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from oracle import main  # noqa: E402

DEFAULT_SIZE = 8


def to_notation(state: Any, action: int) -> str:
    """OpenSpiel writes cell (x, y) as file x + 1, rank y + 1 (`d4`), as the grid does."""
    return "@" + state.action_to_string(state.current_player(), action)


def sized(argv: list[str]) -> list[str]:
    """`--size N` as the option and OpenSpiel's parameter it stands for."""
    if "--size" not in argv:
        return argv
    at = argv.index("--size")
    size = int(argv[at + 1])
    rest = argv[:at] + argv[at + 2:]
    if size == DEFAULT_SIZE:
        return rest
    return rest + ["--option", f"board_size={size}", "--openspiel", f"board_size={size}"]


if __name__ == "__main__":
    sys.exit(main(str(HERE), "havannah", to_notation, argv=sized(sys.argv[1:])))
