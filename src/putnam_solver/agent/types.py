"""The contract between the campaign layer and the agent layer.

The campaign decides *which* problems run and records everything in the ledger; the agent layer runs one
Inspect evaluation over those problems and reports each finished attempt through ``on_attempt`` as soon
as its verdict is known (so that a ``kill -9`` loses at most the attempts still running).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from putnam_solver.verify import Profile, Track, Verdict


@dataclass(frozen=True)
class Budgets:
    """Limits per attempt (None = unlimited). Per-run limits are enforced by the campaign."""

    max_turns: int = 50
    worker_timeout_seconds: float | None = None
    reviewer_timeout_seconds: float | None = None
    token_limit: int | None = None
    cost_limit_dollars: float | None = None


@dataclass(frozen=True)
class SolveConfig:
    """Everything ``putnam solve`` was asked to do, as the agent layer needs it."""

    prover: str
    track: Track
    model: str
    reviewer_model: str | None  # None = no reviewer ("none" on the CLI)
    reasoning_effort: str | None
    agent: str  # "react" | "codex" | "claude-code"
    sandbox: str  # "local" | "docker"
    jobs: int
    fallback_jobs: int
    budgets: Budgets
    acceptance_profile: Profile = Profile.FULL
    axle: bool = False
    lean: Path | None = None
    unsafe_no_sandbox: bool = False
    prices: dict[str, dict[str, float]] = field(
        default_factory=dict
    )  # model -> {"input": $/Mtok, "output": ...}
    model_base_url: str | None = None
    model_args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CarryForward:
    """The best earlier candidate of a problem and why it failed, shown to the next campaign's worker."""

    candidate: str
    diagnostics: str


@dataclass
class AttemptResult:
    """One finished attempt of one problem in one campaign."""

    problem: str
    status: str  # "passed" | "rejected" | "no_submission" | "vetoed" | "budget" | "error"
    turns: int
    input_tokens: int
    output_tokens: int
    cost_dollars: float
    candidate: str | None
    verdict: Verdict | None
    reviewer_feedback: str | None = None
    error: str | None = None
    transcript: Path | None = None
    turn_log: list[dict[str, Any]] = field(
        default_factory=list
    )  # per turn: tool, args digest, result summary


AttemptCallback = Callable[[AttemptResult], None]
