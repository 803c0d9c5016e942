"""G4 compile: the candidate compiles with ``coqc`` in the sandbox, within the caps, and leaves a ``.vo``.

The verdict is the gate kit's reading of the run (``gatekit.judge_run``): a clean exit 0 with a kept
``.vo`` passes; a non-zero exit with an error coqc reported fails; a timeout, a cap or a signal is an
``error`` (not a fact about the candidate). coqc's messages are diagnostics only (see ``build``).
On the no-answer track it also compiles the answer in the challenge's environment alone (``answer_env``).
A candidate that declares a proof's section variables in a section has coqchk re-check it (``discharge``).
G5 (``statement``) and G6 (``coqchk``) build on the ``.vo`` of this run (``products.CANDIDATE_VO``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from putnam_solver.core.gatekit import guarded
from putnam_solver.core.provers.rocq.answer_env import (
    answer_env_source,
    choice_operators,
    decided,
    names_source,
    own_constants,
    same_answer,
    unfinished,
    yes_no_answer,
)
from putnam_solver.core.provers.rocq.answer_opaque import OPAQUE_STEPS
from putnam_solver.core.provers.rocq.answer_reals import real_comparisons
from putnam_solver.core.provers.rocq.answer_tests import proofs_taken_apart, searched_tests
from putnam_solver.core.provers.rocq.build import Built, build
from putnam_solver.core.provers.rocq.challenge import statement_of
from putnam_solver.core.provers.rocq.decision_names import CLASSICAL_DECISIONS, REFLECTIONS
from putnam_solver.core.provers.rocq.declared import shadowing_check
from putnam_solver.core.provers.rocq.discharge import discharge_check
from putnam_solver.core.provers.rocq.policy import POLICY
from putnam_solver.core.provers.rocq.products import CANDIDATE_VO, compiled_reference
from putnam_solver.core.provers.rocq.restated import ANSWER_ENV, predicate_answer, restates
from putnam_solver.core.provers.rocq.statement_shape import Statement
from putnam_solver.core.verify import PROFILE_GATES, GateResult, GateStatus, Submission, Track

G4 = ("G4", "compile")
STATEMENT_GATE = "G5"


def compile_gate(sub: Submission) -> GateResult:
    """G4: the candidate compiles with coqc (exit code 0 and a ``.vo``) within the caps."""

    def body() -> GateResult:
        built = sub.artifacts.get(CANDIDATE_VO, sub)
        judged = built.judgement(sub)
        if judged is not None:
            return GateResult(*G4, judged[0], f"coqc: {judged[1]}", built.evidence())
        discharged = discharge_check(sub, G4)
        if discharged is not None:
            return discharged
        if sub.track is Track.NO_ANSWER:
            refused = _answer_outside_environment(sub, built)
            if refused is not None:
                return refused
        if STATEMENT_GATE not in PROFILE_GATES[sub.options.profile]:
            # no G5 will elaborate the pinned statement: the constants the kernel holds are read here
            shadowed = shadowing_check(sub, statement_of(sub.problem), built, G4)
            if shadowed is not None:
                return shadowed
        return GateResult(*G4, GateStatus.PASSED, "coqc exit code 0", built.evidence())

    return guarded(*G4, body)


def _answer_outside_environment(sub: Submission, candidate: Built) -> GateResult | None:
    """No-answer: the answer must elaborate without the candidate's own declarations, and the compiled
    candidate's solution may name none of them (``answer_env``): one harness file does both, loading the
    candidate only after the answer is elaborated."""
    statement = statement_of(sub.problem)
    source = answer_env_source(statement, sub.candidate)
    if source is None:
        return None
    if candidate.vo is None:
        return GateResult(*G4, GateStatus.ERROR, "the candidate's .vo is missing for the answer check")
    deps = [candidate.vo]
    if not yes_no_answer(statement):
        # the restatement check reads the theorem as the reference does (``restated.statement_sentences``)
        reference = compiled_reference(sub, G4)
        if isinstance(reference, GateResult):
            return reference
        assert reference.vo is not None  # compiled_reference returns a reference only with its .vo
        deps.append(reference.vo)
    marker = f"PUTNAM-ANSWER-{secrets.token_hex(16)}"
    built = build(sub, ANSWER_ENV, source + names_source(statement, marker), deps)
    evidence = {"answer_environment": built.evidence()}
    judged = built.judgement(sub)
    if judged is None:
        return _answer_names(built, marker, statement, evidence)
    status, why = judged
    step = unfinished(built.result.stdout if built.result is not None else "", marker)
    if step is not None:
        # a time (or stack, memory) limit ended the step: not a fact about the answer, never a cached refusal
        detail = f"{step} did not finish within its limits: {why}"
        return GateResult(*G4, GateStatus.ERROR, detail, evidence)
    detail = (
        "the answer does not elaborate in the challenge's environment without the candidate's own "
        "declarations: it uses something the candidate defines (a helper, or a constant Coq generated for "
        f"one, such as abstract's `_subproof`); write the answer out: {why}"
        if status is GateStatus.FAILED
        else f"checking the answer in the challenge's environment: {why}"
    )
    return GateResult(*G4, status, detail, evidence)


ANSWER_OPERATORS = (
    (
        POLICY.answer_choice_operators,
        'picks a value by choice ({names}): "some value with the property" is not an answer; state the answer '
        "itself over the challenge's environment",
        False,
    ),
    (
        (*POLICY.answer_decision_operators, *REFLECTIONS, *CLASSICAL_DECISIONS),
        "takes a branch by deciding a proposition classically ({names}): a value chosen by whether a property "
        "holds (a search testing the question's own property) is not an answer; state it, deciding a real "
        "comparison by `Rle_dec` or `Req_EM_T`, or a computable test by `Nat.leb`",
        True,
    ),
    (
        OPAQUE_STEPS,
        "is computed from a proof or behind an opaque key ({names}): no computation reaches the value it "
        "stands for, so it cannot be compared with the official answer; state the value itself",
        False,
    ),
    (
        POLICY.answer_limit_operators,
        "is written with {names}: the limit, integral, series, derivative or bound itself, which is what the "
        "question asks to evaluate (copied from the statement it makes the theorem trivial); state its value",
        False,
    ),
)
"""Operators a no-answer answer may not be written with, each with why (read from the answer's print) and
whether a set or predicate answer may use them (a decided condition turned back into a proposition is the
condition: ``policy.answer_decision_operators``; a yes/no answer meets the stricter truth-value rule)."""
REAL_COMPARISON = (
    "the answer compares reals of a realType ({names}: their equality or order, classical on a realType): a "
    "value chosen by a real comparison (a search testing the question's property) is not an answer; state "
    "it, or write a set or predicate answer where the question asks for one"
)
"""Why G4 refuses a value answer that uses a realType's equality or order (``answer_reals``)."""
SEARCHED_TEST = (
    "the answer tests a range by a decision no computation evaluates ({names}: a real comparison decided of "
    "a variable the answer binds or handed unapplied to what walks a range, a proof taken apart, or a "
    "decision closed by `Qed` that is no real comparison, even of closed numbers): a value found by testing a "
    "range (a search testing the question's property) is not an answer; state it (a computable decision or a "
    "real comparison of closed numbers, or of the answer's own arguments, is a case of a closed form and passes)"
)
"""Why G4 refuses a value answer that searches by a decision (``answer_tests``)."""
TAKEN_APART = (
    "the answer's condition is reached through a proof taken apart ({names}): a `match` on a proof never "
    "computes, so no check of the answer reaches the condition it stands for; state the condition itself"
)
"""Why G4 refuses a set or predicate answer behind a proof taken apart (``answer_tests.proofs_taken_apart``)."""


def _readers(statement: Statement) -> tuple[tuple[Callable[[str, str], list[str] | None], str], ...]:
    """The readers of the answer's print G4 runs, each with why it refuses what it finds: a value answer's
    searches and real comparisons; a set or predicate answer's proofs taken apart (round 48); a yes/no
    answer meets the truth-value rule instead."""
    if yes_no_answer(statement):
        return ()
    if predicate_answer(statement):
        return ((proofs_taken_apart, TAKEN_APART),)
    return ((real_comparisons, REAL_COMPARISON), (searched_tests, SEARCHED_TEST))


def _answer_names(built: Built, marker: str, statement: Statement, evidence: dict[str, Any]) -> GateResult | None:
    """The compiled candidate's solution, as printed after ``marker``, names no constant of the
    candidate's own (``answer_env``)."""
    stdout = built.result.stdout if built.result is not None else ""
    own = own_constants(stdout, marker, statement)
    if own is None:
        return GateResult(*G4, GateStatus.ERROR, "printing the candidate's answer: no print", evidence)
    for operators, why, sets_may in ANSWER_OPERATORS:
        if sets_may and (predicate_answer(statement) or yes_no_answer(statement)):
            continue  # a yes/no answer must be a truth value (below), which no decision is
        found = choice_operators(stdout, marker, operators)
        if found is None:
            return GateResult(*G4, GateStatus.ERROR, "printing the candidate's answer: no print", evidence)
        if found and not own:
            names = ", ".join(f"`{n}`" for n in found)
            return GateResult(*G4, GateStatus.FAILED, "the answer " + why.format(names=names), evidence)
    for reader, why in _readers(statement):
        read = reader(stdout, marker)
        if read is None:
            return GateResult(*G4, GateStatus.ERROR, "printing the candidate's answer: no print", evidence)
        if read and not own:
            names = ", ".join(f"`{n}`" for n in read)
            return GateResult(*G4, GateStatus.FAILED, why.format(names=names), evidence)
    if not own and yes_no_answer(statement):
        truth = decided(stdout, marker)
        if truth is None:
            return GateResult(*G4, GateStatus.ERROR, "deciding the yes/no answer: no result printed", evidence)
        if not truth:
            detail = (
                "the answer to this yes/no question is not a truth value: it was not proved equivalent to True "
                "or to False by itself (a restated question makes the theorem trivial); answer True or False"
            )
            return GateResult(*G4, GateStatus.FAILED, detail, evidence)
    if not own and not yes_no_answer(statement):
        copied = restates(stdout, marker)
        if copied is None:
            return GateResult(
                *G4, GateStatus.ERROR, "checking whether the answer restates the question: no result", evidence
            )
        if copied:
            detail = (
                "the answer restates the question: with it the theorem follows by logic alone (the answer "
                "unfolded, then propositional and equality reasoning, or an equation's two sides identical, a "
                "fixpoint that never recurses read as its body), so "
                "a proof of it shows nothing; state the value, set or condition the question asks for in closed "
                "form"
            )
            return GateResult(*G4, GateStatus.FAILED, detail, evidence)
    if not own:
        return _same_answer(stdout, marker, evidence)
    names = ", ".join(f"`{n}`" for n in own)
    detail = (
        f"the answer names the candidate's own constant(s) {names} (declared by the candidate, possibly under "
        "a library's name, which its own declaration shadows): write the answer out over the challenge's "
        "environment"
    )
    return GateResult(*G4, GateStatus.FAILED, detail, evidence)


def _same_answer(stdout: str, marker: str, evidence: dict[str, Any]) -> GateResult | None:
    """The checks above judged the answer as the environment file elaborated its text; the candidate proved
    the theorem with its own compiled solution, which must be that same term as printed (``answer_env.same_answer``)."""
    same = same_answer(stdout, marker)
    if same is None:
        return GateResult(*G4, GateStatus.ERROR, "comparing the answer with the compiled solution: no result", evidence)
    if same:
        return None
    detail = (
        "the answer's text means something else in the candidate's file than in the challenge's environment "
        "(a scope, an import or an option of the candidate's changed how it reads), so no check of the answer "
        "would be about the solution the theorem was proved with; write the answer so that it reads the same"
    )
    return GateResult(*G4, GateStatus.FAILED, detail, evidence)
