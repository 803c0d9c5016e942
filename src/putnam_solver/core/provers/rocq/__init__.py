"""Rocq (Coq) behind the Prover protocol: challenge, model statement, gates G2-G6 and answers.

Modules: ``syntax`` (lexer, sentences, statement shape), ``challenge`` (tracks, answers, the trusted
reference module), ``checks`` (G2 preservation, G3 forbidden constructs, the policy), ``build`` (sandboxed
compiles), ``products`` (what the gates make for each other, once; the reference kept per problem and
toolchain), ``compile`` (G4 coqc), ``statement`` (G5 trusted statement check and
assumptions), ``coqchk`` (G6), ``toolchain`` (install, doctor, axiom
allow-list). See docs/rocq.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from putnam_solver.core.answer_check import AnswerCheck
from putnam_solver.core.benchmark import Problem
from putnam_solver.core.gatekit import ToolSpec, ToolUnavailable
from putnam_solver.core.provers.rocq import challenge as _challenge
from putnam_solver.core.provers.rocq.answers import check_answer
from putnam_solver.core.provers.rocq.checks import preservation_gate
from putnam_solver.core.provers.rocq.compile import compile_gate
from putnam_solver.core.provers.rocq.coqchk import COQCHK_RUN, kernel_gate
from putnam_solver.core.provers.rocq.forbidden import forbidden_gate
from putnam_solver.core.provers.rocq.options import RocqOptions
from putnam_solver.core.provers.rocq.products import CANDIDATE_VO, REFERENCE_VO
from putnam_solver.core.provers.rocq.statement import TRUSTED_RUN, statement_gate
from putnam_solver.core.provers.rocq.statement_shape import Statement
from putnam_solver.core.provers.rocq.syntax import StatementError
from putnam_solver.core.provers.rocq.toolchain import (
    COQC,
    COQCHK,
    PINS,
    detected_version,
    find_tool,
    optional_tool,
    toolchain_fingerprint,
)
from putnam_solver.core.sandbox import sandbox_status
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Gate, Submission, Track, VerifyOptions


def _tools_run_here(options: VerifyOptions, tools: tuple[ToolSpec, ...]) -> tuple[bool, str]:
    """Compiled gates need their tools and the sandbox (unless the user waived it)."""
    try:
        found = [find_tool(t, options) for t in tools]
    except ToolUnavailable as exc:
        return False, str(exc)
    if not options.unsafe_no_sandbox:
        sandbox_ok, why = sandbox_status()
        if not sandbox_ok:
            return False, why
    return True, f"{' and '.join(str(t.path) for t in found)} in the sandbox"


def _coqc_runs_here(options: VerifyOptions) -> tuple[bool, str]:
    """G4 and G5 run coqc."""
    return _tools_run_here(options, (COQC,))


def _coqchk_runs_here(options: VerifyOptions) -> tuple[bool, str]:
    """G6 needs the candidate compiled by coqc and checks the result with coqchk."""
    return _tools_run_here(options, (COQC, COQCHK))


GATES: tuple[Gate, ...] = (
    Gate("G2", "preservation", preservation_gate),
    Gate("G3", "forbidden", forbidden_gate),
    Gate("G4", "compile", compile_gate, _coqc_runs_here, needs=(CANDIDATE_VO,)),
    Gate("G5", "statement and assumptions", statement_gate, _coqc_runs_here, (CANDIDATE_VO, REFERENCE_VO, TRUSTED_RUN)),
    Gate("G6", "kernel check", kernel_gate, _coqchk_runs_here, needs=(COQCHK_RUN,)),
)
"""The compiled gates' runs (``products``): the candidate's and the reference's compiles overlap, coqchk
starts once the candidate is compiled and the trusted file once both are (``Gate.needs``, started by the
pipeline)."""


def _statement(problem: Problem) -> Statement:
    """The parsed pinned statement; a record without its benchmark's shape is the user's input error."""
    try:
        return _challenge.statement_of(problem)
    except StatementError as exc:
        raise InputError(f"{exc}; a Rocq statement ends with `Theorem ... Proof. Admitted.`") from exc


class RocqProver:
    """The Rocq prover: candidates are ``.v`` files completing a benchmark's Coq statement."""

    name = "rocq"
    label = "Rocq (Coq)"
    suffix = ".v"
    tools = (COQC, COQCHK)
    options_type = RocqOptions
    pins: Mapping[str, str] = PINS

    def challenge(self, problem: Problem, track: Track) -> str:
        return _challenge.challenge_text(_statement(problem), track)

    def model_statement(self, problem: Problem, track: Track) -> str:
        """The challenge itself: on the no-answer track it already hides the answer behind ``_``."""
        return self.challenge(problem, track)

    def has_answer(self, problem: Problem) -> bool:
        return _statement(problem).solution is not None

    def answer_forms(self, problem: Problem) -> list[str]:
        """One form only: the harness inlines the answer; there is nothing to choose."""
        return []

    def gates(self) -> Sequence[Gate]:
        return GATES

    def answers(self, problem: Problem, candidate: str, track: Track) -> dict[str, Any]:
        """A record for the verdict, never a check: a statement without the expected shape gives ``{}``."""
        try:
            statement = _challenge.statement_of(problem)
        except StatementError:
            return {}
        return _challenge.answers(statement, candidate, track)

    def check_answers(self, sub: Submission) -> dict[str, AnswerCheck]:
        statement = _challenge.statement_of(sub.problem)
        if statement.solution_name is None:
            return {}
        return {statement.solution_name: check_answer(sub, statement)}

    def toolchain_fingerprint(self, options: VerifyOptions) -> str:
        return toolchain_fingerprint(options)

    def toolchain_version(self, options: VerifyOptions) -> str | None:
        """The chosen coqc's version (one Coq is installed; ``--tool coqc=PATH`` chooses another)."""
        version = detected_version(optional_tool(COQC, options))
        return ".".join(map(str, version)) if version is not None else None


__all__ = ["GATES", "RocqProver"]
