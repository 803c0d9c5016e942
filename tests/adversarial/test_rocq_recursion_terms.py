"""Candidate recursion found in the kernel terms (G5), whatever spelling built it, with real coqc.

The text rule of G3 is a first line only: a mutual theorem (``Lemma a ... with b ...``) makes Coq build
a fixpoint without any word the rule knows, and so do tactics and plugins. These tests run G5 alone, so
that what is asserted is the term check's own verdict, not G3's.
"""

from __future__ import annotations

from typing import Any

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.provers.rocq import build as rocq_build
from putnam_solver.core.provers.rocq.recursion import Unreadable, exempt_names, predicted_fields, read_fields
from putnam_solver.core.provers.rocq.statement import statement_gate
from putnam_solver.core.verify import GateStatus, Profile, Track, VerifyOptions, run_gates
from putnam_solver.verifier.options import GateFlags
from tests.helpers import ROCQ_SAMPLES, needs_coq, rocq_submission

BENCHMARK = ROCQ_SAMPLES
"""What the ``bench`` fixture (conftest.py) loads for this module."""


SQUARE_PROOF = "rewrite Nat.even_mul.\n  destruct (Nat.even n); reflexivity."


def _square(helper: str, proof: str = SQUARE_PROOF, header: str = "Require Import Arith.") -> str:
    """A sound candidate for sample_even_square with ``helper`` sentences before the theorem."""
    return (
        f"{header}\n\n{helper}\n\nTheorem sample_even_square\n    (n : nat)\n"
        f"    : Nat.even (n * n) = Nat.even n.\nProof.\n  {proof}\nQed.\n"
    )


def _mutual(keyword: str) -> str:
    return _square(
        f"{keyword} zz_a : forall m : nat, m = m\nwith zz_b : forall m : nat, m + 0 = m + 0.\n"
        "Proof.\n  intro m; reflexivity.\n  intro m; reflexivity.\nQed."
    )


STRUCTURAL = "match m with 0 => 0 | S k => zz_f k end"
SPELLINGS = {
    **{f"mutual {k} with": _mutual(k) for k in ("Theorem", "Lemma", "Fact", "Remark", "Corollary")},
    **{f"mutual {k} with": _mutual(k) for k in ("Proposition", "Property")},
    "Fixpoint": _square(f"Fixpoint zz_f (m : nat) : nat := {STRUCTURAL}."),
    "Definition := fix": _square(f"Definition zz_d := fix zz_f (m : nat) : nat := {STRUCTURAL}."),
    "let fix": _square(f"Definition zz_d : nat := let fix zz_f (m : nat) : nat := {STRUCTURAL} in zz_f 3."),
    "fix in the theorem's proof": _square("", f"revert n; fix zz_ih 1; intro n.\n  {SQUARE_PROOF}"),
    "fix tactic": _square(
        "Lemma zz_l : forall m : nat, m + 0 = m.\nProof.\n  fix zz_ih 1.\n  intros [|k].\n  - reflexivity.\n"
        "  - simpl; f_equal; apply zz_ih.\nQed."
    ),
    "Ltac building a fix": _square(
        "Ltac zz_t := fix zz_ih 1.\nLemma zz_l : forall m : nat, m = m.\nProof. zz_t. reflexivity. Qed."
    ),
    "CoFixpoint": _square("CoFixpoint zz_s : Stream nat := Cons 0 zz_s.", header="Require Import Arith Streams."),
    "cofix tactic": _square(
        "Lemma zz_c : forall s : Stream nat, EqSt s s.\nProof.\n  cofix zz_ih.\n  intros [x s].\n"
        "  constructor; [reflexivity | apply zz_ih].\nQed.",
        header="Require Import Arith Streams.",
    ),
    "Function": _square(f"Function zz_f (m : nat) : nat := {STRUCTURAL}.", header="Require Import Arith FunInd."),
    "Program Fixpoint": _square(
        f"Program Fixpoint zz_f (m : nat) : nat := {STRUCTURAL}.", header="Require Import Arith Program."
    ),
    "Scheme": _square("Scheme zz_ind := Induction for nat Sort Prop."),
}
"""Spellings that each make Coq build a (co)fixpoint in a constant of the candidate's module (``Example``
takes no ``with`` in Coq 8.16: a syntax error, so G4 refuses it first)."""

LIBRARY = {
    "induction": _square("", "induction n as [|k _]; rewrite Nat.even_mul; destruct (Nat.even _); reflexivity."),
    "nat_rect": _square("Definition zz_d (m : nat) : nat := nat_rect (fun _ => nat) 0 (fun _ r => S r) m."),
    "nat_rec": _square("Definition zz_d (m : nat) : nat := nat_rec (fun _ => nat) 0 (fun _ r => S r) m."),
    "Wf.Fix": _square("Definition zz_w := @Fix."),
    "a name containing fix": _square("Definition zz_fixed_point (prefix : nat) : nat := prefix."),
    "Print Assumptions after the theorem": _square("") + "Print Assumptions sample_even_square.\n",
}
"""Recursion through the library's recursors, and words that only look like ``fix``: G5 must pass."""


