"""Red team 26 on G5 and G6 (the trusted statement check, coqchk): candidates measured with the real coqc.

G5's trusted file ``Require``s the compiled reference and candidate, states the type of the reference's
theorem applied to the candidate's assumptions, and asks the kernel to accept the candidate's theorem at it.
Whatever the candidate's environment does to elaboration there (coercions, canonical structures, instances,
hints, ``Arguments``), the term the kernel accepts has the reference's type, fixed before the candidate was
loaded, so at worst a real proof of the statement is built around the candidate's theorem; and every
command that declares one of those is refused by G2/G3 anyway (``test_rocq_redteam26_text.py``). Tried here:
helpers that are universe-polymorphic, proved by ``native_compute`` (the harness's coqc runs with the native
and bytecode machines off, so the tactic falls back and the kernel checks the cast), over ``Uint63``
primitives by computation, or built by ``ltac:``: honest, accepted, with only kernel primitives among the
assumptions. The specification of primitive float equality, ``FloatAxioms.Leibniz.eqb_spec``, lives in a
module whose short name ends like the allowed ``PrimFloat.Leibniz``; ``Print Assumptions`` prints it
qualified (``FloatAxioms.Leibniz.eqb_spec``, measured) so G5 refused it, but the reading of a printed name
allowed any field of a module part that an allowed module ends with, whatever the last word: a print as
``Leibniz.eqb_spec`` would have passed. Such an ambiguous module part is refused now
(``toolchain.allowed_printed_name``); ``PrimFloat.Leibniz``'s one primitive is allowed by name, so its
print as ``Leibniz.eqb`` (``test_rocq_redteam11.py``) and as ``PrimFloat.Leibniz.eqb`` still pass.

Axioms named like allowed ones (``Module ClassicalEpsilon. Axiom constructive_indefinite_description``, a module
path ``Coq.Logic.Epsilon`` of the candidate's own, a ``Parameter`` of a ``Module Type`` reached by ``Declare
Module`` or through a functor): refused by the text gates and, each gate run, by G5 and G6 by their full names.

One case of each class runs in CI (``IN_CI``, or the first); the rest with ``-m slow``.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.rocq.toolchain import allowed_printed_name
from putnam_solver.core.verify import Profile, Track
from tests.adversarial.test_rocq_redteam11 import A1_HELPER, A1_SOUND, SECTION_FALSE, _a1, _verdict
from tests.adversarial.test_rocq_redteam14 import vacuous, verdict
from tests.helpers import COQ_BENCH, failures, needs_coq, pinned, rocq_full_verdict

RESERVED = ("Candidate", "Putnam")


def test_a_printed_module_part_shared_with_a_specification_module_is_refused() -> None:
    assert not allowed_printed_name("Leibniz.eqb_spec", RESERVED)
    assert not allowed_printed_name("FloatAxioms.Leibniz.eqb_spec", RESERVED)
    assert not allowed_printed_name("Leibniz.zz_other", RESERVED)
    for name in (
        "Leibniz.eqb",
        "PrimFloat.Leibniz.eqb",
        "PrimFloat.float",
        "PArray.get",
        "PrimInt63.add",
        "classic",
        "BigOp.bigop",
    ):
        assert allowed_printed_name(name, RESERVED), name
    assert not allowed_printed_name("PArray.get_make", RESERVED)


def _before(text: str, before: str) -> str:
    at = text.index("Theorem putnam_2013_b2")
    return f"{text[:at]}{before}\n{text[at:]}"


HONEST = {
    "primitives, native_compute, a polymorphic and an ltac helper": (
        "From Coq Require Import Uint63.\n"
        "Polymorphic Lemma zz_poly@{u} (A : Type@{u}) (a : A) : a = a.\nProof. reflexivity. Qed.\n"
        "Lemma zz_int : (2 + 2 = 4)%uint63.\nProof. native_compute. reflexivity. Qed.\n"
        "Definition zz_ltac : nat := ltac:(exact 1%nat).",
        "pose proof (zz_poly _ zz_ltac) as _h1. pose proof zz_int as _h2.",
        "",
    ),
    "ssreflect helpers after the theorem": (
        "",
        "",
        "From mathcomp Require Import all_ssreflect.\nLocal Open Scope nat_scope.\n"
        "Lemma zz (a b c : nat) (h : a = b) : a + c = c + b.\nProof. rewrite {1}h addnC => {h}. by []. Qed.\n"
        "Lemma zz2 (n : nat) : n <= n.+1.\nProof. have h : n <= n by []. suff: n <= n.+1 by []. by apply: leqnSn. Qed.",
    ),
    "vm_compute and Proof using in a helper": (
        "Lemma zz_vm : (2 ^ 10 = 1024)%nat.\nProof using. vm_compute. reflexivity. Qed.",
        "pose proof zz_vm as _h.",
        "",
    ),
    "Compute and Eval queries": (
        "Compute (1 + 1)%nat.\nEval cbv in (2 * 3)%nat.",
        "Compute (1 + 1)%nat.",
        "Eval hnf in (2 * 3)%nat.",
    ),
}
IN_CI = {"primitives, native_compute, a polymorphic and an ltac helper"}


@needs_coq
@pytest.mark.parametrize(
    ("before", "in_proof", "after"),
    [pytest.param(*case, id=name, marks=() if name in IN_CI else pytest.mark.slow) for name, case in HONEST.items()],
)
def test_honest_helpers_pass_every_gate(before: str, in_proof: str, after: str) -> None:
    v = verdict(f"{_before(vacuous('3', in_proof), before)}\n{after}\n")
    assert v.status == "accepted" and not failures(v), failures(v)


@needs_coq
@pytest.mark.slow
def test_a_use_of_the_float_equality_specification_is_refused_by_g5() -> None:
    before = (
        "From Coq Require Import Floats.\n"
        "Definition zz : True := match FloatAxioms.Leibniz.eqb_spec PrimFloat.zero PrimFloat.zero "
        "with conj _ _ => I end."
    )
    v = verdict(_before(vacuous("3", "destruct zz."), before))
    assert v.status == "rejected" and "Leibniz.eqb_spec" in failures(v).get("G5", ""), failures(v)


@needs_coq
@pytest.mark.slow
def test_coqc_refuses_a_locality_stated_twice() -> None:
    v = verdict(f"{vacuous('3')}\n#[local] #[global] Hint Extern 0 => idtac : core.\n")
    assert "Locality specified twice" in failures(v).get("G4", ""), failures(v)


NAMED_LIKE_ALLOWED = {
    "an axiom under an allowed axiom's full path": (
        "Module Coq. Module Logic. Module Epsilon. Axiom epsilon_statement : False. End Epsilon. End Logic. End Coq.",
        "Coq.Logic.Epsilon.epsilon_statement",
        "Coq.Logic.Epsilon.epsilon_statement",
    ),
    "an axiom in a module named like an allowed one": (
        "Module ClassicalEpsilon. Axiom constructive_indefinite_description : False. End ClassicalEpsilon.",
        "ClassicalEpsilon.constructive_indefinite_description",
        "ClassicalEpsilon.constructive_indefinite_description",
    ),
    "a Parameter of a Module Type, then Declare Module": (
        "Module Type T. Parameter p : False. End T. Declare Module M : T.",
        "M.p",
        "M.p",
    ),
    "the same through a functor applied to it": (
        "Module Type T. Parameter p : False. End T. Module F (X : T). Definition q : False := X.p. End F.\n"
        "Declare Module M : T. Module N := F M.",
        "N.q",
        "M.p",
    ),
}
"""(before the theorem, the term its proof destructs, the axiom G5 and G6 name): refused by G2 and G3 as text,
and, every gate run, by G5 (printed ``Candidate.<path>``: a name of the candidate's module prints with its
library's name, measured, so it never matches an allowed one) and G6 (``Putnam.Candidate.<path>``)."""


@needs_coq
@pytest.mark.parametrize(
    ("before", "term", "axiom"),
    [
        pytest.param(*case, id=name, marks=() if i == 0 else pytest.mark.slow)
        for i, (name, case) in enumerate(NAMED_LIKE_ALLOWED.items())
    ],
)
def test_an_axiom_named_like_an_allowed_one_is_refused_by_g5_and_g6(before: str, term: str, axiom: str) -> None:
    text = vacuous("3")
    start = text.index("Proof.", text.index("Theorem putnam_2013_b2"))
    end = text.index("Qed.", start) + len("Qed.")
    v = verdict(_before(f"{text[:start]}Proof. destruct {term}. Qed.{text[end:]}", before))
    failed = failures(v)
    assert v.status == "rejected" and {"G2", "G3"} <= failed.keys(), failed
    assert f"`Candidate.{axiom}` is not on the allow-list" in failed.get("G5", ""), failed
    assert f"`Putnam.Candidate.{axiom}` is not on the allow-list" in failed.get("G6", ""), failed


@needs_coq
def test_proof_using_all_in_a_section_cannot_drop_a_variable() -> None:
    """Red team 11's rocq#19861 attack with ``Proof using All``: the lemma keeps its premise ``False`` after
    ``End``, so the theorem's ``destruct zz_l`` does not compile (G4), where ``Proof using Type`` left ``zz_l :
    False`` (G3 refuses that one); an honest section proved so passes the full profile."""
    attack = _a1(SECTION_FALSE.format(attr="", proof="Proof using All."), "Proof. destruct zz_l. Qed.")
    v = _verdict(COQ_BENCH, "putnam_1986_a1", attack, Profile.FAST)
    failed = failures(v)
    assert v.status == "rejected" and "G4" in failed and "G3" not in failed, failed
    helpers = (
        "Require Import Lra.\n" + A1_HELPER + "Section zz_s.\n  Variable zz_c : R.\n  Hypothesis zz_hc : zz_c = 18.\n"
        "  Lemma zz_le : forall y : R, y <= zz_c -> y <= 18.\n"
        "  Proof using All. intros y hy. abstract (rewrite <- zz_hc; exact hy). Qed.\nEnd zz_s.\n"
        "Lemma zz_bound' (x : R) : x ^ 4 + 36 <= 13 * x ^ 2 -> x ^ 3 - 3 * x <= 18.\n"
        "Proof. intros hx. apply (zz_le 18); [reflexivity|]. apply zz_bound; exact hx. Qed.\n"
    )
    honest = _a1(helpers, A1_SOUND.replace("zz_bound.", "zz_bound'."))
    v = _verdict(COQ_BENCH, "putnam_1986_a1", honest, Profile.FULL)
    assert v.status == "accepted" and not failures(v), failures(v)


A5_QUESTION = (
    "(forall (R : ringType) (n: nat) (A B : 'M[R]_n), n >= 1 -> mulmx (mulmx (mulmx A B) A) B = 0 -> "
    "mulmx (mulmx (mulmx B A) B) A = 0)"
)
A5_BOOL_RESTATED = f"""From mathcomp Require Import matrix ssralg.
Open Scope ring_scope.
From mathcomp Require Import ssrbool boolp.
Definition putnam_1990_a5_solution := asbool {A5_QUESTION}.
Theorem putnam_1990_a5
    : {A5_QUESTION} <-> putnam_1990_a5_solution.
Proof. exact (rwP (asboolP _)). Qed.
"""
"""``putnam_1990_a5`` (no-answer, official ``False`` with no type: Coq infers ``Prop``) answered with the question
as a boolean, ``asbool Q``: in the candidate, with ``ssrbool`` imported, the theorem reads ``Q <-> is_true (asbool
Q)`` and holds by ``asboolP``, whatever the answer to the problem."""


@needs_coq
def test_a_yes_no_answer_restated_as_a_boolean_is_refused_on_the_full_profile() -> None:
    """The trusted file imports nothing, so no coercion turns the candidate's ``bool`` into the ``Prop`` the
    reference's theorem takes: G5 refuses the instantiation (measured). G4 alone passes it (its yes/no decision
    reads a ``Prop`` only, and ``asbool`` is no listed choice operator): on ``fast`` this restatement is
    accepted, a gap noted in docs/threat-model.md."""
    v = rocq_full_verdict(pinned(COQ_BENCH), "putnam_1990_a5", A5_BOOL_RESTATED, Track.NO_ANSWER)
    failed = failures(v)
    assert v.status == "rejected" and 'type "bool"' in failed.get("G5", ""), failed
