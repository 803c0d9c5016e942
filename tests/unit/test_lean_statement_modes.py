"""Issue 29 §5 and issue 23 §7: a statement written against another benchmark version (refused with a
reason that says so; the opt-in ``--statement-by-elaboration`` leaves it to G6, refused without G6), and
verdicts that only a profile with a semantic statement check can reach (``needs_full_profile``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean.checks import preservation_gate
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import GateResult, GateStatus, Profile, Track, VerifyOptions
from putnam_solver.run.agent.tools import format_verdict
from putnam_solver.verifier.candidates import require_semantic_check, verdict_text
from putnam_solver.verifier.options import GateFlags
from tests.helpers import DATA_ROOT, LEAN_PROVER, lean_submission, lean_text_verdict

MINIF2F = DATA_ROOT / "minif2f" / "minif2f_lean4.jsonl"
PROBLEM = "mathd_algebra_107"
needs_minif2f = pytest.mark.skipif(not MINIF2F.is_file(), reason="pinned miniF2F data not found")
BENCHMARK = MINIF2F
"""What the ``bench`` fixture (conftest.py) loads for this module."""


def candidate(bench: Benchmark, old: str = "", new: str = "", header: str = "") -> str:
    text = LEAN_PROVER.challenge(bench.problems[PROBLEM], Track.WITH_ANSWER).replace(old, new)
    return text.replace("import Mathlib\n", f"import Mathlib\n{header}").replace("by sorry", "by\n  nlinarith [h₀]")


def g2(bench: Benchmark, text: str, options: VerifyOptions) -> GateResult:
    return preservation_gate(lean_submission(bench, PROBLEM, text, options=options))


OLDER = ("5^2", "25")
"""A statement as another version could have written it: the same proposition, other text."""


@needs_minif2f
def test_a_statement_differing_as_text_is_refused_with_a_reason_that_names_the_mode(bench: Benchmark) -> None:
    result = g2(bench, candidate(bench, *OLDER), VerifyOptions(profile=Profile.FULL))
    assert result.status is GateStatus.FAILED
    assert "another version of the benchmark" in result.detail and "--statement-by-elaboration" in result.detail


@needs_minif2f
def test_the_opt_in_mode_leaves_it_to_g6_and_records_so(bench: Benchmark) -> None:
    options = GateFlags(profile=Profile.FULL, statement_by_elaboration=True).options()
    result = g2(bench, candidate(bench, *OLDER), options)
    assert result.status is GateStatus.PASSED
    assert result.evidence["statement_by_elaboration"]
    # everything else G2 checks still applies
    extra = g2(bench, candidate(bench, *OLDER, header="import MyLib\n"), options)
    assert extra.status is GateStatus.FAILED and "a new import" in extra.detail


@needs_minif2f
def test_the_mode_does_nothing_without_g6(bench: Benchmark) -> None:
    options = GateFlags(profile=Profile.TEXT, statement_by_elaboration=True).options()
    assert g2(bench, candidate(bench, *OLDER), options).status is GateStatus.FAILED
    with pytest.raises(InputError, match="needs G6"):
        require_semantic_check(options)
    require_semantic_check(GateFlags(profile=Profile.FULL, statement_by_elaboration=True).options())


@needs_minif2f
def test_verify_refuses_the_mode_on_the_text_profile_with_exit_2(bench: Benchmark, tmp_path: Path) -> None:
    path = tmp_path / f"{PROBLEM}.lean"
    path.write_text(candidate(bench), encoding="utf-8")
    args = ["verify", "--benchmark", str(MINIF2F), "--gates", "text", "--statement-by-elaboration", str(path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "needs G6" in result.output


@needs_minif2f
def test_needs_the_full_profile_is_said_apart_from_a_rejection(bench: Benchmark, tmp_path: Path) -> None:
    reordered = candidate(bench, "open BigOperators Real Nat Topology Rat", "open Real BigOperators Nat Topology Rat")
    verdict = lean_text_verdict(bench, PROBLEM, reordered)
    assert verdict.status == "rejected" and verdict.needs_full_profile
    assert "needs the full profile" in verdict_text(verdict).splitlines()[0]
    assert verdict.to_json()["needs_full_profile"] is True
    assert "not a rejection of the proof" in format_verdict(verdict, reordered)  # the agent's `check`
    changed = lean_text_verdict(bench, PROBLEM, candidate(bench, *OLDER))
    assert changed.status == "rejected" and not changed.needs_full_profile
    assert "needs the full profile" not in verdict_text(changed)
    assert "not a rejection of the proof" not in format_verdict(changed, reordered)
    path = tmp_path / f"{PROBLEM}.lean"
    path.write_text(reordered, encoding="utf-8")
    out = tmp_path / "out.json"
    args = ["verify", "--benchmark", str(MINIF2F), "--gates", "text", "--json", str(out), "--no-cache", str(path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    assert "needs the full profile" in result.output
    assert json.loads(out.read_text(encoding="utf-8"))["results"][0]["needs_full_profile"] is True


@needs_minif2f
def test_the_verdict_records_which_rule_accepted_an_added_import(bench: Benchmark) -> None:
    verdict = lean_text_verdict(bench, PROBLEM, candidate(bench, header="import Aesop\n"))
    assert verdict.accepted, [g.detail for g in verdict.gates if not g.passed]
    gate = next(g for g in verdict.gates if g.id == "G2")
    assert gate.evidence["import_closure_release"] == "v4.24.0"
    assert "Mathlib/Tactic/Common.lean" in gate.evidence["imports_in_closure"]["Aesop"]
