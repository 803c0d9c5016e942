"""Red team 41 on the Rocq gates, measured with coqc/coqchk 8.16.1.

**A limit, integral, derivative, bound or count under a library's other name (G4, fixed).** On the
no-answer track G4 reads the answer's kernel term, printed raw, for the library operators that pick a value
by choice or name the limit, integral, series, derivative or bound the question asks to evaluate
(``policy.answer_choice_operators``, ``answer_limit_operators``): the question's own expression copied as
the answer is then refused, since it makes the theorem ``eq_refl``. The print names the constants the
answer writes, not what they unfold to, and the libraries define such operators under names the lists did
not hold. Each was accepted on the full profile, the answer check ``unknown``:

- the pinned ``putnam_1984_a5`` with its own triple integral written through Coquelicot's
  ``AutoDerive.interp`` (``interp l (Int e a b)`` computes to ``RInt (fun x => interp (x :: l) e) ...``,
  ``AutoDerive.v`` 125-136) and proved by ``reflexivity``;
- a supremum copied through Coquelicot's ``Sup_fct`` (a ``Lub_Rbar``, ``SF_seq.v`` 2362);
- a MathComp derivative ``derive1 f 1`` through ``derive1n 1 f 1`` (``derive.v`` 353, ``iter``);
- a count ``#|` fset_set [set n | P /\\ Q]|`` through the same set with its conditions swapped
  (``fset_set`` picks a finite set by ``pselect`` and ``cid``, ``cardinality.v`` 709; the swap defeats the
  restatement check, which compares a number answer's two sides syntactically).

Reading every source file of the installed Coq reals, Coquelicot and MathComp for a definition whose body
applies a listed operator to its own function, set or sequence parameter found 43 such names
(``operator_aliases.py``, each with its file and line, each confirmed a constant by coqc's ``Locate``
below); they join the lists. Values defined by a limit or choice (``exp``, ``sin``, ``ln``, ``pi``,
``Rfloor``) are not operators and stay allowed. Before: 4 of 4 attacks accepted (and the pinned one);
after: all refused by G4; the 4 honest twins (the value stated, the operator in the proof) accepted before
and after; no official answer is refused (``test_rocq_restated.py -k official``).

**A condition copied into an inductive connective (G4's restatement check, fixed).** The check proves the
pinned theorem from a set answer by logic alone after unfolding it (``In``, ``Complement``, ``Setminus``:
definitions); Ensembles' ``Intersection``, ``Union``, ``Full_set``, ``Empty_set``, ``Singleton``,
``Couple``, ``Triple``, ``Disjoint``, ``Inhabited`` and Coq's own ``inhabited`` and ``exists2`` are inductive
types no unfolding opens and ``tauto`` does not read, so the pinned ``putnam_2019_a1`` answered with its own
premise's condition as ``Intersection Z (fun n => ...) (Full_set Z)`` was accepted on the full profile
(answer check ``unknown``), as were a ``Union`` with ``Empty_set``, an ``Inhabited`` that hides an
existential, ``fun n => inhabited (<the condition>)`` and ``exists2 m, m = n & <the condition>``. Each
connective is now rewritten to the logic it means by an equivalence the file proves in place
(``ensemble_logic.py``; Ensembles' only where the statement loads them, since red team 42 always;
``Add``/``Subtract`` join the unfolded definitions). Before: 6 attacks accepted (5 on a statement of one
record, and the pinned one); after: all refused; 3 honest twins (the answer as a ``Singleton``, as an
``Intersection`` with a ``Couple``, with ``exists2``) accepted before and after; no official answer restates
(``-k official``).

**Tried, held.** Commands that could reach a file that ``Require``s the candidate, aimed at the answer
check's ``lia`` (zify resolves instances): ``Typeclasses Opaque``/``Transparent``, ``Typeclasses eauto :=``, ``Hint
Cut``/``Mode``/``Constants Opaque``/``Opaque`` in ``typeclass_instances``, ``Remove Hints`` there, ``Create
HintDb typeclass_instances``, ``Existing Class``/``Instance``, ``Declare Reduction``/``Left Step``/``Custom
Entry``/``Scope``, ``Bind``/``Delimit``/``Undelimit Scope`` and ``Reserved Notation`` in a proof: each refused
on ``text``; hints outside ``typeclass_instances`` (``Hint Cut``, ``Remove Hints``, ``Hint Rewrite``) pass,
as no harness file runs a hint-consulting tactic after loading the candidate. ``Add Printing If``/``Let``
and ``Add Keep Equalities``: 8.16's ``goptions.ml`` 88-105 gives tables a ``load_function``, but a file
that ``Require``s the candidate shows the default tables (measured below), and the harness prints under
``Printing All``, which skips ``if``/``let`` forms (``detyping.ml`` 594-600). Number answers that are
the question under ``let``, ``match tt``, a beta redex, ``if true`` or ``fst (_, _)`` are refused by the
restatement check.

**Left.** A number answer that is the question up to the unfolding of a library function that is no
operator (``sum_n_m (fun j => ..) 0 k`` for ``sum_n (fun j => ..) k``, measured accepted with the answer
check ``unknown``): the restatement check compares number answers syntactically, since conversion on them
can evaluate the statement's arithmetic (``restated.py`` says so of algebra).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq.operator_aliases import CHOICE_ALIASES, LIMIT_ALIASES
from putnam_solver.core.verify import Profile, Track
from tests.adversarial.test_rocq_redteam10 import INTEGRAL_SOUND, INTEGRAL_STATEMENT
from tests.adversarial.test_rocq_redteam34 import LTAC1_STATEMENT, THEOREM
from tests.adversarial.test_rocq_redteam34 import _verdict as _text_verdict
from tests.helpers import COQ_BENCH, failures, needs_coq, one_record_benchmark, pinned, rocq_full_verdict, sampled

MATHCOMP = """From mathcomp Require Import all_ssreflect all_algebra.
From mathcomp Require Import reals normedtype sequences topology derive.
Import numFieldNormedType.Exports.
Local Open Scope ring_scope.
Variable R : realType.
"""
DERIVE = f"{MATHCOMP}Definition t_solution : R := 0.\nTheorem t : derive1 (fun _ : R => (3 : R)) 1 = t_solution.\n"
SUP = """Require Import Reals Lra Coquelicot.Coquelicot.
Open Scope R.
Definition t_solution : Rbar := Finite 1.
Theorem t : Lub_Rbar (fun y => exists x, y = 1 /\\ Rmin 0 1 < x < Rmax 0 1) = t_solution.
"""
COUNT = """From mathcomp Require Import all_ssreflect finmap.
From mathcomp Require Import boolp classical_sets cardinality.
Local Open Scope classical_set_scope.
Local Open Scope fset_scope.
Definition t_solution : nat := 0.
Theorem t : #|` fset_set [set n : nat | (n < 0)%N /\\ odd n] | = t_solution.
"""
ADMITTED = "Proof. Admitted.\n"


def _answered(statement: str, old: str, answer: str, proof: str) -> str:
    return statement.replace(f":= {old}.", f":= {answer}.", 1) + f"Proof.\n{proof}\nQed.\n"


ATTACKS = {
    "an integral through AutoDerive.interp": (
        INTEGRAL_STATEMENT,
        INTEGRAL_STATEMENT.replace(":= 1.", ":= interp nil (Int (Cst 1) (Cst 0) (Cst 1)).").replace(
            "Proof. Admitted.", "Proof. reflexivity. Qed."
        ),
        "AutoDerive.interp",
    ),
    "a supremum through Sup_fct": (
        SUP + ADMITTED,
        _answered(
            SUP,
            "Finite 1",
            "Sup_fct (fun _ => 1) 0 1",
            "unfold t_solution, Sup_fct. destruct (Req_EM_T 0 1) as [e|n]; [lra|reflexivity].",
        ),
        "SF_seq.Sup_fct",
    ),
    "a derivative through derive1n": (
        DERIVE + ADMITTED,
        _answered(DERIVE, "0", "derive1n 1 (fun _ : R => (3 : R)) 1", "reflexivity."),
        "derive.derive1n",
    ),
    "a count through fset_set, its conditions swapped": (
        COUNT + ADMITTED,
        _answered(
            COUNT,
            "0",
            "#|` fset_set [set n : nat | odd n /\\ (n < 0)%N] |",
            "rewrite /t_solution. congr (#|` fset_set _|). apply/seteqP; split => n /= [a b]; by split.",
        ),
        "cardinality.fset_set",
    ),
}
"""(statement, candidate, the alias G4 names): each accepted on the full profile before this round."""
TWINS = {
    "the integral's value": (INTEGRAL_STATEMENT, INTEGRAL_SOUND),
    "the supremum's value, Lub_Rbar in the proof": (
        SUP + ADMITTED,
        SUP + "Proof.\n  unfold t_solution. apply is_lub_Rbar_unique. split.\n  - intros y [x [-> _]]. simpl. lra.\n"
        "  - intros b Hb. apply Hb. exists (1 / 2). split; [reflexivity|]. rewrite Rmin_left, Rmax_right; lra.\n"
        "Qed.\n",
    ),
    "the derivative's value": (DERIVE + ADMITTED, DERIVE + "Proof. exact: (derive1_cst (3 : R^o) 1). Qed.\n"),
    "the count's value, fset_set in the proof": (
        COUNT + ADMITTED,
        COUNT + "Proof.\n  rewrite /t_solution. have -> : [set n : nat | (n < 0)%N /\\ odd n] = set0.\n"
        "    by apply/seteqP; split => n /= [].\n  by rewrite fset_set0.\nQed.\n",
    ),
}
"""(statement, candidate): the same questions answered with their values, accepted before and after."""


@needs_coq
@pytest.mark.parametrize(
    ("statement", "candidate", "alias"), sampled(ATTACKS, {"an integral through AutoDerive.interp"})
)
def test_an_operator_under_a_librarys_other_name_is_refused(
    tmp_path: Path, statement: str, candidate: str, alias: str
) -> None:
    verdict = rocq_full_verdict(one_record_benchmark(tmp_path, "t", statement), "t", candidate, Track.NO_ANSWER)
    found = failures(verdict)
    assert verdict.status == "rejected" and set(found) == {"G4"} and f"`{alias}`" in found["G4"], found


@needs_coq
@pytest.mark.parametrize(("statement", "candidate"), sampled(TWINS, {"the integral's value"}))
def test_the_value_answered_passes(tmp_path: Path, statement: str, candidate: str) -> None:
    verdict = rocq_full_verdict(one_record_benchmark(tmp_path, "t", statement), "t", candidate, Track.NO_ANSWER)
    assert verdict.status == "accepted", failures(verdict)


A5_INTERP = """Require Import Reals Factorial Coquelicot.Coquelicot.
Open Scope R.
Definition putnam_1984_a5_solution := interp nil
  (Int (Int (Int (AppExt 3 (fun x y z => x * pow y 9 * pow z 8 * pow (1 - x - y - z) 4)
                    (cons (Var 2) (cons (Var 1) (cons (Var 0) nil))))
                 (Cst 0) (AppExt 2 (fun y z => 1 - y - z) (cons (Var 1) (cons (Var 0) nil))))
            (Cst 0) (AppExt 1 (fun z => 1 - z) (cons (Var 0) nil)))
       (Cst 0) (Cst 1)).
