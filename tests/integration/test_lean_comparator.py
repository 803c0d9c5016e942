"""G6 (comparator) against a fake comparator that reproduces the real one's exit codes and output.

The gate runs the fake exactly as it would run comparator (``lake env comparator config.json`` in a
fresh project, under the harness's caps); the fake records what it was given inside that project,
which the tests read back. One test runs the real comparator where ``putnam bootstrap`` was run.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.cache import gate_code_fingerprint
from putnam_solver.core.provers.lean import LeanProver, nounix
from putnam_solver.core.provers.lean.axioms import ALLOWED_AXIOMS
from putnam_solver.core.provers.lean.checks import form_challenge
from putnam_solver.core.provers.lean.comparator import (
    comparator_available,
    comparator_gate,
    default_comparator_memory_mb,
)
from putnam_solver.core.provers.lean.project import LAKEFILE
from putnam_solver.core.provers.lean.toolchain import (
    DEFAULT,
    LeanRelease,
    ToolchainPaths,
    lean_release,
    toolchain_root,
)
from putnam_solver.core.sandbox import landlock_status
from putnam_solver.core.selftest_record import last_known_good, record_path
from putnam_solver.core.util import sha256_hex
from putnam_solver.core.verify import GateStatus, Submission, Track, VerifyOptions
from putnam_solver.doctor import check_health
from putnam_solver.selftest.runner import Cell, CellResult, SelftestRecord, write_record
from putnam_solver.verifier.options import GateFlags
from tests.fakes import install
from tests.helpers import LEAN_BENCH, lean_submission
from tests.integration.test_lean_compile import root_owned_checkout

BENCHMARK = LEAN_BENCH
"""What the ``bench`` fixture (conftest.py) loads for this module."""

pytestmark = pytest.mark.skipif(not landlock_status()[0], reason=f"comparator needs Landlock: {landlock_status()[1]}")

PROBLEM_ID = "putnam_1962_a2"


LEAN_PREFIX_SCRIPT = '#!/bin/sh\n[ "$1" = --print-prefix ] && dirname "$(dirname "$0")"\n'


def fake_toolchain(root: Path, release: LeanRelease = DEFAULT, interpreter: str = sys.executable) -> Path:
    """A toolchain directory whose comparator, landrun, lake and lean4export (of ``release``) are
    faithful fakes, run by ``interpreter``."""
    paths = ToolchainPaths(root, release)
    install("fake_comparator.py", paths.comparator, interpreter)
    install("fake_landrun.py", paths.landrun, interpreter)
    install("fake_lake.py", paths.toolchain_bin / "lake", interpreter)
    install("fake_elan_shim.py", paths.elan_home / "bin" / "lake", interpreter)
    install("fake_lean4export.py", paths.lean4export, interpreter)
    (paths.toolchain_bin / "lean").write_text(LEAN_PREFIX_SCRIPT)
    (paths.toolchain_bin / "lean").chmod(0o755)
    (paths.project / ".lake" / "packages" / "mathlib").mkdir(parents=True)
    (paths.project / "lakefile.toml").write_text(LAKEFILE)
    (paths.project / "lean-toolchain").write_text(release.toolchain + "\n")
    (paths.project / "lake-manifest.json").write_text('{"version": "1.1.0", "packages": []}\n')
    return root


@pytest.fixture
def fake_root(tmp_path: Path) -> Path:
    return fake_toolchain(tmp_path / "toolchain")


def submission(
    bench: Benchmark,
    scratch: Path,
    mode: str,
    track: Track = Track.WITH_ANSWER,
    timeout: float = 60.0,
    lake: str = "",
    **options: Any,
) -> Submission:
    """A candidate whose markers tell the fake comparator how the comparison ends (``mode``) and the
    fake `lake build` how the candidate's build behaves (``lake``, see fake_lake.py)."""
    challenge = bench.problems[PROBLEM_ID].formal_statement
    build = f"-- fake-lake: {lake}\n" if lake else ""
    candidate = build + challenge.replace(":= sorry", ":= by\n  -- fake-comparator: " + mode + "\n  sorry", 1)
    verify = GateFlags(comparator_timeout_seconds=timeout, **{"unsafe_comparator": True, **options}).options()
    return lean_submission(bench, PROBLEM_ID, candidate, track, scratch, verify, challenge)


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
    assert seen["challenge"] == form_challenge(sub)[1]  # the form the candidate uses
    assert seen["solution"].encode("utf-8") == sub.candidate_bytes
    assert seen["config"] == {
        "challenge_module": "Challenge",
        "solution_module": "Solution",
        "theorem_names": [PROBLEM_ID],
        "permitted_axioms": ["propext", "Quot.sound", "Classical.choice"],
    }
    assert seen["env"]["COMPARATOR_LEAN4EXPORT"] == str(paths.lean4export)
    assert seen["env"]["COMPARATOR_LANDRUN"] == str(paths.landrun)
    assert seen["secrets"] == []
    assert seen["packages_link"] == str(paths.project / ".lake" / "packages")
    assert result.evidence["challenge_sha256"] == sha256_hex(form_challenge(sub)[1].encode("utf-8"))
    assert result.evidence["candidate_sha256"] == sha256_hex(sub.candidate_bytes)
    assert result.evidence["config"]["permitted_axioms"] == list(ALLOWED_AXIOMS)
    assert "report" not in result.evidence and "Your solution is okay!" in result.evidence["stdout_tail"]
    assert seen["env"]["ELAN_TOOLCHAIN"] == DEFAULT.toolchain
    assert seen["env"]["PATH"].split(":")[0] == str(paths.toolchain_bin)


