"""Red team 30 on the Rocq gates, both directions, measured with coqc 8.16.1.

**Registration judged by meaning, not spelling (found: accepted by the text gates).** ``#[instance]`` and
``#[coercion]`` on a ``Definition`` (also ``#[program, coercion]``, ``#[reversible]``) passed G2 and G3,
which refuse the ``Instance`` and ``Coercion`` commands; only ``#[canonical]`` was read. coqc 8.16 refuses
them on a ``Definition`` ("does not support this attribute", measured), a later Coq takes them. G3 now
refuses every attribute that registers its declaration with elaboration (``REGISTERING_ATTRIBUTES``),
beside the commands (``Instance``, ``#[global]``/``#[export] Instance``, ``Existing Instance``,
``Coercion``, ``Canonical``), a ``Record``/``Class`` whose ``:>`` field declares a coercion or instance
(type declarations are refused), a hint in ``typeclass_instances`` and notations, which were refused
already. ``#[local]`` and ``#[universes(polymorphic)]`` still pass.

**Program obligations (measured, nothing accepted on a compiled profile).** A ``Program Definition`` whose
obligation stays open leaves its constant undefined: a theorem that uses it fails to compile ("The
reference zz was not found"; with no use, "Unsolved obligations when closing file"), so G4 refuses it.
``Admit Obligations`` makes each obligation an axiom (``zz_obligation_1``), which G5 and G6 name; G2 and
G3 refuse it in the text, as ``Obligation Tactic := admit``, ``Solve All Obligations with admit`` and
``Next Obligation. Admitted.``. The text profile cannot tell an open obligation from one the default
obligation tactic solves: it compiles nothing, and an open one only stops the compile.

**``Local Strategy`` (a false rejection).** It was refused as "not a permitted addition". It changes only
the unfolding order, and stays in the candidate's file: a file that ``Require``s the candidate sees every
constant ``transparent`` again (measured with ``Print Strategy``, at top level, in a section and in a
proof). It is now judged as ``Opaque`` is: of the candidate's own constants it is harmless anywhere; of
others before the theorem it is class 2 (which solution a unifier finds first); after the theorem it is
harmless. A ``Strategy`` that is not ``Local`` stays refused (``Require`` replays it).

**Set and predicate answers.** An answer equal to the official set only up to logic and arithmetic
(``fun p => -1 < snd p - fst p /\\ snd p < 1`` for ``fun '(b, c) => c < 1 /\\ c - b > -1``) was
``unknown``; the answer check now compares the two conditions at every point by propositional
extensionality (``answers.SAME_SET``), and a different set stays ``unknown`` (it never proves equality).

**Found and fixed: an ``Ltac`` in a proof was not named.** ``Ltac PI := idtac.`` inside a helper's proof
declares a global tactic (measured: a later ``ltac:(...)`` runs it), so on a statement that runs tactics
the candidate's tactic replaced the library's; G2 read it as a tactic sentence. It is now named apart from
the challenge's words, as a top-level ``Ltac`` is.

**Tried and refused already, or harmless:** ``Declare ML Module``, ``Load``, ``Drop``, ``Extraction``,
``Redirect``, ``Set Universe Polymorphism``, ``Set Program Mode``, ``Local Set Keyed Unification``, ``Ltac2
Set``, ``Existing Class`` and ``Local Obligation Tactic`` in a proof, ``Fail Fail Canonical`` (judged as
the command it runs), ``Module``/``Include``/``Declare Module`` (so no functor can shadow a statement
name); ``Require Import Coq.Compat.AdmitAxiom`` is class 2 before the theorem and its ``proof_admitted``
is off the allow-list (G5); ``Fail Fail Definition``, a monomorphic ``Definition zz@{u v | u < v}``,
``Collection``, ``Optimize Heap`` and ``Proof Mode`` in a proof pass, and change nothing the statement reads.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest

from putnam_solver.core.verify import Track
from tests.adversarial.test_rocq_redteam14 import vacuous, verdict
from tests.adversarial.test_rocq_redteam23_refused import _text_status
from tests.helpers import failures, needs_coq, one_record_benchmark, rocq_full_verdict, sampled

REGISTERING = {
    "#[instance] Definition": "#[instance] Definition zz : nat := 1.",
    "#[coercion] Definition": "#[coercion] Definition zz (b : bool) : nat := 0.",
    "#[program, coercion]": "#[ program , coercion ] Definition zz (b : bool) : nat := 0.",
    "#[reversible]": "#[reversible] Definition zz (b : bool) : nat := 0.",
    "#[canonical=no]": "#[canonical=no] Definition zz := 1.",
    "#[global] Instance": "#[global] Instance zz : Inhabited nat := {| inhabitant := 0 |}.",
    "#[export] Instance": "#[export] Instance zz : Inhabited nat := {| inhabitant := 0 |}.",
    "Existing Instance": "Definition zz : Inhabited nat := {| inhabitant := 0 |}.\nExisting Instance zz.",
    "Coercion": "Definition zz (b : bool) : nat := 0.\nCoercion zz : bool >-> nat.",
    "Record with :>": "Record zz_r := { zz_f :> nat }.",
    "hint in typeclass_instances": "Hint Resolve Rle_refl : typeclass_instances.",
    "where notation": 'Fixpoint zz (n : nat) : nat := 0\nwhere "n +++ m" := (zz n).',
}
"""Each registers an instance, a coercion, a canonical structure or a notation: refused before and after."""
REGISTERING_TWINS = {
    "#[local] Definition": "#[local] Definition zz := 1.",
    "#[universes(polymorphic)]": "#[universes(polymorphic)] Definition zz := Type.",
    "plain Definition of a class type": "Definition zz : Inhabited nat := {| inhabitant := 0 |}.",
}


@pytest.mark.parametrize("addition", sampled(REGISTERING, {"#[instance] Definition"}))
def test_whatever_registers_with_elaboration_is_refused_however_spelled(addition: str) -> None:
    for status, failed in (_text_status(addition, ""), _text_status("", addition)):
        assert status == "rejected" and set(failed) & {"G2", "G3"}, (addition, failed)


@pytest.mark.parametrize("addition", sampled(REGISTERING_TWINS, {"#[local] Definition"}))
def test_attributes_that_register_nothing_pass(addition: str) -> None:
    for status, failed in (_text_status(addition, ""), _text_status("", addition)):
        assert status == "accepted" and not failed, (addition, failed)


@needs_coq
@pytest.mark.slow
def test_coqc_816_refuses_instance_and_coercion_attributes_on_a_definition(tmp_path: Path) -> None:
    """Why the text gates are the line that matters on 8.16 only for the text profile: coqc stops both."""
    for attribute in ("instance", "coercion"):
        source = tmp_path / f"zz_{attribute}.v"
        source.write_text(f"#[{attribute}] Definition zz (b : bool) : nat := 0.\n")
        run = subprocess.run(["coqc", source.name], cwd=tmp_path, capture_output=True, text=True, check=False)
        assert run.returncode != 0 and "does not support this attribute" in run.stderr, run.stderr


PROGRAM_TEXT = {
    "Admit Obligations": "Program Definition zz : {n : nat | n = 1%nat} := 0%nat.\nAdmit Obligations.",
    "Obligation Tactic := admit": "Obligation Tactic := admit.",
    "Solve All Obligations with admit": "Solve All Obligations with admit.",
    "Next Obligation. Admitted.": "Program Definition zz : {n : nat | n = 1%nat} := 0%nat.\nNext Obligation. Admitted.",
}


@pytest.mark.parametrize("addition", sampled(PROGRAM_TEXT, {"Admit Obligations"}))
def test_obligations_left_unproved_are_refused_by_the_text_gates(addition: str) -> None:
    for status, failed in (_text_status(addition, ""), _text_status("", addition)):
        assert status == "rejected" and set(failed) & {"G2", "G3"}, (addition, failed)


PROGRAM = "Require Import Program.\nProgram Definition zz : {n : nat | n = 1%nat} := 0%nat.\n"
PROGRAM_FULL = {
    "Admit Obligations": (
        PROGRAM + "Admit Obligations.\n",
        "rejected",
        {"G5": "zz_obligation_1", "G6": "zz_obligation_1"},
    ),
    "an open obligation": (PROGRAM, "rejected", {"G4": "zz was not found"}),
    "the obligation proved": (PROGRAM.replace("0%nat.", "1%nat."), "accepted", {}),
}


@needs_coq
@pytest.mark.parametrize(("helper", "status", "named"), sampled(PROGRAM_FULL, {"Admit Obligations"}))
def test_the_compiled_gates_stop_an_obligation_the_theorem_uses(
    helper: str, status: str, named: dict[str, str]
) -> None:
    text = vacuous("3", "pose proof (proj2_sig zz) as zz_h.")
    at = text.index("Theorem putnam_2013_b2")
    v = verdict(text[:at] + helper + text[at:])
    found = failures(v)
    assert v.status == status and all(word in found.get(gate, "") for gate, word in named.items()), found


STRATEGY_ACCEPTED = {
    "Local Strategy of a helper": "Definition zz := 1.\nLocal Strategy opaque [zz].",
    "#[local] Strategy with levels": "Definition zz := 1.\n#[local] Strategy 10 [zz] expand [zz].",
}
STRATEGY_REFUSED = {
    "Strategy that is not Local": "Definition zz := 1.\nStrategy opaque [zz].",
    "Global Strategy": "Definition zz := 1.\nGlobal Strategy opaque [zz].",
}


@pytest.mark.parametrize("addition", sampled(STRATEGY_ACCEPTED, {"Local Strategy of a helper"}))
def test_local_strategy_of_the_candidates_own_constants_passes(addition: str) -> None:
    for status, failed in (_text_status(addition, ""), _text_status("", addition)):
        assert status == "accepted" and not failed, (addition, failed)


def test_local_strategy_of_a_library_constant_is_class_2_before_the_theorem_only() -> None:
    status, failed = _text_status("Local Strategy opaque [Rplus].", "")
    assert status == "rejected" and "through elaboration only" in failed.get("G2", ""), failed
    status, failed = _text_status("", "Local Strategy opaque [Rplus].")
    assert status == "accepted" and not failed, failed


@pytest.mark.parametrize("addition", sampled(STRATEGY_REFUSED, {"Strategy that is not Local"}))
def test_a_strategy_replayed_by_require_stays_refused(addition: str) -> None:
    for status, failed in (_text_status(addition, ""), _text_status("", addition)):
        assert status == "rejected" and set(failed) & {"G2", "G3"}, (addition, failed)


@needs_coq
@pytest.mark.slow
def test_coqc_does_not_replay_a_local_strategy(tmp_path: Path) -> None:
    """The measurement the acceptance rests on: wherever it stands, ``Local Strategy`` stays in its file."""
    (tmp_path / "A.v").write_text(
        "Definition zz := 1.\nLocal Strategy opaque [zz Nat.add].\n#[local] Strategy 100 [Nat.mul].\n"
        "Section S. Local Strategy opaque [Nat.sub]. End S.\n"
        "Lemma l : True. Proof. Local Strategy opaque [Nat.pred]. exact I. Qed.\n"
    )
    names = ("Nat.add", "Nat.mul", "Nat.sub", "Nat.pred", "T.A.zz")
    (tmp_path / "B.v").write_text("Require T.A.\n" + "".join(f"Print Strategy {n}.\n" for n in names))
    for name in ("A.v", "B.v"):
        run = subprocess.run(["coqc", "-Q", ".", "T", name], cwd=tmp_path, capture_output=True, text=True, check=False)
        assert run.returncode == 0, run.stderr
    assert run.stdout.count(": transparent") == len(names), run.stdout


@needs_coq
@pytest.mark.slow
def test_a_local_strategy_of_the_reals_leaves_the_answer_check_alone() -> None:
    """A wrong answer to the vacuous ``putnam_2013_b2`` with the reals' operations opaque before the theorem."""
    text = vacuous("4").replace(
        "Theorem putnam_2013_b2", "Local Strategy opaque [Rplus Rmult Rminus Rdiv IZR].\nTheorem putnam_2013_b2"
    )
    found = verdict(text)
    assert found.status == "disputed" and not failures(found), failures(found)


