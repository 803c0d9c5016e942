"""G2 (preservation) and G3 (forbidden constructs) of the Rocq prover, the tracks and the answers."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq import RocqProver, forbidden
from putnam_solver.core.provers.rocq.checks import preservation_gate
from putnam_solver.core.provers.rocq.forbidden import forbidden_gate
from putnam_solver.core.provers.rocq.policy import POLICY
from putnam_solver.core.verify import GateResult, GateStatus, Profile, Track, VerifyOptions
from putnam_solver.kits import get_kit
from putnam_solver.kits.rocq.policy_text import ADDITIONS, describe
from tests.helpers import ROCQ_SAMPLES, rocq_submission

BENCHMARK = ROCQ_SAMPLES
"""What the ``bench`` fixture (conftest.py) loads for this module."""

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "rocq"
SUM = "sample_sum_first_n"
ODDS = "sample_sum_odds"


def proof(problem_id: str) -> str:
    return (SAMPLES / "proofs" / f"{problem_id}.v").read_text(encoding="utf-8")


def run(
    gate: str,
    bench: Benchmark,
    problem_id: str,
    candidate: str,
    track: Track = Track.WITH_ANSWER,
    options: VerifyOptions | None = None,
) -> GateResult:
    sub = rocq_submission(bench, problem_id, candidate, track, options=options)
    return (preservation_gate if gate == "G2" else forbidden_gate)(sub)


def before_theorem(text: str, addition: str) -> str:
    head, sep, tail = text.partition("Theorem sample_")
    return head + addition + "\n" + sep + tail


def test_prover_is_registered_with_its_files() -> None:
    prover = get_prover("rocq")
    assert (prover.name, prover.suffix) == ("rocq", ".v")
    assert [g.id for g in prover.gates()] == ["G2", "G3", "G4", "G5", "G6"]
    assert "## Forbidden anywhere outside the challenge's own sentences" in get_kit("rocq").policy_text(VerifyOptions())


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
        ('Local Notation "x = y" := (x = x) (at level 70).', "`Notation` is not a permitted addition"),
        ("Section S.", "`Section S`: a section of yours that holds the theorem: close it (`End S.`) right after"),
        ("Section S.\nVariable k : nat.\nEnd S.", ""),  # discharged at End (sections.py)
        ("Variable k : nat.", "`Variable` is not a permitted addition"),
        ("Section S.\nLemma x : True.\nProof. exact I. Qed.\nEnd T.", "does not close `Section S`"),
        ("Set Implicit Arguments.", ""),  # class 2: G5 decides on this (full) profile
        ("Set Universe Polymorphism.", "not one known to leave the statement alone"),
        ("Global Set Implicit Arguments.", "reaches every file that loads the candidate"),
        ("Local Arguments sum_to n : simpl never.", ""),  # class 2, as above
        ("Arguments sum_to n : simpl never.", "write `Local Arguments`"),  # replayed by `Require` (red team 20)
        ("Require Import GeoCoq.Main.", "only installed libraries"),
        ("From Ltac2 Require Import Ltac2.", "only installed libraries"),
        ("Definition sum_to' := 0.", ""),
        ("Definition n := 0.", "has the name of a word of the challenge"),
        ("Lemma x : True.\nProof. Arguments sum_to n : simpl never. exact I. Qed.", "not allowed in proofs"),
        ("Lemma x : True.\nProof. Set Universe Polymorphism. exact I. Qed.", "not one known to leave"),
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


TEXT = VerifyOptions(profile=Profile.TEXT)
CHECK_BEFORE_FULL = VerifyOptions(profile=Profile.FAST, acceptance=Profile.FULL)
FULL = VerifyOptions(profile=Profile.FULL)


def after_proof(text: str, addition: str) -> str:
    return text.rstrip("\n") + "\n" + addition + "\n"


def in_theorem_proof(text: str, addition: str) -> str:
    head, sep, tail = text.rpartition("Proof.\n")
    return head + sep + "  " + addition + "\n" + tail


@pytest.mark.parametrize(
    "candidate",
    [
        after_proof(proof(SUM), "Print Assumptions sample_sum_first_n."),
        after_proof(proof(SUM), 'Check sample_sum_first_n.\nAbout sum_to.\nLocate "+".\nSearch sum_to.'),
        before_theorem(proof(SUM), 'Set Warnings "-notation-overridden".\nCheck sum_to.'),
        in_theorem_proof(proof(SUM), 'Set Warnings "-deprecated".'),
        before_theorem(proof(SUM), 'Lemma x : True.\nProof. Set Warnings "-all". Print sum_to. exact I. Qed.'),
        before_theorem(proof(SUM), "Section Helpers.\nLemma x : True.\nProof. exact I. Qed.\nEnd Helpers."),
        in_theorem_proof(proof(SUM), "Import Nat. Local Open Scope nat_scope."),
        after_proof(proof(SUM), "Import Nat.\nLocal Open Scope nat_scope.\nClose Scope nat_scope.\nCheck 0."),
    ],
    ids=[
        "print-assumptions-after",
        "queries-after",
        "set-warnings-before",
        "set-warnings-in-proof",
        "queries-in-helper-proof",
        "section-of-helpers",
        "imports-in-theorem-proof",
        "imports-after",
    ],
)
def test_additions_that_cannot_change_the_statement_pass_on_every_profile(bench: Benchmark, candidate: str) -> None:
    for options in (TEXT, FULL):
        for gate in ("G2", "G3"):
            result = run(gate, bench, SUM, candidate, options=options)
            assert result.passed, (options.profile, gate, result.detail)


@pytest.mark.parametrize(
    "addition",
    [
        "Import Nat.",
        "Local Open Scope nat_scope.",
        "Open Scope nat_scope.",
        "Require Import Psatz.",
        "From Coq Require Import ZArith.",
        "Lemma x : True.\nProof. Open Scope nat_scope. exact I. Qed.",
        "Lemma x : True.\nProof. Import Nat. exact I. Qed.",
        "Section Helpers.\nImport Nat.\nEnd Helpers.",
    ],
)
def test_additions_that_act_through_elaboration_pass_only_where_g5_judges(bench: Benchmark, addition: str) -> None:
    candidate = before_theorem(proof(SUM), addition)
    refused = run("G2", bench, SUM, candidate, options=TEXT)
    assert refused.status is GateStatus.FAILED, refused.detail
    assert "the `full` profile (G5's trusted type check) decides it; this acceptance runs `text`" in refused.detail
    for options in (FULL, CHECK_BEFORE_FULL):
        assert run("G2", bench, SUM, candidate, options=options).passed, options
    assert run("G2", bench, SUM, candidate, options=VerifyOptions(profile=Profile.FAST)).status is GateStatus.FAILED


@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc missing")
def test_scopes_and_imports_of_a_helper_proof_outlive_its_qed(tmp_path: Path) -> None:
    """Why they are class 2 before the theorem even inside a proof: coqc keeps them after ``Qed``."""
    (tmp_path / "T.v").write_text(
        "Require Import ZArith.\nLemma h : True.\nProof. Open Scope Z_scope. Import Z. exact I. Qed.\n"
        "Check (1 + 1 : Z).\nCheck add_0_r.\nGoal (1 + 1 = 2)%Z. reflexivity. Qed.\nCheck (1 + 1).\n"
    )
    done = subprocess.run(["coqc", "T.v"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(": Z"), done.stdout


def test_a_section_may_hold_the_theorem_and_discharges_its_assumptions(bench: Benchmark) -> None:
    """A section around the theorem closed right after its proof (``sections.py``; G5 decides on its type)."""
    around = proof(SUM).replace("Theorem sample_", "Section S.\nTheorem sample_") + "End S.\n"
    assert run("G2", bench, SUM, around).status is GateStatus.PASSED
    assert run("G3", bench, SUM, around).status is GateStatus.PASSED
    late = (
        proof(SUM).replace("Theorem sample_", "Section S.\nTheorem sample_") + "Check 1.\nDefinition d := 1.\nEnd S.\n"
    )
    result = run("G2", bench, SUM, late)
    assert result.status is GateStatus.FAILED and "right after its proof" in result.detail, result.detail
    assumed = before_theorem(proof(SUM), "Section S.\nContext (k : nat).\nEnd S.")
    assert run("G2", bench, SUM, assumed).status is GateStatus.PASSED
    assert run("G3", bench, SUM, assumed).status is GateStatus.PASSED
    axiom = before_theorem(proof(SUM), "Context (k : nat).")
    assert run("G2", bench, SUM, axiom).status is GateStatus.FAILED
    assert run("G3", bench, SUM, axiom).status is GateStatus.FAILED


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda t: t.replace("2 * sum_to n", "sum_to n + sum_to n"), "differs from the challenge"),
        (lambda t: t.replace("Theorem sample_sum_first_n", "Theorem sample_sum_first_n'"), "theorem"),
        (lambda t: t.replace("| O => O", "| O => 1"), "missing or changed"),
        (lambda t: t.replace("Qed.", "Abort."), "ends with `Abort`"),
        (lambda t: t.replace("Qed.", ""), "never ends"),
        (lambda t: t + "Inductive after : Type := c.\n", "`Inductive` is not a permitted addition"),
        (lambda t: t + "Arguments Nat.add : simpl never.\n", "after the theorem it can act only in the files"),
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


def test_rejection_detail_lists_line_construct_rule(bench: Benchmark) -> None:
    """The same report as Lean's text gates: one violation a line in the detail, all of them as data."""
    g3 = run("G3", bench, SUM, bench.problems[SUM].formal_statement)
    assert g3.detail == "line 11: `Admitted`: leaves a proof obligation unproved"
    assert g3.evidence["violations"] == [
        {"line": 11, "construct": "`Admitted`", "rule": "leaves a proof obligation unproved"}
    ]
    g2 = run("G2", bench, SUM, proof(SUM).replace("Qed.", "Abort.") + "Inductive after : Type := c.\n")
    assert [v["line"] for v in g2.evidence["violations"]] == [13, 14]
    assert g2.detail.splitlines() == [str(Violation(**v)) for v in g2.evidence["violations"]]


