"""G4 (compile) and G5 (axioms) for real: the toy Lean toolchain, run in the real sandbox.

The benchmark and its valid proofs are the Lean samples (samples/lean: ``proofs/<problem>.lean`` must
pass); every ``tests/toylean/candidates/invalid/<case>.lean`` (all for ``toy_and_comm``) must be rejected
by the gate the test names. Many invalid cases are also caught by the text gates; here G4 and G5 are
called directly so that each is shown to stop them on its own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers.lean import LeanProver, toolchain
from putnam_solver.core.provers.lean import compile as compile_module
from putnam_solver.core.provers.lean.axioms import (
    AxiomOutputError,
    axioms_gate,
    harness_module,
    harness_source,
    read_axiom_report,
)
from putnam_solver.core.provers.lean.compile import (
    LeanMessage,
    compile_gate,
    compile_lean,
    failure_detail,
    parse_messages,
)
from putnam_solver.core.provers.lean.project import LAKEFILE
from putnam_solver.core.provers.lean.toolchain import DEFAULT, LeanNotFound, ToolchainPaths, find_lean
from putnam_solver.core.sandbox import SandboxLimits, fresh_copy, run_sandboxed
from putnam_solver.core.verify import (
    GateResult,
    GateStatus,
    Profile,
    Submission,
    Track,
    VerifyOptions,
    run_gates,
)
from putnam_solver.kits import get_kit
from tests.fakes import install
from tests.helpers import lean_submission, needs_sandbox
from tests.toylean.build import BENCHMARK, CANDIDATES, VALID, ToyLean, ToyLeanUnavailable, build_toy_lean

pytestmark = needs_sandbox
BENCH = load_benchmark(BENCHMARK)
EXPECTED_AXIOMS = {
    "toy_and_comm": [],
    "toy_or_comm": [],
    "toy_propext": ["propext"],
    "toy_choice": ["Classical.choice"],
}


@pytest.fixture
def toy_env(toy_lean: ToyLean, monkeypatch: pytest.MonkeyPatch) -> ToyLean:
    """Select the toy toolchain the way a user selects any `lean`: PUTNAM_LEAN and LEAN_PATH."""
    for name, value in toy_lean.env.items():
        monkeypatch.setenv(name, value)
    return toy_lean


def invalid(case: str) -> bytes:
    return (CANDIDATES / "invalid" / f"{case}.lean").read_bytes()


def submission(candidate: bytes, scratch: Path, problem_id: str = "toy_and_comm", **options: object) -> Submission:
    return lean_submission(BENCH, problem_id, candidate, scratch=scratch, options=VerifyOptions(**options))  # type: ignore[arg-type]


def g4_then_g5(sub: Submission) -> tuple[GateResult, GateResult]:
    """G4, then G5 on its artifacts, as the pipeline runs them (G5 also after a failed G4: keep_going)."""
    g4 = compile_gate(sub)
    return g4, axioms_gate(replace(sub, prior=(g4,)))


# --------------------------------------------------------------------------------------- valid proofs


@pytest.mark.parametrize("problem_id", sorted(EXPECTED_AXIOMS))
def test_valid_proofs_pass_compile_and_axioms(toy_env: ToyLean, tmp_path: Path, problem_id: str) -> None:
    candidate = (VALID / f"{problem_id}.lean").read_bytes()
    g4, g5 = g4_then_g5(submission(candidate, tmp_path, problem_id))
    assert g4.status is GateStatus.PASSED, g4.detail
    assert g4.evidence["sandboxed"] is True
    assert g4.evidence["exit_code"] == 0
    assert g4.evidence["toolchain"]["version"].startswith("Lean (version 4.35.0")
    assert g5.status is GateStatus.PASSED, g5.detail
    assert g5.evidence["axioms"] == EXPECTED_AXIOMS[problem_id]


def test_without_sandbox_the_verdict_is_the_same_and_says_so(toy_env: ToyLean, tmp_path: Path) -> None:
    candidate = (VALID / "toy_and_comm.lean").read_bytes()
    g4, g5 = g4_then_g5(submission(candidate, tmp_path, unsafe_no_sandbox=True))
    assert (g4.status, g5.status) == (GateStatus.PASSED, GateStatus.PASSED)
    assert g4.evidence["sandboxed"] is False and g5.evidence["sandboxed"] is False


# ------------------------------------------------------------------------------------------------ G4


def test_wrong_proof_fails_compile_with_the_error_position(toy_env: ToyLean, tmp_path: Path) -> None:
    g4 = compile_gate(submission(invalid("wrong"), tmp_path))
    assert g4.status is GateStatus.FAILED
    assert "ToyAndComm.lean:1:" in g4.detail and "mismatch" in g4.detail
    first = g4.evidence["first_errors"][0]
    assert (first["line"], first["severity"]) == (1, "error")
    assert g4.evidence["messages_by_severity"]["error"] >= 1


@pytest.mark.parametrize("case", ["sorry", "sorry_ax"])
def test_sorry_fails_compile_even_though_lean_exits_0(toy_env: ToyLean, tmp_path: Path, case: str) -> None:
    g4, g5 = g4_then_g5(submission(invalid(case), tmp_path))
    assert g4.evidence["exit_code"] == 0
    assert g4.status is GateStatus.FAILED
    assert "declaration uses sorry at ToyAndComm.lean:1:" in g4.detail
    assert g5.status is GateStatus.FAILED and "sorryAx" in g5.detail


def test_a_proof_that_needs_auto_implicit_fails_as_in_the_pinned_project(toy_env: ToyLean, tmp_path: Path) -> None:
    """The pinned lakefile sets ``autoImplicit false`` (as comparator's build sees it); G4 must too."""
    g4 = compile_gate(submission(invalid("auto_implicit"), tmp_path))
    assert g4.status is GateStatus.FAILED
    assert "-DautoImplicit=false" in g4.evidence["argv"]
    assert "Unknown identifier `p`" in g4.detail


def test_forged_success_lines_do_not_make_a_broken_proof_compile(toy_env: ToyLean, tmp_path: Path) -> None:
    g4 = compile_gate(submission(invalid("forged_success"), tmp_path))
    assert g4.status is GateStatus.FAILED
    assert "mismatch" in g4.detail


def test_a_proof_that_takes_too_long_is_an_error_at_the_timeout(toy_env: ToyLean, tmp_path: Path) -> None:
    g4 = compile_gate(submission(invalid("slow"), tmp_path, timeout_seconds=3.0))
    assert g4.status is GateStatus.ERROR
    assert g4.detail == "lean timed out after 3 s; not a verdict on the candidate"
    assert g4.evidence["killed_reason"] == "timeout"


def test_a_memory_cap_lean_cannot_live_with_is_an_error(toy_env: ToyLean, tmp_path: Path) -> None:
    candidate = (VALID / "toy_and_comm.lean").read_bytes()
    g4 = compile_gate(submission(candidate, tmp_path, memory_mb=1000))
    assert g4.status is GateStatus.ERROR
    assert g4.detail == "lean ran out of memory (cap 1000 MB); not a verdict on the candidate"


def test_truncated_output_never_passes(toy_env: ToyLean, tmp_path: Path) -> None:
    lean = find_lean(VerifyOptions())
    limits = SandboxLimits(timeout_seconds=120.0, max_output_bytes=300)
    run = compile_lean(lean, "ToyAndComm", invalid("flood"), scratch=tmp_path, limits=limits)
    assert run.result.exit_code == 0 and run.result.truncated
    assert failure_detail(run, limits) == (
        GateStatus.ERROR,
        "lean's output was truncated, so not every message could be checked; not a verdict on the candidate",
    )


def test_no_lean_is_unavailable_with_the_fix(tmp_path: Path) -> None:
    candidate = (VALID / "toy_and_comm.lean").read_bytes()
    g4 = compile_gate(submission(candidate, tmp_path, tools={"lean": tmp_path / "no-such-lean"}))
    assert g4.status is GateStatus.UNAVAILABLE
    assert "putnam bootstrap" in g4.detail and "--tool lean" in g4.detail


def test_parse_messages_keeps_messages_and_counts_other_lines() -> None:
    stdout = (
        '{"severity":"warning","fileName":"A.lean","pos":{"line":3,"column":4},"kind":"hasSorry",'
        '"data":"declaration uses `sorry`"}\n'
        "not json\n[1, 2]\n\n"
        '{"severity":"error","fileName":"A.lean","pos":null,"data":"boom"}\n'
    )
    messages, unparsed = parse_messages(stdout)
    assert unparsed == 2
    summary = [(m.severity, m.line, m.is_sorry) for m in messages]
    assert summary == [("warning", 3, True), ("error", None, False)]


# ------------------------------------------------------------------------------------------------ G5


@pytest.mark.parametrize(
    ("case", "axiom"),
    [
        ("axiom", "toy_cheat"),
        ("axiom_in_definition", "toy_hidden"),
        ("axiom_in_opaque", "toy_cheat"),
        ("forged_axioms", "toy_cheat"),
    ],
)
def test_an_axiom_compiles_but_fails_the_axiom_check(toy_env: ToyLean, tmp_path: Path, case: str, axiom: str) -> None:
    g4, g5 = g4_then_g5(submission(invalid(case), tmp_path))
    assert g4.status is GateStatus.PASSED, g4.detail
    assert g5.status is GateStatus.FAILED
    assert g5.detail == f"toy_and_comm depends on axioms outside the allowed set: {axiom}"


def test_messages_printed_by_the_candidate_are_not_replayed(toy_env: ToyLean, tmp_path: Path) -> None:
    """The candidate printed a fake axiom list and a fake sorry error while it compiled; G5 sees none."""
    g4, g5 = g4_then_g5(submission(invalid("printed_messages"), tmp_path))
    assert g4.status is GateStatus.PASSED
    assert g4.evidence["messages_by_severity"] == {"information": 2}
    assert g5.status is GateStatus.PASSED
    assert g5.evidence["messages_by_severity"] == {"information": 1}
    assert g5.evidence["axioms"] == []


def test_a_prelude_module_redefining_propext_cannot_be_imported(toy_env: ToyLean, tmp_path: Path) -> None:
    g4, g5 = g4_then_g5(submission(invalid("prelude_propext"), tmp_path))
    assert g4.status is GateStatus.PASSED  # it is a well-formed file on its own
    assert g5.status is GateStatus.FAILED
    assert "environment already contains 'propext'" in g5.detail


def test_a_missing_theorem_fails_the_axiom_check(toy_env: ToyLean, tmp_path: Path) -> None:
    g4, g5 = g4_then_g5(submission(invalid("renamed"), tmp_path))
    assert g4.status is GateStatus.PASSED
    assert g5.status is GateStatus.FAILED
    assert "toy_and_comm" in g5.detail and g5.evidence["exit_code"] == 1


def test_the_axiom_check_imports_the_module_compiled_once_in_this_run(toy_env: ToyLean, tmp_path: Path) -> None:
    """G5 declares the candidate's compile (``CANDIDATE_OLEAN``): asked first, it makes it; G4 then judges
    that same run. An .olean altered after that run is an error, never imported."""
    sub = submission((VALID / "toy_and_comm.lean").read_bytes(), tmp_path)
    g5 = axioms_gate(sub)
    g4 = compile_gate(sub)
    assert (g4.status, g5.status) == (GateStatus.PASSED, GateStatus.PASSED), (g4.detail, g5.detail)
    assert len(list((sub.scratch / "compile").iterdir())) == 1  # one `lean` run on the candidate
    assert g5.evidence["olean_sha256"] == g4.evidence["olean_sha256"]
    assert axioms_gate(sub).status is GateStatus.PASSED  # the kept module, still the one compiled
    Path(g4.evidence["olean"]).write_bytes(b"not the compiled module")
    tampered = axioms_gate(sub)
    assert tampered.status is GateStatus.ERROR and "differs" in tampered.detail
    Path(g4.evidence["olean"]).unlink()
    assert axioms_gate(sub).status is GateStatus.ERROR


def message(file_name: str, line: int, text: str, severity: str = "information") -> LeanMessage:
    return LeanMessage(file_name, severity, line, 0, "[anonymous]", text)


def test_only_the_harness_print_line_is_read() -> None:
    harness, theorem = "ToyAndCommAxioms.lean", "toy_and_comm"
    real = message(harness, 2, "'toy_and_comm' depends on axioms: [propext,\n Classical.choice]")
    forged_elsewhere = [
        message("ToyAndComm.lean", 2, "'toy_and_comm' does not depend on any axioms"),
        message(harness, 1, "'toy_and_comm' does not depend on any axioms"),
    ]
    report = read_axiom_report((*forged_elsewhere, real), harness, theorem)
    assert report.axioms == ("propext", "Classical.choice") and report.disallowed == ()
    assert harness_source("ToyAndComm", theorem).splitlines()[1] == f"#print axioms {theorem}"


@pytest.mark.parametrize(
    "messages",
    [
        (),
        (message("H.lean", 2, "'t' does not depend on any axioms"),) * 2,
        (message("H.lean", 2, "'other' does not depend on any axioms"),),
        (message("H.lean", 2, "'t' is fine, trust me"),),
        (message("H.lean", 2, "unknown constant 't'", severity="error"),),
    ],
    ids=["missing", "ambiguous", "other-name", "unknown-wording", "error"],
)
def test_a_missing_or_odd_axiom_report_is_an_error(messages: Sequence[LeanMessage]) -> None:
    with pytest.raises(AxiomOutputError):
        read_axiom_report(tuple(messages), "H.lean", "t")


# ------------------------------------------------------------------------------ through the pipeline


@pytest.mark.parametrize("problem_id", sorted(EXPECTED_AXIOMS))
def test_pipeline_accepts_valid_proofs(toy_env: ToyLean, problem_id: str) -> None:
    candidate = (VALID / f"{problem_id}.lean").read_bytes()
    problem = BENCH.problems[problem_id]
    fast_options = VerifyOptions(Profile.FAST)
    fast = run_gates(LeanProver(), BENCH, problem, candidate, Track.WITH_ANSWER, fast_options)
    assert fast.status == "accepted", fast.first_problem()
    # In the full profile G6 (comparator, not installed here) comes last; G4 and G5 run before it.
    full = run_gates(LeanProver(), BENCH, problem, candidate, Track.WITH_ANSWER, VerifyOptions(Profile.FULL))
    by_id = {g.id: g for g in full.gates}
    assert by_id["G4"].passed and by_id["G5"].passed, full.first_problem()
    assert by_id["G5"].evidence["axioms"] == EXPECTED_AXIOMS[problem_id]


def test_the_pipeline_compiles_the_candidate_once(toy_env: ToyLean, monkeypatch: pytest.MonkeyPatch) -> None:
    """G4, G5 and the answer check declare the candidate's compile: one `lean` run on the candidate,
    one on G5's harness file, whichever gate asks first."""
    modules: list[str] = []
    real = compile_module.compile_lean

    def counted(lean: object, module: str, *args: object, **kwargs: object) -> object:
        modules.append(module)
        return real(lean, module, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(compile_module, "compile_lean", counted)
    problem = BENCH.problems["toy_and_comm"]
    candidate = (VALID / "toy_and_comm.lean").read_bytes()
    verdict = run_gates(LeanProver(), BENCH, problem, candidate, Track.WITH_ANSWER, VerifyOptions(Profile.FULL))
    by_id = {g.id: g for g in verdict.gates}
    assert by_id["G4"].passed and by_id["G5"].passed, verdict.first_problem()
    assert sorted(modules) == sorted([problem.module, harness_module(problem.module)])


def test_pipeline_rejects_a_wrong_proof_at_compile(toy_env: ToyLean) -> None:
    verdict = run_gates(
        LeanProver(),
        BENCH,
        BENCH.problems["toy_and_comm"],
        invalid("wrong"),
        Track.WITH_ANSWER,
        VerifyOptions(Profile.FAST),
    )
    assert verdict.status == "rejected"
    assert [(g.id, g.status.value) for g in verdict.gates] == [
        ("G1", "passed"),
        ("G2", "passed"),
        ("G3", "passed"),
        ("G4", "failed"),
    ]


# --------------------------------------------------------------------------------------- find_lean


def test_find_lean_uses_putnam_lean_with_the_callers_lean_path(toy_env: ToyLean) -> None:
    lean = find_lean(VerifyOptions())
    assert lean.argv == (str(toy_env.lean.resolve()),)
    assert lean.lean_path == (toy_env.init_dir.resolve(),)
    assert lean.readonly == (toy_env.root.resolve(), toy_env.init_dir.resolve())
    names = {Path(path).name for path, _ in lean.binaries}
    assert names == {"lean", "libleanshared.so"}
    assert lean.version in lean.fingerprint


def test_explicit_lean_wins_and_a_bad_path_says_how_to_fix_it(toy_env: ToyLean, tmp_path: Path) -> None:
    assert find_lean(VerifyOptions(tools={"lean": toy_env.lean})).origin == f"--tool lean {toy_env.lean}"
    with pytest.raises(LeanNotFound, match="putnam bootstrap"):
        find_lean(VerifyOptions(tools={"lean": tmp_path / "lean"}))


def bootstrapped_toy_layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ToolchainPaths:
    """A bootstrapped layout: elan's shims (faithful fakes, no default toolchain, as bootstrap leaves
    them), the pinned toolchain's own `lake` (a fake `lake env`) and the toy `lean` as its `lean`."""
    for name in ("PUTNAM_LEAN", "LEAN_PATH", "ELAN_TOOLCHAIN"):
        monkeypatch.delenv(name, raising=False)
    root = tmp_path / "toolchain"
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(root))
    paths = ToolchainPaths(root)
    try:
        toy = build_toy_lean(root / "toy")
    except ToyLeanUnavailable as exc:
        pytest.skip(f"toy Lean toolchain unavailable: {exc}")
    for shim in ("lake", "lean"):
        install("fake_elan_shim.py", paths.elan_home / "bin" / shim)
    install("fake_lake.py", paths.toolchain_bin / "lake", interpreter="/usr/bin/python3")
    (paths.toolchain_bin / "lean").symlink_to(toy.lean)
    library = paths.project / ".lake" / "packages" / "init" / ".lake" / "build" / "lib" / "lean"
    library.parent.mkdir(parents=True)
    library.symlink_to(toy.init_dir)
    (paths.project / "lakefile.toml").write_text(LAKEFILE)
    return paths


def test_the_bootstrapped_toolchain_is_used_without_elan_choosing_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = bootstrapped_toy_layout(tmp_path, monkeypatch)
    lean = find_lean(VerifyOptions())
    own_lake, own_lean = str(paths.toolchain_bin / "lake"), str(paths.toolchain_bin / "lean")
    assert lean.argv == (own_lake, "-d", str(paths.project), "env", own_lean)
    assert lean.env["ELAN_TOOLCHAIN"] == DEFAULT.toolchain
    assert lean.version.startswith("Lean (version 4.35.0")
    candidate = (VALID / "toy_propext.lean").read_bytes()
    g4, g5 = g4_then_g5(submission(candidate, tmp_path / "scratch", "toy_propext"))
    assert (g4.status, g5.status) == (GateStatus.PASSED, GateStatus.PASSED), (g4.detail, g5.detail)
    assert g5.evidence["axioms"] == ["propext"]


def root_owned_checkout(packages: Path, name: str = "mathlib") -> dict[str, str]:
    """A real git repository owned by root (who runs this), as ``lake update`` leaves a package of the
    pinned project; its manifest entry."""
    repo = packages / name
    repo.mkdir(parents=True, exist_ok=True)
    git = ["git", "-c", "user.email=t@example.org", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "pinned"], check=True)
    rev = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
    url = "https://github.com/leanprover-community/mathlib4"
    return {"type": "git", "name": name, "url": url, "rev": rev.stdout.strip(), "inputRev": "master"}


