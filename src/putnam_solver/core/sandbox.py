"""Run an untrusted command with no network, no privileges, a bounded scratch space and hard resource caps.

Every tool that touches a candidate (a compiler, a kernel checker) runs through ``run_sandboxed``.
The candidate may have been written by an adversary, and a compile may run its code (a plugin, a tactic
that shells out), so the command gets (with bubblewrap):

- its own network, PID, IPC, UTS and cgroup namespaces: no network except its own loopback; the command
  is PID 1 of its namespace, so when it ends the kernel kills everything else in it (daemons included);
- an unprivileged identity: when the harness is root, the command runs as ``SANDBOX_UID``/``SANDBOX_GID``
  (``nobody``/``nogroup``) with no supplementary groups, no capabilities (bounding set empty) and
  ``no_new_privs``, so it owns none of root's files. Bubblewrap itself stays privileged to build the
  mounts (it reads host paths an unprivileged user could not reach, and without a user namespace,
  since one created by root maps uid 0 to the host's root); util-linux ``setpriv`` drops to the sandbox
  ids inside it, keeping only the capabilities it needs for that. When the harness is not root, the
  command runs under the harness's own uid in a user namespace, as before. ``SandboxResult.uid`` and
  ``sandbox_status`` say which uid it was;
- a filesystem built from nothing: the system directories (``/usr`` and the ``/bin``-style links) and
  the caller's ``readonly`` paths, all read-only; a minimal ``/etc`` that holds only a ``passwd`` and a
  ``group`` written for the sandbox ids and the host's ``ld.so.cache`` (the dynamic loader's library
  index) -- no shadow, no host configuration (a tool that needs a host configuration file gets it
  through ``readonly``); a minimal ``/dev``; a fresh ``/proc`` whose kernel-tunable parts are read-only.
  The caller's home directory, credentials and other scratch directories are simply not there;
- bounded disk: ``workdir`` is, inside the sandbox, a fresh tmpfs of ``limits.disk_mb`` at the workdir's
  own path, with the files the harness put in ``workdir`` bound into it read-only; ``/tmp`` is another
  such tmpfs; every file any process writes is capped at the same size (``RLIMIT_FSIZE``; exceeding it
  kills the writer with ``SIGXFSZ``), and a full tmpfs fails writes with ``ENOSPC``. Nothing of what the
  command writes reaches the host except the ``outputs`` the caller names: each is a file the harness
  pre-creates in ``workdir`` and binds (as the only writable host path) into the sandbox, and into
  which a wrapper shell copies the tool's file of that name once the tool has exited (so a tool that
  writes a temporary file and renames it, as ``lean -o`` does, works too). The host therefore holds at
  most ``len(outputs) * disk_mb`` of the run's data;
- no capabilities, a new session (no ``TIOCSTI`` into the caller's terminal), death with its parent;
- exactly the environment the caller passes (plus a minimal ``PATH``/``HOME``/``LANG``);
- a wall-clock timeout, an address-space limit per process (``RLIMIT_AS``), no core dumps, an optional
  CPU limit, a process/thread limit (a cgroup ``pids.max`` where this process may create one, which also
  lets the harness kill every leftover process; otherwise ``RLIMIT_NPROC``, which counts every process of
  the command's uid on the host) and an output cap (bytes beyond it are counted, not kept; a flood is
  killed).

Whatever the command leaves in an output is untrusted: read it only with ``safe_files`` (no link
following, regular files only, under a size cap). Toolchains outside the system directories (a Lean
toolchain, a virtualenv) must be passed in ``readonly`` and be readable by the sandbox uid; ``workdir``
and ``readonly`` paths appear at their own absolute paths.

Process limit, as found on a root host with cgroup v1: ``RLIMIT_NPROC`` is not enforced for uid 0 and is
shared by every process of one uid; a per-run child of our own pids cgroup is exact. Where no pids
cgroup is writable, ``sandbox_status`` says so and only ``RLIMIT_NPROC`` applies.
A wrapper shell joins the run's cgroup before it execs anything else (see ``_PidsHierarchy`` for why
it writes to ``tasks`` on cgroup v1).
``unsafe_no_sandbox`` keeps every cap (rlimits including the per-file size, cgroup, timeout, output cap,
process-group kill) but runs as the harness's own uid, writes straight into ``workdir`` and bounds
disk use only per file.

Fail closed: a result is ``ok`` only when the command exited 0 on its own and every output it produced
was kept whole; anything the harness had to kill, or any internal error (which raises), is never ``ok``.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import platform
import selectors
import shlex
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from putnam_solver.core.untrusted import clean_text

__all__ = [
    "COPY_FAILED",
    "SANDBOX_GID",
    "SANDBOX_UID",
    "SandboxLimits",
    "SandboxResult",
    "SandboxSession",
    "SandboxUnavailable",
    "SessionError",
    "SessionTimeout",
    "fresh_copy",
    "landlock_status",
    "outside_system_dirs",
    "run_sandboxed",
    "sandbox_status",
    "start_session",
]

DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"
FLOOD_FACTOR = 16  # a stream producing this many times the cap is killed: nobody reads that much
_CHUNK = 1 << 16
_DRAIN_SECONDS = 2.0  # after the tree is killed, how long to wait for the pipes to report end-of-file
_REAP_SECONDS = 5.0  # how long to wait for a killed cgroup to become empty
_EXTRA_TASKS = 1  # the outer bubblewrap process counts against pids.max too (and the copying shell, if any)
_MIB = 1 << 20
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# The only host files of /etc the sandbox sees: the dynamic loader's index of library directories.
_HOST_ETC = ("/etc/ld.so.cache",)
_OUTPUT_DIR = "/.putnam-out"  # where the pre-created output files are bound inside the sandbox
SANDBOX_UID = 65534
SANDBOX_GID = 65534
"""The ids sandboxed commands run as when the harness is root: the kernel's overflow ids, ``nobody`` and
``nogroup`` on Debian-like systems, which own no files. Sandboxed processes cannot see or signal host
processes of that uid (they live in their own PID namespace)."""
COPY_FAILED = 125
"""Exit code of a run whose tool exited 0 but one of whose outputs could not be kept (larger than the
disk cap, or not a regular file)."""
# Capabilities the privileged bubblewrap keeps for setpriv, which drops them all with the uid.
_SETPRIV_CAPS = ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP")
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
    command's processes and threads. ``max_output_bytes`` is per stream. ``disk_mb`` caps, each on its
    own, the sandbox's writable workdir, its ``/tmp`` and every single file the command writes (so also
    each output the host keeps); both tmpfs are memory, so a run may hold up to twice ``disk_mb`` of it
    besides ``memory_mb``. 1 GiB is far more than any compiled PutnamBench proof needs.
    """

    timeout_seconds: float = 600.0
    memory_mb: int = 8192
    max_output_bytes: int = 4 << 20
    max_processes: int = 256
    cpu_seconds: int | None = None
    disk_mb: int = 1024

    @property
    def disk_bytes(self) -> int:
        return self.disk_mb * _MIB

    def __post_init__(self) -> None:
        numbers = (self.timeout_seconds, self.memory_mb, self.max_output_bytes, self.max_processes, self.disk_mb)
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
    at the fork. ``uid`` is the host uid the command ran as (``SANDBOX_UID`` when the harness is root
    and the run was sandboxed). A sandboxed run's ``outputs`` exist in ``workdir`` afterwards only if
    the tool left a non-empty regular file of that name; a tool that exits 0 but leaves an output over
    the disk cap ends with exit code ``COPY_FAILED`` (never ``ok``). Outputs are untrusted bytes.
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
    uid: int

    @property
    def ok(self) -> bool:
        """True only when the command exited 0 on its own, with nothing killed."""
        return self.exit_code == 0 and not self.timed_out and self.killed_reason is None


