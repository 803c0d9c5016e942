"""Red team 42 on the Rocq restatement check: a condition copied into any inductive wrapper, measured with
coqc/coqchk 8.16.1.

**The hole.** G4's restatement check proves the pinned theorem from a set or predicate answer by unfolding
and logic alone; a proof means the answer restates the question, and the answer is refused. Red team 41
closed one list of inductive connectives no unfolding opens (Ensembles' ``Intersection``, ``Union``...,
Coq's ``inhabited`` and ``ex2``: ``ensemble_logic.py``), and that list only where the statement's text
spells ``Ensembles``. Any other inductive predicate that means its argument hid the question's condition
(``hA``) as well, each accepted on the full profile with the answer check ``unknown``, the library loaded
by the candidate's own ``Require`` (a permitted addition):

- ``Coq.Sets.Image.Im`` under the identity (``Im X f y`` is ``exists x, In X x /\\ y = f x``,
  ``theories/Sets/Image.v`` 41-42), alone, nested, and around an ``Intersection``;
- ``List.Forall P (n :: nil)`` and ``List.Exists P (n :: nil)`` (``theories/Lists/List.v``);
- ``clos_trans Z (fun _ m => P m) 7 n``, recursive yet equivalent to ``P n``
  (``theories/Relations/Relation_Operators.v`` 33-36);
- ``Intersection Z P (Full_set Z)`` on a statement that does not load Ensembles (the candidate does);
- the pinned ``putnam_2019_a1`` answered with its premise's condition under ``Im ... (fun x => x)``.

**The fix, by meaning.** The check's file now loads Ensembles for every set or predicate answer (never
imported; its hints are in its own ``sets`` database), so red team 41's rewrites always apply, with no test
of the statement's spelling. And where the logic step fails, a bounded search (``inductive_search.py``)
reads any *wrapper*: a proposition whose head Coq's ``is_ind`` says is an inductive type (not ``eq``,
``and``, ``or``, ``ex``), with an argument that is a proposition or a predicate, the only place a copied
condition can sit. It opens a wrapper hypothesis by ``inversion`` (or ``induction``, for a recursive one),
builds a wrapper goal by ``econstructor``, splits, applies a premise stated for every point, and closes by
``assumption``, ``reflexivity``, ``tauto``; depth 5, so it ends. Every step is checked by Coq, so an answer
it proves the theorem from means the question by logic and the inductive's constructors alone. A candidate
may declare no inductive of its own (refused by G2, G4 and G5 before and after, measured below).

**Measured.** Before: 8 of 8 attacks accepted (7 on a statement of one record, and the pinned one); after:
all 8 refused as restating the question. The 6 honest twins (the value ``{2}`` as the image of a singleton
and of an interval, ``Im`` of ``fun m => m = 2`` under the identity, ``Forall`` over ``n :: nil``,
``clos_trans`` of ``fun _ m => m = 2``, an ``Intersection`` with a ``Couple``): accepted before and after.
Red team 41's Ensembles table (5 attacks, 3 twins, the pinned one) unchanged; no official answer refused
(``test_rocq_restated.py -k official``: 182 of 182); the verdict snapshot unchanged.

**Left, by design (not measured as attacks).** A wrapper nested deeper than the search's depth, or under a
binder ``intros`` does not open (inside a universal's hypothesis the one-point rule does not remove); a copy
that needs classical reasoning through a wrapper (``~ Im Z Z (fun m => ~ P m) id n``: the search's closers
are intuitionistic); a recursive wrapper whose equivalence needs more than one ``induction``; a library
*definition* (no inductive) that means its argument, which the check does not unfold (a premise applied by
conversion finds the simplest ones).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.verify import Track
from tests.adversarial.test_rocq_redteam41 import A1_2019_INTERSECTION, ADMITTED, _answered
from tests.helpers import COQ_BENCH, failures, needs_coq, one_record_benchmark, pinned, rocq_full_verdict, sampled

PLAIN = """Require Import ZArith Lia.
Open Scope Z.
Definition t_solution : Z -> Prop := fun n => n = 2.
Theorem t (A : Z -> Prop) (hA : forall n : Z, A n <-> n * n = 4 /\\ n > 0) : A = t_solution.
"""
"""The question of red team 41's Ensembles table with no library of sets loaded by the statement: a candidate
may ``Require`` one itself (``policy``'s permitted additions), and the answer may use what it loads."""
PROOF = (
    "apply functional_extensionality; intro n; apply propositional_extensionality; rewrite hA; "
    "split; intro Hn.\n- {into}\n- {back}\n"
)
EXTRA = "Require Import Coq.Logic.FunctionalExtensionality Coq.Logic.PropExtensionality.\n"
LIBRARIES = "Require Import Coq.Lists.List Coq.Relations.Relations Coq.Sets.Ensembles Coq.Sets.Image.\n"
P = "(fun m : Z => m * m = 4 /\\ m > 0)"
"""The question's condition (``hA``), which each attack copies."""


def _candidate(statement: str, answer: str, into: str, back: str) -> str:
    """The statement answered with ``answer`` and proved by extensionality; the libraries the answer uses
    are loaded by the candidate, after the statement's own header."""
    header, _, rest = statement.partition("Open Scope Z.\n")
    opened = f"{header}{EXTRA}{LIBRARIES}Open Scope Z.\n{rest}"
    old = "fun n => n = 2"
    return _answered(opened, old, answer, PROOF.format(into=into, back=back))


WRAPPER_ATTACKS = {
    "Im under the identity": (
        f"fun n => Im Z Z {P} (fun x => x) n",
        "exists n; [exact Hn | reflexivity].",
        "destruct Hn as [x Hx y ->]. exact Hx.",
    ),
    "Im under id, nested": (
        f"fun n => Im Z Z (Im Z Z {P} id) (fun x => x) n",
        "exists n; [exists n; [exact Hn | reflexivity] | reflexivity].",
        "destruct Hn as [x Hx y ->]. destruct Hx as [z Hz x ->]. exact Hz.",
    ),
    "clos_trans of a relation that ignores its source": (
        f"fun n => clos_trans Z (fun _ m => {P} m) 7 n",
        "apply t_step. exact Hn.",
        "induction Hn as [x y H | x y z _ _ _ IH]; [exact H | exact IH].",
    ),
    "Forall over the one-element list": (
        f"fun n => Forall {P} (n :: nil)",
        "constructor; [exact Hn | constructor].",
        "inversion Hn; assumption.",
    ),
    "Exists over the one-element list": (
        f"fun n => Exists {P} (n :: nil)",
        "constructor. exact Hn.",
        "inversion Hn as [? ? H | ? ? H]; [exact H | inversion H].",
    ),
    "Intersection with Full_set, Ensembles loaded by the candidate only": (
        f"fun n => Intersection Z {P} (Full_set Z) n",
        "constructor; [exact Hn | constructor].",
        "destruct Hn as [x Hx _]. exact Hx.",
    ),
    "Im of an Intersection under the identity": (
        f"fun n => Im Z Z (Intersection Z {P} (Full_set Z)) (fun x => x) n",
        "exists n; [constructor; [exact Hn | constructor] | reflexivity].",
        "destruct Hn as [x Hx y ->]. destruct Hx as [x Hx _]. exact Hx.",
    ),
}
"""(answer, proof of ``A n -> answer n`` from ``Hn``, proof back): the question's condition copied into an
inductive predicate that means its argument, each of a library the candidate loads."""
WRAPPER_TWINS = {
    "the value as an Im of a singleton": (
        "Im Z Z (fun m => m = 1) (fun x => 2 * x)",
        "destruct Hn as [H1 H2]. exists 1; [reflexivity | nia].",
        "destruct Hn as [x Hx y ->]. unfold In in Hx. rewrite Hx. lia.",
    ),
    "the value as an Im of an interval": (
        "Im Z Z (fun m => 0 < m < 2) (fun x => x + 1)",
        "destruct Hn as [H1 H2]. exists 1; [unfold In; lia | nia].",
        "destruct Hn as [x Hx y ->]. unfold In in Hx. assert (x = 1) by lia. subst. lia.",
    ),
    "the value under the identity": (
        "Im Z Z (fun m => m = 2) (fun x => x)",
        "destruct Hn as [H1 H2]. exists n; [unfold In; nia | reflexivity].",
        "destruct Hn as [x Hx y ->]. unfold In in Hx. rewrite Hx. lia.",
    ),
    "the value as Forall over a one-element list": (
        "fun n => Forall (fun m => m = 2) (n :: nil)",
        "destruct Hn as [H1 H2]. constructor; [nia | constructor].",
        "inversion Hn; subst. lia.",
    ),
    "the value as clos_trans": (
        "fun n => clos_trans Z (fun _ m => m = 2) 7 n",
        "destruct Hn as [H1 H2]. apply t_step. nia.",
        "induction Hn as [x y H | x y z _ _ _ IH]; [subst; lia | exact IH].",
    ),
    "a finite set through Couple and an Intersection": (
        "Intersection Z (fun n => n > 0) (Couple Z 2 (-2))",
        "destruct Hn as [H1 H2]. assert (n = 2) by nia. subst. constructor; [unfold In; lia | constructor].",
        "destruct Hn as [x H1 H2]. unfold In in H1. inversion H2; subst; lia.",
    ),
}
"""(answer, proofs): the value ``{2}`` written with the same inductives, which logic alone does not prove the
theorem from: accepted before and after."""


@needs_coq
@pytest.mark.parametrize(("answer", "into", "back"), sampled(WRAPPER_ATTACKS, {"Im under the identity"}))
def test_a_condition_copied_into_an_inductive_wrapper_restates_the_question(
    tmp_path: Path, answer: str, into: str, back: str
) -> None:
    bench = one_record_benchmark(tmp_path, "t", PLAIN + ADMITTED)
    verdict = rocq_full_verdict(bench, "t", _candidate(PLAIN, answer, into, back), Track.NO_ANSWER)
    found = failures(verdict)
    assert verdict.status == "rejected" and "restates the question" in found.get("G4", ""), found


@needs_coq
@pytest.mark.parametrize(("answer", "into", "back"), sampled(WRAPPER_TWINS, {"the value as an Im of a singleton"}))
def test_a_value_stated_with_inductive_wrappers_passes(tmp_path: Path, answer: str, into: str, back: str) -> None:
    bench = one_record_benchmark(tmp_path, "t", PLAIN + ADMITTED)
    verdict = rocq_full_verdict(bench, "t", _candidate(PLAIN, answer, into, back), Track.NO_ANSWER)
    assert verdict.status == "accepted", failures(verdict)


OWN_WRAPPER = """Require Import ZArith Lia.
Require Import Coq.Logic.FunctionalExtensionality Coq.Logic.PropExtensionality.
Open Scope Z.
Inductive zz_wrap (P : Prop) : Prop := zz_in : P -> zz_wrap P.
Definition t_solution : Z -> Prop := fun n => zz_wrap (n * n = 4 /\\ n > 0).
Theorem t (A : Z -> Prop) (hA : forall n : Z, A n <-> n * n = 4 /\\ n > 0) : A = t_solution.
Proof.
apply functional_extensionality; intro n; apply propositional_extensionality; rewrite hA; split; intro Hn.
- constructor. exact Hn.
- destruct Hn as [Hn]. exact Hn.
Qed.
"""
"""The condition in a wrapper the candidate declares itself: the policy lets a candidate declare no type
(``statement.own_types``: Coq 8.16's kernel bugs need one), and the answer may use nothing the candidate
declares (``answer_env``)."""


@needs_coq
def test_a_wrapper_the_candidate_declares_is_refused(tmp_path: Path) -> None:
    verdict = rocq_full_verdict(
        one_record_benchmark(tmp_path, "t", PLAIN + ADMITTED), "t", OWN_WRAPPER, Track.NO_ANSWER
    )
    found = failures(verdict)
    assert verdict.status == "rejected" and {"G2", "G4", "G5"} <= set(found), found


A1_2019_IM = (
    A1_2019_INTERSECTION.replace(
        "Require Import ZArith Ensembles Coquelicot.Coquelicot.\n",
        "Require Import ZArith Ensembles Coquelicot.Coquelicot.\nRequire Import Coq.Sets.Image.\n",
    )
    .replace("Intersection Z (fun n =>", "Im Z Z (fun n =>")
    .replace("(Full_set Z).", "(fun x => x).")
    .replace(
        "  - constructor; [apply hA; exact Hn | constructor].\n  - destruct Hn as [n Hn _]. apply hA. exact Hn.\n",
        "  - exists n; [apply hA; exact Hn | reflexivity].\n  - destruct Hn as [x Hx y ->]. apply hA. exact Hx.\n",
    )
)
"""The pinned ``putnam_2019_a1`` answered with its own premise's condition, the image of it under the
identity (red team 41's ``Intersection`` attack, with a wrapper no list names)."""


@needs_coq
@pytest.mark.slow
def test_the_pinned_condition_under_an_image_is_refused() -> None:
    assert "Im Z Z" in A1_2019_IM and "(fun x => x)." in A1_2019_IM and "exists n;" in A1_2019_IM
    verdict = rocq_full_verdict(pinned(COQ_BENCH), "putnam_2019_a1", A1_2019_IM, Track.NO_ANSWER)
    found = failures(verdict)
    assert verdict.status == "rejected" and "restates the question" in found.get("G4", ""), found
