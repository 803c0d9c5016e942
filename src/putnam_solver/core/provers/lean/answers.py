"""The Lean answer check (see ``answer_check``): does the candidate's solution equal the official one?

Runs after G4 compiled the candidate, on G4's ``.olean`` (re-hashed against G4's evidence, as G5 does).
A harness-written file imports the candidate's module, repeats the pinned statement's header ``open``
lines (the official answer is written for them) and states, one attempt per line::

    example : @_root_.Eq (<type>) (_root_.<solution>) ((<official>) : <type>) := <proof>

and likewise ``Not (...)`` for the negation. The type is the pinned ``abbrev``'s; the candidate's value
is reached by its name only, so none of its text is pasted into the harness file. Each proof is one
tactic (``rfl``, ``decide``, ``norm_num``, ``simp``) or the term a tactic would produce (``rfl``,
``of_decide_eq_true rfl``, ``of_decide_eq_false rfl``), each in its own command: an unknown tactic is a
*parse* error that ``first | ...`` does not fall through (checked on Lean 4.35; ``norm_num`` exists only
with Mathlib), while a failed command leaves the next one untouched.

Two runs, both in the sandbox under the verification's caps:

1. all attempts in one file (one import of Mathlib): an attempt is a candidate for success when no
   error and no ``sorry`` is reported on its line and no message lacks a line;
2. the first such attempt alone, in a fresh file, stated as a named theorem followed by ``#print axioms``
   of it: it decides only when `lean` exits 0 with no error and no ``sorry`` (``compile.failure_detail``,
   the G4 rule) and the axiom report (read as G5 reads its own) lists only the allowed axioms —
   ``confirmed`` for an equality, ``differs`` for a negation; an attempt that does not hold up there
   (other than by a cap) passes the turn to the next one, so an equality that rests on a candidate's
   axiom cannot keep a proved negation from deciding. The proof can reach the candidate's
   helpers (``simp`` uses its ``@[simp]`` lemmas; ``rfl`` or ``of_decide_eq_true`` may resolve to a
   name it declares where the statement's ``open`` lines or a toy prelude allow), and no other gate
   walks a helper the theorem does not use, so the proof's own axioms are checked here.

A cap (time, memory, output) or a signal in either run makes the answer ``unknown`` with that reason,
never ``confirmed``. The status comes from exit codes and the ``--json`` messages `lean` reports for the
harness file; messages printed while the candidate compiled are not replayed on import. A confirmed
equality is a kernel-checked theorem in the candidate's environment whose axioms the confirming run
walks itself. A proved negation turns an acceptance into ``disputed``
(``answer_check``); nothing here can make a candidate accepted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from putnam_solver.core.answer_check import AnswerCheck, AnswerStatus, non_closed_form, unknown
from putnam_solver.core.gatekit import sandbox_limits
from putnam_solver.core.provers.lean.axioms import AxiomOutputError, compiled_module, read_axiom_report
from putnam_solver.core.provers.lean.compile import LeanRun, ShadowedModule, compile_against_candidate, failure_detail
from putnam_solver.core.provers.lean.syntax import (
    LexError,
    Solution,
    Statement,
    StatementError,
    code_tokens,
    lex,
    name_parts,
    parse_statement,
    top_level_assign,
)
from putnam_solver.core.provers.lean.toolchain import LeanNotFound, find_lean
from putnam_solver.core.sandbox import SandboxUnavailable, fresh_copy
from putnam_solver.core.verify import GateStatus, Submission

NON_CLOSED_FORMS: dict[str, str] = {
    "∫": "an integral",
    "∑'": "an infinite sum",
    "∏'": "an infinite product",
    "limUnder": "a limit",
    "lim": "a limit",
    "deriv": "a derivative",
    "sSup": "a supremum",
    "sInf": "an infimum",
    "iSup": "a supremum",
    "iInf": "an infimum",
    "Classical.choose": "a choice",
    "Exists.choose": "a choice",
    "Classical.epsilon": "a choice",
}


@dataclass(frozen=True)
class Attempt:
    """One way of proving a claim about the two answers: an equality (``eq``) or its negation (``ne``)."""

    claim: str
    proof: str

    @property
    def status(self) -> AnswerStatus:
        return AnswerStatus.CONFIRMED if self.claim == "eq" else AnswerStatus.DIFFERS

    def describe(self) -> str:
        what = "candidate = official" if self.claim == "eq" else "candidate ≠ official"
        return f"lean proved {what} with `{self.proof}`"


ATTEMPTS: tuple[Attempt, ...] = (
    Attempt("eq", "rfl"),
    Attempt("eq", "by rfl"),
    Attempt("eq", "by decide"),
    Attempt("eq", "of_decide_eq_true rfl"),
    Attempt("eq", "by norm_num"),
    Attempt("eq", "by simp"),
    Attempt("ne", "by decide"),
    Attempt("ne", "of_decide_eq_false rfl"),
    Attempt("ne", "by norm_num1"),
    Attempt("ne", "by norm_num"),
    Attempt("ne", "by simp"),
)
"""Equalities first: the first attempt that succeeds decides. ``decide`` and the terms it elaborates to
both appear because the tactic needs its syntax (Lean's ``Init``) while the term needs only the names.
``norm_num1`` (Mathlib's ``norm_num`` without the simp set, red team 23) is tried before ``norm_num`` and
``simp``: the harness file imports the candidate, whose ``@[simp]`` helpers (harmless to the statement, so
permitted) join the simp set both of those use; one that makes ``simp`` loop (``x = x * 1``) left every
numeric negation unproved, a wrong answer ``unknown`` instead of ``differs``. ``decide`` and ``norm_num1``
read no simp lemma; a set or function answer that only ``simp`` separates can still be kept ``unknown``
that way."""
TRIED = "rfl, decide, norm_num, simp"


def answer_words(value: str) -> list[str]:
    """The code tokens of an answer, with each name's last part (``Real.limUnder`` gives ``limUnder``)."""
    try:
        tokens = code_tokens(lex(value))
    except LexError:
        return []
    return [w for t in tokens for w in (t.text, (name_parts(t.text) or [t.text])[-1])]


def check_value(candidate: str | None, official: str | None) -> AnswerCheck | None:
    """``unknown`` when there is nothing to compare or the official answer is not a closed form, else None.

    Only the official answer's words count. The candidate's are its own to choose: a bound variable named
    ``lim`` (``let lim := 4; lim``) would make a wrong answer ``unknown`` by its spelling alone, where the
    tactics below could prove it different (the same hole red team 23 found in the Rocq check). A real
    limit or integral in the candidate's answer only leaves every tactic unproved: ``unknown`` all the same."""
    if candidate is None or official is None:
        return unknown("no solution value to compare")
    return non_closed_form(answer_words(official), NON_CLOSED_FORMS)


def solution_type(statement: Statement, solution: Solution) -> str:
    """The pinned ``abbrev``'s type: the text between the ``:`` after its name and its ``:=``, on one line."""
    body = solution.command.tokens[solution.command.head :]
    assign = top_level_assign(body, last=False)
    colon = next((i for i, t in enumerate(body[: assign or len(body)]) if t.text == ":"), None)
    if assign is None or colon is None or colon + 1 >= assign:
        raise StatementError(f"{solution.command.name}: no `: <type> :=` in the declaration")
    text = statement.text[body[colon + 1].offset : body[assign - 1].end]
    return " ".join(text.split())


def header_lines(statement: Statement) -> list[str]:
    """The statement's header ``open`` commands, each on one line (``import`` comes from the module)."""
    lines = []
    for command in statement.header:
        if command.keyword == "open":
            first, last = command.tokens[0], command.tokens[-1]
            lines.append(" ".join(statement.text[first.offset : last.end].split()))
    return lines


def attempt_line(name: str, type_: str, official: str, attempt: Attempt) -> str:
    equality = f"@_root_.Eq ({type_}) (_root_.{name}) (({official}) : {type_})"
    claim = equality if attempt.claim == "eq" else f"_root_.Not ({equality})"
    return f"example : {claim} := {attempt.proof}"


CLAIM_NAME = "putnam_answer_check_claim"
"""The name the confirming run gives the one attempt it states, so that ``#print axioms`` can walk it."""


def confirmation_lines(line: str) -> list[str]:
    """An attempt line (``example : <claim> := <proof>``) as a named theorem, then its ``#print axioms``."""
    return [line.replace("example :", f"theorem {CLAIM_NAME} :", 1), f"#print axioms {CLAIM_NAME}"]


def confirmed_by_axioms(run: LeanRun, harness_file: str, line: int) -> str | None:
    """Why the confirming run's proof does not count (None when it does): its ``#print axioms`` report
    (on ``line``, read as G5 reads its own) must list only the allowed axioms. The proof may reach the
    candidate's helpers (``simp`` uses its ``@[simp]`` lemmas, an unqualified name may resolve to one),
    whose axioms no other gate walks: G5 and comparator walk the theorem's."""
    try:
        report = read_axiom_report(run.messages, harness_file, CLAIM_NAME, line)
    except AxiomOutputError as exc:
        return str(exc)
    if report.disallowed:
        return f"the proof rests on axioms outside the allowed set: {', '.join(report.disallowed)}"
    return None


def harness_source(module: str, opens: Sequence[str], lines: Sequence[str]) -> tuple[str, int]:
    """The harness file and the line number of its first attempt (one attempt per line after it)."""
    head = [f"import {module}", *opens]
    return "\n".join([*head, *lines]) + "\n", len(head) + 1


def _touched_lines(run: LeanRun, harness_file: str) -> set[int] | None:
    """Lines of the harness file with an error or a ``sorry``; None when such a message has no line or
    names another file (it could belong to any attempt)."""
    touched: set[int] = set()
    for message in run.messages:
        if message.severity != "error" and not message.is_sorry:
            continue
        if message.line is None or message.file_name != harness_file:
            return None
        touched.add(message.line)
    return touched


def check_answer(sub: Submission, name: str, candidate: str | None, official: str | None) -> AnswerCheck:
    """confirmed / differs / unknown for solution ``name`` (see the module docstring)."""
    early = check_value(candidate, official)
    if early is not None or official is None:
        return early or unknown("no official answer")
    try:
        statement = parse_statement(sub.problem.formal_statement)
        solution = next(s for s in statement.solutions if s.command.name == name)
        type_ = solution_type(statement, solution)
        olean_name, olean = compiled_module(sub)
        lean = find_lean(sub.options)
    except (StatementError, LexError, StopIteration, AxiomOutputError, LeanNotFound) as exc:
        return unknown(f"the answer check could not start: {exc}")
    scratch = sub.scratch / "answers" / name
    library = fresh_copy({olean_name: olean}, scratch)
    limits = sandbox_limits(sub.options)
    module = sub.problem.module
    harness = f"{module}Answer"

    def run(lines: Sequence[str]) -> tuple[LeanRun, int]:
        source, first = harness_source(module, header_lines(statement), lines)
        return compile_against_candidate(sub, lean, harness, source, scratch, library, limits), first

    lines = [attempt_line(name, type_, official, a) for a in ATTEMPTS]
    try:
        every, first = run(lines)
        judged = failure_detail(every, limits)
        if judged is not None and judged[0] is GateStatus.ERROR:
            return unknown(f"the answer check did not finish: {judged[1]}")
        touched = _touched_lines(every, f"{harness}.lean")
        if touched is None:
            return unknown("lean reported an error without a line of the answer check's file")
        refused: list[str] = []
        for index, attempt in enumerate(ATTEMPTS):
            if first + index in touched:
                continue
            alone, at = run(confirmation_lines(lines[index]))
            failed = failure_detail(alone, limits)
            why = failed[1] if failed is not None else confirmed_by_axioms(alone, f"{harness}.lean", at + 1)
            if why is None:
                return AnswerCheck(attempt.status, attempt.describe())
            if failed is not None and failed[0] is GateStatus.ERROR:
                return unknown(f"`{attempt.proof}` did not finish on its own: {why}")
            refused.append(f"`{attempt.proof}` did not hold up on its own: {why}")
        if refused:  # the next attempts were tried: an equality resting on a helper's axiom hides no negation
            return unknown("; ".join(refused))
    except SandboxUnavailable as exc:
        return unknown(f"the sandbox is unavailable: {exc}")
    except ShadowedModule as exc:
        return unknown(f"the answer check could not import the candidate: {exc}")
    return unknown(f"neither equality nor its negation was proved by {TRIED}")
