"""Start ``putnam serve``: load keys and benchmarks, bind the socket, run the API under uvicorn.

Everything that can be wrong with the setup (keys file, benchmark, cache directory, address) is found
before the server starts, and reported as an InputError or BenchmarkError naming the file and the fix.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Sequence
from pathlib import Path

import uvicorn

from putnam_solver.api_keys import load_keys
from putnam_solver.benchmark_files import open_benchmark, parse_request, require_track
from putnam_solver.cluster.ray import open_verifier
from putnam_solver.cluster.settings import RaySettings
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.provers import get_prover
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Track, VerifyOptions
from putnam_solver.directories import checked_cache_dir
from putnam_solver.listen import bind, stopping_server
from putnam_solver.serve.app import create_app
from putnam_solver.serve.logs import configure_logging, logger
from putnam_solver.serve.service import Limits, ServeConfig
from putnam_solver.serve.verifier import PoolVerifier, Verifier
from putnam_solver.verifier.options import GateFlags


def load_config(
    keys: Path | None,
    provers: Sequence[str],
    benchmark: str | Path | None = None,
    pin: str | None = None,
    options: VerifyOptions | None = None,
    jobs: int = 1,
    limits: Limits | None = None,
    cache: bool = True,
    run_selftest: bool = True,
    track: Track = Track.WITH_ANSWER,
) -> ServeConfig:
    """The server's configuration; every file it names is read now. ``benchmark`` is a registered
    ``NAME[@VARIANT][:SPLIT]`` (each prover's file of it) or a file (one prover), as ``--benchmark``
    everywhere; ``pin`` needs one file."""
    if not provers:
        raise InputError("serve at least one prover")
    if pin is not None and len(provers) > 1:
        raise InputError("--benchmark-sha256 pins one file: serve one prover with it (--prover NAME)")
    if parse_request(benchmark).path is not None and len(provers) > 1:
        raise InputError(
            f"{benchmark}: one benchmark file for {len(provers)} provers; pass --prover NAME, or --benchmark "
            "a registered benchmark NAME (each prover's file of it)"
        )
    ring = load_keys(keys)
    benchmarks = {}
    for name in dict.fromkeys(provers):
        prover = get_prover(name)
        benchmarks[prover.name] = open_benchmark(benchmark, prover.name, pin)
        require_track(benchmarks[prover.name], track.value)
    return ServeConfig(
        keys=ring,
        benchmarks=benchmarks,
        options=options or GateFlags().options(),
        jobs=jobs,
        limits=limits or Limits(),
        cache=VerdictCache(checked_cache_dir()) if cache else None,
        run_selftest=run_selftest,
        track=track,
    )


def run_server(
    config: ServeConfig, host: str, port: int, announce: Callable[[str], None], ray: RaySettings | None = None
) -> None:
    """Serve until interrupted (SIGINT or SIGTERM stop it gracefully); ``announce`` hears the URL.

    With ``ray`` the gates run on that cluster (``putnam verify --ray``'s verifier) and the pool holds as
    many verifications in flight as the cluster has room for, or ``--jobs`` if higher."""
    sock = bind(host, port, config.limits.connections.connections)
    configure_logging()
    for name, loaded in config.benchmarks.items():
        if not loaded.pinned:
            logger.warning("%s benchmark %s is not pinned; verdicts say benchmark_pinned: false", name, loaded.path)
    try:
        with open_verifier(ray, logger.warning) as backend:
            workers = max(config.jobs, backend.slots()) if ray else config.jobs
            _serve(sock, config, PoolVerifier(workers, backend), announce)
    finally:
        sock.close()


def _serve(sock: socket.socket, config: ServeConfig, verifier: PoolVerifier, announce: Callable[[str], None]) -> None:
    server = make_server(config, verifier)
    bound_host, bound_port = sock.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    announce(f"putnam serve: listening on http://{shown}:{bound_port} ({', '.join(config.benchmarks)})")
    server.run(sockets=[sock])


def make_server(config: ServeConfig, verifier: Verifier) -> uvicorn.Server:
    """The uvicorn server of the API, with the connection limits of ``listen.ConnectionLimits`` (head
    deadline, idle timeout, head size, per-address and total caps) instead of ``limit_concurrency``."""
    return stopping_server(
        uvicorn.Config(
            create_app(config, verifier),
            log_config=None,
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=5,
            **config.limits.connections.uvicorn_settings(),
        )
    )
