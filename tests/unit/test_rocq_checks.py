"""G2 (preservation) and G3 (forbidden constructs) of the Rocq prover, the tracks and the answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.benchmark import Benchmark, load_benchmark
from putnam_solver.provers import get_prover
from putnam_solver.provers.rocq import RocqProver
from putnam_solver.provers.rocq.checks import POLICY, forbidden_gate, preservation_gate
from putnam_solver.verify import GateResult, GateStatus, Track
from tests.helpers import rocq_submission

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "rocq"
SUM = "sample_sum_first_n"
ODDS = "sample_sum_odds"


@pytest.fixture(scope="module")
def bench() -> Benchmark:
    return load_benchmark(SAMPLES / "benchmark.jsonl")


def proof(problem_id: str) -> str:
    return (SAMPLES / "proofs" / f"{problem_id}.v").read_text(encoding="utf-8")


def run(gate: str, bench: Benchmark, problem_id: str, candidate: str, track: Track = Track.WITH_ANSWER) -> GateResult:
    sub = rocq_submission(bench, problem_id, candidate, track)
    return (preservation_gate if gate == "G2" else forbidden_gate)(sub)


def before_theorem(text: str, addition: str) -> str:
    head, sep, tail = text.partition("Theorem sample_")
    return head + addition + "\n" + sep + tail


def test_prover_is_registered_with_its_files() -> None:
    prover = get_prover("rocq")
    assert (prover.name, prover.suffix, prover.benchmark_file) == ("rocq", ".v", "putnam_bench_coq.jsonl")
    assert [g.id for g in prover.gates()] == ["G2", "G3", "G4", "G5", "G6"]
    assert "G3: forbidden" in prover.policy_text()


def test_has_answer_follows_the_solution_definition(bench: Benchmark) -> None:
    prover = RocqProver()
    assert prover.has_answer(bench.problems[ODDS]) and not prover.has_answer(bench.problems[SUM])


def test_sample_proofs_pass_both_text_gates(bench: Benchmark) -> None:
    for problem_id in bench.problems:
        for gate in ("G2", "G3"):
            result = run(gate, bench, problem_id, proof(problem_id))
            assert result.status is GateStatus.PASSED, (problem_id, gate, result.detail)


def test_whitespace_and_comments_may_change_but_not_gluing(bench: Benchmark) -> None:
    reformatted = proof(SUM).replace("2 * sum_to n", "2   *\n (* c *) sum_to n")
    assert run("G2", bench, SUM, reformatted).passed
    reglued = proof(SUM).replace("n * (n + 1)", "n*(n + 1)")
    assert run("G2", bench, SUM, reglued).status is GateStatus.FAILED


@pytest.mark.parametrize(
    ("addition", "expected"),
    [
        ("Open Scope nat_scope.", "`Open` is not a permitted addition"),
        ('Local Notation "x = y" := (x = x) (at level 70).', "`Notation` is not a permitted addition"),
        ("Section S.", "`Section` is not a permitted addition"),
        ("Set Implicit Arguments.", "`Set` is not a permitted addition"),
        ("Arguments sum_to n : simpl never.", "`Arguments` is not a permitted addition"),
        ("Require Import GeoCoq.Main.", "only installed libraries"),
        ("From Ltac2 Require Import Ltac2.", "only installed libraries"),
        ("Definition sum_to' := 0.", ""),
        ("Definition n := 0.", "has the name of a word of the challenge"),
        ("Lemma x : True.\nProof. Open Scope R_scope. exact I. Qed.", "not allowed in proofs"),
    ],
)
def test_g2_additions_before_the_theorem(bench: Benchmark, addition: str, expected: str) -> None:
    result = run("G2", bench, SUM, before_theorem(proof(SUM), addition))
    if expected:
        assert result.status is GateStatus.FAILED and expected in result.detail, result.detail
    else:
        assert result.passed, result.detail


def test_g2_permits_helpers_and_installed_libraries(bench: Benchmark) -> None:
    addition = (
        "Require Import Coq.Lists.List Psatz.\nFrom mathcomp Require Import ssrnat.\nLtac solve := lia.\n"
        "Fixpoint twice (k : nat) : nat := match k with O => O | S j => S (S (twice j)) end.\n"
        "Lemma helper : True.\nProof. exact I. Defined."
    )
    result = run("G2", bench, SUM, before_theorem(proof(SUM), addition))
    assert result.passed, result.detail


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda t: t.replace("2 * sum_to n", "sum_to n + sum_to n"), "differs from the challenge"),
        (lambda t: t.replace("Theorem sample_sum_first_n", "Theorem sample_sum_first_n'"), "theorem"),
        (lambda t: t.replace("Require Import Arith Lia.", "Require Import Arith."), "missing or changed"),
        (lambda t: t.replace("Qed.", "Abort."), "ends with `Abort`"),
        (lambda t: t.replace("Qed.", ""), "never ends"),
        (lambda t: t + "Lemma after : True.\nProof. exact I. Qed.\n", "nothing may follow"),
    ],
)
def test_g2_rejects_edits(bench: Benchmark, edit, expected: str) -> None:  # type: ignore[no-untyped-def]
    result = run("G2", bench, SUM, edit(proof(SUM)))
    assert result.status is GateStatus.FAILED and expected in result.detail, result.detail


def test_g2_accepts_admitted_and_leaves_it_to_g3(bench: Benchmark) -> None:
    shipped = bench.problems[SUM].formal_statement
    assert run("G2", bench, SUM, shipped).passed
    g3 = run("G3", bench, SUM, shipped)
    assert g3.status is GateStatus.FAILED and "line 11: `Admitted`" in g3.detail


@pytest.mark.parametrize(
    "construct",
    [
        "Axiom a : False.",
        "Axioms a b : False.",
        "Parameter p : nat.",
        "Parameters p q : nat.",
        "Conjecture c : False.",
        "Hypothesis h : False.",
        "Hypotheses h g : False.",
        "Variable v : nat.",
        "Variables v w : nat.",
        "Context (v : nat).",
        "Local Axiom a : False.",
        "Section S.",
        "Module M.",
        "Unset Guard Checking.",
        "Unset Positivity Checking.",
        "Unset Universe Checking.",
        "#[bypass_check(guard)] Fixpoint f (k : nat) : nat := f k.",
        'Declare ML Module "x".',
        'Load "x".',
        'Add LoadPath "." as X.',
        'Add ML Path ".".',
        'Notation "x ++" := (S x) (at level 1).',
        'Infix "+++" := plus (at level 50).',
        'Reserved Notation "x +++ y" (at level 50).',
        "Admit Obligations.",
        "Drop.",
        "Extraction sum_to.",
        'Redirect "f" Print sum_to.',
        "Set Typeclasses Depth 1.",
        "Existing Instance foo.",
        "Canonical foo.",
        "Coercion foo : nat >-> bool.",
        'Cd "/".',
        "Reset Initial.",
    ],
)
def test_g3_forbids_each_construct_and_says_where(bench: Benchmark, construct: str) -> None:
    result = run("G3", bench, SUM, before_theorem(proof(SUM), construct))
    assert result.status is GateStatus.FAILED
    assert result.detail.startswith("line 9: `"), result.detail


@pytest.mark.parametrize("tactic", ["admit.", "give_up.", "exact ltac:(admit).", "abstract admit."])
def test_g3_forbids_unfinished_tactics_inside_proofs(bench: Benchmark, tactic: str) -> None:
    candidate = proof(SUM).replace("induction n", f"{tactic}\n  induction n")
    result = run("G3", bench, SUM, candidate)
    assert result.status is GateStatus.FAILED and "leaves a proof obligation unproved" in result.detail


def test_g3_ignores_comments_strings_and_the_challenges_own_sentences(bench: Benchmark) -> None:
    candidate = proof("sample_rev_length").replace("Proof.", '(* Axiom admit *) Proof. idtac "Admitted".')
    assert "Variable A : Type." in candidate
    assert run("G3", bench, "sample_rev_length", candidate).passed
    doubled = candidate.replace("Variable A : Type.", "Variable A : Type.\nVariable A' : Type.")
    assert run("G3", bench, "sample_rev_length", doubled).status is GateStatus.FAILED


def test_no_answer_challenge_hides_the_answer_and_answers_are_recorded(bench: Benchmark) -> None:
    prover = RocqProver()
    problem = bench.problems[ODDS]
    shown = prover.model_statement(problem, Track.NO_ANSWER)
    assert "Definition sample_sum_odds_solution : nat -> nat := _." in shown
    assert "n * n" not in shown
    assert prover.challenge(problem, Track.WITH_ANSWER) == problem.formal_statement
    mine = proof(ODDS).replace("fun n => n * n", "fun k => k ^ 2")
    assert run("G2", bench, ODDS, mine, Track.NO_ANSWER).passed
    assert run("G2", bench, ODDS, mine, Track.WITH_ANSWER).status is GateStatus.FAILED
    assert prover.answers(problem, mine, Track.NO_ANSWER) == {
        "sample_sum_odds_solution": {"candidate": "fun k => k ^ 2", "official": "fun n => n * n"}
    }
    assert prover.answers(problem, mine, Track.WITH_ANSWER) == {}
    retyped = mine.replace(": nat -> nat := fun k", ": nat -> Z := fun k")
    assert run("G2", bench, ODDS, retyped, Track.NO_ANSWER).status is GateStatus.FAILED


def test_policy_describes_both_lists() -> None:
    text = POLICY.describe()
    assert "Lemma" in text and "Fixpoint" in text and "Require" in text
    assert "Axiom: declares an assumption" in text and "Guard Checking: disables a kernel check" in text
