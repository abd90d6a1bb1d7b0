"""A fuzz campaign on the `regelwerk` command: mangled definitions, records and options.

    python -m tests.fuzz_cli --cases 20000 [--seed 1] [--jobs 2] [--out /tmp/regelwerk-fuzz-cli]

Each case copies a bundled game or documented example (or one of their variants)
to a temporary folder, spoils one thing — a definition file (with the mutations of
tests/test_fuzz_validate.py), a record (a short game of the unspoilt definition,
mangled, with odd header lines), or the options — and runs one command in-process
(`interpreter.frontends.cli.main`) with small bounds: perft depth 2 at most, bench
and lint 2 playouts, a match of one game, play fed by the record. The command must
exit with 0, 1 or 2, say nothing of an internal error or a traceback, and finish
within `--timeout` seconds. Anything else is a finding: the case is written to
`--out` (its files, the command and what it printed), and findings are summed up
by their first line.

The slow test suite runs 20000 cases (tests/test_fuzz_cli.py); run it longer with
more `--cases` (and another `--seed` for new cases).
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import io
import multiprocessing
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

from tests.fuzz_campaign import print_summary
from tests.test_fuzz_validate import CHARACTERS, NUMBERS, REPO, TARGETS, mutate

ALLOWED_STATUSES = (0, 1, 2)
DEFAULT_TIMEOUT = 60

# Lines a record's header may hold, well-meant or not.
HEADER_LINES = [
    "# game: {game}", "# game: lielow", "# game: nope", "# game: ../../../etc/passwd", "# game: /dev/zero",
    "# game-path: {yaml}", "# game-path: /etc/passwd", "# game-path: ../x.yaml", "# game-path: .",
    "# variant: /etc/passwd", "# variant: nope.yaml", "# variant: {yaml}",
    "# option: {option}={value}", "# option: {option}", "# option: =1", "# seed: 12", "# seed: x",
    "# seed: 99999999999999999999999999", "# players: random", "# date: 1", "# chance: ask", "#", "# :",
]
ODD_VALUES = [
    "", "0", "-1", "1", "2", "3", "999999999999", "1e9", "x", "true", "none", "9" * 5000, "\u00e9", " 2 ", "0x10",
]


def _commands(record: str, options: list[str]) -> list[list[str]]:
    """The commands a case may run, each bounded; "{game}" stands for what to load
    (the copied folder, '.', or a variant file in it)."""
    return [
        ["validate", "{game}", *options],
        ["show", "{game}"],
        ["moves", "{game}", *options],
        ["moves", "{game}", record, "--json", *options],
        ["replay", "{game}", record, *options],
        ["replay", "{game}", record, "--json", *options],
        ["render", "{game}", record, "--text", *options],
        ["render", "{game}", record, "--svg", "-", *options],
        ["perft", "{game}", "--depth", "2", *options],
        ["perft", "{game}", "--depth", "1", record, *options],
        ["bench", "{game}", "--playouts", "2", "--max-plies", "60", "--json", *options],
        ["lint", "{game}", "--playouts", "2", "--max-plies", "60", *options],
        ["match", "{game}", "--players", "random", "--games", "1", "--max-plies", "40", *options],
        ["match", "{game}", "--players", "mcts:3,random", "--games", "1", "--max-plies", "20", *options],
        ["play", "{game}", "--players", "human", "--record", "out.txt", "--seed", "1", *options],
        ["play", "--resume", record, "--players", "human", *options],
    ]


# -- what is spoilt ----------------------------------------------------------------------------------

_RECORDS: dict = {}  # (game folder, load) -> notations of a short game of the unspoilt definition


def _short_game(game: str, load: str, rng: random.Random) -> list[str]:
    key = (game, load)
    if key not in _RECORDS:
        from interpreter import load_game

        notations: list[str] = []
        try:
            played = load_game(str(REPO / game / load) if load != "." else str(REPO / game))
            state = played.initial_state()
            for _ in range(12):
                if played.is_terminal(state):
                    break
                action = rng.choice(played.legal_actions(state))
                notations.append(action.notation)
                state = played.apply(state, action)
        except Exception:  # noqa: BLE001 - a game that cannot be played gives an empty record
            pass
        _RECORDS[key] = notations
    return _RECORDS[key]


def _record_text(game: str, load: str, rng: random.Random) -> str:
    notations = list(_short_game(game, load, rng))
    header = []
    for _ in range(rng.randrange(4)):
        line = rng.choice(HEADER_LINES).format(
            game=Path(game).name, yaml=rng.choice(["game.yaml", f"{Path(game).name}.yaml", "variants/x.yaml"]),
            option=rng.choice(["capture", "players", "max_turns", "x", "limit"]), value=rng.choice(ODD_VALUES))
        header.append(line)
    text = "\n".join(header + [" ".join(notations[i:i + 2]) for i in range(0, len(notations), 2)]) + "\n"
    if rng.random() < 0.6:
        text = mutate(text, lambda n: rng.randrange(max(1, n)), rng.randint(1, 3))
    if rng.random() < 0.05:
        text += "x" * rng.choice([300, 5000]) + "\n"
    return text


def _options(rng: random.Random) -> list[str]:
    options: list[str] = []
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        name = rng.choice(["capture", "players", "max_turns", "quiet_limit", "x", "", "limit", "size"])
        value = rng.choice(ODD_VALUES + NUMBERS + ["whole", "top", "jump", rng.choice(CHARACTERS)])
        options += ["--option", f"{name}={value}"]
    if rng.random() < 0.05:
        options += ["--variant", rng.choice(["nope.yaml", "/dev/null", ".", "/etc/passwd"])]
    return options


def _spoil(rng: random.Random, folder: Path, game: str, file: str) -> None:
    """Change one file of the copied game, or nothing (then a record or an option is spoilt)."""
    if rng.random() < 0.55:
        path = folder / file
        text = path.read_text(encoding="utf-8")
        path.write_text(mutate(text, lambda n: rng.randrange(max(1, n)), rng.randint(1, 3)), encoding="utf-8")


# -- one case ------------------------------------------------------------------------------------------


class _Timeout(BaseException):
    """Raised by the alarm in a case that runs too long (not an Exception: the CLI must not catch it)."""


def _alarm(signum, frame):  # noqa: ARG001 - a signal handler's signature
    raise _Timeout()


def run_cli(argv: list[str], stdin: str, timeout: int) -> tuple[int, str, str, float]:
    """`regelwerk ARGV` in this process: (status, stdout, stderr, seconds); _Timeout after `timeout`."""
    from interpreter.frontends import cli

    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    started = time.perf_counter()
    use_alarm = hasattr(signal, "SIGALRM")
    if use_alarm:
        signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(timeout)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(argv)
    finally:
        if use_alarm:
            signal.alarm(0)
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue(), time.perf_counter() - started


def one_case(args: tuple) -> tuple:
    """(seed, outcome, summary or None, details or None) of case `seed`."""
    seed, timeout = args
    rng = random.Random(seed)
    game, file, load = TARGETS[rng.randrange(len(TARGETS))]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / Path(game).name
        shutil.copytree(REPO / game, folder)
        _spoil(rng, folder, game, file)
        (folder / "r.txt").write_text(_record_text(game, load, rng), encoding="utf-8")
        command = rng.choice(_commands("r.txt", _options(rng)))
        argv = [load if part == "{game}" else part for part in command]
        stdin = (folder / "r.txt").read_text(encoding="utf-8").replace(" ", "\n") + "\nquit\n"
        previous = os.getcwd()
        os.chdir(folder)
        try:
            status, out, err, seconds = run_cli(argv, stdin, timeout)
            problem = _problem(status, out, err)
        except _Timeout:
            status, out, err, problem = None, "", "", f"no answer within {timeout} s"
        except BaseException as exc:  # noqa: BLE001 - SystemExit or worse escaping main is a finding
            status, out, err, problem = None, "", "", f"{type(exc).__name__} escaped main: {exc}"[:300]
        finally:
            os.chdir(previous)
        if problem is None:
            return seed, {0: "ok", 1: "refused", 2: "illegal action"}[status], None, None
        files = {str(p.relative_to(folder)): p.read_text(encoding="utf-8", errors="replace")
                 for p in folder.rglob("*") if p.is_file() and p.stat().st_size < 2_000_000}
        summary = f"{argv[0]}: {problem}"
        return seed, "finding", summary, {"argv": argv, "status": status, "stdout": out[-5000:], "stderr": err[-5000:],
                                          "files": files, "game": game, "file": file}


def _problem(status, out: str, err: str):
    if status not in ALLOWED_STATUSES:
        return f"exit status {status}: {_first_line(err)}"
    for text in (out, err):
        if "internal error" in text or "Traceback (most recent call last)" in text:
            at = text.find("internal error") if "internal error" in text else text.find("Traceback")
            return _first_line(text[at:])
    return None


def _first_line(text: str) -> str:
    return (text.strip().splitlines() or [""])[0][:200]


# -- the campaign ------------------------------------------------------------------------------------


def campaign(cases: int, seed: int = 1, jobs: int = 1, timeout: int = DEFAULT_TIMEOUT, progress=None):
    """Run `cases` cases; (counts by outcome, {summary: [(seed, details), ...]})."""
    counts: collections.Counter = collections.Counter()
    findings: dict = collections.defaultdict(list)
    work = [(seed * 1_000_003 + i, timeout) for i in range(cases)]
    results = _results(work, jobs)
    for n, (case_seed, outcome, summary, details) in enumerate(results, 1):
        counts[outcome] += 1
        if outcome == "finding":
            findings[summary].append((case_seed, details))
        if progress is not None and n % 1000 == 0:
            progress(n, counts)
    return counts, findings


def _results(work: list, jobs: int):
    if jobs <= 1:
        yield from map(one_case, work)
        return
    # Fresh workers now and then: a case must not depend on what earlier ones left behind.
    with multiprocessing.Pool(jobs, maxtasksperchild=500) as pool:
        yield from pool.imap_unordered(one_case, work, chunksize=10)


def write_findings(findings: dict, out: Path) -> None:
    for summary, examples in findings.items():
        case_seed, details = examples[0]
        folder = out / f"seed-{case_seed}"
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in details["files"].items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
        report = (f"{summary}\ngame {details['game']}, spoilt file {details['file']}\n"
                  f"cd {folder} && regelwerk {' '.join(details['argv'])}\nstatus {details['status']}\n"
                  f"--- stdout\n{details['stdout']}\n--- stderr\n{details['stderr']}\n")
        (folder / "finding.txt").write_text(report, encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=int, default=DEFAULT_TIMEOUT, help="seconds a case may take")
    parser.add_argument("--out", default="/tmp/regelwerk-fuzz-cli")
    args = parser.parse_args(argv)
    os.environ.pop("REGELWERK_DEBUG", None)
    started = time.perf_counter()
    counts, findings = campaign(args.cases, args.seed, args.jobs, args.timeout,
                                progress=lambda n, c: print(f"{n} cases: {dict(c)}", file=sys.stderr, flush=True))
    write_findings(findings, Path(args.out))
    seeds = {summary: [seed for seed, _ in examples] for summary, examples in findings.items()}
    print_summary(f"{args.cases} cases in {time.perf_counter() - started:.0f} s: {dict(counts)}", seeds, args.out)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
