"""How long ``putnam mcp`` takes to answer ``initialize`` (goal: under a second), beside the MCP SDK's own
import, which bounds it from below.

Usage: python bench/mcp_startup.py [RUNS]   (from the checkout, with the benchmark data found as usual)

Each run starts ``putnam mcp --prover rocq`` over stdio, sends ``initialize`` at once and measures until
its answer arrives; then the same number of bare ``import mcp.server.mcpserver`` in a fresh interpreter.
Prints the median and the worst of each, and the machine's load (the numbers move with it).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
}


def initialize_seconds(env: dict[str, str]) -> float:
    """Process start to the answer of ``initialize``."""
    start = time.monotonic()
    argv = [sys.executable, "-m", "putnam_solver", "mcp", "--prover", "rocq"]
    with subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env) as p:
        assert p.stdin is not None and p.stdout is not None
        p.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
        p.stdin.flush()
        answer = p.stdout.readline()
        elapsed = time.monotonic() - start
        p.stdin.close()
        p.wait(timeout=60)
    if b'"result"' not in answer:
        raise SystemExit(f"no initialize answer: {answer[:300]!r}")
    return elapsed


def sdk_import_seconds(env: dict[str, str]) -> float:
    start = time.monotonic()
    subprocess.run([sys.executable, "-c", "import mcp.server.mcpserver"], env=env, check=True)
    return time.monotonic() - start


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    served = [initialize_seconds(env) for _ in range(runs)]
    bare = [sdk_import_seconds(env) for _ in range(runs)]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, {runs} runs each")
    print(f"putnam mcp initialize: median {statistics.median(served):.2f} s, worst {max(served):.2f} s")
    print(f"bare MCP SDK import:   median {statistics.median(bare):.2f} s, worst {max(bare):.2f} s")


if __name__ == "__main__":
    main()
