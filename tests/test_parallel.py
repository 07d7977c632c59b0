"""A search split into pieces: threads that give work away, splits at a depth, Dask tasks. The
pieces must find what one run finds, and with the Dancing Links engines count exactly what it
counts (nodes, updates, cleansings) and give the solutions in its order."""
import _thread
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from support import assert_solutions, mcc_problems, small_problems

import dlx
from dlx import parallel, problems
from dlx.parallel import Piece, search_piece

#: The random problems draw options without a primary item on purpose; they are skipped with a
#: warning, which test_colours checks.
pytestmark = pytest.mark.filterwarnings("ignore::dlx.ProblemWarning")


def serial(ec, engine):
    solutions = list(ec.solutions(engine=engine))
    return solutions, ec.stats


def figures(stats):
    return stats.nodes, stats.updates, stats.cleansings, stats.solutions


def split_and_search(ec, depth, engine, collect=True):
    """Every piece of a split at ``depth``, each searched on its own fresh structure."""
    pieces, above, stats = parallel.split(ec, depth, engine=engine, collect=collect)
    prepared = ec.prepared(dlx.engines.resolve(engine, ec.engine_input))
    outcomes = list(above)
    for piece in pieces:
        structure = prepared.engine.copy(prepared.pristine)
        outcomes.append(search_piece(prepared.engine, structure, piece, collect=collect))
        prepared.engine.check(ec.engine_input, structure, None)      # each piece leaves its structure as built
    return parallel.merge(outcomes, engine, before=stats, collect=collect), pieces


def assert_splits_add_up(ec):
    """At depths 1 to 4, the pieces and the split find one run's solutions in its order, and
    their nodes, updates and cleansings add up to its own."""
    solutions, stats = serial(ec, "dlx")
    for depth in range(1, 5):
        result, _ = split_and_search(ec, depth, "dlx")
        assert result.solutions == solutions and result.count == len(solutions)
        assert figures(result.stats) == figures(stats) and result.stats.complete


@settings(max_examples=150, deadline=None)
@given(small_problems())
def test_a_split_at_any_depth_adds_up_to_one_run(problem):
    primary, secondary, options = problem
    assert_splits_add_up(dlx.ExactCover(options, primary=primary, secondary=secondary))


@settings(max_examples=150, deadline=None)
@given(mcc_problems())
def test_colours_and_multiplicities_split_exactly(problem):
    primary, secondary, options, bounds = problem
    assert_splits_add_up(dlx.ExactCover(options, primary=primary, secondary=secondary, bounds=bounds))


@settings(max_examples=100, deadline=None)
@given(small_problems())
def test_dancing_cells_pieces_find_the_same_solutions(problem):
    primary, secondary, options = problem
    ec = dlx.ExactCover(options, primary=primary, secondary=secondary)
    solutions, _ = serial(ec, "cells")
    for depth in range(1, 4):
        result, _ = split_and_search(ec, depth, "cells")
        assert sorted(result.solutions) == sorted(solutions)
        assert_solutions(ec, result.solutions, primary, secondary)


def test_split_of_queens_knows_its_pieces():
    queens = problems.queens(8)
    pieces, above, stats = parallel.split(queens, 1, engine="dlx")
    assert len(pieces) == 8 and not above
    assert all(p.path.size == 1 for p in pieces)
    assert [p.key for p in pieces] == [(k,) for k in range(8)]
    assert stats.nodes == 1 and stats.solutions == 0
    result, pieces = split_and_search(queens, 3, "dlx", collect=False)
    assert result.count == 92 and result.pieces == len(pieces)
    depth, pieces, _, _ = parallel.split_for(queens, 20, engine="dlx")
    assert len(pieces) >= 20 and len(parallel.split(queens, depth - 1, engine="dlx")[0]) < 20


@pytest.fixture
def tiny_slices(monkeypatch):
    """Kernel calls of one node: a run comes back at every node and gives work away whenever a
    thread is idle, so that pieces are cut at every depth."""
    monkeypatch.setattr(parallel, "GRANT", 1)


@settings(max_examples=60, deadline=None)
@given(mcc_problems())
def test_threads_that_give_work_away_count_as_one_run(problem):
    primary, secondary, options, bounds = problem
    ec = dlx.ExactCover(options, primary=primary, secondary=secondary, bounds=bounds)
    solutions, stats = serial(ec, "dlx")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parallel, "GRANT", 1)
        assert list(ec.solutions(engine="dlx", jobs=3)) == solutions
        assert figures(ec.stats) == figures(stats)
        assert ec.count(engine="dlx", jobs=3) == len(solutions)