@dataclass(frozen=True)
class _Tools:
    sh: str
    prlimit: str
    cat: str
    setpriv: str | None  # needed only when the harness is root


@dataclass(frozen=True)
class _Identity:
    """Who the command runs as; ``drop`` when the harness is root and ``setpriv`` must switch ids."""

    uid: int
    gid: int
    drop: bool

    @property
    def namespaces(self) -> tuple[str, ...]:
        """A user namespace only without ``drop``: one created by root would map uid 0 to host root, and
        setpriv could not switch to an id the namespace does not map."""
        if self.drop:
            return ("--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try")
        return ("--unshare-all",)


def _identity(sandboxed: bool) -> _Identity:
    if sandboxed and os.geteuid() == 0:
        return _Identity(SANDBOX_UID, SANDBOX_GID, True)
    return _Identity(os.geteuid(), os.getegid(), False)


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
    """The wrapper tools every run needs (util-linux ``prlimit`` sets the rlimits without preexec_fn;
    util-linux ``setpriv`` drops root's ids inside the sandbox)."""
    found = {name: shutil.which(name, path=DEFAULT_PATH) for name in ("sh", "prlimit", "cat", "setpriv")}
    sh, prlimit, cat, setpriv = found.values()
    if sh is None or prlimit is None or cat is None or (setpriv is None and os.geteuid() == 0):
        missing = ", ".join(f"`{name}`" for name, path in found.items() if path is None)
        raise SandboxUnavailable(f"{missing} not found: install util-linux (Debian: apt-get install util-linux)")
    return _Tools(sh=sh, prlimit=prlimit, cat=cat, setpriv=setpriv)


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
        procs = "process limit: RLIMIT_NPROC (counts all processes of the sandbox uid)"
    identity = _identity(True)
    who = f"runs as uid {identity.uid} (unprivileged)" if identity.drop else f"runs as uid {identity.uid}"
    return True, f"{bwrap}; {who}; {procs}"


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
        target.chmod(0o644)
    for directory in (root, *(d for d in root.rglob("*") if d.is_dir())):
        directory.chmod(0o755)  # the sandbox uid must read it; the private directories above keep others out
    return root


