"""Sandboxes die with the harness, for the long-running commands: a real ``putnam serve`` (a ``/verify``
request), ``putnam mcp`` (its ``verify`` tool, over stdio and over streamable HTTP) and ``putnam audit``
(re-verifying a stored pass) are sent SIGKILL, SIGTERM or SIGINT while real coqc compiles a candidate
that never ends, and a few seconds after the signal no process of that compile is left. A service that
shuts down gracefully on SIGTERM or SIGINT must not wait for the compile either.

As in ``test_sandbox_lifetime``, a process "of the compile" is one whose working directory or command
line lies in the harness's private ``TMPDIR`` (``tests.processes``). Every server listens on loopback.
The valid cases beside these (each command's ordinary verdicts) are in their own test modules.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from tests.fakes.openai_server import serve
from tests.helpers import COQ_BENCH, REPO, needs_sandbox
from tests.integration.test_sandbox_lifetime import PROBLEM, looping_candidate
from tests.processes import compiling, kill_all_in, processes_in, wait_for
from tests.serve_server import auth, start_server, write_keys

pytestmark = [
    pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not installed"),
    needs_sandbox,
]

SIGNALS = pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
WAIT_SECONDS = 300.0  # guards against hanging, not timing assertions
GONE_SECONDS = 5.0  # "a few seconds after the kill"
ROCQ = ("--prover", "rocq", "--benchmark", str(COQ_BENCH))


def kill_mid_compile(
    proc: subprocess.Popen[Any], marker: Path, signum: signal.Signals, then: Callable[[], object] = lambda: None
) -> float:
    """Once coqc compiles the candidate under ``marker``, send ``signum`` to ``proc`` (the harness alone:
    its sandboxes are in sessions of their own) and return how long after it the last process of the
    compile was gone; fail if any is left ``GONE_SECONDS`` later, or if ``proc`` does not end once
    ``then`` has run."""
    started = lambda: compiling(marker, "Candidate.v") or proc.poll() is not None  # noqa: E731
    wait_for("coqc compiles the candidate", started, WAIT_SECONDS)
    assert proc.poll() is None, f"the harness ended before the kill ({proc.returncode})"
    time.sleep(1.0)  # well inside the loop
    sent = time.monotonic()
    os.kill(proc.pid, signum)
    left = lambda: f"no process of the compile is left: {processes_in(marker)}"  # noqa: E731
    wait_for(left, lambda: not processes_in(marker), GONE_SECONDS)
    gone = time.monotonic() - sent
    then()
    proc.wait(timeout=WAIT_SECONDS)  # and the harness itself ends (a graceful stop does not hang)
    print(f"{signum.name}: the compile was gone {gone:.2f} s after the signal")
    return gone


def in_background(call: Callable[[], object]) -> threading.Thread:
    """Run a client call that the server's death will fail; its outcome does not matter here."""

    def quietly() -> None:
        with contextlib.suppress(BaseException):  # the server it talks to is killed on purpose
            call()

    thread = threading.Thread(target=quietly, daemon=True)
    thread.start()
    return thread


def cleanup(proc: subprocess.Popen[Any], marker: Path) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=WAIT_SECONDS)
    kill_all_in(marker)


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for the module's servers: ``serve`` runs the selftest once, then finds it passed."""
    return tmp_path_factory.mktemp("lifetime-cache")


@pytest.fixture
def marker(tmp_path: Path) -> Path:
    made = tmp_path / "harness-tmp"
    made.mkdir()
    return made


@SIGNALS
def test_serve_killed_mid_verify_leaves_no_compile(
    tmp_path: Path, marker: Path, cache_dir: Path, signum: signal.Signals
) -> None:
    args = ["--keys", str(write_keys(tmp_path / "keys")), "--jobs", "1", *ROCQ, "--timeout", "900"]
    server = start_server(tmp_path / "serve.log", args, {"TMPDIR": str(marker), "PUTNAM_CACHE_DIR": str(cache_dir)})
    try:
        body = {"problem": PROBLEM, "candidate": looping_candidate(), "prover": "rocq", "profile": "full"}
        in_background(lambda: httpx.post(f"{server.url}/verify", json=body, headers=auth("bob"), timeout=WAIT_SECONDS))
        kill_mid_compile(server.proc, marker, signum)
    finally:
        cleanup(server.proc, marker)
        server.stop()


def mcp_env(marker: Path, cache_dir: Path) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    paths = os.pathsep.join([str(REPO / "src"), str(REPO)])
    return {**keep, "PYTHONPATH": paths, "TMPDIR": str(marker), "PUTNAM_CACHE_DIR": str(cache_dir)}


def mcp_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "putnam_solver", "mcp", *ROCQ, *args]


VERIFY_CALL = {"name": "verify", "arguments": {"problem": PROBLEM, "proof": looping_candidate()}}


