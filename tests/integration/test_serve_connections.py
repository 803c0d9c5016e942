"""``putnam serve`` keeps answering while clients without any key hold connections open.

A real server (uvicorn with ``listen.guarded_h11``, the API behind its gatekeeper, the real Rocq text
gates) on loopback, in this process. 520 connections from other loopback addresses (127.0.0.2 ...), half
of them idle, half with a request head sent in part, are held open; ``/health`` and an authenticated
``/verify`` from 127.0.0.1 still answer 200 (uvicorn's ``limit_concurrency`` of 512 made both 503). Then
the server closes every held connection at its head deadline, connections over the per-address cap as
they open, and a connection idle after its response at the idle timeout; a connection that trickles its
head byte by byte is closed at the same deadline. Every wait is a bounded loop.
"""

from __future__ import annotations

import resource
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.listen import ConnectionLimits
from putnam_solver.serve import Limits, PoolVerifier, Readiness, ServeConfig, load_keys
from tests.helpers import REPO, ROCQ_SAMPLES
from tests.serve_server import in_process

KEY = "conn-key-0123456789abcdef"
LIMITS = ConnectionLimits(head_seconds=8.0, idle_seconds=1, per_address=32, connections=1024)
HELD = 520
ADDRESSES = [f"127.0.0.{n}" for n in range(2, 22)]  # 26 connections each, under the per-address cap
PARTIAL_HEAD = b"POST /verify HTTP/1.1\r\nHost: putnam\r\nContent-Type: application/json\r\n"
CANDIDATE = (REPO / "samples" / "rocq" / "proofs" / "sample_rev_length.v").read_text()


@pytest.fixture
def url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 4 * HELD:
        pytest.skip(f"{hard} open files at most; the test holds {2 * HELD}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8 * HELD)), hard))
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(Readiness, "not_ready", lambda self, prover=None: None)  # readiness has tests of its own
    monkeypatch.setattr(Readiness, "start", lambda self: None)
    (tmp_path / "keys").write_text(f"conn {KEY}\n")
    (tmp_path / "keys").chmod(0o600)  # the keys file is this account's alone
    config = ServeConfig(
        keys=load_keys(tmp_path / "keys"),
        benchmarks={"rocq": load_benchmark(ROCQ_SAMPLES)},
        limits=Limits(connections=LIMITS),
    )
    with in_process(config, PoolVerifier(1), LIMITS.connections) as url:
        yield url


def _connect(url: str, source: str) -> socket.socket:
    port = int(url.rsplit(":", 1)[1])
    conn = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    conn.settimeout(0)
    return conn


def _closed_by_server(conn: socket.socket) -> bool:
    """Whether the server closed ``conn`` (EOF or reset), without waiting."""
    try:
        return conn.recv(65536) == b""
    except BlockingIOError:
        return False
    except ConnectionResetError:
        return True


def _wait_closed(conns: list[socket.socket], seconds: float) -> list[socket.socket]:
    """The connections still open after ``seconds`` (polled in a bounded loop)."""
    deadline = time.monotonic() + seconds
    left = list(conns)
    while left and time.monotonic() < deadline:
        left = [c for c in left if not _closed_by_server(c)]
        time.sleep(0.1)
    return left


def test_held_connections_neither_block_answers_nor_stay_open(url: str) -> None:
    held = []
    opened = time.monotonic()
    try:
        for n in range(HELD):
            conn = _connect(url, ADDRESSES[n % len(ADDRESSES)])
            if n % 2:
                conn.sendall(PARTIAL_HEAD)
            held.append(conn)
        with httpx.Client(base_url=url, timeout=60) as client:
            health = client.get("/health")
            verdict = client.post(
                "/verify",
                json={"problem": "sample_rev_length", "candidate": CANDIDATE, "profile": "text"},
                headers={"Authorization": f"Bearer {KEY}"},
            )
        assert health.status_code == 200, health.text
        assert verdict.status_code == 200 and verdict.json()["status"] == "accepted", verdict.text
        still_open = not [c for c in held if _closed_by_server(c)]
        assert still_open or time.monotonic() - opened >= LIMITS.head_seconds, "closed before the deadline"
        assert still_open, f"the answers came {time.monotonic() - opened:.1f} s after the first connection"
        assert _wait_closed(held, LIMITS.head_seconds + 10) == [], "every held connection closed at the deadline"
    finally:
        for conn in held:
            conn.close()


def test_the_per_address_cap_the_trickle_and_the_idle_timeout(url: str) -> None:
    conns = [_connect(url, "127.0.0.99") for _ in range(LIMITS.per_address + 8)]
    try:
        over = conns[LIMITS.per_address :]
        assert _wait_closed(over, 5) == [], "connections over the per-address cap are closed as they open"
        assert not [c for c in conns[: LIMITS.per_address] if _closed_by_server(c)], "the others stay"
        trickle = conns[0]
        started = time.monotonic()
        for byte in PARTIAL_HEAD:  # one byte at a time does not extend the deadline
            if _closed_by_server(trickle):
                break
            try:
                trickle.send(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                break
            time.sleep(0.1)
        assert _wait_closed([trickle], LIMITS.head_seconds + 5) == []
        assert time.monotonic() - started < LIMITS.head_seconds + 5
        with httpx.Client(base_url=url, timeout=30) as client:  # keeps its one connection alive
            assert client.get("/health").status_code == 200
            time.sleep(LIMITS.idle_seconds + 1.5)
            assert client.get("/health").status_code == 200, "a new connection after the idle one was closed"
    finally:
        for conn in conns:
            conn.close()
