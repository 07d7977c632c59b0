"""The compiled search of every engine keeps numba's reference counts out of its loop (see
dlx.engines.base: a search calls leaves only). Read from the LLVM IR of a fresh compile of each
search, with the argument types of a real run: a count is in the loop when its basic block lies on
a cycle of the function's control-flow graph."""
import re
import sys

import numpy as np
import pytest
from numba import njit, types
from support import components

import dlx
from dlx import engines, problems


def runs() -> list:
    """Every engine's compiled searches with each of its samples, and a registry name that runs it
    on that sample (so its search is compiled for the sample's types)."""
    found = []
    for machine in engines.machines():
        for function, args in machine.samples:
            make = getattr(problems, function)
            name = next(name for name in engines.names() if machine in engines.get(name).machines
                        and engines.get(name).for_problem(make(*args).engine_input) is machine)
            for search in machine.searches:
                found.append(pytest.param(search, name, make, args, id=f"{machine.name}-{function}"))
    for name, machine in engines.OPTIMISERS.items():
        for function, args in machine.samples:
            for search in machine.searches:
                found.append(pytest.param(search, name, getattr(problems, function), args,
                                          id=f"{machine.name}-{function}"))
    return found


def functions(ir: str) -> dict[str, dict[str, str]]:
    """The kernels defined in a module's IR (not numba's Python wrappers nor its runtime), each
    as its basic blocks by label."""
    found = {}
    for match in re.finditer(r"^define [^\n]*?@\"?([\w.$]+)\"?\(.*?^}$", ir, re.S | re.M):
        symbol = match.group(1)
        if symbol.startswith(("_ZN7cpython", "cfunc", "NRT_", "nrt_")):
            continue
        body = match.group(0).split("\n", 1)[1]
        parts = re.split(r"^([\w.\-]+):", body, flags=re.M)
        blocks = {"entry": parts[0]} if parts[0].strip() else {}
        blocks.update(zip(parts[1::2], parts[2::2]))
        found[symbol] = blocks
    return found


def calls(text: str) -> set[str]:
    return set(re.findall(r"call [^@\n]*@\"?([\w.$]+)", text))


def counts_references(text: str) -> bool:
    return re.search(r"@NRT_(incref|decref)\(", text) is not None


def on_cycles(blocks: dict[str, str]) -> set[str]:
    """The blocks that can reach themselves (a component of several, or a block that jumps to itself)."""
    edges = {b: [t for t in re.findall(r"label %([\w.\-]+)", text) if t in blocks] for b, text in blocks.items()}
    return {v for c in components(edges) if len(c) > 1 or c[0] in edges[c[0]] for v in c}


def test_the_cycle_finder_sees_a_loop_and_a_straight_line():
    blocks = {"entry": "br label %a", "a": "br i1 %c, label %b, label %d", "b": "br label %a", "d": "ret i32 0"}
    assert on_cycles(blocks) == {"a", "b"}
    assert on_cycles({"entry": "br label %x", "x": "ret void"}) == set()


@pytest.mark.parametrize("kernel, engine, make, args", runs())
def test_no_reference_count_inside_the_search_loop(kernel, engine, make, args):
    problem = make(*args)
    if engine in engines.OPTIMISERS:
        problem.cheapest()                  # compiles (or loads) the search for these types
    else:
        problem.count(engine=engine)
    fresh = njit(nogil=True)(kernel.py_func)
    assert kernel.signatures
    for signature in kernel.signatures:
        fresh.compile(signature)
    for ir in fresh.inspect_llvm().values():
        kernels = functions(ir)
        search = next(blocks for symbol, blocks in kernels.items() if "search" in symbol)
        loop = on_cycles(search)
        assert len(loop) > 10                # the search's loop was found
        counted = sorted(b for b in loop if counts_references(search[b]))
        assert not counted, f"{kernel.__name__} counts references in its loop: blocks {counted[:5]}"
        called = calls("".join(search[b] for b in loop)) & kernels.keys()
        todo = list(called)
        while todo:            # and what they call, and so on
            for symbol in calls("".join(kernels[todo.pop()].values())) & kernels.keys() - called:
                called.add(symbol)
                todo.append(symbol)
        for symbol in called:
            assert not any(counts_references(text) for text in kernels[symbol].values()), \
                f"{kernel.__name__} calls {symbol[:60]} in its loop (or a kernel it calls does), " \
                "which counts references"


def batch_runs() -> list:
    """Every engine with a batch kernel of its own, with each of its samples and a registry name
    that runs it (so the kernel is compiled for the sample's types)."""
    found = []
    for machine in engines.machines():
        kernel = getattr(sys.modules[type(machine).__module__], "solve_batch", None)
        if kernel is None:
            continue
        for function, args in machine.samples:
            make = getattr(problems, function)
            name = next(name for name in engines.names() if machine in engines.get(name).machines
                        and engines.get(name).for_problem(make(*args).engine_input) is machine)
            found.append(pytest.param(kernel, name, make, args, id=f"{machine.name}-{function}"))
    return found


def test_the_reference_count_finder_sees_an_allocating_kernel():
    def allocates(a):
        b = np.zeros(3)
        b[0] = a[0]
        return b.sum()
    fresh = njit(nogil=True)(allocates)
    fresh.compile((types.float64[::1],))
    kernels = functions(next(iter(fresh.inspect_llvm().values())))
    assert any(counts_references(text) for blocks in kernels.values() for text in blocks.values())


@pytest.mark.parametrize("kernel, engine, make, args", batch_runs())
def test_no_reference_count_in_a_batch_kernel(kernel, engine, make, args):
    """A batch kernel and every kernel it calls are compiled without numba's runtime (see
    dlx.engines.base), so a row's givens, restores and searches count no references at all."""
    problem = make(*args)
    dlx.Batch(problem, [1] * problem.n_options, engine=engine).solve([[0] * problem.n_options], 2)
    assert kernel.signatures
    fresh = njit(**{k: v for k, v in kernel.targetoptions.items() if k not in ("cache", "nopython")})(kernel.py_func)
    for signature in kernel.signatures:
        fresh.compile(signature)
    for ir in fresh.inspect_llvm().values():
        kernels = functions(ir)
        assert any("solve_batch" in symbol for symbol in kernels)
        counted = sorted(symbol[:60] for symbol, blocks in kernels.items()
                         if any(counts_references(text) for text in blocks.values()))
        assert not counted, f"{kernel.__name__} (or a kernel it calls) counts references: {counted}"
