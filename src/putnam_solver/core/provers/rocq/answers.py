"""The Rocq answer check (see ``answer_check``): does the candidate's solution equal the official one?

Runs after the candidate compiled, on the ``.vo`` files the compiled gates kept: a harness-written file
``Require``s (never ``Import``s) the reference and the candidate and states
``@Candidate.sol = @Reference.__putnam_official_solution <assumptions>``, unfolds both and tries
``reflexivity``, then, pointwise for functions (``functional_extensionality``), ``ring``, ``lia``,
``lra``, ``nia``, ``nra`` (also after ``simpl``, which unfolds ``n ^ 2`` on ``nat`` for ``ring``).
If that file does not compile, a second one tries the negation (``discriminate``,
``lia``, ``lra``, ``congruence``). The status comes from coqc's exit code alone, each attempt under a
``Timeout``, the whole run under the sandbox's caps.
"""

from __future__ import annotations

import itertools

from putnam_solver.core.answer_check import AnswerCheck, AnswerStatus, non_closed_form, unknown
from putnam_solver.core.provers.rocq.build import CANDIDATE, REFERENCE, ROOT, build
from putnam_solver.core.provers.rocq.challenge import (
    OFFICIAL_SOLUTION,
    candidate_answer,
    official_answer,
    reference_instance,
    solution_arguments,
)
from putnam_solver.core.provers.rocq.products import CANDIDATE_VO, REFERENCE_VO
from putnam_solver.core.provers.rocq.syntax import LexError, Statement, tokenize
from putnam_solver.core.sandbox import SandboxUnavailable
from putnam_solver.core.verify import Submission

NON_CLOSED_FORMS: dict[str, str] = {
    "Lim_seq": "a limit",
    "Lim": "a limit",
    "lim": "a limit",
    "limn": "a limit",
    "RInt": "an integral",
    "Series": "a series",
    "Derive": "a derivative",
    "Sup_seq": "a supremum",
    "Inf_seq": "an infimum",
    "Lub_Rbar": "a least upper bound",
    "Glb_Rbar": "a greatest lower bound",
    "sup": "a supremum",
    "inf": "an infimum",
    "epsilon": "a choice",
    "constructive_indefinite_description": "a choice",
    "proj1_sig": "a choice",
    "\\int": "an integral",
}
TACTIC_SECONDS = 20
SETUP = (
    "Set Guard Checking.\nSet Positivity Checking.\nSet Universe Checking.\n"
    "From Coq Require Import Lia Lra Psatz Ring FunctionalExtensionality.\n"
)
EQUAL = (
    "first [ reflexivity | (repeat (apply functional_extensionality; intro)); cbv beta; "
    "first [ reflexivity | ring | lia | lra | nia | nra | (simpl; first [ ring | lia | nia ]) ] ]"
)
DIFFERENT = "intro __putnam_h; first [ discriminate __putnam_h | lia | lra | nra | congruence ]"


ATTEMPTS = (
    ("eq", EQUAL, AnswerStatus.CONFIRMED, "candidate = official"),
    ("ne", DIFFERENT, AnswerStatus.DIFFERS, "candidate <> official"),
)


def _words(text: str) -> list[str]:
    """Token texts and their last segments, and ``\\int`` (lexed as ``\\`` glued to ``int``)."""
    try:
        tokens = tokenize(text)
    except LexError:
        return []
    words = [w for t in tokens for w in (t.text, t.last_segment)]
    words += ["\\int" for a, b in itertools.pairwise(tokens) if a.text.endswith("\\") and b.text == "int"]
    return words


def check_source(statement: Statement, claim: str, tactic: str) -> str:
    """The harness's file stating ``claim`` about the two solutions and proving it with ``tactic``."""
    instance, reference = reference_instance(statement, f"{ROOT}.{REFERENCE}", f"{ROOT}.{CANDIDATE}")
    ours = f"{ROOT}.{CANDIDATE}.{statement.solution_name}"
    theirs = f"{reference}.{OFFICIAL_SOLUTION}"
    args = "".join(f" {ROOT}.{CANDIDATE}.{n}" for n in solution_arguments(statement))
    lhs, rhs = f"@{ours}", f"@{theirs}{args}"
    prop = f"{lhs} = {rhs}" if claim == "eq" else f"{lhs} <> {rhs}"
    return (
        f"Require {ROOT}.{REFERENCE}.\nRequire {ROOT}.{CANDIDATE}.\n{SETUP}"
        # a `Strategy opaque` of the candidate's, replayed by `Require`, made `unfold` fail (G3 refuses it too)
        + f"Transparent {ours}.\n"
        + "".join(f"{sentence}\n" for sentence in instance)
        + f"Lemma __putnam_answer_{claim} : {prop}.\n"
        f"Proof. unfold {ours}, {theirs}. Timeout {TACTIC_SECONDS} ({tactic}). Qed.\n"
    )


def check_answer(sub: Submission, statement: Statement) -> AnswerCheck:
    """confirmed / differs / unknown for the candidate's solution of ``statement`` (see the module doc)."""
    ours, theirs = candidate_answer(statement, sub.candidate), official_answer(statement)
    if ours is None or theirs is None:
        return unknown("no solution definition to compare")
    flagged = non_closed_form([*_words(ours), *_words(theirs)], NON_CLOSED_FORMS)
    if flagged is not None:
        return flagged
    try:
        candidate, reference = sub.artifacts.get(CANDIDATE_VO, sub), sub.artifacts.get(REFERENCE_VO, sub)
        deps = [v for b in (candidate, reference) if (v := b.vo)]
        if len(deps) < 2:
            return unknown("the candidate or the reference did not compile")
        for claim, tactic, status, proved in ATTEMPTS:
            built = build(sub, f"Answer_{claim}", check_source(statement, claim, tactic), deps)
            if built.vo is not None:
                return AnswerCheck(status, f"coqc proved {proved}")
    except SandboxUnavailable as exc:
        return unknown(f"the sandbox is unavailable: {exc}")
    return unknown("neither equality nor its negation was proved by reflexivity, ring, lia, lra, nia, nra")
