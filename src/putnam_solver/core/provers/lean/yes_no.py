"""G4 on no-answer, yes/no problems: the candidate's answer must be a truth value, decided by itself.

A PutnamBench yes/no problem pins ``abbrev putnam_X_solution : Prop := sorry`` (60 of the Lean
statements, every official answer ``True`` or ``False``) and states ``<question> ↔ putnam_X_solution``
(``putnam_1996_a3``). On no-answer the candidate fills the hole, and the question restated as its
answer makes the theorem ``Q ↔ Q``, proved by ``Iff.rfl``: every other gate passes. So, after the
candidate compiled, G4 compiles one more harness-written file against the candidate's ``.olean``::

    import <Module>
    theorem putnam_yes_no_claim_0 : _root_.Or (_root_.Iff _root_.<sol> _root_.True)
      (_root_.Iff _root_.<sol> _root_.False) := _root_.of_decide_eq_true (_root_.Eq.refl _root_.Bool.true)
    #print axioms putnam_yes_no_claim_0

(for a ``Bool`` solution, none pinned today: ``Or (Eq <sol> true) (Eq <sol> false)``; for each ``Prop``
factor of a product, ``Prop × ℝ × Prop × ℝ`` in ``putnam_1987_b4``, its projection
``_root_.Prod.fst (_root_.Prod.snd (_root_.Prod.snd <sol>))``), one decision per question, each on its
own line (the theorem on one line), then each decision's ``#print axioms`` in the same order, and
refuses the answer unless `lean` accepts the file and every report lists only the allowed axioms.

The proof is the term the ``decide`` tactic builds (Lean core ``Lean.Meta.mkDecideProof`` in
src/Lean/Meta/AppBuilder.lean: ``of_decide_eq_true`` applied to ``Eq.refl true``). ``of_decide_eq_true
[inst : Decidable p] : Eq (decide p) true → p`` (Init/Prelude.lean) needs a ``Decidable`` instance, here
Init's for ``Or``, ``Iff`` (Init/Core.lean: ``instance [Decidable p] [Decidable q] : Decidable (p ↔ q)``),
``True``, ``False``, ``Not``, equality of ``Bool``, and one for the answer itself, found through the
``abbrev`` (reducible; G2 keeps the keyword) and its projections; the elaborator then checks
``decide p ≡ true`` by evaluation, and the kernel again. So it holds only when the answer *evaluates* to
a truth value, as ``True``, ``False``, ``¬False``, ``0 = 1`` do, and a question over an infinite type or
the reals does not (no instance, or one stuck on ``Classical.choice``). Whatever it proves is a
kernel-checked theorem, so it cannot call an answer decided that is not; it can only refuse one written
in a form that does not compute (write it ``True`` or ``False``). A question that is itself decidable by
evaluation (over a small finite type) is decided here too, as it would be by ``decide``: then the
harness has computed its answer. Checked for real on Lean 4.35 (the toy toolchain of the tests).

What the candidate's module could bring into this file, and why none of it decides for it:

- ``@[simp]`` helpers (the only attribute a helper may carry): no ``simp`` runs here.
- instances: G2/G3 refuse ``instance``, ``@[instance]`` and ``attribute [instance]``; ``deriving``
  makes instances of the candidate's own types only, and the answer may not name them (G2). By
  meaning (red team 27): an instance ``Decidable.isTrue h`` evaluates to ``true`` whatever ``h`` is, so
  one resting on an axiom would decide a restated question; each decision's ``#print axioms`` (read
  as G5 reads its own) must list only the allowed axioms, else the answer is refused.
- names: the file opens nothing and writes every name ``_root_``-qualified; the names it uses are
  Init's, which a module that imports Init cannot declare again; notations and macros are refused.
- its messages: not replayed on import; only this file's ``--json`` messages and `lean`'s exit code
  are read. Importing runs none of its code: a module with ``[init]`` declarations or other code Lean
  runs on import is refused before this file is written (``axioms.compiled_module``, red team 28).

The outcome: exit 0 with no error and no ``sorry`` is decided; a rejection (``compile.failure_detail``)
whose every error sits on a decision's line of this file (or on the report of a decision that failed)
refuses the answer that line names; anything else (a cap, a signal, an error elsewhere, a report
missing or unreadable) is an ``error``, never a pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from putnam_solver.core.benchmark import Problem
from putnam_solver.core.gatekit import sandbox_limits
from putnam_solver.core.provers.lean.axioms import (
    AxiomOutputError,
    LoadTimeCode,
    compiled_module,
    read_axiom_report,
)
from putnam_solver.core.provers.lean.compile import (
    GATE_ID,
    GATE_NAME,
    LeanMessage,
    ShadowedModule,
    compile_against_candidate,
    failure_detail,
)
from putnam_solver.core.provers.lean.statement_type import compile_and_statement_gate
from putnam_solver.core.provers.lean.syntax import LexError, Statement, StatementError, parse_statement
from putnam_solver.core.provers.lean.toolchain import LeanNotFound, find_lean
from putnam_solver.core.sandbox import SandboxUnavailable, fresh_copy
from putnam_solver.core.verify import GateResult, GateStatus, Submission, Track

FIRST_LINE = 2
"""The line of the first example in the harness file (after ``import``); one example per line."""


@dataclass(frozen=True)
class YesNo:
    """A yes/no question of the pinned statement: a solution of type ``Prop`` or ``Bool``, or such a
    component of a product (``Prop × Prop``: ``putnam_1982_b4``, ``putnam_1988_a4``; ``Prop × ℝ × Prop × ℝ``:
    ``putnam_1987_b4``), reached by ``path``, the projections from the solution (``fst``/``snd``)."""

    name: str
    type_: str
    path: tuple[str, ...] = ()

    def label(self) -> str:
        """``putnam_1987_b4_solution.2.2.1``: the component as Lean's dot notation writes it."""
        return ".".join([self.name, *("1" if p == "fst" else "2" for p in self.path)])

    def term(self) -> str:
        term = f"_root_.{self.name}"
        for projection in self.path:
            term = f"(_root_.Prod.{projection} {term})"
        return term

    def claim(self) -> str:
        sol = self.term()
        if self.type_ == "Bool":
            return f"_root_.Or (_root_.Eq {sol} _root_.Bool.true) (_root_.Eq {sol} _root_.Bool.false)"
        return f"_root_.Or (_root_.Iff {sol} _root_.True) (_root_.Iff {sol} _root_.False)"

    def example(self, index: int = 0) -> str:
        """The decision as the named theorem ``#print axioms`` then walks (``claim_name``)."""
        proof = "_root_.of_decide_eq_true (_root_.Eq.refl _root_.Bool.true)"
        return f"theorem {claim_name(index)} : {self.claim()} := {proof}"


