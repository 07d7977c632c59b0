import signal
from pathlib import Path

import numba
import pytest
from hypothesis import HealthCheck, settings
from support import SHARED_DLX

from dlx import batch, engines, memo, search

#: No hypothesis check reads a clock: a deadline per example, or the health check on how long
#: drawing examples takes, would fail a test on a loaded machine for the machine's sake.
NO_CLOCK = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
#: The default, what the README's command and CI run: every test draws the same examples on every
#: run (seeded from the test itself, no example database), so that whether a commit passes depends
#: on the commit alone. Each test keeps its own ``max_examples``.
settings.register_profile("fixed", derandomize=True, database=None, **NO_CLOCK)
#: Random exploration, for developers (``pytest --hypothesis-profile explore``): new examples on
#: each run, failures remembered in .hypothesis/ and replayed first. bench/fuzz.py explores further.
settings.register_profile("explore", **NO_CLOCK)
settings.load_profile("fixed")


@pytest.fixture(autouse=True, scope="session")
def ctrl_c_raises():
    """Python's Ctrl-C handler, whatever the suite inherited: a shell that starts it in the
    background (``pytest &``, a CI script's job) ignores SIGINT, and Python and every command the
    tests start then inherit the ignoring, so an interrupt (``_thread.interrupt_main``, a real
    SIGINT to a child) would do nothing. A handled signal is reset to the default in a child."""
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, inherited)


@pytest.fixture
def shared_dlx() -> Path:
    """Knuth-format files beside the project (../shared); the test skips when they are absent."""
    if not SHARED_DLX.is_dir():
        pytest.skip("../shared/data/dlx is not present")
    return SHARED_DLX


@pytest.fixture(autouse=True, scope="session")
def small_tunables():
    """With the kernels run as plain Python (NUMBA_DISABLE_JIT=1, the coverage run), make the
    tunables tiny, so that small problems take every branch: the item choice's flat pass and its
    capped keys, polling for a stop, and kernels coming back for more work. Compiled kernels froze
    the real values, and nodes and updates must be the same either way."""
    if not numba.config.DISABLE_JIT:
        yield
        return
    patch = pytest.MonkeyPatch()
    for module, name, tiny in engines.tunables():
        patch.setattr(module, name, tiny)
    patch.setattr(search, "WORK", 5)
    patch.setattr(memo, "WORK", 3)
    patch.setattr(memo, "FIRST_NODES", 3)
    patch.setattr(memo, "FIRST_STATES", 1)
    patch.setattr(batch, "WORK", 5)
    yield
    patch.undo()
