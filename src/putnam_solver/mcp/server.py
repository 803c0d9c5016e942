"""``putnam mcp``: the benchmark and the gates as MCP tools, for agents we do not run ourselves.

Claude Code, Codex, Cursor or any MCP client gets the same tools as our own worker, answered the same
way: ``check`` (profile ``fast``, compact diagnostics), ``goals`` (the proof state at a line), ``search``
(the prover's library sources) and ``verify`` (profile ``full``, the verdict JSON of ``putnam verify
--json``), plus ``list_problems`` and ``get_statement``. Every tool runs harness-side: the gates run in
their sandbox on the candidate's bytes, against the challenge the harness derives from the pinned record,
exactly as the built-in tools (``run.agent.tools``) run them, whose functions these tools call.

What a client may see is what our worker may see: ``get_statement`` answers with the statement file the
worker is given (``Prover.model_statement``), never the challenge with an inlined answer on the
no-answer track, and a server started on the no-answer track refuses to switch a call to with-answer.
Everything a client sends is untrusted text, cleaned as it enters (``untrusted.clean_text``); a
candidate over the size cap or an unknown problem is a tool error that says what to do.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import anyio
import anyio.abc
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import ValidationError

from putnam_solver.core.benchmark import Benchmark, BenchmarkError, Problem
from putnam_solver.core.gatekit import watched_tool_files
from putnam_solver.core.provers import Prover
from putnam_solver.core.untrusted import clean_text
from putnam_solver.core.util import sha256_hex
from putnam_solver.core.verify import Profile, Track, VerifyOptions
from putnam_solver.kits import get_kit
from putnam_solver.kits.sessions import SessionPool
from putnam_solver.mcp.early_initialize import server_identity
from putnam_solver.mcp.http_guard import HTTP_PATH as HTTP_PATH  # re-exported by the package
from putnam_solver.mcp.stdio import stderr
from putnam_solver.problem_selection import select_problems
from putnam_solver.redact import PathRedactor
from putnam_solver.run.agent.tool_docs import (
    CHECK,
    FIND_DECLARATIONS,
    GOALS,
    LIBRARY_SEARCH,
    PROOF,
    SEARCH,
    ToolDoc,
    documented,
)
from putnam_solver.run.agent.toolkit import (
    ProblemContext,
    check_text,
    find_declarations,
    format_check,
    library_roots,
    offers_prover_search,
    offers_ranked_search,
    prepare,
    prover_search,
    search_library,
    state_at,
    verify_text,
)
from putnam_solver.selftest.readiness import NotReady, Readiness
from putnam_solver.withheld import model_view

TRANSPORTS = ("stdio", "http")


@dataclass(frozen=True)
class McpSettings:
    """What one ``putnam mcp`` server serves: one prover's pinned benchmark, its gate settings, a track."""

    prover: Prover
    benchmark: Benchmark
    track: Track = Track.WITH_ANSWER
    options: VerifyOptions = field(default_factory=VerifyOptions)
    """The acceptance settings of ``verify`` (its profile is always ``full``); ``check`` runs ``fast``
    under the same rules, as our worker's check does."""
    run_selftest: bool = True
    """Run the selftest (in the background from the start) when this toolchain has no passing record; without
    one, ``verify`` answers a tool error, never a verdict (``selftest.readiness``, as ``putnam serve``)."""


