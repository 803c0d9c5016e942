"""Run an untrusted command with no network, a fresh writable directory and hard resource caps.

Every tool that touches a candidate (a compiler, a kernel checker) runs through ``run_sandboxed``.
The candidate may have been written by an adversary, so the command gets (with bubblewrap):

- its own network, PID, IPC, UTS and cgroup namespaces: no network except its own loopback; the command
  is PID 1 of its namespace, so when it ends the kernel kills everything else in it (daemons included);
- a filesystem built from nothing: the system directories (``/usr``, ``/etc`` and the ``/bin``-style
  links), the caller's ``readonly`` paths, all read-only; ``workdir`` read-write; a private tmpfs
  ``/tmp``; a minimal ``/dev``; a fresh ``/proc`` whose kernel-tunable parts are read-only. The
  caller's home directory, credentials and other scratch directories are simply not there;
- no capabilities, a new session (no ``TIOCSTI`` into the caller's terminal), death with its parent;
- exactly the environment the caller passes (plus a minimal ``PATH``/``HOME``/``LANG``);
- a wall-clock timeout, an address-space limit per process (``RLIMIT_AS``), no core dumps, an optional
  CPU limit, a process/thread limit (a cgroup ``pids.max`` where this process may create one, which also
  lets the harness kill every leftover process; otherwise ``RLIMIT_NPROC``, which the kernel does not
  enforce for root) and an output cap (bytes beyond it are counted, not kept; a flood is killed).

The sandboxed command runs as uid 0 without capabilities when the harness is root, which is why the
filesystem is minimal and ``/proc/sys`` is covered: uid 0 still owns root's files and sysctls.
Toolchains outside the system directories (a Lean toolchain, a virtualenv) must be passed in
``readonly``; ``workdir`` and ``readonly`` paths appear at their own absolute paths.

Process limit, as found on a root host with cgroup v1: bubblewrap's ``--unshare-user --uid`` still maps
to host uid 0, for which the kernel skips ``RLIMIT_NPROC``; a per-run child of our own pids cgroup works.
Where no pids cgroup is writable, ``sandbox_status`` says so and only ``RLIMIT_NPROC`` applies.
A wrapper shell joins the run's cgroup before it execs anything else (see ``_PidsHierarchy`` for why
it writes to ``tasks`` on cgroup v1).
``unsafe_no_sandbox`` keeps every cap (rlimits, cgroup, timeout, output cap, process-group kill).

Fail closed: a result is ``ok`` only when the command exited 0 on its own; anything the harness had to
kill, or any internal error (which raises), is never ``ok``.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import platform
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from putnam_solver.untrusted import clean_text

__all__ = [
    "SandboxLimits",
    "SandboxResult",
    "SandboxUnavailable",
    "fresh_copy",
    "landlock_status",
    "run_sandboxed",
    "sandbox_status",
]

DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"
FLOOD_FACTOR = 16  # a stream producing this many times the cap is killed: nobody reads that much
_CHUNK = 1 << 16
_DRAIN_SECONDS = 2.0  # after the tree is killed, how long to wait for the pipes to report end-of-file
_REAP_SECONDS = 5.0  # how long to wait for a killed cgroup to become empty
_EXTRA_TASKS = 1  # the outer bubblewrap process counts against pids.max too
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
# Parts of /proc that root may write even without capabilities (sysctls, sysrq, irq affinity ...).
_PROC_COVER = ("sys", "sysrq-trigger", "irq", "bus", "mtrr", "pressure", "acpi", "fs", "driver", "tty")
_INSTALL_HINT = (
    "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) and "
    "make sure user namespaces are allowed (sysctl kernel.unprivileged_userns_clone=1, or "
    "kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu), or run as root; inside a container, "
    "start it with --privileged or a seccomp profile that allows namespaces. As a last resort "
    "--unsafe-no-sandbox runs tools without isolation (recorded in every verdict)."
)


class SandboxUnavailable(Exception):
    """The sandbox cannot run here; the message says why and how to fix it."""


@dataclass(frozen=True)
class SandboxLimits:
    """Caps for one run.

    ``memory_mb`` is an address-space limit per process (``RLIMIT_AS``): this machine's memory cgroup
    belongs to whatever started us, so we do not carve runs out of it. ``max_processes`` counts the
    command's processes and threads. ``max_output_bytes`` is per stream.
    """

    timeout_seconds: float = 600.0
    memory_mb: int = 8192
    max_output_bytes: int = 4 << 20
    max_processes: int = 256
    cpu_seconds: int | None = None

    def __post_init__(self) -> None:
        numbers = (self.timeout_seconds, self.memory_mb, self.max_output_bytes, self.max_processes)
        if min(numbers) <= 0 or (self.cpu_seconds is not None and self.cpu_seconds <= 0):
            raise ValueError(f"sandbox limits must be positive: {self}")


@dataclass(frozen=True)
class SandboxResult:
    """What happened. Judge success by ``ok``; ``stdout``/``stderr`` are untrusted text.

    ``killed_reason`` is set when the harness stopped the run: ``"timeout"``, ``"output"`` (a flood of
    more than FLOOD_FACTOR times the cap), or ``"signal N"`` when the process died by a signal it did
    not get from us. (An exhausted ``RLIMIT_AS`` shows up as the program's own allocation error and a
    non-zero exit, so ``"memory"`` is never reported.) Inside bubblewrap a command killed by signal N
    exits with ``128 + N``. ``peak_memory_kb`` is the largest resident set of the command or of a
    descendant it waited for (``ru_maxrss`` from ``wait4``); it is never below the harness's own size
    at the fork.
    """

    argv: tuple[str, ...]
    exit_code: int | None
    timed_out: bool
    stdout: str
    stderr: str
    stdout_bytes: int
    stderr_bytes: int
    truncated: bool
    wall_seconds: float
    peak_memory_kb: int
    sandboxed: bool
    killed_reason: str | None

    @property
    def ok(self) -> bool:
        """True only when the command exited 0 on its own, with nothing killed."""
        return self.exit_code == 0 and not self.timed_out and self.killed_reason is None


@dataclass(frozen=True)
class _Tools:
    sh: str
    prlimit: str


@dataclass
class _Stream:
    """One output pipe: keeps the first ``cap`` bytes and counts the rest."""

    cap: int
    kept: bytearray = field(default_factory=bytearray)
    total: int = 0

    def add(self, chunk: bytes) -> None:
        room = self.cap - len(self.kept)
        if room > 0:
            self.kept += chunk[:room]
        self.total += len(chunk)

    def text(self) -> str:
        """The kept bytes as text a log, a prompt or the ledger can hold (bad UTF-8 and NULs replaced)."""
        return clean_text(bytes(self.kept).decode("utf-8", errors="replace"))


# --------------------------------------------------------------------------- probes


def _find_tools() -> _Tools:
    """The wrapper tools every run needs (util-linux ``prlimit`` sets the rlimits without preexec_fn)."""
    sh, prlimit = shutil.which("sh", path=DEFAULT_PATH), shutil.which("prlimit", path=DEFAULT_PATH)
    if sh is None or prlimit is None:
        raise SandboxUnavailable(
            "`sh` or `prlimit` not found: install util-linux (Debian: apt-get install util-linux)"
        )
    return _Tools(sh=sh, prlimit=prlimit)


@dataclass(frozen=True)
class _PidsHierarchy:
    """Where per-run pids cgroups are created, and the file a process writes ``0`` to to join one.

    ``join_file`` is ``tasks`` on cgroup v1: writing ``0`` there moves only the writing thread, and for
    a thread moving itself the kernel skips the system-wide threadgroup lock that a ``cgroup.procs``
    write takes (its RCU grace period cost about 12 ms of every run where this was measured). The
    wrapper shell is single-threaded, so its thread is the whole process, and everything it execs and
    forks afterwards is born in the cgroup. cgroup v2 moves single threads only inside a threaded
    subtree, so there it is ``cgroup.procs``.
    """

    parent: Path
    join_file: str


@functools.cache
def _pids_cgroup_parent() -> _PidsHierarchy | None:
    """A pids cgroup (v1 controller or delegated v2) under which this process may create children.

    Creating a child cgroup per run gives a process limit that also holds for root (``RLIMIT_NPROC``
    does not) and a complete list of the run's processes to kill at the end. Only our own cgroup's
    subtree is used; nothing else in the hierarchy is touched.
    """
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, rel = line.split(":", 2)
        if "pids" in controllers.split(","):
            found = _PidsHierarchy(Path("/sys/fs/cgroup/pids") / rel.lstrip("/"), "tasks")
        elif controllers == "" and Path("/sys/fs/cgroup/cgroup.controllers").exists():
            found = _PidsHierarchy(Path("/sys/fs/cgroup") / rel.lstrip("/"), "cgroup.procs")
            subtree = found.parent / "cgroup.subtree_control"
            if not subtree.exists() or "pids" not in subtree.read_text().split():
                continue
        else:
            continue
        probe = found.parent / f"putnam-probe-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        try:
            probe.mkdir()
            (probe / "pids.max").write_text("1\n")
            joinable = (probe / found.join_file).is_file()
            probe.rmdir()
        except OSError:
            continue
        if joinable:
            return found
    return None


@functools.cache
def sandbox_status() -> tuple[bool, str]:
    """Whether bubblewrap can actually start a sandbox here (probed once), and why not if it cannot."""
    bwrap = shutil.which("bwrap", path=DEFAULT_PATH)
    if bwrap is None:
        return False, f"bubblewrap (bwrap) not found. Fix: {_INSTALL_HINT}"
    try:
        tools = _find_tools()
        with tempfile.TemporaryDirectory(prefix="putnam-sandbox-probe-") as tmp:
            env = {"PATH": DEFAULT_PATH}
            probe = [tools.sh, "-c", "exit 0"]
            result = _execute(tuple(probe), probe, Path(tmp), (), env, SandboxLimits(30.0), None, True)
    except (OSError, RuntimeError, SandboxUnavailable) as exc:
        return False, f"bubblewrap cannot start: {exc}. Fix: {_INSTALL_HINT}"
    if not result.ok:
        why = result.stderr.strip() or result.killed_reason or f"exit code {result.exit_code}"
        return False, f"bubblewrap cannot start a sandbox here: {why}. Fix: {_INSTALL_HINT}"
    if _pids_cgroup_parent() is not None:
        procs = "process limit: cgroup pids.max"
    elif os.geteuid() == 0:
        procs = "process limit: NOT enforced (root without a writable pids cgroup; RLIMIT_NPROC ignores root)"
    else:
        procs = "process limit: RLIMIT_NPROC (counts all processes of this user)"
    return True, f"{bwrap}; {procs}"


@functools.cache
def landlock_status() -> tuple[bool, str]:
    """Whether the kernel offers Landlock, and its ABI version (asks ``landlock_create_ruleset``)."""
    syscall_numbers = {"x86_64": 444, "aarch64": 444, "riscv64": 444, "ppc64le": 444, "s390x": 444}
    number = syscall_numbers.get(platform.machine())
    if number is None:
        return False, f"unknown landlock syscall number on {platform.machine()}"
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    version_flag = 1  # LANDLOCK_CREATE_RULESET_VERSION
    abi = int(libc.syscall(ctypes.c_long(number), None, ctypes.c_size_t(0), ctypes.c_uint32(version_flag)))
    if abi < 0:
        errno = ctypes.get_errno()
        return False, f"Landlock unavailable: {os.strerror(errno)} (kernel too old or landlock not in lsm=)"
    return True, f"Landlock ABI version {abi}"


# --------------------------------------------------------------------------- workspace


def fresh_copy(files: Mapping[str, bytes], into: Path) -> Path:
    """Write ``files`` into a new, empty directory created inside ``into`` and return that directory.

    Names must be relative POSIX paths without ``..``: the workspace is built by the harness from the
    candidate's bytes, never by copying a directory the agent could have filled with links.
    """
    into.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="ws-", dir=into))
    for name, data in files.items():
        rel = PurePosixPath(name)
        if not name or rel.is_absolute() or ".." in rel.parts or rel == PurePosixPath("."):
            raise ValueError(f"workspace file name {name!r} must be a relative path without '..'")
        target = root.joinpath(*rel.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return root


# --------------------------------------------------------------------------- command lines


def _bwrap_argv(bwrap: str, argv: Sequence[str], workdir: Path, readonly: Sequence[Path]) -> list[str]:
    """The bubblewrap command line. Mounts are ordered by depth so nested ones land on top."""
    # --as-pid-1: no bubblewrap reaper in between, so the command's rusage reaches our wait4.
    args = [bwrap, "--unshare-all", "--as-pid-1", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    for top in _SYSTEM_DIRS:
        path = Path(top)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), top]
        elif path.is_dir():
            args += ["--ro-bind", top, top]
    args += ["--dev", "/dev", "--proc", "/proc"]
    for name in _PROC_COVER:
        args += ["--ro-bind-try", f"/proc/{name}", f"/proc/{name}"]
    args += ["--tmpfs", "/tmp"]
    binds = [(p, "--ro-bind") for p in readonly] + [(workdir, "--bind")]
    for path, flag in sorted(binds, key=lambda b: len(b[0].parts)):
        args += [flag, str(path), str(path)]
    return [*args, "--remount-ro", "/", "--chdir", str(workdir), "--", *argv]


def _limit_argv(tools: _Tools, limits: SandboxLimits, join: Path | None) -> list[str]:
    """Wrapper that joins the run's cgroup (if any) through ``join`` and sets rlimits, then execs the rest."""
    head = [tools.sh, "-c", 'echo 0 > "$0" && exec "$@"', str(join)] if join else []
    memory = limits.memory_mb * 1024 * 1024
    head += [tools.prlimit, f"--as={memory}", "--core=0"]
    if join is None:
        head.append(f"--nproc={limits.max_processes + _EXTRA_TASKS}")
    if limits.cpu_seconds is not None:
        head.append(f"--cpu={limits.cpu_seconds}")
    return [*head, "--"]


