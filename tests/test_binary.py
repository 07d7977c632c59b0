"""Knuth's newest searches: binary branching on dancing cells (SSXCC-BINARY and SSMCC) and domain
consistency (XCCDC), each with the heuristics of his change files: exact to his programs, and a
search like the others.

Knuth's own figures (tests/data/binary.json, written by bench/knuth_binary.py from his programs
built from ssxcc-binary.w, ssmcc.w, xccdc.w and the change files ssxcc-frb.ch, ssxcc-wtd.ch,
ssmcc-frb.ch, ssmcc-wtd.ch, xccdc-frb.ch, xccdc-wtd.ch) on the shared Knuth-format files, on
named problems with multiplicities and on random problems with colours, secondary items and
multiplicities: the same solutions, nodes and updates, with his defaults, with a solution limit
(his ``t``) and with other weight increments (SSXCC-BINARY's ``w`` and ``W``). The engine
contract (tests/test_engines.py) runs over each heuristic's machine too: brute force's solutions,
paused runs that add up to one run (the learned weights are state), split pieces, the structure
checked at every pause.
"""
from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from naive import algorithm_m, brute_force_m
from support import SHARED_DLX, mcc_problems

import dlx
from dlx import Batch, ExactCover, engines, problems, read_dlx
from dlx.engines import binary

DATA = json.loads((Path(__file__).parent / "data" / "binary.json").read_text())
NAMED = {
    "k_queens(9, 7)": lambda: problems.k_queens(9, 7),
    "k_queens(8, 6)": lambda: problems.k_queens(8, 6),
    "packing(5, 8, tetrominoes, 2 of each)":
        lambda: problems.packing(5, 8, problems.TETROMINOES, dict.fromkeys(problems.TETROMINOES, 2)),
    "packing(4, 6, tetrominoes, 0 to 2 of each)":
        lambda: problems.packing(4, 6, problems.TETROMINOES, dict.fromkeys(problems.TETROMINOES, (0, 2))),
}
#: Shared files whose five runs take more than a few seconds.
SLOW_FILES = {"pent6x10x.dlx"}


def quiet_read(text: str) -> ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.ProblemWarning)
        return read_dlx(io.StringIO(text))


def ours(problem: ExactCover, run: dict) -> dict:
    """Our figures for one of Knuth's runs: ``t`` is a solution limit, ``w`` and ``W`` the
    weighted degree's increment and growth; XCCDC's programs are engine "dc"."""
    knobs = dict((a[0], a[1:]) for a in run["args"])
    heuristic = run["heuristic"]
    if "w" in knobs:
        heuristic = f"wtd:{knobs['w']}:{knobs['W']}"
    limit = int(knobs["t"]) if "t" in knobs else None
    engine = "dc" if run["program"].startswith("xccdc") else "cells"
    count = problem.count(limit, engine=engine, branching="binary", heuristic=heuristic)
    s = problem.stats
    assert s.engine.startswith("dc" if engine == "dc" else "cells/binary") and count == s.solutions
    return {**run, "solutions": count, "nodes": s.nodes, "updates": s.updates}


def test_knuths_figures_on_random_problems():
    assert len(DATA["random"]) >= 150
    kinds = set()
    for case in DATA["random"]:
        problem = quiet_read(case["text"])
        kinds.add((problem.bounds is not None, problem.option_colours is not None))
        for run in case["runs"]:
            assert ours(problem, run) == run, case["text"]
    assert kinds == {(False, False), (False, True), (True, False), (True, True)}


@pytest.mark.parametrize("case", DATA["named"], ids=lambda c: c["label"])
def test_knuths_ssmcc_figures_on_packings_and_queens(case):
    problem = NAMED[case["label"]]()
    assert problem.bounds is not None
    for run in case["runs"]:
        assert ours(problem, run) == run
    # multiplicities: engine="cells" is SSMCC, branching binary with Knuth's default heuristic
    first = case["runs"][0]
    assert first["program"] == "ssmcc" and not first["args"]
    assert problem.count(engine="cells") == first["solutions"]
    assert (problem.stats.nodes, problem.stats.updates, problem.stats.engine) == (first["nodes"], first["updates"],
                                                                                  "cells")


@pytest.mark.parametrize("case", [pytest.param(c, marks=[pytest.mark.slow] if c["file"] in SLOW_FILES else [])
                                  for c in DATA["shared"]], ids=lambda c: c["file"])
def test_knuths_figures_on_the_shared_files(case):
    path = SHARED_DLX / case["file"]
    if not path.exists():
        pytest.skip(f"{path} is not present")
    problem = read_dlx(path)
    for run in case["runs"]:
        assert ours(problem, run) == run


