"""Candidate-defined recursion on a Coq with known guard-checker bugs (Coq 8.16.1: rocq#20455 and kin).

The exploit of rocq-prover/rocq#20455 (a `Fixpoint` written in proof mode whose recursive call hides
behind a local function and an `if`) proves `False` with coqc and coqchk both accepting it; from there
`exfalso` proves any statement. These tests run it through the real gates.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.provers.rocq.forbidden import challenge_statement, check_forbidden
from putnam_solver.core.provers.rocq.kernel_bugs import guard_bugs, known_kernel_bugs, parse_version, recursion_refused
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from putnam_solver.kits.rocq.status import kernel_bug_report
from putnam_solver.verifier.options import GateFlags
from tests.helpers import ROCQ_SAMPLES, needs_coq, rocq_submission

BENCHMARK = ROCQ_SAMPLES
"""What the ``bench`` fixture (conftest.py) loads for this module."""

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples" / "rocq"

GUARD_FALSE = """Require Import Arith.

Definition zz_not_zero n := match n with 0 => False | S _ => True end.
Definition zz_not_one n := match n with 0 => False | S n => zz_not_zero n end.

Fixpoint zz_issue (m : nat) {struct m} : zz_not_zero m -> False.
  refine
  match m with
  | 0 => fun h => h
  | S subn => fun h =>
    let f (b : bool) (e : b = true) (x : nat) (Hx : zz_not_one x) :=
      let arg := (match (if b then x else subn) with 0 => subn | S subsubn => subsubn end) in
      zz_issue arg _
    in
    f true eq_refl 5 I
  end.
  subst b.
  destruct x; cbn in Hx.
  - now exfalso.
  - assumption.
Defined.

Definition zz_false : False := zz_issue 1 I.

Theorem sample_even_square
    (n : nat)
    : Nat.even (n * n) = Nat.even n.
Proof.
  exfalso; exact zz_false.
Qed.
"""
"""rocq-prover/rocq#20455's proof of False (affects 8.16 to 9.0.0), renamed, used on a sample problem."""


def _full(bench: Benchmark, candidate: str, **options: object):  # type: ignore[no-untyped-def]
    return run_gates(
        RocqProver(),
        bench,
        bench.problems["sample_even_square"],
        candidate.encode(),
        Track.WITH_ANSWER,
        VerifyOptions(profile=Profile.FULL, keep_going=True, **options),  # type: ignore[arg-type]
    )


@needs_coq
def test_guard_checker_proof_of_false_is_rejected(bench: Benchmark) -> None:
    verdict = _full(bench, GUARD_FALSE)
    assert not verdict.accepted
    g3 = next(g for g in verdict.gates if g.id == "G3")
    assert g3.status == "failed"
    assert "Fixpoint" in g3.detail and "20455" in g3.detail


def _wrap(helper: str, proof: str = "exfalso; exact zz_false.") -> str:
    """A candidate for sample_even_square with ``helper`` sentences before the theorem."""
    return (
        f"Require Import Arith.\n\n{helper}\n\nTheorem sample_even_square\n    (n : nat)\n"
        f"    : Nat.even (n * n) = Nat.even n.\nProof.\n  {proof}\nQed.\n"
    )


RECURSION = {
    "Fixpoint": _wrap("Fixpoint zz_f (m : nat) : False := zz_f m.\nDefinition zz_false : False := zz_f 0."),
    "CoFixpoint": _wrap("CoFixpoint zz_s : nat := zz_s."),
    "Program Fixpoint": _wrap("Program Fixpoint zz_f (m : nat) {measure m} : nat := 0."),
    "mutual with": _wrap("Fixpoint zz_a (m : nat) : nat := 0 with zz_b (m : nat) : nat := 0."),
    "Definition := fix": _wrap("Definition zz_f := fix zz_g (m : nat) : False := zz_g m."),
    "let fix": _wrap("Definition zz_f : nat := let fix zz_g (m : nat) : nat := 0 in zz_g 0."),
    "cofix term": _wrap("Definition zz_f := cofix zz_g : nat := zz_g."),
    "refine (fix ...)": _wrap("", "exfalso; refine (fix zz_g (m : nat) : False := zz_g m) 0."),
    "fix tactic": _wrap("Lemma zz_l (m : nat) : False.\nProof.\n  fix zz_ih 1.\n  exact (zz_ih m).\nQed."),
    "cofix tactic": _wrap("", "cofix zz_ih."),
    "Ltac using fix": _wrap("Ltac zz_t := fix zz_ih 1.", "zz_t."),
    "Function": _wrap("Function zz_f (m : nat) : nat := 0."),
    "Equations": _wrap("Equations zz_f (m : nat) : nat := zz_f m := 0."),
    "Ltac2 unsafe terms": _wrap("", "ltac2:(let t := Constr.Unsafe.make (Constr.Unsafe.Rel 1) in ())."),
    "Ltac2 qualified Unsafe": _wrap("", "ltac2:(let t := Unsafe.make x in ())."),
    "Local Fixpoint": _wrap("#[local] Fixpoint zz_f (m : nat) : nat := 0."),
}
"""Every way found for a candidate to write its own (co)fixpoint, each of which G3 must refuse."""
ALWAYS_REFUSED = {"Ltac2 unsafe terms", "Ltac2 qualified Unsafe"}
"""Ltac2's unsafe term API is refused even with --allow-recursion (it builds any term, not just fixpoints)."""

LIBRARY_RECURSION = {
    "induction": _wrap("", "induction n; reflexivity."),
    "elim": _wrap("", "elim: n => //."),
    "nat_rect": _wrap("Definition zz_d (m : nat) : nat := nat_rect (fun _ => nat) 0 (fun _ r => S r) m.", "auto."),
    "Wf.Fix": _wrap("Definition zz_w := @Fix.", "auto."),
    "word containing fix": _wrap("Definition zz_fixed_point (prefix : nat) : nat := prefix.", "auto."),
}
"""Recursion through library recursors stays allowed: the kernel checked those when the library built."""


