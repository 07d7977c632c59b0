"""Searches and sudoku batches on a real Dask LocalCluster of two worker processes."""
import contextlib
import socket
import threading

import pytest
from support import INKALA, INKALA_SOLUTION

from dlx import parallel, problems

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client


def test_a_count_on_the_cluster_adds_up_to_one_run(client):
    for ec, engine in [(problems.queens(9), "dlx"), (problems.langford(9), "dlx"),
                       (problems.queens(9), "cells")]:
        solutions = list(ec.solutions(engine=engine))
        one = ec.stats
        assert ec.count(engine=engine, client=client) == len(solutions)
        if engine == "dlx":
            assert (ec.stats.nodes, ec.stats.updates) == (one.nodes, one.updates)
            assert list(ec.solutions(engine=engine, client=client)) == solutions
        else:
            assert sorted(ec.solutions(engine=engine, client=client)) == sorted(solutions)


def test_the_problem_travels_once_and_tasks_are_many(client):
    queens = problems.queens(10)
    result = parallel.run(queens, client=client, engine="dlx")
    assert result.count == 724
    assert result.pieces >= parallel.TASKS_PER_THREAD * 2
    assert queens.first(client=client, engine="dlx") is not None
    assert queens.count(limit=10, client=client) == 10 and queens.stats.status == "limit"
    budget = queens.count(max_nodes=500, client=client, engine="dlx")
    assert budget < 724 and queens.stats.status == "max_nodes"


def test_a_scheduler_address_works_too(client):
    assert problems.queens(8).count(client=client.scheduler.address) == 92


def test_a_worker_killed_mid_count_changes_nothing(client, tmp_path):
    box = problems.pentominoes(6, 10)
    expected = 2339
    victim = next(iter(client.scheduler_info()["workers"]))
    died = tmp_path / "died"

    def die_in_the_first_search(marker=str(died)):
        """In the victim: the first piece it starts kills its process, a task half done."""
        import os
        import signal

        from dlx import distributed as on_worker

        def dying(*args, **kwargs):
            with open(marker, "w") as f:
                f.write(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)

        on_worker.search_piece = dying

    client.run(die_in_the_first_search, workers=[victim])
    count = box.count(engine="dlx", client=client)
    assert died.exists(), "the victim ran no task"
    assert count == expected and box.stats.complete
    client.wait_for_workers(2, timeout=60)


def test_sudoku_batches_on_the_cluster_keep_their_order(client):
    import sudoku
    from sudoku import pipeline
    puzzles = [INKALA, "1" * 81, "....|..34|...2|3...", INKALA] * 3
    local = list(sudoku.solve_all(puzzles, limit=2))
    remote = list(sudoku.solve_all(puzzles, limit=2, client=client))
    assert [(r.solution, r.count, r.status) for r in remote] == [(r.solution, r.count, r.status) for r in local]
    assert remote[0].solution == INKALA_SOLUTION
    assert str(remote[1].error) == str(local[1].error)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline, "DASK_CHUNK", 5)        # several tasks, results still in order
        again = list(sudoku.solve_all(puzzles, limit=2, client=client))
    assert [r.solution for r in again] == [r.solution for r in local]


def _die_in_the_first(name: str, marker: str):
    """For ``client.run`` on a victim: the first call of ``dlx.distributed.<name>`` in that worker
    kills its process, a task half done (a worker lost to the OOM killer, a node gone)."""
    def die():
        import os
        import signal

        from dlx import distributed as on_worker

        def dying(*args, **kwargs):
            with open(marker, "w") as f:
                f.write(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)

        setattr(on_worker, name, dying)
    return die


def test_a_worker_killed_mid_sudoku_batch_changes_nothing(client, tmp_path, monkeypatch, capsys):
    """Each batch is scattered to one worker; when that worker dies the batch is sent again (it
    ended in FutureCancelledError, and the promised retries could not run)."""
    import sudoku
    from sudoku import pipeline
    from sudoku.cli import main
    puzzles = [INKALA, "1" * 81, "....|..34|...2|3..."] * 8
    local = [(r.solution, r.count, r.status) for r in sudoku.solve_all(puzzles, limit=2)]
    monkeypatch.setattr(pipeline, "DASK_CHUNK", 3)        # eight tasks, on both workers
    for run in range(2):
        died = tmp_path / f"died{run}"
        victim = next(iter(client.scheduler_info()["workers"]))
        client.run(_die_in_the_first("_unseal", str(died)), workers=[victim])
        if run == 0:
            remote = [(r.solution, r.count, r.status) for r in sudoku.solve_all(puzzles, limit=2, client=client)]
            assert remote == local
        else:
            path = tmp_path / "p.txt"
            path.write_text("\n".join(puzzles) + "\n")
            assert main(["solve", str(path), "--dask", client.scheduler.address]) == 1
            assert capsys.readouterr().out.splitlines() == [s if s else f"# {p}" for (s, _, _), p
                                                            in zip(local, puzzles)]
        assert died.exists(), "the victim ran no task"
        client.wait_for_workers(2, timeout=60)


@contextlib.contextmanager
def _server(reply: bytes | None):
    """An address that accepts connections and answers ``reply`` at once, or never (None)."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
                if reply is not None:
                    accepted[-1].sendall(reply)
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for conn in accepted:
            conn.close()
        server.close()


@pytest.fixture
def silent_server():
    """A server that never answers Dask's handshake (an HTTP server waiting for a request line:
    the dashboard's port given by mistake)."""
    with _server(None) as address:
        yield address


def test_an_address_that_is_no_scheduler_gives_up_in_time(client, silent_server, monkeypatch, capsys):
    from dlx import distributed as dask_part
    from dlx.cli import main as dlx_main
    from sudoku.cli import main as sudoku_main
    assert dask_part.CONNECT_TIMEOUT == 10.0
    monkeypatch.setattr(dask_part, "CONNECT_TIMEOUT", 1.0)
    with pytest.raises(dask_part.Unreachable, match=f"no Dask scheduler answered at {silent_server} within 1 s"):
        problems.queens(5).count(client=silent_server)
    refused = socket.create_server(("127.0.0.1", 0))
    port = refused.getsockname()[1]
    refused.close()
    with pytest.raises(dask_part.Unreachable,
                       match=f"no Dask scheduler at tcp://127.0.0.1:{port}: the connection was refused"):
        problems.queens(5).count(client=f"tcp://127.0.0.1:{port}")
    with _server(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n") as web:
        with pytest.raises(dask_part.Unreachable, match=f"no Dask scheduler at {web}: it answers, but not in Dask's"):
            problems.queens(5).count(client=web)
    worker = next(iter(client.scheduler_info()["workers"]))
    with pytest.raises(dask_part.Unreachable, match="is a Dask worker, not a scheduler"):
        problems.queens(5).count(client=worker)
    assert dlx_main(["queens", "5", "--count", "--dask", silent_server]) == 1
    assert capsys.readouterr().err.endswith(f"dlx: error: no Dask scheduler answered at {silent_server} within 1 s\n")
    assert sudoku_main(["solve", INKALA, "--dask", silent_server]) == 1
    err = capsys.readouterr().err
    assert err.endswith(f"sudoku: error: no Dask scheduler answered at {silent_server} within 1 s\n")
