"""Public names that load their modules on first use (PEP 562), for the packages' ``__init__``."""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable


def loader(package: str, where: dict[str, str], submodules: Iterable[str] = ()) -> tuple[Callable, Callable]:
    """``(__getattr__, __dir__)`` for ``package``: name ``n`` comes from submodule ``where[n]``
    (or from the module ``where[n]`` names in full, when it has a dot),
    imported when ``n`` is first asked for (and kept in the package's namespace after); the
    ``submodules`` load as attributes too. So importing the package costs nothing until it is used,
    and a command can set up the process (numpy's thread pool, say) before numpy and numba load."""
    submodules = frozenset(submodules)
    namespace = importlib.import_module(package).__dict__

    def __getattr__(name: str):
        if name in submodules:
            return importlib.import_module(f".{name}", package)
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module if "." in module else f".{module}", package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *where, *submodules})

    return __getattr__, __dir__
