"""The sandbox against real bubblewrap: isolation, caps and clean-up, as a caller sees them."""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from putnam_solver.core.sandbox import (
    SandboxLimits,
    SandboxResult,
    fresh_copy,
    landlock_status,
    run_sandboxed,
)
from tests.helpers import SANDBOX_WHY, needs_sandbox

REPO = Path(__file__).resolve().parents[2]
# The test interpreter lives outside the system directories; mounting it read-only is what a caller
# with a toolchain in its own prefix does too.
PY_PREFIXES = sorted({Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()})


def py(code: str, workdir: Path, **kwargs: object) -> SandboxResult:
    """Run a Python snippet in the sandbox with the test's own interpreter mounted read-only."""
    return run_sandboxed(
        [sys.executable, "-I", "-c", code],
        workdir=workdir,
        readonly=PY_PREFIXES,
        **kwargs,  # type: ignore[arg-type]
    )


def processes_with(marker: str) -> list[int]:
    """Host PIDs whose command line contains ``marker`` (the leftover-process check)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return fresh_copy({"input.txt": b"hello\n", "sub/data.txt": b"42\n"}, tmp_path)


@pytest.fixture
def host_server() -> Iterator[tuple[int, list[object]]]:
    """A TCP server on the host's loopback that records every connection it accepts."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    accepted: list[object] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, addr = server.accept()
            except TimeoutError:
                continue
            accepted.append(addr)
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], accepted
    stop.set()
    thread.join(timeout=5)
    server.close()


@needs_sandbox
def test_ok_command_reports_output_and_sandboxed(ws: Path) -> None:
    result = run_sandboxed(["/bin/sh", "-c", "cat input.txt; echo to-err >&2"], workdir=ws)
    assert result.ok
    assert (result.exit_code, result.stdout, result.stderr) == (0, "hello\n", "to-err\n")
    assert result.sandboxed and not result.truncated and result.killed_reason is None
    assert result.argv == ("/bin/sh", "-c", "cat input.txt; echo to-err >&2")


@needs_sandbox
def test_exit_code_is_passed_through_and_not_ok(ws: Path) -> None:
    result = run_sandboxed(["/bin/sh", "-c", "exit 7"], workdir=ws)
    assert result.exit_code == 7
    assert not result.ok and result.killed_reason is None


@needs_sandbox
def test_bare_command_name_is_found_on_sandbox_path(ws: Path) -> None:
    assert run_sandboxed(["true"], workdir=ws).ok


@needs_sandbox
def test_network_is_unreachable(ws: Path, host_server: tuple[int, list[object]]) -> None:
    port, accepted = host_server
    code = f"""
import socket
for host, port in (("127.0.0.1", {port}), ("1.1.1.1", 53), ("8.8.8.8", 443)):
    try:
        socket.create_connection((host, port), timeout=3).close()
        print("CONNECTED", host)
    except OSError as exc:
        print("refused", host, type(exc).__name__)
"""
    result = py(code, ws)
    assert result.ok, result.stderr
    assert "CONNECTED" not in result.stdout
    assert result.stdout.count("refused") == 3
    assert accepted == []


@needs_sandbox
def test_writes_outside_the_workspace_fail_and_leave_no_file(ws: Path) -> None:
    """A write to a host path is an escape only if it reaches the host. Inside, ``/tmp`` is a private
    tmpfs, so a write under it (``/tmp`` itself, or the repository of a clone that lives under ``/tmp``)
    may succeed there; every other host path, ``/var/tmp`` (writable on any host) among them, must be
    refused; and no write may leave a file on the host, wherever the clone lives."""
    tag = f"putnam-sandbox-escape-{uuid.uuid4().hex}"
    host_dirs = [Path("/tmp"), REPO, Path("/var/tmp"), Path.home(), Path("/usr"), Path("/etc")]
    targets = [d / tag for d in host_dirs]
    private = [t for t in targets if Path("/tmp") in t.parents]  # the sandbox's own tmpfs, not the host's
    code = f"""
import sys
for path in {[str(t) for t in targets]!r}:
    try:
        open(path, "w").write("escaped")
        print("WROTE", path)
    except OSError as exc:
        print("denied", path, type(exc).__name__)
"""
    result = py(code, ws)
    try:
        assert result.ok, result.stderr
        refused = [t for t in targets if t not in private]
        assert all(f"denied {t} " in result.stdout for t in refused), result.stdout
        assert [t for t in targets if t.exists()] == [], "a write reached the host"
    finally:
        for t in targets:
            t.unlink(missing_ok=True)


@needs_sandbox
def test_kernel_tunables_are_read_only(ws: Path) -> None:
    # Writing a sysctl's current value back would be harmless even if it got through.
    code = """
p = "/proc/sys/kernel/core_pattern"
try:
    value = open(p).read()
    open(p, "w").write(value)
    print("WROTE")
except OSError as exc:
    print("denied", type(exc).__name__)
"""
    result = py(code, ws)
    assert result.ok, result.stderr
    assert result.stdout.startswith("denied")