# --------------------------------------------------------------------------- command lines


@dataclass(frozen=True)
class _Box:
    """What one sandboxed run mounts besides the system: its identity, the harness's files in ``workdir``
    (``inputs``, bound read-only), the host files that receive ``outputs`` (in order), the synthesized
    ``/etc`` files (destination -> readable descriptor) and the size of each tmpfs."""

    identity: _Identity
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    etc: Mapping[str, int]
    disk_bytes: int


def _bwrap_argv(bwrap: str, argv: Sequence[str], workdir: Path, readonly: Sequence[Path], box: _Box) -> list[str]:
    """The bubblewrap command line. Mounts are ordered by depth so nested ones land on top."""
    # --as-pid-1: no bubblewrap reaper in between, so the command's rusage reaches our wait4.
    args = [bwrap, *box.identity.namespaces, "--as-pid-1", "--die-with-parent", "--new-session"]
    for top in _SYSTEM_DIRS:
        path = Path(top)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), top]
        elif path.is_dir():
            args += ["--ro-bind", top, top]
    args += ["--perms", "0755", "--dir", "/etc"]
    for dest, fd in box.etc.items():
        args += ["--perms", "0644", "--ro-bind-data", str(fd), dest]
    for name in _HOST_ETC:
        args += ["--ro-bind-try", name, name]
    args += ["--dev", "/dev", "--proc", "/proc"]
    for name in _PROC_COVER:
        args += ["--ro-bind-try", f"/proc/{name}", f"/proc/{name}"]
    size = str(box.disk_bytes)
    args += ["--size", size, "--perms", "1777", "--tmpfs", "/tmp"]
    scratch = ["--size", size, "--perms", "0777", "--tmpfs", str(workdir)]
    for name in box.inputs:
        scratch += ["--ro-bind", str(workdir / name), str(workdir / name)]
    mounts = [(p, ["--ro-bind", str(p), str(p)]) for p in readonly] + [(workdir, scratch)]
    for parent in _parents([workdir, *readonly]):
        args += ["--perms", "0755", "--dir", str(parent)]
    for _, mount in sorted(mounts, key=lambda m: len(m[0].parts)):
        args += mount
    if box.outputs:
        args += ["--perms", "0755", "--dir", _OUTPUT_DIR]
        for index, name in enumerate(box.outputs):
            args += ["--bind", str(workdir / name), f"{_OUTPUT_DIR}/{index}"]
    args += ["--remount-ro", "/", "--chdir", str(workdir), "--cap-drop", "ALL"]
    if box.identity.drop:
        for cap in _SETPRIV_CAPS:
            args += ["--cap-add", cap]
    return [*args, "--", *argv]


def outside_system_dirs(path: Path) -> bool:
    """Whether ``path`` lies outside the system directories every sandbox shows (so a caller that needs
    it there must pass it in ``readonly``)."""
    return not any(path.is_relative_to(top) for top in _SYSTEM_DIRS)


