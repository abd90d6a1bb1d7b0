"""Go 9x9 against OpenSpiel's go (board_size=9), move by move.

python benchmarks/outsiders/go/agree.py --games 200 --seed 1
python benchmarks/outsiders/go/agree.py --games 200 --seed 2 --option board_size=5
python benchmarks/outsiders/go/agree.py stones --games 200 --seed 3 --option max_game_length=400
python benchmarks/outsiders/go/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/go/agree.py perft --depth 3

OpenSpiel writes an action "B d4" / "W PASS", its columns skipping the letter i
(a to h, then j); the definition's grid names its files a to i and writes a stone
as the point ("d4"), a pass as "pass".

`stones` plays games whose players pass only when they must: long games, full of
captures, ko and repeated boards (superko), which uniformly random games (one in
about 400 ends by superko) seldom reach.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# OpenSpiel's column letters (no i) -> the grid's file letters.
FILES = str.maketrans("jklmnopqrst", "ijklmnopqrs")


def write(state, action: int) -> str:
    point = state.action_to_string(action).split(" ", 1)[1]
    return "pass" if point == "PASS" else point.lower().translate(FILES)


def same_winner(os_state, rw_game, rw_state) -> str | None:
    """OpenSpiel's winner (none on a superko draw) against the definition's."""
    returns = list(os_state.returns())
    theirs = None if returns[0] == returns[1] else rw_game.players[returns.index(max(returns))]
    mine = rw_game.result(rw_state).winner
    return None if theirs == mine else f"winner: OpenSpiel {returns}, regelwerk {mine}"


def stones(argv) -> int:
    def prefer(legal):
        return legal[:-1]  # every action but the pass, which is OpenSpiel's last (always legal)
    # OpenSpiel's default board is 19x19: 9x9 unless the command line says otherwise.
    return oracle.preferring_main(HERE, "go", write, ["--option", "board_size=9", *argv], prefer,
                                  "passing only when forced",
                                  check_end=same_winner)


if __name__ == "__main__":
    argv = sys.argv[1:]
    if argv and argv[0] == "stones":
        sys.exit(stones(argv[1:]))
    sys.exit(oracle.main(HERE, "go", write, os_params={"board_size": 9}))