@needs_sandbox
def test_named_outputs_reach_the_caller_and_nothing_else_does(ws: Path) -> None:
    script = "mkdir -p out && cat sub/data.txt > out/copy.txt && echo junk > scratch.txt && : > empty"
    result = run_sandboxed(["/bin/sh", "-c", script], workdir=ws, outputs=["out/copy.txt", "empty", "never"])
    assert result.ok, result.stderr
    assert (ws / "out" / "copy.txt").read_text() == "42\n"
    assert sorted(p.name for p in ws.iterdir()) == ["input.txt", "out", "sub"]  # left-overs are not kept


@needs_sandbox
def test_readonly_paths_are_visible_but_not_writable(ws: Path, tmp_path: Path) -> None:
    toolchain = tmp_path / "toolchain"
    toolchain.mkdir()
    (toolchain / "lib.txt").write_text("library\n")
    result = run_sandboxed(
        ["/bin/sh", "-c", f"cat {toolchain}/lib.txt && echo x > {toolchain}/lib.txt"],
        workdir=ws,
        readonly=[toolchain],
    )
    assert result.stdout == "library\n"
    assert not result.ok and "Read-only" in result.stderr
    assert (toolchain / "lib.txt").read_text() == "library\n"


@needs_sandbox
def test_double_forked_daemon_is_gone_after_the_run(ws: Path) -> None:
    marker = f"daemon-marker-{uuid.uuid4().hex}"
    code = f"""
import os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for i in range(600):
            with open("beat", "w") as f:
                f.write(str(i))
            time.sleep(0.05)
        os._exit(0)
    os._exit(0)
time.sleep(0.3)
print("parent done")  # {marker}
"""
    result = run_sandboxed([sys.executable, "-I", "-c", code], workdir=ws, readonly=PY_PREFIXES, outputs=["beat"])
    assert result.ok, result.stderr
    first = (ws / "beat").read_text()
    time.sleep(0.5)
    assert (ws / "beat").read_text() == first
    assert processes_with(marker) == []


@needs_sandbox
def test_fork_bomb_is_contained(ws: Path) -> None:
    if "NOT enforced" in SANDBOX_WHY:
        pytest.skip(f"no process limit here: {SANDBOX_WHY}")
    marker = f"forkbomb-marker-{uuid.uuid4().hex}"
    code = f"""
import os, sys, time
n = 0
for _ in range(10000):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(60)
        os._exit(0)
    n += 1
print(n)  # {marker}
"""
    result = py(code, ws, limits=SandboxLimits(timeout_seconds=60, max_processes=64))
    assert result.ok and not result.timed_out, result.stderr
    assert int(result.stdout) < 64
    assert processes_with(marker) == []


@needs_sandbox
def test_threads_count_against_the_process_limit(ws: Path) -> None:
    if "NOT enforced" in SANDBOX_WHY:
        pytest.skip(f"no process limit here: {SANDBOX_WHY}")
    code = """
import threading
stop = threading.Event()
started = 0
for _ in range(500):
    try:
        threading.Thread(target=stop.wait, daemon=True).start()
    except RuntimeError:
        break
    started += 1
stop.set()
print(started)
"""
    result = py(code, ws, limits=SandboxLimits(timeout_seconds=60, max_processes=32))
    assert result.ok, result.stderr
    assert 0 < int(result.stdout) < 32


@needs_sandbox
def test_concurrent_runs_each_get_their_own_process_limit(ws: Path, tmp_path: Path) -> None:
    """Two runs that hold 40 processes each at the same time both fit under a limit of 64 apiece.

    Runs share no writable directory, so the test itself releases them (through a read-only bound
    directory) once it sees both holding their processes on the host.
    """
    if "NOT enforced" in SANDBOX_WHY or "cgroup" not in SANDBOX_WHY:
        pytest.skip(f"no per-run process limit here: {SANDBOX_WHY}")
    signal_dir = tmp_path / "signal"
    signal_dir.mkdir()
    release = signal_dir / "release"
    markers = {name: f"concurrent-{name}-{uuid.uuid4().hex}" for name in ("a", "b")}

    def code(marker: str) -> str:
        return f"""
import os, time
children = []
for _ in range(40):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(60)
        os._exit(0)
    children.append(pid)
for _ in range(600):  # wait (bounded) until the test saw both runs hold their processes
    if os.path.exists("{release}"):
        break
    time.sleep(0.05)
print(len(children), os.path.exists("{release}"))  # {marker}
"""

    results: dict[str, SandboxResult] = {}

    def run(name: str) -> None:
        results[name] = run_sandboxed(
            [sys.executable, "-I", "-c", code(markers[name])],
            workdir=ws,
            readonly=[*PY_PREFIXES, signal_dir],
            limits=SandboxLimits(timeout_seconds=60, max_processes=64),
        )

    threads = [threading.Thread(target=run, args=(name,)) for name in markers]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30

    def holding() -> bool:
        return all(len(processes_with(m)) >= 41 for m in markers.values())

    while not (both_holding := holding()) and time.monotonic() < deadline:
        time.sleep(0.1)
    release.touch()
    for thread in threads:
        thread.join(timeout=120)
    assert both_holding, "the two runs never held their 40 processes at the same time"
    assert sorted(results) == ["a", "b"]
    for result in results.values():
        assert result.ok, result.stderr
        assert result.stdout.split() == ["40", "True"]


