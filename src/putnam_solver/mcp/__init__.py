"""``putnam mcp``: the benchmark and the gates as MCP tools (see ``server``).

The package imports nothing itself: ``early_initialize`` and ``stdio`` run before the MCP SDK is
imported (``putnam mcp`` answers ``initialize`` meanwhile), and ``server``, which imports it, is loaded
when one of its names is first asked for (``run_server`` from ``transports``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from putnam_solver.mcp.server import (
        HTTP_PATH,
        TRANSPORTS,
        McpSettings,
        PutnamTools,
        build_server,
    )
    from putnam_solver.mcp.transports import run_server

__all__ = ["HTTP_PATH", "TRANSPORTS", "McpSettings", "PutnamTools", "build_server", "run_server"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        module = "transports" if name == "run_server" else "server"
        return getattr(importlib.import_module(f"putnam_solver.mcp.{module}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