Theorem putnam_1984_a5
    : RInt (fun z => RInt (fun y => RInt (fun x => x * pow y 9 * pow z 8 * pow (1 - x - y - z) 4) 0 (1 - y - z)) \
0 (1 - z)) 0 1 = putnam_1984_a5_solution.
Proof. reflexivity. Qed.
"""
"""The pinned question's triple integral as an expression tree that ``interp`` evaluates to it (``apply``
hands a k-ary function its arguments last index first, ``AutoDerive.v`` 94-98)."""


@needs_coq
@pytest.mark.slow
def test_the_pinned_triple_integral_through_interp_is_refused() -> None:
    verdict = rocq_full_verdict(pinned(COQ_BENCH), "putnam_1984_a5", A5_INTERP, Track.NO_ANSWER)
    found = failures(verdict)
    assert verdict.status == "rejected" and "`AutoDerive.interp`" in found["G4"], found


LOCATED = """From mathcomp Require Import all_ssreflect all_algebra finmap.
From mathcomp Require Import boolp classical_sets cardinality fsbigop.
From mathcomp Require Import reals normedtype sequences topology derive measure.
From mathcomp Require Import lebesgue_measure lebesgue_integral summability realseq realsum distr.
Require Import Reals Coquelicot.Coquelicot Coq.Reals.NewtonInt Coq.Reals.RiemannInt.
"""


@needs_coq
@pytest.mark.slow
def test_every_alias_is_a_constant_of_that_name(tmp_path: Path) -> None:
    """Each listed name is the full name of a constant (G4 matches the print by suffix of the full name)."""
    names = (*CHOICE_ALIASES, *LIMIT_ALIASES)
    (tmp_path / "l.v").write_text(LOCATED + "".join(f"Locate {n}.\n" for n in names))
    run = subprocess.run(["coqc", "l.v"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    located = {line.split()[1] for line in run.stdout.splitlines() if line.startswith("Constant ")}
    assert set(names) <= located, set(names) - located


REPLAYED_TARGETS = {
    "Typeclasses Opaque": ("Typeclasses Opaque Nat.add.", "rejected"),
    "Typeclasses eauto depth": ("Typeclasses eauto := 1.", "rejected"),
    "Hint Cut in typeclass_instances": ("Hint Cut [ _* ] : typeclass_instances.", "rejected"),
    "Hint Mode in typeclass_instances": ("Hint Mode Nat.add ! : typeclass_instances.", "rejected"),
    "Hint Constants Opaque in typeclass_instances": ("Hint Constants Opaque : typeclass_instances.", "rejected"),
    "Remove Hints from typeclass_instances": ("Remove Hints Nat.add_comm : typeclass_instances.", "rejected"),
    "Create HintDb typeclass_instances": ("Create HintDb typeclass_instances discriminated.", "rejected"),
    "Existing Class": ("Existing Class nat.", "rejected"),
    "Declare Reduction": ("Declare Reduction zz_red := compute.", "rejected"),
    "Bind Scope": ("Bind Scope R_scope with nat.", "rejected"),
    "Delimit Scope": ("Delimit Scope nat_scope with zz.", "rejected"),
    "Reserved Notation": ('Reserved Notation "x <<>> y" (at level 70).', "rejected"),
    "Hint Cut in core": ("Hint Cut [ _* ] : core.", "accepted"),
    "Remove Hints from core": ("Remove Hints Nat.add_comm : core.", "accepted"),
    "Create HintDb of its own": ("Create HintDb zz_db.", "accepted"),
}
"""(a sentence in the theorem's proof, verdict on ``text``): what reaches typeclass resolution or the parser
of a file that loads the candidate is refused; hints no harness tactic consults pass."""


@pytest.mark.parametrize(("sentence", "status"), list(REPLAYED_TARGETS.values()), ids=list(REPLAYED_TARGETS))
def test_settings_that_reach_a_loading_file_are_refused_in_proofs(tmp_path: Path, sentence: str, status: str) -> None:
    candidate = f"{THEOREM}Proof. {sentence}\n exists (fun n => pred n); reflexivity. Qed.\n"
    verdict = _text_verdict(tmp_path, candidate, Profile.TEXT, LTAC1_STATEMENT)
    assert verdict.status == status, failures(verdict)


@needs_coq
def test_printing_tables_stay_in_the_candidates_file(tmp_path: Path) -> None:
    """``Add Printing If option`` (at top level and in a proof) and ``Add Keep Equalities nat`` are not in
    force in a file that ``Require``s the candidate (measured: the default tables)."""
    (tmp_path / "Cand.v").write_text(
        "Add Printing If option.\nAdd Keep Equalities nat.\n"
        "Lemma zz_l : True. Proof. Add Printing Let unit. exact I. Qed.\n"
    )
    tables = {"If": "option", "Let": "unit", "Keep": "nat"}
    for table in tables:
        shown = f"Printing {table}" if table != "Keep" else "Keep Equalities"
        (tmp_path / f"Use{table}.v").write_text(f"Require Cand.\nPrint Table {shown}.\n")
    printed = {}
    for name in ("Cand", *(f"Use{table}" for table in tables)):
        run = subprocess.run(
            ["coqc", "-Q", ".", "", f"{name}.v"], cwd=tmp_path, capture_output=True, text=True, check=False
        )
        assert run.returncode == 0, run.stderr
        printed[name] = run.stdout.replace(".", " ").split()
    assert all(added not in printed[f"Use{table}"] for table, added in tables.items()), printed


ENSEMBLE = """Require Import ZArith Lia Ensembles.
Open Scope Z.
Definition t_solution : Ensemble Z := fun n => n = 2.
Theorem t (A : Ensemble Z) (hA : forall n : Z, A n <-> n * n = 4 /\\ n > 0) : A = t_solution.
"""
COPY_PROOF = "apply Extensionality_Ensembles; split; intros n Hn; unfold In in *.\n- {into}\n- {back}\n"
ENSEMBLE_ATTACKS = {
    "the condition in a Union with Empty_set": (
        "Union Z (fun n => n * n = 4 /\\ n > 0) (Empty_set Z)",
        COPY_PROOF.format(
            into="left. apply hA. exact Hn.", back="destruct Hn as [n Hn | n Hn]; [apply hA; exact Hn | destruct Hn]."
        ),
    ),
    "the condition in an Intersection with Full_set": (
        "Intersection Z (fun n => n * n = 4 /\\ n > 0) (Full_set Z)",
        COPY_PROOF.format(
            into="constructor; [apply hA; exact Hn | constructor].", back="destruct Hn as [n Hn _]. apply hA. exact Hn."
        ),
    ),
    "the condition behind Inhabited": (
        "fun n => Inhabited Z (fun m => m = n /\\ m * m = 4 /\\ m > 0)",
        COPY_PROOF.format(
            into="apply hA in Hn. exists n. split; [reflexivity | exact Hn].",
            back="destruct Hn as [m [-> Hm]]. apply hA. exact Hm.",
        ),
    ),
    "the condition behind inhabited": (
        "fun n => inhabited (n * n = 4 /\\ n > 0)",
        COPY_PROOF.format(into="apply hA in Hn. exact (inhabits Hn).", back="destruct Hn as [Hn]. apply hA. exact Hn."),
    ),
    "the condition behind exists2": (
        "fun n => exists2 m, m = n & (m * m = 4 /\\ m > 0)",
        COPY_PROOF.format(
            into="apply hA in Hn. exists n; [reflexivity | exact Hn].",
            back="destruct Hn as [m -> Hm]. apply hA. exact Hm.",
        ),
    ),
}
"""(answer, proof): the question's condition (``hA``) copied into one of Ensembles' inductive connectives,
or Coq's ``inhabited`` or ``exists2``, which no unfolding opens; each was accepted on the full profile before
this round."""
ENSEMBLE_TWINS = {
    "the answer as a Singleton": (
        "Singleton Z 2",
        COPY_PROOF.format(
            into="apply hA in Hn. destruct Hn as [H1 H2]. assert (n = 2) by nia. subst. constructor.",
            back="destruct Hn. apply hA. lia.",
        ),
    ),
    "the answer as an Intersection": (
        "Intersection Z (fun n => n > 0) (Couple Z 2 (-2))",
        COPY_PROOF.format(
            into="apply hA in Hn. destruct Hn as [H1 H2]. assert (n = 2) by nia. subst. "
            "constructor; [unfold In; lia | constructor].",
            back="destruct Hn as [n H1 H2]. unfold In in H1. inversion H2; subst; apply hA; lia.",
        ),
    ),
    "the answer with exists2": (
        "fun n => exists2 m : Z, m = 2 & n = m",
        COPY_PROOF.format(
            into="apply hA in Hn. destruct Hn as [H1 H2]. assert (n = 2) by nia. exists 2; [reflexivity | exact H].",
            back="destruct Hn as [m -> ->]. apply hA. lia.",
        ),
    ),
}
"""(answer, proof): the value stated with the same connectives, which logic alone does not prove the theorem
from: accepted before and after."""


def _ensemble(answer: str, proof: str) -> str:
    return _answered(ENSEMBLE, "fun n => n = 2", answer, proof)


@needs_coq
@pytest.mark.parametrize(("answer", "proof"), sampled(ENSEMBLE_ATTACKS, {"the condition in a Union with Empty_set"}))
def test_a_condition_copied_into_an_ensemble_connective_restates_the_question(
    tmp_path: Path, answer: str, proof: str
) -> None:
    bench = one_record_benchmark(tmp_path, "t", ENSEMBLE + ADMITTED)
    verdict = rocq_full_verdict(bench, "t", _ensemble(answer, proof), Track.NO_ANSWER)
    found = failures(verdict)
    assert verdict.status == "rejected" and "restates the question" in found.get("G4", ""), found


@needs_coq
@pytest.mark.parametrize(("answer", "proof"), sampled(ENSEMBLE_TWINS, {"the answer as a Singleton"}))
def test_a_value_stated_with_ensemble_connectives_passes(tmp_path: Path, answer: str, proof: str) -> None:
    bench = one_record_benchmark(tmp_path, "t", ENSEMBLE + ADMITTED)
    verdict = rocq_full_verdict(bench, "t", _ensemble(answer, proof), Track.NO_ANSWER)
    assert verdict.status == "accepted", failures(verdict)


A1_2019_INTERSECTION = """Require Import ZArith Ensembles Coquelicot.Coquelicot.
Open Scope Z.
Definition putnam_2019_a1_solution : Ensemble Z := Intersection Z (fun n => exists (A B C: Z), A >= 0 /\\ \
B >= 0 /\\ C >= 0 /\\ A ^ 3 + B ^ 3 + C ^ 3 - 3 * A * B * C = n) (Full_set Z).
Theorem putnam_2019_a1
    (A : Ensemble Z)
    (hA : forall (n: Z), A n <-> exists (A B C: Z), A >= 0 /\\ B >= 0 /\\ C >= 0 /\\ \
A ^ 3 + B ^ 3 + C ^ 3 - 3 * A * B * C = n)
    : A = putnam_2019_a1_solution.
Proof.
  apply Extensionality_Ensembles; split; intros n Hn.
  - constructor; [apply hA; exact Hn | constructor].
  - destruct Hn as [n Hn _]. apply hA. exact Hn.
Qed.
"""
"""The pinned ``putnam_2019_a1`` answered with its own premise's condition, in an ``Intersection``."""


@needs_coq
@pytest.mark.slow
def test_the_pinned_condition_in_an_intersection_is_refused() -> None:
    verdict = rocq_full_verdict(pinned(COQ_BENCH), "putnam_2019_a1", A1_2019_INTERSECTION, Track.NO_ANSWER)
    found = failures(verdict)
    assert verdict.status == "rejected" and "restates the question" in found.get("G4", ""), found