def _parents(paths: Sequence[Path]) -> list[Path]:
    """The directories above ``paths`` that the sandbox must create, outermost first.

    Bubblewrap would make them with the host's modes or 0700, and the sandbox uid could not reach a
    toolchain under ``/root``; these are empty directories of the sandbox's own root, so 0755 shows
    nothing of the host.
    """
    system = [Path(top) for top in _SYSTEM_DIRS]
    found = {a for p in paths for a in p.parents if a != Path("/") and not any(a.is_relative_to(s) for s in system)}
    return sorted(found, key=lambda a: len(a.parts))


def _inner_argv(tools: _Tools, box: _Box, argv: Sequence[str]) -> list[str]:
    """What runs inside bubblewrap: ``setpriv`` to the sandbox ids (if dropping), then the output-copying
    shell (if there are outputs), then the command."""
    head: list[str] = []
    if box.identity.drop:
        assert tools.setpriv is not None  # _find_tools refuses root without setpriv
        identity = box.identity
        head += [tools.setpriv, f"--reuid={identity.uid}", f"--regid={identity.gid}", "--clear-groups"]
        head += ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    if box.outputs:
        head += [tools.sh, "-c", _copy_script(tools.cat, box.outputs), "putnam-sandbox"]
    return [*head, *argv]


def _copy_script(cat: str, outputs: Sequence[str]) -> str:
    """Run the command, then copy each output it left as a regular file into its bound host file.

    The copy runs in the sandbox with the same caps, so a file over the size cap kills ``cat`` with
    ``SIGXFSZ``; a run whose tool succeeded then fails with ``COPY_FAILED``. A link or special file is
    not copied (the output stays empty and the host drops it).
    """
    lines = ['"$@"', "rc=$?"]
    for index, name in enumerate(outputs):
        quoted = shlex.quote(name)
        lines.append(
            f"if [ -f {quoted} ] && [ ! -h {quoted} ]; then {shlex.quote(cat)} -- {quoted} > {_OUTPUT_DIR}/{index}"
            f" || {{ echo {shlex.quote(f'sandbox: could not keep output {name} (over the disk cap?)')} >&2;"
            f" [ $rc -ne 0 ] || rc={COPY_FAILED}; }}; fi"
        )
    return "\n".join([*lines, "exit $rc"])


def _limit_argv(tools: _Tools, limits: SandboxLimits, tasks: int, join: Path | None) -> list[str]:
    """Wrapper that joins the run's cgroup (if any) through ``join`` and sets rlimits, then execs the rest.

    ``tasks`` is the process limit: the command's own plus the wrappers that stay alive beside it.
    """
    head = [tools.sh, "-c", 'echo 0 > "$0" && exec "$@"', str(join)] if join else []
    memory = limits.memory_mb * _MIB
    head += [tools.prlimit, f"--as={memory}", "--core=0", f"--fsize={limits.disk_bytes}"]
    if join is None:
        head.append(f"--nproc={tasks}")
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


def _write_some(sel: selectors.BaseSelector, proc: subprocess.Popen[bytes], pending: memoryview) -> memoryview:
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
    outputs: Sequence[str] = (),
) -> SandboxResult:
    """Run ``argv`` in ``workdir`` inside bubblewrap with ``limits``; see the module docstring.

    Inside, ``workdir`` is a fresh size-capped tmpfs holding read-only binds of what ``workdir`` holds
    on the host (regular files and directories only); ``readonly`` paths appear at their own paths.
    ``outputs`` are the relative names of the files the caller wants back in ``workdir`` (at most
    ``limits.disk_mb`` each; absent if the tool left none); nothing else the command writes survives.
    ``unsafe_no_sandbox`` runs the command directly in ``workdir`` with the same caps and
    ``sandboxed=False``. Raises SandboxUnavailable when bubblewrap cannot run, ValueError for a bad
    workdir, readonly path or output name, FileNotFoundError when a bare ``argv[0]`` is not on PATH.
    """
    workdir = _checked_dir(workdir)
    ro = [_checked_path(p) for p in readonly]
    full_env = {"PATH": DEFAULT_PATH, "HOME": str(workdir), "LANG": "C.UTF-8", **(env or {})}
    command = _resolve(argv, full_env)
    if not unsafe_no_sandbox:
        available, why = sandbox_status()
        if not available:
            raise SandboxUnavailable(why)
    names = tuple(outputs)
    return _execute(tuple(argv), command, workdir, ro, full_env, limits, stdin, not unsafe_no_sandbox, names)


