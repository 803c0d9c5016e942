"""Lean text gates: G2 statement preservation and G3 forbidden constructs, and the policy behind them.

Both gates read only the candidate's text and the harness's challenge, token by token (see ``syntax``), so
comments, strings and layout cannot hide or fake anything. They are cheap first lines of defence; the
compile, axiom and kernel-replay gates (G4-G6) check the same properties semantically.

The policy is data (``_policy``), G2 compares the candidate with the challenge (``_preservation``), G3
scans it for forbidden constructs (``_forbidden``); this module re-exports their public names and holds
the two gates.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.gatekit import text_gate_result
from putnam_solver.core.provers.lean._forbidden import attribute_names, check_forbidden, scan_forbidden
from putnam_solver.core.provers.lean._policy import (
    ADDITIONS,
    DERIVING_HANDLERS,
    POLICY,
    TYPE_KEYWORDS,
    Addition,
    ForbiddenRule,
    LeanPolicy,
    PermittedAddition,
)
from putnam_solver.core.provers.lean._preservation import check_preservation, check_statement
from putnam_solver.core.provers.lean.challenge import AnswerForm, answer_form, challenge
from putnam_solver.core.provers.lean.syntax import LexError, StatementError, commands_of, parse_statement
from putnam_solver.core.util import sha256_hex
from putnam_solver.core.verify import PROFILE_GATES, Gate, GateResult, GateStatus, Submission, Track

__all__ = [
    "ADDITIONS",
    "DERIVING_HANDLERS",
    "GATES",
    "POLICY",
    "TYPE_KEYWORDS",
    "Addition",
    "ForbiddenRule",
    "LeanPolicy",
    "PermittedAddition",
    "attribute_names",
    "check_forbidden",
    "check_preservation",
    "forbidden_gate",
    "form_challenge",
    "preservation_gate",
    "scan_forbidden",
    "semantic_check_runs",
]


def form_challenge(sub: Submission) -> tuple[AnswerForm | None, str]:
    """The challenge a candidate is judged against: on with-answer the form it uses (a candidate that
    declares the solution keeps the ``abbrev`` form), else the track's challenge. G2, G6 and G7 all use
    it, so the form G2 compared is the one the kernel replays."""
    if sub.track is not Track.WITH_ANSWER:
        return None, sub.challenge
    statement = parse_statement(sub.problem.formal_statement)
    if not statement.solutions:
        return None, sub.challenge
    try:
        commands = commands_of(sub.candidate)  # cached: G2 and G3 read the same lexing and split
    except LexError:
        return None, sub.challenge
    form = answer_form(statement, commands)
    return form, challenge(sub.problem.formal_statement, sub.track, form)


def semantic_check_runs(sub: Submission) -> bool:
    """Whether the acceptance this check serves runs G6: the options' own profile, or the acceptance
    profile an agent's ``check`` is judged by (``Submission.rules_profile``)."""
    return "G6" in PROFILE_GATES[sub.rules_profile]


def preservation_gate(sub: Submission) -> GateResult:
    """G2 on a submission. A challenge that does not parse is the harness's fault: an error, not a pass."""
    form, text = form_challenge(sub)
    try:
        expected = parse_statement(text)
    except (LexError, StatementError) as exc:
        return GateResult("G2", "preservation", GateStatus.ERROR, f"challenge does not parse: {exc}")
    violations = check_statement(expected, sub.candidate, sub.track, POLICY, semantic_check_runs(sub))
    result = text_gate_result("G2", "preservation", violations, f"statement of {expected.theorem_name} preserved")
    result.evidence["challenge_sha256"] = sha256_hex(text.encode("utf-8"))
    if form is not None:
        result.evidence["answer_form"] = form.value
    return result


def forbidden_gate(sub: Submission) -> GateResult:
    """G3 on a submission."""
    return text_gate_result("G3", "forbidden", check_forbidden(sub.candidate), "no forbidden constructs")


GATES: Final = (Gate("G2", "preservation", preservation_gate), Gate("G3", "forbidden", forbidden_gate))
