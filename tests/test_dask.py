"""Searches and sudoku batches on a real Dask LocalCluster of two worker processes."""
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
    from sudoku import solver
    puzzles = [INKALA, "1" * 81, "....|..34|...2|3...", INKALA] * 3
    local = list(sudoku.solve_all(puzzles, limit=2))
    remote = list(sudoku.solve_all(puzzles, limit=2, client=client))
    assert [(r.solution, r.count, r.status) for r in remote] == [(r.solution, r.count, r.status) for r in local]
    assert remote[0].solution == INKALA_SOLUTION
    assert str(remote[1].error) == str(local[1].error)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver, "DASK_CHUNK", 5)        # several tasks, results still in order
        again = list(sudoku.solve_all(puzzles, limit=2, client=client))
    assert [r.solution for r in again] == [r.solution for r in local]
