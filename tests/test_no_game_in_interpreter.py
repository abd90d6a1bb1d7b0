"""The interpreter names no game and no game-specific concept (DEVELOPERS.md, "No
game in the interpreter"): what a game means is written in its definition, and the
interpreter's code, comments and messages speak of the language's constructs only."""
from __future__ import annotations

import re

from tests.helpers import REPO

# (words that are also plain English or Python are left out: "go", "hex" as in colours)
COMMON_WORDS = {"go", "hex"}
# games the repository has no folder of, whose definitions outsiders wrote from the docs
OTHER_GAMES = ["havannah", "oware", "twixt", "hive", "gomoku", "mancala", "einstein", "shogi", "janggi",
               "draughts", "ludo", "nine men's morris", "chess960", "gin rummy", "battleship",
               "bridge", "quoridor", "dou dizhu", "solitaire", "klondike",
               "phantom"]
CONCEPTS = ["barricade", "emperor", "kaiser", "fuerst", "fürst", "moat", "graben", "rome", "coronation", "ransom",
            "castling", "en passant", "komi"]


def _game_names() -> list[str]:
    names = set()
    for folder in ("games", "benchmarks/games", "docs/examples", "benchmarks/older"):
        for game in (REPO / folder).iterdir():
            if game.is_dir() and not game.name.startswith(("_", ".")):
                names.add(game.name.replace("_", " "))
    return sorted(names - COMMON_WORDS)


def test_the_interpreter_names_no_game_and_no_game_concept():
    words = _game_names() + OTHER_GAMES + CONCEPTS
    assert {"lielow", "regibus", "royalfiz", "xiangqi", "connect four"} <= set(words)
    pattern = re.compile(r"\b(" + "|".join(re.escape(w).replace(r"\ ", r"[ _]") for w in words) + r")\b",
                         re.IGNORECASE)
    found = [f"{path.relative_to(REPO)}:{n}: {match.group(0)}"
             for path in sorted((REPO / "interpreter").rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for match in pattern.finditer(line)]
    assert not found, "game names or concepts in the interpreter:\n" + "\n".join(found)
