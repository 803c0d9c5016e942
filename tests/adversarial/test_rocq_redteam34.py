"""Red team 34 on the Rocq gates, measured with coqc/coqchk 8.16.1.

**A constant declared under a name Ltac2 computes (G2, fixed).** G2 reads the names ``abstract``/
``transparent_abstract ... using name`` declare, and sends a tactic whose name is computed (an ``Ltac``
definition, ``fresh``) to the statement check. On a statement that loads Ltac2 the name can be an Ltac2
value: ``ltac1:(zz_m |- transparent_abstract ... using zz_m) (Ltac1.of_ident zz_m)`` with ``zz_m`` from
``Ident.of_string "pred"``, or Ltac2's own ``Control.abstract (Ident.of_string "pred") ...`` in a ``Defined``
helper, declared ``pred``, and the theorem's ``pred`` meant the candidate's constant: accepted on ``text``
(G4's declared-name check refuses it on ``fast``, G5 on ``full``). Such a sentence now needs the statement
check; an Ltac2 proof that names nothing, and ``Control.abstract`` under ``Qed`` (its constant is private:
the statement keeps ``Nat.pred``, measured), still pass. The same without Ltac2: in plain Ltac, ``intros pred.
match goal with [ H : nat |- _ ] => clear H; transparent_abstract ... using H end`` names the constant after
the hypothesis ``H`` is bound to (G2 read the name ``H``); a ``using`` after a binder of the sentence (``let``,
``fun``, ``match``, ``fresh``) now counts as computed.

**An Ltac2 definition that shadows a tactic the challenge runs (G2, fixed).** A helper's proof held ``Ltac2
exact0 ... := Control.refine (fun () => '1)``; the challenge's ``Definition zz_v : nat := ltac2:(exact0 false
(fun () => '0))`` then ran the candidate's ``exact0``, and the false ``zz_v = 1`` was accepted on ``text`` and
``fast`` (G5 refuses it on ``full``). Where the challenge runs tactics, an Ltac2 definition before the theorem
now needs the statement check, as a hint or tactic notation does.

**Ltac2 entries, in proofs and out (G2, made consistent).** Coq runs an ``Ltac2`` command the same way in a
proof and out of one (8.16's ``plugins/ltac2/g_ltac2.mlg``: one ``VERNAC COMMAND`` rule calling
``Tac2entries.register_struct``, classified as a side effect), so G2 now judges it alike: a definition, type
or ``Ltac2 Eval`` (a query: its proof state is dropped) is harmless, as an ``Ltac`` definition is; it was
refused at top level and accepted in a proof. Where the challenge does not load Ltac2, coqc reads no
``Ltac2`` command, and G2 refuses it in both places, with that reason. ``Ltac2 Set`` and ``@ external`` stay
G3's everywhere, and a notation G3's word ``Notation`` (G2 reads it as a tactic notation).

**``Require Import Ltac2.`` (G2, refused early).** A bare ``Require`` name passed the text gates, but coqc
finds only ``Coq.*`` libraries by a suffix of their names (``Ltac2``, ``HB``, ``Rcomplements``, and the
partial ``ssreflect.ssrnat``, which G2 resolved to ``mathcomp.ssreflect.ssrnat``, fail: "Cannot find a
physical path bound to logical path"; so do ``From Coq Require Import Ltac2.`` and ``Require Import
Coq.Ltac2.``), so G4 refused it with a compile error; G2 now names the problem and the fix, for every name
coqc cannot find (it agreed with coqc on all 518 distinct ``Require`` sentences of the repository's data and
tests). ``From Ltac2 Require ...`` stays refused (the root is not permitted), so Ltac2 is loaded only by a
statement that loads it.

**Tried, held.** ``#[universes(checked=no)]`` and ``#[typing(guarded=no)]`` are no attributes of 8.16 (nor of
the current source, whose only typing attribute is ``bypass_check``: ``vernac/attributes.ml``); coqc refuses
the sentence. ``Local Notation "x = y" := True`` (G2), ``Abort All`` (G3), ``Succeed Axiom`` (G3),
``#[export] Set`` (G2), ``#[local] Set Universe Polymorphism`` (G2) are refused; ``Timeout 5 Definition``
passes and changes nothing.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import failures, needs_coq, one_record_benchmark, sampled

PROBLEM = "zz_redteam34"
HEADER = "From Ltac2 Require Import Ltac2.\n"
THEOREM = "Theorem zz_redteam34 : exists f : nat -> nat, forall n, f n = pred n.\n"
STATEMENT = f"{HEADER}{THEOREM}Proof. Admitted.\n"
"""A statement that loads Ltac2 and names a library constant, ``pred``, a helper could shadow."""
PROOF = "Proof. ltac1:(exists (fun n => pred n); reflexivity). Qed.\n"


def _verdict(tmp_path: Path, candidate: str, profile: Profile, statement: str = STATEMENT) -> Verdict:
    bench = one_record_benchmark(tmp_path, PROBLEM, statement)
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems[PROBLEM], candidate.encode(), Track.WITH_ANSWER, options)


def _helper(tactic: str, end: str = "Defined") -> str:
    return f"{HEADER}Definition zz_h : nat -> nat.\nProof.\n{tactic}\n{end}.\n{THEOREM}{PROOF}"


QUOTED = (
    'let zz_m := Option.get (Ident.of_string "pred") in\n'
    "ltac1:(zz_m |- transparent_abstract (exact (fun _ : nat => 0)) using zz_m) (Ltac1.of_ident zz_m)."
)
CONTROL = 'Control.abstract (Ident.of_string "pred") (fun () => exact (fun _ : nat => 0)).'
SHADOWING = {
    "an ltac1 quotation handed the name": _helper(QUOTED),
    "Ltac2's Control.abstract in a Defined helper": _helper(CONTROL),
}
"""Each declares ``pred`` under a name no ``using`` clause writes."""
HONEST = {
    "an Ltac2 proof that names nothing": _helper("exact (fun _ : nat => 0)."),
    "Control.abstract under Qed (a private constant)": _helper(CONTROL, "Qed"),
}


@needs_coq
def test_a_computed_name_shadows_the_statements_constant(tmp_path: Path) -> None:
    (tmp_path / "p.v").write_text(f"{SHADOWING['an ltac1 quotation handed the name']}Print zz_redteam34.\n")
    run = subprocess.run(["coqc", "p.v"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == 0 and "= pred n" in run.stdout and "Nat.pred" not in run.stdout, run.stdout + run.stderr


@pytest.mark.parametrize("candidate", sampled(SHADOWING, {"an ltac1 quotation handed the name"}))
def test_an_ltac2_computed_name_needs_the_statement_check(tmp_path: Path, candidate: str) -> None:
    verdict = _verdict(tmp_path, candidate, Profile.TEXT)
    assert verdict.status == "rejected" and "names it is given" in failures(verdict).get("G2", ""), failures(verdict)


@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize("candidate", list(SHADOWING.values()), ids=list(SHADOWING))
def test_the_full_profile_sees_the_shadowed_constant(tmp_path: Path, candidate: str) -> None:
    verdict = _verdict(tmp_path, candidate, Profile.FULL)
    assert verdict.status == "rejected" and "Candidate.pred" in failures(verdict).get("G5", ""), failures(verdict)


@needs_coq
@pytest.mark.parametrize("candidate", sampled(HONEST, {"Control.abstract under Qed (a private constant)"}))
def test_ltac2_helpers_that_declare_nothing_public_pass(tmp_path: Path, candidate: str) -> None:
    verdict = _verdict(tmp_path, candidate, Profile.FULL)
    assert verdict.status == "accepted", failures(verdict)


LTAC1_STATEMENT = f"{THEOREM}Proof. Admitted.\n"
MATCHED = "match goal with [ H : nat |- _ ] => clear H; transparent_abstract (exact (fun _ : nat => 0)) using {} end."
LTAC1_HELPERS = {
    "a hypothesis name bound by match goal": (MATCHED.format("H"), "rejected"),
    "a name written after using": (MATCHED.format("zz_k"), "accepted"),
}
"""(the tactic of a ``Defined`` helper with a hypothesis ``pred``, verdict on ``text``): plain Ltac, no
Ltac2; ``using H`` names the constant after the hypothesis ``H`` is bound to, ``pred``."""


@pytest.mark.parametrize(("tactic", "status"), sampled(LTAC1_HELPERS, {"a hypothesis name bound by match goal"}))
def test_a_using_name_bound_by_the_tactic_needs_the_statement_check(tmp_path: Path, tactic: str, status: str) -> None:
    helper = f"Definition zz_h : nat -> nat -> nat.\nProof.\nintros pred.\n{tactic}\nDefined.\n"
    candidate = f"{helper}{THEOREM}Proof. exists (fun n => pred n); reflexivity. Qed.\n"
    verdict = _verdict(tmp_path, candidate, Profile.TEXT, LTAC1_STATEMENT)
    assert verdict.status == status, failures(verdict)
    assert status == "accepted" or "names it is given" in failures(verdict)["G2"], failures(verdict)


DEFINITION = "Definition zz_v : nat := ltac2:(exact0 false (fun () => '0)).\n"
"""A definition that runs Ltac2's ``exact0``, a short name a helper's Ltac2 definition can shadow."""
SHADOWING_HELPER = (
    "Lemma zz_l : True. Proof. Ltac2 exact0 (_ : bool) (_ : unit -> constr) := Control.refine (fun () => '1). "
    "exact I. Qed.\n"
)
TACTIC_CASES = {
    "before the definition, proving zz_v = 1": ("1", f"{SHADOWING_HELPER}{DEFINITION}", "", "rejected"),
    "after the theorem, proving zz_v = 0": ("0", DEFINITION, SHADOWING_HELPER, "accepted"),
}
"""(the statement's value, the candidate before its theorem, after it, verdict on ``fast``): red team 34, the
helper made ``zz_v`` 1 and the false ``zz_v = 1`` was accepted on ``text`` and ``fast`` (G5 refuses it on
``full``); after the theorem the same helper reaches nothing."""


@needs_coq
@pytest.mark.parametrize(
    ("value", "before", "after", "status"), sampled(TACTIC_CASES, {"before the definition, proving zz_v = 1"})
)
def test_an_ltac2_definition_before_a_challenge_that_runs_ltac2(
    tmp_path: Path, value: str, before: str, after: str, status: str
) -> None:
    theorem = f"Theorem zz_redteam34 : zz_v = {value}.\n"
    candidate = f"{HEADER}{before}{theorem}Proof. reflexivity. Qed.\n{after}"
    verdict = _verdict(tmp_path, candidate, Profile.FAST, f"{HEADER}{DEFINITION}{theorem}Proof. Admitted.\n")
    found = failures(verdict)
    assert verdict.status == status, found
    assert status == "accepted" or "shadow a tactic the challenge runs" in found["G2"], found


PLAIN = "Theorem zz_redteam34 : forall n : nat, n + 0 = n.\n"
PLAIN_PROOF = "Proof. intros n. symmetry. apply plus_n_O. Qed.\n"
LTAC2_PLACES = {
    "at top level": f"{HEADER}Ltac2 zz_t () := exact I.\nLtac2 Type zz_k := [ ZzA | ZzB ].\nLtac2 Eval zz_t.\n",
    "in a proof": f"{HEADER}Lemma zz_l : True. Proof. Ltac2 zz_t () := exact I. zz_t (). Qed.\n",
}
"""An Ltac2 definition before the theorem, in the two places Coq runs it alike."""


@needs_coq
@pytest.mark.parametrize("before", sampled(LTAC2_PLACES, {"at top level"}))
def test_an_ltac2_definition_passes_wherever_it_stands(tmp_path: Path, before: str) -> None:
    verdict = _verdict(tmp_path, f"{before}{PLAIN}{PLAIN_PROOF}", Profile.FULL, f"{HEADER}{PLAIN}Proof. Admitted.\n")
    assert verdict.status == "accepted", failures(verdict)


@pytest.mark.parametrize("before", list(LTAC2_PLACES.values()), ids=list(LTAC2_PLACES))
def test_an_ltac2_command_is_refused_where_the_challenge_does_not_load_ltac2(tmp_path: Path, before: str) -> None:
    """coqc reads no ``Ltac2`` command then (a syntax error), and the candidate cannot load Ltac2."""
    candidate = f"{before.removeprefix(HEADER)}{PLAIN}{PLAIN_PROOF}"
    verdict = _verdict(tmp_path, candidate, Profile.TEXT, f"{PLAIN}Proof. Admitted.\n")
    assert verdict.status == "rejected" and "does not load Ltac2" in failures(verdict).get("G2", ""), failures(verdict)


@pytest.mark.parametrize(
    "sentence",
    ["Ltac2 Set zz_t := fun () => exact I.", 'Ltac2 @ external zz_p : int -> unit := "ltac2" "print".'],
    ids=["Ltac2 Set", "external"],
)
def test_ltac2_rebinding_stays_refused_at_top_level(tmp_path: Path, sentence: str) -> None:
    candidate = f"{HEADER}{sentence}\n{PLAIN}{PLAIN_PROOF}"
    verdict = _verdict(tmp_path, candidate, Profile.TEXT, f"{HEADER}{PLAIN}Proof. Admitted.\n")
    assert verdict.status == "rejected" and "G3" in failures(verdict), failures(verdict)


BARE = {
    "Ltac2": ("Require Import Ltac2.\n", "rejected"),
    "a user-contrib library": ("Require Import Rcomplements.\n", "rejected"),
    "Ltac2 from Coq's root": ("From Coq Require Import Ltac2.\n", "rejected"),
    "a partial mathcomp name": ("Require Import ssreflect.ssrnat.\n", "rejected"),
    "mathcomp from its root": ("From mathcomp Require Import ssrnat.\n", "accepted"),
    "import categories and a filter": (
        "Require Import -(notations) Arith.\nRequire Import Coq.Arith.PeanoNat(Nat.add_comm).\n",
        "accepted",
    ),
    "Coq's own libraries": ("Require Import Arith.PeanoNat Bool.\n", "accepted"),
}
"""(a ``Require`` before the theorem, verdict on ``full``, where a library loaded there may pass): coqc
finds ``Coq.*`` libraries by a suffix of their names, the others by their full names or within a ``From``
root."""


@needs_coq
@pytest.mark.parametrize(("require", "status"), sampled(BARE, {"Ltac2", "Coq's own libraries"}))
def test_a_bare_require_coqc_cannot_resolve_is_refused_early(tmp_path: Path, require: str, status: str) -> None:
    statement = f"{PLAIN}Proof. Admitted.\n"
    verdict = _verdict(tmp_path, f"{require}{PLAIN}{PLAIN_PROOF}", Profile.FULL, statement)
    assert verdict.status == status, failures(verdict)
    assert status == "accepted" or "coqc cannot find" in failures(verdict)["G2"]
