"""How much does the sandbox cost per tool run? Runs small commands bare and sandboxed; prints medians.

Usage: python bench/sandbox_overhead.py [N]   (default N=30 runs per cell)

"bare" is subprocess.run with nothing around it; "caps only" is run_sandboxed(unsafe_no_sandbox=True)
(rlimits, cgroup, output pumping, no bubblewrap); "sandboxed" is the full bubblewrap run.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from putnam_solver.sandbox import run_sandboxed, sandbox_status

COMMANDS = {
    "/bin/true": ["/bin/true"],
    "python -c": [sys.executable, "-I", "-c", "print(sum(range(10000)))"],
}
READONLY = sorted({Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()})


def median_seconds(run: Callable[[], object], n: int) -> float:
    """Median wall time of ``n`` calls after one warm-up call."""
    run()
    times = []
    for _ in range(n):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    available, why = sandbox_status()
    print(f"sandbox: {why}" if available else f"sandbox unavailable: {why}")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)

        def bare(argv: list[str]) -> Callable[[], object]:
            return lambda: subprocess.run(argv, cwd=workdir, capture_output=True, check=True)

        def wrapped(argv: list[str], unsafe: bool) -> Callable[[], object]:
            return lambda: run_sandboxed(argv, workdir=workdir, readonly=READONLY, unsafe_no_sandbox=unsafe)

        print(f"median of {n} runs each")
        columns = ("bare ms", "caps ms", "sandbox ms", "caps x", "sandbox x")
        print(f"{'command':<12} " + " ".join(f"{c:>10}" for c in columns))
        for name, argv in COMMANDS.items():
            t_bare = median_seconds(bare(argv), n)
            t_caps = median_seconds(wrapped(argv, True), n)
            t_box = median_seconds(wrapped(argv, False), n) if available else float("nan")
            print(
                f"{name:<12} {t_bare * 1e3:>10.2f} {t_caps * 1e3:>10.2f} {t_box * 1e3:>10.2f} "
                f"{t_caps / t_bare:>10.2f} {t_box / t_bare:>10.2f}"
            )


if __name__ == "__main__":
    main()
