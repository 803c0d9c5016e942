"""How much does the sandbox cost per tool run? Runs small commands bare and sandboxed; prints medians.

Usage: python bench/sandbox_overhead.py [N]   (default N=30 runs per cell)

"bare" is subprocess.run with nothing around it; "caps only" is run_sandboxed(unsafe_no_sandbox=True)
(rlimits, cgroup, output pumping, no bubblewrap); "bwrap only" is subprocess.run of the bubblewrap
command line that run_sandboxed builds (with the uid drop when root, without the synthesized /etc
files), without the limit wrapper or the cgroup (the floor the isolation itself costs); "sandboxed" is
the full run. The cells of one command are measured in
interleaved rounds, so that the load of a shared machine falls on all of them alike.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from putnam_solver.core.sandbox import DEFAULT_PATH, SandboxLimits, run_sandboxed, sandbox_status
from putnam_solver.core.sandbox.command import Box, bwrap_argv, inner_argv
from putnam_solver.core.sandbox.host import find_tools, identity_for

COMMANDS = {
    "/bin/true": ["/bin/true"],
    "python -c": [sys.executable, "-I", "-c", "print(sum(range(10000)))"],
}
READONLY = sorted({Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()})


def medians(runs: Sequence[Callable[[], object]], n: int) -> list[float]:
    """Median wall seconds of each callable over ``n`` interleaved rounds, after one warm-up round."""
    samples: list[list[float]] = [[] for _ in runs]
    for round_number in range(n + 1):
        for run, times in zip(runs, samples, strict=True):
            start = time.perf_counter()
            run()
            if round_number:
                times.append(time.perf_counter() - start)
    return [statistics.median(times) for times in samples]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    available, why = sandbox_status()
    print(f"sandbox: {why}" if available else f"sandbox unavailable: {why}")
    bwrap = shutil.which("bwrap", path=DEFAULT_PATH)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)

        def bare(argv: list[str]) -> Callable[[], object]:
            return lambda: subprocess.run(argv, cwd=workdir, capture_output=True, check=True)

        def wrapped(argv: list[str], unsafe: bool) -> Callable[[], object]:
            return lambda: run_sandboxed(argv, workdir=workdir, readonly=READONLY, unsafe_no_sandbox=unsafe)

        print(f"median of {n} runs each, in ms, and ratios to bare")
        columns = ("bare", "caps only", "bwrap only", "sandboxed", "caps x", "bwrap x", "sandbox x")
        print(f"{'command':<12} " + " ".join(f"{c:>10}" for c in columns))
        for name, argv in COMMANDS.items():
            runs = [bare(argv), wrapped(argv, True)]
            if available and bwrap is not None:
                box = Box(identity_for(True), (), (), {}, SandboxLimits().disk_bytes)
                isolated = bwrap_argv(bwrap, inner_argv(find_tools(), box, argv), workdir, READONLY, box)
                runs += [bare(isolated), wrapped(argv, False)]
            times = medians(runs, n) + [float("nan")] * (4 - len(runs))
            base = times[0]
            cells = [t * 1e3 for t in times] + [t / base for t in times[1:]]
            print(f"{name:<12} " + " ".join(f"{c:>10.2f}" for c in cells))


if __name__ == "__main__":
    main()
