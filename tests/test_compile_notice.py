"""The commands say that numba is compiling their kernels when it does, and only then: tried with a
real empty cache, a real warm one and a real busy machine, never a mock or a clock."""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator

from support import EXAMPLES

from dlx.commands import NOTICE

#: A command run under a listener registered before the command's own, which marks on stderr where
#: each compile starts and ends, so the test sees where the notice falls among them.
MARKED = """
import sys
from numba.core import event

class Marks(event.Listener):
    def on_start(self, _):
        print("compile starts", file=sys.stderr, flush=True)

    def on_end(self, _):
        print("compile ends", file=sys.stderr, flush=True)

event.register("numba:compile", Marks())
from {module}.cli import exit_now, main
exit_now(lambda: main({argv!r}))
"""


def run(module: str, argv: list[str], env: dict[str, str] | None = None, marked: bool = False):
    code = MARKED.format(module=module, argv=argv) if marked else (
        f"from {module}.cli import exit_now, main; exit_now(lambda: main({argv!r}))")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                          env=dict(os.environ, **(env or {})), timeout=600)


@contextlib.contextmanager
def busy_loops(n: int = 2) -> Iterator[None]:
    """``n`` processes spinning beside the test: a loaded machine, where loading a cache is slow."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def test_an_empty_cache_is_announced_once_as_the_compile_starts_then_never(tmp_path):
    cache = {"NUMBA_CACHE_DIR": str(tmp_path)}
    cold = run("dlx", ["queens", "6", "--count"], cache, marked=True)
    assert (cold.returncode, cold.stdout) == (0, "4\n")
    lines = cold.stderr.splitlines()
    notice = NOTICE.format(prog="dlx")
    assert lines.count(notice) == 1
    assert lines[:2] == ["compile starts", notice]      # said when the first compile starts
    assert lines[-1] == "compile ends" and set(lines) == {"compile starts", "compile ends", notice}
    with busy_loops():
        warm = run("dlx", ["queens", "6", "--count"], cache, marked=True)
    assert (warm.returncode, warm.stdout, warm.stderr) == (0, "4\n", "")      # loaded: nothing compiled


def test_a_warm_cache_on_a_busy_machine_is_never_announced():
    commands = [("dlx", ["queens", "8", "--count"]), ("sudoku", ["rate", str(EXAMPLES / "top20.txt")])]
    for module, argv in commands:
        run(module, argv)                  # compiles what the cache lacks, if anything
    with busy_loops():
        for module, argv in commands:
            warm = run(module, argv, marked=True)
            assert warm.returncode == 0 and warm.stdout
            assert warm.stderr == "", (module, argv)
