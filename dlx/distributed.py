"""Dask: a split search (or a long list of rows) as tasks on a cluster, for ``client=...``.

``client`` is a ``distributed.Client`` the caller made (stumpy's pattern), ``"local"`` for a
``LocalCluster`` of one worker process per core made here for the call, or a scheduler's address
(``"tcp://host:8786"``). Tasks are plain functions of this module, so a worker imports dlx and
loads the kernels from numba's cache; the problem is scattered to every worker once. A task lost
with its worker is run again (``RETRIES``). Needs the ``dist`` extra (``dask[distributed]``).
"""
from __future__ import annotations

import logging
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from typing import Any

import numpy as np

from . import pieces
from .checks import UNLIMITED
from .commands import progress_bar
from .pieces import Outcome, Piece, Result, search_piece

#: Times the scheduler runs a task again when its worker dies.
RETRIES = 3
#: Seconds to wait for a scheduler's address to answer as a Dask scheduler.
CONNECT_TIMEOUT = 10.0


class Unreachable(ConnectionError):
    """No Dask scheduler answered at the address given, within ``CONNECT_TIMEOUT`` seconds."""


def _dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise ImportError("client= needs Dask's distributed scheduler: pip install 'numba-dlx[dist]'") from None
    return distributed


@contextmanager
def connect(client: Any) -> Iterator[Any]:
    """The ``distributed.Client`` that ``client`` names, closed afterwards if made here."""
    distributed = _dask()
    if isinstance(client, distributed.Client):
        yield client
        return
    if client == "local":
        quiet = ExitStack()
        with quiet, _local_cluster(distributed) as cluster, distributed.Client(cluster) as made:
            try:
                yield made
            except BaseException:
                # closed under a run cut short (Ctrl-C, an error), the cluster logs tracebacks about
                # its own comms closing (through distributed's loggers, and asyncio's for tasks whose
                # exception nobody retrieved): noise beside what the caller reports
                quiet.enter_context(distributed.utils.silence_logging_cmgr(logging.CRITICAL + 1))
                quiet.enter_context(_silenced(logging.getLogger("asyncio")))
                raise
        return
    if isinstance(client, str):
        _probe(client, CONNECT_TIMEOUT)
        with distributed.Client(client, timeout=CONNECT_TIMEOUT) as made:
            yield made
        return
    raise ValueError(f"client must be a distributed.Client, 'local' or a scheduler's address, not {client!r}")


@contextmanager
def _silenced(logger: logging.Logger) -> Iterator[None]:
    """``logger`` says nothing inside the block."""
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)


def _local_cluster(distributed: Any) -> Any:
    """A ``LocalCluster`` of one worker process per core, serving nothing over HTTP (no dashboard,
    no port 8787: its HTTP servers listen on a free loopback port and answer no route) and deaf to
    Ctrl-C in its workers: a terminal sends SIGINT to the whole foreground process group, and a
    worker that took it would print a traceback beside the command's one-line summary. The
    workers start with SIGINT ignored (the disposition outlives the exec of a spawned process,
    and asyncio then leaves it alone); the command itself ends the cluster when it is
    interrupted. Ctrl-C during the second or two that the workers take to start is ignored."""
    import signal
    import threading

    import dask

    http: dict[str, list[str]] = {"distributed.scheduler.http.routes": [], "distributed.worker.http.routes": []}
    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        with dask.config.set(http):
            return distributed.LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True,
                                            dashboard_address="127.0.0.1:0", scheduler_kwargs={"dashboard": False},
                                            worker_dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL)
    finally:
        if main:
            signal.signal(signal.SIGINT, signal.default_int_handler if before is None else before)


