"""Red team 20 on the Rocq side: spellings no earlier round wrote, through real coqc and coqchk.

Tried (about 120 candidates): on ``putnam_1962_a6`` (with-answer, full profile) ``#[local] Obligation
Tactic := admit``, ``Program`` with ``Admit Obligations``/``Next Obligation. Admitted.``/``Solve All
Obligations with admit``, ``Primitive``, ``Register``, ``Extraction`` to a file, ``Strategy``/``Local
Strategy``, ``Canonical Structure``, ``Coercion``, ``Arguments``, ``From Ltac2 Require``, ``Set Printing
All``, ``Module Type`` with a ``Parameter`` and a functor, ``Declare Module``, a ``Section``'s ``Variable``
left open around the theorem, a top-level ``Let`` or ``Context``, ``#[local]``/``Polymorphic Axiom``,
``From Coq Require Export``, ``Load``, ``Cd``, ``Add LoadPath``, ``Redirect``, ``Time``/``Fail Fail``/
``Succeed``/``Timeout`` around an ``Axiom``, ``Abort``, ``Abort All``, ``Back``, ``Reset``, ``Reset
Initial``, ``Undo``, ``Drop``, ``Quit``, comments holding strings with ``*)`` and strings holding ``(*``,
a look-alike theorem name, the theorem renamed with an alias, ``Cumulative Polymorphic Inductive``,
``Set``/``Unset Primitive Projections``, ``Unset Elimination Schemes``, ``Typeclasses Opaque``,
``Existing Instance``, ``Export Set``, ``bypass_check``, ``Declare Instance``/``Scope``/``Reduction``,
``Delimit``/``Bind Scope``, ``Universe``/``Constraint``, ``Set Universe Polymorphism``, ``Set Default
Proof Using``, ``Unset Strict Universe Declaration``, ``Save``, ``Fail Qed``, ``Prenex Implicits``,
``Number``/``String``/``Disable``/``Format Notation``, ``Undelimit Scope``, ``Declare Custom Entry``,
``Identity Coercion``, ``SubClass``, ``Scheme``, ``Combined Scheme``, ``Derive Inversion``, ``Functional
Scheme``, ``Declare Left Step``, the theorem as a ``Fact``, ``Local Theorem`` or universe-polymorphic; and on
the vacuous ``putnam_2013_b2`` (no-answer, where only the answer check's ``differs`` keeps a wrong answer
from ``accepted``) settings that ``Require`` replays in the answer check's file: ``Ltac lra := fail``
(a new name, not a redefinition), ``#[global] Hint Extern ... : core``, ``Global Open Scope``,
``Typeclasses eauto``, ``Hint Unfold``, a plain ``Opaque``, and ``Arguments`` in many forms.

Found: a bare ``Arguments`` of a library constant before the theorem. G2 left it to G5 (it can change
how the statement elaborates, which G5 judges), but ``Require`` replays it in every file that loads the
candidate, and the no-answer answer check is such a file: ``Arguments Rtrigo_def.exp _%nat_scope``
stopped the check's own lemmas about ``exp`` from elaborating, ``Arguments Pos.succ : simpl never`` its
``cbn`` of ``INR 4``, ``Arguments R_sqrt.sqrt_pos {x}`` its facts about ``sqrt``. The wrong answers
``sqrt 10`` and ``INR 4`` to the vacuous ``putnam_2013_b2`` were then ``unknown`` and the verdict
``accepted`` on the full profile instead of ``disputed``. Red team 14 closed this route for ``Strategy``
and ``Global Opaque``, red team 15 for tactic redefinitions; ``Arguments`` was refused only after the
theorem. Now it is refused before the theorem too unless ``Local`` or in a section (``vernacular.
replayed_before_theorem``: measured, neither reaches a file that only ``Require``s the candidate). Every
other attack above was refused by the gate the table names.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.adversarial.test_rocq_redteam14 import check_status, vacuous, verdict
from tests.adversarial.test_rocq_redteam15 import compile_pair
from tests.helpers import COQ_BENCH, failures, needs_coq, pinned

REPLAYED_ARGUMENTS = "write `Local Arguments`"


def before_solution(setting: str, answer: str) -> str:
    """The vacuous problem's published proof answering ``answer``, with ``setting`` before the answer."""
    text = vacuous(answer)
    return text.replace("Definition putnam_2013_b2_solution", f"{setting}\nDefinition putnam_2013_b2_solution", 1)


def stopping(problem: str, candidate: str, profile: Profile, track: Track) -> Verdict:
    """The gates of ``profile``, stopping at the first that fails (as ``putnam verify`` does)."""
    bench = pinned(COQ_BENCH)
    options = VerifyOptions(profile=profile)
    return run_gates(get_prover("rocq"), bench, bench.problems[problem], candidate.encode(), track, options)