def test_no_answer_track_declares_the_solution_definition_holes(
    bench: Benchmark, fake_root: Path, tmp_path: Path
) -> None:
    sub = submission(bench, tmp_path / "scratch", "ok", track=Track.NO_ANSWER)
    assert comparator_gate(sub, fake_root).passed
    assert record(sub)["config"]["definition_names"] == ["putnam_1962_a2_solution"]


def test_rejection_exit_one_fails_with_comparator_message(bench: Benchmark, fake_root: Path, tmp_path: Path) -> None:
    result = comparator_gate(submission(bench, tmp_path / "scratch", "reject"), fake_root)
    assert result.status is GateStatus.FAILED
    assert "exit code 1" in result.detail
    assert "theorem statement do not match" in result.detail


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("reject", "Challenge and solution theorem statement do not match: 'putnam_1962_a2'"),
        ("axiom", "Illegal axiom detected: 'sorryAx'"),
        ("kernel", "Lean's kernel rejected the replay: (kernel) unknown constant 'canary_loop'"),
    ],
)
def test_comparators_own_verdicts_are_rejections(
    bench: Benchmark, fake_root: Path, tmp_path: Path, mode: str, said: str
) -> None:
    """A statement or axiom mismatch and a kernel that rejects the replay are what comparator judges."""
    result = comparator_gate(submission(bench, tmp_path / "scratch", mode), fake_root)
    assert result.status is GateStatus.FAILED
    assert said in result.detail


@pytest.mark.parametrize(
    ("mode", "lake", "stopped"),
    [
        ("ok", "oom", "Child exited with 1"),  # the candidate's build: Lean's allocator failed
        ("ok", "fail", "Child exited with 1"),  # the candidate's build failed (G4 judges that)
        ("deeprec", "", "(kernel) deep recursion detected"),  # the kernel ran out of a resource
        ("reject", "echo INTERNAL PANIC: out of memory", "theorem statement do not match"),
    ],
)
def test_an_exit_one_that_is_no_judgement_is_an_error(
    bench: Benchmark, fake_root: Path, tmp_path: Path, mode: str, lake: str, stopped: str
) -> None:
    """After ``Building Solution``, exit 1 is an error (never cached) unless comparator judged; a candidate
    that prints an error marker itself only turns its own rejection into an error."""
    result = comparator_gate(submission(bench, tmp_path / "scratch", mode, lake=lake), fake_root)
    assert result.evidence["exit_code"] == 1
    assert result.status is GateStatus.ERROR, result.detail
    assert stopped in result.detail and "not a verdict" in result.detail


