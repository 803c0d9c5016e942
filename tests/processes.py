"""How a test runs ``putnam`` (in this process through Typer's runner, or in a process group of its own
with this checkout's sources), the command line of a ``putnam solve`` against the loopback model server
(tests/fakes/openai_server.py), and what a test sees of the host's processes through ``/proc``: the ones
working under a directory."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from typer.testing import CliRunner

from putnam_solver.cli import app
from tests.helpers import REPO

FAKE_MODEL = "openai-api/fake/fake-model"
"""The worker model as the loopback server (``--model-base-url``) serves it."""
WAIT_SECONDS = 300.0
"""How long a test waits for a ``putnam`` of its own: a guard against hanging, not a timing assertion."""


def solve_args(
    benchmark: Path | str,
    run_dir: Path,
    *problems: str,
    url: str | None = None,
    jobs: int = 1,
    max_turns: int | None = None,
    campaigns: int | None = None,
    quiet: bool = True,
    prover: str = "rocq",
) -> list[str]:
    """``putnam solve`` of ``problems`` (all of ``benchmark`` if none) with ``prover``, the scripted
    model at ``url`` (none: the run is only prepared or refused before it calls one), no reviewer and no
    reasoning effort, ``jobs`` workers and one fallback; ``max_turns`` and ``campaigns`` as given, else
    the defaults."""
    args = ["solve", "--prover", prover, "--benchmark", str(benchmark), "--run-dir", str(run_dir)]
    args += [arg for problem in problems for arg in ("--problem", problem)]
    args += ["--model", FAKE_MODEL, *(["--model-base-url", url] if url else [])]
    args += ["--reviewer-model", "none", "--reasoning-effort", "none", "--jobs", str(jobs), "--fallback-jobs", "1"]
    args += ["--max-turns", str(max_turns)] if max_turns is not None else []
    args += ["--campaigns", str(campaigns)] if campaigns is not None else []
    return [*args, "--quiet"] if quiet else args


def resume_args(run_dir: Path, url: str | None = None) -> list[str]:
    """``putnam solve --resume`` of ``run_dir``, against the model server now at ``url`` if given."""
    return ["solve", "--resume", str(run_dir), *(["--model-base-url", url] if url else []), "--quiet"]


def putnam(*args: str | Path, **env: str) -> tuple[int, str, str]:
    """``putnam ARGS`` in this process (with ``env`` set while it runs): its exit code, standard output and
    standard error."""
    result = CliRunner().invoke(app, [str(a) for a in args], env=env or None)
    return result.exit_code, result.stdout, result.stderr


def checkout_env(**extra: str) -> dict[str, str]:
    """This process's environment for a ``putnam`` of its own: this checkout's sources first on the path
    (not an installed copy), a fake API key, one model retry, and ``extra``."""
    path = os.pathsep.join([str(REPO / "src"), str(REPO)])
    return {**os.environ, "PYTHONPATH": path, "FAKE_API_KEY": "test-key", "INSPECT_EVAL_MAX_RETRIES": "1", **extra}


@contextmanager
def python_process(*args: str, **env: str) -> Iterator[subprocess.Popen[str]]:
    """``python ARGS`` in a process group of its own (so that a kill or a Ctrl-C to the group reaches its
    coqc and sandboxes, as from a terminal) with :func:`checkout_env`, output and errors in one pipe; on
    leaving, the group is killed if it still runs and its output is read to the end."""
    proc = subprocess.Popen(
        [sys.executable, *args],
        env=checkout_env(**env),
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=WAIT_SECONDS)


def putnam_process(*args: str, **env: str) -> AbstractContextManager[subprocess.Popen[str]]:
    """``putnam ARGS`` as :func:`python_process` runs it."""
    return python_process("-m", "putnam_solver", *args, **env)


def finished(proc: subprocess.Popen[str]) -> str:
    """The output of a ``putnam`` of its own that must end by itself with exit code 0."""
    output, _ = proc.communicate(timeout=WAIT_SECONDS)
    assert proc.returncode == 0, output
    return output


def processes_in(marker: Path) -> list[tuple[int, str]]:
    """Every live process whose working directory or command line lies under ``marker`` (``/proc`` shows
    a sandboxed process's working directory at its own path, which bubblewrap keeps the same inside)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cwd = os.readlink(entry / "cwd")
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone, or a zombie (no working directory any more)
        if cwd.startswith(str(marker)) or str(marker) in cmdline:
            found.append((int(entry.name), cmdline.strip()))
    return found


def compiling(marker: Path, source: str) -> bool:
    """Whether a coqc under ``marker`` compiles ``source``."""
    return any("coqc" in cmd and source in cmd for _, cmd in processes_in(marker))


def wait_for(condition: str | Callable[[], str], check: Callable[[], bool], seconds: float) -> None:
    """Poll ``check`` every 0.1 s; fail naming ``condition`` (or what it returns then) if it is not true
    within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds:g} s: {condition if isinstance(condition, str) else condition()}")


def kill_all_in(marker: Path) -> None:
    """After a failed test: leave nothing of it running."""
    for pid, _ in processes_in(marker):
        os.kill(pid, signal.SIGKILL)