class PutnamTools:
    """The tools of one server: problem contexts built once per (problem, track), one session pool."""

    def __init__(self, settings: McpSettings, pool: SessionPool | None, log: Callable[[str], None] = stderr) -> None:
        self.settings = settings
        self.pool = pool
        self.log = log
        self.accept = replace(settings.options, profile=Profile.FULL, acceptance=None)
        self.check_options = replace(self.accept, profile=Profile.FAST, acceptance=Profile.FULL)
        self._contexts: dict[tuple[str, Track], ProblemContext] = {}
        self._limiter: anyio.CapacityLimiter | None = None
        self.background: anyio.abc.TaskGroup | None = None
        """The server's background tasks (``background_tasks``, its lifespan): problem preparations."""
        self.redact = PathRedactor.for_server([settings.benchmark.path])
        self.readiness = Readiness({settings.prover.name: self.accept}, settings.run_selftest)
        """Whether ``verify`` may judge: a passing selftest on the toolchain as it is (``selftest.readiness``)."""

    @functools.cached_property
    def library(self) -> tuple[tuple[Path, ...], str]:
        """Where the library sources of the prover's tools are, and the glob of its source files: found at
        the first search, in its worker thread, not at start (for Rocq it runs ``coqc -where`` and hashes
        coqc), so that ``initialize`` never waits for it."""
        return library_roots(self.settings.prover, self.accept)

    def limit(self, slots: int) -> anyio.CapacityLimiter:
        """At most ``slots`` gate runs at once over all of this server's calls (created on the server's
        event loop, at its first call)."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(slots)
        return self._limiter

    def context(self, problem_id: str, track: str | None) -> ProblemContext:
        """The context of one problem on the asked track; a ToolError for an unknown problem or a track
        this server may not serve."""
        chosen = self.track(track)
        problem = self.problem(problem_id)
        key = (problem.id, chosen)
        if key not in self._contexts:
            self._contexts[key] = ProblemContext(
                prover=self.settings.prover,
                benchmark=self.settings.benchmark,
                problem=problem,
                track=chosen,
                check_options=self.check_options,
                accept_options=self.accept,
                pool=self.pool,
                limit=self.limit,
            )
            if self.background is not None:  # what `verify` will need of the problem alone, made meanwhile
                self.background.start_soon(prepare, self._contexts[key])
        return self._contexts[key]

    def problem(self, problem_id: str) -> Problem:
        try:
            return select_problems(self.settings.benchmark, [clean_text(problem_id).strip()])[0]
        except BenchmarkError as exc:
            raise ToolError(f"{exc} (list_problems gives every id of this server's benchmark)") from exc

    def track(self, given: str | None) -> Track:
        """The server's track unless the call names one; a no-answer server never serves with-answer,
        whose statements hold the official answers."""
        if given is None or not given.strip():
            return self.settings.track
        try:
            track = Track(given.strip())
        except ValueError as exc:
            raise ToolError(f"track {given!r}: choose {' or '.join(t.value for t in Track)}") from exc
        if self.settings.track is Track.NO_ANSWER and track is not Track.NO_ANSWER:
            raise ToolError("this server serves the no-answer track only (started with --track no-answer)")
        return track

    def candidate(self, proof: str) -> str:
        """The proof text as the gates will see it; a ToolError when it is over the size cap."""
        text = clean_text(proof)
        size, cap = len(text.encode("utf-8")), self.accept.max_candidate_bytes
        if size > cap:
            raise ToolError(
                f"the proof is {size} bytes, over this server's candidate cap of {cap} bytes; no gate looked "
                "at it (start the server with --max-candidate-bytes N for longer proofs)"
            )
        if not text.strip():
            raise ToolError("the proof is empty: send the whole file, the statement with its holes filled in")
        return text

    # -- the tools --------------------------------------------------------------------------------------

    def list_problems(self, prefix: str = "") -> dict[str, Any]:
        """The problems of this server's benchmark (ids starting with ``prefix``), and whether each asks
        for an answer."""
        settings, chosen = self.settings, clean_text(prefix).strip()
        problems = [p for p in select_problems(settings.benchmark) if p.id.startswith(chosen)]
        return {
            "prover": settings.prover.name,
            "benchmark": settings.benchmark.path.name,
            "benchmark_sha256": settings.benchmark.sha256,
            "pinned": settings.benchmark.pinned,
            "track": settings.track.value,
            "problems": [{"id": p.id, "has_answer": settings.prover.has_answer(p)} for p in problems],
        }

    def get_statement(self, problem: str, track: str | None = None) -> dict[str, Any]:
        """The statement file to complete, as our own worker is shown it on that track (the problem's
        preparation for ``verify`` starts as its context is made: ``context``)."""
        ctx = self.context(problem, track)
        return {
            "problem": ctx.problem.id,
            "track": ctx.track.value,
            "file_name": ctx.file_name,
            "statement": ctx.prover.model_statement(ctx.problem, ctx.track),
        }

    async def check(self, problem: str, proof: str, track: str | None = None) -> str:
        ctx = self.context(problem, track)
        text = self.candidate(proof)
        outcome = await check_text(ctx, text)
        answer = self.redact.text(outcome if isinstance(outcome, str) else format_check(outcome, text))
        self.log(
            f"check {ctx.problem.id} ({ctx.track.value}, candidate sha256 {sha256_hex(text.encode())[:16]}): "
            f"{answer.splitlines()[0] if answer else ''}"
        )
        return answer

    async def goals(self, problem: str, proof: str, line: int, track: str | None = None) -> str:
        ctx = self.context(problem, track)
        if get_kit(ctx.prover.name).interactive() is None:
            raise ToolError(f"goals are not available for {ctx.prover.name}: it has no proof-state session")
        return self.redact.text(await state_at(ctx, self.candidate(proof), int(line)))

    async def search(self, pattern: str) -> str:
        pattern = clean_text(pattern)
        return await anyio.to_thread.run_sync(lambda: search_library(*self.library, pattern))

    async def library_search(self, problem: str, command: str, query: str, track: str | None = None) -> str:
        ctx = self.context(problem, track)
        return self.redact.text(await prover_search(ctx, clean_text(command).strip(), clean_text(query)))

    async def find_declarations(self, query: str) -> str:
        query = clean_text(query)

        def ranked() -> str:
            roots, glob = self.library
            return find_declarations(roots, glob.removeprefix("*"), query)

        return self.redact.text(await anyio.to_thread.run_sync(ranked))

    async def verify(self, problem: str, proof: str, track: str | None = None) -> dict[str, Any]:
        """The verdict of the full profile, made only on a toolchain a passing selftest vouches for and that
        stayed the same while it was made (``Readiness.admit``, ``settle``): else a tool error, no verdict."""
        ctx = self.context(problem, track)
        text = self.candidate(proof)
        admit = functools.partial(self.readiness.admit, ctx.prover, self.accept, wait=True)
        try:
            before = await anyio.to_thread.run_sync(admit)
        except NotReady as exc:
            raise ToolError(self.redact.text(f"{exc.reason}; no verdict was made")) from exc
        with watched_tool_files() as watch:  # a tool replaced and put back meanwhile (``one_toolchain``)
            made = await verify_text(ctx, text, self.accept)
            if isinstance(made, str):
                raise ToolError(self.redact.text(made))
            settle = functools.partial(self.readiness.settle, ctx.prover, self.accept, before, made, watch)
            verdict, _ = await anyio.to_thread.run_sync(settle)
        checks = "".join(
            f"; answer {name}: {answer['check']['status']}"
            for name, answer in verdict.answers.items()
            if answer.get("check")
        )
        self.log(
            f"verify {ctx.problem.id} ({ctx.track.value}, candidate sha256 {verdict.candidate_sha256[:16]}): "
            f"{verdict.status}{checks}"
        )
        shown: dict[str, Any] = self.redact.value(model_view(verdict.to_json()))
        return shown


VERIFY = ToolDoc(
    "Verify a proof file with every gate of the full profile: the verdict that counts.",
    (("proof", PROOF),),
    "The verdict as `putnam verify --json` writes it: status (accepted only if every gate passed), every gate "
    "with its status, detail and evidence, and the hashes of statement, challenge and candidate.",
).on_problem()
"""``verify``: our worker's counterpart is ``submit``, whose answer is the worker's to read, not a verdict."""

READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
"""Every tool only reads (the benchmark, the library sources) or judges a file in a sandbox it throws away:
nothing a call does changes what the next call sees, and nothing leaves this machine."""


class PutnamServer(MCPServer[Any]):
    """The SDK's server, with our own message for arguments that do not fit a tool's signature, and no
    path of this machine in any tool error."""

    def __init__(self, redact: PathRedactor, **settings: Any) -> None:
        super().__init__(**settings)
        self.redact = redact

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                message = argument_message(name, self._tool_input_schema(name) or {}, exc.__cause__)
            else:
                message = str(exc)
            raise type(exc)(self.redact.text(message)) from exc


def argument_message(name: str, schema: dict[str, Any], error: ValidationError) -> str:
    """What was wrong with the arguments of a call to ``name``, and how the tool is called (never the
    values sent: they are the caller's data)."""
    required = list(schema.get("required", []))
    optional = [p for p in schema.get("properties", {}) if p not in required]
    signature = ", ".join([*required, *(f"{p}?" for p in optional)])
    missing = [str(e["loc"][-1]) for e in error.errors() if e["type"] == "missing"]
    wrong = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors() if e["type"] != "missing"]
    parts = ([f"missing {', '.join(missing)}"] if missing else []) + wrong
    return f"{name}({signature}): {'; '.join(parts)} (list_problems gives the problem ids)"


