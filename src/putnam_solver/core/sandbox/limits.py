"""What a sandboxed run may use and what it reports: limits, results and the constants every part shares."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"
FLOOD_FACTOR = 16  # a stream producing this many times the cap is killed: nobody reads that much
CHUNK = 1 << 16
DRAIN_SECONDS = 2.0  # after the tree is killed, how long to wait for the pipes to report end-of-file
REAP_SECONDS = 5.0  # how long to wait for a killed cgroup to become empty
MIB = 1 << 20
SANDBOX_UID = 65534
SANDBOX_GID = 65534
"""The ids sandboxed commands run as when the harness is root: the kernel's overflow ids, ``nobody`` and
``nogroup`` on Debian-like systems, which own no files. Sandboxed processes cannot see or signal host
processes of that uid (they live in their own PID namespace)."""
COPY_FAILED = 125
"""Exit code of a run whose tool exited 0 but one of whose outputs could not be kept (larger than the
disk cap, or not a regular file)."""
ORPHANED = 124
"""Exit code of a run whose harness was already gone when the run started (see ``lifetime``)."""
INSTALL_HINT = (
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

    ``stack_mb`` is the stack limit (``RLIMIT_STACK``) every run gets, whatever the harness's own
    ``ulimit -s``: how deep a compiler may recurse decides whether a proof compiles (Coq reports
    ``Stack overflow`` from a deep computation that a bigger stack completes), so a verdict must not
    depend on the host's setting. 64 MiB is eight times the usual 8 MiB default, so what compiles on a
    default host compiles here; glibc also takes it as the default stack of a new thread, which the
    address-space cap bounds. A run that still overflows it is an ``error`` (an exhausted resource),
    never a rejection.
    """

    timeout_seconds: float = 600.0
    memory_mb: int = 8192
    max_output_bytes: int = 4 << 20
    max_processes: int = 256
    cpu_seconds: int | None = None
    disk_mb: int = 1024
    stack_mb: int = 64

    @property
    def disk_bytes(self) -> int:
        return self.disk_mb * MIB

    def __post_init__(self) -> None:
        numbers = (
            self.timeout_seconds,
            self.memory_mb,
            self.max_output_bytes,
            self.max_processes,
            self.disk_mb,
            self.stack_mb,
        )
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