ARGUMENTS = {
    "argument scope of exp": ("Arguments Rtrigo_def.exp _%nat_scope.", "sqrt 10"),
    "simpl never on Pos.succ": ("Arguments BinPosDef.Pos.succ : simpl never.", "INR 4"),
    "an implicit argument of sqrt_pos": ("Arguments R_sqrt.sqrt_pos {x}.", "sqrt 10"),
    "Global Arguments": ("Global Arguments Rtrigo_def.exp _%nat_scope.", "sqrt 10"),
    "behind Time": ("Time Arguments Rtrigo_def.exp _%nat_scope.", "sqrt 10"),
    "after a Program definition": ("Program Definition zz := 1.\nArguments Rtrigo_def.exp _%nat_scope.", "sqrt 10"),
    "#[global] in a section": ("Section zz.\n#[global] Arguments R_sqrt.sqrt_pos {x}.\nEnd zz.", "sqrt 10"),
}


@pytest.mark.parametrize("case", sorted(ARGUMENTS))
def test_replayed_arguments_of_a_library_constant_are_refused_on_every_profile(case: str) -> None:
    setting, answer = ARGUMENTS[case]
    for profile in (Profile.TEXT, Profile.FULL):
        v = stopping("putnam_2013_b2", before_solution(setting, answer), profile, Track.NO_ANSWER)
        assert v.status == "rejected", (profile, v.status)
        assert REPLAYED_ARGUMENTS in failures(v).get("G2", ""), (profile, failures(v))


@needs_coq
def test_without_the_rule_the_wrong_answer_would_have_been_accepted() -> None:
    """Every gate but G2 passes, and the answer check, whose lemmas about ``exp`` no longer elaborate, can
    tell nothing: before red team 20 this verdict was ``accepted`` (with ``sqrt 10`` for ``3``)."""
    v = verdict(before_solution("Arguments Rtrigo_def.exp _%nat_scope.", "sqrt 10"))
    assert [g.id for g in v.gates if g.status is not GateStatus.PASSED] == ["G2"], failures(v)
    assert check_status(v) == "unknown"


LOCAL_ARGUMENTS = {
    "Local": "Local Arguments Rtrigo_def.exp _%nat_scope.",
    "in a section": "Section zz.\nArguments Rtrigo_def.exp _%nat_scope.\nEnd zz.",
}


@needs_coq
@pytest.mark.parametrize("case", sorted(LOCAL_ARGUMENTS))
def test_arguments_that_stay_in_the_candidate_file_leave_the_answer_check_alone(case: str) -> None:
    """The near-neighbours: allowed on the full profile, and the wrong answer is still proved different."""
    v = verdict(before_solution(LOCAL_ARGUMENTS[case], "sqrt 10"))
    assert v.status == "disputed" and check_status(v) == "differs", (v.status, failures(v))


@needs_coq
def test_what_require_replays_of_arguments(tmp_path: Path) -> None:
    """The premise, measured with coqc: a bare ``Arguments`` of a library constant changes how a file that
    only ``Require``s the candidate reads ``exp (1/8)``; a ``Local`` one or one in a section does not."""
    loader = "Require T.C.\nRequire Import Reals.\nLocal Open Scope R_scope.\nCheck (exp (1/8)).\n"
    head = "Require Import Reals.\n"
    bare = compile_pair(tmp_path, head + "Arguments Rtrigo_def.exp _%nat_scope.\n", loader)
    assert bare.returncode != 0, bare.stdout
    for kept in ("Local Arguments Rtrigo_def.exp _%nat_scope.\n", LOCAL_ARGUMENTS["in a section"] + "\n"):
        run = compile_pair(tmp_path, head + kept, loader)
        assert run.returncode == 0, (kept, run.stderr)


# ------------------------------------------------------------------ other spellings, all refused

PROOF = "Proof. intros. destruct (hSScond 1) as [[h|[h|h]] [h2 _]]; [tauto|tauto|discriminate]. Qed."
"""A proof of the upstream ``putnam_1962_a6`` (its hypotheses contradict each other at ``r = 1``)."""
USE = "Proof. intros; exfalso; exact zz_ax. Qed."


def a6(before: str = "", proof: str = PROOF, after: str = "") -> str:
    text = get_prover("rocq").challenge(pinned(COQ_BENCH).problems["putnam_1962_a6"], Track.WITH_ANSWER)
    head, rest = text.split("Theorem", 1)
    return head + before + "Theorem" + rest.replace("Proof. Admitted.", proof) + after


