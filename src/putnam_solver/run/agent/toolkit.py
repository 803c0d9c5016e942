"""What the worker's tools do, without Inspect: ``check``, ``goals``, the searches and ``verify`` of a file.

``tools.py`` wraps these functions as Inspect tools for our own worker; ``putnam mcp`` calls them
directly, so that an MCP server answers exactly as our worker's tools do without importing the agent
stack. Everything a tool receives is untrusted text from the model, cleaned (``untrusted.clean_text``)
as it enters, so that no argument can make an encode, a log write or a ledger insert raise. ``check``
hands the proposed file to the gate pipeline (profile ``fast``; its compile in a warm, sandboxed session
of the prover where one can decide it, else a fresh copy in the prover's sandbox) and returns compact
diagnostics; ``goals`` asks such a session for the proof state at the end of a line; ``search`` runs
ripgrep with the pattern as a plain argument over the prover's library sources, which it only reads;
``library_search`` runs the prover's own search command in such a session (the query refused when it
could be more than one search), and ``find_declarations`` ranks the libraries' declarations against a
goal by BM25 (``kits.library_index``). No tool lets the model's text choose a path, a program or an option.
"""

from __future__ import annotations

import contextlib
import functools
import re
import shutil
import subprocess
import threading
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import ParamSpec, TypeVar

import anyio

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.gatekit import watched_tool_files
from putnam_solver.core.provers import Prover
from putnam_solver.core.untrusted import clean_text
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import GateStatus, Track, Verdict, VerifyOptions
from putnam_solver.errata import with_errata
from putnam_solver.kits import get_kit
from putnam_solver.kits.interactive import ProofState, Searching
from putnam_solver.kits.library_index import (
    DEFAULT_HITS,
    IndexUnavailable,
    LibraryIndex,
    engine,
    format_declarations,
    open_index,
)
from putnam_solver.kits.sessions import CheckOutcome, SessionPool, library_search
from putnam_solver.run.agent.toolchain_guard import on_selftested_toolchain
from putnam_solver.run.agent.types import AgentParts
from putnam_solver.verifier.candidates import NEEDS_FULL
from putnam_solver.verifier.dispatch import LOCAL, Verifier

MAX_TOOL_OUTPUT = 4000
MAX_ANNOTATED_ERRORS = 3
MAX_DETAIL_LINES = 40
SEARCH_TIMEOUT_SECONDS = 20
SEARCH_MAX_LINES = 60
PREPARE_POLL_SECONDS = 0.1
_COQ_LOCATION = re.compile(r"line (\d+), (?:characters|column) (\d+)")
_LEAN_LOCATION = re.compile(r":(\d+):(\d+):")
_FIELD = re.compile(r"\{([a-z_]+)\}")


Limiter = Callable[[int], AbstractAsyncContextManager[object]]
"""Given how many gate runs may run at once, the context every gate run of a process enters."""


def inspect_limit(slots: int) -> AbstractAsyncContextManager[object]:
    """Inspect's named concurrency, shared by every sample of a campaign (imported only when a campaign
    runs, so that ``putnam mcp`` never loads Inspect)."""
    from inspect_ai.util import concurrency

    return concurrency("putnam-verify", slots)


def render(name: str, **fields: str) -> str:
    """The prompt template ``prompts/<name>`` with its ``{field}`` placeholders filled in.

    One pass over the template only, rather than ``str.format``: statements and proofs are full of
    braces, and text inserted for one field must never be read as another field.
    """
    text = files("putnam_solver.run.agent").joinpath("prompts", name).read_text(encoding="utf-8")
    return _FIELD.sub(lambda m: fields.get(m.group(1), m.group(0)), text)


