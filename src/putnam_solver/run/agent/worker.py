"""The worker: the loop that lets a model propose, check and submit proofs, and the acceptance step.

``react`` (the default) is our own tool loop over Inspect's model API: each turn is one generation
followed by the tool calls it asked for. A submission is judged harness-side at once (full acceptance
profile, then the reviewer if there is one), and the judgement is the tool's answer, so a rejection or
a veto is the worker's feedback for its next turn. ``codex`` and ``claude-code`` (``cli_worker.py``)
run those CLIs through inspect-swe in the sample's sandbox; their candidate is the statement file as
they leave it.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

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

from putnam_solver.core.untrusted import clean_text
from putnam_solver.core.verify import Verdict
from putnam_solver.kits import get_kit
from putnam_solver.run.agent.history import HistoryBudget
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
    judge: Judge,
    state: AttemptState,
    messages: list[ChatMessage],
    tools: list[Tool],
    max_turns: int,
    history: HistoryBudget | None = None,
) -> list[ChatMessage]:
    """Generate, run the requested tools, repeat: until a submission passes or the turns run out.

    ``messages`` keeps the whole history; with ``history``, what each call is sent is compacted under
    its budget."""
    model = get_model()
    idle = 0
    for turn in range(1, max_turns + 1):
        state.turns = turn
        sent = _to_send(history, messages, state)
        output = await model.generate(sent, tools)
        if history is not None:
            history.record(sent, output)
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


def _to_send(history: HistoryBudget | None, messages: list[ChatMessage], state: AttemptState) -> list[ChatMessage]:
    """The history this turn sends; a compaction it made goes into the turn log."""
    if history is None:
        return messages
    made = len(history.compactions)
    sent = history.view(messages)
    if len(history.compactions) > made:
        before, after = history.compactions[-1]
        result = f"history compacted: about {before:,} -> {after:,} tokens"
        state.turn_log.append({"turn": state.turns, "tool": None, "result": result})
    return sent


def carry_forward_text(carried: CarryForward | None) -> str:
    from putnam_solver.run.agent.tools import clip, render

    if carried is None:
        return ""
    return render("carry_forward.md", candidate=carried.candidate, diagnostics=clip(carried.diagnostics))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
