"""Running tasks here, on local processes or on a Dask cluster.

Every way yields the same results: each game depends only on its task, and the
caller puts the results back in (column, first game) order before adding
anything up. Ctrl-C (KeyboardInterrupt) stops the work: tasks not yet started
are cancelled, and what was finished is returned with `interrupted` set.
"""
from __future__ import annotations

import logging
import signal
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence

from ...assets import install_command
from .tasks import TaskResult, run_task


@dataclass
class RunOutcome:
    results: list[Any] = field(default_factory=list)  # TaskResult, in the order they finished
    interrupted: bool = False


def run_all(tasks: Sequence[Any], jobs: int = 1, scheduler: Optional[str] = None,
            progress: Optional[Callable[[TaskResult], None]] = None) -> RunOutcome:
    """Run `tasks` on this process (`jobs` 1), on `jobs` local processes, or on the
    Dask cluster at `scheduler` ("local": a LocalCluster of `jobs` workers)."""
    outcome = RunOutcome()
    if scheduler is not None:
        stream = _dask(tasks, scheduler, jobs)
    elif jobs > 1 and len(tasks) > 1:
        stream = _processes(tasks, jobs)
    else:
        stream = (run_task(task) for task in tasks)
    try:
        for result in stream:
            outcome.results.append(result)
            if progress is not None:
                progress(result)
    except KeyboardInterrupt:
        outcome.interrupted = True
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()  # a generator's `finally` shuts its pool or cluster down
    return outcome


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which cancels the work cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _processes(tasks: Sequence[Any], jobs: int) -> Iterator[TaskResult]:
    from concurrent.futures import ProcessPoolExecutor, as_completed

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupts)
    try:
        futures = [pool.submit(run_task, task) for task in tasks]
        for future in as_completed(futures):
            yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _dask(tasks: Sequence[Any], scheduler: str, jobs: int) -> Iterator[TaskResult]:
    client, cluster = connect(scheduler, jobs)
    futures: list[Any] = []
    try:
        from distributed import as_completed

        futures = [client.submit(run_task, task, pure=False) for task in tasks]
        for future in as_completed(futures):
            yield future.result()
    finally:
        if futures:
            client.cancel(futures)
        client.close()
        if cluster is not None:
            cluster.close()


def connect(scheduler: str, jobs: int) -> Any:
    """A Dask client of the scheduler at `scheduler`, or of a new LocalCluster of
    `jobs` single-threaded worker processes for "local"; (client, cluster)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ImportError(f"--scheduler needs Dask, which is not installed: {install_command('cluster')}") from None
    if scheduler == "local":
        # Worker processes started while Ctrl-C is ignored ignore it too (Python
        # keeps an ignored SIGINT ignored): the parent alone stops the work.
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.ERROR)
        finally:
            signal.signal(signal.SIGINT, previous)
        return Client(cluster), cluster
    try:
        return Client(scheduler), None
    except (OSError, ValueError, TypeError) as exc:
        # (a scheduler that does not answer: OSError after the connect timeout; an
        # address Dask cannot read: ValueError or TypeError)
        raise ConnectionError(f"cannot use the Dask scheduler at {scheduler!r}: {exc}") from None


def chunks(total: int, size: int) -> Iterable[tuple[int, int]]:
    """(start, stop) of consecutive runs of at most `size` of `total` games."""
    for start in range(0, total, size):
        yield start, min(total, start + size)