@dataclass(frozen=True)
class ProblemContext:
    """What the harness needs to verify one problem's candidates; none of it comes from the model."""

    prover: Prover
    benchmark: Benchmark
    problem: Problem
    track: Track
    check_options: VerifyOptions
    accept_options: VerifyOptions
    pool: SessionPool | None = None
    parts: AgentParts = field(default_factory=AgentParts)
    verifier: Verifier = LOCAL
    """Where ``check`` and ``submit`` run their gates: here, or on a cluster (``core.dispatch``)."""
    limit: Limiter = inspect_limit
    """Bounds the gate runs in flight to ``verifier.slots()``: Inspect's in a campaign, the server's own
    in ``putnam mcp``."""
    toolchain: str | None = None
    """The fingerprint of the toolchain a campaign started on after its selftest: an acceptance on another one
    counts only with a passing selftest of its own (``toolchain_guard``; None: not checked)."""

    @property
    def file_name(self) -> str:
        return f"{self.problem.module}{self.prover.suffix}"

    @property
    def challenge(self) -> str:
        return self.prover.challenge(self.problem, self.track)


_Arguments = ParamSpec("_Arguments")
_Answer = TypeVar("_Answer")


async def in_gate_slot(
    ctx: ProblemContext, call: Callable[_Arguments, _Answer], *args: _Arguments.args, **kwargs: _Arguments.kwargs
) -> _Answer | str:
    """``call`` run in a worker thread while it holds one of the ``ctx.verifier.slots()`` gate slots
    (``ctx.limit``), so the model calls of other samples keep running while it waits; a file that is not
    a candidate at all (``InputError``) is its message. Every tool that runs the prover goes through it."""
    async with ctx.limit(ctx.verifier.slots()):
        try:
            return await anyio.to_thread.run_sync(functools.partial(call, *args, **kwargs))
        except InputError as exc:
            return str(exc)


async def verify_text(ctx: ProblemContext, text: str, options: VerifyOptions) -> Verdict | str:
    """Run the gates on ``text`` in a worker thread; a file that is not a candidate at all is a message.

    At most ``ctx.verifier.slots()`` verifications run at a time (one per core here; a cluster's
    capacity with ``--ray``), and the model calls of other samples keep running while one waits.
    """
    with watched_tool_files() as watch:  # a tool replaced and put back meanwhile (``toolchain_guard``)
        verdict = await in_gate_slot(
            ctx,
            ctx.verifier.verify,
            ctx.prover,
            ctx.benchmark,
            ctx.problem,
            text.encode("utf-8"),
            ctx.track,
            options,
            ctx.file_name,
        )
        if isinstance(verdict, str):
            return verdict
        verdict.benchmark = with_errata(verdict.benchmark, ctx.benchmark, ctx.problem)  # shown and stored with them
        if ctx.toolchain is None:
            return verdict
        guard = functools.partial(on_selftested_toolchain, ctx.prover, ctx.accept_options, ctx.toolchain)
        return await anyio.to_thread.run_sync(guard, verdict, watch)


_PREPARED: set[tuple[str, str, str, str, str]] = set()
_PREPARED_LOCK = threading.Lock()


async def prepare(ctx: ProblemContext) -> None:
    """Make what the acceptance gates need of this problem alone (``Verifier.prepare``: the Rocq
    reference's compile, the Lean challenge's build), once per problem, track and acceptance options in
    this process, so that an attempt's first ``submit`` finds it kept instead of building it beside the
    candidate. An attempt runs it in the background (``inspect_ai.util.background``) as it starts the
    model, ``putnam mcp`` at the first call naming the problem. It holds a gate slot like any gate run;
    cancelled (the attempt ended), it gives the slot back at once and leaves the build to finish in its
    daemon thread, where a later verification of the problem waits for it (``pinned_store.building``)
    rather than building again."""
    key = (ctx.prover.name, ctx.benchmark.sha256, ctx.problem.id, ctx.track.value, repr(ctx.accept_options))
    with _PREPARED_LOCK:
        if key in _PREPARED:
            return
        _PREPARED.add(key)
    finished = threading.Event()

    def run() -> None:
        try:
            with contextlib.suppress(Exception):  # decides nothing: a verification builds what is missing
                ctx.verifier.prepare(ctx.prover, ctx.benchmark, ctx.problem, ctx.track, ctx.accept_options)
        finally:
            finished.set()

    async with ctx.limit(ctx.verifier.slots()):
        threading.Thread(target=run, name=f"prepare {ctx.problem.id}", daemon=True).start()
        while not finished.is_set():
            await anyio.sleep(PREPARE_POLL_SECONDS)


