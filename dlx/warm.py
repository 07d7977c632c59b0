"""``dlx warm``: compile every kernel ahead of time, on every core, so that no later command waits.

numba compiles a kernel the first time a process calls it with new argument types and keeps the
machine code in its cache; a command finds it there from then on. Each engine, word width (the
compact engine's 16, 32 and 64 bits) and way of calling (a search, a traced search, a batch, a
batch's reduction, the cheapest solutions, the memoised search) is a compile of its own, some
seconds of CPU each. `warm` makes them all: one task per engine and way, on small problems
of [`dlx.problems`][dlx.problems], in a pool of processes, one per core.

numba's cache is safe for one process at a time: two processes that save new versions of one
kernel at once may each number its file 1, and then one kernel's index would point at the
other's code. So every save in the pool takes one lock (a file lock, held for the few
milliseconds a save takes); the compiling itself runs in parallel.
"""
from __future__ import annotations

import contextlib
import fcntl
import multiprocessing
import os
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

#: A task: what it warms (its label), and how: ``(way, engine name, function of dlx.problems, args)``.
Task = tuple[str, tuple[str, str, str, tuple]]

#: Problems whose compact structure has words of 16, 32 and 64 bits: an item in ``k`` options.
WORD_SAMPLES = {16: 15, 32: 31, 64: 63}


def tasks() -> list[Task]:
    """Every compile a program of this project can ask for, as tasks for `run_task`."""
    from . import engines, problems

    found: list[Task] = []
    for machine in engines.machines():
        if machine.name == "compact":
            continue            # below, one task per word width
        for function, args in machine.samples:
            problem = getattr(problems, function)(*args)
            name = next(name for name in engines.names() if machine in engines.get(name).machines
                        and engines.get(name).for_problem(problem.engine_input) is machine)
            found.append((f"{machine.name}: search ({function})", ("search", name, function, args)))
            if machine.traces:
                found.append((f"{machine.name}: traced search ({function})", ("trace", name, function, args)))
            if machine.batches:
                found.append((f"{machine.name}: batch ({function})", ("batch", name, function, args)))
    for bits, k in WORD_SAMPLES.items():
        found.append((f"compact, {bits}-bit words: search, batch, reduce", ("words", "compact", "", (k,))))
    for name, machine in engines.OPTIMISERS.items():
        for function, args in machine.samples:
            found.append((f"{name}: cheapest ({function})", ("cheapest", name, function, args)))
    found.append(("memo: ZDD", ("memo", "dlx", "dominoes", (2, 2))))
    return found


def run_task(task: tuple[str, str, str, tuple]) -> None:
    """Call the kernels of one task on its small problem (compiling them when the cache has none)."""
    import numpy as np

    from . import Batch, ExactCover, problems

    way, name, function, args = task
    if way == "words":
        k = args[0]
        options = [["a", f"x{i}"] for i in range(k)] + [[f"x{i}"] for i in range(k)]
        problem = ExactCover(options, primary=["a"] + [f"x{i}" for i in range(k)])
        problem.count(engine=name)
        batch = Batch(problem, [k, k], engine=name)
        batch.solve(np.zeros((1, 2), np.uint8))
        batch.reduce(np.array([1, 0], np.uint8))
        return
    problem = getattr(problems, function)(*args)
    if way == "search":
        problem.count(engine=name)
    elif way == "trace":
        with problem.search(engine=name, trace=True, limit=1) as run:
            next(run, None)
    elif way == "batch":
        Batch(problem, [problem.n_options], engine=name).solve(np.zeros((1, 1), np.uint8))
    elif way == "cheapest":
        problem.cheapest()
    elif way == "memo":
        problem.count(memo=True)


def warm(jobs: int | None = None, progress: Callable[[str], None] | None = None) -> int:
    """Compile every kernel (`tasks`) on ``jobs`` processes (default: one per core);
    ``progress(label)`` is called as each task is done. Returns the number of tasks. Cost: about
    a minute of CPU on an empty cache, spread over the cores; a second of loading on a full one."""
    from numba.core import caching

    todo = tasks()
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(todo)))
    if not callable(getattr(getattr(caching, "IndexDataCacheFile", None), "save", None)):
        jobs = 1                # a numba whose cache this module cannot lock: one process at a time
    # fresh interpreters, not forks: a fork of a process whose other threads hold a lock (numba's
    # compiler lock, say) would wait for it forever
    spawn = multiprocessing.get_context("spawn")
    with tempfile.NamedTemporaryFile(prefix="dlx-warm-", suffix=".lock") as lock, \
            ProcessPoolExecutor(jobs, mp_context=spawn, initializer=_lock_saves, initargs=(lock.name,)) as pool:
        running = {pool.submit(run_task, spec): label for label, spec in todo}
        for future in as_completed(running):
            future.result()
            if progress is not None:
                progress(running[future])
    return len(todo)


def _lock_saves(path: str) -> None:
    """In a worker: every save into numba's cache holds the file lock at ``path`` (see above)."""
    from numba.core import caching

    save = getattr(getattr(caching, "IndexDataCacheFile", None), "save", None)
    if save is None:
        return

    def locked(self: Any, key: Any, data: Any) -> None:
        with _held(path):
            save(self, key, data)

    caching.IndexDataCacheFile.save = locked


@contextlib.contextmanager
def _held(path: str) -> Iterator[None]:
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)