def _execute(
    shown: tuple[str, ...],
    command: list[str],
    workdir: Path,
    readonly: Sequence[Path],
    env: dict[str, str],
    limits: SandboxLimits,
    stdin: bytes | None,
    sandboxed: bool,
    outputs: tuple[str, ...] = (),
) -> SandboxResult:
    """Wrap ``command`` in bubblewrap (if ``sandboxed``) and the limit wrapper, run it in its own cgroup."""
    with contextlib.ExitStack() as stack:
        wrapped = _wrap(command, workdir, readonly, limits, sandboxed, outputs, stack)
        try:
            return _run(
                shown, wrapped.argv, workdir, env, limits, stdin, sandboxed, wrapped.cgroup, wrapped.fds, wrapped.uid
            )
        finally:
            if wrapped.cgroup is not None:
                wrapped.cgroup.kill_all_and_remove()


@dataclass(frozen=True)
class _Wrapped:
    """A command ready to start: the full argv (limit wrapper, bubblewrap, setpriv, command), its cgroup
    (the caller removes it), the descriptors bubblewrap reads and the uid the command runs as."""

    argv: list[str]
    cgroup: _Cgroup | None
    fds: tuple[int, ...]
    uid: int


def _wrap(
    command: list[str],
    workdir: Path,
    readonly: Sequence[Path],
    limits: SandboxLimits,
    sandboxed: bool,
    outputs: tuple[str, ...],
    stack: contextlib.ExitStack,
) -> _Wrapped:
    """Build the wrapped command; the ``/etc`` descriptors live until ``stack`` closes."""
    tools = _find_tools()
    identity = _identity(sandboxed)
    fds: tuple[int, ...] = ()
    if sandboxed:
        bwrap = shutil.which("bwrap", path=DEFAULT_PATH)
        if bwrap is None:
            raise SandboxUnavailable(f"bubblewrap (bwrap) not found. Fix: {_INSTALL_HINT}")
        box = _prepare_box(workdir, outputs, identity, limits, stack)
        stack.callback(_drop_unproduced, workdir, outputs)
        fds = tuple(box.etc.values())
        command = _bwrap_argv(bwrap, _inner_argv(tools, box, command), workdir, readonly, box)
    tasks = limits.max_processes + _EXTRA_TASKS + bool(sandboxed and outputs)
    hierarchy = _pids_cgroup_parent()
    cgroup = _Cgroup(hierarchy, tasks) if hierarchy else None
    try:
        full = [*_limit_argv(tools, limits, tasks, cgroup.join if cgroup else None), *command]
    except BaseException:
        if cgroup is not None:
            cgroup.kill_all_and_remove()
        raise
    return _Wrapped(full, cgroup, fds, identity.uid)


def _prepare_box(
    workdir: Path, outputs: tuple[str, ...], identity: _Identity, limits: SandboxLimits, stack: contextlib.ExitStack
) -> _Box:
    """List the harness's files in ``workdir``, pre-create the output files, write the ``/etc`` files."""
    inputs = _inputs(workdir)
    for name in outputs:
        _precreate(workdir, name, inputs, identity)
    etc = {dest: stack.enter_context(_memfd(dest, data)) for dest, data in _etc_files(identity, workdir).items()}
    return _Box(identity, inputs, outputs, etc, limits.disk_bytes)


def _inputs(workdir: Path) -> tuple[str, ...]:
    """The entries of ``workdir`` to bind read-only; a link could point the bind anywhere on the host."""
    names = []
    for entry in os.scandir(workdir):
        if not (entry.is_file(follow_symlinks=False) or entry.is_dir(follow_symlinks=False)):
            raise ValueError(
                f"{entry.path} is a link or special file: the sandbox binds only the regular files and "
                "directories the harness wrote into the workdir (build it with fresh_copy)"
            )
        names.append(entry.name)
    return tuple(sorted(names))


def _precreate(workdir: Path, name: str, inputs: tuple[str, ...], identity: _Identity) -> None:
    """Create the empty host file that will receive output ``name``, writable by the sandbox uid only."""
    rel = PurePosixPath(name)
    if not name or rel.is_absolute() or ".." in rel.parts or rel == PurePosixPath(".") or rel.parts[0] in inputs:
        raise ValueError(
            f"output {name!r} must be a relative path without '..' that does not overwrite a file the "
            f"harness put in {workdir}"
        )
    target = workdir.joinpath(*rel.parts)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        if identity.drop:
            os.fchown(fd, identity.uid, identity.gid)
    finally:
        os.close(fd)


