"""Lean 4 prover: challenge derivation, text gates (G2, G3), and the no-answer track's answer record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from putnam_solver.benchmark import Problem
from putnam_solver.provers.lean.challenge import challenge, model_statement, solution_values
from putnam_solver.provers.lean.checks import (
    GATES,
    POLICY,
    LeanPolicy,
    Violation,
    check_forbidden,
    check_preservation,
)
from putnam_solver.provers.lean.syntax import LexError, StatementError, parse_statement
from putnam_solver.provers.lean.toolchain import toolchain_fingerprint
from putnam_solver.verify import Gate, Track, VerifyOptions


class LeanProver:
    """The Prover protocol for Lean 4 PutnamBench."""

    name: str = "lean"
    suffix: str = ".lean"
    benchmark_file: str = "putnam_bench_lean4.jsonl"

    def challenge(self, problem: Problem, track: Track) -> str:
        return challenge(problem.formal_statement, track)

    def model_statement(self, problem: Problem, track: Track) -> str:
        return model_statement(problem.formal_statement, track)

    def has_answer(self, problem: Problem) -> bool:
        return bool(parse_statement(problem.formal_statement).solutions)

    def policy_text(self) -> str:
        return POLICY.describe()

    def gates(self) -> Sequence[Gate]:
        return GATES

    def toolchain_fingerprint(self, options: VerifyOptions) -> str:
        return toolchain_fingerprint(options.lean)

    def answers(self, problem: Problem, candidate: str, track: Track) -> dict[str, Any]:
        """On no-answer: each solution's value in the candidate (None if absent) beside the official one.

        This is a record for the verdict, not a check, so it never raises: text that does not lex or a
        statement without solutions gives ``{}``.
        """
        if track is not Track.NO_ANSWER:
            return {}
        try:
            statement = parse_statement(problem.formal_statement)
            values = solution_values(statement, candidate)
        except (LexError, StatementError):
            return {}
        return {
            s.command.name: {
                "candidate": values[s.command.name].text if s.command.name in values else None,
                "official": s.answer,
            }
            for s in statement.solutions
            if s.command.name is not None
        }


__all__ = [
    "POLICY",
    "LeanPolicy",
    "LeanProver",
    "Violation",
    "challenge",
    "check_forbidden",
    "check_preservation",
    "model_statement",
]
