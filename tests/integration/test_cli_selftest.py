"""`putnam selftest` on the real parts here: real coqc/coqchk, the toy Lean; and `solve` refusing a toolchain
whose gates misjudge a canary before it calls any model."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver import selftest
from putnam_solver.cli import app
from putnam_solver.provers.lean.toolchain import ToolchainPaths
from putnam_solver.verify import VerifyOptions
from tests.fakes.openai_server import FakeOpenAI, serve
from tests.toylean.build import BENCHMARK as LEAN_SAMPLES
from tests.toylean.build import ToyLean

runner = CliRunner()


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(tmp_path / "no-toolchain"))
    monkeypatch.delenv("PUTNAM_LEAN", raising=False)


def _rows(stdout: str) -> dict[str, list[str]]:
    """The table's rows, by gate id (the first block of each gate id wins), cells split on spaces."""
    rows: dict[str, list[str]] = {}
    for line in stdout.splitlines():
        if line[:1] == "G" and line[1:2].isdigit():
            rows.setdefault(line.split()[0], line.split())
    return rows


@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")
def test_rocq_selftest_judges_every_canary_right_and_doctor_reports_it() -> None:
    result = runner.invoke(app, ["selftest", "--prover", "rocq"])
    assert result.exit_code == 0, result.stdout
    rows = _rows(result.stdout)
    header = next(line.split() for line in result.stdout.splitlines() if line.strip().startswith("good"))
    assert header == ["good", "admitted", "edited", "axiom", "unguarded"]
    assert rows["G2"][2:] == ["passed", "(passed)", "failed", "(failed)", "(failed)"]
    assert rows["G3"][2:] == ["passed", "failed", "(passed)", "failed", "failed"]
    assert rows["G5"][-5:] == ["passed", "failed", "failed", "failed", "(failed)"]
    assert rows["G6"][-5:] == ["passed", "failed", "failed", "failed", "failed"]
    assert "selftest of rocq passed" in result.stdout and "WRONG" not in result.stdout

    record = selftest.last_record("rocq", VerifyOptions())
    assert record is not None and record.passed and record.known_good_passed("G6") is True
    doctor = runner.invoke(app, ["doctor", "--prover", "rocq"])
    assert "rocq: ok   last selftest: passed at" in doctor.stdout


def test_lean_selftest_with_the_toy_lean_shows_what_cannot_run(
    toy_lean: ToyLean, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEAN_PATH", str(toy_lean.init_dir))
    result = runner.invoke(app, ["selftest", "--prover", "lean", "--lean", str(toy_lean.lean)])
    assert result.exit_code == 0, result.stdout
    rows = _rows(result.stdout)
    assert rows["G3"][2:] == ["passed", "failed", "(passed)", "failed", "(failed)", "(failed)"]
    assert rows["G4"][2:] == ["passed", "failed", "(passed)", "(passed)", "failed", "failed"]
    assert rows["G5"][2:] == ["passed", "failed", "(passed)", "failed", "(error)", "(error)"]
    assert rows["G6"][2:] == ["n/a"] * 6
    assert "[lean-mathlib]: cannot run here: a `lean` was given" in result.stdout
    assert "G6 cannot run here: comparator toolchain" in result.stdout
    assert "selftest of lean passed" in result.stdout


def _accept_all_comparator(root: Path) -> None:
    """A complete-looking comparator toolchain whose comparator prints its success line and exits 0."""
    paths = ToolchainPaths(root)
    scripts = {
        paths.comparator: 'echo "Your solution is okay!"',
        paths.toolchain_bin / "lake": 'shift; exec "$@"',  # `lake env CMD...` runs CMD
        paths.toolchain_bin / "lean": "exit 99",
        paths.lean4export: "exit 99",
        paths.landrun: "exit 99",
    }
    for path, body in scripts.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(0o755)
    (paths.project / ".lake" / "packages").mkdir(parents=True)
    for name in ("lakefile.toml", "lean-toolchain", "lake-manifest.json"):
        (paths.project / name).write_text("\n")


def test_solve_refuses_a_toolchain_whose_gate_accepts_a_known_bad_canary_before_any_model_call(
    toy_lean: ToyLean, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    pytest.importorskip("inspect_ai")
    # Where comparator's unprivileged user (a root harness drops to it) can enter, unlike pytest's tmp_path.
    shared = Path(tempfile.mkdtemp(prefix="putnam-broken-toolchain-"))
    shared.chmod(0o755)
    request.addfinalizer(lambda: shutil.rmtree(shared, ignore_errors=True))
    root = shared / "toolchain"
    _accept_all_comparator(root)
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(root))
    monkeypatch.setenv("LEAN_PATH", str(toy_lean.init_dir))
    monkeypatch.setenv("FAKE_API_KEY", "test-key")
    fake = FakeOpenAI([])
    with serve(fake) as url:
        result = runner.invoke(
            app,
            [
                "solve", "--prover", "lean", "--lean", str(toy_lean.lean), "--benchmark", str(LEAN_SAMPLES),
                "--problem", "toy_and_comm", "--model", "openai-api/fake/fake-model", "--model-base-url", url,
                "--reviewer-model", "none", "--reasoning-effort", "none", "--run-dir", str(tmp_path / "run"),
                "--quiet",
            ],
        )  # fmt: skip
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "G6 kernel accepted the known-bad canary lean-core/sorry" in result.stderr
    assert fake.requests == 0 and not (tmp_path / "run").exists()
    record = selftest.last_record("lean", VerifyOptions(lean=toy_lean.lean))
    assert record is not None and not record.passed and record.known_good_passed("G4") is True
