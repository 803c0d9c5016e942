"""The command line of one run: the limit wrapper, bubblewrap's mounts, the id switch, the output copy.

From the outside in: ``setpriv --pdeathsig`` and a shell that checks the harness is still there
(``lifetime``), the run's cgroup, ``prlimit``, bubblewrap, our PID 1 shell, ``setpriv`` to the
sandbox ids (root only), the output-copying shell (if the caller wants files back), the command.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from putnam_solver.core.sandbox.hidden import cover_argv
from putnam_solver.core.sandbox.host import (
    Cgroup,
    Identity,
    Tools,
    check_stack_limit,
    find_tools,
    identity_for,
    pids_cgroup_parent,
)
from putnam_solver.core.sandbox.lifetime import lifeline_fd, pid1_argv, tethered_argv
from putnam_solver.core.sandbox.limits import (
    COPY_FAILED,
    DEFAULT_PATH,
    INSTALL_HINT,
    MIB,
    SandboxLimits,
    SandboxUnavailable,
)
from putnam_solver.core.sandbox.workspace import bound_inputs, drop_unproduced, precreate

# The outer bubblewrap process counts against pids.max too (and our PID 1 and the copying shell, if any).
_EXTRA_TASKS = 1
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# The only host files of /etc the sandbox sees: the dynamic loader's index of library directories.
_HOST_ETC = ("/etc/ld.so.cache",)
_OUTPUT_DIR = "/.putnam-out"  # where the pre-created output files are bound inside the sandbox
# Capabilities the privileged bubblewrap keeps for setpriv, which drops them all with the uid.
_SETPRIV_CAPS = ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP")
# Parts of /proc that root may write even without capabilities (sysctls, sysrq, irq affinity ...).
_PROC_COVER = ("sys", "sysrq-trigger", "irq", "bus", "mtrr", "pressure", "acpi", "fs", "driver", "tty")


@dataclass(frozen=True)
class Box:
    """What one sandboxed run mounts besides the system: its identity, the harness's files in ``workdir``
    (``inputs``, bound read-only), the host files that receive ``outputs`` (in order), the synthesized
    ``/etc`` files (destination -> readable descriptor) and the size of each tmpfs."""

    identity: Identity
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    etc: Mapping[str, int]
    disk_bytes: int


def bwrap_argv(bwrap: str, argv: Sequence[str], workdir: Path, readonly: Sequence[Path], box: Box) -> list[str]:
    """The bubblewrap command line. Mounts are ordered by depth so nested ones land on top."""
    # --as-pid-1: no bubblewrap reaper in between, so the command's rusage reaches our wait4;
    # --die-with-parent: the monitor and the command die with the spawner (see ``lifetime``).
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
    args += cover_argv([*(Path(top) for top in _SYSTEM_DIRS if not Path(top).is_symlink()), *readonly])
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


def inner_argv(tools: Tools, box: Box, argv: Sequence[str]) -> list[str]:
    """What runs inside bubblewrap: our PID 1 shell, which runs the rest as its child and waits for it
    (so that the namespace dies with the monitor: ``lifetime``, step 3); ``setpriv`` to the sandbox ids
    (if dropping); the output-copying shell (if there are outputs); the command."""
    head = pid1_argv(tools.sh, tools.dd)
    if box.identity.drop:
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


def limit_argv(tools: Tools, limits: SandboxLimits, tasks: int, join: Path | None) -> list[str]:
    """Wrapper that ties the run to the harness's life (``lifetime.tethered_argv``), joins the run's
    cgroup (if any) through ``join`` and sets rlimits, then execs the rest.

    ``tasks`` is the process limit: the command's own plus the wrappers that stay alive beside it.
    Every rlimit that can change what a tool decides is set explicitly (the stack among them), so a
    verdict does not depend on the limits the harness itself was started with.
    """
    head = tethered_argv(tools.setpriv, tools.sh, join)
    memory = limits.memory_mb * MIB
    head += [tools.prlimit, f"--as={memory}", f"--stack={limits.stack_mb * MIB}", "--core=0"]
    head.append(f"--fsize={limits.disk_bytes}")
    if join is None:
        head.append(f"--nproc={tasks}")
    if limits.cpu_seconds is not None:
        head.append(f"--cpu={limits.cpu_seconds}")
    return [*head, "--"]


@dataclass(frozen=True)
class Wrapped:
    """A command ready to start: the full argv (limit wrapper, bubblewrap, setpriv, command), its cgroup
    (the caller removes it), the descriptors bubblewrap reads and the uid the command runs as."""

    argv: list[str]
    cgroup: Cgroup | None
    fds: tuple[int, ...]
    uid: int


def wrap(
    command: list[str],
    workdir: Path,
    readonly: Sequence[Path],
    limits: SandboxLimits,
    sandboxed: bool,
    outputs: tuple[str, ...],
    stack: contextlib.ExitStack,
) -> Wrapped:
    """Build the wrapped command; the ``/etc`` descriptors live until ``stack`` closes."""
    tools = find_tools()
    check_stack_limit(limits.stack_mb * MIB)
    identity = identity_for(sandboxed)
    fds: tuple[int, ...] = ()
    if sandboxed:
        bwrap = shutil.which("bwrap", path=DEFAULT_PATH)
        if bwrap is None:
            raise SandboxUnavailable(f"bubblewrap (bwrap) not found. Fix: {INSTALL_HINT}")
        box = prepare_box(workdir, outputs, identity, limits, stack)
        stack.callback(drop_unproduced, workdir, outputs)
        fds = (*box.etc.values(), lifeline_fd())
        command = bwrap_argv(bwrap, inner_argv(tools, box, command), workdir, readonly, box)
    tasks = limits.max_processes + _EXTRA_TASKS + bool(sandboxed and outputs) + sandboxed
    hierarchy = pids_cgroup_parent()
    cgroup = Cgroup(hierarchy, tasks) if hierarchy else None
    try:
        full = [*limit_argv(tools, limits, tasks, cgroup.join if cgroup else None), *command]
    except BaseException:
        if cgroup is not None:
            cgroup.kill_all_and_remove()
        raise
    return Wrapped(full, cgroup, fds, identity.uid)


def prepare_box(
    workdir: Path, outputs: tuple[str, ...], identity: Identity, limits: SandboxLimits, stack: contextlib.ExitStack
) -> Box:
    """List the harness's files in ``workdir``, pre-create the output files, write the ``/etc`` files."""
    inputs = bound_inputs(workdir)
    for name in outputs:
        precreate(workdir, name, inputs, identity)
    etc = {dest: stack.enter_context(_memfd(dest, data)) for dest, data in _etc_files(identity, workdir).items()}
    return Box(identity, inputs, outputs, etc, limits.disk_bytes)


def _etc_files(identity: Identity, workdir: Path) -> dict[str, bytes]:
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