@pytest.mark.parametrize("gate", ["G2", "G3"])
def test_unreadable_source_is_refused_at_the_lexing_error(bench: Benchmark, gate: str) -> None:
    result = run(gate, bench, SUM, proof(SUM) + "(* never closed\n")
    assert result.status is GateStatus.FAILED
    assert result.detail == "line 14: unreadable source: lexing: unterminated comment"


def test_an_unended_proof_is_reported_at_the_end_of_the_file(bench: Benchmark) -> None:
    unended = run("G2", bench, SUM, proof(SUM).replace("Qed.", ""))
    assert unended.detail == "line 12: the proof of `sample_sum_first_n`: never ends (no Qed. or Defined.)"


def test_the_guard_note_follows_the_recursion_violations(bench: Benchmark, monkeypatch: pytest.MonkeyPatch) -> None:
    """Said once, after the violations, so every other line of the detail stays a violation."""
    monkeypatch.setattr(forbidden, "detected_version", lambda coqc: (8, 16, 1))
    result = run("G3", bench, SUM, before_theorem(proof(SUM), "Fixpoint zz (m : nat) : nat := 0."))
    first, note = result.detail.splitlines()
    assert first.startswith("line 9: `Fixpoint`: defines its own recursion")
    assert note.startswith("recursion is refused because Coq 8.16.1 has known guard checker bugs")
    assert "rocq#20455" in note
    assert result.evidence["recursion"] == "refused" and len(result.evidence["violations"]) == 1


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
    text = describe(POLICY)
    assert "| Require, Import, Export (installed libraries), Open Scope, Close Scope (before the theorem" in text
    assert "the effect outlives Qed) | elaboration |" in text and "runs G5 (profile `full`)" in text
    assert all(a.reason for a in ADDITIONS)
    assert "Lemma" in text and "Fixpoint" in text and "Require" in text
    assert "| `Axiom` | axiom | declares an assumption" in text
    assert "| `Guard Checking` | kernel | disables a kernel check |" in text


