"""Which rule costs the time: the same positions listed under variants, one rule made
trivial in each (wrong rules, for the measure only).

    python benchmarks/outsiders/hive/ablate.py [SEED] [GAMES]

Random games are recorded with the real rules, then replayed (`engine.apply_in_place`,
`engine.legal`) under each variant, the variants alternating, 3 rounds; medians of
processor time per ply. A variant keeps the actions in their order, so the recorded
codes stay meaningful.
"""
from __future__ import annotations

import os
import random
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..", "..")))

from interpreter import load_game  # noqa: E402

ANT = "go to connected(from, it == from or it is empty, each step a to b where slides(a, b)) - [from]"
FREE = ("define free(s) = s.level > 0 or count(connected(first(pieces where it in neighbours(s)), "
        "it is occupied and it != s)) == count(pieces) - 1")
VARIANTS = {
    "real": [],
    "no_one_hive": [(FREE, "define free(s) = true")],
    "ant_one_step": [(ANT, "go to neighbours(from)")],
    "spider_plain_walk": [("walk 3 steps, each step a to b where b is empty and slides(a, b)", "walk 3 steps")],
    "place_anywhere_empty": [("(exists(neighbours(s), it is own) and not exists(neighbours(s), it is enemy))",
                              "true")],
    "beetle_no_gate": [("where beetle_can(from, to)\n", "where true\n")],
    "ant_flood_site_condition": [(ANT, "go to connected(from, it == from or (it is empty and "
                                       "exists(neighbours(it), it is occupied and it != from))) - [from]")],
    "no_moves_at_all": [("        where queens[player] == 0\n        where free(from)",
                         "        where false\n        where free(from)"),
                        ("        where queens[player] == 0\n        where neighbour",
                         "        where false\n        where neighbour")],
    "no_queen_check": [("let white_lost = surrounded(queen_at[white])", "let white_lost = false"),
                       ("let black_lost = surrounded(queen_at[black])", "let black_lost = false")],
}


def variant(name, substitutions):
    text = open(os.path.join(HERE, "hive.rules")).read()
    for old, new in substitutions:
        assert old in text, (name, old)
        text = text.replace(old, new)
    folder = os.path.join(tempfile.gettempdir(), f"hive_ablate_{name}")
    os.makedirs(folder, exist_ok=True)
    shutil.copy(os.path.join(HERE, "hive.yaml"), folder)
    with open(os.path.join(folder, "hive.rules"), "w") as out:
        out.write(text)
    return load_game(folder)


def record(engine, rng):
    state, codes = engine.initial_state(), []
    while not engine.is_over(state) and len(codes) < 500:
        code = engine.pick_random(state, rng)
        codes.append(code)
        engine.apply_in_place(state, code)
    return codes


def replay(game, records):
    engine = game.engine
    began = time.process_time()
    for codes in records:
        state = engine.initial_state()
        for code in codes:
            if engine.is_over(state):
                break
            engine.apply_in_place(state, code)
            engine.legal(state)
    return time.process_time() - began


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 11
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 24
    games = {name: variant(name, subs) for name, subs in VARIANTS.items()}
    rng = random.Random(seed)
    records = [record(games["real"].engine, rng) for _ in range(count)]
    plies = sum(map(len, records))
    times = {name: [] for name in games}
    for _ in range(3):
        for name, game in games.items():
            times[name].append(replay(game, records))
    base = statistics.median(times["real"])
    print(f"{count} games, {plies} plies")
    for name in games:
        spent = statistics.median(times[name])
        saved = 100 * (base - spent) / base
        print(f"{name:26s} {spent:7.3f} s {1e6 * spent / plies:7.1f} us/ply  saves {saved:6.1f} %")


if __name__ == "__main__":
    main()
