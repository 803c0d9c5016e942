"""Round 35, false rejections: honest proofs in the styles published Rocq provers write, on PutnamBench's
pinned ``putnam_1962_a6`` (QArith) and ``putnam_2010_b2`` (Reals), measured with coqc/coqchk 8.16.1.

Twenty candidates were written: helper ``Lemma``/``Fact``/``Remark``/``Corollary``/``Example``/
``Proposition`` (``Qed`` and ``Defined``), ``Ltac`` helpers (also defined inside a proof), ``#[local] Hint
Resolve``, ``Local Definition``, ``Time Lemma``, ``Proof using.`` outside sections, bullets and braces,
``Print Assumptions``/``Check`` after the proof, a helper ``Section`` with a ``Let``, ``Opaque`` of an own
definition, ``Set Implicit Arguments`` after the theorem, ``Require Import Lra`` before the theorem and in
its proof, ``Local Open Scope R_scope`` in the proof, ``field`` and ``lra`` closings, ssreflect's ``move:``
and ``apply:``. All are accepted on ``full``; the ``Require``s before the theorem or in its proof are class 2
(refused on ``text``/``fast`` with the reason, by design). One is refused on every profile: ``Proof using``
inside a helper section (G3, rocq#19861: coqc 8.16 does not check the declared variables against those an
``abstract`` subproof uses). On ``full`` coqchk would catch the ill-typed lemma that attack leaves, but G5's
``Print Assumptions`` of it dies with an anomaly first, so lifting the rule there would turn a rejection into
an ``error``; the rule stayed, and the same helper without ``Proof using`` passes. Round 37 moved the check
to G4 on every profile that compiles (coqchk's run judged before G5: ``discharge.py``); ``text`` keeps G3's.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.verify import Profile, Track
from tests.adversarial.test_rocq_redteam20 import a6, stopping
from tests.helpers import COQ_BENCH, failures, needs_coq, pinned, rocq_full_verdict, sampled

A6_PROOF = (
    "Proof.\n  destruct (hSScond 1) as [[h|[h|h]] [hn _]]; try (exfalso; apply hn; zz_close); discriminate h.\nQed."
)
HELPERS = (
    "Ltac zz_close := tauto.\n"
    "Lemma zz_l : forall P : Prop, P -> P \\/ False.\nProof using. auto. Qed.\n"
    "#[local] Hint Resolve zz_l : core.\n"
    "Fact zz_f : True. Proof. exact I. Qed.\nRemark zz_r : True. Proof. exact I. Defined.\n"
    "Corollary zz_c : True. Proof. exact I. Qed.\nExample zz_e : 1 + 1 = 2. Proof. reflexivity. Qed.\n"
    "Local Definition zz_one : nat := 1.\nOpaque zz_one.\nTime Lemma zz_t : True. Proof. exact I. Qed.\n"
)
A6_STYLES = {
    "helpers of every published kind": (HELPERS, A6_PROOF, "\nPrint Assumptions putnam_1962_a6.\n"),
    "an Ltac defined in the proof, bullets and braces": (
        "",
        "Proof.\n  Ltac zz_t := tauto.\n  destruct (hSScond 1) as [[h|[h|h]] [hn _]].\n  - exfalso. apply hn. zz_t.\n"
        "  - { exfalso. apply hn. right. exact h. }\n  - discriminate h.\nQed.",
        "\nSet Implicit Arguments.\nLemma zz_after : forall (A : Type) (x : A), x = x.\nProof. reflexivity. Qed.\n",
    ),
    "a helper section with a Let": (
        "Section ZzS.\nVariable (B : Ensemble Q).\nLet zz_b := B.\n"
        "Lemma zz_no : (forall r : Q, ~ (zz_b r \\/ zz_b (-r))) -> ~ B 1.\nProof. intros hc h. apply (hc 1). left. "
        "exact h. Qed.\nEnd ZzS.\nLtac zz_close := tauto.\n",
        A6_PROOF,
        "",
    ),
}
"""(before the theorem, its proof, after it): helpers and settings that cannot change the statement, so every
profile accepts them."""


@needs_coq
@pytest.mark.parametrize(("before", "proof", "after"), sampled(A6_STYLES, {"helpers of every published kind"}))
def test_published_styles_are_accepted_on_every_profile(before: str, proof: str, after: str) -> None:
    candidate = a6(before, proof, after)
    verdict = rocq_full_verdict(pinned(COQ_BENCH), "putnam_1962_a6", candidate)
    assert verdict.status == "accepted", failures(verdict)
    assert stopping("putnam_1962_a6", candidate, Profile.TEXT, Track.WITH_ANSWER).status == "accepted"


B2_HEADER = "Require Import Reals Rgeom ZArith.\nOpen Scope R.\n"
B2_CLOSE = "  destruct hm as [[a b] [[c d] [[e f] [[hnc _] _]]]].\n  exfalso; apply hnc; exists 0, 0; f_equal; {}.\n"
B2_STYLES = {
    "Require Import Lra before the theorem": ("Require Import Lra.\n", B2_CLOSE.format("lra"), "rejected"),
    "Require Import Lra in the proof": ("", "  Require Import Lra.\n" + B2_CLOSE.format("lra"), "rejected"),
    "Local Open Scope in the proof, field": (
        "",
        "  Local Open Scope R_scope.\n" + B2_CLOSE.format("field"),
        "accepted",
    ),
    "ssreflect's move: and apply:": (
        "From Coq Require Import ssreflect.\n",
        "  move: hm => [[a b] [[c d] [[e f] [[hnc _] _]]]].\n  exfalso; apply: hnc; exists 0, 0; f_equal; ring.\n",
        "rejected",
    ),
}
"""(added after the statement's header, the proof's body, verdict on ``text``): accepted on ``full``; a
library loaded before the theorem or in its proof is class 2."""


@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize(("added", "body", "text_status"), list(B2_STYLES.values()), ids=list(B2_STYLES))
def test_reals_proofs_in_published_styles(added: str, body: str, text_status: str) -> None:
    statement = pinned(COQ_BENCH).problems["putnam_2010_b2"].formal_statement
    candidate = statement.replace(B2_HEADER, B2_HEADER + added).replace("Proof. Admitted.", f"Proof.\n{body}Qed.")
    assert rocq_full_verdict(pinned(COQ_BENCH), "putnam_2010_b2", candidate).status == "accepted"
    verdict = stopping("putnam_2010_b2", candidate, Profile.TEXT, Track.WITH_ANSWER)
    assert verdict.status == text_status, failures(verdict)
    assert text_status == "accepted" or "G5's" in failures(verdict)["G2"], failures(verdict)


SECTION = (
    "Section ZzS.\nVariable (B : Ensemble Q).\nHypothesis zz_c : forall r : Q, ~(B r \\/ B (-r)).\n"
    "Lemma zz_no1 : ~ B 1.\n{proof} intro h. apply (zz_c 1). left. exact h. Qed.\nEnd ZzS.\nLtac zz_close := tauto.\n"
)


def test_proof_using_in_a_helper_section_stays_refused_on_text() -> None:
    verdict = stopping(
        "putnam_1962_a6", a6(SECTION.format(proof="Proof using zz_c."), A6_PROOF), Profile.TEXT, Track.WITH_ANSWER
    )
    assert verdict.status == "rejected" and "rocq#19861" in failures(verdict).get("G3", ""), failures(verdict)


@needs_coq
def test_proof_using_in_a_helper_section_is_accepted_where_coqchk_rechecks_it() -> None:
    """Round 37: a profile that compiles has coqchk re-check the closed section (``discharge.py``), so the
    honest declaration passes (red team 11's attack is refused there by the same run)."""
    candidate = a6(SECTION.format(proof="Proof using zz_c."), A6_PROOF)
    verdict = rocq_full_verdict(pinned(COQ_BENCH), "putnam_1962_a6", candidate)
    assert verdict.status == "accepted", failures(verdict)


@needs_coq
@pytest.mark.slow
def test_the_same_helper_section_without_proof_using_is_accepted() -> None:
    verdict = rocq_full_verdict(pinned(COQ_BENCH), "putnam_1962_a6", a6(SECTION.format(proof="Proof."), A6_PROOF))
    assert verdict.status == "accepted", failures(verdict)
