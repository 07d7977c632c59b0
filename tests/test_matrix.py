"""ExactCover.from_matrix: dense and every sparse format, row numbers, all-zero rows, unused columns."""
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import example, given, settings
from naive import Counts, algorithm_x, brute_force
from support import matrices

from dlx import ExactCover, ProblemError
from dlx.engines import ENGINES

#: Options without a primary item (all-zero rows and the like) are skipped with a warning, as
#: they should be; test_colours checks the warning itself.
pytestmark = pytest.mark.filterwarnings("ignore::dlx.ProblemWarning")

FORMATS = ["csr", "csc", "coo", "lil", "dok", "bsr", "dia"]


def reference(m, secondary):
    cols = m.shape[1]
    options = [list(np.flatnonzero(row)) for row in m]
    primary, second = list(range(cols - secondary)), list(range(cols - secondary, cols))
    return options, primary, second


@settings(max_examples=200, deadline=None)
@given(matrices())
@example((np.array([[1, 0, 1, 1, 1, 1]], np.int8), 0))          # long rows: "auto" runs cells
@example((np.array([[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 0], [1, 1, 1, 1, 1, 1]], np.int8), 0))
def test_matrix_solutions_match_the_reference(matrix):
    m, secondary = matrix
    options, primary, second = reference(m, secondary)
    counts = Counts()
    expected = list(algorithm_x(options, primary, second, counts))
    # rows without a primary item (all-zero rows too) are never part of a solution
    usable = {k for k, option in enumerate(options) if set(option) & set(primary)}
    assert set(expected) == {s for s in brute_force(options, primary, second) if set(s) <= usable}

    ec = ExactCover.from_matrix(m, secondary=secondary)
    assert (ec.n_options, ec.n_items, ec.n_secondary) == (m.shape[0], m.shape[1], secondary)
    assert list(ec.solutions(engine="dlx")) == expected       # row numbers, in DLX1's order
    assert ec.stats.nodes == counts.nodes             # rows without a primary item change no choice
    for engine in ENGINES:                            # "auto" takes cells for long rows
        assert sorted(ec.solutions(engine=engine)) == sorted(expected), engine
    ec.check()
    for k in range(m.shape[0]):
        assert list(ec.option(k)) == options[k]


@settings(max_examples=60, deadline=None)
@given(matrices())
def test_every_sparse_format_gives_the_same_solutions(matrix):
    m, secondary = matrix
    expected = list(ExactCover.from_matrix(m, secondary=secondary).solutions())
    for fmt in FORMATS:
        for make in (sp.csr_matrix, sp.csr_array):
            s = make(m).asformat(fmt)
            assert list(ExactCover.from_matrix(s, secondary=secondary).solutions()) == expected, fmt
    assert list(ExactCover.from_matrix(m.astype(bool), secondary=secondary).solutions()) == expected
    if m.shape[0]:                                    # [] would be a 1-D list
        assert list(ExactCover.from_matrix(m.tolist(), secondary=secondary).solutions()) == expected


def test_all_zero_rows_and_unused_columns():
    m = np.array([[0, 0, 0], [1, 1, 0], [0, 0, 0], [0, 0, 1], [0, 0, 1]])
    ec = ExactCover.from_matrix(m)
    assert list(ec.solutions()) == [(1, 3), (1, 4)] and ec.option(0) == ()
    # an unused primary column can never be covered; an unused secondary one does not matter
    unused = np.array([[1, 0, 0], [0, 1, 0]])
    assert ExactCover.from_matrix(unused).count() == 0
    assert ExactCover.from_matrix(unused, secondary=1).count() == 1
    # a row of secondary columns only is never part of a solution, but keeps its number
    ec = ExactCover.from_matrix(np.array([[0, 1], [1, 0], [1, 1]]), secondary=1)
    assert list(ec.solutions()) == [(1,), (2,)] and ec.option(0) == (1,)
    ec.check()


def test_sparse_input_is_left_untouched_and_duplicates_are_refused():
    coo = sp.coo_matrix((np.ones(3), ([0, 1, 1], [1, 0, 0])), shape=(2, 2))   # (1, 0) twice
    with pytest.raises(ProblemError, match=r"entry \(1, 0\) is 2"):
        ExactCover.from_matrix(coo)
    csr = sp.csr_matrix(np.array([[0, 1], [1, 0]]))
    csr.data[0] = 0                                                         # an explicit zero
    before = csr.data.copy()
    assert list(ExactCover.from_matrix(csr).solutions()) == []
    assert np.array_equal(csr.data, before) and csr.nnz == 2


@pytest.mark.parametrize("m, fragment", [
    (np.array([[1, 2]]), r"entry \(0, 1\) is 2"),
    (np.array([[1, 0], [0, -1]]), r"entry \(1, 1\) is -1"),
    (np.array([[0.5, 1.0]]), r"entry \(0, 0\) is 0.5"),
    (np.array([[1.0, np.nan]]), r"entry \(0, 1\) is nan"),
    (sp.csr_matrix(np.array([[0, 3]])), r"entry \(0, 1\) is 3"),
    (np.zeros((2, 2, 2)), "2 dimensions, not 3"),
    (np.array([["a", "b"]]), "numbers or booleans"),
])
def test_bad_matrices(m, fragment):
    with pytest.raises(ProblemError, match=fragment):
        ExactCover.from_matrix(m)


def test_bad_secondary():
    with pytest.raises(ProblemError, match="secondary=3, but the matrix has 2 columns"):
        ExactCover.from_matrix(np.eye(2), secondary=3)
    with pytest.raises(ProblemError, match="no primary items"):
        ExactCover.from_matrix(np.eye(2), secondary=2)


def test_a_large_sparse_matrix_loads_without_a_dense_copy():
    # 100,000 x 10,000 dense would be 8 GB of float64; the sparse path reads only the entries
    rng = np.random.default_rng(7)
    rows, cols = 100_000, 10_000
    r = np.repeat(np.arange(rows), 3)
    c = rng.integers(0, cols, size=r.size)
    m = sp.coo_array((np.ones(r.size), (r, c)), shape=(rows, cols))
    m.sum_duplicates()
    m.data[:] = 1
    ec = ExactCover.from_matrix(m)
    assert (ec.n_options, ec.n_items) == (rows, cols)
    assert ec.option(5) == tuple(sorted(set(c[15:18].tolist())))
    assert ec.count(max_nodes=1000) == 0
    assert (ec.stats.nodes, ec.stats.updates, ec.stats.status) == (1000, 123296, "max_nodes")