SET = (
    "Require Import Reals Lra Lia Ensembles.\nOpen Scope R_scope.\n"
    "Definition ps_solution : (R * R) -> Prop := fun '(b, c) => c < 1 /\\ c - b > -1.\n"
    "Theorem ps : ps_solution (0, 0).\nProof. Admitted.\n"
)
"""A pair-set answer (``putnam_..._solution : (R * R) -> Prop``'s shape) on a statement every answer with
``(0, 0)`` in it satisfies."""
SET_ANSWERS = {
    "the same set spelled otherwise": ("fun p => -1 < snd p - fst p /\\ snd p < 1", "confirmed"),
    "the official spelling": ("fun '(b, c) => c < 1 /\\ c - b > -1", "confirmed"),
    "another set": ("fun p => snd p < 2 /\\ -1 < snd p - fst p", "unknown"),
}


@needs_coq
@pytest.mark.parametrize(("answer", "check"), sampled(SET_ANSWERS, {"the same set spelled otherwise"}))
def test_a_set_answer_is_compared_point_by_point(answer: str, check: str) -> None:
    """Before: ``unknown`` for the first row."""
    bench = one_record_benchmark(Path(tempfile.mkdtemp()), "ps", SET)
    candidate = SET.replace("fun '(b, c) => c < 1 /\\ c - b > -1.", f"{answer}.").replace(
        "Proof. Admitted.", "Proof. unfold ps_solution; simpl; lra. Qed."
    )
    v = rocq_full_verdict(bench, "ps", candidate, Track.NO_ANSWER)
    assert v.status == "accepted" and v.answers["ps_solution"]["check"]["status"] == check, (v.answers, failures(v))


def test_an_ltac_in_a_proof_is_named_apart_from_the_challenges_words() -> None:
    for status, failed in (
        _text_status("Lemma zz : True. Proof. Ltac PI := idtac. exact I. Qed.", ""),
        _text_status("", "Lemma zz : True. Proof. Ltac PI := idtac. exact I. Qed."),
    ):
        assert status == "rejected" and "the added Ltac `PI`" in failed.get("G2", ""), failed
    status, failed = _text_status("Lemma zz : True. Proof. Local Ltac zz_t x := idtac. exact I. Qed.", "")
    assert status == "accepted" and not failed, failed


@needs_coq
@pytest.mark.slow
def test_coqc_makes_an_ltac_in_a_proof_global(tmp_path: Path) -> None:
    source = tmp_path / "zz.v"
    source.write_text(
        "Lemma zz : True. Proof. Ltac zz_t := exact 0. exact I. Qed.\nDefinition zz_d : nat := ltac:(zz_t).\n"
    )
    run = subprocess.run(["coqc", source.name], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