async def check_text(ctx: ProblemContext, text: str) -> CheckOutcome | str:
    """The agent's check of ``text`` (``interactive.check_file``, by ``ctx.verifier``) in a worker thread."""
    return await in_gate_slot(
        ctx,
        ctx.verifier.check,
        ctx.prover,
        ctx.benchmark,
        ctx.problem,
        text,
        ctx.track,
        ctx.check_options,
        ctx.pool if ctx.parts.warm or ctx.parts.lemmas else None,
        ctx.file_name,
        ctx.parts.warm,
    )


def format_check(outcome: CheckOutcome, candidate: str) -> str:
    """What ``check`` answers: a one-line pass, or the failing gate with its first errors and the goals
    the compiler printed; for a draft with holes, the holes left and what else is wrong."""
    verdict = outcome.verdict
    how = " (compiled in a warm session)" if outcome.warm else ""
    found = "".join(f"\nline {m.line}: {clean_text(m.text)}" for m in outcome.suggestions)
    found = f"\nSuggestions the search tactics printed (paste one in place of its tactic):{found}" if found else ""
    if verdict.accepted:
        return clip(f"PASSED the fast gates {', '.join(g.id for g in verdict.gates)}{how}. Submit this file.{found}")
    if outcome.holes:
        holes = ", ".join(f"{h.name} (line {h.line})" for h in outcome.holes)
        lines = [f"DRAFT: holes left in {holes}; prove_lemma(name) proves one on its own, or fill it in."]
        draft = outcome.draft
        if draft is not None and draft.errors:
            lines += ["Besides the holes the file does not compile:", annotate(_lines(draft.detail), candidate)]
        elif draft is not None:
            lines.append("Apart from the holes, the file compiles: the main proof checks against the lemmas.")
        else:
            lines.append(format_verdict(verdict, candidate))
        return clip("\n".join(lines) + found)
    return clip(format_verdict(verdict, candidate) + found)


def format_verdict(verdict: Verdict, candidate: str) -> str:
    """Compact diagnostics: the gates that passed in one line; for each failure its detail (the first
    errors and goals, bounded), with the offending source lines."""
    passed = [g.id for g in verdict.gates if g.status is GateStatus.PASSED]
    if verdict.status == "disputed":
        # what the answer check found is a fact about the official answer: withheld on no-answer
        return (
            f"verdict: not accepted (profile {verdict.profile.value}); passed: {', '.join(passed)}; the acceptance "
            "did not count it for a reason withheld from the model on the no-answer track"
        )
    lines = [f"verdict: {verdict.status} (profile {verdict.profile.value}); passed: {', '.join(passed) or 'none'}"]
    if verdict.needs_full_profile:
        lines.append(
            f"this is not a rejection of the proof: it {NEEDS_FULL}; avoid them or submit for the full profile"
        )
    for gate in verdict.gates:
        if gate.status is not GateStatus.PASSED:
            lines.append(f"{gate.id} {gate.name}: {gate.status.value}")
            lines.append(annotate(_lines(gate.detail), candidate))
    missing = [g for g in verdict.expected_gates if g not in {r.id for r in verdict.gates}]
    if missing and not verdict.accepted:
        lines.append(f"not run (an earlier gate did not pass): {', '.join(missing)}")
    return clip("\n".join(lines))


