"""``putnam mcp`` and ``putnam serve``: the gates as MCP tools and as an HTTP service."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from putnam_solver.benchmark_files import require_track
from putnam_solver.cli._app import app, out
from putnam_solver.cli._options import (
    GATE_DEFAULTS,
    AllowRecursionOpt,
    BenchmarkOpt,
    KernelsOpt,
    MaxCandidateBytesOpt,
    MemoryMbOpt,
    PinOpt,
    ProverOpt,
    RayCpusOpt,
    RayMemoryOpt,
    RayOpt,
    RayRetriesOpt,
    TimeoutOpt,
    ToolchainOpt,
    ToolOpt,
    benchmark_provers,
    input_errors,
    load_benchmark,
    parse_kernels,
    provers_option,
    ray_settings,
)
from putnam_solver.clikit import collector_paused
from putnam_solver.cluster.settings import RaySettings
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import DEFAULT_MAX_CANDIDATE_BYTES, Track
from putnam_solver.extras import installed
from putnam_solver.verifier.options import GateFlags, tool_locations

if TYPE_CHECKING:
    from putnam_solver.api_keys import KeyRing
    from putnam_solver.mcp.stdio import EarlyStdio


NoSelftestOpt = Annotated[
    bool,
    typer.Option(
        "--no-selftest",
        help="Do not run the selftest at start when this toolchain has none that passed (the server is "
        "then not ready, and verifies nothing, until `putnam selftest` passes).",
    ),
]


@app.command("mcp")
def mcp_server(
    transport: Annotated[
        Literal["stdio", "http"],
        typer.Option("--transport", help="stdio: the client starts this command; http: streamable HTTP at /mcp."),
    ] = "stdio",
    keys: Annotated[
        Path | None,
        typer.Option(
            "--keys",
            help="HTTP: the API keys file, as `putnam serve --keys` takes it (KEY, NAME KEY or NAME KEY LIMIT a "
            "line; LIMIT is not used here). Every request must send `Authorization: Bearer KEY`, else 401. Without "
            "it, the same lines from PUTNAM_MCP_KEYS; with neither, HTTP does not start. Make a key with "
            "`openssl rand -hex 32`.",
            show_default=False,
        ),
    ] = None,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="HOST",
            help="HTTP: the address to listen on (keep it loopback). Requests must name it or a loopback name "
            "as their Host (and Origin, when sent), else 421/403: a web page cannot reach the server by DNS rebinding.",
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help="HTTP: the port (0: a free one, announced on stderr).", min=0, max=65535)
    ] = 8000,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            metavar="NAME",
            help="HTTP: one more name requests may give as their Host (and Origin, http or https), e.g. the "
            "machine's name when the server listens on 0.0.0.0; repeat it for each name. One host name or "
            "address each: no port, scheme or wildcard.",
            show_default=False,
        ),
    ] = None,
    prover: ProverOpt = "lean",
    track: Annotated[
        Track,
        typer.Option(
            "--track", help="The default track; a no-answer server never shows or judges with-answer statements."
        ),
    ] = Track.WITH_ANSWER,
    benchmark: BenchmarkOpt = None,
    benchmark_sha256: PinOpt = None,
    tool: ToolOpt = None,
    max_candidate_bytes: MaxCandidateBytesOpt = DEFAULT_MAX_CANDIDATE_BYTES,
    allow_recursion: AllowRecursionOpt = False,
    kernels: KernelsOpt = "lean",
    toolchain: ToolchainOpt = None,
    no_selftest: NoSelftestOpt = False,
) -> None:
    """Serve the benchmark and the gates as MCP tools for Claude Code, Codex, an IDE or any MCP client.

    Tools: list_problems, get_statement, check (fast profile, compact diagnostics), goals, search,
    library_search (Rocq's own Search), find_declarations (ranked; the retrieval extra) and verify (full
    profile, the verdict JSON of `putnam verify --json`); every gate runs here, in its sandbox. Over
    stdio, nothing but the protocol is written to stdout. Over HTTP, every request needs an API key (--keys).
    Exit 2 on bad input.
    """
    with input_errors():
        ring = transport_keys(transport, keys)
        if allow_host and transport != "http":
            raise InputError("--allow-host is for --transport http; over stdio no request names a host")
        with collector_paused():  # an MCP client waits for the answer to initialize: start fast
            chosen_prover, loaded = load_benchmark(prover, benchmark, benchmark_sha256)
            require_track(loaded, track.value)
            options = GateFlags(
                tools=tool_locations(tool or []),
                max_candidate_bytes=max_candidate_bytes,
                allow_recursion=allow_recursion,
                kernels=parse_kernels(kernels),
                toolchain=loaded.release(toolchain),
            ).options()
            early = answer_early(chosen_prover.label) if transport == "stdio" else None
            from putnam_solver import mcp as mcp_service  # the MCP SDK loads only for this command (extras.py)

            settings = mcp_service.McpSettings(chosen_prover, loaded, track, options, run_selftest=not no_selftest)
        mcp_service.run_server(
            settings, transport, host, port, early=early, keys=ring, allowed_hosts=tuple(allow_host or ())
        )


def transport_keys(transport: str, path: Path | None) -> KeyRing | None:
    """The keys of ``putnam mcp --transport http``: from ``path`` else ``PUTNAM_MCP_KEYS``, read by the code
    that reads ``putnam serve``'s; an InputError (exit 2, nothing served) when there are none. Over stdio the
    client starts the server and owns its pipe: no key is asked, and ``--keys`` is refused as a mistake."""
    if transport != "http":
        if path is not None:
            raise InputError(
                "--keys is for --transport http; over stdio the client that starts putnam mcp is its one client"
            )
        return None
    from putnam_solver.api_keys import MCP_KEYS_VARIABLE, load_keys

    return load_keys(path, MCP_KEYS_VARIABLE)


def answer_early(prover_label: str) -> EarlyStdio | None:
    """The client's pipe taken over and its ``initialize`` answered (in a thread of its own) before the
    MCP SDK is imported, once the command's input has been checked; None without the SDK, whose import
    then fails with the extra to install (a client is never told that a server started that cannot)."""
    if not installed("mcp"):
        return None
    from putnam_solver.mcp.early_initialize import server_identity
    from putnam_solver.mcp.stdio import EarlyStdio

    return EarlyStdio(server_identity(prover_label))


@app.command()
def serve(
    keys: Annotated[
        Path | None,
        typer.Option(
            "--keys",
            help="API keys file: one key per line, as KEY, NAME KEY or NAME KEY LIMIT (# starts a comment). "
            "Clients send `Authorization: Bearer KEY`. Without it, the same lines from PUTNAM_SERVE_KEYS "
            "(`;` also ends a line).",
            show_default=False,
        ),
    ] = None,
    host: Annotated[str, typer.Option("--host", metavar="HOST", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on (0: any free port).", min=0, max=65535)] = 8000,
    prover: Annotated[list[str] | None, provers_option("Serve this prover")] = None,
    track: Annotated[
        Track,
        typer.Option(
            "--track",
            help="The track of a request that names none; a no-answer server refuses every with-answer request "
            "(whose verdict can quote the official answer).",
        ),
    ] = Track.WITH_ANSWER,
    benchmark: BenchmarkOpt = None,
    benchmark_sha256: PinOpt = None,
    jobs: Annotated[int, typer.Option("--jobs", help="Verifications run at once.", min=1)] = (os.cpu_count() or 1),
    per_key: Annotated[
        int,
        typer.Option("--per-key-limit", help="Requests in flight per key; more get 429 (a key's LIMIT wins).", min=1),
    ] = 4,
    max_batch: Annotated[int, typer.Option("--max-batch", help="Items per batch request.", min=1)] = 64,
    max_body_bytes: Annotated[
        int, typer.Option("--max-body-bytes", help="Bytes per request body; larger bodies get 413 unread.", min=1024)
    ] = 8 << 20,
    max_candidate_bytes: MaxCandidateBytesOpt = DEFAULT_MAX_CANDIDATE_BYTES,
    timeout: TimeoutOpt = GATE_DEFAULTS.timeout_seconds,
    memory_mb: MemoryMbOpt = GATE_DEFAULTS.memory_mb,
    tool: ToolOpt = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Ignore cached verdicts and kept builds of statements; verify afresh.")
    ] = False,
    no_selftest: NoSelftestOpt = False,
    toolchain: ToolchainOpt = None,
    ray: RayOpt = None,
    ray_cpus: RayCpusOpt = RaySettings.num_cpus,
    ray_memory_mb: RayMemoryOpt = RaySettings.memory_mb,
    ray_retries: RayRetriesOpt = RaySettings.max_retries,
) -> None:
    """Serve the verification gates over HTTP: POST /verify, POST /verify/batch, GET /health, GET /ready,
    the OpenAPI schema at /openapi.json. Runs until interrupted. Exit 2 when it cannot start."""
    with input_errors():
        from putnam_solver.serve import Limits, load_config, run_server  # the serve extra (extras.py)

        options = GateFlags(
            timeout_seconds=timeout,
            memory_mb=memory_mb,
            tools=tool_locations(tool or []),
            max_candidate_bytes=max_candidate_bytes,
            toolchain=toolchain,
            kept_builds=not no_cache,
        ).options()
        limits = Limits(per_key=per_key, batch_items=max_batch, body_bytes=max_body_bytes)
        config = load_config(
            keys,
            prover or benchmark_provers(benchmark),
            benchmark,
            benchmark_sha256,
            options,
            jobs,
            limits,
            cache=not no_cache,
            run_selftest=not no_selftest,
            track=track,
        )
        settings = ray_settings(ray, ray_cpus, ray_memory_mb, ray_retries)
        run_server(config, host, port, lambda line: out.print(line, markup=False), settings)
