"""Commands hidden behind Coq's control prefixes, and the kernel bug they reached (real coqc and coqchk).

``Time Inductive t := ...`` declares ``t`` exactly as ``Inductive t := ...`` does, in proof mode too; so do
``Timeout 5``, ``Fail``/``Succeed`` (whose effects roll back) and ``Redirect``, and ``Export Set`` is ``Set``
with a locality. G2 once took the prefix for the command, so an inductive declared in a proof behind
``Time`` passed every text gate; through Coq 8.16's let-in conversion bug (rocq#22378, shared by coqchk)
such an inductive proves ``False`` with no axiom, and a pinned PutnamBench problem was accepted on the
full profile. Now G2 reads the command after the prefix, and G5 refuses any inductive type in the
candidate's module that the statement does not declare, read from the kernel's module listing however
the text declared it.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.provers.rocq.coqchk import kernel_gate
from putnam_solver.core.provers.rocq.statement import read_assumptions, statement_gate
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from putnam_solver.verifier.options import GateFlags
from tests.helpers import COQ_BENCH, REPO, ROCQ_SAMPLES, needs_coq, rocq_full_verdict, rocq_submission

BENCHMARK = ROCQ_SAMPLES
"""What the ``bench`` fixture (conftest.py) loads for this module."""
SAMPLES = REPO / "samples" / "rocq"


LET_IN_BUG = """Inductive zz_p : Type :=
  | zz_pack (x y : nat) (g1 : forall P : SProp, P -> P := fun P p => p)
      (g2 : forall P : SProp, P -> P := fun P p => p).
Definition zz_l (p : zz_p) : nat := match p with zz_pack x y g1 g2 => x end.
Definition zz_r (p : zz_p) : nat := match p with zz_pack x y g1 g2 => y end.
Definition zz_c (p : zz_p) : zz_l p = zz_r p := eq_refl."""
"""rocq#22378 on Coq 8.16.1: two ``SProp`` let-ins in a constructor make the kernel compare ``x`` and ``y``
as irrelevant, so ``0 = 1``. No axiom, no flag: ``Print Assumptions`` says closed, coqchk accepts."""
ABSURD = (
    "exact (match zz_c (zz_pack 0 1) in (_ = k) return (match k with O => True | S _ => False end) "
    "with eq_refl => I end)."
)

PUTNAM = "putnam_2001_a5"
PUTNAM_THEOREM = (
    "Require Import Nat.\nTheorem putnam_2001_a5 \n"
    "    : exists! (a n: nat), a > 0 /\\ n > 0 /\\ a ^ (n + 1) - (a + 1) ^ n = 2001.\n"
)


def _prefixed(prefix: str) -> str:
    """The pinned theorem proved from ``False``: the bug's sentences in its proof, each behind ``prefix``."""
    hidden = "\n  ".join(f"{prefix} {s}" for s in LET_IN_BUG.replace("\n  ", " ").split("\n"))
    return f"{PUTNAM_THEOREM}Proof.\n  {hidden}\n  exfalso.\n  {ABSURD}\nQed.\n"


def _full(bench: Benchmark, problem: str, candidate: str) -> Verdict:
    return rocq_full_verdict(bench, problem, candidate)


def _gate(verdict: Verdict, gate_id: str) -> tuple[GateStatus, str]:
    gate = next(g for g in verdict.gates if g.id == gate_id)
    return gate.status, gate.detail


@needs_coq
def test_the_kernel_bug_is_real_coqc_and_coqchk_accept_false(tmp_path: Path) -> None:
    """Without the gates' refusal of candidate types this file is a closed proof of False on Coq 8.16."""
    (tmp_path / "B.v").write_text(f"{LET_IN_BUG}\nLemma zz_f : False.\nProof. {ABSURD} Qed.\nPrint Assumptions zz_f.\n")
    compiled = subprocess.run(["coqc", "-Q", ".", "X", "B.v"], cwd=tmp_path, capture_output=True, text=True)
    if compiled.returncode != 0:
        pytest.skip(f"this Coq does not have rocq#22378: {compiled.stderr[:200]}")
    assert "Closed under the global context" in compiled.stdout
    checked = subprocess.run(["coqchk", "-silent", "-o", "-Q", ".", "X", "X.B"], cwd=tmp_path, capture_output=True)
    assert checked.returncode == 0 and b"Axioms: <none>" in checked.stdout + checked.stderr


