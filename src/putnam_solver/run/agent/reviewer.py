"""The reviewer: a second model that may veto an accepted candidate, and can never accept one.

It is shown the statement, the candidate and harness facts about the verdict (gate ids and statuses,
hashes, the track), read-only (no tools). Only a reply that starts with ``APPROVE`` lets the accepted
candidate stand; ``VETO: <feedback>``, anything unparsable, an error or a timeout is a veto whose
feedback goes to the worker's next turn. A reviewer that was fooled (e.g. by a prompt injection in the
candidate) can therefore only cost a pass, never create one.

What the reviewer reads is model input like any other, and its feedback reaches the worker and the next
campaign: so it is never shown the raw verdict, whose ``answers`` hold the official answer on the
no-answer track. Text the candidate controls (the candidate itself, gate details that may quote
compiler output, compiler messages) is shown only inside ``untrusted.fence`` markers it cannot close.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, Model
from inspect_ai.util import LimitExceededError, time_limit

from putnam_solver.core.untrusted import clean_text, fence
from putnam_solver.core.verify import GateResult, Track, Verdict
from putnam_solver.run.agent.tools import clip, render

MAX_COMPILER_MESSAGES = 20


@dataclass(frozen=True)
class Review:
    vetoed: bool
    feedback: str


async def review(model: Model, statement: str, candidate: str, verdict: Verdict, timeout: float | None) -> Review:
    """Ask the reviewer about one accepted candidate; every failure to get a clear approval is a veto."""
    messages: list[ChatMessage] = [
        ChatMessageSystem(content=render("reviewer_system.md")),
        ChatMessageUser(
            content=render(
                "reviewer_task.md",
                statement=statement,
                candidate=fence(candidate, "CANDIDATE"),
                facts=harness_facts(verdict),
                details=fence(gate_details(verdict), "GATE-DETAILS"),
                compiler=fence(compiler_messages(verdict.gates), "COMPILER-OUTPUT"),
            )
        ),
    ]
    try:
        with time_limit(timeout):
            output = await model.generate(messages)
    except LimitExceededError:
        return Review(True, f"the reviewer did not answer within {timeout} s")
    except Exception as exc:  # a reviewer that cannot answer cannot approve
        return Review(True, clean_text(f"the reviewer failed: {type(exc).__name__}: {exc}"))
    return parse_review(clean_text(output.completion))


def harness_facts(verdict: Verdict) -> str:
    """What the harness established, in its own words: nothing here is text a candidate could choose.

    Never the verdict's ``answers``: on the no-answer track they hold the official answer.
    """
    pin = "pinned" if verdict.benchmark_pinned else "NOT pinned"
    lines = [
        f"problem {verdict.problem}, prover {verdict.prover}, profile {verdict.profile.value}",
        f"verdict: {verdict.status} (every gate of the profile ran and passed)"
        if verdict.accepted
        else f"verdict: {verdict.status}",
        f"candidate sha256 {verdict.candidate_sha256}",
        f"statement sha256 {verdict.statement_sha256}; challenge sha256 {verdict.challenge_sha256}",
        f"benchmark sha256 {verdict.benchmark_sha256} ({pin})",
        *(f"{g.id} {g.name}: {g.status.value}" for g in verdict.gates),
        _track_fact(verdict.track),
    ]
    if verdict.unsafe_no_sandbox:
        lines.append("the compiled gates ran WITHOUT the sandbox (--unsafe-no-sandbox)")
    return "\n".join(lines)


def _track_fact(track: Track) -> str:
    if track is Track.NO_ANSWER:
        return (
            "track no-answer: the author chose the answer (the body of the solution definition in the "
            "candidate) and proved the statement with it; the official answer is not shown to you. Veto "
            "an answer that is not a genuine, explicit answer (e.g. one that restates the problem)."
        )
    return "track with-answer: the official answer is part of the statement."


def gate_details(verdict: Verdict) -> str:
    """Each gate's detail line: written by the harness, but it may quote what a compiler printed."""
    return "\n".join(f"{g.id}: {g.detail}" for g in verdict.gates)


def compiler_messages(gates: Iterable[GateResult]) -> str:
    """The located messages the compiles printed (warnings, notices), which the candidate controls."""
    found: list[str] = []
    for gate in gates:
        messages = gate.evidence.get("messages")
        if isinstance(messages, list):
            found += [f"{gate.id}: {m}" for m in messages if isinstance(m, str)]
    shown = found[:MAX_COMPILER_MESSAGES]
    return clip("\n".join(shown)) if shown else "(none)"


def parse_review(reply: str) -> Review:
    """``APPROVE`` on the first non-empty line approves; everything else vetoes with the reply as feedback."""
    text = reply.strip()
    first = text.splitlines()[0].strip().upper() if text else ""
    if first.startswith("APPROVE"):
        return Review(False, text)
    if first.startswith("VETO"):
        feedback = text.split(":", 1)[1].strip() if ":" in text.splitlines()[0] else text[4:].strip()
        return Review(True, feedback or "the reviewer vetoed without saying why")
    return Review(True, f"the reviewer's reply was neither APPROVE nor VETO: {text[:2000]}")