def claim_name(index: int) -> str:
    return f"putnam_yes_no_claim_{index}"


_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")


def _components(type_: Sequence[str]) -> list[list[str]] | None:
    """The factors of ``A × B × ...`` (each one token or one bracketed group), else None."""
    parts: list[list[str]] = [[]]
    depth = 0
    for text in type_:
        if text == "×" and depth == 0:
            parts.append([])
            continue
        depth += (text in _OPEN) - (text in _CLOSE)
        parts[-1].append(text)
    if depth != 0 or any(not p or (len(p) > 1 and (p[0] not in _OPEN or p[-1] not in _CLOSE)) for p in parts):
        return None
    return parts


def yes_no_solutions(statement: Statement) -> list[YesNo]:
    """The solutions declared ``<keyword> <name> : Prop :=`` (or ``Bool``), without arguments, and the
    ``Prop``/``Bool`` factors of a solution whose type is a product of single tokens or bracketed groups."""
    found = []
    for solution in statement.solutions:
        body = [t.text for t in solution.command.tokens[solution.command.head :]]
        name = solution.command.name
        if name is None or body[2:3] != [":"] or ":=" not in body:
            continue
        parts = _components(body[3 : body.index(":=")]) or []
        for i, part in enumerate(parts):
            if part in (["Prop"], ["Bool"]):  # a truth value: `True`/`False` or `true`/`false`
                path = ("snd",) * i + (("fst",) if i < len(parts) - 1 else ())
                found.append(YesNo(name, part[0], path))
    return found


def harness_source(module: str, questions: Sequence[YesNo]) -> str:
    """The trusted file: import the candidate, then one decision per yes/no solution from ``FIRST_LINE``,
    then, one per line in the same order, the ``#print axioms`` of each."""
    decisions = [q.example(i) for i, q in enumerate(questions)]
    reports = [f"#print axioms {claim_name(i)}" for i in range(len(questions))]
    return "\n".join([f"import {module}", *decisions, *reports]) + "\n"


def harness_module(module: str) -> str:
    return f"{module}YesNo"


def questions(problem: Problem, track: Track) -> list[YesNo]:
    """The yes/no questions a verification of ``problem`` on ``track`` must decide: on no-answer, in a
    benchmark with answers. The agent's warm ``check`` goes cold for these (``LeanInteractive.cold_only``)."""
    if track is not Track.NO_ANSWER or not problem.format.answers:
        return []
    try:
        return yes_no_solutions(parse_statement(problem.formal_statement))
    except (LexError, StatementError):
        return []  # G2 reports a statement that does not parse


def applies(sub: Submission) -> list[YesNo]:
    """:func:`questions` of the submission's problem and track."""
    return questions(sub.problem, sub.track)