ROOT_HOST = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("git") is None, reason="needs root (the sandbox then runs as nobody) and git"
)


@ROOT_HOST
def test_on_a_root_host_the_sandboxed_lake_reads_the_root_owned_packages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lake runs `git rev-parse --verify HEAD` in every package on each load; as nobody, real git refuses
    root's repositories ("dubious ownership") unless the Lean environment names them safe."""
    paths = bootstrapped_toy_layout(tmp_path, monkeypatch)
    entry = root_owned_checkout(paths.project / ".lake" / "packages")
    manifest = {"version": "1.1.0", "packagesDir": ".lake/packages", "packages": [entry]}
    (paths.project / "lake-manifest.json").write_text(json.dumps(manifest))
    repo = (paths.project / ".lake" / "packages" / "mathlib").resolve()

    git = ["git", "-C", str(repo), "rev-parse", "--verify", "HEAD"]
    bare = run_sandboxed(git, workdir=fresh_copy({}, tmp_path / "git"), readonly=(paths.root,))
    assert not bare.ok and "dubious ownership" in bare.stderr  # git's refusal, as nobody in the sandbox
    lean = find_lean(VerifyOptions())
    trusted = {lean.env[f"GIT_CONFIG_VALUE_{i}"] for i in range(int(lean.env["GIT_CONFIG_COUNT"]))}
    assert str(repo) in trusted and lean.env["GIT_CONFIG_KEY_0"] == "safe.directory"
    assert run_sandboxed(git, workdir=fresh_copy({}, tmp_path / "git2"), readonly=(paths.root,), env=lean.env).ok
    candidate = (VALID / "toy_propext.lean").read_bytes()
    g4, g5 = g4_then_g5(submission(candidate, tmp_path / "scratch", "toy_propext"))
    assert (g4.status, g5.status) == (GateStatus.PASSED, GateStatus.PASSED), (g4.detail, g5.detail)


@ROOT_HOST
def test_doctor_probes_lean_in_the_sandbox_as_the_gates_run_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the trust, the gates' `lake` fails as nobody; so must doctor's probe (which ran as root,
    outside the sandbox, and passed)."""
    paths = bootstrapped_toy_layout(tmp_path, monkeypatch)
    entry = root_owned_checkout(paths.project / ".lake" / "packages")
    (paths.project / "lake-manifest.json").write_text(json.dumps({"version": "1.1.0", "packages": [entry]}))
    monkeypatch.setattr(toolchain, "git_trust_env", lambda repositories: {})
    toolchain._probe_cached.cache_clear()
    row = get_kit("lean").tool_status(VerifyOptions())[0]
    assert row.name == "lean used by the gates" and not row.ok
    assert "in the sandbox" in row.detail and "mathlib" in row.detail