def _g5(bench: Benchmark, problem: str, candidate: str, track: Track = Track.WITH_ANSWER, **options: object):  # type: ignore[no-untyped-def]
    sub = rocq_submission(bench, problem, candidate, track, options=GateFlags(**options).options())  # type: ignore[arg-type]
    try:
        return statement_gate(sub)
    finally:
        sub.scratch_dir.cleanup()


SAMPLED = {"mutual Lemma with", "fix tactic", "Ltac building a fix", "cofix tactic", "Function", "Scheme"}
"""The spellings the default run checks (one per way Coq builds the term); ``-m slow`` checks them all."""


@needs_coq
@pytest.mark.parametrize("name", [n if n in SAMPLED else pytest.param(n, marks=pytest.mark.slow) for n in SPELLINGS])
def test_every_spelling_of_candidate_recursion_is_refused_by_its_kernel_terms(bench: Benchmark, name: str) -> None:
    g5 = _g5(bench, "sample_even_square", SPELLINGS[name])
    assert g5.status is GateStatus.FAILED, (name, g5.detail)
    assert "contain a fixpoint" in g5.detail and "rocq#20455" in g5.detail
    assert g5.evidence["recursion"]["with_fixpoint"]


@needs_coq
@pytest.mark.parametrize("name", ["mutual Lemma with", "fix tactic", "Scheme"])
def test_allow_recursion_lifts_the_term_check(bench: Benchmark, name: str) -> None:
    g5 = _g5(bench, "sample_even_square", SPELLINGS[name], allow_recursion=True)
    assert g5.status is GateStatus.PASSED, g5.detail
    assert "recursion: allowed" in g5.detail and "recursion" not in g5.evidence


@needs_coq
@pytest.mark.parametrize("name", LIBRARY)
def test_library_recursion_passes_the_term_check(bench: Benchmark, name: str) -> None:
    g5 = _g5(bench, "sample_even_square", LIBRARY[name])
    assert g5.status is GateStatus.PASSED, (name, g5.detail)
    assert g5.evidence["recursion"]["with_fixpoint"] == []


@needs_coq
@pytest.mark.parametrize("problem", ["sample_sum_first_n", "sample_sum_odds"])
def test_the_statements_own_fixpoint_is_exempt_by_its_term(bench: Benchmark, problem: str) -> None:
    candidate = (ROCQ_SAMPLES.parent / "proofs" / f"{problem}.v").read_text(encoding="utf-8")
    g5 = _g5(bench, problem, candidate)
    assert g5.status is GateStatus.PASSED, g5.detail
    recursion = g5.evidence["recursion"]
    assert recursion["with_fixpoint"] == recursion["statement_own"] != []


SUM_ODDS_NO_ANSWER = """Require Import Arith Lia.

Fixpoint sum_odds (n : nat) : nat :=
  match n with
  | O => O
  | S k => 2 * k + 1 + sum_odds k
  end.

Definition sample_sum_odds_solution : nat -> nat := {answer}.
Theorem sample_sum_odds
    : forall n : nat, sum_odds n = sample_sum_odds_solution n.
Proof.
  {proof}
Qed.
"""


@needs_coq
def test_on_no_answer_the_candidates_solution_is_its_own_recursion(bench: Benchmark) -> None:
    """The statement's `sum_odds` stays exempt; a solution written as a fixpoint is the candidate's."""
    recursive = SUM_ODDS_NO_ANSWER.format(
        answer="fix zz_sq (m : nat) : nat := match m with 0 => 0 | S k => zz_sq k + 2 * k + 1 end",
        proof="induction n as [| k IH]; simpl; [reflexivity | rewrite IH; lia].",
    )
    g5 = _g5(bench, "sample_sum_odds", recursive, Track.NO_ANSWER)
    assert g5.status is GateStatus.FAILED, g5.detail
    assert g5.evidence["recursion"]["statement_own"] == ["sum_odds"]
    assert "`sample_sum_odds_solution`" in g5.detail
    closed = SUM_ODDS_NO_ANSWER.format(
        answer="fun n => n * n",
        proof="unfold sample_sum_odds_solution.\n  induction n as [| k IH]; simpl; [reflexivity | rewrite IH; lia].",
    )
    assert _g5(bench, "sample_sum_odds", closed, Track.NO_ANSWER).status is GateStatus.PASSED


@needs_coq
@pytest.mark.parametrize("name", ["mutual Lemma with", "fix tactic"])
def test_the_full_profile_rejects_what_the_text_rule_misses(bench: Benchmark, name: str) -> None:
    verdict = run_gates(
        RocqProver(),
        bench,
        bench.problems["sample_even_square"],
        SPELLINGS[name].encode(),
        Track.WITH_ANSWER,
        VerifyOptions(profile=Profile.FULL, keep_going=True),
    )
    assert not verdict.accepted
    failed = {g.id for g in verdict.gates if g.status == "failed"}
    assert "G5" in failed


