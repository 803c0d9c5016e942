"""Lean 4 prover: challenge derivation, gates G2-G7, doctor readiness, and the no-answer answer record.

G5 is always the harness's own ``#print axioms`` check on the compiled candidate (``axioms.py``), which
needs only a `lean`; where comparator is installed, G6 checks the axioms again on its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from putnam_solver.core.answer_check import AnswerCheck
from putnam_solver.core.benchmark import Problem
from putnam_solver.core.gatekit import ToolSpec, Violation, explicit_tool
from putnam_solver.core.interactive import Interactive
from putnam_solver.core.provers import InstallRequest, InstallStep, Readiness
from putnam_solver.core.provers.lean.answers import check_answer
from putnam_solver.core.provers.lean.axioms import axioms_gate
from putnam_solver.core.provers.lean.bootstrap import PINS, plan, toolchain_status
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
from putnam_solver.core.provers.lean.comparator import comparator_available, comparator_gate
from putnam_solver.core.provers.lean.compile import compile_gate
from putnam_solver.core.provers.lean.syntax import LexError, StatementError, parse_statement
from putnam_solver.core.provers.lean.toolchain import (
    DEFAULT_RELEASE,
    LEAN_TOOL,
    LeanNotFound,
    find_lean,
    lean_release,
    lean_version,
    release_paths,
    toolchain_fingerprint,
    toolchain_root,
)
from putnam_solver.core.sandbox import sandbox_status
from putnam_solver.core.verify import Gate, GateResult, Submission, Track, VerifyOptions


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
    return comparator_available(paths.root, options.kernels, paths.release)


def _axle_reachable(options: VerifyOptions) -> tuple[bool, str]:
    """G7 needs AXLE's credentials, whatever the local options; and, when ``--axle`` asks for it, an
    AXLE environment of the release being judged (asked of the server)."""
    from putnam_solver.core.provers.lean.axle import axle_readiness, axle_serves  # loaded only for G7

    ready = axle_readiness()
    if not ready[0] or not options.axle:
        return ready
    return axle_serves(options.toolchain or DEFAULT_RELEASE)


def _axle_gate(sub: Submission) -> GateResult:
    """G7, with the network client loaded only when it runs (the core imports no network code)."""
    from putnam_solver.core.provers.lean.axle import axle_gate

    return axle_gate(sub)


ALL_GATES: tuple[Gate, ...] = (
    *GATES,
    Gate("G4", "compile", compile_gate, _lean_runs_here),
    Gate("G5", "axioms", axioms_gate, _lean_runs_here),
    Gate("G6", "kernel", comparator_gate, _comparator_runs_here),
    Gate("G7", "axle", _axle_gate, _axle_reachable),
)


class LeanProver:
    """The Prover protocol for Lean 4 benchmarks (PutnamBench, miniF2F, ProofNet, any JSONL of statements)."""

    name: str = "lean"
    label: str = "Lean 4 with Mathlib"
    suffix: str = ".lean"
    selftest_suites: tuple[str, ...] = ("lean-core", "lean-mathlib")
    tools: tuple[ToolSpec, ...] = (LEAN_TOOL,)
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

    def policy_text(self, options: VerifyOptions) -> str:
        return POLICY.describe()

    def policy_brief(self, options: VerifyOptions) -> str:
        return POLICY.brief()

    def gates(self) -> Sequence[Gate]:
        return ALL_GATES

    def check_answers(self, sub: Submission) -> dict[str, AnswerCheck]:
        answers = self.answers(sub.problem, sub.candidate, sub.track)
        return {name: check_answer(sub, name, a["candidate"], a["official"]) for name, a in answers.items()}

    def toolchain_fingerprint(self, options: VerifyOptions) -> str:
        return toolchain_fingerprint(options)

    def toolchain_version(self, options: VerifyOptions) -> str | None:
        return lean_version(options)

    def tool_status(self, options: VerifyOptions) -> list[Readiness]:
        rows = [Readiness(*row) for row in toolchain_status(toolchain_root(), lean_release(options.toolchain))]
        try:
            lean = find_lean(options)
            rows.insert(0, Readiness("lean used by the gates", True, f"{lean.version} ({lean.origin})"))
        except LeanNotFound as exc:
            rows.insert(0, Readiness("lean used by the gates", False, str(exc)))
        return rows

    def workspace_files(self, options: VerifyOptions) -> dict[str, str]:
        """A Lake project that reuses the bootstrapped Mathlib build, on the pinned Lean of the release."""
        paths = release_paths(options)
        lakefile = f'name = "putnam_attempt"\n\n[[require]]\nname = "mathlib"\npath = "{paths.mathlib.as_posix()}"\n'
        return {"lakefile.toml": lakefile, "lean-toolchain": paths.release.toolchain + "\n"}

    def library_roots(self, options: VerifyOptions) -> tuple[Path, ...]:
        """The bootstrapped project's packages (Mathlib and its dependencies) and Lean's own sources:
        those of every elan toolchain there, and of a `lean` the user chose."""
        paths = release_paths(options)
        toolchains = sorted((paths.elan_home / "toolchains").glob("*/src/lean"))
        chosen = explicit_tool(LEAN_TOOL, options)
        given = (chosen[0].resolve().parent.parent / "src" / "lean",) if chosen is not None else ()
        return (paths.project / ".lake" / "packages", *toolchains, *given)

    def install_plan(self, request: InstallRequest) -> Sequence[InstallStep]:
        return plan(
            request.directory or toolchain_root(),
            build_mathlib=request.build_mathlib,
            nanoda=request.nanoda,
            release=lean_release(request.toolchain),
        )

    def interactive(self) -> Interactive:
        """A warm ``lean --server`` per import header (``interactive``), for the agent's tools only."""
        from putnam_solver.core.provers.lean.interactive import LeanInteractive

        return LeanInteractive()

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
