"""0/1 matrices (numpy arrays, scipy.sparse matrices and arrays) as options in CSR form.

Rows are options and columns items. Sparse input stays sparse: only its CSR arrays are read, so a
matrix with 100,000 rows and 10,000 columns loads in the time it takes to copy its entries.
"""
from __future__ import annotations

import sys

import numpy as np


def matrix_options(m, problem_error) -> tuple[int, np.ndarray, np.ndarray]:
    """``(number of columns, option_start, option_items)`` of a 0/1 matrix, columns ascending in
    each row; any entry other than 0 and 1 is a ``problem_error`` naming its row and column."""
    if _is_sparse(m):
        return _sparse_options(m, problem_error)
    a = np.asarray(m)
    if a.ndim != 2:
        raise problem_error(f"a 0/1 matrix must have 2 dimensions, not {a.ndim} (shape {a.shape})")
    if a.dtype.kind not in "biuf":
        raise problem_error(f"a 0/1 matrix holds numbers or booleans, not {a.dtype}")
    if a.dtype.kind != "b":
        bad = (a != 0) & (a != 1)
        if bad.any():
            r, c = np.argwhere(bad)[0]
            raise problem_error(f"matrix entry ({r}, {c}) is {a[r, c].item()!r}; a 0/1 matrix holds only 0 and 1")
    rows, cols = np.nonzero(a)                 # row-major: rows ascending, columns ascending in a row
    start = np.zeros(a.shape[0] + 1, np.int64)
    np.cumsum(np.bincount(rows, minlength=a.shape[0]), out=start[1:])
    return a.shape[1], start, cols


def _is_sparse(m) -> bool:
    sparse = sys.modules.get("scipy.sparse")  # no scipy import unless the caller has one
    return sparse is not None and sparse.issparse(m)


def _sparse_options(m, problem_error) -> tuple[int, np.ndarray, np.ndarray]:
    if len(m.shape) != 2:
        raise problem_error(f"a 0/1 matrix must have 2 dimensions, not {len(m.shape)}")
    csr = m.tocsr(copy=True)                   # ours to tidy: never touch the caller's matrix
    csr.sum_duplicates()                       # also sorts the columns of each row
    csr.eliminate_zeros()
    bad = np.flatnonzero(csr.data != 1)
    if bad.size:
        k = bad[0]
        r = np.searchsorted(csr.indptr, k, side="right") - 1
        raise problem_error(f"matrix entry ({r}, {csr.indices[k]}) is {csr.data[k].item()!r}; "
                            "a 0/1 matrix holds only 0 and 1")
    return m.shape[1], csr.indptr, csr.indices
