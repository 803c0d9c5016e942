"""G4's statement check, for acceptances that run no G6: the compiled theorem has the pinned statement's type.

G2 compares text, and splits the file into commands at the keywords it knows; Lean ends a command at
any token of its own token table, and libraries add commands (Mathlib's ``variables``, ``variable?``).
Such a command glued to a helper's body is invisible to G2 and can change the scope the theorem is
elaborated in: a section variable ``[h : Fact False]`` is included in every later theorem (an
instance-implicit variable whose type mentions no other variable; Lean 4.35 checked on the toy
toolchain: ``@t : ∀ [zz : Fact False] (a b : Nat), Eq a b``), so the theorem proves ``Fact False → ...``
and compiles with no error, no ``sorry`` and no axiom. Only a semantic check sees it. Where the
acceptance runs G6, comparator compares the theorem's type with the challenge's; where it does not (the
``fast`` profile, by which miniF2F is judged since no comparator pairs with its release), this check does.

In a fresh sandbox, `lean --json` compiles a harness file that imports the candidate's compiled module
(G4's ``.olean``, re-hashed), repeats the challenge's own scope commands (``open``, ``set_option``,
``local notation``, ``section``/``end``, ``universe``; never a declaration, which the module holds)
and then states::

    axiom <fresh> <the pinned theorem's signature, as the challenge writes it>
    example : type_of% @<fresh> := @_root_.<theorem>

The axiom is elaborated exactly as the pinned theorem would be in a clean scope (the file's own scope
holds no variable, and nothing the candidate wrote in its file reaches it but its exported declarations).
The ``example`` holds when the candidate's theorem has that type up to definitional equality (its
universe parameters unified with the axiom's, which an equation of the two types in the header would
not do: Lean generalizes each side's universe variables apart first), and in any case only if the
kernel accepts a proof of the pinned statement made from the candidate's theorem. The check
passes only when `lean` exits 0 with no error and no ``sorry`` (``compile.failure_detail``): what the
candidate printed while compiling is not replayed on import, so it cannot forge this result.

The file ends with ``#print axioms <theorem>``, read as G5 reads its own (``axioms.read_axiom_report``):
on a profile without G5 and G6, G3's words were the only line against an axiom, and a lexing
disagreement once hid a whole ``axiom`` command from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from putnam_solver.core.gatekit import sandbox_limits
from putnam_solver.core.provers.lean.axioms import AxiomOutputError, compiled_module, read_axiom_report
from putnam_solver.core.provers.lean.checks import form_challenge, semantic_check_runs
from putnam_solver.core.provers.lean.compile import (
    GATE_ID,
    GATE_NAME,
    LeanMessage,
    compile_against_candidate,
    compile_gate,
    failure_detail,
)
from putnam_solver.core.provers.lean.syntax import (
    DECLARATION_KEYWORDS,
    DOC,
    IDENT,
    LexError,
    Statement,
    StatementError,
    Token,
    parse_statement,
)
from putnam_solver.core.provers.lean.toolchain import LeanNotFound, find_lean
from putnam_solver.core.sandbox import SandboxUnavailable, fresh_copy
from putnam_solver.core.verify import GateResult, GateStatus, Submission

PINNED: Final = "putnam_harness_pinned_statement"
"""The harness axiom's name: a candidate declaring it makes the harness file fail (an error, never a pass)."""
SCOPE_KEYWORDS: Final = frozenset({"open", "set_option", "local", "section", "end", "universe"})
"""Challenge commands that shape the scope the theorem is read in and that an import does not carry."""


class StatementCheckUnavailable(Exception):
    """The challenge has a command the harness cannot repeat in its file (a ``namespace``, a ``variable``)."""


def harness_source(module: str, statement: Statement) -> str:
    """The harness file: import, the challenge's scope commands, the pinned signature as an axiom, and the
    equality of its type with the candidate theorem's."""
    lines = [f"import {module}"]
    for command in statement.commands:
        if command is statement.theorem:
            break
        if command.keyword == "import" or command.name is not None or command.keyword in DECLARATION_KEYWORDS:
            continue  # declarations (answers, helper definitions, instances of the statement) come with the module
        if command.keyword not in SCOPE_KEYWORDS:
            raise StatementCheckUnavailable(f"the challenge's `{command.keyword}` command cannot be repeated")
        lines.append(_text(statement, command.tokens))
    theorem = statement.theorem
    prefix = [t for t in theorem.prefix if t.kind != DOC]
    groups = _prefix_groups(prefix)
    signature = theorem.tokens[theorem.head + 2 : statement.proof_assign]
    if not signature:
        raise StatementCheckUnavailable("the pinned theorem has no signature")
    lines.append(f"{groups}axiom {PINNED} {_text(statement, signature)}")
    lines.append(f"{groups}example : type_of% @{PINNED} := @_root_.{statement.theorem_name}")
    lines.append(f"#print axioms {statement.theorem_name}")
    return "\n".join(lines) + "\n"


