"""Vernacular that sound published Rocq proofs use as boilerplate, through the gates with real coqc.

Hints (``Hint Resolve``, ``Create HintDb``), ``Tactic Notation``, ``Ltac``, proof-script and printing
options, ``Arguments``/``Opaque`` of the candidate's own definitions cannot change the statement: they are
accepted on every profile. The implicit-argument options, ``Local Open Scope`` and imports can change
how the statement's text elaborates: accepted where G5 re-elaborates the pinned statement (full), refused
on text with that reason. What can reach the harness's own files (a redefined ``Ltac``, a hint in
``typeclass_instances``, ``Global`` options) stays refused everywhere (``vernacular.py``). Statements
that declare a module (miniF2F ``amc12a_2003_p23``) get a reference that compiles, so G5 decides them.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import DATA_ROOT, REPO, failures, one_record_benchmark, rocq_full_verdict

BENCHMARK = REPO / "samples" / "rocq" / "benchmark.jsonl"
PROBLEM = "sample_sum_first_n"
needs_coq = pytest.mark.skipif(
    shutil.which("coqc") is None or shutil.which("coqchk") is None, reason="coqc/coqchk missing"
)

HARMLESS = """Set Bullet Behavior "Strict Subproofs".
Unset Printing Implicit Defensive.
Create HintDb zz_db.
Lemma zz_step : forall k, 2 * S k = S k + S k.
Proof. intro k. lia. Qed.
Hint Resolve zz_step : zz_db.
#[export] Hint Rewrite zz_step : zz_db.
Hint Unfold Nat.double : zz_db.
Tactic Notation "zz_finish" := lia.
Ltac zz_go := simpl; try reflexivity.
Definition zz_id (A : Type) (x : A) := x.
Arguments zz_id {A} x.
Opaque zz_id.
"""
"""Additions that cannot change the statement (class 1)."""
ELABORATING = {
    "implicit arguments": "Set Implicit Arguments.\nUnset Strict Implicit.\n",
    "local scope": "Local Open Scope nat_scope.\n",
    "stdlib import": "Require Import Psatz.\n",
    "list notations": "Require Import List.\nImport ListNotations.\n",
    "local arguments of a library constant": "Local Arguments Nat.add : simpl never.\n",
    "opacity of a library constant": "Opaque Nat.mul.\n",
    "symbol tactic notation": 'Tactic Notation "<~" := lia.\n',
}
"""Additions that can change the statement only through elaboration (class 2): G5 decides."""
REFUSED = {
    "tactic redefinition": ("Ltac lia ::= fail.\n", "replaces a tactic of a library"),
    "tactic redefinition in a proof": (
        "Lemma zz_h : True.\nProof. Ltac lra ::= fail. exact I. Qed.\n",
        "replaces a tactic of a library",
    ),
    "instance hint": ("Hint Resolve zz_i : typeclass_instances.\n", "declares an instance"),
    "instance hint extern": (
        "Hint Extern 0 (Decidable.Decidable _) => exact I : typeclass_instances.\n",
        "declares an instance",
    ),
    "arguments of a library constant": ("Arguments Nat.add : simpl never.\n", "write `Local Arguments`"),
    "global option": ("Global Set Implicit Arguments.\n", "reaches every file"),
    "exported option": ("Export Set Printing Width 40.\n", "reaches every file"),
    "unknown option": ("Set Universe Polymorphism.\n", "not one known to leave the statement alone"),
}
"""Additions refused on every profile, with the words of the rule that refuses them."""
PROOF = "Proof using.\n  induction n as [| k IH].\n  - reflexivity.\n  - zz_go. zz_finish.\nQed.\n"


@pytest.fixture(scope="module")
def sample() -> Benchmark:
    return load_benchmark(BENCHMARK)


def candidate(bench: Benchmark, before: str, harmless: bool = True) -> str:
    text = bench.problems[PROBLEM].formal_statement
    extra = (HARMLESS if harmless else "") + before
    return text.replace("Theorem ", extra + "\nTheorem ", 1).replace("Proof. Admitted.\n", PROOF)


def verdict(bench: Benchmark, text: str, profile: Profile) -> Verdict:
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(RocqProver(), bench, bench.problems[PROBLEM], text.encode(), Track.WITH_ANSWER, options)


def test_harmless_vernacular_passes_the_text_profile(sample: Benchmark) -> None:
    result = verdict(sample, candidate(sample, ""), Profile.TEXT)
    assert result.accepted, failures(result)


@pytest.mark.parametrize("name", sorted(ELABORATING))
def test_elaborating_vernacular_is_left_to_g5_on_text(sample: Benchmark, name: str) -> None:
    result = verdict(sample, candidate(sample, ELABORATING[name]), Profile.TEXT)
    assert not result.accepted and result.needs_full_profile, failures(result)
    assert list(failures(result)) == ["G2"] and "through elaboration only" in failures(result)["G2"]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_vernacular_reaching_the_harness_is_refused_on_every_profile(sample: Benchmark, name: str) -> None:
    addition, rule = REFUSED[name]
    if "zz_i" in addition:
        addition = "Lemma zz_i : True.\nProof. exact I. Qed.\n" + addition
    for profile in (Profile.TEXT, Profile.FULL):
        found = failures(verdict(sample, candidate(sample, addition), profile))
        assert any(rule in detail for gate, detail in found.items() if gate in ("G2", "G3")), (profile, found)


@needs_coq
def test_harmless_and_elaborating_vernacular_pass_the_full_profile(sample: Benchmark) -> None:
    """Real coqc, coqchk and G5: the sound proof with every class-1 and class-2 addition is accepted."""
    everything = "".join(ELABORATING.values()).replace("Opaque Nat.mul.\n", "")  # lia needs Nat.mul
    result = verdict(sample, candidate(sample, everything), Profile.FULL)
    assert result.accepted, failures(result)


@needs_coq
def test_what_reaches_a_file_that_only_requires_the_candidate(tmp_path: Path) -> None:
    """The premises of the rules, measured with coqc: a redefined Ltac and a global hint reach a file that
    only ``Require``s the module (the harness's answer check is one), a ``Tactic Notation`` does not."""
    (tmp_path / "A.v").write_text(
        'Require Import Lia.\nLtac lia ::= fail.\nTactic Notation "exact" constr(x) := fail.\n'
        "Lemma zz_one : 1 = 1. Proof. reflexivity. Qed.\nCreate HintDb zz_db.\nHint Resolve zz_one : zz_db.\n"
    )
    (tmp_path / "B.v").write_text(
        "Require A.\nGoal True. exact I. Qed.\nGoal 1 = 1. solve [auto with zz_db nocore]. Qed.\n"
        "Goal 3 = 3. Fail Coq.micromega.Lia.lia. reflexivity. Qed.\n"
    )
    for name in ("A.v", "B.v"):
        done = subprocess.run(["coqc", "-Q", ".", "", name], cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


MODULE_HEADER = """Require Import Nat.
Require Import List.
Require Import ZArith.
Require Import Arith.
Require Import FSets.
Require Import FSetFacts.
Require Import FSetProperties.
Module NS := FSetWeakList.Make(Nat_as_OT).

Definition zz_bound := 2 + 2.
"""
MODULE_STATEMENT = (
    MODULE_HEADER + "\nTheorem zz_modules :\n  exists (S : NS.t),\n    NS.cardinal S = 2 /\\\n"
    "    forall k, NS.In k S <-> (k = 1 \\/ k = zz_bound).\nProof.\nAdmitted.\n"
)
MODULE_PROOF = """Proof.
  exists (NS.add 1 (NS.add 4 NS.empty)).
  split.
  - reflexivity.
  - intro k. split.
    + intro H.
      destruct (Nat.eq_dec 1 k) as [e | n1]; [left; symmetry; exact e |].
      apply NS.add_3 in H; [| exact n1].
      destruct (Nat.eq_dec 4 k) as [e | n4]; [right; symmetry; exact e |].
      apply NS.add_3 in H; [| exact n4].
      exfalso. exact (NS.empty_1 H).
    + intros [-> | ->].
      * apply NS.add_1. reflexivity.
      * apply NS.add_2, NS.add_1. reflexivity.
Qed.
"""


@needs_coq
def test_a_statement_declaring_a_module_is_decided_by_g5(tmp_path: Path) -> None:
    """The module of ``amc12a_2003_p23``'s header, on a statement with a short proof: the sound proof is
    accepted (the module comes before the reference's section), and a weakened theorem is refused by G5
    as a mismatch (``failed``, not the ``error`` of a reference that does not compile)."""
    bench = one_record_benchmark(tmp_path, "zz_modules", MODULE_STATEMENT)
    sound = MODULE_STATEMENT.replace("Proof.\nAdmitted.\n", MODULE_PROOF)
    accepted = rocq_full_verdict(bench, "zz_modules", sound)
    assert accepted.accepted, failures(accepted)
    weakened = sound.replace("NS.cardinal S = 2 /\\", "NS.cardinal S >= 0 /\\").replace(
        "  - reflexivity.\n", "  - apply Nat.le_0_l.\n"
    )
    refused = rocq_full_verdict(bench, "zz_modules", weakened)
    found = failures(refused)
    assert refused.status == "rejected" and "G5" in found and "does not compile" not in found["G5"], found


@needs_coq
def test_a_candidate_module_other_than_the_statements_is_refused_by_g5(tmp_path: Path) -> None:
    """The same proof over another implementation of finite sets (``FSetList``): the kernel refuses to
    apply the reference to it (a field's body differs), whatever the text gates say."""
    bench = one_record_benchmark(tmp_path, "zz_modules", MODULE_STATEMENT)
    other = MODULE_STATEMENT.replace("Proof.\nAdmitted.\n", MODULE_PROOF).replace("FSetWeakList", "FSetList")
    found = failures(rocq_full_verdict(bench, "zz_modules", other))
    assert "G2" in found and "G5" in found and "does not compile" not in found["G5"], found


MINIF2F = DATA_ROOT / "minif2f" / "minif2f_rocq_adapted.jsonl"


@needs_coq
@pytest.mark.skipif(not MINIF2F.is_file(), reason="miniF2F data not found")
def test_amc12a_2003_p23_is_judged_not_an_error() -> None:
    """The pinned statement as shipped (its proof admitted) is refused by G3, G5 and G6, none an error."""
    bench = load_benchmark(MINIF2F)
    text = bench.problems["amc12a_2003_p23"].formal_statement
    result = rocq_full_verdict(bench, "amc12a_2003_p23", text)
    statuses = {g.id: g.status.value for g in result.gates}
    assert result.status == "rejected", failures(result)
    assert statuses == {"G1": "passed", "G2": "passed", "G3": "failed", "G4": "passed", "G5": "failed", "G6": "failed"}
    assert "Candidate.amc12a_2003_p23" in failures(result)["G5"]