@needs_sandbox
def test_memory_bomb_fails(ws: Path) -> None:
    result = py("x = bytearray(4 << 30); print('allocated')", ws, limits=SandboxLimits(memory_mb=512))
    assert not result.ok
    assert "allocated" not in result.stdout and "MemoryError" in result.stderr


@needs_sandbox
def test_peak_memory_is_measured(ws: Path) -> None:
    result = py("x = bytearray(200 << 20); x[::4096] = b'1' * len(x[::4096])", ws)
    assert result.ok, result.stderr
    assert result.peak_memory_kb >= 200 * 1024


@needs_sandbox
def test_output_flood_is_truncated_and_killed(ws: Path) -> None:
    cap = 64 << 10
    result = run_sandboxed(["/usr/bin/yes"], workdir=ws, limits=SandboxLimits(max_output_bytes=cap))
    assert result.killed_reason == "output"
    assert not result.ok and result.exit_code is None and result.truncated
    assert len(result.stdout) == cap
    assert result.stdout_bytes > 16 * cap


@needs_sandbox
def test_large_output_is_truncated_but_counted(ws: Path) -> None:
    cap = 64 << 10
    result = py("import sys; sys.stdout.write('y' * 200000)", ws, limits=SandboxLimits(max_output_bytes=cap))
    assert result.ok and result.truncated
    assert (len(result.stdout), result.stdout_bytes) == (cap, 200000)


@needs_sandbox
def test_timeout_kills_and_is_not_ok(ws: Path) -> None:
    marker = f"{100 + uuid.uuid4().int % 1000}.{uuid.uuid4().int % 10**9}"
    result = run_sandboxed(["/bin/sleep", marker], workdir=ws, limits=SandboxLimits(timeout_seconds=1))
    assert result.timed_out and result.killed_reason == "timeout"
    assert result.exit_code is None and not result.ok
    assert processes_with(f"/bin/sleep\0{marker}") == []


@needs_sandbox
def test_cpu_limit_stops_a_busy_loop(ws: Path) -> None:
    result = py("while True: pass", ws, limits=SandboxLimits(timeout_seconds=60, cpu_seconds=1))
    assert not result.ok and not result.timed_out


@needs_sandbox
def test_stdin_is_passed(ws: Path) -> None:
    data = b"line\n" * 50000  # larger than a pipe buffer
    result = run_sandboxed(["/usr/bin/wc", "-c"], workdir=ws, stdin=data)
    assert result.ok and result.stdout.strip() == str(len(data))


@needs_sandbox
def test_environment_is_exactly_what_the_caller_passes(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUTNAM_TEST_SECRET", "hunter2")
    result = run_sandboxed(["/usr/bin/env"], workdir=ws, env={"GIVEN": "yes"})
    assert result.ok
    lines = set(result.stdout.splitlines())
    assert "GIVEN=yes" in lines and f"HOME={ws}" in lines
    assert "hunter2" not in result.stdout and "PUTNAM_TEST_SECRET" not in result.stdout


def test_unsafe_no_sandbox_runs_with_caps(ws: Path) -> None:
    result = run_sandboxed(["/bin/sh", "-c", "pwd"], workdir=ws, unsafe_no_sandbox=True)
    assert result.ok and not result.sandboxed
    assert result.stdout.strip() == str(ws)
    slow = run_sandboxed(
        ["/bin/sleep", "100"], workdir=ws, unsafe_no_sandbox=True, limits=SandboxLimits(timeout_seconds=1)
    )
    assert slow.timed_out and not slow.ok and not slow.sandboxed


def test_workdir_must_be_an_existing_directory(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="existing directory"):
        run_sandboxed(["/bin/true"], workdir=tmp_path / "missing")
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="existing directory"):
        run_sandboxed(["/bin/true"], workdir=tmp_path / "file", unsafe_no_sandbox=True)


def test_limits_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        SandboxLimits(timeout_seconds=0)


def test_missing_command_is_a_clear_error(ws: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no-such-tool-xyz"):
        run_sandboxed(["no-such-tool-xyz"], workdir=ws, unsafe_no_sandbox=True)


@pytest.mark.parametrize("name", ["/etc/passwd", "../up.txt", "a/../../b", "", "."])
def test_fresh_copy_rejects_paths_leaving_the_workspace(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match="relative path"):
        fresh_copy({name: b"x"}, tmp_path)


def test_fresh_copy_makes_a_new_directory_each_time(tmp_path: Path) -> None:
    first = fresh_copy({"A.lean": b"theorem"}, tmp_path)
    second = fresh_copy({"A.lean": b"other"}, tmp_path)
    assert first != second and first.parent == tmp_path
    assert (first / "A.lean").read_bytes() == b"theorem"


def test_landlock_status_reports_an_answer() -> None:
    available, detail = landlock_status()
    assert ("ABI version" in detail) if available else ("unavailable" in detail or "unknown" in detail)