@needs_coq
def test_a_type_hidden_behind_time_is_refused_by_g2_and_by_the_kernel_listing() -> None:
    """The published-benchmark case: putnam_2001_a5 'proved' from False, refused by G2 and by G5 alone."""
    pinned = load_benchmark(COQ_BENCH)
    for prefix in ("Time", "Timeout 30"):
        verdict = _full(pinned, PUTNAM, _prefixed(prefix))
        assert verdict.status == "rejected", prefix
        status, detail = _gate(verdict, "G2")
        assert status is GateStatus.FAILED and "`Inductive` is not allowed in proofs" in detail, detail
        status, detail = _gate(verdict, "G5")
        assert status is GateStatus.FAILED and "`zz_p`, which the statement does not" in detail, detail
    sub = rocq_submission(pinned, PUTNAM, _prefixed("Time"), Track.WITH_ANSWER)
    try:
        alone = statement_gate(sub)
    finally:
        sub.scratch_dir.cleanup()
    assert alone.status is GateStatus.FAILED and "`zz_p`" in alone.detail, alone.detail


SQUARE_HEADER = "Require Import Arith.\n\n"
SQUARE_THEOREM = "Theorem sample_even_square\n    (n : nat)\n    : Nat.even (n * n) = Nat.even n.\n"
SQUARE_PROOF = "rewrite Nat.even_mul.\n  destruct (Nat.even n); reflexivity."


def _square(helpers: str = "", before_proof: str = "", end: str = "Qed.") -> str:
    return f"{SQUARE_HEADER}{helpers}{SQUARE_THEOREM}Proof.\n  {before_proof}{SQUARE_PROOF}\n{end}\n"


HIDDEN = {
    "Time Inductive in a proof": _square(before_proof="Time Variant zz_v := zz_a | zz_b.\n  "),
    "Timeout Global Set in a proof": _square(before_proof="Timeout 10 Global Set Printing Width 20.\n  "),
    "Export Set in a proof": _square(before_proof="Export Set Printing Width 20.\n  "),
    "Export Set before the theorem": _square("Export Unset Printing Notations.\n"),
    "Redirect Record in a proof": _square(before_proof='Redirect "zz" Record zz_r := { zz_x : nat }.\n  '),
    "Time Qed then a top-level type": _square(
        "Lemma zz_h : True.\nProof. exact I. Time Qed.\nInductive zz_w := zz_c.\n"
        "Lemma zz_h2 : True.\nProof. exact I. Qed.\n"
    ),
    "Definitional UIP": _square(before_proof="Set Definitional UIP.\n  "),
}
"""Each must be refused by the text gates alone (profile ``text``)."""


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_prefixed_commands_are_judged_as_the_command_they_run(bench: Benchmark, name: str) -> None:
    verdict = run_gates(
        RocqProver(),
        bench,
        bench.problems["sample_even_square"],
        HIDDEN[name].encode(),
        Track.WITH_ANSWER,
        VerifyOptions(profile=Profile.TEXT, keep_going=True),
    )
    assert verdict.status == "rejected", [g.to_json() for g in verdict.gates]


SOUND = {
    "Time Qed and timed tactics": _square(
        "Lemma zz_h : True.\nProof. Time exact I. Time Qed.\n",
        "Time idtac.\n  Fail reflexivity.\n  Succeed (destruct n).\n  ",
        "Time Qed.",
    ),
    "Require Export is still a library": _square("Require Export Arith.\nTimeout 30 Check Nat.even_mul.\n"),
    "an allowed axiom used by its own name": _square(
        "Require Coq.Logic.Classical_Prop.\n", "pose proof (Coq.Logic.Classical_Prop.classic True) as zz_em.\n  "
    ),
}
"""Sound proofs that use the prefixes: the full profile must accept them."""


@needs_coq
def test_sound_proofs_with_control_prefixes_are_accepted(bench: Benchmark) -> None:
    for name, candidate in SOUND.items():
        verdict = _full(bench, "sample_even_square", candidate)
        assert verdict.status == "accepted", (name, [g.to_json() for g in verdict.gates])


