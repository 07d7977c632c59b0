"""A toy engine, registered at run time: a pytest plugin (``-p toy_engine``) that tests/test_registry.py
loads into a run of the contract and the kernel tests. A thin subclass of DLX1 with a name, facts
and a tunable of its own, and no other line of the project changed."""
from dlx import engines
from dlx.engines.base import Single
from dlx.engines.dlx1 import DLX1

#: The toy's own tunable (it reads it nowhere: the coverage run must shrink it all the same).
TOY_POLL = 7


class Toy(Single, DLX1):
    name = "toy"
    summary = "a toy: DLX1 under a name of its own"
    counts = DLX1.counts
    refuses = DLX1.refuses
    tunables = {**DLX1.tunables, f"{__name__}:TOY_POLL": 1}
    samples = (("queens", (4,)),)


def pytest_configure(config) -> None:
    engines.ENGINES["toy"] = Toy()