def _resolve(argv: Sequence[str], env: Mapping[str, str]) -> list[str]:
    """Resolve a bare ``argv[0]`` on the sandbox's PATH now, so a missing tool is a clear error."""
    if not argv:
        raise ValueError("argv is empty")
    if "/" in argv[0]:
        return list(argv)
    found = shutil.which(argv[0], path=env["PATH"])
    if found is None:
        raise FileNotFoundError(f"{argv[0]!r} not found on the sandbox PATH {env['PATH']!r}")
    return [found, *argv[1:]]


# --------------------------------------------------------------------------- the run


class _Cgroup:
    """A per-run pids cgroup: caps the task count and lists every process to kill at the end."""

    def __init__(self, hierarchy: _PidsHierarchy, max_tasks: int) -> None:
        self.path = hierarchy.parent / f"putnam-sandbox-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.join = self.path / hierarchy.join_file
        self.path.mkdir()
        (self.path / "pids.max").write_text(f"{max_tasks}\n")

    def kill_all_and_remove(self) -> None:
        """SIGKILL every member until the cgroup is empty, then remove it; raise if it will not empty."""
        deadline = time.monotonic() + _REAP_SECONDS
        while self.path.exists():
            pids = [int(p) for p in (self.path / "cgroup.procs").read_text().split()]
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            if not pids:
                try:
                    self.path.rmdir()
                    return
                except OSError:
                    pass  # tasks still exiting (not yet listed as gone); retry
            if time.monotonic() > deadline:
                raise RuntimeError(f"sandbox processes survived SIGKILL in {self.path}")
            time.sleep(0.01)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def _pump(
    proc: subprocess.Popen[bytes],
    streams: dict[int, _Stream],
    stdin: bytes | None,
    deadline: float,
    flood: int,
) -> str | None:
    """Feed stdin and read both pipes until the process exits; return why it was stopped, if it was."""
    pidfd = os.pidfd_open(proc.pid)
    with selectors.DefaultSelector() as sel:
        try:
            sel.register(pidfd, selectors.EVENT_READ)
            for fd in streams:
                sel.register(fd, selectors.EVENT_READ)
            pending = memoryview(stdin or b"")
            if proc.stdin is not None:
                os.set_blocking(proc.stdin.fileno(), False)
                sel.register(proc.stdin.fileno(), selectors.EVENT_WRITE)
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return "timeout"
                for key, _ in sel.select(remaining):
                    fd = int(key.fd)
                    if fd == pidfd:
                        return None
                    if fd in streams:
                        if _read_into(sel, fd, streams[fd]) > flood:
                            return "output"
                    else:
                        pending = _write_some(sel, proc, pending)
        finally:
            os.close(pidfd)


