"""Any inductive predicate read as logic, by a bounded search, for the restatement check (``restated.py``).

``ensemble_logic.py`` rewrites a fixed list of inductive connectives (Ensembles' ``Intersection``...,
Coq's ``inhabited`` and ``ex2``) to the logic they mean. A list cannot name every inductive predicate that
means its argument: ``Coq.Sets.Image.Im`` under the identity (``Im X f y`` holds when ``y = f x`` for some
``x`` in ``X``, ``theories/Sets/Image.v`` 41-42), ``List.Forall P (n :: nil)``, ``List.Exists`` of it,
``clos_trans`` of a relation that ignores its source (``theories/Relations/Relation_Operators.v`` 33-36:
recursive, yet ``clos_trans R x y <-> P y`` when ``R _ y := P y``), or one of these around another (red
team 42: each accepted on the full profile with the question's own condition inside, a candidate loading
the library with its own ``Require``). So the check reads any of them by meaning: where the logic step
failed, and only where the goal or a hypothesis holds a *wrapper* (``WRAPPER``: a proposition whose head is
an inductive type, as Coq's ``is_ind`` says, applied to an argument that is itself a proposition or a
predicate, the only place a copied condition can sit; ``eq``, ``and``, ``or`` and ``ex`` are logic's own),
a bounded search (``SEARCH``) opens each wrapper in a hypothesis by ``inversion`` (or ``induction``, for a
recursive one: its hypotheses are the wrapper again), builds one in the goal by ``econstructor``,
splits an equivalence, applies a premise that states the condition for every point, and closes each
branch by ``assumption``, ``reflexivity``, ``tauto`` or a premise applied at the point, with the set
membership definitions unfolded again after each step. Every step is a proof step Coq checks, so what it
proves is true: an answer it proves the theorem from means what the question says, by logic and the
inductive's own constructors alone. An honest answer's wrapper (the value ``{2}`` as ``Im Z Z (fun m => m
= 1) (fun x => 2 * x)``, an interval's image, a singleton list's ``Forall``) leaves arithmetic the search
does not do, so it fails there (red team 42's twins, and every official answer, ``-k official``).

Its depth (``DEPTH`` steps on any branch) bounds it, so it ends; a wrapper nested ``DEPTH`` deep is left (as
is one under a binder no ``intros`` opens: the search runs on the goal with its binders introduced).
"""

from __future__ import annotations

LOGIC = "Coq.Init.Logic"
HEAD, PROP_VALUED, PREDICATE_ARGUMENT, WRAPPER, CLOSE, SEARCH = (
    "__putnam_head",
    "__putnam_prop_valued",
    "__putnam_predicate_argument",
    "__putnam_wrapper",
    "__putnam_wrapped_close",
    "__putnam_wrapped",
)
DEPTH = 5
"""The search's steps on a branch: red team 42 nests two wrappers (``Im`` of an ``Im``, of an
``Intersection``), each opened in one step and built in another, beside the split and the premise. A
recursive wrapper makes the search grow with its depth (``clos_trans``, measured with coqc 8.16: with
``inversion`` alone a depth-6 search failed after 5 s of processor time; with ``induction`` beside it the
copy is found in 0.2 s at depth 4)."""
_NOT_WRAPPERS = (f"@{LOGIC}.eq", f"{LOGIC}.and", f"{LOGIC}.or", f"@{LOGIC}.ex")
WRAPPER_TACTICS = (
    f"Ltac {HEAD} t := lazymatch t with ?f _ => {HEAD} f | _ => t end.",
    f"Ltac {PROP_VALUED} T := let T := eval hnf in T in lazymatch T with Prop => idtac "
    f"| ?A -> ?B => {PROP_VALUED} B | forall _, _ => match T with context [Prop] => idtac end end.",
    f"Ltac {PREDICATE_ARGUMENT} t := lazymatch t with ?f ?a => first [ let A := type of a in {PROP_VALUED} A "
    f"| {PREDICATE_ARGUMENT} f ] end.",
    f"Ltac {WRAPPER} T := let h := {HEAD} T in is_ind h; lazymatch h with "
    + "".join(f"| {w} => fail " for w in _NOT_WRAPPERS)
    + f"| _ => idtac end; let S := type of T in lazymatch S with Prop => idtac end; {PREDICATE_ARGUMENT} T.",
)
"""The test of a wrapper, as Ltac definitions of the harness's file: the head of the application (``HEAD``)
is an inductive type (``is_ind``), not one of logic's own, the term is a proposition, and some argument's
type, in head normal form, is ``Prop`` or a function type that ends in ``Prop`` (``PROP_VALUED``:
``Ensemble Z`` is ``Z -> Prop``). ``Singleton Z 2 n`` and ``n <= 3`` (``le``) have no such argument: no
condition can sit in them, and the search never starts for them."""


def search_tactics(unfold: str) -> list[str]:
    """The search's Ltac definitions; ``unfold`` is the check's reading of set membership (``restated.py``'s
    membership rounds), run again after each step, since a constructor's premises name ``In`` afresh."""
    close = (
        f"Ltac {CLOSE} := first [ assumption | reflexivity | tauto "
        "| (match goal with H : _ |- _ => solve [ apply H; assumption ] end) ]."
    )
    step = f"{SEARCH} k"
    destruct = " | ".join(f"{LOGIC}.{c} => destruct H" for c in ("and _ _", "or _ _"))
    search = (
        f"Ltac {SEARCH} n := intros; subst; {unfold}first [ solve [ {CLOSE} ] "
        "| lazymatch n with Coq.Init.Datatypes.S ?k => first [ "
        f"match goal with H : ?T |- _ => {WRAPPER} T; first [ (inversion H; clear H; subst; {step}) "
        f"| (induction H; {step}) ] end "
        f"| match goal with H : ?T |- _ => lazymatch T with @{LOGIC}.ex _ _ => destruct H | {destruct} end; "
        f"{step} end "
        f"| match goal with |- ?T => {WRAPPER} T; econstructor; {step} end "
        f"| match goal with |- {LOGIC}.iff _ _ => split; {step} end "
        f"| match goal with H : forall _, {LOGIC}.iff _ _ |- _ => apply H; {step} end "
        f"| (eexists; {step}) | (split; {step}) ] end ]."
    )
    return [*WRAPPER_TACTICS, close, search]


def wrapped() -> str:
    """The search as one alternative of the logic step: only where some wrapper stands in the goal or a
    hypothesis (a subterm free of bound variables: Ltac's ``context`` never matches one with them), from
    depth ``DEPTH``."""
    depth = "Coq.Init.Datatypes.O"
    for _ in range(DEPTH):
        depth = f"(Coq.Init.Datatypes.S {depth})"
    trigger = f"match goal with |- context [?T] => {WRAPPER} T | H : context [?T] |- _ => {WRAPPER} T end"
    return f"solve [ {trigger}; {SEARCH} {depth} ]"