def axioms_line(source: str) -> int:
    """The line of the harness file's ``#print axioms`` (its last)."""
    return source.count("\n")


def _prefix_groups(prefix: Sequence[Token]) -> str:
    """The theorem's own ``set_option NAME VALUE in`` and ``open NAMES in`` groups (a statement may carry
    them); anything else before it (an attribute, a modifier) cannot be repeated on an axiom."""
    i = 0
    while i < len(prefix):
        if prefix[i].text == "set_option" and i + 3 < len(prefix) and prefix[i + 3].text == "in":
            i += 4
            continue
        j = i + 1
        while prefix[i].text == "open" and j < len(prefix) and prefix[j].kind == IDENT and prefix[j].text != "in":
            j += 1
        if prefix[i].text != "open" or j == i + 1 or j >= len(prefix) or prefix[j].text != "in":
            raise StatementCheckUnavailable("the pinned theorem carries a prefix the harness cannot repeat")
        i = j + 1
    return "".join(f"{t.text} " for t in prefix)


def _text(statement: Statement, tokens: Sequence[Token]) -> str:
    return statement.text[tokens[0].offset : tokens[-1].end]


def statement_check(sub: Submission, evidence: dict[str, Any]) -> tuple[GateStatus, str] | None:
    """None when the compiled theorem has the pinned statement's type; else the status and why."""
    try:
        statement = parse_statement(form_challenge(sub)[1])
        source = harness_source(sub.problem.module, statement)
        olean_name, olean = compiled_module(sub)
        lean = find_lean(sub.options)
    except (LexError, StatementError, StatementCheckUnavailable, AxiomOutputError, LeanNotFound) as exc:
        return GateStatus.ERROR, f"statement check could not run: {exc}"
    evidence["statement_check"] = source
    scratch = sub.scratch / "statement"
    library = fresh_copy({olean_name: olean}, scratch)
    limits = sandbox_limits(sub.options)
    harness = f"{sub.problem.module}Statement"
    try:
        run = compile_against_candidate(sub, lean, harness, source, scratch, library, limits)
    except SandboxUnavailable as exc:
        return GateStatus.ERROR, f"statement check: sandbox unavailable: {exc}"
    failed = failure_detail(run, limits)
    if failed is None:
        return _axioms(run.messages, f"{harness}.lean", statement.theorem_name, axioms_line(source), evidence)
    if failed[0] is GateStatus.FAILED:
        why = (
            f"{statement.theorem_name} compiled, but its type is not the pinned statement read in a clean scope "
            f"(a command G2 does not know may have changed the scope, e.g. added a section variable): {failed[1]}"
        )
        return GateStatus.FAILED, why
    return failed[0], f"statement check: {failed[1]}"


def _axioms(
    messages: tuple[LeanMessage, ...], harness_file: str, theorem: str, line: int, evidence: dict[str, Any]
) -> tuple[GateStatus, str] | None:
    """G5's reading of the harness file's ``#print axioms``: on a profile without G5 and G6 nothing else
    sees an axiom that G3's words missed (a lexing disagreement once hid a whole ``axiom`` command)."""
    try:
        report = read_axiom_report(messages, harness_file, theorem, line)
    except AxiomOutputError as exc:
        return GateStatus.ERROR, f"statement check: {exc}"
    evidence["axioms"] = list(report.axioms)
    if report.disallowed:
        return GateStatus.FAILED, f"{theorem} depends on axioms outside the allowed set: {', '.join(report.disallowed)}"
    return None


def compile_and_statement_gate(sub: Submission) -> GateResult:
    """G4: the compile (``compile.compile_gate``), then, when the acceptance runs no G6, the statement check."""
    result = compile_gate(sub)
    if result.status is not GateStatus.PASSED or semantic_check_runs(sub):
        return result
    outcome = statement_check(sub, result.evidence)
    if outcome is None:
        detail = f"{result.detail}; the theorem has the pinned statement's type and only the allowed axioms"
        return GateResult(GATE_ID, GATE_NAME, result.status, detail, result.evidence)
    return GateResult(GATE_ID, GATE_NAME, outcome[0], outcome[1], result.evidence)


__all__ = ["compile_and_statement_gate", "harness_source", "statement_check"]
