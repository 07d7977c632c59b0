"""The solvers ``compare.py`` runs, each behind the same three calls, used as their own READMEs use them.

- ``sudoku(puzzles, limit, deadline)``: a ``(solution, count)`` pair per puzzle, counting at most
  ``limit`` solutions (``count`` 0 and solution None when there is none);
- ``counter(problem)``: from a :class:`dlx.ExactCover`, built outside the timing, a function
  ``deadline -> number of solutions``, or None when the solver cannot state that problem (colours,
  multiplicities);
- ``startup(puzzle)``: import the library and solve one puzzle, for a fresh process to time.

Solvers driven from Python check ``deadline`` (a ``time.process_time()`` value) as they go and raise
:class:`OverBudget` past it, so a pure-Python search cannot stall the run. Every library is imported
inside the calls: a missing one only empties its column, and ``startup`` times its import.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import metadata

from dlx import engines

Answer = tuple[str | None, int]


class OverBudget(Exception):
    """The solver ran past its time budget."""


@dataclass
class Timed:
    """An answer with the times it took, for a job timed where it ran (another process, or after
    an untimed set-up)."""
    answer: object
    cpu: float
    wall: float


def take(solutions: Iterable, limit: int, deadline: float) -> list:
    """At most ``limit`` of ``solutions``, or :class:`OverBudget` once the deadline has passed."""
    found = []
    for solution in solutions:
        found.append(solution)
        if len(found) == limit:
            break
        if time.process_time() > deadline:
            raise OverBudget
    return found


def candidates(puzzle: str) -> list[tuple[tuple[int, int], tuple[int, int, int, int]]]:
    """The options of a 9x9 puzzle as users of generic solvers write them: one per possible
    (cell, digit), covering cell, row-digit, column-digit and box-digit; a given leaves only
    its own digit in its cell."""
    options = []
    for cell, ch in enumerate(puzzle):
        r, c = divmod(cell, 9)
        b = r // 3 * 3 + c // 3
        for d in range(9) if ch in ".0" else (int(ch) - 1,):
            options.append(((cell, d), (cell, 81 + r * 9 + d, 162 + c * 9 + d, 243 + b * 9 + d)))
    return options


def grid(chosen: Iterable[tuple[int, int]]) -> str:
    """The 81-character line of a set of (cell, digit) choices."""
    cells = ["0"] * 81
    for cell, d in chosen:
        cells[cell] = str(d + 1)
    return "".join(cells)


def answer(found: list, decode: Callable[[object], Iterable[tuple[int, int]]]) -> Answer:
    return (grid(decode(found[0])), len(found)) if found else (None, 0)


# --- this project --------------------------------------------------------------------------------

def dlx_batch(puzzles: list[str], limit: int, deadline: float) -> list[Answer]:
    import sudoku
    return [(r.solution, r.count) for r in sudoku.solve_all(puzzles, limit=limit, jobs=1)]


def dlx_per_call(puzzles: list[str], limit: int, deadline: float) -> list[Answer]:
    import sudoku
    results = [next(sudoku.solve_all([p], limit=limit, jobs=1)) for p in puzzles]
    return [(r.solution, r.count) for r in results]


def dlx_counter(problem) -> Callable[[float], int]:
    problem.count(max_nodes=0)      # builds the engine's structure and loads its kernel, untimed
    return lambda deadline: problem.count()


def engine_sudoku(engine: str) -> Callable[[list[str], int, float], list[Answer]]:
    """Sudoku through dlx.Batch with one engine by name (sudoku.solve_all takes the default)."""
    def solve(puzzles: list[str], limit: int, deadline: float) -> list[Answer]:
        import dlx
        from sudoku import encode
        from sudoku.grid import parse_lines81, texts
        batch = _ENGINE_BATCHES.get(engine)
        if batch is None:
            batch = _ENGINE_BATCHES[engine] = dlx.Batch(encode.problem(3), [9] * 81, engine=engine)
        grid, ok = parse_lines81(puzzles)
        assert ok.all()
        result = batch.solve(grid, limit)
        return [(s if c else None, c) for s, c in zip(texts(result.answers), result.counts.tolist())]
    return solve


_ENGINE_BATCHES: dict = {}


def engine_counter(engine: str) -> Callable:
    """Counting with one engine by name; None where it cannot take the problem (cells: bounds;
    compact: bounds and its limits)."""
    def counter(problem) -> Callable[[float], int] | None:
        if engines.get(engine).machines and all(m.refusal(problem.engine_input) for m in
                                               engines.get(engine).machines):
            return None
        problem.count(max_nodes=0, engine=engine)
        return lambda deadline: problem.count(engine=engine)
    return counter


def dlx_startup(puzzle: str) -> str:
    import sudoku
    return sudoku.solve(puzzle)


# --- xcover: numba, Knuth's dancing cells --------------------------------------------------------

def xcover_sudoku(puzzles: list[str], limit: int, deadline: float) -> list[Answer]:
    from xcover import covers
    out = []
    for puzzle in puzzles:
        options = candidates(puzzle)
        found = take(covers([items for _, items in options], primary=range(324)), limit, deadline)
        out.append(answer(found, lambda s, o=options: (o[k][0] for k in s)))
    return out


def xcover_counter(problem) -> Callable[[float], int] | None:
    """xcover has colours (as ``"item:colour"`` strings), not multiplicities."""
    from xcover.dancing_cells import algorithm_c
    from xcover.solvers import input_as_arrays
    if problem.bounds is not None:
        return None
    options = [[f"{e[0]}:{e[1]}" if isinstance(e, tuple) else e for e in problem.option(k)]
               for k in range(problem.n_options)]
    arrays = input_as_arrays(options, primary=list(problem.items[:problem.n_primary]),
                             secondary=list(problem.items[problem.n_primary:]),
                             colored=problem.option_colours is not None)
    return lambda deadline: sum(1 for _ in algorithm_c(*arrays))


# --- miniexact: C, Knuth's Algorithms X, C and M ---------------------------------------------------

def miniexact_sudoku(puzzles: list[str], limit: int, deadline: float) -> list[Answer]:
    import miniexact
    out = []
    for puzzle in puzzles:
        options = candidates(puzzle)
        x = miniexact.miniexacts_x()
        ids = [x.primary(str(i)) for i in range(324)]
        for _, items in options:
            for i in items:
                x.add(ids[i])
            x.add(0)
        found = []
        while len(found) < limit and x.solve() == 10:      # 10: a solution was found
            found.append(list(x.selected_options()))
        out.append(answer(found, lambda s, o=options: (o[k - 1][0] for k in s)))   # options count from 1
    return out


def miniexact_counter(problem):
    """Algorithm X for a plain problem, C with colours, M with multiplicities. A problem is solved
    once per instance, so each run builds its own (untimed: the run times itself)."""
    import miniexact

    def build():
        kind = (miniexact.miniexacts_m if problem.bounds is not None else
                miniexact.miniexacts_c if problem.option_colours is not None else miniexact.miniexacts_x)
        x = kind()
        ids = {}
        for i, name in enumerate(problem.items[:problem.n_primary]):
            ids[name] = (x.primary(str(name)) if problem.bounds is None else
                         x.primary(str(name), *problem.bounds[i].tolist()))
        for name in problem.items[problem.n_primary:]:
            ids[name] = x.secondary(str(name))
        colours = {}
        for k in range(problem.n_options):
            for e in problem.option(k):
                if isinstance(e, tuple):
                    if e[1] not in colours:
                        colours[e[1]] = x.color(str(e[1]))
                    x.add(ids[e[0]], colours[e[1]])
                else:
                    x.add(ids[e])
            x.add(0)
        return x

    def count(deadline: float):
        x = build()
        cpu, wall = time.process_time(), time.perf_counter()
        n = 0
        while x.solve() == 10:
            n += 1
            if n & 0xFFF == 0 and time.process_time() > deadline:
                raise OverBudget
        return Timed(n, time.process_time() - cpu, time.perf_counter() - wall)
    return count


# --- exact-cover: C Dancing Links on a dense numpy matrix ----------------------------------------

def exact_cover_sudoku(puzzles: list[str], limit: int, deadline: float) -> list[Answer]:
    import exact_cover
    import numpy as np
    out = []
    for puzzle in puzzles:
        options = candidates(puzzle)
        matrix = np.zeros((len(options), 324), dtype=bool)
        for k, (_, items) in enumerate(options):
            matrix[k, items] = True
        try:
            if limit == 1:
                found = [exact_cover.get_exact_cover(matrix)]
            elif limit == 2:  # get_all_solutions makes room for max_count solutions: only for small limits
                found = sorted(exact_cover.get_all_solutions(matrix, max_count=2))
            else:
                count = int(exact_cover.get_solution_count(matrix))
                found = [exact_cover.get_exact_cover(matrix)] * min(count, limit) if count else []
        except exact_cover.error.NoSolution:
            found = []
        out.append(answer(found, lambda s, o=options: (o[k][0] for k in s)))
    return out


def exact_cover_counter(problem) -> Callable[[float], int] | None:
    """exact-cover has no secondary items: each gets a slack option of its own (the usual way),
    which keeps the number of solutions. No colours, no multiplicities."""
    import exact_cover
    import numpy as np
    if problem.option_colours is not None or problem.bounds is not None:
        return None
    matrix = np.zeros((problem.n_options + problem.n_secondary, problem.n_items), dtype=bool)
    index = {name: j for j, name in enumerate(problem.items)}
    for k in range(problem.n_options):
        matrix[k, [index[name] for name in problem.option(k)]] = True
    for s in range(problem.n_secondary):
        matrix[problem.n_options + s, problem.n_primary + s] = True
    return lambda deadline: int(exact_cover.get_solution_count(matrix))


# --- algorithm-x: pure-Python Dancing Links with node objects ------------------------------------

def algorithm_x_sudoku(puzzles: list[str], limit: int, deadline: float) -> list[Answer]:
    from algorithm_x import AlgorithmX
    out = []
    for puzzle in puzzles:
        solver = AlgorithmX(324)
        for tag, items in candidates(puzzle):
            solver.appendRow(items, tag)
        out.append(answer(take(solver.solve(), limit, deadline), lambda s: s))
    return out


def algorithm_x_counter(problem) -> Callable[[float], int]:
    """Like exact-cover, algorithm-x knows only primary items: slack options again."""
    from algorithm_x import AlgorithmX
    if problem.option_colours is not None or problem.bounds is not None:
        return None
    index = {name: j for j, name in enumerate(problem.items)}

    def count(deadline: float) -> int:
        solver = AlgorithmX(problem.n_items)  # built afresh: an abandoned search leaves it covered
        for k in range(problem.n_options):
            solver.appendRow([index[name] for name in problem.option(k)])
        for s in range(problem.n_primary, problem.n_items):
            solver.appendRow([s])
        return len(take(solver.solve(), 1 << 62, deadline))
    return count


# --- Algorithm X on a dict of sets, in pure Python (bench/dict_of_sets.py) ------------------------

def dict_of_sets_sudoku(puzzles: list[str], limit: int, deadline: float) -> list[Answer]:
    from dict_of_sets import solutions
    out = []
    for puzzle in puzzles:
        options = dict(candidates(puzzle))
        out.append(answer(take(solutions(options, range(324)), limit, deadline), lambda s: s))
    return out


def dict_of_sets_counter(problem) -> Callable[[float], int] | None:
    from dict_of_sets import solutions
    if problem.option_colours is not None or problem.bounds is not None:
        return None
    options = {k: problem.option(k) for k in range(problem.n_options)}
    primary = problem.items[:problem.n_primary]
    return lambda deadline: len(take(solutions(options, primary), 1 << 62, deadline))


@dataclass(frozen=True)
class Rival:
    name: str                   # column heading
    package: str | None         # distribution whose version is reported (None: in bench/)
    kind: str                   # how it runs
    sudoku: Callable[[list[str], int, float], list[Answer]]
    counter: Callable | None    # None: sudoku only
    numba: bool                 # compiles on first use (start-up with an empty cache differs)
    leaks: bool = False         # a search stopped early leaks its state: each sudoku run gets a fresh process


RIVALS = [
    Rival("dlx", "numba-dlx", "numba, this project: sudoku.solve_all", dlx_batch, dlx_counter, True),
    Rival("dlx, one call each", "numba-dlx", "numba, this project: one call per puzzle", dlx_per_call, None, True),
    *(Rival(f"dlx engine={name}", "numba-dlx", f"numba, this project by engine name: {family.summary}",
            engine_sudoku(name), engine_counter(name), True)
      # an engine in the sudoku and generic tables batches (domain consistency has a section of its own)
      for name, family in engines.ENGINES.items() if any(m.batches for m in family.machines)),
    # xcover's search is a numba generator; numba never frees one left unfinished (numba issues #1278,
    # #6993), as at limit 1: about 75 kB each, and the process slows as they pile up
    Rival("xcover", "xcover", "numba, Knuth's dancing cells", xcover_sudoku, xcover_counter, True, leaks=True),
    Rival("miniexact", "miniexact", "C, Knuth's Algorithms X, C (colours) and M (multiplicities)",
          miniexact_sudoku, miniexact_counter, False),
    Rival("exact-cover", "exact-cover", "C Dancing Links, dense numpy matrix", exact_cover_sudoku,
          exact_cover_counter, False),
    Rival("algorithm-x", "algorithm-x", "pure-Python Dancing Links", algorithm_x_sudoku,
          algorithm_x_counter, False),
    Rival("dict of sets", None, "pure-Python Algorithm X, bench/dict_of_sets.py", dict_of_sets_sudoku,
          dict_of_sets_counter, False),
]


def version(rival: Rival) -> str:
    if rival.package is None:
        return "bench/"
    try:
        return metadata.version(rival.package)
    except metadata.PackageNotFoundError:
        return "not installed"


def installed(rival: Rival) -> bool:
    return version(rival) != "not installed"


def startup(name: str, puzzle: str) -> str | None:
    """What a fresh process does for the start-up row: import the solver, solve one puzzle."""
    if name.startswith("dlx"):
        return dlx_startup(puzzle)
    rival = next(r for r in RIVALS if r.name == name)
    return rival.sudoku([puzzle], 1, float("inf"))[0][0]