def _lines(detail: str) -> str:
    """At most MAX_DETAIL_LINES lines of a gate's detail, saying how many were left out."""
    lines = detail.splitlines()
    if len(lines) <= MAX_DETAIL_LINES:
        return detail
    return "\n".join([*lines[:MAX_DETAIL_LINES], f"... [{len(lines) - MAX_DETAIL_LINES} more lines]"])


async def state_at(ctx: ProblemContext, text: str, line: int) -> str:
    """The ``goals`` answer: the proof state at the end of ``line`` (by ``ctx.verifier``), or why there is none."""
    if ctx.pool is None:
        return "goals are not available for this prover"
    found = await in_gate_slot(
        ctx,
        ctx.verifier.goals,
        ctx.prover,
        ctx.benchmark,
        ctx.problem,
        text,
        line,
        ctx.track,
        ctx.check_options,
        ctx.pool,
    )
    return format_state(found, text) if isinstance(found, ProofState) else found


def format_state(state: ProofState, candidate: str) -> str:
    lines = [f"State at the end of line {state.line}:", state.goals if state.goals is not None else "(none)"]
    if state.note:
        lines.append(f"Note: {state.note}")
    for message in state.messages[:MAX_ANNOTATED_ERRORS]:
        lines.append(annotate(_lines(str(message)), candidate))
    return clip("\n".join(lines))


def annotate(detail: str, candidate: str) -> str:
    """Add the candidate's source line (and a caret) under each located error in a compiler message."""
    source = candidate.split("\n")
    out: list[str] = []
    annotated = 0
    for line in detail.splitlines():
        out.append(line)
        location = _location(line)
        if location is None or annotated >= MAX_ANNOTATED_ERRORS:
            continue
        number, column = location
        if 1 <= number <= len(source):
            annotated += 1
            text = source[number - 1]
            out.append(f"  {number:>4} | {text}")
            out.append(f"       | {' ' * min(column, len(text))}^")
    return "\n".join(out)


def _location(line: str) -> tuple[int, int] | None:
    coq = _COQ_LOCATION.search(line)
    if coq is not None:
        return int(coq.group(1)), int(coq.group(2))
    lean = _LEAN_LOCATION.search(line)
    if lean is not None:
        return int(lean.group(1)), int(lean.group(2))
    return None


def clip(text: str, limit: int = MAX_TOOL_OUTPUT) -> str:
    """Bound what goes back into the model's context; say how much was cut."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n... [{len(text) - limit} more characters cut]"


def search_library(roots: tuple[Path, ...], glob: str, pattern: str) -> str:
    """ripgrep over ``roots``; the pattern is one argument after ``-e``, never an option or a path."""
    rg = shutil.which("rg")
    if rg is None:
        return "search is unavailable: ripgrep (rg) is not installed on the harness machine"
    present = [str(r) for r in roots if r.is_dir()]
    if not present:
        return "search is unavailable: no library sources were found for this prover (see `putnam doctor`)"
    if not pattern.strip():
        return "search needs a non-empty pattern"
    argv = [
        rg,
        "--no-config",
        "--line-number",
        "--with-filename",
        "--max-count",
        "5",
        "--max-columns",
        "240",
        "--max-filesize",
        "4M",
        "--glob",
        glob,
        "-e",
        pattern,
        "--",
        *present,
    ]
    try:
        done = subprocess.run(argv, capture_output=True, timeout=SEARCH_TIMEOUT_SECONDS, check=False)
    except subprocess.TimeoutExpired:
        return f"search timed out after {SEARCH_TIMEOUT_SECONDS} s; use a more specific pattern"
    if done.returncode == 1:
        return f"no matches for {pattern!r}"
    if done.returncode != 0:
        return f"search failed: {done.stderr.decode('utf-8', 'replace').strip()[:500]}"
    lines = done.stdout.decode("utf-8", "replace").splitlines()
    shown = [_shorten(line, present) for line in lines[:SEARCH_MAX_LINES]]
    more = f"\n... {len(lines) - SEARCH_MAX_LINES} more matching lines" if len(lines) > SEARCH_MAX_LINES else ""
    return clip("\n".join(shown) + more)


def _shorten(line: str, roots: list[str]) -> str:
    for root in roots:
        if line.startswith(root):
            return Path(root).name + line[len(root) :]
    return line


async def prover_search(ctx: ProblemContext, command: str, query: str) -> str:
    """The prover's own library search (Rocq's ``Search``, ``SearchPattern``, ``SearchRewrite``) in a warm
    session with the problem's imports and the statement's preamble (``sessions.library_search``)."""
    if ctx.pool is None:
        return "the library search is not available for this prover"
    answer = await in_gate_slot(
        ctx, library_search, ctx.prover, ctx.problem, ctx.track, ctx.check_options, ctx.pool, command, query
    )
    return clip(answer)


def offers_prover_search(prover: Prover) -> bool:
    """Whether the prover's interactive piece runs its own library search (``interactive.Searching``)."""
    return isinstance(get_kit(prover.name).interactive(), Searching)


