"""The host view of a CLI agent (Codex, Claude Code) under Inspect's ``local`` sandbox.

The ``local`` sandbox runs the CLI as the harness's own user with the harness's environment: its tools
could read the benchmark file (the official answers), the repository, the harness's home and the
provider API keys. ``putnam-cli`` is the ``local`` sandbox with one change: the process that inspect-swe
starts for the agent runs inside a bubblewrap layer of our own, whose file system holds the read-only
system directories, a minimal ``/etc``, the CLI's own install (read-only), the workspace (read-write) and
a private ``/tmp``, and nothing else of the host; its environment is cleared to what the CLI is given.
When the harness runs as root the layer runs as an unprivileged uid (``nobody``), which owns the
workspace for the run; this is also what lets the CLI's own bubblewrap sandbox nest inside the layer (a
user namespace mapped to host root cannot create another one without ``CAP_SETFCAP``).

What stays outside the layer, on purpose: Inspect's own commands (its tool server, the model proxy and
the service files through which the model bridge reaches the harness), since they are the harness's, not
the model's. The tool server's socket moves out of the workspace, so the agent cannot ask it to run
anything. The layer shares the host's network namespace, because the CLI reaches the model proxy on
loopback; the commands the model runs are cut off from the network by the CLI's own sandbox.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import pwd
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

from inspect_ai.util import (
    ExecResult,
    SandboxEnvironment,
    SandboxEnvironmentConfigType,
    sandboxenv,
)
from pydantic import BaseModel
from typing_extensions import override

from putnam_solver.core.sandbox.hidden import cover_argv
from putnam_solver.run.agent._inspect import SANDBOX_CLI, LocalSandboxEnvironment
from putnam_solver.run.agent.model_bridge import bridge_address, wait_for_bridge

SANDBOX_NAME = "putnam-cli"
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_HOST_ETC = (
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "alternatives",
    "ssl",
    "ca-certificates",
    "nsswitch.conf",
    "localtime",
)
_SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
_FIX = (
    "install bubblewrap and util-linux's setpriv (apt-get install bubblewrap util-linux), allow unprivileged "
    "user namespaces, and install the CLI where every user can read it (not under /root)"
)


class CliLayer(BaseModel, frozen=True):
    """What the CLI needs of the host besides the system directories: its install (mounted read-only at
    the same paths) and the directories to put first on its PATH."""

    installs: tuple[str, ...]
    path: tuple[str, ...]


class CliLayerUnavailable(RuntimeError):
    """The layer cannot be set up here; a CLI agent must not run without it."""


def layer_for(binary: Path) -> CliLayer:
    """The layer for a CLI binary: the binary, the path PATH finds for its name (which inspect-swe runs;
    a link to it, say), and the package it resolves into (the nearest ``node_modules`` for an npm
    install, else the resolved file itself)."""
    resolved = binary.resolve()
    package = next((p for p in resolved.parents if p.name == "node_modules"), resolved)
    found = shutil.which(binary.name)
    installs = [str(binary), *([found] if found else []), str(package)]
    return CliLayer(installs=tuple(dict.fromkeys(installs)), path=(str(binary.parent),))


def _agent_ids() -> tuple[int, int] | None:
    """The unprivileged uid and gid the layer runs as when the harness is root (else None: the harness's
    own, already unprivileged, user)."""
    if os.geteuid() != 0:
        return None
    try:
        nobody = pwd.getpwnam("nobody")
        return nobody.pw_uid, nobody.pw_gid
    except KeyError:
        return 65534, 65534


def _tool(name: str) -> str:
    found = shutil.which(name, path=_SYSTEM_PATH + ":/usr/sbin:/sbin")
    if found is None:
        raise CliLayerUnavailable(f"the CLI agent's sandbox layer needs {name}, which is not installed. Fix: {_FIX}")
    return found


@cache
def etc_dir() -> Path:
    """A minimal ``/etc`` of the layer's own (users, groups, hosts), so that none of the host's is shown;
    one per process, readable by the layer's uid, removed at exit."""
    uid, gid = _agent_ids() or (os.geteuid(), os.getegid())
    etc = Path(tempfile.mkdtemp(prefix="putnam-cli-etc-"))
    atexit.register(shutil.rmtree, etc, ignore_errors=True)
    (etc / "passwd").write_text(f"root:x:0:0:root:/root:/usr/sbin/nologin\nagent:x:{uid}:{gid}:agent:/tmp:/bin/sh\n")
    (etc / "group").write_text(f"root:x:0:\nagent:x:{gid}:\n")
    (etc / "hosts").write_text("127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n")
    for path in (etc, *etc.iterdir()):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return etc