PROGRAM = "Program Definition zz_ax : False := _.\n"
MODULE_TYPE = "Module Type ZZ. Parameter zz_ax : False. End ZZ.\n"
USING_AN_ASSUMPTION: dict[str, str] = {
    "#[local] Obligation Tactic := admit": "#[local] Obligation Tactic := admit.\n" + PROGRAM,
    "Admit Obligations": "Program Definition zz_ax : False := _.\nAdmit Obligations.\n",
    "Next Obligation. Admitted.": "Program Definition zz_ax : False := _.\nNext Obligation. Admitted.\n",
    "Solve All Obligations with admit": "Program Definition zz_ax : False := _.\nSolve All Obligations with admit.\n",
    "Primitive": "Primitive zz_ax : False := #int63_type.\n",
    "Declare Module": MODULE_TYPE + "Declare Module M : ZZ.\nDefinition zz_ax := M.zz_ax.\n",
    "a top-level Let proved by admit": "Let zz_ax : False := ltac:(admit).\n",
    "Context": "Context (zz_ax : False).\n",
    "#[local] Axiom": "#[local] Axiom zz_ax : False.\n",
    "Polymorphic Axiom": "Polymorphic Axiom zz_ax : False.\n",
    "Time Axiom": "Time Axiom zz_ax : False.\n",
    "Fail Fail Axiom": "Fail Fail Axiom zz_ax : False.\n",
    "Succeed Axiom": "Succeed Axiom zz_ax : False.\n",
    "Timeout Axiom": "Timeout 5 Axiom zz_ax : False.\n",
    "an axiom between comments holding strings": '(* "*)" *) Axiom zz_ax : False. (* "(*" *)\n',
    "an axiom between strings holding comment marks": 'Definition zzs := "(*".\nAxiom zz_ax : False.\n'
    'Definition zzt := "*)".\n',
    "Declare Instance": "Declare Instance zz_ax : False.\n",
}
"""Additions before the theorem that declare ``zz_ax : False``, which the proof (``USE``) then uses."""

BEFORE_THE_THEOREM: dict[str, str] = {
    "Number Notation": "Definition zzof (x : Number.uint) : option Q := Some 0.\n"
    "Definition zzto (q : Q) : option Number.uint := None.\nNumber Notation Q zzof zzto : Q_scope.\n",
    "String Notation": "String Notation nat zzof zzto : nat_scope.\n",
    "Disable Notation": 'Disable Notation "x > y".\n',
    "Format Notation": 'Format Notation "x > y" "x > y".\n',
    "Undelimit Scope": "Undelimit Scope Q_scope.\n",
    "Declare Custom Entry": "Declare Custom Entry zz.\n",
    "Identity Coercion": "Definition zzT := Q.\nIdentity Coercion zzid : zzT >-> Q.\n",
    "SubClass": "SubClass zzT := Q.\n",
    "Scheme": "Scheme zz_ind := Induction for nat Sort Prop.\n",
    "Combined Scheme": "Combined Scheme zz from nat_ind.\n",
    "Derive Inversion": "Derive Inversion zz with (le 0 0).\n",
    "Functional Scheme": "Functional Scheme zz := Induction for Nat.add Sort Prop.\n",
    "Declare Left Step": "Declare Left Step Qle_trans.\n",
    "Set Firstorder Depth": "Set Firstorder Depth 1.\n",
    "Register": "Register False as core.True.type.\n",
    "Extraction to a file": 'Require Extraction.\nExtraction "/tmp/zz.ml" nat.\n',
    "Canonical Structure": "Canonical Structure zz := Build_Q.\n",
    "Coercion": "Definition zzc (b : bool) : Q := 0.\nCoercion zzc : bool >-> Q.\n",
    "Ltac2": "From Ltac2 Require Import Ltac2.\nLtac2 Eval ().\n",
    "Module Type with a Parameter": MODULE_TYPE + "Module Z2 (M : ZZ). Definition zz_ax := M.zz_ax. End Z2.\n",
    "Load": 'Load "zz".\n',
    "Cd": 'Cd "/tmp".\n',
    "Add LoadPath": 'Add LoadPath "/tmp" as ZZ.\n',
    "Redirect": 'Redirect "/tmp/zz" Print nat.\n',
    "Abort": "Lemma zz_ax : False.\nAbort.\n",
    "Back": "Back.\n",
    "Drop": "Drop.\n",
    "Cumulative Polymorphic Inductive": "Cumulative Polymorphic Inductive zzT := zzC.\n",
    "Set Primitive Projections": "Set Primitive Projections.\n",
    "Unset Elimination Schemes": "Unset Elimination Schemes.\n",
    "Typeclasses Opaque": "Typeclasses Opaque Qplus.\n",
    "Existing Instance": "#[global] Existing Instance Qeq_setoid.\n",
    "Export Set": "Export Set Universe Checking.\n",
    "Declare Reduction": "Declare Reduction zzr := cbv.\n",
    "Delimit Scope": "Delimit Scope nat_scope with Q.\n",
    "Bind Scope": "Bind Scope nat_scope with Q.\n",
    "Universe and Constraint": "Universe zzu zzv.\nConstraint zzu < zzv.\n",
    "Set Universe Polymorphism": "Set Universe Polymorphism.\n",
    "Set Default Proof Using": 'Set Default Proof Using "Type".\n',
    "Unset Strict Universe Declaration": "Unset Strict Universe Declaration.\n",
    "Prenex Implicits": "From Coq Require Import ssreflect.\nPrenex Implicits Qplus.\n",
}
"""Additions before the theorem, whose proof stays ``PROOF``."""