def test_module_listing_is_read_by_its_grammar() -> None:
    marker = "M"
    out = "noise\nM\nModule\nCandidate\n:= Struct\n  Definition End\n  Parameter thm\n  Module Type T\nEnd\n"
    assert read_fields(out, marker) == [("Definition", "End"), ("Parameter", "thm"), ("Module Type", "T")]
    for broken in ("M\nModule Candidate := Struct Definition\nEnd", "M\nModule Other := Struct End", "no marker"):
        with pytest.raises(Unreadable):
            read_fields(broken, marker)
    with pytest.raises(Unreadable):
        read_fields("M\nModule Candidate := Struct Axiom x End", marker)


def test_exemption_needs_the_same_term_and_exempt_references() -> None:
    pristine = {"f": "Pristine.f = fix f (n : nat) : nat := Pristine.g n", "g": "Pristine.g = fun n => n"}
    same = {"f": "Candidate.f = fix f (n : nat) : nat :=\n   Candidate.g n", "g": "Candidate.g = fun n => n"}
    assert exempt_names(same, pristine) == ["f", "g"]
    changed_helper = {**same, "g": "Candidate.g = fun n => S n"}
    assert exempt_names(changed_helper, pristine) == []
    other_body = {**same, "f": "Candidate.f = fix f (n : nat) : nat := f n"}
    assert exempt_names(other_body, pristine) == ["g"]


def test_guessed_fields_are_declarations_outside_modules() -> None:
    text = (
        "Require Import Arith.\nSection S.\nVariable v : nat.\nLemma in_section : v = v.\nProof. reflexivity. Qed.\n"
        "End S.\nModule M.\nDefinition in_module := 0.\nEnd M.\nModule N := M.\n#[local] Definition after := 1.\n"
        "Fail Lemma failed : False.\nFixpoint f (n : nat) : nat := n.\nLemma in_section : True.\n"
        "Theorem sample_even_square : True.\nProof. exact I. Qed.\n"
    )
    assert predicted_fields(text) == ["in_section", "after", "f", "sample_even_square"]
    assert predicted_fields("(* unterminated") == []


class _Runs:
    """The harness files each sandboxed coqc run compiled, in order (the gates' own runs, unchanged)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.files: list[str] = []
        real = rocq_build.run_sandboxed

        def recorded(argv: list[str], **kwargs: Any) -> Any:
            self.files.append(argv[-1])
            return real(argv, **kwargs)

        monkeypatch.setattr(rocq_build, "run_sandboxed", recorded)


@needs_coq
@pytest.mark.parametrize(
    ("spelling", "refused", "runs"),
    [
        ("Fixpoint", "zz_f", ["Trusted.v"]),  # declared: printed by the trusted file itself
        ("mutual Lemma with", "zz_b", ["Trusted.v", "Terms.v"]),  # zz_b is declared by no sentence of its own
    ],
)
def test_the_trusted_file_prints_what_the_text_declares_and_a_run_of_its_own_the_rest(
    bench: Benchmark, monkeypatch: pytest.MonkeyPatch, spelling: str, refused: str, runs: list[str]
) -> None:
    recorded = _Runs(monkeypatch)
    result = _g5(bench, "sample_even_square", SPELLINGS[spelling])
    assert result.status is GateStatus.FAILED and refused in result.detail
    assert [f for f in recorded.files if f.startswith(("Trusted", "Terms"))] == runs
    recorded.files.clear()
    assert _g5(bench, "sample_even_square", LIBRARY["nat_rect"]).status is GateStatus.PASSED
    assert [f for f in recorded.files if f.startswith(("Trusted", "Terms"))] == ["Trusted.v"]


@needs_coq
def test_the_statements_own_assumptions_are_printed_by_the_trusted_file(
    bench: Benchmark, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Variable A : Type.`` is a field (a ``Parameter``) of every faithful candidate's module: guessed from
    the pinned statement, it needs no print run of its own."""
    runs = _Runs(monkeypatch)
    proof = (ROCQ_SAMPLES.parent / "proofs" / "sample_rev_length.v").read_text(encoding="utf-8")
    assert _g5(bench, "sample_rev_length", proof).status is GateStatus.PASSED
    assert [f for f in runs.files if f.startswith(("Trusted", "Terms"))] == ["Trusted.v"]
    assert predicted_fields("Lemma b : True.\nProof. exact I. Qed.", ["A", "A", "not a label"]) == ["A", "b"]


@needs_coq
def test_a_wrong_guess_costs_a_second_trusted_run_never_the_verdict(
    bench: Benchmark, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = _Runs(monkeypatch)
    aborted = "Lemma zz_gone : 1 = 1.\nProof. Abort.\nLemma zz_kept : 2 = 2.\nProof. reflexivity. Qed."
    assert _g5(bench, "sample_even_square", _square(aborted)).status is GateStatus.PASSED
    assert [f for f in runs.files if f.startswith(("Trusted", "Terms"))] == ["Trusted.v", "Trusted.v", "Terms.v"]
    runs.files.clear()
    hidden = _g5(bench, "sample_even_square", _square(aborted + "\n" + SPELLINGS["fix tactic"].split("\n\n")[1]))
    assert hidden.status is GateStatus.FAILED and "zz_l" in hidden.detail