def _read_into(sel: selectors.BaseSelector, fd: int, stream: _Stream) -> int:
    chunk = os.read(fd, _CHUNK)
    if chunk:
        stream.add(chunk)
    else:
        sel.unregister(fd)
    return stream.total


def _write_some(
    sel: selectors.BaseSelector, proc: subprocess.Popen[bytes], pending: memoryview
) -> memoryview:
    """Write what the stdin pipe takes now; close it when all is written or the reader went away."""
    assert proc.stdin is not None
    fd = proc.stdin.fileno()
    try:
        pending = pending[os.write(fd, pending) :] if pending else pending
    except BrokenPipeError:
        pending = pending[:0]
    if not pending:
        sel.unregister(fd)
        proc.stdin.close()
    return pending


def _drain(streams: dict[int, _Stream]) -> None:
    """Read what is left in the pipes once the tree is dead (bounded: a stray writer cannot hold us)."""
    deadline = time.monotonic() + _DRAIN_SECONDS
    with selectors.DefaultSelector() as sel:
        for fd in streams:
            sel.register(fd, selectors.EVENT_READ)
        while sel.get_map() and (remaining := deadline - time.monotonic()) > 0:
            for key, _ in sel.select(remaining):
                _read_into(sel, int(key.fd), streams[int(key.fd)])


