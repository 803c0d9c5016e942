"""The restatement check's unfoldings of library definitions, by what the check's file has loaded (round 43).

The restatement check (``restated.py``) unfolds identity functions with the answer (``fun k => id (<the
expression asked for>)`` is the copy itself) and reads set membership as application (MathComp's
``in_setE``, then ``[set x | P x]``, ``A `&` B``..., Ensembles' ``In``...). A name Coq cannot find stops the
file, so each library's names were written only where the statement's *text* spelled the library
(``"classical_sets" in statement.text``). But what the file has loaded is not what the statement spells: a
statement that loads MathComp's ``reals`` loads ``classical_sets`` with it, and a candidate may ``Require``
a library itself (a permitted addition, replayed in the check's file: ``answer_env``). So ``putnam_1977_a2``
answered with its own question as ``fun a b c d => a \\in [set a' : R | a' + b + c = d /\\ ...]`` (the
candidate importing ``classical_sets``) passed the check: the membership was never rewritten.

Now each name is looked up when the tactic runs, in the file's own context, by Ltac2's ``Env.get``
(``Ltac2/Env.v`` 13: ``Ltac2 @ external get : ident list -> Std.reference option``): a loaded constant is
unfolded or rewritten with, a library not loaded is skipped, whatever the statement's text says, and the
same text no longer decides it. Ltac2 is loaded, never imported (its ``Init.v`` sets the proof mode
``#[export]``), and the tactics live in a module of their own that imports it, so the file's other steps
stay in Ltac1; an ``Ltac2 Eval`` runs each lookup once when the module is defined, so a mistake in it stops
the file (an ``error``) rather than reading as no copy inside the step's ``first``. The rewrite is tried as
Ltac1's ``try`` does, committed (``Control.once`` around ``Control.plus``): a bare ``Control.plus`` backtracks
into its handler whenever a later tactic fails, and inside the bounded search (``inductive_search``) that
tripled the step's processor time on the official answers (``putnam_1974_a3``: 5.5 s before this module,
15.9 s with a bare ``plus``, 6.4 s committed; ``putnam_1962_a2``: 9.4, 35.5, 10.7; measured with the step's
time limit raised).
"""

from __future__ import annotations

IDENTITIES = ("Coq.Init.Datatypes.id", "Coq.Reals.Ranalysis1.id", "Coq.ssr.ssrfun.idfun")
"""Identity functions unfolded with the answer, wherever loaded (``Datatypes.v``'s ``id``, ``Ranalysis1.v``'s
``id``, ``ssrfun.v``'s ``idfun``)."""
MEMBERSHIP = "mathcomp.classical.classical_sets.in_setE"
"""``x \\in A = A x :> Prop`` for MathComp's classical sets: set membership read as application."""
MEMBERSHIP_WRAPPERS = (
    *(f"mathcomp.classical.classical_sets.{name}" for name in ("mkset", "setI", "setU", "setC", "setD")),
    *(f"mathcomp.classical.classical_sets.{name}" for name in ("setT", "set0")),
    *(f"Coq.Sets.Ensembles.{name}" for name in ("In", "Complement", "Setminus", "Add", "Subtract")),
)
"""The definitions set membership unfolds to (``[set x | P x]``, ``In _ A x``), wherever loaded. Unfolded, a
copied condition shows its connectives to ``tauto``, as does a copy spelled with the sets' Boolean
operations (``A `&` setT``, ``~` [set x | ~ P x]``)."""
MODULE = "Putnam_loaded"
"""The environment file's module that imports Ltac2 and defines the tactics."""


def ltac2_path(name: str) -> str:
    """A full name as Ltac2's identifier list (``[@Coq; @Init; @Datatypes; @id]``)."""
    return "[" + "; ".join("@" + part for part in name.split(".")) + "]"


def _constants(names: tuple[str, ...]) -> str:
    """An Ltac2 expression: the references of ``names`` that are loaded constants, in order."""
    paths = "; ".join(ltac2_path(name) for name in names)
    return (
        "List.fold_right (fun p acc => match Env.get p with | Some r => match r with "
        f"| Std.ConstRef _ => r :: acc | _ => acc end | None => acc end) [] [{paths}]"
    )


def loaded_sentences() -> list[str]:
    """The Ltac2 tactics ``identities`` (``cbv beta delta`` of :data:`IDENTITIES` in every hypothesis and the
    goal) and ``membership`` (``try rewrite ?in_setE`` in the goal, then ``cbv beta delta`` of
    :data:`MEMBERSHIP_WRAPPERS` everywhere), each over what is loaded."""
    everywhere = "{ Std.on_hyps := None; Std.on_concl := Std.AllOccurrences }"
    flags = (
        "{ Std.rBeta := true; Std.rMatch := false; Std.rFix := false; Std.rCofix := false; Std.rZeta := false; "
        "Std.rDelta := false; Std.rConst := refs }"
    )
    rewriting = (
        "{ Std.rew_orient := Some Std.LTR; Std.rew_repeat := Std.RepeatStar; "
        "Std.rew_equatn := (fun () => (Env.instantiate r, Std.NoBindings)) }"
    )
    goal = "{ Std.on_hyps := Some []; Std.on_concl := Std.AllOccurrences }"
    return [
        "Require Ltac2.Ltac2.",
        f"Module {MODULE}.",
        "Import Ltac2.Ltac2.",
        f"Ltac2 identity_refs () := {_constants(IDENTITIES)}.",
        f"Ltac2 wrapper_refs () := {_constants(MEMBERSHIP_WRAPPERS)}.",
        f"Ltac2 membership_ref () := Env.get {ltac2_path(MEMBERSHIP)}.",
        f"Ltac2 unfold_refs refs := Std.cbv {flags} {everywhere}.",
        "Ltac2 identities () := unfold_refs (identity_refs ()).",
        "Ltac2 membership () := (match membership_ref () with | Some r => Control.once (fun () => Control.plus "
        f"(fun () => Std.rewrite false [{rewriting}] {goal} None) (fun _ => ())) | None => () end); "
        "unfold_refs (wrapper_refs ()).",
        "Ltac2 Eval let _ := identity_refs () in let _ := wrapper_refs () in let _ := membership_ref () in ().",
        f"End {MODULE}.",
    ]


IDENTITY_TACTIC = f"ltac2:({MODULE}.identities ())"
"""The Ltac1 tactic that unfolds the loaded identity functions everywhere."""
MEMBERSHIP_TACTIC = f"ltac2:({MODULE}.membership ())"
"""The Ltac1 tactic that reads the loaded libraries' set membership as application everywhere."""