@needs_coq
def test_uip_behind_time_with_its_own_types_is_refused(bench: Benchmark) -> None:
    """rocq#22376's ingredients (definitional UIP, a cumulative inductive) in a helper's proof: coqchk 8.16
    reports neither, so G2, G3 and G5 must each refuse them."""
    helper = (
        "Lemma zz_h : True.\nProof.\n  Time Set Definitional UIP.\n"
        "  Time Polymorphic Inductive zz_seq@{i} {A : Type@{i}} (x : A) : A -> SProp := zz_srefl : zz_seq x x.\n"
        "  exact I.\nQed.\n"
    )
    verdict = _full(bench, "sample_even_square", _square(helper))
    for gate_id in ("G2", "G3", "G5"):
        status, detail = _gate(verdict, gate_id)
        assert status is GateStatus.FAILED, (gate_id, detail)


def test_print_assumptions_output_without_its_header_is_unreadable() -> None:
    """Silenced or cut-short output is never an empty list of assumptions."""
    assert read_assumptions("MARK\n", "MARK", []) is None
    assert read_assumptions("MARK\nCandidate.cheat : False\n", "MARK", []) is None
    found = read_assumptions("MARK\nClosed under the global context\n", "MARK", [])
    assert found is not None and found.other == found.unsafe == []


SUM_ODDS = (SAMPLES / "proofs" / "sample_sum_odds.v").read_text()
SOLUTION = "Definition sample_sum_odds_solution : nat -> nat := fun n => n * n."


def _in_helper_proof(declaration: str) -> str:
    return f"Lemma zz_h : True.\nProof.\n  {declaration}\n  exact I.\nQed.\n"


def test_declarations_inside_a_proof_are_named_like_helpers(bench: Benchmark) -> None:
    """Coq makes a ``Definition`` (or ``Let``) written in proof mode global: G2 judges its name as a
    helper's, so an answer may not name it and it may not shadow a word of the statement."""
    hidden_answer = SUM_ODDS.replace(
        SOLUTION,
        _in_helper_proof("Definition zz_ans : nat -> nat := sum_odds.")
        + "Definition sample_sum_odds_solution : nat -> nat := zz_ans.",
    )
    shadowing = (
        (SAMPLES / "proofs" / "sample_rev_length.v")
        .read_text()
        .replace("Theorem", _in_helper_proof("Let rev (l : list A) := l.") + "Theorem")
        .replace("apply rev_length.", "reflexivity.")
    )
    for problem, candidate, track, said in (
        ("sample_sum_odds", hidden_answer, Track.NO_ANSWER, "the answer names `zz_ans`"),
        ("sample_rev_length", shadowing, Track.WITH_ANSWER, "the added Let `rev`"),
    ):
        verdict = run_gates(
            RocqProver(),
            bench,
            bench.problems[problem],
            candidate.encode(),
            track,
            VerifyOptions(profile=Profile.TEXT, keep_going=True),
        )
        status, detail = _gate(verdict, "G2")
        assert status is GateStatus.FAILED and said in detail, detail


@needs_coq
def test_a_definition_inside_a_proof_named_apart_is_still_accepted(bench: Benchmark) -> None:
    candidate = SUM_ODDS.replace(SOLUTION, _in_helper_proof("Definition zz_other := 1.") + SOLUTION)
    verdict = run_gates(
        RocqProver(),
        bench,
        bench.problems["sample_sum_odds"],
        candidate.encode(),
        Track.NO_ANSWER,
        VerifyOptions(profile=Profile.FULL),
    )
    assert verdict.status == "accepted", [g.to_json() for g in verdict.gates]


ELABORATING = _square(
    "Lemma zz_h : True.\nProof.\n  Implicit Types m : bool.\n  Transparent Nat.odd.\n"
    "  Opaque Nat.even.\n  exact I.\nQed.\n"
)
"""Commands in a helper's proof whose effect outlives ``Qed`` and can change how a later statement
elaborates (``Implicit Types n : bool`` retypes ``forall n, ...``): left to G5, like an ``Import``. (An ``Add
Parametric Relation`` stood here until red team 15: it declares instances, replayed by ``Require``, and G3
refuses it as it refuses ``Instance``.)"""


@needs_coq
def test_elaborating_commands_in_a_helper_proof_need_the_statement_check(bench: Benchmark) -> None:
    problem = bench.problems["sample_even_square"]
    text = run_gates(
        RocqProver(), bench, problem, ELABORATING.encode(), Track.WITH_ANSWER, VerifyOptions(profile=Profile.TEXT)
    )
    status, detail = _gate(text, "G2")
    assert status is GateStatus.FAILED and detail.count("through elaboration only") == 3, detail
    assert _full(bench, "sample_even_square", ELABORATING).status == "accepted"