def test_forged_rejection_lines_do_not_turn_a_failed_build_into_a_rejection(
    bench: Benchmark, fake_root: Path, tmp_path: Path
) -> None:
    forged = "echo uncaught exception: Challenge and solution theorem statement do not match: 'x'"
    printed = comparator_gate(submission(bench, tmp_path / "one", "kernel", lake=forged), fake_root)
    assert printed.status is GateStatus.FAILED  # it built; comparator's own last word is the kernel's
    assert "(kernel) unknown constant" in printed.detail
    aborted = comparator_gate(submission(bench, tmp_path / "two", "ok", lake="oom"), fake_root)
    assert aborted.status is GateStatus.ERROR


def test_success_line_with_exit_one_is_rejected(bench: Benchmark, fake_root: Path, tmp_path: Path) -> None:
    result = comparator_gate(submission(bench, tmp_path / "scratch", "liar"), fake_root)
    assert result.status is GateStatus.FAILED
    assert "Your solution is okay!" in result.evidence["stdout_tail"]


def test_exit_zero_decides_even_with_error_text(bench: Benchmark, fake_root: Path, tmp_path: Path) -> None:
    result = comparator_gate(submission(bench, tmp_path / "scratch", "errortext"), fake_root)
    assert result.status is GateStatus.PASSED


def test_a_crash_under_lake_env_is_an_error(bench: Benchmark, fake_root: Path, tmp_path: Path) -> None:
    """lake env exits 128+N when comparator dies by signal N: 139 for SIGSEGV, never a rejection."""
    result = comparator_gate(submission(bench, tmp_path / "scratch", "crash"), fake_root)
    assert result.evidence["exit_code"] == 139
    assert result.status is GateStatus.ERROR
    assert "signal 11" in result.detail


def test_hang_past_the_timeout_is_an_error(bench: Benchmark, fake_root: Path, tmp_path: Path) -> None:
    result = comparator_gate(submission(bench, tmp_path / "scratch", "hang", timeout=2.0), fake_root)
    assert result.status is GateStatus.ERROR
    assert "timed out after 2 s" in result.detail


@pytest.mark.parametrize("broken", ["landrun", "lean4export"])
def test_a_broken_tool_before_the_candidate_is_built_is_an_error(
    bench: Benchmark, fake_root: Path, tmp_path: Path, broken: str
) -> None:
    """comparator exits 1 for a broken landrun or lean4export too; on the harness's own challenge that
    can only be the toolchain."""
    tool = getattr(ToolchainPaths(fake_root), broken)
    tool.write_text("#!/bin/sh\necho '[landrun:error] Failed to apply sandbox: landlock' >&2\nexit 1\n")
    result = comparator_gate(submission(bench, tmp_path / "scratch", "ok"), fake_root)
    assert result.evidence["exit_code"] == 1
    assert result.status is GateStatus.ERROR
    assert "before building the candidate" in result.detail


