"""G4: a section closed over a ``Proof using`` is re-checked by coqchk before the candidate passes (rocq#19861).

``Proof using x`` (or ``#[using="x"]``) in a section declares the section variables a proof uses: when the
section closes, the lemma is generalized over those alone. Coq 8.16 checks the declaration against the
proof term but not against its side effects (an ``abstract`` subproof, which ``Qed`` then inlines: measured,
``zz_l = (fun zz_l_subproof : False => zz_l_subproof) zz_h``), so a subproof that uses a variable left out
leaves the closed lemma ill-typed, ``False`` from ``Variable zz_h : False`` with no axiom, and coqc accepts
it (rocq#19861, first in 8.11, fixed in 9.0; ``kernel_bugs.json``). coqchk re-types every constant of the
candidate's module, opaque proofs included (``checker/mod_checking.ml``), and refuses that one with a kernel
type error (exit 129: ``coqchk.kernel_rejection``; red team 11 measured it). Side effects come from more than
the word ``abstract`` (the ``zarith`` hint database's ``Hint Extern ... => abstract lia``, ``par:``'s
``abstract``: ``vernac/comTactic.ml`` 72-76), so no reading of the text can clear a declaration; the kernel
can.

So G3 refuses the declaration only on a profile that does not compile (``text``), and here, on every profile
that does, a candidate with one has coqchk's run (the same ``COQCHK_RUN`` G6 reads, so ``full`` pays for it
once) judged first: a kernel rejection refuses it at G4, with the reason, before G5's ``Print Assumptions``
of an ill-typed lemma could end in an anomaly (an ``error``, which round 35 found was why the rule stayed).
A declaration only restricts the variables a proof may use, so every other outcome is the candidate's
honest proof, and the later gates judge it as any other.
"""

from __future__ import annotations

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.rocq.build import judge_tool_run
from putnam_solver.core.provers.rocq.coqchk import COQCHK_RUN, kernel_rejection, reported_error
from putnam_solver.core.provers.rocq.forbidden import challenge_statement, own_positions
from putnam_solver.core.provers.rocq.sentence_rules import SECTION_USING, section_using_hits
from putnam_solver.core.provers.rocq.syntax import LexError, sentences
from putnam_solver.core.verify import GateResult, GateStatus, Submission

REFUSED = (
    "line {line}: `Proof using` in a section, and coqchk's kernel refuses the candidate once the section is "
    "closed (rocq#19861: Coq 8.16 does not check a proof's declared section variables against its `abstract` "
    "subproofs, so the closed lemma is ill-typed, which coqc accepts); let Coq find the variables (`Proof.`): "
    "{why}"
)


def section_usings(sub: Submission) -> list[Violation]:
    """The candidate's explicit declarations of a proof's section variables inside a section."""
    try:
        sents = sentences(sub.candidate)
    except LexError:
        return []  # G3 refuses an unreadable candidate
    own_at, _ = own_positions(challenge_statement(sub), sents)
    return [v for v in section_using_hits(sents, frozenset(own_at)) if v.construct == SECTION_USING]


def discharge_check(sub: Submission, gate: tuple[str, str]) -> GateResult | None:
    """A refusal (or an ``error``) when the candidate declares a proof's section variables in a section and
    coqchk does not re-check it cleanly; None otherwise."""
    found = section_usings(sub)
    if not found:
        return None
    run = sub.artifacts.get(COQCHK_RUN, sub)
    if isinstance(run, GateResult):
        return GateResult(*gate, run.status, f"re-checking a section closed over `Proof using`: {run.detail}")
    refused = kernel_rejection(run.result)
    if refused is not None:
        return GateResult(*gate, GateStatus.FAILED, REFUSED.format(line=found[0].line, why=refused))
    judged = judge_tool_run(run.result, "coqchk", sub, reported_error(run.result))
    if judged is not None:
        status, why = judged
        return GateResult(*gate, status, f"re-checking a section closed over `Proof using` with coqchk: {why}")
    return None
