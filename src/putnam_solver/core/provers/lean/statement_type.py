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

Where the challenge declares nothing before its theorem but its answers (every miniF2F statement, and
PutnamBench's but nine), the axiom is in a module of the harness's own (``pinned_source``: the challenge's
imports and scope commands, then the axiom), compiled first, and the file above imports it beside the
candidate's module (``check_source``): the signature is elaborated exactly as the pinned theorem would be
in a clean scope, before any instance, notation or unification hint the candidate's module exports exists
(red team 8: an exported ``instance (priority := 2000) : OfNat Nat n`` made ``2 = 3`` true in both
readings, and the check passed). An answer (``abbrev putnam_X_solution : T := ...``), which the
candidate's module declares too, becomes a parameter of the axiom, ``(putnam_X_solution : T)``, and the
check applies the axiom to the candidate's constant: ``type_of% (@<fresh> _root_.putnam_X_solution)``;
where the answer is pinned (a with-answer candidate keeping the ``abbrev`` with the official value), the
module also defines that value, and the check requires the candidate's answer to be it (``rfl``).
Where the pinned signature needs more of the answer than its type (its value, to find an instance), that
module does not compile, and the check falls back to the reading below.
Where the challenge declares other things (its classes, its definitions), the candidate's module declares
them too and the two modules cannot be imported together: the axiom is then read in the file importing
the candidate, and only G2 keeps the candidate's exported declarations out of that reading.
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

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from putnam_solver.core.gatekit import read_product, sandbox_limits
from putnam_solver.core.provers.lean.axioms import (
    AxiomOutputError,
    LoadTimeCode,
    compiled_module,
    read_axiom_report,
)
from putnam_solver.core.provers.lean.checks import form_challenge, semantic_check_runs
from putnam_solver.core.provers.lean.compile import (
    GATE_ID,
    GATE_NAME,
    LeanMessage,
    ShadowedModule,
    compile_against_candidate,
    compile_gate,
    compile_lean,
    failure_detail,
)
from putnam_solver.core.provers.lean.syntax import (
    DECLARATION_KEYWORDS,
    DOC,
    IDENT,
    Command,
    LexError,
    Statement,
    StatementError,
    Token,
    parse_statement,
)
from putnam_solver.core.provers.lean.toolchain import LeanCommand, LeanNotFound, find_lean
from putnam_solver.core.safe_files import UnsafeFile
from putnam_solver.core.sandbox import SandboxLimits, SandboxUnavailable, fresh_copy
from putnam_solver.core.verify import GateResult, GateStatus, Submission

PINNED: Final = "putnam_harness_pinned_statement"
"""The harness axiom's name: a candidate declaring it makes the harness file fail (an error, never a pass)."""
SCOPE_KEYWORDS: Final = frozenset({"open", "set_option", "local", "section", "end", "universe"})
"""Challenge commands that shape the scope the theorem is read in and that an import does not carry."""
PINNED_MODULE: Final = "PinnedStatement"
"""The suffix of the harness's module holding the pinned signature read alone (:func:`pinned_source`)."""


class StatementCheckUnavailable(Exception):
    """The challenge has a command the harness cannot repeat in its file (a ``namespace``, a ``variable``)."""


def harness_source(module: str, statement: Statement) -> str:
    """The harness file when the pinned signature cannot be read alone: import, the challenge's scope
    commands, the pinned signature as an axiom, and the equality of its type with the candidate theorem's.
    The axiom is read with the candidate's exported declarations in scope (its instances, its notations):
    only G2's words keep those out (:func:`pinned_source` is used wherever it can be)."""
    axiom, check = _axiom_and_check(statement, ())
    return "\n".join([f"import {module}", *_scope(statement, _before_theorem(statement)), axiom, *check]) + "\n"


@dataclass(frozen=True)
class _Answer:
    """An answer the challenge declares before its theorem: ``abbrev <name> : <type> := <value>``."""

    name: str
    type_text: str
    value: str | None
    """The pinned value (the official answer of the with-answer form); None for no-answer's ``sorry``."""


def pinned_source(statement: Statement) -> str | None:
    """A module of the harness's own that reads the pinned signature with nothing of the candidate's: the
    challenge's imports and scope commands, its pinned answers' values, then the axiom, its answers as
    parameters; None when the challenge declares something else before its theorem (the candidate's module
    declares it too, so the two could not be imported together) or an answer with parameters of its own.

    The harness file (:func:`check_source`) imports it beside the candidate's module: the axiom's type and
    the answers' values were elaborated before any candidate instance, notation or unification hint
    existed (an exported ``instance (priority := 2000)`` changed the statement in the candidate's file and
    in the old harness alike, and the check passed)."""
    answers = _answers(statement)
    if answers is None:
        return None
    values = {a.name: f"noncomputable def {_value_name(a)} : {a.type_text} := {a.value}" for a in answers if a.value}
    lines = []
    for command in _before_theorem(statement):
        if command.name is not None:
            lines.extend([values[command.name]] if command.name in values else [])
        else:
            lines.extend(_scope(statement, [command], keep_imports=True))
    axiom, _ = _axiom_and_check(statement, answers)
    return "\n".join([*lines, axiom]) + "\n"


def check_source(module: str, statement: Statement) -> str:
    """The harness file importing the pinned module (:func:`pinned_source`) and the candidate's: the
    candidate's theorem has the pinned type, and each pinned answer's value is the candidate's."""
    answers = _answers(statement) or []
    _, check = _axiom_and_check(statement, answers)
    values = [f"example : _root_.Eq _root_.{a.name} _root_.{_value_name(a)} := _root_.rfl" for a in answers if a.value]
    scope = _scope(statement, _before_theorem(statement))
    return "\n".join([f"import {module}{PINNED_MODULE}", f"import {module}", *scope, *values, *check]) + "\n"


def _value_name(answer: _Answer) -> str:
    return f"{PINNED}_{answer.name}"


def _before_theorem(statement: Statement) -> list[Command]:
    return list(itertools.takewhile(lambda c: c is not statement.theorem, statement.commands))


def _answers(statement: Statement) -> list[_Answer] | None:
    """Each answer declared before the theorem, or None when the challenge declares anything else there,
    or an answer not written ``name : T := value``."""
    solutions = {id(s.command) for s in statement.solutions}
    answers = []
    for command in _before_theorem(statement):
        if command.name is None and command.keyword not in DECLARATION_KEYWORDS:
            continue
        if id(command) not in solutions or command.name is None:
            return None
        tokens = command.tokens
        assign = next((i for i, t in enumerate(tokens) if t.text == ":="), None)
        colon = command.head + 2
        if assign is None or colon >= assign - 1 or assign + 1 >= len(tokens) or tokens[colon].text != ":":
            return None
        value = _text(statement, tokens[assign + 1 :])
        answer = _Answer(
            command.name, _text(statement, tokens[colon + 1 : assign]), None if value == "sorry" else value
        )
        answers.append(answer)
    return answers


def _scope(statement: Statement, commands: Sequence[Command], *, keep_imports: bool = False) -> list[str]:
    """The texts of those ``commands`` that shape the scope and that an import does not carry (and the
    imports themselves when ``keep_imports``)."""
    scope = []
    for command in commands:
        if command.keyword == "import":
            scope.extend([_text(statement, command.tokens)] if keep_imports else [])
        elif command.name is None and command.keyword not in DECLARATION_KEYWORDS:
            if command.keyword not in SCOPE_KEYWORDS:
                raise StatementCheckUnavailable(f"the challenge's `{command.keyword}` command cannot be repeated")
            scope.append(_text(statement, command.tokens))
        # declarations (answers, helper definitions, instances of the statement) come with the module
    return scope


def _axiom_and_check(statement: Statement, answers: Sequence[_Answer]) -> tuple[str, list[str]]:
    """The axiom with the pinned signature, its ``answers`` as parameters, and the check's last lines:
    the candidate's theorem has the axiom's type (applied to the candidate's answers), its axioms."""
    theorem = statement.theorem
    groups = _prefix_groups([t for t in theorem.prefix if t.kind != DOC])
    signature = theorem.tokens[theorem.head + 2 : statement.proof_assign]
    if not signature:
        raise StatementCheckUnavailable("the pinned theorem has no signature")
    parameters = "".join(f"({a.name} : {a.type_text}) " for a in answers)
    axiom = f"{groups}axiom {PINNED} {parameters}{_text(statement, signature)}"
    applied = "".join(f" _root_.{a.name}" for a in answers)
    pinned = f"(@{PINNED}{applied})" if applied else f"@{PINNED}"
    check = [
        f"{groups}example : type_of% {pinned} := @_root_.{statement.theorem_name}",
        f"#print axioms {statement.theorem_name}",
    ]
    return axiom, check


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
    module = sub.problem.module
    try:
        statement = parse_statement(form_challenge(sub)[1])
        pinned = pinned_source(statement)
        source = harness_source(module, statement) if pinned is None else check_source(module, statement)
        olean_name, olean = compiled_module(sub)
        lean = find_lean(sub.options)
    except LoadTimeCode as exc:
        return GateStatus.FAILED, str(exc)
    except (LexError, StatementError, StatementCheckUnavailable, AxiomOutputError, LeanNotFound) as exc:
        return GateStatus.ERROR, f"statement check could not run: {exc}"
    scratch = sub.scratch / "statement"
    limits = sandbox_limits(sub.options)
    harness = f"{module}Statement"
    try:
        library = {olean_name: olean}
        if pinned is not None:
            evidence["statement_pinned"] = pinned
            built = _pinned_module(sub, lean, pinned, statement, scratch, limits)
            if isinstance(built, tuple):
                return built
            if built is None:
                source = harness_source(module, statement)
                del evidence["statement_pinned"]
            else:
                library[f"{module}{PINNED_MODULE}.olean"] = built
        evidence["statement_check"] = source
        run = compile_against_candidate(sub, lean, harness, source, scratch, fresh_copy(library, scratch), limits)
    except SandboxUnavailable as exc:
        return GateStatus.ERROR, f"statement check: sandbox unavailable: {exc}"
    except ShadowedModule as exc:
        return GateStatus.ERROR, f"statement check: {exc}"
    failed = failure_detail(run, limits)
    if failed is None:
        return _axioms(run.messages, f"{harness}.lean", statement.theorem_name, axioms_line(source), evidence)
    if failed[0] is GateStatus.FAILED:
        why = (
            f"{statement.theorem_name} compiled, but its type (or its answer's value) is not the pinned one read in "
            f"a clean scope (a command G2 does not know may have changed the scope, e.g. added a section variable "
            f"or an instance): {failed[1]}"
        )
        return GateStatus.FAILED, why
    return failed[0], f"statement check: {failed[1]}"


def _pinned_module(
    sub: Submission, lean: LeanCommand, source: str, statement: Statement, scratch: Path, limits: SandboxLimits
) -> bytes | tuple[GateStatus, str] | None:
    """The compiled pinned module (:func:`pinned_source`); None when it does not elaborate with the
    challenge's answers as parameters (the signature needs an answer's value: the caller reads it the old
    way); else why it could not be had (an error: the pinned statement alone must elaborate)."""
    module = f"{sub.problem.module}{PINNED_MODULE}"
    run = compile_lean(
        lean,
        module,
        source.encode("utf-8"),
        scratch=scratch,
        limits=limits,
        unsafe_no_sandbox=sub.options.unsafe_no_sandbox,
        lean_options=dict(sub.problem.format.lean_options),
    )
    failed = failure_detail(run, limits)
    if failed is not None and failed[0] is GateStatus.FAILED and statement.solutions:
        return None
    if failed is not None:
        return GateStatus.ERROR, f"statement check: the pinned signature alone did not compile: {failed[1]}"
    if run.olean is None:
        return GateStatus.ERROR, "statement check: the pinned signature's module left no .olean"
    try:
        return read_product(run.olean, limits)
    except (OSError, UnsafeFile) as exc:
        return GateStatus.ERROR, f"statement check: refused the pinned module: {exc}"


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


__all__ = ["check_source", "compile_and_statement_gate", "harness_source", "pinned_source", "statement_check"]
