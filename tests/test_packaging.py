"""What a user gets: an sdist that carries what its tests need, a wheel with its licence and type
markers, and documentation that builds without a broken link or a missing reference."""
import re
import subprocess
import sys
import tarfile
import zipfile

import pytest
from support import ROOT

#: What the sdist's tests need besides the packages: their helpers, the samples, the pages and
#: the bench scripts they execute or import.
SDIST_NEEDS = ["tests/conftest.py", "tests/naive.py", "tests/support.py", "tests/test_formats.py",
               "examples/top20.txt", "examples/queens8.dlx", "README.md", "LICENSE", "CHANGELOG.md",
               "docs/index.md", "mkdocs.yml", "bench/compare.py", "bench/rivals.py", "pyproject.toml",
               "dlx/py.typed", "sudoku/py.typed"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The sdist and the wheel built from it, as ``python -m build`` makes them."""
    pytest.importorskip("build", reason="the test extra installs build")
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (sdist,), (wheel,) = out.glob("*.tar.gz"), out.glob("*.whl")
    return sdist, wheel


def test_the_sdist_carries_what_its_tests_need(built, tmp_path):
    sdist, _ = built
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
        top = names[0].split("/")[0]
        missing = [need for need in SDIST_NEEDS if f"{top}/{need}" not in names]
        assert not missing, f"the sdist lacks {missing}"
        assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
        archive.extractall(tmp_path, filter="data")
    unpacked = tmp_path / top
    # every test module of the sdist imports (a missing helper fails here), and one file runs
    collected = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                                "tests"], cwd=unpacked, capture_output=True, text=True)
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_formats.py"],
                         cwd=unpacked, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]


def test_the_wheel_carries_the_licence_and_the_type_markers(built):
    _, wheel = built
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "dlx/py.typed" in names and "sudoku/py.typed" in names
    assert not [n for n in names if n.startswith(("tests/", "bench/", "docs/"))]


def test_the_docs_build_strictly(tmp_path):
    """MkDocs with ``--strict``: a broken link, a missing page or an unresolved API reference fails."""
    pytest.importorskip("mkdocs", reason="the docs extra installs MkDocs")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site"),
                           "--config-file", str(ROOT / "mkdocs.yml")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site" / "reference" / "dlx" / "index.html").is_file()
    assert "ExactCover" in (tmp_path / "site" / "reference" / "dlx" / "index.html").read_text()
    # the API pages: every docstring example inside a code block, cross-references as links
    for package, examples, links in (("dlx", 90, 100), ("sudoku", 35, 40)):
        html = (tmp_path / "site" / "reference" / package / "index.html").read_text()
        outside = re.sub(r"<pre.*?</pre>", "", html, flags=re.S)
        assert html.count("&gt;&gt;&gt;") >= examples and "&gt;&gt;&gt;" not in outside, package
        assert "<blockquote" not in html and not re.search(r":(class|func|meth|mod|attr|data|exc|obj):`?", outside)
        assert html.count('class="autorefs autorefs-internal"') >= links, package
        assert not re.search(r"\]\[[\w.]+\]", outside), "a cross-reference left unresolved"
    # the home opens with the install and a quick start; no page runs much past 2,500 words
    home = (ROOT / "docs" / "index.md").read_text()
    assert home.index("## Install") < home.index("## Quick start") < home.index("## The pages")
    assert "pip install ." in home and "$ sudoku solve" in home
    for page in (ROOT / "docs").glob("*.md"):
        assert len(page.read_text().split()) <= 2600, page.name


@pytest.mark.parametrize("package", ["dlx", "sudoku"])
def test_type_checkers_see_every_lazy_name(package):
    """A public name loaded on first use (``_WHERE``) is imported under ``TYPE_CHECKING`` too, so
    a user's type checker sees its real type rather than Any (checked by mypy in CI)."""
    import ast
    import importlib
    tree = ast.parse((ROOT / package / "__init__.py").read_text())
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    seen = {alias.asname or alias.name for node in ast.walk(block) if isinstance(node, ast.ImportFrom)
            for alias in node.names}
    module = importlib.import_module(package)
    lazy = module._WHERE
    submodules = {"batch", "cheapest", "cli", "engines", "formats", "matrix", "memo", "model", "problems", "search",
                  "status", "zdd"} if package == "dlx" else set()
    assert seen == set(lazy) | submodules           # dlx's submodules too: dlx.problems.queens(8) is typed
    for name, module in lazy.items():       # and each from the module that defines it
        source = next(node.module for node in ast.walk(block) if isinstance(node, ast.ImportFrom)
                      and any((a.asname or a.name) == name for a in node.names))
        assert source.lstrip(".").endswith(module.split(".")[-1]), (name, source, module)


def test_the_library_never_loads_tqdm_and_the_commands_run_without_it():
    use = ("import sys, dlx, sudoku\n"
           "from dlx import problems\n"
           "assert sudoku.solve('1...............') is not None\n"
           "assert problems.queens(6).count(jobs=2) == 4 and sudoku.count('1...............', jobs=2) == 72\n"
           "print('tqdm' in sys.modules)\n")
    assert subprocess.run([sys.executable, "-c", use], capture_output=True, text=True,
                          check=True).stdout.split() == ["False"]
    hidden = "import sys; sys.modules['tqdm'] = None  # as if the progress extra were not installed\n"
    sample = ROOT / "examples" / "top20.txt"
    for command, out in ((f"from sudoku.cli import main; sys.exit(main(['solve', '{sample}']))", 20),
                         ("from dlx.cli import main; sys.exit(main(['--count', 'queens', '6']))", 1)):
        run = subprocess.run([sys.executable, "-c", hidden + command], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert len(run.stdout.split()) == out
