"""The kernels run as plain Python (NUMBA_DISABLE_JIT=1) under coverage, on the property tests, with
the tunables made tiny (conftest.small_tunables): every line of the engines must be reached, and
the answers, nodes and updates must still equal the reference's. Slow (about a minute):
``pytest -m slow tests/test_kernel_coverage.py``."""
import os
import subprocess
import sys

import pytest
from support import ROOT

PROPERTY_TESTS = [
    "tests/test_search.py::test_search_matches_reference",
    "tests/test_search.py::test_limits_stop_where_the_reference_stops",
    "tests/test_search.py::test_node_budget_stops_where_the_reference_would",
    "tests/test_search.py::test_the_scanning_choice_pass_makes_the_same_run",
    "tests/test_batch.py::test_batch_matches_reference",
    "tests/test_batch.py::test_node_budget_and_bad_arguments",
    "tests/test_batch.py::test_the_kernel_itself_refuses_a_value_beyond_its_group",
    "tests/test_stateful.py",
    "tests/test_runs.py::test_budget_pieces_add_up_to_the_whole_run",
    "tests/test_runs.py::test_batch_stop_event_marks_the_rest_stopped",
    "tests/test_runs.py::test_a_finished_machine_does_nothing",
    "tests/test_runs.py::test_unknown_engine_names_the_engines",
    "tests/test_colours.py::test_search_matches_algorithm_m",
    "tests/test_colours.py::test_paused_runs_add_up_and_keep_the_links_exact",
    "tests/test_colours.py::test_limits_stop_where_the_reference_stops",
    "tests/test_colours.py::test_batch_matches_brute_force",
    "tests/test_colours.py::test_a_stopped_run_resumes_to_the_same_figures",
    "tests/test_cells.py",
    "tests/test_trace.py::test_trace_is_the_references_steps",
    "tests/test_trace.py::test_a_full_buffer_pauses_the_kernel_and_loses_nothing",
    "tests/test_batch.py::test_reduce_is_the_greedy_reference",
    "tests/test_batch.py::test_reduce_refuses_clashes_and_bad_units",
    "tests/test_parallel.py::test_a_split_at_any_depth_adds_up_to_one_run",
    "tests/test_parallel.py::test_colours_and_multiplicities_split_exactly",
    "tests/test_parallel.py::test_dancing_cells_pieces_find_the_same_solutions",
    "tests/test_parallel.py::test_threads_that_give_work_away_count_as_one_run",
    "tests/test_compact.py",
    "tests/test_engines.py",
    "tests/test_zdd.py::test_plain_problems_give_dlx1s_solutions_in_its_order",
    "tests/test_zdd.py::test_colours_and_bounds_give_brute_forces_solutions",
    "tests/test_zdd.py::test_threads_give_one_threads_solutions",
    "tests/test_zdd.py::test_the_node_bound_ends_with_a_clear_error",
]


@pytest.mark.slow
def test_kernels_as_plain_python_are_fully_covered(tmp_path):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", COVERAGE_FILE=str(tmp_path / ".coverage"))
    run = [sys.executable, "-m", "coverage"]
    subprocess.run([*run, "run", "--include=*/dlx/engines/*,*/dlx/memo.py", "-m", "pytest", "-q",
                    "-p", "no:cacheprovider", *PROPERTY_TESTS], cwd=ROOT, env=env, check=True)
    report = subprocess.run([*run, "report", "-m"], cwd=ROOT, env=env, check=True, capture_output=True,
                            text=True).stdout
    print(report)
    total = float(report.strip().splitlines()[-1].split()[-1].rstrip("%"))
    assert total >= 95, report