def test_the_agents_check_applies_the_rules_of_the_profile_that_will_judge_it(bench: Benchmark) -> None:
    """``check`` runs ``fast`` but must not refuse an import that ``submit``'s full profile accepts."""
    from putnam_solver.run.agent.task import _context
    from putnam_solver.run.agent.types import Budgets, SolveConfig

    config = SolveConfig(
        prover="rocq",
        track=Track.WITH_ANSWER,
        model="mockllm/model",
        reviewer_model=None,
        reasoning_effort=None,
        agent="react",
        sandbox="local",
        jobs=1,
        fallback_jobs=1,
        budgets=Budgets(),
    )
    candidate = before_theorem(proof(SUM), "Import Nat.")
    for acceptance, verdict in ((Profile.FULL, GateStatus.PASSED), (Profile.TEXT, GateStatus.FAILED)):
        context = _context(RocqProver(), bench, bench.problems[SUM], replace(config, acceptance_profile=acceptance))
        assert context.check_options.profile is Profile.FAST
        assert run("G2", bench, SUM, candidate, options=context.check_options).status is verdict


@pytest.mark.parametrize(
    ("helper", "answer", "refused"),
    [
        ("Definition sq (k : nat) : nat := k * k.", "fun n => sq n", "sq"),
        ("Definition sq (k : nat) : nat := k * k.", "fun n => Top.sq n", "sq"),
        ("Ltac sq_tac := exact (fun n => n * n).", "ltac:(sq_tac)", "sq_tac"),
        ("Definition sq (k : nat) : nat := k * k.", "fun n => n * n", ""),
        ("Definition sq (k : nat) : nat := k * k.", "fun n => Nat.square n", ""),
    ],
)
def test_a_no_answer_answer_may_not_name_what_the_candidate_defines(
    bench: Benchmark, helper: str, answer: str, refused: str
) -> None:
    solution = "Definition sample_sum_odds_solution"
    candidate = proof(ODDS).replace(solution, f"{helper}\n{solution}")
    candidate = candidate.replace("fun n => n * n", answer)
    result = run("G2", bench, ODDS, candidate, Track.NO_ANSWER)
    if refused:
        assert result.status is GateStatus.FAILED, result.detail
        assert f"the answer names `{refused}`, which the candidate defines" in result.detail
    else:
        assert result.passed, result.detail


