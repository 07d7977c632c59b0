"""0/1 matrices (numpy arrays, scipy.sparse matrices and arrays) as options in CSR form.

Rows are options and columns items. Sparse input stays sparse: only its CSR arrays are read, so a
matrix with 100,000 rows and 10,000 columns loads in the time it takes to copy its entries.
"""
from __future__ import annotations

import sys
from typing import Any

import numpy as np


def matrix_options(m: Any, problem_error: type[Exception]) -> tuple[int, np.ndarray, np.ndarray]:
    """``(number of columns, option_start, option_items)`` of a 0/1 matrix, columns ascending in
    each row; any entry other than 0 and 1 is a ``problem_error`` naming its row and column."""
    if _is_sparse(m):
        return _sparse_options(m, problem_error)
    a = rectangle(m, "the rows of a 0/1 matrix", problem_error)
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


def rectangle(rows: Any, what: str, error: type[Exception]) -> np.ndarray:
    """``rows`` as a numpy array; rows of different lengths are an ``error`` naming the first row
    whose length differs from row 0's (numpy's own message speaks of an inhomogeneous shape)."""
    try:
        return np.asarray(rows)
    except ValueError:
        lengths = [len(row) if hasattr(row, "__len__") else None for row in rows]
        k = next((k for k, n in enumerate(lengths) if n != lengths[0]), None)
        if k is None:
            raise
        def count(n: int | None) -> str:
            return "a single value" if n is None else f"{n} value{'' if n == 1 else 's'}"
        raise error(f"{what} must all have the same length: row 0 has {count(lengths[0])}, "
                    f"row {k} has {count(lengths[k])}") from None


def _is_sparse(m: Any) -> bool:
    sparse = sys.modules.get("scipy.sparse")  # no scipy import unless the caller has one
    return sparse is not None and sparse.issparse(m)


def _sparse_options(m: Any, problem_error: type[Exception]) -> tuple[int, np.ndarray, np.ndarray]:
    if len(m.shape) != 2:
        raise problem_error(f"a 0/1 matrix must have 2 dimensions, not {len(m.shape)}")
    # every stored entry as it is (duplicates not summed yet), and ours to tidy: never the caller's
    coo = m.tocoo(copy=True)
    csr = coo.astype(_wide(coo, problem_error)).tocsr()
    csr.sum_duplicates()                       # also sorts the columns of each row
    csr.eliminate_zeros()
    bad = np.flatnonzero(csr.data != 1)
    if bad.size:
        k = bad[0]
        r = np.searchsorted(csr.indptr, k, side="right") - 1
        raise problem_error(f"matrix entry ({r}, {csr.indices[k]}) is {csr.data[k].item()!r}; "
                            "a 0/1 matrix holds only 0 and 1")
    return m.shape[1], csr.indptr, csr.indices


#: Stored entries beyond this size are refused before duplicates are summed, so that the sums (in
#: int64 or float64) are exact and cannot wrap around to 1.
_STORED_MAX = 2 ** 31


def _wide(coo: Any, problem_error: type[Exception]) -> type:
    """The type to sum duplicate entries in: summed in a small type, uint8 entries 255 and 2 at
    one place would wrap around to 1 and pass for a 0/1 matrix."""
    kind = coo.dtype.kind
    if kind not in "biuf":
        raise problem_error(f"a 0/1 matrix holds numbers or booleans, not {coo.dtype}")
    if kind != "b":
        big = np.flatnonzero((coo.data > _STORED_MAX) | (coo.data < -_STORED_MAX))
        if big.size:
            k = big[0]
            raise problem_error(f"matrix entry ({coo.row[k]}, {coo.col[k]}) holds {coo.data[k].item()!r}; "
                                "a 0/1 matrix holds only 0 and 1")
    return np.float64 if kind == "f" else np.int64
