"""Red team 32 on the Rocq gates, measured with coqc/coqchk 8.16.1.

**Ltac2's unsafe term constructor bound under a name of the candidate's (G3, fixed).** G3 refuses the word
``Unsafe`` because Ltac2's ``Constr.Unsafe.make`` builds any term, fixpoints included, with no kernel keyword
in the text. But ``Ltac2 @ external`` binds a plugin primitive under any name and any type, unchecked:
inside a proof (where G2 reads a ``Ltac2`` command as part of the proof), ``Ltac2 @ external zz_make :
zz_kind -> constr := "ltac2" "constr_make".``, with ``zz_kind`` a type of the candidate's own shaped as
Ltac2's, built terms by the unsafe API with neither ``Unsafe`` nor a recursion word in the text, and passed
the text gates (measured: the proof of ``True`` below elaborates to ``I`` so). Reachable only where the
statement loads Ltac2 (no permitted ``Require`` does: the ``Ltac2`` root is not permitted, a bare ``Ltac2``
does not resolve in coqc, and no Coq, MathComp or Coquelicot library loads it; a client's record in
``putnam serve`` may). On ``full`` the fixpoint a guard bug needs would still meet G5's kernel-term
recursion check, which reads terms however they were built; the text rule was the only line on ``text`` and
``fast``. Every ``Ltac2`` sentence naming ``external`` is refused now, in proofs and out; an Ltac2
definition without it, and ``ltac2:(...)`` in a proof, still pass.

**Tried, held.** An unlisted axiom applied by a ``Hint Extern ... => exact ...`` that ``auto`` uses in the
theorem's proof (no axiom in the proof's text): G5's ``Print Assumptions`` and G6 name it; the same hint with a
lemma passes. The typeclass debug options this round accepts are in ``test_rocq_falserej32.py``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.adversarial import test_rocq_redteam31 as redteam31
from tests.helpers import failures, needs_coq, one_record_benchmark, sampled

PROBLEM = "zz_redteam32"
HEADER = "From Ltac2 Require Import Ltac2.\n"
THEOREM = "Theorem zz_redteam32 : forall n : nat, n + 0 = n.\n"
STATEMENT = f"{HEADER}{THEOREM}Proof. Admitted.\n"
"""A statement that loads Ltac2 (its proofs then run in Ltac2's proof mode)."""
PROOF = "intros n; induction n; simpl; auto."


def _proof(before: str = "", after: str = "") -> str:
    return f"{HEADER}{before}{THEOREM}Proof. {PROOF} Qed.\n{after}"


def _verdict(tmp_path: Path, candidate: str, profile: Profile) -> Verdict:
    bench = one_record_benchmark(tmp_path, PROBLEM, STATEMENT)
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems[PROBLEM], candidate.encode(), Track.WITH_ANSWER, options)


KIND = (
    "Ltac2 Type zz_kind := [ ZzRel (int) | ZzVar (ident) | ZzMeta (int) | ZzEvar (int, constr array) "
    "| ZzSort (int) | ZzCast (constr, int, constr) | ZzProd (int, constr) | ZzLambda (int, constr) "
    "| ZzLetIn (int, constr, constr) | ZzApp (constr, constr array) | ZzConstant (int, int) ]."
)
"""A type of the candidate's own with the first constructors of Ltac2's ``Constr.Unsafe.kind``."""
BINDINGS = (
    'Ltac2 @ external zz_kind_of : constr -> zz_kind := "ltac2" "constr_kind".\n'
    'Ltac2 @ external zz_make : zz_kind -> constr := "ltac2" "constr_make".'
)
BUILT = f"Proof.\n{KIND}\n{BINDINGS}\nlet c := zz_make (zz_kind_of 'I) in exact $c.\nQed."
"""A proof of ``True`` whose term the unsafe API built, with no ``Unsafe`` in the text."""


@needs_coq
def test_an_external_binding_reaches_the_unsafe_term_api(tmp_path: Path) -> None:
    (tmp_path / "p.v").write_text(f"{HEADER}Lemma zz : True.\n{BUILT}\nPrint zz.\n")
    run = subprocess.run(["coqc", "p.v"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == 0 and "zz = I" in run.stdout, run.stdout + run.stderr
    assert "Unsafe" not in BUILT


REFUSED = {
    "in a helper's proof": _proof(f"Lemma zz_l : True.\n{BUILT}\n"),
    "after the theorem, in a helper's proof": _proof(after=f"Lemma zz_l : True.\n{BUILT}\n"),
    "at top level after the theorem": _proof(after=f"{KIND}\n{BINDINGS}\n"),
    "an external of any primitive": _proof(
        after='Lemma zz_l : True. Proof. Ltac2 @ external zz_p : int -> unit := "ltac2" "print". exact I. Qed.\n'
    ),
}
"""Each binds a plugin primitive under a name of its own: refused by G3 on every profile."""
HONEST = {
    "an Ltac2 definition in a proof": _proof("Lemma zz_l : True. Proof. Ltac2 zz_t () := exact I. zz_t (). Qed.\n"),
    "ltac2 in a term of a proof": _proof(after="Lemma zz_l : True. Proof. exact ltac2:(exact I). Qed.\n"),
}
"""Their twins: Ltac2 through its library's own functions passes."""


@pytest.mark.parametrize("candidate", sampled(REFUSED, {"in a helper's proof"}))
def test_an_ltac2_external_binding_is_refused(tmp_path: Path, candidate: str) -> None:
    verdict = _verdict(tmp_path, candidate, Profile.TEXT)
    assert verdict.status == "rejected" and "Ltac2 @ external" in failures(verdict).get("G3", ""), failures(verdict)


@needs_coq
@pytest.mark.parametrize("candidate", sampled(HONEST, {"an Ltac2 definition in a proof"}))
def test_ltac2_without_externals_passes_the_full_profile(tmp_path: Path, candidate: str) -> None:
    verdict = _verdict(tmp_path, candidate, Profile.FULL)
    assert verdict.status == "accepted", failures(verdict)


def test_the_theorems_proof_is_untouched_by_the_twins() -> None:
    assert all(THEOREM in c and PROOF in c for c in (*REFUSED.values(), *HONEST.values()))


HINTED = {
    "an unlisted axiom behind a hint": (
        "Require Coq.Compat.AdmitAxiom.\n"
        "Hint Extern 0 (_ + 0 = _) => exact (match Coq.Compat.AdmitAxiom.proof_admitted : False with end) : core.\n",
        "rejected",
    ),
    "a lemma behind a hint": (
        "Require Import Arith.\nHint Extern 0 (_ + 0 = _) => exact (Nat.add_0_r _) : core.\n",
        "accepted",
    ),
}
"""(before the theorem, verdict): a hint whose tactic is ``exact`` of an axiom, used by ``auto`` in the
theorem's proof, which names neither; the axiom is the theorem's (G5's ``Print Assumptions``, G6)."""


@needs_coq
@pytest.mark.parametrize(("before", "status"), sampled(HINTED, {"an unlisted axiom behind a hint"}))
def test_an_axiom_a_hint_applies_is_the_theorems_assumption(tmp_path: Path, before: str, status: str) -> None:
    candidate = f"{before}{redteam31.THEOREM}Proof. intros n. auto. Qed.\n"
    verdict = redteam31._verdict(tmp_path, candidate, Profile.FULL)
    found = failures(verdict)
    assert verdict.status == status, found
    assert status == "accepted" or ({"G5", "G6"} <= found.keys() and "proof_admitted" in found["G5"]), found
