"""Start-up: how long a command takes to answer a tiny job, beside numba's own floor.

Every row is a fresh process, timed by wall clock, in interleaved rounds (medians): a bare
``import numba``; numba's floor, ``import numba`` and one call of a trivial cached kernel (numba's
first call of any kernel imports its lowering registries, about 0.2-0.3 s, whatever the kernel);
then ``dlx queens 8 --count`` and ``sudoku solve PUZZLE`` on a warm cache. Figures are ratios and
differences measured in one run, on one machine.

    python bench/startup.py [--rounds 11]
    python -X importtime -c "import dlx.cli" 2>&1 | sort -t'|' -k2 -n | tail   # the import chain
"""
from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

PUZZLE = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
TRIVIAL = "from numba import njit\n\n\n@njit(cache=True)\ndef f(x):\n    return x + 1\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=11)
    args = parser.parse_args()
    bin_dir = pathlib.Path(sys.executable).parent
    with tempfile.TemporaryDirectory(prefix="startup-") as folder:
        pathlib.Path(folder, "trivial.py").write_text(TRIVIAL)
        rows = {
            "import numba": [sys.executable, "-c", "import numba"],
            "numba's floor: import numba, call one cached kernel": [
                sys.executable, "-c", f"import sys; sys.path.insert(0, {folder!r}); import trivial; trivial.f(1)"],
            "dlx queens 8 --count": [str(bin_dir / "dlx"), "queens", "8", "--count"],
            "sudoku solve PUZZLE": [str(bin_dir / "sudoku"), "solve", PUZZLE],
        }
        for command in rows.values():           # compile or load once: warm caches
            subprocess.run(command, capture_output=True, check=True, env=os.environ)
        times: dict[str, list[float]] = {name: [] for name in rows}
        for _ in range(args.rounds):
            for name, command in rows.items():
                start = time.perf_counter()
                subprocess.run(command, capture_output=True, check=True)
                times[name].append(time.perf_counter() - start)
    base = statistics.median(times["import numba"])
    print("| command | median wall s | over `import numba` |")
    print("|---|---|---|")
    for name, values in times.items():
        m = statistics.median(values)
        print(f"| {name} | {m:.3f} | +{m - base:.3f} |")


if __name__ == "__main__":
    main()
