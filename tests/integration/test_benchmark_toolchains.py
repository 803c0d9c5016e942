"""Each benchmark states the toolchain it was written for; verdicts and `putnam doctor` hold it against the
one the gates run, with a real `lean` (the toy toolchain, Lean 4.35) and the real Coq 8.16.1."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver.benchmark_files import open_benchmark
from putnam_solver.cli import app
from tests.helpers import DATA_ROOT, REPO, lean_filled
from tests.toylean.build import ToyLean

runner = CliRunner()
pytestmark = pytest.mark.skipif(not (DATA_ROOT / "minif2f").is_dir(), reason="pinned data not found")
NEEDS_COQ = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(DATA_ROOT))
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(tmp_path / "no-toolchain"))


def _verify(tmp_path: Path, *args: str) -> tuple[int, str, dict[str, object]]:
    out = tmp_path / "verdicts.json"
    result = runner.invoke(app, ["verify", "--gates", "text", "--json", str(out), *args])
    return result.exit_code, result.stdout + result.stderr, json.loads(out.read_text())


def test_a_verdict_says_which_lean_judged_it_and_that_the_benchmark_states_another(
    toy_lean: ToyLean, tmp_path: Path
) -> None:
    candidate = tmp_path / "mathd_algebra_478.lean"
    candidate.write_text(lean_filled(open_benchmark("minif2f", "lean"), "mathd_algebra_478"))
    code, output, document = _verify(
        tmp_path, "--benchmark", "minif2f", "--tool", f"lean={toy_lean.lean}", str(candidate)
    )
    assert code == 0, output
    record = document["results"][0]["benchmark"]["toolchain"]  # type: ignore[index]
    assert record == {
        "stated": "v4.24.0",
        "used": "v4.35.0",
        "matches": False,
        "note": "the benchmark was written for lean v4.24.0; judged with v4.35.0",
    }
    assert "toolchain: the benchmark was written for lean v4.24.0; judged with v4.35.0" in output


def test_without_the_stated_release_installed_the_verdict_says_so(tmp_path: Path) -> None:
    candidate = tmp_path / "Rudin_exercise_1_1b.lean"
    candidate.write_text(lean_filled(open_benchmark("proofnet", "lean"), "Rudin_exercise_1_1b"))
    code, output, document = _verify(tmp_path, "--benchmark", "proofnet", str(candidate))
    assert code == 0, output
    record = document["results"][0]["benchmark"]["toolchain"]  # type: ignore[index]
    assert (record["stated"], record["used"], record["matches"]) == ("v4.28.0", None, False)
    assert "written for v4.28.0" in record["note"]


@NEEDS_COQ
def test_rocq_verdicts_hold_the_installed_coq_against_the_stated_one(tmp_path: Path) -> None:
    sample = REPO / "samples" / "minif2f" / "rocq" / "mathd_numbertheory_252.v"
    _, _, adapted = _verify(tmp_path, "--prover", "rocq", "--benchmark", "minif2f", str(sample))
    _, output, published = _verify(tmp_path, "--prover", "rocq", "--benchmark", "minif2f@published", str(sample))
    assert adapted["results"][0]["benchmark"]["toolchain"]["matches"] is True  # type: ignore[index]
    record = published["results"][0]["benchmark"]["toolchain"]  # type: ignore[index]
    assert (record["stated"], record["matches"]) == ("8.20", False) and record["used"].startswith("8.16")
    assert "written for rocq 8.20; judged with 8.16" in output


@NEEDS_COQ
def test_doctor_holds_every_benchmark_against_the_installed_toolchains() -> None:
    result = runner.invoke(app, ["doctor", "--prover", "rocq"])
    lines = result.stdout.splitlines()
    start = lines.index("rocq: benchmarks (toolchain stated / used)")
    rows = lines[start + 1 : start + 4]
    assert rows[0].startswith("  ok   putnambench: written for rocq 8.16")
    assert rows[1].startswith("  ok   minif2f@adapted: written for rocq 8.16")
    assert rows[2].startswith("  DIFF minif2f@published: written for rocq 8.20") and "judged with 8.16" in rows[2]
    lean = runner.invoke(app, ["doctor", "--prover", "lean", "--benchmark", "minif2f"])
    expected = "DIFF minif2f: written for lean v4.24.0, Mathlib v4.24.0; not installed here (putnam bootstrap"
    assert f"  {expected} --benchmark minif2f)" in lean.stdout
    assert "no Lean v4.24.0 toolchain found" in lean.stdout, "the gates are checked for the release minif2f states"


def test_verify_says_which_profile_judges_minif2f_lean_and_why(tmp_path: Path) -> None:
    """The pinned comparator cannot judge Lean v4.24.0 (String.ofList), so G6 never runs on miniF2F; verify
    says so before its verdicts, naming the profile that can accept a proof there."""
    candidate = tmp_path / "mathd_algebra_478.lean"
    candidate.write_text(lean_filled(open_benchmark("minif2f", "lean"), "mathd_algebra_478"))
    result = runner.invoke(app, ["verify", "--benchmark", "minif2f", str(candidate)])
    said = " ".join((result.stdout + result.stderr).split())
    assert "G6 kernel cannot run here" in said and "String.ofList" in said and "--gates fast" in said
    fast = runner.invoke(app, ["verify", "--gates", "fast", "--benchmark", "minif2f", str(candidate)])
    assert "G6 kernel cannot run here" not in fast.stdout + fast.stderr