def test_worked_by_hand():
    # [a b], [a], [b]. Node 1: a and b have 2 options each; a (the first) is chosen, its first
    # option [a b] taken: [a] leaves b... no: [a] clashes on a, so it leaves its other sets (none
    # but a's, which goes inactive), [b] leaves... [b] clashes on b: b's set loses nothing else
    # (b is the option's own); 1 update ([a] is a's only other option, and it has no other item;
    # [b] is removed from nowhere). Node 2: a solution. Back: restore, drop [a b] from a and b
    # (2 updates); node 3: a and b have 1 option each: forced, take [b] (push order: a then b;
    # b is popped first); node 4: a forced; node 5: a solution.
    ec = ExactCover([["a", "b"], ["a"], ["b"]])
    assert list(ec.solutions(branching="binary")) == [(0,), (1, 2)]
    s = ec.stats
    assert (s.nodes, s.solutions, s.complete, s.engine) == (5, 2, True, "cells/binary")
    assert s.updates == 2


@settings(max_examples=150, deadline=None)
@given(mcc_problems())
def test_every_heuristic_finds_the_solutions_of_algorithm_m(problem):
    primary, secondary, options, bounds = problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.ProblemWarning)
        ec = ExactCover(options, primary=primary, secondary=secondary, bounds=bounds or None)
    expected = set(algorithm_m(options, primary, secondary, bounds))
    assert expected == brute_force_m(options, primary, secondary, bounds)
    for heuristic in ("mrv", "frb", "wtd", "wtd:0.25:1.5"):
        found = list(ec.solutions(branching="binary", heuristic=heuristic))
        assert len(found) == len(set(found)) and set(found) == expected
        assert all(ec.is_solution(s) for s in found)
        assert ec.count(heuristic=heuristic) == len(expected)
        ec.check()


def test_a_resumed_run_equals_an_unbroken_one_and_weights_are_its_state():
    q = problems.queens(9)
    whole = list(q.solutions(heuristic="wtd"))
    stats = q.stats
    found = []
    with q.search(max_nodes=97, heuristic="wtd") as run:
        while True:
            found.extend(run)
            run.check()
            if run.status == "complete":
                break
            run.resume(max_nodes=run.stats.nodes + 97)
    assert found == whole and (run.stats.nodes, run.stats.updates) == (stats.nodes, stats.updates)
    # and the weights steer: a run that forgot them would branch as mrv does
    q.count(branching="binary")
    assert q.stats.nodes != stats.nodes


def test_threads_find_the_same_solutions():
    for problem, heuristic in ((problems.queens(9), "frb"), (problems.langford(8), "wtd"),
                               (problems.k_queens(7, 5), "mrv")):
        one = set(problem.solutions(heuristic=heuristic, branching="binary"))
        both = problem.solutions(heuristic=heuristic, branching="binary", jobs=2)
        assert set(both) == one and len(one) == problem.count()
        assert problem.count(heuristic=heuristic, branching="binary", jobs=2) == len(one)


def test_pieces_of_a_split_replay_taken_and_dropped_options():
    q = problems.queens(8)
    name = engines.named("cells", "binary")
    pieces, above, stats = dlx.pieces.split(q, 4, engine=name)
    assert any((p.path & binary.REJECTED).any() for p in pieces)      # some levels dropped their option
    prepared = q.prepared(name)
    total = sum(o.count for o in above)
    for piece in pieces:
        structure = prepared.acquire()
        try:
            total += dlx.pieces.search_piece(prepared.engine, structure, piece).count
        finally:
            prepared.release(structure)
    assert total == 92
    q.check()


def test_seeds_reorder_the_search_and_keep_the_solutions():
    q = problems.queens(8)
    a = list(q.solutions(seed=3, heuristic="frb"))
    assert a == list(q.solutions(seed=3, heuristic="frb")) and set(a) == set(q.solutions())


def test_strategy_names_and_refusals():
    ec = problems.queens(6)
    assert engines.named("auto") == "auto" and engines.named("cells", "all", "mrv") == "cells"
    assert engines.named("auto", heuristic="frb") == "cells/binary/frb"
    assert engines.named("cells", "binary", "wtd:0.5:2") == "cells/binary/wtd:0.5:2"
    assert {"cells/binary", "cells/binary/frb", "cells/binary/wtd"} <= set(engines.names())
    with pytest.raises(ValueError, match="unknown branching 'two'; the branchings are: all, binary"):
        ec.count(branching="two")
    with pytest.raises(ValueError, match="unknown heuristic 'dom'; the heuristics are mrv, frb, wtd"):
        ec.count(heuristic="dom")
    with pytest.raises(ValueError, match="DW and FACTOR are positive numbers"):
        ec.count(heuristic="wtd:0:1")
    with pytest.raises(ValueError, match="DW and FACTOR are numbers"):
        ec.count(heuristic="wtd:a:b")
    with pytest.raises(ValueError, match="steers binary branching: pass branching='binary'"):
        ec.count(branching="all", heuristic="frb")
    with pytest.raises(ValueError, match="the dlx engine branches d-way only"):
        ec.count(engine="dlx", branching="binary")
    with pytest.raises(ValueError, match="unknown engine 'cells/three'"):
        ec.count(engine="cells/three")
    with pytest.raises(dlx.engines.base.TraceRefused):
        ec.search(branching="binary", trace=True)
    with pytest.raises(ValueError, match="takes no batches: Batch searches with the cells engine's d-way search"):
        Batch(ec, [1] * 6, engine="cells/binary")
    bounded = ExactCover([["a"], ["a"]], bounds={"a": 2})
    with pytest.raises(ValueError, match="or with the dlx engine \\(DLX3\\) for multiplicities"):
        Batch(bounded, [2], engine="cells")
    assert Batch(bounded, [2]).solve(np.array([[0]]), limit=2).counts.tolist() == [1]