def _probe(address: str, timeout: float) -> None:
    """Raise `Unreachable` unless a Dask scheduler answers at ``address`` within
    ``timeout`` seconds. The client's own connect waits for ever on a server that accepts the
    connection and never answers (an HTTP server: the dashboard's port, given by mistake), so
    the handshake is bounded here, in an event loop of its own."""
    import asyncio
    import socket

    from distributed.comm import connect as open_comm
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, where = parse_address(address)
        host, port = parse_host_port(where) if scheme == "tcp" else (None, None)
    except (ValueError, TypeError) as e:
        raise Unreachable(f"no Dask scheduler at {address}: {e}") from None
    if host is not None and port is not None:
        # a refused port at once (Dask's connect tries again until its timeout: a scheduler may be
        # starting), and the same message however busy the machine
        try:
            socket.create_connection((host, int(port)), timeout=timeout).close()
        except ConnectionRefusedError:
            raise Unreachable(f"no Dask scheduler at {address}: the connection was refused") from None
        except OSError:
            pass                                # unreachable hosts and the like: Dask's connect says

    async def identity() -> str:
        comm = await open_comm(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            answer = await comm.read()
        finally:
            await comm.close()
        return answer.get("type", "?") if isinstance(answer, dict) else "?"

    async def bounded() -> str:
        return await asyncio.wait_for(identity(), timeout)

    with ThreadPoolExecutor(1, thread_name_prefix="dlx-dask-probe") as pool:
        try:
            kind = pool.submit(asyncio.run, bounded()).result()
        except (asyncio.TimeoutError, TimeoutError):
            raise Unreachable(f"no Dask scheduler answered at {address} within {timeout:g} s") from None
        except (OSError, ValueError) as e:                # a bad address, a host out of reach
            reason = str(e).splitlines()[0] if str(e) else type(e).__name__
            if reason.startswith("Timed out"):
                raise Unreachable(f"no Dask scheduler answered at {address} within {timeout:g} s") from None
            raise Unreachable(f"no Dask scheduler at {address}: {reason}") from None
        except Exception:           # noqa: BLE001 - bytes that are no Dask message (a frame of 3 EiB...)
            raise Unreachable(f"no Dask scheduler at {address}: it answers, but not in Dask's protocol") from None
    if kind != "Scheduler":
        raise Unreachable(f"{address} is a Dask {kind.lower()}, not a scheduler")


def threads(client: Any) -> int:
    """The worker threads of a cluster (at least 1)."""
    return max(1, sum(client.nthreads().values()))


def search_task(problem: Any, engine: str, piece: Piece, collect: bool, max_nodes: int) -> Outcome:
    """One piece, searched in a worker on the structure of its copy of the problem."""
    prepared = problem.structures.prepared(engine)
    prepared.warm()
    structure = prepared.acquire()
    try:
        return search_piece(prepared.engine, structure, piece, collect=collect, max_nodes=max_nodes)
    finally:
        prepared.release(structure)


def run(problem: Any, engine: str, client: Any, *, collect: bool, limit: int, max_nodes: int,
        order: np.ndarray | None = None,
        progress: bool = False) -> Result:
    """The search of ``problem`` as Dask tasks: [`dlx.pieces.split_for`][dlx.pieces.split_for] cuts it into
    ``TASKS_PER_THREAD`` pieces per worker thread; each piece is a task with the budget that is
    left, and the search ends (the rest cancelled) once ``limit`` solutions or ``max_nodes`` nodes
    are reached; the nodes of the tasks done then are counted, so they may pass the budget by
    what the last tasks spent. Stats add up as in a threaded run; ``seconds`` is the wall time."""
    started = time.perf_counter()
    with connect(client) as client:
        depth, cut, above, split_stats = pieces.split_for(
            problem, pieces.TASKS_PER_THREAD * threads(client), engine=engine, collect=collect)
        outcomes = list(above)
        found = sum(o.count for o in above)
        nodes = split_stats.nodes
        cut_short = False
        if cut and found < limit and nodes < max_nodes:
            shared = client.scatter(problem, broadcast=True, hash=False)
            budget = max_nodes if max_nodes >= UNLIMITED else max_nodes - nodes
            tasks = [client.submit(search_task, shared, engine, p, collect, budget, pure=False,
                                   retries=RETRIES) for p in cut]
            for outcome in gather(client, tasks, progress=progress):
                outcomes.append(outcome)
                found += outcome.count
                nodes += outcome.stats.nodes
                if found >= limit or nodes >= max_nodes:
                    cut_short = len(outcomes) < len(above) + len(cut)
                    break
    return pieces.merge(outcomes, engine, before=split_stats, limit=limit, out_of_nodes=cut_short,
                        seconds=time.perf_counter() - started, order=order, collect=collect)


def gather(client: Any, futures: list, *, progress: bool = False, desc: str = "tasks") -> Iterator:
    """The results of ``futures`` as they finish, with a progress bar on stderr; whatever is not
    done is cancelled when the caller stops early (a limit, Ctrl-C, an error)."""
    distributed = _dask()
    bar = progress_bar(total=len(futures), desc=desc, unit="task", disable=not progress)
    try:
        for future in distributed.as_completed(futures):
            result = future.result()
            future.release()
            bar.update(1)
            yield result
    finally:
        bar.close()
        client.cancel(futures)


class _Sealed:
    """A batch (or its results) as one object: Dask looks into lists and tuples for futures and
    serializes their items one by one, which costs up to 100 microseconds per item; it pickles
    this whole."""

    __slots__ = ("items",)

    def __init__(self, items: list) -> None:
        self.items = items

    def __getstate__(self) -> list:
        return self.items

    def __setstate__(self, items: Any) -> None:
        self.items = items


def _unseal(work: Callable[[list], list], batch: _Sealed) -> _Sealed:
    return _Sealed(work(batch.items))


def map_ordered(client: Any, work: Callable[[list], list], batches: Iterable[list], *, in_flight: int,
                progress: bool = False, total: int | None = None) -> Iterator[list]:
    """``work(batch)`` for every batch as Dask tasks, at most ``in_flight`` at a time, the results
    yielded in input order as soon as each is next: memory stays flat however many batches there
    are. ``total``: the number of items, for the progress bar."""
    lost = _lost()
    bar = progress_bar(total=total, unit="puzzle", disable=not progress)
    pending: deque = deque()       # [batch, its data on the cluster, its future], in input order
    source = iter(batches)

    def send(batch: list) -> list:
        # scattered, not embedded in the task: the scheduler keeps what a task embeds for a while,
        # which grows by the size of every batch sent. The data lives on one worker, so a worker
        # that dies takes it along, and the scheduler cannot run the task again: the batch, kept
        # here until its results come, is sent again instead.
        for attempt in range(RETRIES + 1):
            try:
                data = client.scatter(_Sealed(batch), hash=False)
                break
            except lost:
                if attempt == RETRIES:
                    raise
        return [batch, data, client.submit(_unseal, work, data, pure=False, retries=RETRIES)]

    def done() -> list:
        entry = pending[0]
        for attempt in range(RETRIES + 1):
            try:
                result = entry[2].result().items
                break
            except lost:
                if attempt == RETRIES:
                    raise
                client.cancel([entry[2], entry[1]])
                entry[:] = send(entry[0])
        pending.popleft()
        entry[2].release()
        entry[1].release()
        bar.update(len(entry[0]))
        return result

    try:
        for batch in source:
            pending.append(send(batch))
            if len(pending) >= in_flight:
                yield done()
        while pending:
            yield done()
    finally:
        bar.close()
        client.cancel([f for _, _, f in pending] + [d for _, d, _ in pending])


def _lost() -> tuple[type[BaseException], ...]:
    """What a future or a scatter raises when the worker that held its data died: the task was
    cancelled for want of its input, or the connection closed under the transfer."""
    from distributed.client import FutureCancelledError
    from distributed.comm.core import CommClosedError
    return FutureCancelledError, CommClosedError