@SIGNALS
def test_mcp_over_stdio_killed_mid_verify_leaves_no_compile(
    marker: Path, cache_dir: Path, signum: signal.Signals
) -> None:
    """The client's side of stdio written by hand (JSON-RPC, one message a line, as the MCP stdio
    transport frames it): initialize, initialized, then the ``verify`` call that never returns. The
    client keeps stdin open: the server must end on the signal itself, although the SDK's reader thread
    is blocked on stdin (``serve_stdio``), and Ctrl-C ends it as an interrupted command (exit 130)."""
    proc = subprocess.Popen(
        mcp_argv(),
        env=mcp_env(marker, cache_dir),
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    assert proc.stdin is not None
    client = {"name": "lifetime-test", "version": "1"}
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client}
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": VERIFY_CALL},
    ]
    try:
        proc.stdin.write("".join(json.dumps(m) + "\n" for m in messages).encode())
        proc.stdin.flush()  # stdin stays open: a closed stdin would end the server by itself
        kill_mid_compile(proc, marker, signum)
        if signum == signal.SIGINT:
            assert proc.returncode == 130
    finally:
        proc.stdin.close()
        cleanup(proc, marker)


@pytest.fixture
def mcp_http(marker: Path, cache_dir: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``putnam mcp --transport http`` on a free loopback port, and its URL."""
    argv = mcp_argv("--transport", "http", "--host", "127.0.0.1", "--port", "0")
    from tests.integration.mcp_driver import key_env

    env = {**mcp_env(marker, cache_dir), **key_env()}
    proc = subprocess.Popen(argv, env=env, cwd=REPO, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    try:
        lines = []
        for line in proc.stderr:
            lines.append(line)
            if "serving streamable HTTP at " in line:
                break
        else:
            raise AssertionError(f"putnam mcp did not start: {''.join(lines)}")
        threading.Thread(target=proc.stderr.read, daemon=True).start()  # keep its log from filling the pipe
        yield proc, line.split(" at ", 1)[1].strip()
    finally:
        cleanup(proc, marker)


@SIGNALS
def test_mcp_over_http_killed_mid_verify_leaves_no_compile(
    mcp_http: tuple[subprocess.Popen[str], str], marker: Path, signum: signal.Signals
) -> None:
    import anyio

    from tests.integration.mcp_driver import keyed_client

    proc, url = mcp_http

    async def call() -> None:
        async with keyed_client(url, WAIT_SECONDS) as client:
            await client.call_tool(VERIFY_CALL["name"], VERIFY_CALL["arguments"])

    in_background(lambda: anyio.run(call))
    kill_mid_compile(proc, marker, signum)


SAMPLES = REPO / "samples" / "rocq"
SOLVED = "sample_rev_length"


@pytest.fixture(scope="module")
def solved_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run in which one sample problem passed (real solve, loopback model, real coqc)."""
    pytest.importorskip("inspect_ai")
    from tests.integration.test_audit_bundle import SampleProver

    base = tmp_path_factory.mktemp("solved")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FAKE_API_KEY", "test-key")
        patch.setenv("INSPECT_EVAL_MAX_RETRIES", "1")
        with serve(SampleProver([])) as url:
            args = [
                "solve", "--prover", "rocq", "--benchmark", str(SAMPLES / "benchmark.jsonl"), "--problem", SOLVED,
                "--model", "openai-api/fake/fake-model", "--model-base-url", url, "--reviewer-model", "none",
                "--reasoning-effort", "none", "--jobs", "1", "--fallback-jobs", "1", "--max-turns", "1",
                "--run-dir", str(base / "run"), "--quiet",
            ]  # fmt: skip
            result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stdout + result.stderr
    return base / "run"


def slow_pass() -> str:
    """The stored pass with a step that computes for ever (10^12 ``negb`` by the VM, from the prelude
    alone: the sample imports only ``List``), so that re-verifying it never ends."""
    proof = (SAMPLES / "proofs" / f"{SOLVED}.v").read_text()
    loop = "Eval vm_compute in (Nat.iter 1000 (fun b => Nat.iter 1000 (fun b => Nat.iter 1000 (fun b =>"
    loop += " Nat.iter 1000 negb b) b) b) true).\n  apply rev_length."
    assert "apply rev_length." in proof
    return proof.replace("apply rev_length.", loop)


@SIGNALS
def test_audit_killed_mid_reverification_leaves_no_compile(
    solved_run: Path, tmp_path: Path, marker: Path, signum: signal.Signals
) -> None:
    from tests.integration.test_audit_bundle import tamper

    run_dir = tmp_path / "run"
    shutil.copytree(solved_run, run_dir, ignore=shutil.ignore_patterns("work", "logs", "run.lock"))
    tamper(run_dir, SOLVED, slow_pass())
    argv = [sys.executable, "-m", "putnam_solver", "audit", str(run_dir), "--jobs", "1", "--timeout", "900"]
    proc = subprocess.Popen(
        [*argv, "--benchmark", str(SAMPLES / "benchmark.jsonl")],
        env={**os.environ, "TMPDIR": str(marker), "PUTNAM_CACHE_DIR": str(tmp_path / "cache")},
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        kill_mid_compile(proc, marker, signum)
    finally:
        cleanup(proc, marker)
