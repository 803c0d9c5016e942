"""The contract between the pipeline and one proof language, and the error every prover raises for a statement.

Kept apart from the registry (``provers/__init__``) so that a prover's own modules import the contract
without importing the registry that loads them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from putnam_solver.core.answer_check import AnswerCheck
    from putnam_solver.core.benchmark import Problem
    from putnam_solver.core.gatekit import ToolSpec
    from putnam_solver.core.submission import Gate, ProverOptions, Submission, VerifyOptions
    from putnam_solver.core.verdict import Track


class StatementError(ValueError):
    """A pinned statement lacks the shape its prover expects; each prover raises this one type."""


class Prover(Protocol):
    """The contract between the pipeline and one proof language."""

    name: str
    """Registry key and CLI value."""
    label: str
    """How prompts name the language and its library (``Lean 4 with Mathlib``)."""
    suffix: str
    """Candidate file suffix, with the dot."""
    tools: tuple[ToolSpec, ...]
    """The executables the gates run that a user may choose (``--tool NAME=PATH``)."""
    pins: Mapping[str, str]
    """What the prover's toolchain is pinned to (versions, revisions), recorded in proof bundles."""
    options_type: type[ProverOptions]
    """The type of the options only this prover's gates read (``VerifyOptions.of``); ``ProverOptions``
    itself for a prover that has none."""

    def challenge(self, problem: Problem, track: Track) -> str:
        """The exact file a candidate must complete, derived by the harness from the pinned record."""
        ...

    def model_statement(self, problem: Problem, track: Track) -> str:
        """What the model is shown: the challenge without anything that leaks the answer on that track."""
        ...

    def has_answer(self, problem: Problem) -> bool:
        """Whether the statement asks for an answer (has ``*_solution`` declarations)."""
        ...

    def answer_forms(self, problem: Problem) -> list[str]:
        """The with-answer forms a candidate may use, for ``putnam list`` (empty when there is one)."""
        ...

    def gates(self) -> Sequence[Gate]:
        """This prover's gates G2 onwards, in order, each with its own readiness check."""
        ...

    def answers(self, problem: Problem, candidate: str, track: Track) -> dict[str, Any]:
        """For the no-answer track: the candidate's answer beside the official one (empty otherwise)."""
        ...

    def check_answers(self, sub: Submission) -> dict[str, AnswerCheck]:
        """For the no-answer track, after the candidate compiled: each answer against the official one
        (``answer_check``), by name. A record for the verdict, never a gate."""
        ...

    def toolchain_fingerprint(self, options: VerifyOptions) -> str:
        """Versions and binary hashes of the tools the gates run, for evidence and the verdict cache."""
        ...

    def toolchain_version(self, options: VerifyOptions) -> str | None:
        """The release of the toolchain the gates would run with ``options`` (``v4.27.0``, ``8.16.1``),
        to hold against the one a benchmark states; None when none is installed."""
        ...