def layer_argv(layer: CliLayer, workspace: Path, cwd: str, env: Mapping[str, str], argv: Sequence[str]) -> list[str]:
    """``argv`` wrapped in the layer: the file system described in the module docstring, new user, pid,
    ipc and uts namespaces, no capabilities, an environment of exactly ``env`` plus PATH, HOME and LANG
    (and none at all for the bubblewrap process itself)."""
    # bwrap stays the sandbox's pid 1, whose /proc/1/environ the agent can read: it starts with none
    prefix = [_tool("env"), "-i"]
    ids = _agent_ids()
    if ids is not None:
        prefix += [_tool("setpriv"), f"--reuid={ids[0]}", f"--regid={ids[1]}", "--clear-groups", "--"]
    args = [_tool("bwrap"), "--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts"]
    args += ["--unshare-cgroup-try", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    for directory in _SYSTEM_DIRS:
        if os.path.islink(directory):
            args += ["--symlink", os.readlink(directory), directory]
        elif os.path.isdir(directory):
            args += ["--ro-bind", directory, directory]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--dir", "/etc"]
    for name in _HOST_ETC:
        if os.path.exists(f"/etc/{name}"):
            args += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    for own in sorted(etc_dir().iterdir()):
        args += ["--ro-bind", str(own), f"/etc/{own.name}"]
    for install in layer.installs:
        args += ["--ro-bind", install, install]
    shown = [Path(d) for d in _SYSTEM_DIRS if os.path.isdir(d) and not os.path.islink(d)]
    args += cover_argv([*shown, *(Path(i) for i in layer.installs)])  # benchmark files (``sandbox.hidden``)
    args += ["--bind", str(workspace), str(workspace), "--chdir", cwd, "--clearenv"]
    base = {"PATH": os.pathsep.join([*layer.path, _SYSTEM_PATH]), "HOME": str(workspace), "LANG": "C.UTF-8"}
    for name, value in {**base, **env}.items():
        args += ["--setenv", name, value]
    return [*prefix, *args, "--", *argv]


def hand_over(workspace: Path) -> None:
    """Give the workspace to the layer's uid (when the harness is root), never following a link: each name
    is changed relative to its folder's open descriptor (``os.fwalk``), so a folder the agent swaps for a
    link while the walk runs (it is called again at each process inspect-swe starts) leads nowhere else."""
    ids = _agent_ids()
    if ids is None:
        return
    os.chown(workspace, *ids, follow_symlinks=False)
    for _, dirs, files, folder in os.fwalk(workspace):
        for name in [*dirs, *files]:
            with contextlib.suppress(FileNotFoundError):  # removed by the agent meanwhile
                os.chown(name, *ids, dir_fd=folder, follow_symlinks=False)


@cache
def require_layer(layer: CliLayer) -> None:
    """Fail closed: run the layer once, with a nested bubblewrap sandbox inside it as the CLIs make, and
    refuse (CliLayerUnavailable, naming the fix) when either does not work."""
    nested = ["bwrap", "--unshare-user", "--unshare-net", "--unshare-pid", "--proc", "/proc", "--dev", "/dev"]
    nested += ["--ro-bind", "/", "/", "true"]
    with tempfile.TemporaryDirectory(prefix="putnam-cli-probe-") as scratch:
        workspace = Path(scratch)
        hand_over(workspace)
        argv = layer_argv(layer, workspace, str(workspace), {}, nested)
        try:
            probe = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise CliLayerUnavailable(f"the CLI agent's sandbox layer could not start: {exc}. Fix: {_FIX}") from exc
    if probe.returncode != 0:
        raise CliLayerUnavailable(
            "the CLI agent's sandbox layer (bubblewrap, with the CLI's own bubblewrap sandbox nested in it) "
            f"does not work here: {probe.stderr.strip() or f'exit {probe.returncode}'}. Fix: {_FIX}"
        )


@sandboxenv(name=SANDBOX_NAME)
class CliSandboxEnvironment(LocalSandboxEnvironment):
    """The ``local`` sandbox whose agent process runs in the layer (see the module docstring)."""

    def __init__(self, layer: CliLayer) -> None:
        super().__init__()
        self.layer = layer
        self.harness_dir = tempfile.TemporaryDirectory(prefix="putnam-cli-harness-", ignore_cleanup_errors=True)
        # Inspect's tool server listens on a socket in this directory; in the workspace, the agent could
        # ask it to run commands outside the layer
        self._sandbox_tools_dir = Path(self.harness_dir.name) / "sandbox-tools"

    @override
    @classmethod
    def config_deserialize(cls, config: dict[str, object]) -> BaseModel:
        return CliLayer.model_validate(config)

    @override
    @classmethod
    async def sample_init(
        cls, task_name: str, config: SandboxEnvironmentConfigType | None, metadata: dict[str, str]
    ) -> dict[str, SandboxEnvironment]:
        if not isinstance(config, CliLayer):
            raise CliLayerUnavailable(f"the {SANDBOX_NAME} sandbox needs a CliLayer configuration, got {config!r}")
        require_layer(config)
        return {"default": cls(config)}

    @override
    @classmethod
    async def sample_cleanup(
        cls,
        task_name: str,
        config: SandboxEnvironmentConfigType | None,
        environments: dict[str, SandboxEnvironment],
        interrupted: bool,
    ) -> None:
        try:
            await super().sample_cleanup(task_name, config, environments, interrupted)
        finally:
            for environment in environments.values():
                environment.as_type(CliSandboxEnvironment).harness_dir.cleanup()

    @override
    async def exec(
        self,
        cmd: list[str],
        input: str | bytes | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        user: str | None = None,
        timeout: int | None = None,
        timeout_retry: bool = True,
        concurrency: bool = True,
    ) -> ExecResult[str]:
        """Every process Inspect's tool server is asked to start (``exec_remote``, which is how
        inspect-swe starts the CLI) runs in the layer, except Inspect's own model proxy; a CLI starts once
        the model proxy its environment names listens (model_bridge.py)."""
        if cmd == [SANDBOX_CLI, "exec"]:
            input, bridge = self._into_layer(input)
            if bridge is not None:
                await wait_for_bridge(bridge)
        return await super().exec(cmd, input, cwd, env, user, timeout, timeout_retry, concurrency)

    def _into_layer(self, request: str | bytes | None) -> tuple[str, tuple[str, int] | None]:
        """The tool server request, with an ``exec_remote_start`` command wrapped in the layer and its
        environment moved into the layer's own, and the model proxy that environment names (or None).
        Anything unreadable is refused, never passed on."""
        if request is None:
            raise CliLayerUnavailable("a tool server request without a body")
        message = json.loads(request)
        if not isinstance(message, dict):
            raise CliLayerUnavailable("a tool server request that is not a single JSON-RPC call")
        params = message.get("params")
        if message.get("method") != "exec_remote_start" or not isinstance(params, dict):
            return (request if isinstance(request, str) else request.decode("utf-8")), None
        argv = shlex.split(str(params["command"]))
        if argv == [SANDBOX_CLI, "model_proxy"]:
            return json.dumps(message), None
        workspace = Path(self.directory.name)
        hand_over(workspace)
        env = params.pop("env", None) or {}
        cwd = str(params.get("cwd") or workspace)
        params["command"] = shlex.join(layer_argv(self.layer, workspace, cwd, env, argv))
        return json.dumps(message), bridge_address(env)
