"""Provers: what a proof language contributes to verification, behind one protocol.

A prover knows its source syntax, how to derive the challenge from a pinned record, which files are
candidates, and its gates G2 onwards (G1, provenance, is shared and lives in ``verify``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from putnam_solver.answer_check import AnswerCheck
    from putnam_solver.benchmark import Problem
    from putnam_solver.verify import Gate, Submission, Track, VerifyOptions


@dataclass(frozen=True)
class Readiness:
    """Whether a tool or a gate can run here; ``detail`` says where it is, or what to do if not."""

    name: str
    ok: bool
    detail: str


class Prover(Protocol):
    """The contract between the pipeline and one proof language."""

    name: str
    """Registry key and CLI value: ``lean`` or ``rocq``."""
    suffix: str
    """Candidate file suffix, with the dot."""
    benchmark_file: str
    """File name of this prover's PutnamBench JSONL in the data directory."""

    def challenge(self, problem: Problem, track: Track) -> str:
        """The exact file a candidate must complete, derived by the harness from the pinned record."""
        ...

    def model_statement(self, problem: Problem, track: Track) -> str:
        """What the model is shown: the challenge without anything that leaks the answer on that track."""
        ...

    def has_answer(self, problem: Problem) -> bool:
        """Whether the statement asks for an answer (has ``*_solution`` declarations)."""
        ...

    def policy_text(self) -> str:
        """What a candidate may add and what is forbidden, for users and docs."""
        ...

    def tool_status(self, options: VerifyOptions) -> list[Readiness]:
        """Installed tools, their versions and locations (for ``putnam doctor``)."""
        ...

    def gate_readiness(self, options: VerifyOptions) -> list[Readiness]:
        """For each gate G1..G7 (named ``"G4 compile"`` etc.): can it run here, and if not, why."""
        ...

    def gates(self) -> Sequence[Gate]:
        """This prover's gates G2 onwards, in order."""
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


def get_prover(name: str) -> Prover:
    """The prover registered under ``name``; an unknown name is the caller's input error."""
    from putnam_solver.verify import InputError

    if name == "lean":
        from putnam_solver.provers.lean import LeanProver

        return LeanProver()
    if name == "rocq":
        from putnam_solver.provers.rocq import RocqProver

        return RocqProver()
    raise InputError(f"unknown prover {name!r}; choose one of: {', '.join(PROVER_NAMES)}")


PROVER_NAMES = ("lean", "rocq")

__all__ = ["PROVER_NAMES", "Prover", "Readiness", "get_prover"]