def _drop_unproduced(workdir: Path, outputs: tuple[str, ...]) -> None:
    """Remove the outputs the tool did not leave (still empty), so that callers can test for existence."""
    for name in outputs:
        target = workdir / name
        with contextlib.suppress(FileNotFoundError):
            info = os.lstat(target)
            if stat.S_ISREG(info.st_mode) and info.st_size == 0:
                target.unlink()


def _etc_files(identity: _Identity, workdir: Path) -> dict[str, bytes]:
    """The account files of the sandbox's ``/etc``: root and the sandbox ids, nothing of the host's."""
    passwd = (
        "root:x:0:0:root:/root:/usr/sbin/nologin\n"
        f"sandbox:x:{identity.uid}:{identity.gid}:sandbox:{workdir}:/usr/sbin/nologin\n"
    )
    group = f"root:x:0:\nsandbox:x:{identity.gid}:\n"
    return {"/etc/passwd": passwd.encode(), "/etc/group": group.encode()}


@contextlib.contextmanager
def _memfd(name: str, data: bytes) -> Iterator[int]:
    """An anonymous in-memory file holding ``data``, positioned at its start, for bubblewrap to read."""
    fd = os.memfd_create(name.strip("/").replace("/", "-"), os.MFD_CLOEXEC)
    try:
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
        yield fd
    finally:
        os.close(fd)


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
    pass_fds: tuple[int, ...],
    uid: int,
) -> SandboxResult:
    """Start, pump, kill the tree, reap with rusage, and fold it all into a result."""
    start = time.monotonic()
    proc = subprocess.Popen(
        command,
        cwd=workdir,
        env=env,
        pass_fds=pass_fds,
        stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    streams = {f.fileno(): _Stream(limits.max_output_bytes) for f in (proc.stdout, proc.stderr)}
    try:
        reason = _pump(proc, streams, stdin, start + limits.timeout_seconds, FLOOD_FACTOR * limits.max_output_bytes)
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
        uid=uid,
    )


# --------------------------------------------------------------------------- sessions


class SessionError(Exception):
    """A sandboxed session can no longer be used (it died, flooded its output, or a read timed out);
    the session is closed when this is raised. Nothing it was doing counts as a result."""


class SessionTimeout(SessionError):
    """A read did not complete by its deadline (the session was killed)."""


_STDERR_KEPT = 1 << 16


