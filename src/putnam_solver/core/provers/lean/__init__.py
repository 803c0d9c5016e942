"""Lean 4 prover: challenge derivation, gates G2-G7, doctor readiness, and the no-answer answer record.

G5 is always the harness's own ``#print axioms`` check on the compiled candidate (``axioms.py``), which
needs only a `lean`; where comparator is installed, G6 checks the axioms again on its own. Each tool run
is made once (``Gate.needs``): the candidate's compile (G4's, whose ``.olean`` G5 and the answer check
import) and the challenge's Lake build (G6's, kept across verifications per problem and toolchain).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from putnam_solver.core.answer_check import AnswerCheck
from putnam_solver.core.benchmark import Problem
from putnam_solver.core.gatekit import ToolSpec, Violation
from putnam_solver.core.provers.lean.answers import check_answer
from putnam_solver.core.provers.lean.axioms import axioms_gate
from putnam_solver.core.provers.lean.challenge import (
    answer_forms,
    challenge,
    model_statement,
    solution_values,
)
from putnam_solver.core.provers.lean.checks import (
    GATES,
    POLICY,
    LeanPolicy,
    check_forbidden,
    check_preservation,
)
from putnam_solver.core.provers.lean.comparator import challenge_artifact, comparator_available, comparator_gate
from putnam_solver.core.provers.lean.compile import CANDIDATE_OLEAN
from putnam_solver.core.provers.lean.options import LeanOptions
from putnam_solver.core.provers.lean.project import PINS
from putnam_solver.core.provers.lean.syntax import LexError, StatementError, parse_statement
from putnam_solver.core.provers.lean.toolchain import (
    DEFAULT_RELEASE,
    LEAN_TOOL,
    LeanNotFound,
    find_lean,
    lean_version,
    release_paths,
    toolchain_fingerprint,
)
from putnam_solver.core.provers.lean.yes_no import compile_gate
from putnam_solver.core.registry import EXTERNAL_CHECKS_GROUP, PluginError, load_plugin
from putnam_solver.core.sandbox import sandbox_status
from putnam_solver.core.verify import AXLE_GATE, Gate, GateResult, GateStatus, Submission, Track, VerifyOptions


def _lean_runs_here(options: VerifyOptions) -> tuple[bool, str]:
    """G4 and G5 need a `lean` and the sandbox (unless the user waived it)."""
    try:
        lean = find_lean(options)
    except LeanNotFound as exc:
        return False, str(exc)
    if not options.unsafe_no_sandbox:
        sandbox_ok, why = sandbox_status()
        if not sandbox_ok:
            return False, why
    return True, f"`{' '.join(lean.argv)}` ({lean.version})"


def _comparator_runs_here(options: VerifyOptions) -> tuple[bool, str]:
    """G6 needs the bootstrapped comparator (of the chosen release) and every kernel the user asked for."""
    paths = release_paths(options)
    return comparator_available(paths.root, options.of(LeanOptions).kernels, paths.release)


def _axle_reachable(options: VerifyOptions) -> tuple[bool, str]:
    """G7 needs the AXLE client (registered as the ``axle`` external check) and what it asks for."""
    try:
        check = load_plugin(EXTERNAL_CHECKS_GROUP, "axle")
    except PluginError as exc:
        return False, str(exc)
    ready: tuple[bool, str] = check.ready(options, options.toolchain or DEFAULT_RELEASE)
    return ready


def _axle_gate(sub: Submission) -> GateResult:
    """G7: AXLE's opinion, through the client registered outside the trusted package (which holds no
    network code); a missing client is an error, never a pass."""
    try:
        check = load_plugin(EXTERNAL_CHECKS_GROUP, "axle")
    except PluginError as exc:
        return GateResult(AXLE_GATE, "axle", GateStatus.ERROR, str(exc))
    result: GateResult = check.run(sub)
    return result


ALL_GATES: tuple[Gate, ...] = (
    *GATES,
    Gate("G4", "compile", compile_gate, _lean_runs_here, needs=(CANDIDATE_OLEAN,)),
    Gate("G5", "axioms", axioms_gate, _lean_runs_here, needs=(CANDIDATE_OLEAN,)),
    Gate("G6", "kernel", comparator_gate, _comparator_runs_here, needs=(challenge_artifact(),)),
    Gate("G7", "axle", _axle_gate, _axle_reachable),
)


class LeanProver:
    """The Prover protocol for Lean 4 benchmarks (PutnamBench, miniF2F, ProofNet, any JSONL of statements)."""

    name: str = "lean"
    label: str = "Lean 4 with Mathlib"
    suffix: str = ".lean"
    tools: tuple[ToolSpec, ...] = (LEAN_TOOL,)
    options_type: type[LeanOptions] = LeanOptions
    """Only `lean` is the user's to choose: G6 runs the comparator, lean4export and landrun that
    ``putnam bootstrap`` built at pinned commits, beside the pinned toolchain."""
    pins: Mapping[str, str] = PINS

    def challenge(self, problem: Problem, track: Track) -> str:
        return challenge(problem.formal_statement, track)

    def model_statement(self, problem: Problem, track: Track) -> str:
        return model_statement(problem.formal_statement, track)

    def has_answer(self, problem: Problem) -> bool:
        """Whether the statement has answer holes (only in a benchmark whose record says it has them)."""
        return problem.format.answers and bool(parse_statement(problem.formal_statement).solutions)

    def answer_forms(self, problem: Problem) -> list[str]:
        """The with-answer forms a candidate may use (``inlined``: PutnamBench's text; ``abbrev``)."""
        if not self.has_answer(problem):
            return []
        return [form.value for form in answer_forms(problem.formal_statement)]

    def gates(self) -> Sequence[Gate]:
        return ALL_GATES

    def check_answers(self, sub: Submission) -> dict[str, AnswerCheck]:
        answers = self.answers(sub.problem, sub.candidate, sub.track)
        return {name: check_answer(sub, name, a["candidate"], a["official"]) for name, a in answers.items()}

    def toolchain_fingerprint(self, options: VerifyOptions) -> str:
        return toolchain_fingerprint(options)

    def toolchain_version(self, options: VerifyOptions) -> str | None:
        return lean_version(options)

    def answers(self, problem: Problem, candidate: str, track: Track) -> dict[str, Any]:
        """On no-answer: each solution's value in the candidate (None if absent) beside the official one.

        This is a record for the verdict, not a check, so it never raises: text that does not lex or a
        statement without solutions gives ``{}``.
        """
        if track is not Track.NO_ANSWER or not problem.format.answers:
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
