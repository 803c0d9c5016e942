"""Lean text gates: G2 statement preservation and G3 forbidden constructs, and the policy behind them.

Both gates read only the candidate's text and the harness's challenge, token by token (see ``syntax``), so
comments, strings and layout cannot hide or fake anything. They are cheap first lines of defence; the
compile, axiom and kernel-replay gates (G4-G6) check the same properties semantically.

The policy is data (``_policy``), G2 compares the candidate with the challenge (``_preservation``), G3
scans it for forbidden constructs (``_forbidden``); this module re-exports their public names and holds
the two gates.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Final

from putnam_solver.core.gatekit import Violation, text_gate_result
from putnam_solver.core.provers.lean._declarations import g2_decides
from putnam_solver.core.provers.lean._forbidden import attribute_names, check_forbidden, scan_forbidden
from putnam_solver.core.provers.lean._helpers import ELABORATION_MARK
from putnam_solver.core.provers.lean._opens_in_force import before_answer
from putnam_solver.core.provers.lean._option_values import decided_settings
from putnam_solver.core.provers.lean._policy import (
    DERIVING_HANDLERS,
    POLICY,
    TYPE_KEYWORDS,
    ForbiddenRule,
    LeanPolicy,
    PermittedAddition,
)
from putnam_solver.core.provers.lean._preservation import STATEMENT_DIFFERS, check_preservation, check_statement
from putnam_solver.core.provers.lean._signature_options import decided_sites
from putnam_solver.core.provers.lean.challenge import AnswerForm, answer_form, challenge
from putnam_solver.core.provers.lean.imports import ImportClosure, closure_for, header_imports
from putnam_solver.core.provers.lean.options import LeanOptions
from putnam_solver.core.provers.lean.syntax import (
    LexError,
    Statement,
    StatementError,
    Token,
    commands_of,
    parse_statement,
)
from putnam_solver.core.util import sha256_hex
from putnam_solver.core.verify import (
    PROFILE_GATES,
    Gate,
    GateResult,
    GateStatus,
    Submission,
    Track,
)

__all__ = [
    "DERIVING_HANDLERS",
    "GATES",
    "POLICY",
    "TYPE_KEYWORDS",
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
    options = dict(sub.problem.format.lean_options)
    expected = replace(
        expected, auto_bound=options.get("autoImplicit", True) is not False, project_options=frozenset(options)
    )
    closure = import_closure(sub, expected)
    violations = check_statement(expected, sub.candidate, sub.track, POLICY, semantic_check_runs(sub), closure)
    violations = before_answer(violations) if semantic_check_runs(sub) else violations
    by_elaboration = sub.options.of(LeanOptions).statement_by_elaboration and semantic_check_runs(sub)
    left_to_g6 = [v for v in violations if by_elaboration and v.rule.startswith(STATEMENT_DIFFERS)]
    violations = [v for v in violations if v not in left_to_g6]
    result = text_gate_result(
        "G2", "preservation", violations, f"statement of {expected.theorem_name} preserved", ELABORATION_MARK
    )
    result.evidence["challenge_sha256"] = sha256_hex(text.encode("utf-8"))
    if closure is not None and not violations:
        added = [m for m in header_imports(sub.candidate) if m not in closure.roots]
        if added:  # which rule accepted each import the challenge does not have
            result.evidence["imports_in_closure"] = {m: closure.reason(m) for m in added}
            result.evidence["import_closure_release"] = closure.release
    if form is not None:
        result.evidence["answer_form"] = form.value
    if left_to_g6:  # the opt-in mode, and what it let through to G6's comparison of elaborated types
        result.evidence["statement_by_elaboration"] = [f"line {v.line}: {v.construct}" for v in left_to_g6]
    return result


def import_closure(sub: Submission, expected: Statement) -> ImportClosure | None:
    """What the challenge's imports load on the release the candidate is judged with (the user's
    ``--toolchain``, else the one the benchmark states)."""
    roots = [c.tokens[1].text for c in expected.commands if c.keyword == "import" and len(c.tokens) == 2]
    return closure_for(sub.benchmark.release(sub.options.toolchain), roots)


def challenge_theorem(sub: Submission) -> str:
    """The name of the theorem to prove, as the challenge declares it (not assumed to be the problem id:
    PutnamBench names theorems after problems, other benchmarks need not)."""
    return parse_statement(sub.challenge).theorem_name


def forbidden_gate(sub: Submission) -> GateResult:
    """G3 on a submission: forbidden constructs the candidate adds. Those of the challenge itself (outside
    its holes: a benchmark's own ``set_option``, ``local notation``) belong to the pinned statement, which
    G2 keeps verbatim, and are not counted against the candidate."""
    own = statement_constructs(sub)
    if not sub.benchmark.pinned:  # a client's record, an unpinned file: its meta code runs like a candidate's
        own = Counter({c: n for c, n in own.items() if c not in unpinned_refused(sub)})
    found = excuse_statement_constructs(check_forbidden(sub.candidate), own)
    try:
        expected: Statement | None = parse_statement(form_challenge(sub)[1])
    except (LexError, StatementError):
        expected = None
    found = leave_to_g2(found, sub.candidate, expected)
    return text_gate_result("G3", "forbidden", found, "no forbidden constructs")


UNPINNED_STATEMENT_RULES = ("meta", "kernel", "unsafe", "native")
"""Rules a statement that is not a pinned benchmark record must itself obey: ``run_cmd``, ``#eval``,
``elab``, ``addDecl``, ``unsafe``, ``implemented_by`` in it would run or trust code like a candidate's."""


def unpinned_refused(sub: Submission) -> set[str]:
    """The constructs of the challenge (all of it) that ``UNPINNED_STATEMENT_RULES`` name."""
    found = check_forbidden(form_challenge(sub)[1])
    return {v.construct for v in found if v.rule.split(":", 1)[0] in UNPINNED_STATEMENT_RULES}


def leave_to_g2(found: list[Violation], candidate: str, expected: Statement | None = None) -> list[Violation]:
    """Drop the ``instance`` and ``local notation`` keywords G2 judges as whole commands (``_declarations``),
    the global ``set_option autoImplicit false`` (``_option_values``), and, given the challenge
    (``expected``), the ``set_option autoImplicit V in`` it judges in helpers and in the theorem's proof
    (``_signature_options``)."""
    try:
        commands = commands_of(candidate)
    except LexError:
        return found
    decided = g2_decides(commands) + decided_settings(commands)
    if expected is not None:  # without it, the theorem or a pinned declaration could pass for a helper
        decided += decided_sites(commands, expected)
    kept = []
    for violation in found:
        key = (violation.line, violation.construct)
        if decided[key] > 0:
            decided[key] -= 1
        else:
            kept.append(violation)
    return kept


def statement_constructs(sub: Submission) -> Counter[str]:
    """The forbidden constructs the challenge itself contains outside its holes (the theorem's proof and,
    on no-answer, the answer values), counted: each may occur that many times in the candidate."""
    try:
        statement = parse_statement(form_challenge(sub)[1])
    except (LexError, StatementError):
        return Counter()
    holes = {id(statement.theorem): statement.proof_assign + 1}  # tokens kept of each command with a hole
    if sub.track is Track.NO_ANSWER:
        holes |= {id(s.command): len(s.command.tokens) - 1 for s in statement.solutions}
    kept: list[Token] = []
    for command in statement.commands:
        kept.extend(command.tokens[: holes.get(id(command), len(command.tokens))])
    return Counter(v.construct for v in scan_forbidden(kept))  # doc comments are skipped there


def excuse_statement_constructs(found: list[Violation], allowed: Counter[str]) -> list[Violation]:
    """``found`` less up to ``allowed[c]`` violations of each construct ``c`` (the statement's own)."""
    left = Counter(allowed)
    kept: list[Violation] = []
    for violation in found:
        if left[violation.construct] > 0:
            left[violation.construct] -= 1
        else:
            kept.append(violation)
    return kept


GATES: Final = (Gate("G2", "preservation", preservation_gate), Gate("G3", "forbidden", forbidden_gate))
