"""`analyze()`: play many games of a game and its variants, measure them, report.

    from interpreter.analysis.analyze import analyze
    report = analyze("GAME", ["variant.yaml"], compare=["OPTION=VALUE"], games=400, seed=1)
    report.to_json()

See docs/analysis.md for the metrics and the options.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional, Sequence

from .columns import build_columns, load_columns
from .playout import BLOCK, Tracing
from .replaced import probe_identities
from .report import ColumnData, Report, assemble
from .runner import chunks, run_all
from .tasks import DepthTask, GamesTask, remember
from .trace import has_fast_position_key

if TYPE_CHECKING:
    from ...api import Game

DEFAULT_MAX_PLIES = 5000
DEFAULT_TRACE_EVERY = 16
# Without the engine's position key, a repetition costs several plies' time: keys
# are then recorded in one traced game of this many.
SLOW_KEYS_FACTOR = 16
DEFAULT_DEPTH_GAMES = 20


def analyze(game: str, variants: Iterable[str] = (), *, options: Optional[Mapping[str, Any]] = None,
            compare: Iterable[str] = (), games: int = 1000, seed: int = 0, players: Optional[str] = None,
            agent_factory: Optional[Callable[..., Any]] = None, max_plies: int = DEFAULT_MAX_PLIES, jobs: int = 1,
            scheduler: Optional[str] = None, trace_every: Optional[int] = None,
            depth_test: Optional[int] = None, depth_games: int = DEFAULT_DEPTH_GAMES,
            progress: Optional[Callable[[int, int], None]] = None) -> Report:
    """Play `games` games of `game` (a bundled name or a path, with `options`), of
    each variant file and of each option set of `compare` ("NAME=VALUE[+...]"),
    and measure them (see docs/analysis.md). Column 0 is the base game.

    `players`: None or "random" (uniform random, fast) or agent specs by seat
    ("mcts:200", "mcts:500,random"), built by `agent_factory(spec, seed)` (e.g.
    `interpreter.frontends.agents.make_agent`), which `depth_test` (mcts:2N
    against mcts:N, seats alternating) needs too. `trace_every` K: one game in K
    is traced (board coverage, heat map, score course, repetition) and one in
    K/4 counted (turns, choices); default 16 for random play, 1 for agents; 0:
    none traced, every game counted. `jobs` local processes, or the
    Dask cluster at `scheduler` ("local" starts one). `progress(done, total)` is
    called as games finish. Results depend only on `seed` and `games`.

    Raises DefinitionError (a broken game, variant or option) or ValueError (a
    bad player spec or number). Ctrl-C returns what was measured so far, with
    `Report.interrupted` set.
    """
    _check_numbers(games, max_plies, jobs, trace_every or 0, depth_test, depth_games)
    columns = build_columns(game, options, variants, compare)
    compiled = load_columns(columns)
    specs = check_players(players, compiled[0], agent_factory)
    if trace_every is None:  # agents are slow anyway: then every game is traced
        trace_every = 1 if specs else DEFAULT_TRACE_EVERY
    for column, loaded in zip(columns, compiled):
        remember(column, loaded, max_plies)
    keys_every = trace_every * (1 if has_fast_position_key(compiled[0]) else SLOW_KEYS_FACTOR)
    tracing = Tracing(trace_every, keys_every, max(1, trace_every // 4))  # counted: 4 times as many
    depth = _depth_specs(depth_test, agent_factory)
    tasks = _games_tasks(columns, games, seed, max_plies, tracing, specs, agent_factory, jobs, scheduler)
    if depth is not None:
        tasks += [DepthTask(c, column, start, stop, seed, max_plies, depth[0], depth[1], agent_factory)
                  for c, column in enumerate(columns) for start, stop in chunks(depth_games, 1)]
    started = time.perf_counter()
    outcome = run_all(tasks, jobs, scheduler, _counter(tasks, progress))
    seconds = time.perf_counter() - started
    data = [ColumnData(column, loaded.players, loaded.board.sites, _probes(loaded),
                       loaded.engine.scores(loaded.initial_state()) is not None, identities=probe_identities(loaded))
            for column, loaded in zip(columns, compiled)]
    _collect(data, outcome.results)
    base = compiled[0]
    report = Report(base.name, base.title, seed, games, ",".join(specs) if specs else "random", max_plies,
                    trace_every, tracing.counts_every, data, depth=(*depth, depth_games) if depth else None,
                    interrupted=outcome.interrupted, play_seconds=seconds)
    return assemble(report)


def _check_numbers(games: Any, max_plies: int, jobs: Any, trace_every: Any, depth_test: Any, depth_games: Any) -> None:
    for name, value, least in (("games", games, 1), ("max_plies", max_plies, 1), ("jobs", jobs, 1),
                               ("trace_every", trace_every, 0), ("depth_games", depth_games, 1)):
        if not isinstance(value, int) or value < least:
            raise ValueError(f"{name} must be a whole number of at least {least}, got {value!r}")
    if depth_test is not None and (not isinstance(depth_test, int) or depth_test < 1):
        raise ValueError(f"depth_test must be a whole number of at least 1, got {depth_test!r}")


def check_players(players: Optional[str], game: Game,
                  agent_factory: Optional[Callable[..., Any]]) -> Optional[tuple[Any, ...]]:
    """The agent specs by seat, None for uniform random play; ValueError for a
    spec that names no agent, or too many of them."""
    if players is None or players.strip().lower() == "random":
        return None
    specs = tuple(part.strip() for part in players.split(","))
    if any(not spec for spec in specs):
        raise ValueError(f"--players: expected players separated by commas, got '{players}'")
    if len(specs) > len(game.players):
        raise ValueError(f"--players: {len(specs)} players given but {game.name} is played by "
                         f"{len(game.players)} ({', '.join(game.players)})")
    if agent_factory is None:
        raise ValueError("--players: playing agents needs an agent_factory "
                         "(e.g. interpreter.frontends.agents.make_agent)")
    for spec in specs:
        if spec.lower() == "human":
            raise ValueError("--players: an analysis is played by built-in players only (random, mcts, mcts:N, ...)")
        try:
            agent_factory(spec, 0)
        except ValueError as exc:
            raise ValueError(f"--players: {exc}") from None
    return specs


def _depth_specs(depth_test: Optional[int], agent_factory: Optional[Callable[..., Any]]) -> Optional[tuple[Any, ...]]:
    if depth_test is None:
        return None
    if agent_factory is None:
        raise ValueError("the depth test plays MCTS agents: it needs an agent_factory")
    return f"mcts:{2 * depth_test}", f"mcts:{depth_test}"


def _games_tasks(columns: Any, games: Any, seed: int, max_plies: int, tracing: Any, specs: Any, agent_factory: Any,
                 jobs: Any, scheduler: Any) -> list[Any]:
    workers = jobs if scheduler is None else max(jobs, 4)
    # Random games: small enough runs that Ctrl-C and the progress bar react within
    # a fraction of a second, large enough that shipping them costs little; whole
    # blocks of seeds (see playout.BLOCK).
    blocks = 2 if workers == 1 else max(1, min(4, games // (4 * workers * BLOCK)))
    size = 1 if specs else blocks * BLOCK
    return [GamesTask(c, column, start, stop, seed, max_plies, tracing, specs, agent_factory)
            for c, column in enumerate(columns) for start, stop in chunks(games, size)]


def _counter(tasks: Sequence[Any], progress: Optional[Callable[..., Any]]) -> Optional[Callable[..., Any]]:
    if progress is None:
        return None
    total = sum(task.size for task in tasks)
    done = [0]

    def advance(result: Any) -> None:
        done[0] += len(result.games)
        progress(done[0], total)

    return advance


def _probes(game: Game) -> tuple[Any, ...]:
    return tuple(game.coverage.probes) if game.coverage is not None else ()


def _collect(data: Sequence[ColumnData], results: Sequence[Any]) -> None:
    """Put the games of the finished tasks into their columns, in game order, and
    add up the landings per site."""
    for column in data:
        column.heat = [0] * len(column.sites)
    for result in sorted(results, key=lambda r: (r.kind, r.column, r.start)):
        column = data[result.column]
        if result.kind == "depth":
            column.depth.extend(result.games)
            continue
        column.games.extend(result.games)
        column.heat = [a + b for a, b in zip(column.heat, result.heat)]
