"""G6 (comparator) against a fake comparator that reproduces the real one's exit codes and output.

The gate runs the fake exactly as it would run comparator (``lake env comparator config.json`` in a
fresh project, under the harness's caps); the fake records what it was given inside that project,
which the tests read back. One test runs the real comparator where ``putnam bootstrap`` was run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.benchmark import Benchmark, Problem, load_benchmark
from putnam_solver.provers.lean.bootstrap import LAKEFILE
from putnam_solver.provers.lean.comparator import PERMITTED_AXIOMS, comparator_available, comparator_gate
from putnam_solver.provers.lean.toolchain import LEAN_TOOLCHAIN, ToolchainPaths, toolchain_root
from putnam_solver.sandbox import landlock_status
from putnam_solver.verify import GateStatus, ScratchDir, Submission, Track, VerifyOptions, sha256_hex
from tests.fakes import install
from tests.helpers import LEAN_BENCH

pytestmark = pytest.mark.skipif(
    not landlock_status()[0], reason=f"comparator needs Landlock: {landlock_status()[1]}"
)

PROBLEM_ID = "putnam_1962_a2"


@pytest.fixture(scope="module")
def bench() -> Benchmark:
    return load_benchmark(LEAN_BENCH)


@pytest.fixture
def fake_root(tmp_path: Path) -> Path:
    """A toolchain directory whose comparator and lake are fakes (lean4export/landrun are never run)."""
    root = tmp_path / "toolchain"
    paths = ToolchainPaths(root)
    install("fake_comparator.py", paths.comparator)
    install("fake_tool.py", paths.elan_home / "bin" / "lake")
    for tool in (paths.lean4export, paths.landrun):
        tool.write_text("#!/bin/sh\nexit 99\n")
        tool.chmod(0o755)
    (paths.project / ".lake" / "packages" / "mathlib").mkdir(parents=True)
    (paths.project / "lakefile.toml").write_text(LAKEFILE)
    (paths.project / "lean-toolchain").write_text(LEAN_TOOLCHAIN + "\n")
    (paths.project / "lake-manifest.json").write_text('{"version": "1.1.0", "packages": []}\n')
    return root


def submission(
    bench: Benchmark, scratch: Path, mode: str, track: Track = Track.WITH_ANSWER, timeout: float = 60.0
) -> Submission:
    problem: Problem = bench.problems[PROBLEM_ID]
    challenge = problem.formal_statement
    candidate = challenge.replace(":= sorry", ":= by\n  -- fake-comparator: " + mode + "\n  sorry", 1)
    scratch.mkdir(parents=True, exist_ok=True)
    return Submission(
        problem=problem,
        benchmark=bench,
        track=track,
        candidate_bytes=candidate.encode("utf-8"),
        candidate=candidate,
        challenge=challenge,
        scratch_dir=ScratchDir(existing=scratch),
        options=VerifyOptions(timeout_seconds=timeout),
    )


def record(sub: Submission) -> dict[str, Any]:
    """What the fake comparator saw, read from the (only) fresh project of this submission."""
    [found] = (sub.scratch / "comparator").glob("*/fake-record.json")
    data: dict[str, Any] = json.loads(found.read_text())
    return data


def test_accepts_on_exit_zero_with_the_harness_challenge_and_config(
    bench: Benchmark, fake_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-must-not-leak")
    sub = submission(bench, tmp_path / "scratch", "ok")
    result = comparator_gate(sub, fake_root)
    assert (result.id, result.name, result.status) == ("G6", "kernel", GateStatus.PASSED)
    seen = record(sub)
    paths = ToolchainPaths(fake_root)
    assert seen["argv"][1:] == ["config.json"]
    assert Path(seen["cwd"]).is_relative_to(sub.scratch)
    assert seen["challenge"] == sub.challenge
    assert seen["solution"].encode("utf-8") == sub.candidate_bytes
    assert seen["config"] == {
        "challenge_module": "Challenge",
        "solution_module": "Solution",
        "theorem_names": [PROBLEM_ID],
        "permitted_axioms": ["propext", "Quot.sound", "Classical.choice"],
        "enable_nanoda": False,
        "json_output_path": "comparator-report.json",
    }
    assert seen["env"]["COMPARATOR_LEAN4EXPORT"] == str(paths.lean4export)
    assert seen["env"]["COMPARATOR_LANDRUN"] == str(paths.landrun)
    assert seen["secrets"] == []
    assert seen["packages_link"] == str(paths.project / ".lake" / "packages")
    assert result.evidence["challenge_sha256"] == sha256_hex(sub.challenge.encode("utf-8"))
    assert result.evidence["candidate_sha256"] == sha256_hex(sub.candidate_bytes)
    assert result.evidence["config"]["permitted_axioms"] == list(PERMITTED_AXIOMS)
    assert result.evidence["report"] == {"reports": []}


def test_no_answer_track_declares_the_solution_definition_holes(
    bench: Benchmark, fake_root: Path, tmp_path: Path
) -> None:
    sub = submission(bench, tmp_path / "scratch", "ok", track=Track.NO_ANSWER)
    assert comparator_gate(sub, fake_root).passed
    assert record(sub)["config"]["definition_names"] == ["putnam_1962_a2_solution"]


def test_rejection_exit_one_fails_with_comparator_message(
    bench: Benchmark, fake_root: Path, tmp_path: Path
) -> None:
    result = comparator_gate(submission(bench, tmp_path / "scratch", "reject"), fake_root)
    assert result.status is GateStatus.FAILED
    assert "exit code 1" in result.detail
    assert "theorem statement do not match" in result.detail


def test_success_line_with_exit_one_is_rejected(bench: Benchmark, fake_root: Path, tmp_path: Path) -> None:
    result = comparator_gate(submission(bench, tmp_path / "scratch", "liar"), fake_root)
    assert result.status is GateStatus.FAILED
    assert "Your solution is okay!" in result.evidence["stdout_tail"]


def test_exit_zero_decides_even_with_error_text(bench: Benchmark, fake_root: Path, tmp_path: Path) -> None:
    result = comparator_gate(submission(bench, tmp_path / "scratch", "errortext"), fake_root)
    assert result.status is GateStatus.PASSED


def test_killed_by_signal_is_an_error(bench: Benchmark, fake_root: Path, tmp_path: Path) -> None:
    result = comparator_gate(submission(bench, tmp_path / "scratch", "crash"), fake_root)
    assert result.status is GateStatus.ERROR
    assert "signal 9" in result.detail


def test_hang_past_the_timeout_is_a_rejection(bench: Benchmark, fake_root: Path, tmp_path: Path) -> None:
    result = comparator_gate(submission(bench, tmp_path / "scratch", "hang", timeout=2.0), fake_root)
    assert result.status is GateStatus.FAILED
    assert "timed out" in result.detail


@pytest.mark.parametrize(("mode", "found"), [("reportlink", "symbolic link"), ("reportfifo", "FIFO")])
def test_a_report_that_is_not_a_regular_file_is_an_error_and_never_read(
    bench: Benchmark, fake_root: Path, tmp_path: Path, mode: str, found: str
) -> None:
    result = comparator_gate(submission(bench, tmp_path / "scratch", mode), fake_root)
    assert result.status is GateStatus.ERROR
    assert "refused comparator's report" in result.detail and found in result.detail
    assert "report" not in result.evidence


def test_each_run_gets_a_fresh_project(bench: Benchmark, fake_root: Path, tmp_path: Path) -> None:
    first = submission(bench, tmp_path / "one", "ok")
    second = submission(bench, tmp_path / "two", "ok")
    assert comparator_gate(first, fake_root).passed
    assert comparator_gate(second, fake_root).passed
    assert record(first)["saw_previous_run"] is False
    assert record(second)["saw_previous_run"] is False


def test_missing_toolchain_is_unavailable(bench: Benchmark, tmp_path: Path) -> None:
    missing = tmp_path / "not-bootstrapped"
    ok, why = comparator_available(missing)
    assert not ok and "run putnam bootstrap" in why
    result = comparator_gate(submission(bench, tmp_path / "scratch", "ok"), missing)
    assert result.status is GateStatus.UNAVAILABLE
    assert "run putnam bootstrap" in result.detail


REAL_OK = "import Mathlib\n\ntheorem putnam_toy_true : (2 : ℕ) + 2 = 4 := by\n  norm_num\n"
REAL_WRONG = "import Mathlib\n\ntheorem putnam_toy_true : (2 : ℕ) + 2 = 5 := by\n  sorry\n"


@pytest.mark.skipif(
    not comparator_available(toolchain_root())[0],
    reason=f"real comparator not bootstrapped: {comparator_available(toolchain_root())[1]}",
)
@pytest.mark.parametrize(
    ("candidate", "expected"), [(REAL_OK, GateStatus.PASSED), (REAL_WRONG, GateStatus.FAILED)]
)
def test_real_comparator(bench: Benchmark, tmp_path: Path, candidate: str, expected: GateStatus) -> None:
    challenge = REAL_OK.replace("by\n  norm_num", "by\n  sorry")
    problem = Problem("putnam_toy_true", challenge, sha256_hex(challenge.encode()), None, None, None, ())
    sub = Submission(
        problem=problem,
        benchmark=bench,
        track=Track.WITH_ANSWER,
        candidate_bytes=candidate.encode("utf-8"),
        candidate=candidate,
        challenge=challenge,
        scratch_dir=ScratchDir(existing=tmp_path),
        options=VerifyOptions(),
    )
    assert comparator_gate(sub).status is expected
