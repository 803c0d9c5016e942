"""How long ``putnam mcp`` takes to answer ``initialize`` (goal: well under a second), beside a bare
interpreter (``python -c pass``), the import of the command's module (``python -c "import
putnam_solver.cli.services"``: Typer, the options every command shares, the provers), which the answer
waits for, and the MCP SDK's own import (``python -c "import mcp"``, which loads the SDK's server side
too: its client imports the in-memory transport, which imports the server), which it no longer waits
for: over stdio the command answers ``initialize`` itself before it imports the SDK
(``putnam_solver/mcp/early_initialize.py``) and hands the session to the SDK afterwards.

Usage: python bench/mcp_startup.py [RUNS] [PROVER]   (from the checkout, with the benchmark data found as
usual; RUNS rounds, default 9; PROVER default rocq)

Each round runs the four once, in turn, so that a change in the machine's load falls on all alike:
the three ``python -c`` from process start to exit, ``putnam mcp --prover PROVER`` (stdio) from process
start to its answer to ``initialize``, sent at once. Prints per contender the median, fastest and slowest
wall time and the median CPU time (user + system, Linux; it moves less with the load than the wall time
does), all in milliseconds, and each one's time less the SDK's import, median over the rounds (negative:
that much sooner than the SDK alone). The sources are compiled first (``compileall``, as
``scripts/install.sh`` does), so that no run pays for compiling them, whatever
``PYTHONDONTWRITEBYTECODE`` says.
"""

from __future__ import annotations

import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
}
Sample = tuple[float, float]
"""(wall, CPU) milliseconds of one run."""


def cpu_ms(pid: int) -> float:
    """CPU time so far of a running process and its children waited for (``/proc/PID/stat``), in ms."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime (fields 14-17 of proc(5))
    return 1000 * ticks / os.sysconf("SC_CLK_TCK")


def initialize_ms(argv: list[str], env: dict[str, str]) -> Sample:
    """Process start to the answer of ``initialize``, and the CPU time the server took to get there."""
    start = time.perf_counter()
    with subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as p:
        assert p.stdin is not None and p.stdout is not None and p.stderr is not None
        p.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
        p.stdin.flush()
        answer = p.stdout.readline()
        elapsed = time.perf_counter() - start
        cpu = cpu_ms(p.pid)
        p.stdin.close()
        errors = p.stderr.read()
        p.wait(timeout=60)
    if b'"result"' not in answer:
        raise SystemExit(f"no initialize answer: {answer[:300]!r}\n{errors[-2000:].decode(errors='replace')}")
    return 1000 * elapsed, cpu


def exit_ms(argv: list[str], env: dict[str, str]) -> Sample:
    """Process start to exit, and the process's CPU time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return 1000 * elapsed, 1000 * cpu


def measure(runs: int, contenders: dict[str, Callable[[], Sample]]) -> dict[str, list[Sample]]:
    """``runs`` rounds of every contender in turn, after one unmeasured round (it fills the OS's file
    cache, as a client's second start finds it)."""
    for run in contenders.values():
        run()
    samples: dict[str, list[Sample]] = {name: [] for name in contenders}
    for _ in range(runs):
        for name, run in contenders.items():
            samples[name].append(run())
    return samples


def report(samples: dict[str, list[Sample]], floor: str) -> None:
    """The table of ``samples``, and each contender's median excess over ``floor`` round by round."""
    width = max(len(name) for name in samples)
    print(f"{'':{width}}  median  fastest  slowest     CPU  over {floor}")
    for name, runs in samples.items():
        wall, cpu = [w for w, _ in runs], [c for _, c in runs]
        over = statistics.median(w - f for (w, _), (f, _) in zip(runs, samples[floor], strict=True))
        print(
            f"{name:{width}}  {statistics.median(wall):6.0f}  {min(wall):7.0f}  {max(wall):7.0f}"
            f"  {statistics.median(cpu):6.0f}  {over:+6.0f}"
        )


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    prover = sys.argv[2] if len(sys.argv) > 2 else "rocq"
    compileall.compile_dir(REPO / "src", quiet=1)
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    python = sys.executable
    server = [python, "-m", "putnam_solver", "mcp", "--prover", prover]
    sdk = 'python -c "import mcp"'
    command = "import putnam_solver.cli.services"
    samples = measure(
        runs,
        {
            "python -c pass": lambda: exit_ms([python, "-c", "pass"], env),
            f'python -c "{command}"': lambda: exit_ms([python, "-c", command], env),
            sdk: lambda: exit_ms([python, "-c", "import mcp"], env),
            f"putnam mcp --prover {prover}: initialize": lambda: initialize_ms(server, env),
        },
    )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, {runs} rounds, milliseconds")
    report(samples, sdk)


if __name__ == "__main__":
    main()
