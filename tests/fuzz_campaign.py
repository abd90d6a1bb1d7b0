"""A long fuzz campaign over the definition checks (not part of the test suite).

    python -m tests.fuzz_campaign --cases 50000 [--seed 1] [--jobs 8] [--play 20] [--out /tmp/fuzz]

Each case mangles one file of a bundled game (or variant) with the mutations of
tests/test_fuzz_validate.py and loads it; a definition that loads is also played
for `--play` random plies. Anything but success or a `DefinitionError` with located
diagnostics (or a `RuleRuntimeError` while playing) is a finding: the mangled file
is written to `--out` with the traceback, and findings are summarised by the place
they were raised.
"""
from __future__ import annotations

import argparse
import collections
import multiprocessing
import random
import sys
import tempfile
import traceback
from pathlib import Path

from interpreter.api import load_game
from interpreter.runtime.errors import RuleRuntimeError
from tests.test_fuzz_validate import REPO, TARGETS, mutate, run_case


def _play(root: Path, load: str, plies: int, rng: random.Random) -> None:
    game = load_game(str(root / load))
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            return
        actions = game.legal_actions(state)
        if not actions:
            return
        state = game.apply(state, rng.choice(actions))


def one_case(args: tuple) -> tuple:
    seed, plies = args
    rng = random.Random(seed)
    game, file, load = TARGETS[rng.randrange(len(TARGETS))]
    text = (REPO / game / file).read_text(encoding="utf-8")
    mutated = mutate(text, lambda n: rng.randrange(max(1, n)), rng.randint(1, 3))
    with tempfile.TemporaryDirectory() as tmp:
        try:
            outcome = run_case(game, file, load, mutated, Path(tmp))
            if outcome == "ok" and plies:
                try:
                    _play(Path(tmp) / Path(game).name, load, plies, rng)
                except RuleRuntimeError:
                    outcome = "runtime error"
        except Exception as exc:  # noqa: BLE001 - that is what we are looking for
            tb = traceback.format_exc()
            frames = traceback.extract_tb(exc.__traceback__)
            where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
            first_line = str(exc).splitlines()[0] if str(exc) else ""
            finding = f"{type(exc).__name__} at {where}: {first_line}"[:300]
            return seed, "finding", finding, (game, file, load, mutated, tb)
    return seed, outcome, None, None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--play", type=int, default=0, help="random plies to play when a mangled game loads")
    parser.add_argument("--out", default="/tmp/regelwerk-fuzz")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    counts: collections.Counter = collections.Counter()
    findings: dict[str, list[int]] = collections.defaultdict(list)
    work = [(args.seed * 1_000_003 + i, args.play) for i in range(args.cases)]
    with multiprocessing.Pool(args.jobs) as pool:
        for n, (seed, outcome, summary, detail) in enumerate(pool.imap_unordered(one_case, work, chunksize=20), 1):
            counts[outcome] += 1
            if outcome == "finding":
                if not findings[summary]:
                    game, file, load, mutated, tb = detail
                    folder = out / f"seed-{seed}"
                    folder.mkdir(exist_ok=True)
                    (folder / Path(file).name).write_text(mutated, encoding="utf-8")
                    (folder / "finding.txt").write_text(f"{game} {file} load={load}\n{tb}", encoding="utf-8")
                findings[summary].append(seed)
            if n % 1000 == 0:
                print(f"{n} cases: {dict(counts)}", file=sys.stderr, flush=True)
    print_summary(f"{args.cases} cases: {dict(counts)}", findings, out)
    return 1 if findings else 0


def print_summary(head: str, seeds_by_summary: dict, out) -> None:
    """The outcome of a campaign: `head`, then each kind of finding, most frequent first."""
    print(head)
    for summary, seeds in sorted(seeds_by_summary.items(), key=lambda item: -len(item[1])):
        print(f"{len(seeds):6d}  {summary}  (e.g. seed {seeds[0]}, see {out}/seed-{seeds[0]})")


if __name__ == "__main__":
    sys.exit(main())
