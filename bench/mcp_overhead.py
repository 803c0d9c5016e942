"""What does MCP add to a tool call? ``putnam mcp``'s tools called in process vs through the MCP SDK's
client over stdio and over streamable HTTP (loopback); prints medians per call and the ratios.

Usage: python bench/mcp_overhead.py [N]   (default N=10 calls per cell; needs coqc and bubblewrap; run
from the repository root: it starts the servers as the tests do, tests/integration/mcp_driver.py)

``get_statement`` does no gate work: its time through a transport is the protocol's cost per call.
``check`` (fast profile, warm session after the first call) and ``verify`` (full profile: coqc, the
trusted check, coqchk) on a Rocq sample show what that cost is beside the gates' (on a loaded
machine the gates' own spread is larger than it). Each cell runs its
calls in one session (one server process per transport), after one warm-up call. The SDK's client
negotiates the newest protocol by default (``mode="auto"``); "http (legacy)" is the same server with
the client forced to the initialize handshake and its session (``mode="legacy"``), as older clients talk.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.mcp import McpSettings, PutnamTools
from putnam_solver.mcp.transports import default_pool

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.integration.mcp_driver import http_server, keyed_client, mcp_argv, server_env  # noqa: E402

SAMPLES = REPO / "samples" / "rocq" / "benchmark.jsonl"
PROBLEM = "sample_even_square"
PROOF = (SAMPLES.parent / "proofs" / f"{PROBLEM}.v").read_text()
CALLS: dict[str, dict[str, Any]] = {
    "get_statement": {"problem": PROBLEM},
    "check": {"problem": PROBLEM, "proof": PROOF},
    "verify": {"problem": PROBLEM, "proof": PROOF},
}
Call = Callable[[str, dict[str, Any]], Awaitable[object]]


async def timed(call: Call, n: int) -> dict[str, float]:
    """Median seconds per call of each tool, after one warm-up call."""
    medians: dict[str, float] = {}
    for tool, arguments in CALLS.items():
        await call(tool, arguments)
        times = []
        for _ in range(n):
            start = time.perf_counter()
            await call(tool, arguments)
            times.append(time.perf_counter() - start)
        medians[tool] = statistics.median(times)
    return medians


async def in_process(n: int) -> dict[str, float]:
    settings = McpSettings(get_prover("rocq"), load_benchmark(SAMPLES))
    pool = default_pool()
    tools = PutnamTools(settings, pool, log=lambda _: None)
    try:

        async def call(tool: str, arguments: dict[str, Any]) -> object:
            method: Callable[..., Any] = getattr(tools, tool)
            result = method(**arguments)
            return await result if tool != "get_statement" else result

        return await timed(call, n)
    finally:
        pool.close()


async def through(server: Any, n: int, mode: str = "auto") -> dict[str, float]:
    opened = (
        keyed_client(server, 600, mode=mode)
        if isinstance(server, str)
        else Client(server, read_timeout_seconds=600, mode=mode)
    )
    async with opened as client:

        async def call(tool: str, arguments: dict[str, Any]) -> object:
            result = await client.call_tool(tool, arguments)
            if result.is_error:
                raise RuntimeError(f"{tool}: {result.content}")
            return result

        return await timed(call, n)


def main() -> None:
    from mcp.client.stdio import StdioServerParameters

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    args = ("--prover", "rocq", "--benchmark", str(SAMPLES))
    command, *rest = mcp_argv(*args)
    cells = {"in process": anyio.run(in_process, n)}
    stdio = StdioServerParameters(command=command, args=rest, env=server_env(), cwd=str(REPO))
    cells["stdio"] = anyio.run(through, stdio, n)
    with http_server(*args) as served:
        cells["http"] = anyio.run(through, served.url, n)
        cells["http (legacy)"] = anyio.run(through, served.url, n, "legacy")
    print(f"median ms per call over {n} calls (in brackets: added to the call in process)")
    print(f"{'tool':15}" + "".join(f"{name:>24}" for name in cells))
    for tool in CALLS:
        base = cells["in process"][tool]
        row = "".join(f"{cell[tool] * 1000:>14.1f} ({(cell[tool] - base) * 1000:+7.1f})" for cell in cells.values())
        print(f"{tool:15}{row}")


if __name__ == "__main__":
    main()
