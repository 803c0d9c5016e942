"""Run an untrusted command with no network, no privileges, a bounded scratch space and hard resource caps.

Every tool that touches a candidate (a compiler, a kernel checker) runs through ``run_sandboxed``.
The candidate may have been written by an adversary, and a compile may run its code (a plugin, a tactic
that shells out), so the command gets (with bubblewrap):

- its own network, PID, IPC, UTS and cgroup namespaces: no network except its own loopback; the command
  is PID 1 of its namespace, so when it ends the kernel kills everything else in it (daemons included);
- a life no longer than the harness's: whatever way the harness process ends (SIGKILL included), the
  kernel kills every process of the run (``lifetime`` says how, with the sources it rests on);
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
- no capabilities, a new session (no ``TIOCSTI`` into the caller's terminal);
- exactly the environment the caller passes (plus a minimal ``PATH``/``HOME``/``LANG``);
- a wall-clock timeout, an address-space limit per process (``RLIMIT_AS``), a fixed stack limit
  (``RLIMIT_STACK``, so that how deep a tool may recurse does not depend on the host), no core dumps, an
  optional CPU limit, a process/thread limit (a cgroup ``pids.max`` where this process may create one, which also
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
A wrapper shell joins the run's cgroup before it execs anything else (see ``host.PidsHierarchy`` for why
it writes to ``tasks`` on cgroup v1).

The parts, one concept a module: ``limits`` (caps, results, shared constants), ``host`` (wrapper tools,
ids, pids cgroups), ``workspace`` (the files a run sees and leaves), ``command`` (the wrapped command
line), ``lifetime`` (dying with the harness) and ``run`` (one run). The agent's long-lived sandboxed
commands (warm checkers) are not verdicts and live outside: ``putnam_solver.kits.sandbox_session``.
``unsafe_no_sandbox`` keeps every cap (rlimits including the per-file size, cgroup, timeout, output cap,
process-group kill) but runs as the harness's own uid, writes straight into ``workdir`` and bounds
disk use only per file.

Fail closed: a result is ``ok`` only when the command exited 0 on its own and every output it produced
was kept whole; anything the harness had to kill, or any internal error (which raises), is never ``ok``.
"""

from putnam_solver.core.sandbox.command import outside_system_dirs
from putnam_solver.core.sandbox.host import landlock_status
from putnam_solver.core.sandbox.lifetime import stop_all, stopping
from putnam_solver.core.sandbox.limits import (
    COPY_FAILED,
    DEFAULT_PATH,
    FLOOD_FACTOR,
    SANDBOX_GID,
    SANDBOX_UID,
    SandboxLimits,
    SandboxResult,
    SandboxUnavailable,
)
from putnam_solver.core.sandbox.run import base_environment, run_sandboxed, sandbox_status
from putnam_solver.core.sandbox.workspace import fresh_copy

__all__ = [
    "COPY_FAILED",
    "DEFAULT_PATH",
    "FLOOD_FACTOR",
    "SANDBOX_GID",
    "SANDBOX_UID",
    "SandboxLimits",
    "SandboxResult",
    "SandboxUnavailable",
    "base_environment",
    "fresh_copy",
    "landlock_status",
    "outside_system_dirs",
    "run_sandboxed",
    "sandbox_status",
    "stop_all",
    "stopping",
]