@pytest.mark.parametrize(
    "structured",
    [
        "Proof.\n  { induction n as [| k IH]; simpl; [reflexivity | lia]. }\nQed.",
        "Proof.\n  induction n as [| k IH]; simpl.\n  - reflexivity.\n  - { lia. }\nQed.",
        "Proof.\n  induction n as [| k IH]; simpl.\n  2: { lia. }\n  reflexivity.\nQed.",
        "Proof.\n  induction n as [| k IH]; simpl.\n  + reflexivity.\n  + lia.\nQed.",
    ],
)
def test_braces_bullets_and_goal_selectors_end_their_sentences_as_coq_reads_them(
    bench: Benchmark, structured: str
) -> None:
    """``}`` then ``Qed.`` is two sentences (Coq needs no period after a brace or bullet): the proof ends."""
    text = proof(SUM)
    head, _, _ = text.partition("Proof.")
    candidate = head + structured + "\n"
    for gate in ("G2", "G3"):
        result = run(gate, bench, SUM, candidate)
        assert result.status is GateStatus.PASSED, result.detail
    if shutil.which("coqc"):
        from putnam_solver.core.provers.rocq.compile import compile_gate

        compiled = compile_gate(rocq_submission(bench, SUM, candidate, Track.WITH_ANSWER))
        assert compiled.status is GateStatus.PASSED, f"coqc accepts it too: {compiled.detail}"