def run_sandboxed(
    argv: Sequence[str],
    *,
    workdir: Path,
    readonly: Sequence[Path] = (),
    env: Mapping[str, str] | None = None,
    limits: SandboxLimits = SandboxLimits(),
    unsafe_no_sandbox: bool = False,
    stdin: bytes | None = None,
) -> SandboxResult:
    """Run ``argv`` in ``workdir`` inside bubblewrap with ``limits``; see the module docstring.

    ``workdir`` (the only writable place besides a private ``/tmp``) and ``readonly`` paths appear at
    their own paths. ``unsafe_no_sandbox`` runs the command directly with the same caps and
    ``sandboxed=False``. Raises SandboxUnavailable when bubblewrap cannot run, ValueError for a bad
    workdir or readonly path, FileNotFoundError when a bare ``argv[0]`` is not on PATH.
    """
    workdir = _checked_dir(workdir)
    ro = [_checked_path(p) for p in readonly]
    full_env = {"PATH": DEFAULT_PATH, "HOME": str(workdir), "LANG": "C.UTF-8", **(env or {})}
    command = _resolve(argv, full_env)
    if not unsafe_no_sandbox:
        available, why = sandbox_status()
        if not available:
            raise SandboxUnavailable(why)
    return _execute(tuple(argv), command, workdir, ro, full_env, limits, stdin, not unsafe_no_sandbox)