def compile_gate(sub: Submission) -> GateResult:
    """G4: the candidate's compile and, where no G6 follows, its statement check
    (``statement_type.compile_and_statement_gate``), then, on a no-answer yes/no problem, the harness file
    above; the gate passes only when all of them do."""
    result = compile_and_statement_gate(sub)
    questions = applies(sub)
    if not result.passed or not questions:
        return result
    return decide_answers(sub, questions, result)


def decide_answers(sub: Submission, questions: Sequence[YesNo], compiled: GateResult) -> GateResult:
    """``compiled`` (a passed G4) with the yes/no decision added to its evidence, or the refusal."""
    evidence: dict[str, Any] = dict(compiled.evidence)
    module = sub.problem.module
    source = harness_source(module, questions)
    evidence["yes_no_harness"] = source

    def result(status: GateStatus, detail: str) -> GateResult:
        return GateResult(GATE_ID, GATE_NAME, status, detail, evidence)

    try:
        olean_name, olean = compiled_module(sub)
        lean = find_lean(sub.options)
    except LoadTimeCode as exc:
        return result(GateStatus.FAILED, str(exc))
    except (AxiomOutputError, LeanNotFound) as exc:
        return result(GateStatus.ERROR, f"deciding the yes/no answer could not start: {exc}")
    scratch = sub.scratch / "yes_no"
    library = fresh_copy({olean_name: olean}, scratch)
    limits = sandbox_limits(sub.options)
    harness = harness_module(module)
    try:
        run = compile_against_candidate(sub, lean, harness, source, scratch, library, limits)
    except SandboxUnavailable as exc:
        return result(GateStatus.ERROR, f"deciding the yes/no answer: sandbox unavailable: {exc}")
    except ShadowedModule as exc:
        return result(GateStatus.ERROR, f"deciding the yes/no answer: {exc}")
    evidence["yes_no_run"] = run.evidence()
    failure = failure_detail(run, limits)
    if failure is None:
        try:
            outside = _outside_axioms(run.messages, f"{harness}.lean", questions)
        except AxiomOutputError as exc:
            return result(GateStatus.ERROR, f"deciding the yes/no answer: {exc}")
        if outside:
            evidence["yes_no_axioms_outside"] = outside
            detail = (
                "the decision that this yes/no answer is a truth value rests on axioms outside the allowed set "
                f"({'; '.join(f'`{n}`: {a}' for n, a in outside.items())}); answer True or False"
            )
            return result(GateStatus.FAILED, detail)
        evidence["yes_no_decided"] = [q.label() for q in questions]
        return result(GateStatus.PASSED, f"{compiled.detail}; the yes/no answer is a truth value")
    status, why = failure
    undecided = _undecided(run.messages, f"{harness}.lean", questions)
    if status is not GateStatus.FAILED or undecided is None:
        return result(GateStatus.ERROR, f"deciding the yes/no answer did not finish: {why}")
    evidence["yes_no_undecided"] = undecided
    names = ", ".join(f"`{n}`" for n in undecided)
    detail = (
        f"the answer to this yes/no question ({names}) is not a truth value: `decide` did not prove it "
        "equivalent to True or to False by itself (a restated question makes the theorem trivial); "
        "answer True or False"
    )
    return result(GateStatus.FAILED, detail)


def _outside_axioms(messages: Sequence[LeanMessage], harness_file: str, questions: Sequence[YesNo]) -> dict[str, str]:
    """Each decision's axioms outside the allowed set, by label, read as G5 reads its own report. The
    decision is a kernel-checked evaluation of a ``Decidable`` instance; one resting on an axiom (a
    ``Decidable.isTrue`` of an axiom's proof evaluates all the same) decides nothing. Raises
    AxiomOutputError when a report is missing or unreadable."""
    outside = {}
    for i, question in enumerate(questions):
        line = FIRST_LINE + len(questions) + i
        report = read_axiom_report(tuple(messages), harness_file, claim_name(i), line)
        if report.disallowed:
            outside[question.label()] = ", ".join(report.disallowed)
    return outside


def _undecided(messages: Sequence[LeanMessage], harness_file: str, questions: Sequence[YesNo]) -> list[str] | None:
    """The solutions whose decision line has an error or a ``sorry``; None when such a message sits
    anywhere else (another file, no line, a line of no decision, the report of a decision that had
    none): then it is not this file's verdict."""
    lines: set[int] = set()
    reports: set[int] = set()
    count = len(questions)
    for message in messages:
        if message.severity != "error" and not message.is_sorry:
            continue
        if message.file_name != harness_file or message.line is None:
            return None
        if FIRST_LINE <= message.line < FIRST_LINE + count:
            lines.add(message.line)
        elif FIRST_LINE + count <= message.line < FIRST_LINE + 2 * count:
            reports.add(message.line - count)  # a failed decision may leave nothing to print
        else:
            return None
    if not reports <= lines:
        return None
    return [q.label() for i, q in enumerate(questions) if FIRST_LINE + i in lines] or None
