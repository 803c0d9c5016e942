"""The reviewer: a second model's opinion of a proof the gates accepted. It advises; the gates decide.

It is shown the statement, the candidate and harness facts about the verdict (gate ids and statuses,
hashes, the track), read-only (no tools), and answers ``APPROVE`` or ``VETO: <why>``. A reply that is
neither is asked again (at most ``MAX_ASKS`` times in all), never read as a veto: a model that rambles
has given no opinion. A timeout or a failed call is no opinion either.

``--reviewer advise`` (and a ``--reviewer-model`` without ``--reviewer``) records the opinion beside the
verdict, in the ledger, SUMMARY.md and the report, and the proof counts as the gates say.
``--reviewer veto`` lets a ``VETO`` un-count a gate-accepted proof (its feedback goes to the worker's next
turn); such proofs are a headline figure of their own. The reviewer can never accept a proof the gates
refused, so a fooled reviewer (a prompt injection in the candidate) can at most cost a pass.

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

from putnam_solver.core.untrusted import clean_text
from putnam_solver.core.verify import GateResult, Track, Verdict
from putnam_solver.run.agent.fence import fence
from putnam_solver.run.agent.tools import clip, render

MAX_COMPILER_MESSAGES = 20
MAX_ASKS = 3
"""Replies the reviewer gets to say APPROVE or VETO before its opinion is recorded as none."""
ASK_AGAIN = "Your reply must start with APPROVE, or with VETO: followed by the reason. Answer again."


@dataclass(frozen=True)
class Review:
    """The reviewer's opinion of one accepted proof: ``approve``, ``veto`` or ``none`` (no clear answer)."""

    opinion: str
    feedback: str

    @property
    def vetoed(self) -> bool:
        return self.opinion == "veto"

    def record(self) -> str:
        """How the ledger keeps it (``reviewer_feedback``): the opinion, written by the harness, first."""
        return f"{self.opinion}: {self.feedback}"


async def review(model: Model, statement: str, candidate: str, verdict: Verdict, timeout: float | None) -> Review:
    """Ask the reviewer about one accepted candidate, again while its reply is neither APPROVE nor VETO."""
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
    opinion = Review("none", "no reply")
    for _ in range(MAX_ASKS):
        try:
            with time_limit(timeout):
                output = await model.generate(messages)
        except LimitExceededError:
            return Review("none", f"the reviewer did not answer within {timeout} s")
        except Exception as exc:  # a reviewer that cannot answer has no opinion
            return Review("none", clean_text(f"the reviewer failed: {type(exc).__name__}: {exc}"))
        opinion = parse_review(clean_text(output.completion))
        if opinion.opinion != "none":
            return opinion
        messages += [output.message, ChatMessageUser(content=ASK_AGAIN)]
    return opinion


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
        # on no-answer the pinned record's hash would confirm a guessed official answer (``withheld``)
        f"statement sha256 {verdict.statement_sha256}; challenge sha256 {verdict.challenge_sha256}"
        if verdict.track is Track.WITH_ANSWER
        else f"challenge sha256 {verdict.challenge_sha256}",
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
    """``APPROVE`` or ``VETO`` at the start of the first non-empty line; anything else is no opinion."""
    text = reply.strip()
    first = text.splitlines()[0].strip().upper() if text else ""
    if first.startswith("APPROVE"):
        return Review("approve", text)
    if first.startswith("VETO"):
        feedback = text.split(":", 1)[1].strip() if ":" in text.splitlines()[0] else text[4:].strip()
        return Review("veto", feedback or "the reviewer vetoed without saying why")
    return Review("none", f"the reviewer's reply was neither APPROVE nor VETO: {text[:2000]}")