def test_an_item_with_too_few_options_means_no_search_as_knuth():
    ec = ExactCover([["a"], ["a", "b"]], primary=["a", "b", "c"])
    assert ec.count(branching="binary") == 0
    assert (ec.stats.nodes, ec.stats.updates, ec.stats.complete) == (0, 0, True)
    needs_two = ExactCover([["a"]], bounds={"a": (2, 3)})
    assert needs_two.count(engine="cells") == 0 and needs_two.stats.nodes == 0


def test_a_deep_search_grows_the_save_stack(monkeypatch):
    q = problems.queens(10)
    expected = q.count(branching="binary")
    stats = q.stats
    monkeypatch.setattr(binary, "STACK_START", 4)
    fresh = problems.queens(10)
    assert fresh.count(branching="binary") == expected
    assert (fresh.stats.nodes, fresh.stats.updates) == (stats.nodes, stats.updates)


def test_option_of_reads_a_dropped_choice():
    q = problems.queens(4)
    prepared = q.prepared("cells/binary")
    nd = prepared.structure.nd
    y = int(prepared.structure.set[prepared.structure.item[0]])
    assert binary.option_of(np.uint32(y), nd) == binary.option_of(np.uint32(y | int(binary.REJECTED)), nd)


def test_the_command_takes_branching_and_heuristic(capsys):
    from dlx.cli import main
    assert main(["queens", "8", "--count", "--stats", "--heuristic", "frb"]) == 0
    out, err = capsys.readouterr()
    assert out == "92\n" and err.rstrip().endswith("engine cells/binary/frb.")
    assert main(["queens", "6", "--branching", "binary", "--heuristic", "wtd:0.5:1.1", "--format", "json"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 4
    assert main(["queens", "8", "--count", "--heuristic", "dom"]) == 1
    assert "unknown heuristic 'dom'" in capsys.readouterr().err
    assert main(["queens", "8", "--count", "--engine", "compact", "--branching", "binary"]) == 1
    assert "the compact engine branches d-way only" in capsys.readouterr().err
    assert main(["queens", "8", "--count", "--branching", "binary", "--trace"]) == 1
    assert "trace" in capsys.readouterr().err


@settings(max_examples=150, deadline=None)
@given(mcc_problems())
def test_domain_consistency_finds_the_solutions_of_algorithm_c(problem):
    primary, secondary, options, _ = problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.ProblemWarning)
        ec = ExactCover(options, primary=primary, secondary=secondary)
    expected = set(algorithm_m(options, primary, secondary))
    for heuristic in ("mrv", "frb", "wtd"):
        found = list(ec.solutions(engine="dc", heuristic=heuristic))
        assert len(found) == len(set(found)) and set(found) == expected
        assert all(ec.is_solution(s) for s in found)
        ec.check()


def test_domain_consistency_takes_fewer_nodes_and_names_its_strategies():
    q = problems.queens(8)
    assert q.count(engine="dc") == 92 and (q.stats.nodes, q.stats.updates, q.stats.engine) == (700, 13565, "dc")
    assert q.count(engine="dc", heuristic="wtd") == 92 and q.stats.engine == "dc/wtd"
    assert engines.named("dc", "binary", "frb") == "dc/frb" and "dc/wtd" in engines.names()
    with pytest.raises(ValueError, match="domain consistency \\(engine='dc'\\) branches binary"):
        q.count(engine="dc", branching="all")
    with pytest.raises(ValueError, match="the heuristics of domain consistency are mrv, frb, wtd"):
        q.count(engine="dc", heuristic="wtd:1:2")
    with pytest.raises(ValueError, match="unknown engine 'dc/dom'"):
        q.count(engine="dc/dom")
    bounded = ExactCover([["a"], ["a"]], bounds={"a": 2})
    with pytest.raises(ValueError, match="takes no multiplicities.*SSMCC.*DLX3"):
        bounded.count(engine="dc")
    with pytest.raises(ValueError, match="domain consistency \\(XCCDC\\) takes no batches"):
        Batch(q, [1] * 8, engine="dc")
    # an inconsistent problem is done before its first node, as Knuth's program reports
    stuck = ExactCover([["a", "b"], ["a", "c"]], primary=["a", "b", "c"])
    assert stuck.count(engine="dc") == 0 and stuck.stats.nodes == 0 and stuck.stats.complete


def test_the_command_takes_domain_consistency(capsys):
    from dlx.cli import main
    assert main(["queens", "8", "--count", "--stats", "--engine", "dc", "--heuristic", "frb"]) == 0
    out, err = capsys.readouterr()
    assert out == "92\n" and "782 nodes" in err and err.rstrip().endswith("engine dc/frb.")