def test_a_failed_selftest_canary_makes_g6_unavailable(
    bench: Benchmark, fake_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the last selftest saw comparator refuse its known-good proof, exit 1 cannot mean a rejection."""
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    sub = submission(bench, tmp_path / "scratch", "reject")
    assert comparator_gate(sub, fake_root).status is GateStatus.FAILED  # no selftest record yet
    good_refused = CellResult("lean-core", "good", "G6", "kernel", "pass", "failed", Cell.WRONG, "exit 1")
    record = SelftestRecord(
        "lean",
        LeanProver().toolchain_fingerprint(sub.options),
        gate_code_fingerprint(),
        False,
        time.time(),
        1.0,
        [good_refused],
        [],
    )
    write_record(record, sub.options)
    result = comparator_gate(submission(bench, tmp_path / "scratch2", "reject"), fake_root)
    assert result.status is GateStatus.UNAVAILABLE
    assert "selftest" in result.detail
    rerun = submission(bench, tmp_path / "scratch3", "reject", selftest_run=True)
    assert comparator_gate(rerun, fake_root).status is GateStatus.FAILED  # the selftest judges afresh


def test_a_selftest_record_speaks_only_for_the_kernels_its_canaries_went_through(
    bench: Benchmark, fake_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record of canaries judged by Lean's kernel alone says nothing of ``--kernels lean,nanoda`` (nor the
    reverse): each gate configuration has its own record, so a selftest that never ran nanoda neither
    covers a run that requires it nor makes its G6 ``unavailable``."""
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    ToolchainPaths(fake_root).nanoda.write_text("#!/bin/sh\nexit 0\n")
    ToolchainPaths(fake_root).nanoda.chmod(0o755)
    lean_only = submission(bench, tmp_path / "scratch", "reject")
    both = submission(bench, tmp_path / "scratch2", "reject", kernels=("lean", "nanoda"))
    good_refused = CellResult("lean-core", "good", "G6", "kernel", "pass", "failed", Cell.WRONG, "exit 1")
    fingerprint = LeanProver().toolchain_fingerprint(lean_only.options)
    record = SelftestRecord("lean", fingerprint, gate_code_fingerprint(), False, time.time(), 1.0, [good_refused], [])
    path = write_record(record, lean_only.options)
    assert path != record_path("lean", fingerprint, both.options)
    assert last_known_good("lean", lean_only.options, "G6") is False
    assert comparator_gate(lean_only, fake_root).status is GateStatus.UNAVAILABLE
    assert last_known_good("lean", both.options, "G6") is None  # no selftest of this configuration
    assert comparator_gate(both, fake_root).status is GateStatus.FAILED


def test_nanoda_is_an_external_kernel_that_must_accept_too(bench: Benchmark, fake_root: Path, tmp_path: Path) -> None:
    paths = ToolchainPaths(fake_root)
    sub = submission(bench, tmp_path / "one", "ok", kernels=("lean", "nanoda"))
    assert comparator_gate(sub, fake_root).status is GateStatus.UNAVAILABLE  # not built yet
    paths.nanoda.write_text("#!/bin/sh\nexit 0\n")
    paths.nanoda.chmod(0o755)
    assert comparator_gate(sub, fake_root).passed
    assert record(sub)["config"]["external_kernels"] == {"nanoda": [str(paths.nanoda)]}
    paths.nanoda.write_text("#!/bin/sh\nexit 1\n")
    rejected = comparator_gate(submission(bench, tmp_path / "two", "ok", kernels=("lean", "nanoda")), fake_root)
    assert rejected.status is GateStatus.FAILED
    assert "nanoda kernel rejected the solution" in rejected.evidence["stdout_tail"]
    assert "the nanoda kernel rejected the solution (exit 1)" in rejected.detail


@pytest.mark.parametrize(
    ("script", "mode"),
    [
        ("#!/bin/sh\nkill -SEGV $$\n", 0o755),  # crashed: Lean's Process.wait gives 128+11
        ("#!/bin/sh\necho 'panicked at src/main.rs'\nexit 101\n", 0o755),  # a Rust panic
        ("#!/bin/sh\nexit 1\n", 0o644),  # not executable: landrun cannot start it
    ],
)
def test_a_nanoda_that_crashes_or_cannot_start_is_an_error(
    bench: Benchmark, fake_root: Path, tmp_path: Path, script: str, mode: int
) -> None:
    """Comparator prints "nanoda kernel rejected the solution" for any nonzero exit (Main.lean:196-199);
    only an exit nanoda gives itself is a rejection."""
    nanoda = ToolchainPaths(fake_root).nanoda
    nanoda.write_text(script)
    nanoda.chmod(mode)
    result = comparator_gate(submission(bench, tmp_path / "scratch", "ok", kernels=("lean", "nanoda")), fake_root)
    assert "nanoda kernel rejected the solution" in result.evidence["stdout_tail"]
    assert result.status is GateStatus.ERROR, result.detail


def test_minif2f_release_is_judged_without_g6_and_says_why(bench: Benchmark, tmp_path: Path) -> None:
    """Comparator always exports String.ofList; v4.24.0's lean4export panics on it (aborting under
    comparator's LEAN_ABORT_ON_PANIC) while exporting the harness's own challenge, so no candidate could
    ever pass: G6 is unavailable there, naming the profile that judges the release. The other releases
    still run comparator."""
    minif2f = lean_release("v4.24.0")
    root = fake_toolchain(tmp_path / "toolchain", minif2f)
    fake_toolchain(root, DEFAULT)
    ok, why = comparator_available(root, release=minif2f)
    assert not ok and "String.ofList" in why and "--gates fast" in why
    result = comparator_gate(submission(bench, tmp_path / "one", "ok", toolchain="v4.24.0"), root)
    assert result.status is GateStatus.UNAVAILABLE and "String.ofList" in result.detail
    assert comparator_gate(submission(bench, tmp_path / "two", "ok"), root).passed
    [lean] = check_health(["lean"], VerifyOptions(toolchain="v4.24.0")).provers  # what doctor prints
    [g6] = [g for g in lean.gates if g.name.startswith("G6")]
    assert not g6.ok and "String.ofList" in g6.detail and "--gates fast" in g6.detail


def test_g6_has_its_own_limits(bench: Benchmark, fake_root: Path, tmp_path: Path) -> None:
    sub = submission(bench, tmp_path / "scratch", "ok", comparator_memory_mb=40000)
    limits = comparator_gate(sub, fake_root).evidence["limits"]
    assert limits == {"timeout_seconds": 60.0, "memory_mb": 40000}
    assert default_comparator_memory_mb(64) == 8192 + 64 * 1024
    assert default_comparator_memory_mb(2) == 16384


def test_without_the_unsafe_flag_g6_denies_unix_sockets_or_is_unavailable(
    bench: Benchmark, fake_root: Path, tmp_path: Path
) -> None:
    sub = submission(bench, tmp_path / "scratch", "ok", unsafe_comparator=False)
    result = comparator_gate(sub, fake_root)
    if os.geteuid() == 0:  # pytest's temporary directories are private to root: nobody cannot read them
        assert result.status is GateStatus.UNAVAILABLE
        assert "nobody" in result.detail and "--unsafe-comparator" in result.detail
    else:
        assert result.passed, result.detail
        assert result.evidence["confinement"]["af_unix"] == "denied (seccomp)"


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
@pytest.mark.parametrize(("candidate", "expected"), [(REAL_OK, GateStatus.PASSED), (REAL_WRONG, GateStatus.FAILED)])
def test_real_comparator(bench: Benchmark, tmp_path: Path, candidate: str, expected: GateStatus) -> None:
    challenge = REAL_OK.replace("by\n  norm_num", "by\n  sorry")
    problem = Problem("putnam_toy_true", challenge, sha256_hex(challenge.encode()), None, None, None, ())
    sub = lean_submission(bench, problem, candidate, scratch=tmp_path, challenge=challenge)
    assert comparator_gate(sub).status is expected


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("git") is None, reason="needs root (G6 drops to nobody) and git")
def test_as_root_comparator_runs_as_nobody_and_lake_reads_the_root_owned_packages(
    bench: Benchmark, request: pytest.FixtureRequest
) -> None:
    """Lake loads the workspace (git rev-parse in each package) in `lake env comparator`, as nobody, and in
    the `lake build` comparator starts under landrun, which passes only PATH, HOME and LEAN_ABORT_ON_PANIC
    (Main.lean:127): the fresh project is that HOME, and its .gitconfig names the packages safe."""
    if not nounix.libseccomp_status()[0]:
        pytest.skip(f"no libseccomp: {nounix.libseccomp_status()[1]}")
    shared = Path(tempfile.mkdtemp(prefix="putnam-g6-root-"))  # nobody can enter it, unlike pytest's tmp_path
    shared.chmod(0o755)
    request.addfinalizer(lambda: shutil.rmtree(shared, ignore_errors=True))
    root = fake_toolchain(shared / "toolchain", interpreter="/usr/bin/python3")  # one nobody may run
    paths = ToolchainPaths(root)
    (paths.project / ".lake" / "packages" / "mathlib").rmdir()
    entry = root_owned_checkout(paths.project / ".lake" / "packages")
    (paths.project / "lake-manifest.json").write_text(json.dumps({"version": "1.1.0", "packages": [entry]}))
    scratch = Path(tempfile.mkdtemp(dir=shared))  # private, as every verification's scratch directory
    result = comparator_gate(submission(bench, scratch, "ok", unsafe_comparator=False), root)
    assert result.passed, result.detail
    assert result.evidence["confinement"]["user"] == "nobody"
    home = next((scratch / "comparator").glob("*/.gitconfig")).read_text()
    assert f"directory = {(paths.project / '.lake' / 'packages' / 'mathlib').resolve()}" in home