@needs_coq
def test_a_proof_coqchk_cannot_finish_in_time_is_an_error_never_a_pass(bench: Benchmark) -> None:
    """``vm_compute`` leaves a cast that coqchk, which has no VM, checks by evaluating ``2 ^ 23`` in unary,
    past the cap. The harness's coqc now checks such casts the same way (red team 11: the 8.16 VM proves
    ``False``, ``build.COQC_MACHINES_OFF``), so the candidate's compile runs out first: G4 is an ``error``,
    the verdict too, never a pass and never a rejection."""
    candidate = _square("Lemma zz_slow : Nat.even (Nat.pow 2 23) = true.\nProof. vm_compute. reflexivity. Qed.\n")
    verdict = run_gates(
        RocqProver(),
        bench,
        bench.problems["sample_even_square"],
        candidate.encode(),
        Track.WITH_ANSWER,
        VerifyOptions(profile=Profile.FULL, keep_going=True, timeout_seconds=8.0),
    )
    status, detail = _gate(verdict, "G4")
    assert status is GateStatus.ERROR and "timed out" in detail, detail
    assert verdict.status == "error"


LOOK_ALIKES = ("classic", "proof_irrelevance", "cl\u0430ssic", "Eq_rect_eq")
"""Axioms named like allow-listed ones (the last a module name on the list, the third with a Cyrillic
``а``): Coq prints them as ``Candidate.<name>``, coqchk as ``Putnam.Candidate.<name>``."""


@needs_coq
@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_an_axiom_named_like_an_allowed_one_is_refused_by_g5_and_g6_alone(bench: Benchmark, name: str) -> None:
    candidate = _square(f"Axiom {name} : forall n : nat, Nat.even (n * n) = Nat.even n.\n").replace(
        SQUARE_PROOF, f"apply {name}."
    )
    for gate in (statement_gate, kernel_gate):
        sub = rocq_submission(bench, "sample_even_square", candidate, Track.WITH_ANSWER)
        try:
            result = gate(sub)
        finally:
            sub.scratch_dir.cleanup()
        assert result.status is GateStatus.FAILED and f"Candidate.{name}` is not on the allow-list" in result.detail


def test_proof_with_a_term_ends_the_proof_for_g2_as_for_coq(bench: Benchmark) -> None:
    """``Proof I.`` is ``exact I. Qed.``: what follows is top level, judged by the top-level rules (here an
    ``Opaque`` G2 once took for a tactic of the unfinished proof), and a proof so ended passes."""
    hidden = _square("Lemma zz_h : True.\nProof I.\nOpaque Nat.even.\nLemma zz_h2 : True.\nProof. exact I. Qed.\n")
    sound = _square("Lemma zz_h : True.\nProof I.\n")
    verdicts = {
        name: run_gates(
            RocqProver(),
            bench,
            bench.problems["sample_even_square"],
            candidate.encode(),
            Track.WITH_ANSWER,
            VerifyOptions(profile=Profile.TEXT),
        )
        for name, candidate in (("hidden", hidden), ("sound", sound))
    }
    status, detail = _gate(verdicts["hidden"], "G2")
    assert status is GateStatus.FAILED and "`Opaque Nat.even.`: before the theorem" in detail, detail
    assert verdicts["sound"].accepted, [g.to_json() for g in verdicts["sound"].gates]


@needs_coq
def test_a_module_hiding_a_type_is_refused_by_g5_even_with_recursion_allowed(bench: Benchmark) -> None:
    """The listing shows a nested module, not the types inside it: with ``--allow-recursion`` (no term
    check) G5 still refuses the module itself."""
    candidate = _square("Module zz_M.\n  Inductive zz_t := zz_c.\nEnd zz_M.\n")
    sub = rocq_submission(
        bench, "sample_even_square", candidate, Track.WITH_ANSWER, options=GateFlags(allow_recursion=True).options()
    )
    try:
        result = statement_gate(sub)
    finally:
        sub.scratch_dir.cleanup()
    assert result.status is GateStatus.FAILED and "`zz_M`, which the statement does not" in result.detail
