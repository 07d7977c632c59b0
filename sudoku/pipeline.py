"""The ordered pipeline: work on consecutive chunks of a stream, on threads or a Dask cluster, the
results in input order, memory flat however long the stream.

Nothing here knows sudoku: [`sudoku.solver`][sudoku.solver], [`sudoku.rating`][sudoku.rating] and the command hand it
their work per chunk.
"""
from __future__ import annotations

import itertools
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from dlx import checks
from dlx.checks import whole

CHUNK = 512     # puzzles per kernel call: the call costs nothing per puzzle, and threads share the work
#: Puzzles per Dask task: a task costs milliseconds to schedule, so it carries a few thousand.
DASK_CHUNK = 4096
#: Puzzles read ahead of the answers at most, however many threads: lines, entries and results in
#: flight take about 650 bytes a puzzle, so this is about 20 MB, and its 64 chunks keep 32 threads
#: busy with one chunk each in the queue.
READ_AHEAD = 1 << 15


def map_chunks(work: Callable[[list, threading.Event], list], items: Iterable, *,
               jobs: int | None = 1, flatten: bool = False, chunk: int = CHUNK,
               client: Any = None, ready: Callable[[], bool] | None = None) -> Iterator:
    """``work(chunk, stop)`` on consecutive chunks of ``items``, in order, on ``jobs`` threads;
    results are yielded as each chunk is done (one by one when ``flatten``). At most ``2 * jobs``
    chunks and ``READ_AHEAD`` items are in flight, so memory grows neither with the input nor
    with the thread count.

    When the consumer stops early (Ctrl-C, an exception, the iterator dropped), ``stop`` is set and
    the chunks not started are cancelled, so the threads end within milliseconds.

    With a Dask ``client`` (a ``distributed.Client``, ``"local"`` or a scheduler's address; see
    `dlx.distributed`), ``work(chunk)`` runs as tasks of ``DASK_CHUNK`` items (``work`` must
    pickle: a module's function or a partial of one), two per worker thread in flight, and the
    results still come in input order with flat memory.

    ``ready()`` says whether another item can be read without waiting (input typed or piped in):
    when it cannot, the chunk so far is worked on and its results yielded first, so each line is
    answered as soon as no more input is waiting."""
    source = _Reader(items)
    if client is not None:
        done = _on_dask(work, source, client)
    else:
        chunks = _chunks(source, whole(chunk, "chunk", 1), ready)
        jobs = checks.jobs(jobs)
        in_flight = max(1, min(2 * jobs, READ_AHEAD // whole(chunk, "chunk", 1)))
        stop = threading.Event()
        if jobs == 1:
            done = (work(c, stop) for c in chunks)
        else:
            done = _threaded(work, chunks, min(jobs, in_flight), in_flight, stop, ready or _always)
    return _then_raise(itertools.chain.from_iterable(done) if flatten else done, source)


class _Reader(Iterator):
    """The caller's items, read one at a time. An exception the caller's iterable raises ends the
    items instead, and is kept (``error``) to be raised once every item read before it has been
    answered: nothing read is lost."""

    def __init__(self, items: Iterable) -> None:
        self._items = iter(items)
        self.error: Exception | None = None

    def __next__(self) -> Any:
        if self.error is not None:
            raise StopIteration
        try:
            return next(self._items)
        except StopIteration:
            raise
        except Exception as e:  # noqa: BLE001 - the caller's own exception, raised again in its turn
            self.error = e
            raise StopIteration from None


def _then_raise(results: Iterator, source: _Reader) -> Iterator:
    yield from results
    if source.error is not None:
        raise source.error


def _on_dask(work, source, client):
    from dlx import distributed
    with distributed.connect(client) as client:
        batches = iter(lambda: list(itertools.islice(source, DASK_CHUNK)), [])
        yield from distributed.map_ordered(client, work, batches, in_flight=2 * distributed.threads(client))


def _chunks(source: Iterator, size: int, ready: Callable[[], bool] | None) -> Iterator[list]:
    if ready is None:
        yield from iter(lambda: list(itertools.islice(source, size)), [])
        return
    chunk = []
    for item in source:
        chunk.append(item)
        if len(chunk) >= size or not ready():
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _always() -> bool:
    return True


def _threaded(work, chunks, jobs, in_flight, stop, ready):
    pool = ThreadPoolExecutor(jobs)
    try:
        pending: deque = deque()
        more = True
        while True:
            # read ahead while input is there; never wait for input while answers are due
            while more and len(pending) < in_flight and (not pending or ready()):
                nxt = next(chunks, None)
                if nxt is None:
                    more = False
                else:
                    pending.append(pool.submit(work, nxt, stop))
            if not pending:
                break
            yield pending.popleft().result()
    finally:
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
