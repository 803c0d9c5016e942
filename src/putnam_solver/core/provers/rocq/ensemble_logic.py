"""Inductive connectives read as logic, for the restatement check (``restated.py``).

``restated.py`` reads a set or predicate answer by unfolding it (``In``, ``Complement``, ``Setminus``,
``Add``, ``Subtract`` are definitions of ``Coq.Sets.Ensembles``) and then by logic alone. Ensembles'
``Intersection``, ``Union``, ``Full_set``, ``Empty_set``, ``Singleton``, ``Couple``, ``Triple``,
``Disjoint`` and ``Inhabited`` are inductive types (``theories/Sets/Ensembles.v``), which no unfolding opens:
``putnam_2019_a1``'s own condition copied as ``Intersection Z (fun n => <the condition>) (Full_set Z)`` hid it
from ``tauto``, and was accepted on the full profile with its answer ``unknown`` (red team 41). Each is
rewritten to the connective it means, by an equivalence the file proves in place, before the one-point rule.
So are the two of Coq's own logic that ``tauto`` and the one-point rule do not read, ``inhabited P`` (``P``)
and ``exists2 x, P x & Q x`` (``exists x, P x /\\ Q x``), in every statement.
"""

from __future__ import annotations

NAME = "__putnam_ensemble"
ENSEMBLES = "Coq.Sets.Ensembles"
"""Loaded (never imported) by the check's file for every set or predicate answer, so that these lemmas can
always be stated: a candidate may ``Require`` Ensembles for its answer where the statement does not, and
a test of the statement's text missed that answer (red team 42). Loading it adds hints to its own ``sets``
database only (``theories/Sets/Ensembles.v`` 96-103), which no tactic of the check consults."""
_E, _IFF, _AND, _OR, _EQ = (
    ENSEMBLES,
    "Coq.Init.Logic.iff",
    "Coq.Init.Logic.and",
    "Coq.Init.Logic.or",
    "Coq.Init.Logic.eq",
)
LOGIC_CONNECTIVES = (
    (
        f"forall P : Prop, {_IFF} (Coq.Init.Logic.inhabited P) P",
        "intros; split; intro H; [destruct H as [H]; exact H | exact (Coq.Init.Logic.inhabits H)]",
    ),
    (
        f"forall (A : Type) (P Q : A -> Prop), {_IFF} (Coq.Init.Logic.ex2 P Q) "
        f"(Coq.Init.Logic.ex (fun x : A => {_AND} (P x) (Q x)))",
        "intros; split; intro H; [destruct H as [x H1 H2]; exists x; split; assumption "
        "| destruct H as [x [H1 H2]]; exists x; assumption]",
    ),
)
"""``Coq.Init.Logic``'s ``inhabited`` and ``ex2`` (``theories/Init/Logic.v``), each with the logic it means and
its proof: ``fun n => inhabited (<the condition>)`` and ``exists2 m, m = n & <the condition>`` hid a copy."""
ENSEMBLE_CONNECTIVES = (
    (
        f"forall (U : Type) (A B : U -> Prop) (x : U), {_IFF} ({_E}.Intersection U A B x) ({_AND} (A x) (B x))",
        "intros; split; intro H; [destruct H; split; assumption | destruct H; constructor; assumption]",
    ),
    (
        f"forall (U : Type) (A B : U -> Prop) (x : U), {_IFF} ({_E}.Union U A B x) ({_OR} (A x) (B x))",
        "intros; split; intro H; destruct H; [left | right | left | right]; assumption",
    ),
    (
        f"forall (U : Type) (x : U), {_IFF} ({_E}.Full_set U x) Coq.Init.Logic.True",
        "intros; split; intro; [exact Coq.Init.Logic.I | constructor]",
    ),
    (
        f"forall (U : Type) (x : U), {_IFF} ({_E}.Empty_set U x) Coq.Init.Logic.False",
        "intros; split; intro H; destruct H",
    ),
    (
        f"forall (U : Type) (a x : U), {_IFF} ({_E}.Singleton U a x) ({_EQ} a x)",
        "intros; split; intro H; destruct H; [reflexivity | constructor]",
    ),
    (
        f"forall (U : Type) (a b x : U), {_IFF} ({_E}.Couple U a b x) ({_OR} ({_EQ} a x) ({_EQ} b x))",
        "intros; split; intro H; [destruct H; [left | right]; reflexivity | destruct H as [H | H]; destruct H; "
        "constructor]",
    ),
    (
        f"forall (U : Type) (a b c x : U), {_IFF} ({_E}.Triple U a b c x) "
        f"({_OR} ({_EQ} a x) ({_OR} ({_EQ} b x) ({_EQ} c x)))",
        "intros; split; intro H; [destruct H; [left | right; left | right; right]; reflexivity "
        "| destruct H as [H | [H | H]]; destruct H; constructor]",
    ),
    (
        f"forall (U : Type) (A B : U -> Prop), {_IFF} ({_E}.Disjoint U A B) "
        f"(forall x : U, Coq.Init.Logic.not ({_AND} (A x) (B x)))",
        f"intros; split; intro H; [destruct H as [H]; intros x [H1 H2]; exact (H x ({_E}.Intersection_intro U A B "
        "x H1 H2)) | constructor; intros x Hx; destruct Hx as [x H1 H2]; exact (H x (Coq.Init.Logic.conj H1 H2))]",
    ),
    (
        f"forall (U : Type) (A : U -> Prop), {_IFF} ({_E}.Inhabited U A) (Coq.Init.Logic.ex (fun x : U => A x))",
        "intros; split; intro H; destruct H as [x H]; exists x; exact H",
    ),
)
"""Each connective's equivalence with the logic it means, and the tactic that proves it (each constructor's
arguments as ``Ensembles.v`` declares them)."""


def inductive_rewrites() -> str:
    """The rewrites of :data:`LOGIC_CONNECTIVES` and :data:`ENSEMBLE_CONNECTIVES` (``ENSEMBLES`` is loaded),
    on the goal with its binders. Each rewrite removes one connective, so ``repeat`` ends."""
    lemmas = (*LOGIC_CONNECTIVES, *ENSEMBLE_CONNECTIVES)
    names = [f"{NAME}{i}" for i in range(len(lemmas))]
    proved = "".join(f"assert ({n} : {lemma}) by ({proof}); " for n, (lemma, proof) in zip(names, lemmas, strict=True))
    rewrites = " | ".join(f"setoid_rewrite {n}" for n in names)
    # in a `try`: where the lemmas cannot be stated, the check goes on as it did without them
    return f"try ({proved}repeat first [ {rewrites} ]; clear {' '.join(names)}); cbv beta; "
