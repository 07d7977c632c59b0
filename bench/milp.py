"""A minimum-cost exact-cover problem as a 0/1 integer program, solved by HiGHS (highspy): the
cross-check of :meth:`dlx.ExactCover.cheapest` in the tests and its neighbour in bench/compare.py.

minimise  sum(cost[o] * x[o])  subject to  sum(x[o] for o covering i) = 1 for each primary item i,
<= 1 for each secondary item (no colours), x binary. A different method (branch and cut on the LP
relaxation) and a different input; only the optimum is compared.
"""
from __future__ import annotations

from typing import Any

import numpy as np


def optimum(problem: Any) -> int | None:
    """The least cost of a solution of ``problem`` (no colours, no bounds), or None when it has
    none. Needs highspy."""
    import highspy

    if problem.option_colours is not None or problem.bounds is not None:
        raise ValueError("the integer program here takes no colours and no bounds")
    start, ids = problem.option_start, problem.option_items
    costs = problem.option_costs if problem.option_costs is not None else np.zeros(problem.n_options, np.int64)
    lengths = np.diff(start)
    owner = np.repeat(np.arange(problem.n_options), lengths)
    usable = np.zeros(problem.n_options, bool)
    usable[owner[ids < problem.n_primary]] = True       # as Knuth, an option without a primary item is out
    h = highspy.Highs()
    h.silent()          # no banner, no log
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    n = problem.n_options
    h.addVars(n, np.zeros(n), np.where(usable, 1.0, 0.0))
    h.changeColsCost(n, np.arange(n, dtype=np.int32), costs.astype(np.float64))
    h.changeColsIntegrality(n, np.arange(n, dtype=np.int32), np.full(n, highspy.HighsVarType.kInteger))
    by_item = np.argsort(ids, kind="stable")
    bounds = np.searchsorted(ids[by_item], np.arange(problem.n_items + 1))
    for i in range(problem.n_items):
        columns = owner[by_item[bounds[i]:bounds[i + 1]]].astype(np.int32)
        low = 1.0 if i < problem.n_primary else 0.0
        h.addRow(low, 1.0, columns.size, columns, np.ones(columns.size))
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    return int(round(h.getInfo().objective_function_value))
