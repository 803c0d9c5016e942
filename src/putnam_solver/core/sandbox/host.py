"""What the host offers a sandbox: the wrapper tools, the ids a command runs as, a pids cgroup per run."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import platform
import resource
import shutil
import signal
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from putnam_solver.core.sandbox.limits import DEFAULT_PATH, REAP_SECONDS, SANDBOX_GID, SANDBOX_UID, SandboxUnavailable


@dataclass(frozen=True)
class Tools:
    sh: str
    prlimit: str
    cat: str
    setpriv: str
    dd: str


@dataclass(frozen=True)
class Identity:
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


def identity_for(sandboxed: bool) -> Identity:
    if sandboxed and os.geteuid() == 0:
        return Identity(SANDBOX_UID, SANDBOX_GID, True)
    return Identity(os.geteuid(), os.getegid(), False)


def find_tools() -> Tools:
    """The wrapper tools every run needs (util-linux ``prlimit`` sets the rlimits without preexec_fn;
    util-linux ``setpriv`` arms the parent-death signal of every run and drops root's ids inside the
    sandbox; coreutils ``dd`` reads the harness's lifeline)."""
    names = ("sh", "prlimit", "cat", "setpriv", "dd")
    found = {name: shutil.which(name, path=DEFAULT_PATH) for name in names}
    missing = [name for name, path in found.items() if path is None]
    if missing:
        raise SandboxUnavailable(
            f"{', '.join(f'`{name}`' for name in missing)} not found: install util-linux and coreutils "
            "(Debian: apt-get install util-linux coreutils)"
        )
    return Tools(**{name: str(path) for name, path in found.items()})


def check_stack_limit(stack_bytes: int) -> None:
    """Refuse to run when this process may not give a run its stack limit: a hard ``RLIMIT_STACK``
    below it cannot be raised without ``CAP_SYS_RESOURCE``, and a smaller stack would make verdicts
    depend on the host (``SandboxLimits.stack_mb``)."""
    hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
    if hard != resource.RLIM_INFINITY and hard < stack_bytes:
        raise SandboxUnavailable(
            f"the sandbox gives every run a {stack_bytes >> 20} MB stack, but this process's hard stack limit "
            f"is {hard >> 20} MB: raise it (ulimit -Hs unlimited) before starting putnam"
        )


@dataclass(frozen=True)
class PidsHierarchy:
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
def pids_cgroup_parent() -> PidsHierarchy | None:
    """A pids cgroup (v1 controller or delegated v2) under which this process may create children.

    Creating a child cgroup per run gives a process limit that also holds for root (``RLIMIT_NPROC``
    does not) and a complete list of the run's processes to kill at the end. Only our own cgroup's
    subtree is used; nothing else in the hierarchy is touched.
    """
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, rel = line.split(":", 2)
        if "pids" in controllers.split(","):
            found = PidsHierarchy(Path("/sys/fs/cgroup/pids") / rel.lstrip("/"), "tasks")
        elif controllers == "" and Path("/sys/fs/cgroup/cgroup.controllers").exists():
            found = PidsHierarchy(Path("/sys/fs/cgroup") / rel.lstrip("/"), "cgroup.procs")
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


class Cgroup:
    """A per-run pids cgroup: caps the task count and lists every process to kill at the end."""

    def __init__(self, hierarchy: PidsHierarchy, max_tasks: int) -> None:
        self.path = hierarchy.parent / f"putnam-sandbox-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.join = self.path / hierarchy.join_file
        self.path.mkdir()
        (self.path / "pids.max").write_text(f"{max_tasks}\n")

    def kill_all_and_remove(self) -> None:
        """SIGKILL every member until the cgroup is empty, then remove it; raise if it will not empty."""
        deadline = time.monotonic() + REAP_SECONDS
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