def offers_ranked_search() -> bool:
    """Whether the ranked declaration search can run here (its engine, extra ``retrieval``, is installed)."""
    try:
        engine()
    except IndexUnavailable:
        return False
    return True


def retrieval_tools(prover: Prover, parts: AgentParts) -> list[str]:
    """The retrieval tools the worker gets (part ``retrieval``): the prover's own search where it has one,
    the ranked search where its engine is installed."""
    if not parts.retrieval:
        return []
    return [
        *(["library_search"] if offers_prover_search(prover) else []),
        *(["find_declarations"] if offers_ranked_search() else []),
    ]


_INDEXES: dict[tuple[tuple[Path, ...], str], LibraryIndex] = {}
_INDEXES_LOCK = threading.Lock()


def find_declarations(roots: tuple[Path, ...], suffix: str, query: str, hits: int = DEFAULT_HITS) -> str:
    """The declarations of the libraries under ``roots`` ranked against ``query`` (BM25; the index is built
    on the first call of a process and cached on disk, ``kits.library_index``)."""
    if not query.strip():
        return "find_declarations needs a query: a goal, a statement fragment or words"
    try:
        with _INDEXES_LOCK:
            index = _INDEXES.get((roots, suffix))
            if index is None:
                index = _INDEXES[(roots, suffix)] = open_index(roots, suffix)
    except IndexUnavailable as exc:
        return f"the ranked search is unavailable: {exc}"
    return clip(format_declarations(index.search(query, hits), query))


def library_roots(prover: Prover, options: VerifyOptions) -> tuple[tuple[Path, ...], str]:
    """Where the library sources of the tools the gates run are, and the glob of the source files."""
    return get_kit(prover.name).library_roots(options), f"*{prover.suffix}"


MAX_ALTERNATIVES = 6
ALTERNATIVE_LINES = 6
"""Lines of each alternative's answer kept: its status and first errors, not a whole report each."""


async def try_alternatives(ctx: ProblemContext, proof: str, line: int | None, alternatives: list[str]) -> str:
    """``check`` of ``proof`` with its line ``line`` replaced by each alternative in turn (from the warm
    session where there is one): one short answer per alternative, numbered as given."""
    lines = proof.split("\n")
    if line is None or not 1 <= int(line) <= len(lines):
        return f"alternatives need the line they replace: a line number from 1 to {len(lines)}"
    if len(alternatives) > MAX_ALTERNATIVES:
        return f"at most {MAX_ALTERNATIVES} alternatives per call ({len(alternatives)} given)"
    answers = []
    for number, snippet in enumerate(alternatives, 1):
        variant = "\n".join([*lines[: int(line) - 1], snippet, *lines[int(line) :]])
        outcome = await check_text(ctx, variant)
        text = outcome if isinstance(outcome, str) else format_check(outcome, variant)
        answers.append(f"alternative {number}: " + "\n  ".join(text.split("\n")[:ALTERNATIVE_LINES]))
    return clip("\n".join(answers))