class SandboxSession:
    """A long-lived command in the sandbox of ``run_sandboxed``, spoken to over its stdin and stdout.

    A warm checker (a ``coqtop`` with the imports loaded, a ``lean --server``) is started once and given
    many inputs. It gets exactly the isolation and caps of a one-shot run (namespaces, unprivileged ids,
    file system, address space, process count, per-file size), except the wall clock: each ``read``
    carries its own deadline, and a read that misses it kills the session (``SessionTimeout``). Unread
    stdout is capped at ``limits.max_output_bytes``: a command that floods it is killed. stderr is drained
    in the background and only its tail is kept. ``close`` (idempotent, also on garbage collection by the
    caller's ``with``) kills every process of the session.

    Like every sandboxed output, what the session prints is untrusted: callers parse it as diagnostics,
    never as a verdict.
    """

    def __init__(self, proc: subprocess.Popen[bytes], cgroup: _Cgroup | None, limits: SandboxLimits, uid: int) -> None:
        self._proc = proc
        self._cgroup = cgroup
        self._limits = limits
        self.uid = uid
        self._buffer = bytearray()
        self._stderr = bytearray()
        self._eof = False
        self._closed = False
        self._flooded = False
        self._cond = threading.Condition()
        assert proc.stdout is not None
        self._threads = [threading.Thread(target=self._pump_stdout, name="putnam-session-out", daemon=True)]
        if proc.stderr is not None:
            self._threads.append(threading.Thread(target=self._pump_stderr, name="putnam-session-err", daemon=True))
        for thread in self._threads:
            thread.start()

    def __enter__(self) -> SandboxSession:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def alive(self) -> bool:
        return not self._closed and self._proc.poll() is None

    def send(self, data: bytes) -> None:
        """Write ``data`` to the command's stdin (SessionError if it is gone)."""
        if not self.alive:
            self.close()
            raise SessionError(f"the session has ended ({self._ending()})")
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(data)
            self._proc.stdin.flush()
        except OSError as exc:
            self.close()
            raise SessionError(f"the session stopped reading its input ({exc}; {self._ending()})") from exc

    def read(self, until: Callable[[bytes], int | None], deadline: float) -> bytes:
        """Wait until ``until(unread stdout)`` returns an end index, then return (and consume) the bytes up
        to it. ``deadline`` is a ``time.monotonic()`` value. Raises SessionTimeout past it, SessionError
        when the command ends or floods first; either way the session is closed."""
        timed_out = False
        with self._cond:
            while True:
                end = until(bytes(self._buffer))
                if end is not None:
                    taken = bytes(self._buffer[:end])
                    del self._buffer[:end]
                    return taken
                if self._flooded or self._eof or self._closed:
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    timed_out = True
                    break
                self._cond.wait(min(remaining, 1.0))
        if timed_out:
            self.close()
            raise SessionTimeout("the session did not answer in time (it was stopped)")
        why = (
            f"its output exceeded {self._limits.max_output_bytes} bytes"
            if self._flooded
            else f"it ended ({self._ending()})"
        )
        self.close()
        raise SessionError(f"the session stopped: {why}")

    def stderr_tail(self) -> str:
        with self._cond:
            return clean_text(bytes(self._stderr).decode("utf-8", errors="replace"))

    def close(self) -> None:
        """Kill every process of the session and release its resources (idempotent)."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()
        _kill_group(self._proc.pid)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=_REAP_SECONDS)
        if self._cgroup is not None:
            self._cgroup.kill_all_and_remove()
        for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=_DRAIN_SECONDS)

    def _ending(self) -> str:
        code = self._proc.poll()
        tail = self.stderr_tail().strip()[-300:]
        return f"exit code {code}" + (f"; stderr: {tail}" if tail else "")

    def _pump_stdout(self) -> None:
        stream = self._proc.stdout
        assert stream is not None
        fd = stream.fileno()
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError:
                chunk = b""
            with self._cond:
                if not chunk:
                    self._eof = True
                    self._cond.notify_all()
                    return
                self._buffer += chunk
                if len(self._buffer) > self._limits.max_output_bytes:
                    self._flooded = True
                    self._buffer.clear()
                self._cond.notify_all()
            if self._flooded:
                _kill_group(self._proc.pid)

    def _pump_stderr(self) -> None:
        stream = self._proc.stderr
        assert stream is not None
        fd = stream.fileno()
        total = 0
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError:
                return
            if not chunk:
                return
            total += len(chunk)
            with self._cond:
                self._stderr += chunk
                del self._stderr[:-_STDERR_KEPT]
            if total > FLOOD_FACTOR * self._limits.max_output_bytes:
                with self._cond:
                    self._flooded = True
                    self._cond.notify_all()
                _kill_group(self._proc.pid)
                return


def start_session(
    argv: Sequence[str],
    *,
    workdir: Path,
    readonly: Sequence[Path] = (),
    env: Mapping[str, str] | None = None,
    limits: SandboxLimits = SandboxLimits(),
    unsafe_no_sandbox: bool = False,
    merge_stderr: bool = False,
) -> SandboxSession:
    """Start ``argv`` as a ``SandboxSession`` in ``workdir`` (see ``run_sandboxed`` for the sandbox and
    the arguments; a session has no outputs: nothing it writes reaches the host). ``merge_stderr``
    sends the command's stderr into the stdout the session reads, in the order it was written (a
    toplevel that prints its prompts and errors on stderr and its answers on stdout)."""
    workdir = _checked_dir(workdir)
    ro = [_checked_path(p) for p in readonly]
    full_env = {"PATH": DEFAULT_PATH, "HOME": str(workdir), "LANG": "C.UTF-8", **(env or {})}
    command = _resolve(argv, full_env)
    if not unsafe_no_sandbox:
        available, why = sandbox_status()
        if not available:
            raise SandboxUnavailable(why)
    with contextlib.ExitStack() as stack:
        wrapped = _wrap(command, workdir, ro, limits, not unsafe_no_sandbox, (), stack)
        try:
            proc = subprocess.Popen(
                wrapped.argv,
                cwd=workdir,
                env=full_env,
                pass_fds=wrapped.fds,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
                start_new_session=True,
            )
        except BaseException:
            if wrapped.cgroup is not None:
                wrapped.cgroup.kill_all_and_remove()
            raise
    return SandboxSession(proc, wrapped.cgroup, limits, wrapped.uid)