def _execute(
    shown: tuple[str, ...],
    command: list[str],
    workdir: Path,
    readonly: Sequence[Path],
    env: dict[str, str],
    limits: SandboxLimits,
    stdin: bytes | None,
    sandboxed: bool,
) -> SandboxResult:
    """Wrap ``command`` in bubblewrap (if ``sandboxed``) and the limit wrapper, run it in its own cgroup."""
    tools = _find_tools()
    if sandboxed:
        bwrap = shutil.which("bwrap", path=DEFAULT_PATH)
        if bwrap is None:
            raise SandboxUnavailable(f"bubblewrap (bwrap) not found. Fix: {_INSTALL_HINT}")
        command = _bwrap_argv(bwrap, command, workdir, readonly)
    hierarchy = _pids_cgroup_parent()
    cgroup = _Cgroup(hierarchy, limits.max_processes + _EXTRA_TASKS) if hierarchy else None
    try:
        full = [*_limit_argv(tools, limits, cgroup.join if cgroup else None), *command]
        return _run(shown, full, workdir, env, limits, stdin, sandboxed, cgroup)
    finally:
        if cgroup is not None:
            cgroup.kill_all_and_remove()


def _checked_dir(path: Path) -> Path:
    resolved = Path(path).resolve()
    if not resolved.is_dir():
        raise ValueError(f"workdir {str(path)!r} must be an existing directory")
    if resolved == Path("/"):
        raise ValueError("workdir must not be the filesystem root")
    return resolved


def _checked_path(path: Path) -> Path:
    resolved = Path(path).resolve()
    if not resolved.exists():
        raise ValueError(f"readonly path {str(path)!r} does not exist")
    return resolved


def _run(
    shown: tuple[str, ...],
    command: list[str],
    workdir: Path,
    env: dict[str, str],
    limits: SandboxLimits,
    stdin: bytes | None,
    sandboxed: bool,
    cgroup: _Cgroup | None,
) -> SandboxResult:
    """Start, pump, kill the tree, reap with rusage, and fold it all into a result."""
    start = time.monotonic()
    proc = subprocess.Popen(
        command,
        cwd=workdir,
        env=env,
        stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    streams = {f.fileno(): _Stream(limits.max_output_bytes) for f in (proc.stdout, proc.stderr)}
    try:
        reason = _pump(
            proc, streams, stdin, start + limits.timeout_seconds, FLOOD_FACTOR * limits.max_output_bytes
        )
    finally:
        try:
            _kill_group(proc.pid)  # before reaping, so the group id cannot have been reused
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            if cgroup is not None:
                cgroup.kill_all_and_remove()  # before draining: a stray writer would hold the pipes open
            _drain(streams)
        finally:
            for f in (proc.stdin, proc.stdout, proc.stderr):
                if f is not None and not f.closed:
                    f.close()
    wall = time.monotonic() - start
    code: int | None = proc.returncode
    if reason is None and proc.returncode < 0:
        reason = f"signal {-proc.returncode}"
    if reason is not None:
        code = None
    out, err = streams.values()
    return SandboxResult(
        argv=shown,
        exit_code=code,
        timed_out=reason == "timeout",
        stdout=out.text(),
        stderr=err.text(),
        stdout_bytes=out.total,
        stderr_bytes=err.total,
        truncated=out.total > len(out.kept) or err.total > len(err.kept),
        wall_seconds=wall,
        peak_memory_kb=int(usage.ru_maxrss),
        sandboxed=sandboxed,
        killed_reason=reason,
    )
