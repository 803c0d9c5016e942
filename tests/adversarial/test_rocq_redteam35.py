"""Red team 35 on the Rocq gates, measured with coqc/coqchk 8.16.1.

**A hint list inside ``abstract``'s argument (G2, a false rejection fixed).** G2 read every word after a
``using`` in a sentence that calls ``abstract`` as the name of a constant the tactic declares, so the honest
``pose proof plus_n_O as x; abstract (eauto using x).`` in a ``Defined`` helper was a constant ``x`` named
after a hypothesis the sentence binds (red team 34's rule) and needed the statement check: refused on
``text`` and ``fast``. Coq reads ``abstract tac using name`` with ``tac`` one whole tactic expression, so the
name clause stands in the bracket group ``abstract`` stands in; the ``using`` inside ``(eauto using x)``
names hints, and the constant is ``<owner>_subproof`` (measured). G2 now reads a ``using`` as a name clause
only where an abstracting word of its own group precedes it; ``abstract eauto using x`` (same group, which
Coq reads as ``abstract (eauto using x)``) still counts, and brackets that do not pair count every ``using``.
Red team 34's ``match goal with [ H : nat |- _ ] => ... transparent_abstract ... using H end`` stays refused,
also inside parentheses.

**G6 and axioms a loaded library leaves unused (investigated, kept).** coqchk 8.16 lists the axioms of the
whole environment it loads, not of one theorem, so G6 refuses an unlisted axiom the theorem does not use.
Loading every installed library (Coq's, mathcomp's, Coquelicot's) puts only two such groups there:
``Coq.Compat.AdmitAxiom.proof_admitted`` and seven lemmas mathcomp-analysis leaves ``Admitted`` in
``altreals.distr`` and ``altreals.realsum``; the primitives' specifications already pass G6 (G5 refuses
their use). No published proof loads them, and passing them would leave their use to G5's ``Print
Assumptions`` alone: kept, with a test.

**No assumption check on ``fast`` (investigated, kept).** DESIGN §3 defines ``fast`` as G1-G4, the agent's
own check. A ``Print Assumptions`` in the candidate's compile would be read from output the candidate can
write itself (``idtac "..."`` prints any line); a sound one needs G5's trusted file, which is ``full``.
Nothing ``fast`` accepts needs it: a ``Require`` before the theorem or in its proof is class 2 (refused on
``fast``), and the headers of PutnamBench's Coq statements load no axiom off the allow-list: every installed
library they name (96, loaded together; ``kernel``, ``complex`` and ``probability`` are not installed) puts
148 axioms in coqchk's environment, all on it (measured).

**Tried, held** (each refused on ``text`` by G2 or G3, or consistent with coqc): ``Unset (* *) Guard
Checking`` and ``Local Unset Guard`` across a line break, ``#[ bypass_check ( guard ) ]``, ``Redirect``,
``Succeed Axiom`` and ``Fail Fail Admitted`` in a proof, ``Timeout 5 Admitted``, ``Instructions``, ``Proof
Mode``, ``Export Set``, ``Program Definition`` with an admitted obligation, ``Let`` outside a section,
``Hint Extern ... => admit``, ``Ltac auto := admit``; the prefixes ``Time``, ``Timeout``, ``#[local]`` and
``Redirect`` on ``Local Open Scope``, ``Import``, ``Arguments``, a ``typeclass_instances`` hint, ``Set
Implicit Arguments``, ``Ltac ::=``, ``Strategy``, ``Opaque`` and ``Generalizable`` (45 cases, all refused on
``text``). Comments that hold an unterminated string (``(* " *) Axiom zz : 0 = 1. (* " *)``): coqc reads the
axiom as comment text too (``comment-terminator-in-string``), and a string never closed is a lexing error
for both.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq.sentence_rules import tactic_declared_names
from putnam_solver.core.provers.rocq.syntax import sentences
from putnam_solver.core.verify import Profile
from tests.adversarial.test_rocq_redteam31 import _proof
from tests.adversarial.test_rocq_redteam31 import _verdict as _rt31_verdict
from tests.adversarial.test_rocq_redteam34 import LTAC1_STATEMENT, THEOREM, _verdict
from tests.helpers import failures, needs_coq, sampled

NAMES = {
    "a hint list in the argument": ("abstract (eauto using x).", []),
    "a name after the argument": ("abstract (exact 0) using zz_k.", ["zz_k"]),
    "both": ("abstract (eauto using x) using zz_k.", ["zz_k"]),
    "an abstract inside a group": ("(transparent_abstract exact 0 using zz_k).", ["zz_k"]),
    "a hint list in the same group": ("abstract eauto using x.", ["x"]),
    "brackets that do not pair": ("abstract (eauto using x.", ["x"]),
}
"""(a tactic sentence, the names G2 reads as declared): the last two count the word, which Coq reads as a
hint (``abstract eauto using x`` declares ``_subproof``, measured) or not at all (a syntax error)."""


@pytest.mark.parametrize(("tactic", "names"), list(NAMES.values()), ids=list(NAMES))
def test_a_name_clause_is_read_in_the_group_of_its_abstract(tactic: str, names: list[str]) -> None:
    (sentence,) = sentences(tactic)
    assert [name for _, name in tactic_declared_names(sentence)] == names


@needs_coq
def test_a_hint_list_in_abstracts_argument_declares_no_constant(tmp_path: Path) -> None:
    helper = "Definition zz_h : forall n : nat, n = n + 0.\nProof. intros n. {}. Defined.\nPrint zz_h.\n"
    (tmp_path / "p.v").write_text(helper.format("pose proof plus_n_O as x; abstract (eauto using x)"))
    run = subprocess.run(["coqc", "p.v"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == 0 and "zz_h_subproof n x" in run.stdout, run.stdout + run.stderr


HELPERS = {
    "a hint bound by pose proof, in abstract's argument": (
        "intros k. pose proof plus_n_O as x; abstract (eauto using x).",
        "accepted",
    ),
    "a hint list inside a match, in parentheses": (
        "intros k. (match goal with [ m : nat |- _ ] => abstract (eauto using plus_n_O) end).",
        "accepted",
    ),
    "red team 34's match goal name, in parentheses": (
        "intros k pred. (match goal with [ H : nat |- _ ] => clear H; "
        "transparent_abstract (exact (fun _ : nat => 0)) using H end).",
        "rejected",
    ),
}
"""(the proof of a ``Defined`` helper before the theorem, verdict on ``text``): only a name clause that a
variable of the sentence supplies needs the statement check."""


@pytest.mark.parametrize(
    ("tactic", "status"),
    sampled(
        HELPERS, {"a hint bound by pose proof, in abstract's argument", "red team 34's match goal name, in parentheses"}
    ),
)
def test_only_a_computed_name_clause_needs_the_statement_check(tmp_path: Path, tactic: str, status: str) -> None:
    goal = "nat -> nat -> nat" if "pred" in tactic else "forall k : nat, k = k + 0"
    helper = f"Definition zz_h : {goal}.\nProof.\n{tactic}\nDefined.\n"
    candidate = f"{helper}{THEOREM}Proof. exists (fun n => pred n); reflexivity. Qed.\n"
    verdict = _verdict(tmp_path, candidate, Profile.TEXT, LTAC1_STATEMENT)
    assert verdict.status == status, failures(verdict)
    assert status == "accepted" or "names it is given" in failures(verdict)["G2"], failures(verdict)


@needs_coq
@pytest.mark.slow
def test_a_librarys_admitted_lemmas_in_the_environment_stay_g6s(tmp_path: Path) -> None:
    """coqchk 8.16 lists every axiom of the environment it loads, used or not (``-o`` prints the whole
    context's assumptions), so G6 cannot count only the theorem's. Loading each installed library
    (Coq's 562, mathcomp's 130, Coquelicot's 24, measured) brings in no axiom off the allow-list besides the
    primitives' specifications, except ``Coq.Compat.AdmitAxiom`` (red team 31) and the lemmas mathcomp-analysis
    leaves ``Admitted`` in ``altreals.distr`` and ``altreals.realsum``; no published proof loads either.
    Passing them on G5's word would leave their use to ``Print Assumptions`` alone, so G6 keeps refusing
    them (G5 passes the honest theorem)."""
    candidate = _proof() + "Require mathcomp.analysis.altreals.realsum.\n"
    found = failures(_rt31_verdict(tmp_path, candidate, Profile.FULL))
    assert set(found) == {"G6"} and "mathcomp.analysis.altreals.realsum.psumB" in found["G6"], found