@pytest.fixture
def always_hungry(monkeypatch):
    """A pool that always has a thread waiting for work: every run gives work away at every node
    (with ``tiny_slices``), however the OS schedules the threads."""
    monkeypatch.setattr(parallel._Pool, "hungry", lambda pool: True)


@pytest.mark.parametrize("make, count", [(lambda: problems.queens(8), 92), (lambda: problems.langford(8), 150)])
def test_gifts_at_every_node(tiny_slices, always_hungry, make, count):
    ec = make()
    solutions, stats = serial(ec, "dlx")
    assert len(solutions) == count
    for engine in ("dlx", "cells"):
        # one thread takes the pieces in turn, so how many are cut is a fact of the tree: more
        # than the solutions, as pieces are cut at every depth, not only at the top
        result = parallel.run(ec, jobs=1, engine=engine, collect=True)
        assert result.pieces == parallel.run(ec, jobs=1, engine=engine).pieces > count
        assert sorted(result.solutions) == sorted(solutions)
        # several threads: the pieces are the scheduler's choice, what they find is not
        several = parallel.run(ec, jobs=4, engine=engine, collect=True)
        assert sorted(several.solutions) == sorted(solutions) and several.stats.complete
        if engine == "dlx":
            assert result.solutions == several.solutions == solutions
            assert figures(result.stats) == figures(several.stats) == figures(stats)
    ec.check()


def test_pentominoes_on_two_threads():
    box = problems.pentominoes(5, 12)
    count = box.count(engine="dlx")
    nodes = box.stats.nodes
    assert box.count(engine="dlx", jobs=2) == count == 1010
    assert box.stats.nodes == nodes
    assert box.count(jobs=2) == count         # auto: dancing cells


def test_first_limit_and_budget_on_threads(tiny_slices):
    queens = problems.queens(8)
    first = queens.first(jobs=3)
    assert first is not None and len(first) == 8
    assert_solutions(queens, [first], queens.items[:queens.n_primary], queens.items[queens.n_primary:])
    assert problems.queens(3).first(jobs=2) is None
    assert queens.count(limit=5, jobs=3) == 5 and queens.stats.status == "limit"
    assert queens.count(max_nodes=100, jobs=3) < 92
    assert queens.stats.status == "max_nodes" and queens.stats.nodes <= 100
    assert queens.count(max_nodes=10 ** 6, jobs=3) == 92 and queens.stats.complete


def test_seeded_threads_find_the_same_solutions(tiny_slices):
    queens = problems.queens(7)
    assert sorted(queens.solutions(seed=4, jobs=3)) == sorted(queens.solutions())


def test_jobs_are_checked():
    queens = problems.queens(5)
    for bad in (-1, 1.5, "2", True):
        with pytest.raises(ValueError, match="jobs"):
            queens.count(jobs=bad)
    assert queens.count(jobs=None) == 10
    with pytest.raises(ValueError, match="depth"):
        parallel.split(queens, 0)


def test_ctrl_c_stops_every_thread_and_the_problem_goes_on():
    queens = problems.queens(16)        # minutes of search: the interrupt lands in it, wherever
    timer = threading.Timer(0.3, _thread.interrupt_main)
    with pytest.raises(KeyboardInterrupt):
        timer.start()
        queens.count(jobs=2, engine="dlx")
    timer.join()
    assert not [t for t in threading.enumerate() if t.name.startswith("dlx-") and t.is_alive()]
    queens.check()
    assert problems.queens(8).count(jobs=2) == 92


def test_a_piece_replays_its_path_without_counting_it():
    queens = problems.queens(6)
    pieces, _, _ = parallel.split(queens, 2, engine="dlx")
    prepared = queens.prepared("dlx")
    structure = prepared.engine.copy(prepared.pristine)
    total = sum(search_piece(prepared.engine, structure, p).count for p in pieces)
    assert total == 4
    # the path's options are in every solution of the piece
    for piece in pieces:
        machine = _machine(prepared, structure, piece)
        chosen = set(prepared.engine.applied(structure, machine))
        assert len(chosen) == 2 and machine.state[dlx.engines.base.NODES] == 0
        prepared.engine.unwind(structure, machine)
        found = search_piece(prepared.engine, structure, piece, collect=True).solutions
        assert all(chosen <= set(s) for s in found)


def _machine(prepared, structure, piece: Piece):
    """A machine that has replayed ``piece``'s path and paused (node budget 0)."""
    machine = prepared.engine.start(structure)
    machine.choice[:piece.path.size] = piece.path
    machine.state[dlx.engines.base.FLOOR] = piece.path.size
    empty = np.zeros(0, np.int32)
    prepared.engine.advance(structure, machine, 1, 0, 1 << 20, empty, empty)
    return machine
