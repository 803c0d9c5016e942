"""``putnam mcp``: the benchmark and the gates as MCP tools (see ``server``)."""

from putnam_solver.mcp.server import (
    HTTP_PATH,
    TRANSPORTS,
    McpSettings,
    PutnamTools,
    build_server,
    run_server,
)

__all__ = ["HTTP_PATH", "TRANSPORTS", "McpSettings", "PutnamTools", "build_server", "run_server"]
