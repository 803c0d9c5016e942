"""What a verification decides: the gates' statuses, the tracks and profiles, a gate's result, the Verdict.

Shared by the pipeline (``verify.py``), every prover's gates and everything that reads a verdict (the CLI,
the cache, the ledger), so it imports nothing of theirs: one module at the bottom, no circle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from putnam_solver.core.answer_check import AnswerStatus


class GateStatus(StrEnum):
    """What happened when a gate ran. Only ``passed`` counts towards acceptance."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    UNAVAILABLE = "unavailable"


class Track(StrEnum):
    """Whether the official answer is given (inlined by the harness) or must be found by the model."""

    WITH_ANSWER = "with-answer"
    NO_ANSWER = "no-answer"


class Profile(StrEnum):
    """Which gates run: ``text`` (G1-G3), ``fast`` (G1-G4), ``full`` (all local gates)."""

    TEXT = "text"
    FAST = "fast"
    FULL = "full"


PROFILE_GATES: dict[Profile, tuple[str, ...]] = {
    Profile.TEXT: ("G1", "G2", "G3"),
    Profile.FAST: ("G1", "G2", "G3", "G4"),
    Profile.FULL: ("G1", "G2", "G3", "G4", "G5", "G6"),
}
AXLE_GATE = "G7"
COMPILE_GATE = "G4"
"""The first gate that runs the prover's compiler; a profile without it judges the text only."""
ALL_GATE_IDS = (*PROFILE_GATES[Profile.FULL], AXLE_GATE)
TEXT_GATES = PROFILE_GATES[Profile.TEXT]
# Published PutnamBench proofs reach about 140 KB; the text gates take a few seconds per MiB of text.
DEFAULT_MAX_CANDIDATE_BYTES = 1 << 20
DEFAULT_TEXT_GATE_SECONDS = 30.0


@dataclass(frozen=True)
class GateResult:
    """One gate's outcome. ``evidence`` holds hashes, tool versions and log paths for audits."""

    id: str
    name: str
    status: GateStatus
    detail: str
    evidence: dict[str, Any] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.status is GateStatus.PASSED

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "status": self.status.value,
            "detail": self.detail,
            "evidence": self.evidence,
        }


LEFT_TO_SEMANTIC_CHECK: Final = "left_to_semantic_check"  # evidence: every refusal is left to G5/G6


DISPUTED = (
    "the gates accepted a proof whose answer is provably not the official one: the proof is unsound or the "
    "statement is wrong (a candidate erratum); not counted as solved"
)


@dataclass
class Verdict:
    """The outcome for one candidate: accepted only if every gate of the profile ran and passed."""

    problem: str
    prover: str
    track: Track
    profile: Profile
    gates: list[GateResult]
    expected_gates: tuple[str, ...]
    candidate_sha256: str
    statement_sha256: str
    challenge_sha256: str
    benchmark_sha256: str
    benchmark_pinned: bool
    candidate_path: str | None = None
    answers: dict[str, Any] = field(default_factory=dict)
    unsafe_no_sandbox: bool = False
    allow_recursion: bool = False
    cached: bool = False
    ran_on: dict[str, Any] = field(default_factory=dict)
    """Where a backend other than this process ran the gates (``verifier.dispatch``): its node, host and
    toolchain fingerprint, and the attempts lost on the way; empty when they ran here."""
    benchmark: dict[str, Any] = field(default_factory=dict)
    """What the benchmark's record says of this problem (``Benchmark.verdict_record``): name, file,
    split, adaptations, and where it is shown, errata (``putnam_solver.errata.shown_benchmark``). Not an
    input of the verdict; refreshed whenever a verdict is reused."""

    @property
    def disputed_answers(self) -> list[str]:
        """The answers the answer check proved different from the official one (``differs``)."""
        return [
            name
            for name, answer in self.answers.items()
            if isinstance(answer, dict) and answer.get("check", {}).get("status") == AnswerStatus.DIFFERS
        ]

    @property
    def status(self) -> str:
        """``accepted`` / ``rejected`` (a gate failed) / ``error`` (a gate could not decide) /
        ``disputed`` (every gate passed, but an answer is provably not the official one: DESIGN §3,
        answers are alarms; never counted as solved, never cached)."""
        if any(g.status is GateStatus.FAILED for g in self.gates):
            return "rejected"
        ran = {g.id for g in self.gates if g.passed}
        if all(g.passed for g in self.gates) and set(self.expected_gates) <= ran:
            return "disputed" if self.disputed_answers else "accepted"
        return "error"

    def dispute(self) -> str | None:
        """Why a ``disputed`` verdict is one (None otherwise): the text every interface shows."""
        if self.status != "disputed":
            return None
        names = ", ".join(f"`{n}`" for n in self.disputed_answers)
        return f"{DISPUTED}: the answer check proved {names} different from the official answer"

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"

    @property
    def needs_full_profile(self) -> bool:
        """Rejected only for additions a semantic statement check (Lean G6, Rocq G5) decides."""
        failed = [g for g in self.gates if g.status is GateStatus.FAILED]
        return bool(failed) and all(g.evidence.get(LEFT_TO_SEMANTIC_CHECK) for g in failed)

    def first_problem(self) -> GateResult | None:
        return next((g for g in self.gates if not g.passed), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "problem": self.problem,
            "prover": self.prover,
            "status": self.status,
            **({"dispute": dispute} if (dispute := self.dispute()) is not None else {}),
            "needs_full_profile": self.needs_full_profile,
            "gates": [g.to_json() for g in self.gates],
            "candidate_path": self.candidate_path,
            "candidate_sha256": self.candidate_sha256,
            "statement_sha256": self.statement_sha256,
            "challenge_sha256": self.challenge_sha256,
            "benchmark_sha256": self.benchmark_sha256,
            "benchmark_pinned": self.benchmark_pinned,
            "track": self.track.value,
            "profile": self.profile.value,
            "answers": self.answers,
            "unsafe_no_sandbox": self.unsafe_no_sandbox,
            "allow_recursion": self.allow_recursion,
            "cached": self.cached,
            "benchmark": self.benchmark,
            **({"ran_on": self.ran_on} if self.ran_on else {}),
        }
