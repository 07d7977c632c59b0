"""Every fact about an engine lives in its module and everything else reads the registry: a toy
engine registered at run time (tests/toy_engine.py) is taken up by the contract, the kernel test,
the ``--engine`` help, the coverage run's tunables, the docs' table and the bench's columns."""
import os
import subprocess
import sys

import pytest
import toy_engine
from support import ROOT

from dlx import cli, engines
from dlx.engines import __main__ as table_writer


@pytest.fixture
def toy(monkeypatch):
    machine = toy_engine.Toy()
    monkeypatch.setitem(engines.ENGINES, "toy", machine)
    return machine


def test_the_command_names_the_toy_in_its_help_and_runs_it(toy, capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "toy: a toy: DLX1 under a name of its own" in " ".join(capsys.readouterr().out.split())
    assert cli.main(["--engine", "toy", "--count", "queens", "6"]) == 0
    assert capsys.readouterr().out.split() == ["4"]


def test_the_coverage_run_shrinks_the_toys_tunables(toy):
    shrunk = {(module.__name__, name): value for module, name, value in engines.tunables()}
    assert shrunk[("toy_engine", "TOY_POLL")] == 1
    assert shrunk[("dlx.engines.dlx1", "POLL")] == 1


def test_the_toy_searches_and_counts_by_its_name(toy):
    from dlx import problems
    queens = problems.queens(6)
    assert queens.count(engine="toy") == 4 and queens.stats.engine == "toy"
    toys = queens.stats
    assert queens.count(engine="dlx") == 4
    assert (toys.nodes, toys.updates) == (queens.stats.nodes, queens.stats.updates)


def test_the_docs_table_is_the_registrys(toy):
    assert "| `toy` | `toy` | `toy_engine` | a toy: DLX1 under a name of its own |" in engines.table()



def test_the_docs_table_is_the_registrys_as_written():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert table_writer.rewrite(text) == text, "stale: run python -m dlx.engines docs/architecture.md"


def test_the_bench_columns_come_from_the_registry(toy, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    sys.modules.pop("rivals", None)
    import rivals
    try:
        assert "dlx engine=toy" in [r.name for r in rivals.RIVALS]
    finally:
        sys.modules.pop("rivals", None)


def test_the_contract_and_the_kernel_test_take_up_the_toy():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "toy_engine", "-q", "-p", "no:cacheprovider",
                          "-k", "toy", "-rA", "tests/test_engines.py", "tests/test_kernels.py"],
                         cwd=ROOT, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    passed = [line for line in run.stdout.splitlines() if line.startswith("PASSED")]
    engine_tests = [line for line in passed if "test_engines.py" in line and "[toy" in line]
    kernel_tests = [line for line in passed if "test_kernels.py" in line and "toy-queens" in line]
    assert len(engine_tests) >= 8 and len(kernel_tests) == 1, run.stdout[-3000:]