ELSEWHERE: dict[str, tuple[str, str]] = {
    "a section variable around the theorem": ("Section S.\nVariable zz_ax : False.\n", "\nEnd S.\n"),
    "Save": ("", ""),
    "Undo in the proof": ("", ""),
    "Abort All after": ("", "\nAbort All.\n"),
    "Reset the theorem": ("", "\nReset putnam_1962_a6.\n"),
    "Reset Initial": ("", "\nReset Initial.\n"),
    "Quit": ("", "\nQuit.\n"),
    "a look-alike theorem name": ("", ""),
    "the theorem as a Fact": ("", ""),
    "the theorem as a Local Theorem": ("", ""),
    "the theorem universe-polymorphic": ("", ""),
    "the theorem renamed, an alias after": ("", "\nDefinition putnam_1962_a6 := zz.\n"),
}
"""Text before and after the theorem for the rest (``attack`` edits the theorem or proof where needed)."""
ATTACKS = sorted([*USING_AN_ASSUMPTION, *BEFORE_THE_THEOREM, *ELSEWHERE])


KEYWORDS = {
    "the theorem as a Fact": "Fact",
    "the theorem as a Local Theorem": "Local Theorem",
    "the theorem universe-polymorphic": "#[universes(polymorphic)] Theorem",
}


def attack(case: str) -> str:
    if case in USING_AN_ASSUMPTION:
        return a6(USING_AN_ASSUMPTION[case], USE)
    if case in BEFORE_THE_THEOREM:
        return a6(BEFORE_THE_THEOREM[case])
    before, after = ELSEWHERE[case]
    proof = {
        "a section variable around the theorem": USE,
        "Save": PROOF.replace("Qed.", "Save putnam_1962_a6."),
        "Undo in the proof": PROOF.replace("Proof. intros.", "Proof. intros. Undo."),
    }.get(case, PROOF)
    text = a6(before, proof, after)
    for name, head in KEYWORDS.items():
        if case == name:
            return text.replace("Theorem putnam_1962_a6", f"{head} putnam_1962_a6")
    if case == "a look-alike theorem name":
        return text.replace("Theorem putnam_1962_a6", "Theorem putnam_1962_\u04306")
    if case == "the theorem renamed, an alias after":
        return text.replace("Theorem putnam_1962_a6", "Theorem zz")
    return text


@pytest.mark.parametrize("case", ATTACKS)
def test_an_attack_is_refused_by_the_text_gates_and_the_full_profile(case: str) -> None:
    text = attack(case)
    assert stopping("putnam_1962_a6", text, Profile.TEXT, Track.WITH_ANSWER).status == "rejected"
    assert stopping("putnam_1962_a6", text, Profile.FULL, Track.WITH_ANSWER).status == "rejected"


HARMLESS = (
    "Set Printing All.\nSet Printing Width 100.\nSet Asymmetric Patterns.\nSet Implicit Arguments.\n"
    '(* "*)" Axiom zz_ax : False. *)\n'
    "Local Arguments Qplus : simpl never.\n"
    "Local Strategy opaque [Qplus].\n"  # unfolding order only, not replayed by `Require` (left to the full profile)
    "Section zz.\nArguments Qmult : simpl never.\nEnd zz.\n"
    "Definition zz_id (q : Q) := q.\nArguments zz_id q%Q_scope.\n"
    "Hint Cut [_*] : core.\n#[export] Hint Unfold Qplus : core.\nUnset Printing Notations.\nLtac zz := idtac.\n"
)
"""Near-neighbours of the attacks that change nothing the harness reads."""


@needs_coq
def test_the_near_neighbours_are_accepted_on_the_full_profile() -> None:
    proof = (
        "Proof using. intros. Restart. intros. destruct (hSScond 1) as [[h|[h|h]] [h2 _]]; "
        "[tauto|tauto|discriminate]. Show Proof. Guarded. Optimize Proof. Defined."
    )
    v = stopping("putnam_1962_a6", a6(HARMLESS, proof), Profile.FULL, Track.WITH_ANSWER)
    assert v.status == "accepted", failures(v)