def background_tasks(tools: PutnamTools) -> Callable[[MCPServer[Any]], AbstractAsyncContextManager[None]]:
    """The server's lifespan: a task group for the tools' background work while it serves, cancelled
    when it stops (a preparation's build then finishes in its own daemon thread: ``toolkit.prepare``)."""

    @asynccontextmanager
    async def lifespan(server: MCPServer[Any]) -> AsyncIterator[None]:
        async with anyio.create_task_group() as group:
            tools.background = group
            group.start_soon(anyio.to_thread.run_sync, tools.readiness.start)  # the selftest, if none passed
            try:
                yield
            finally:
                tools.background = None
                group.cancel_scope.cancel()

    return lifespan


def build_server(tools: PutnamTools) -> MCPServer[Any]:
    """The MCP server of ``tools``: its tools (the six every prover has, and the retrieval tools where the
    prover has its own search or the ranked search's engine is installed), their descriptions and the
    server's instructions."""
    identity = server_identity(tools.settings.prover.label)
    server: MCPServer[Any] = PutnamServer(
        tools.redact,
        name=identity.name,
        version=identity.version,
        instructions=identity.instructions,
        log_level="WARNING",
        lifespan=background_tasks(tools),
    )

    @server.tool(annotations=READ_ONLY)
    def list_problems(prefix: str = "") -> dict[str, Any]:
        """List the problems of this server's pinned benchmark.

        Args:
            prefix: Only ids starting with this text (e.g. putnam_1962); empty for all.

        Returns:
            The benchmark's name, SHA-256 and track, and per problem its id and whether it asks for an answer.
        """
        return tools.list_problems(prefix)

    @server.tool(annotations=READ_ONLY)
    async def get_statement(problem: str, track: str | None = None) -> dict[str, Any]:
        """The statement file of one problem: complete it and keep everything else exactly as given.

        Args:
            problem: A problem id from list_problems.
            track: with-answer (the official answer is part of the statement) or no-answer (you find the
                answer); default: the server's track.

        Returns:
            The problem id, the track, the file name the proof is judged under and the statement text.
        """
        return tools.get_statement(problem, track)

    @server.tool(annotations=READ_ONLY)
    @documented(CHECK.on_problem())
    async def check(problem: str, proof: str, track: str | None = None) -> str:
        return await tools.check(problem, proof, track)

    @server.tool(annotations=READ_ONLY)
    @documented(GOALS.on_problem())
    async def goals(problem: str, proof: str, line: int, track: str | None = None) -> str:
        return await tools.goals(problem, proof, line, track)

    @server.tool(annotations=READ_ONLY)
    @documented(SEARCH)
    async def search(pattern: str) -> str:
        return await tools.search(pattern)

    if offers_prover_search(tools.settings.prover) and tools.pool is not None:

        @server.tool(annotations=READ_ONLY)
        @documented(LIBRARY_SEARCH.on_problem())
        async def library_search(problem: str, command: str, query: str, track: str | None = None) -> str:
            return await tools.library_search(problem, command, query, track)

    if offers_ranked_search():

        @server.tool(annotations=READ_ONLY)
        @documented(FIND_DECLARATIONS)
        async def find_declarations(query: str) -> str:
            return await tools.find_declarations(query)

    @server.tool(annotations=READ_ONLY)
    @documented(VERIFY)
    async def verify(problem: str, proof: str, track: str | None = None) -> dict[str, Any]:
        return await tools.verify(problem, proof, track)

    return server