@pytest.mark.parametrize("name", RECURSION)
def test_candidate_recursion_is_refused_on_a_buggy_coq(bench: Benchmark, name: str) -> None:
    statement = challenge_statement(rocq_submission(bench, "sample_even_square", RECURSION[name]))
    hits = check_forbidden(statement, RECURSION[name], refuse_recursion=True)
    assert hits, name
    assert bool(check_forbidden(statement, RECURSION[name], refuse_recursion=False)) == (name in ALWAYS_REFUSED)


@pytest.mark.parametrize("name", LIBRARY_RECURSION)
def test_library_recursion_stays_allowed(bench: Benchmark, name: str) -> None:
    statement = challenge_statement(rocq_submission(bench, "sample_even_square", LIBRARY_RECURSION[name]))
    assert check_forbidden(statement, LIBRARY_RECURSION[name], refuse_recursion=True) == []


def test_the_challenges_own_fixpoint_is_not_the_candidates(bench: Benchmark) -> None:
    candidate = (SAMPLES / "proofs" / "sample_sum_first_n.v").read_text(encoding="utf-8")
    statement = challenge_statement(rocq_submission(bench, "sample_sum_first_n", candidate))
    assert check_forbidden(statement, candidate, refuse_recursion=True) == []


def test_the_rule_follows_the_coq_version() -> None:
    assert recursion_refused(False, (8, 16, 1))
    assert recursion_refused(False, (9, 0, 0))
    assert recursion_refused(False, (9, 2, 1))  # rocq#21839 is fixed only in 9.3
    assert not recursion_refused(False, (9, 3))
    assert recursion_refused(False, None)  # no coqc or an unreadable version: fail closed
    assert not recursion_refused(True, (8, 16, 1))


def test_kernel_bug_table_reads_versions() -> None:
    assert parse_version("The Coq Proof Assistant, version 8.16.1") == (8, 16, 1)
    assert parse_version("The Rocq Prover, version 9.0.0") == (9, 0, 0)
    assert parse_version("garbage") is None
    on_816 = {b.issue for b in guard_bugs((8, 16, 1))}
    assert {"20455", "20555", "20413"} <= on_816
    assert "21682" not in on_816  # introduced in 8.20
    assert "20455" not in {b.issue for b in guard_bugs((9, 0, 1))}
    assert "16645" not in {b.issue for b in known_kernel_bugs((8, 16, 1))}  # fixed in 8.16.1
    assert "rocq#20455" in kernel_bug_report((8, 16, 1))


@needs_coq
def test_allow_recursion_lifts_the_rule_and_is_recorded(bench: Benchmark) -> None:
    verdict = run_gates(
        RocqProver(),
        bench,
        bench.problems["sample_even_square"],
        GUARD_FALSE.encode(),
        Track.WITH_ANSWER,
        GateFlags(profile=Profile.TEXT, allow_recursion=True).options(),
    )
    g3 = next(g for g in verdict.gates if g.id == "G3")
    assert g3.passed and g3.evidence["recursion"] == "allowed"
    assert verdict.to_json()["allow_recursion"] is True
    assert any("rocq#20455" in b for b in g3.evidence["known_kernel_bugs"])


@needs_coq
def test_cli_verify_refuses_then_allow_recursion_is_recorded_and_not_served_from_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    candidate = tmp_path / "sample_even_square.v"
    candidate.write_text(GUARD_FALSE, encoding="utf-8")
    base = ["verify", "--prover", "rocq", "--gates", "text", "--benchmark", str(SAMPLES / "benchmark.jsonl")]
    refused = CliRunner().invoke(app, [*base, "--json", str(tmp_path / "a.json"), str(candidate)])
    assert refused.exit_code == 1, refused.output
    assert "rocq#20455" in refused.stdout
    first = json.loads((tmp_path / "a.json").read_text())["results"][0]
    assert first["allow_recursion"] is False and first["status"] == "rejected"
    allowed = CliRunner().invoke(app, [*base, "--allow-recursion", "--json", str(tmp_path / "b.json"), str(candidate)])
    assert allowed.exit_code == 0, allowed.output
    second = json.loads((tmp_path / "b.json").read_text())["results"][0]
    assert second["allow_recursion"] is True and second["status"] == "accepted" and not second["cached"]


def test_policy_and_doctor_say_why() -> None:
    policy = CliRunner().invoke(app, ["policy", "--prover", "rocq"])
    assert policy.exit_code == 0
    assert "| `Fixpoint` | recursion | defines its own recursion" in policy.stdout
    assert "--allow-recursion" in policy.stdout
    assert "| `Elpi` | plugin | runs an Elpi program" in policy.stdout


def test_solve_passes_allow_recursion_to_the_agents_check_and_submit(bench: Benchmark, tmp_path: Path) -> None:
    from putnam_solver.run.agent.task import _context
    from putnam_solver.run.campaign import stored_run

    args = ["solve", "--prover", "rocq", "--benchmark", str(SAMPLES / "benchmark.jsonl"), "--prepare-only"]
    args += ["--model", "mockllm/model"]
    result = CliRunner().invoke(app, [*args, "--run-dir", str(tmp_path / "run"), "--allow-recursion"])
    assert result.exit_code == 0, result.output
    stored = stored_run(tmp_path / "run")
    assert stored is not None
    config = stored.config
    assert config.allow_recursion
    context = _context(RocqProver(), bench, bench.problems["sample_even_square"], config)
    assert context.check_options.recursion_allowed and context.accept_options.recursion_allowed
