"""A newcomer's first hour with `putnam`: what they type, what they see, and the exit code.

Each test is one rough edge of that hour (verify, doctor, policy, bootstrap, check, --help): a clear
message naming the path, the problem and the fix, exit 2 for bad input, and never a traceback.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner, Result

from putnam_solver import __version__
from putnam_solver.cli import app
from putnam_solver.core.verify import GateResult, GateStatus, Profile, Track, Verdict
from putnam_solver.safe_write import write_atomic
from putnam_solver.verifier.candidates import SHOWN_SKIPS, verdict_text
from tests.helpers import COQ_BENCH, PUTNAMBENCH, REPO

runner = CliRunner()
LEAN_SAMPLES = REPO / "samples" / "lean"
ROCQ_SAMPLES = REPO / "samples" / "rocq"


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(PUTNAMBENCH))
    monkeypatch.delenv("PUTNAM_TRACEBACK", raising=False)


def _run(*args: str | Path) -> Result:
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


def _verify_text(benchmark: Path, *args: str | Path) -> Result:
    return _run("verify", "--gates", "text", "--benchmark", benchmark, *args)


# ------------------------------------------------------------------------------------ bad places to write


def test_json_naming_a_directory_is_refused_before_anything_is_verified(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    result = _verify_text(ROCQ_SAMPLES / "benchmark.jsonl", "--json", out, ROCQ_SAMPLES / "proofs")
    assert result.exit_code == 2
    assert f"{out}: --json names a directory; give a file path, e.g. {out / 'verdicts.json'}" in result.stderr
    assert "ACCEPTED" not in result.stdout and list(out.iterdir()) == []
    under_a_file = tmp_path / "file.txt"
    under_a_file.write_text("")
    result = _verify_text(ROCQ_SAMPLES / "benchmark.jsonl", "--json", under_a_file / "v.json", ROCQ_SAMPLES / "proofs")
    assert result.exit_code == 2 and f"{under_a_file}: a file, so --json" in result.stderr


def test_a_cache_dir_that_is_a_file_is_refused_up_front_and_shown_by_doctor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(blocker))
    result = _verify_text(ROCQ_SAMPLES / "benchmark.jsonl", ROCQ_SAMPLES / "proofs")
    assert result.exit_code == 2 and result.stdout == ""
    assert f"{blocker}: PUTNAM_CACHE_DIR names a file, not a directory" in result.stderr
    assert "unset it to use the per-user cache directory" in result.stderr
    result = _run("selftest", "--prover", "rocq")
    assert result.exit_code == 2 and result.stdout == "", "refused before any canary ran"
    assert str(blocker) in result.stderr and "PUTNAM_CACHE_DIR" in result.stderr
    result = _run("bootstrap", "--prover", "lean", "--dir", tmp_path / "toolchain")
    assert result.exit_code == 2 and result.stdout == "", "refused before anything is installed"
    assert str(blocker) in result.stderr and not (tmp_path / "toolchain").exists()
    doctor = _run("doctor", "--prover", "rocq")
    assert f"MISS cache directory: {blocker}: PUTNAM_CACHE_DIR names a file" in doctor.stdout


def test_outputs_get_the_users_umask_not_0600(tmp_path: Path) -> None:
    from putnam_solver.run.ledger import Ledger
    from putnam_solver.run.report.summary import write_outputs
    from tests.integration.campaign_driver import recorded_lean_settings

    old = os.umask(0o022)
    try:
        out = tmp_path / "verdicts.json"
        assert _verify_text(ROCQ_SAMPLES / "benchmark.jsonl", "--json", out, ROCQ_SAMPLES / "proofs").exit_code == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o644
        os.umask(0o027)
        run_dir = tmp_path / "run"
        run_dir.mkdir()
        ledger = Ledger.open(run_dir / "ledger.sqlite")
        ledger.record_settings(recorded_lean_settings(["putnam_1962_a1"]).to_json())
        write_outputs(run_dir, ledger)
        ledger.close()
        for name in ("SUMMARY.md", "attempts.tsv"):
            assert stat.S_IMODE((run_dir / name).stat().st_mode) == 0o640, name
        write_atomic(tmp_path / "private", b"x")
        os.umask(0o077)
        write_atomic(tmp_path / "private", b"y")
        assert stat.S_IMODE((tmp_path / "private").stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_an_unexpected_error_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the probe fell over")

    monkeypatch.setattr("putnam_solver.cli.setup.check_health", broken)
    result = _run("doctor")
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "error: unexpected RuntimeError: the probe fell over" in result.stderr
    assert "PUTNAM_TRACEBACK=1" in result.stderr
    monkeypatch.setenv("PUTNAM_TRACEBACK", "1")
    assert isinstance(runner.invoke(app, ["doctor"]).exception, RuntimeError), "for bug reports"


# ------------------------------------------------------------------------------------ which files, which prover


def test_the_prover_follows_the_file_suffix_when_not_given() -> None:
    rocq = _verify_text(ROCQ_SAMPLES / "benchmark.jsonl", ROCQ_SAMPLES / "proofs" / "sample_sum_odds.v")
    assert rocq.exit_code == 0 and "ACCEPTED" in rocq.stdout and "sample_sum_odds" in rocq.stdout
    lean = _verify_text(LEAN_SAMPLES / "benchmark.jsonl", LEAN_SAMPLES / "proofs")
    assert lean.exit_code == 0 and "4 problems: 4 accepted" in lean.stdout
    both = _run(
        "verify",
        "--gates",
        "text",
        LEAN_SAMPLES / "proofs" / "toy_and_comm.lean",
        ROCQ_SAMPLES / "proofs" / "sample_sum_odds.v",
    )
    assert both.exit_code == 2 and "files of several provers (lean, rocq)" in both.stderr and "--prover" in both.stderr


def test_skipped_files_are_named_and_a_file_given_twice_is_verified_once(tmp_path: Path) -> None:
    proofs = tmp_path / "proofs"
    shutil.copytree(LEAN_SAMPLES / "proofs", proofs)
    (proofs / "lakefile.lean").write_text("-- the project, not a candidate\n")
    (proofs / "notes.txt").write_text("")
    (proofs / "old").mkdir()
    one = proofs / "toy_and_comm.lean"
    result = _verify_text(LEAN_SAMPLES / "benchmark.jsonl", one, proofs, one)
    assert result.exit_code == 0
    assert "4 problems: 4 accepted" in result.stdout and result.stdout.count("toy_and_comm.lean") == 1
    for name, why in (
        ("lakefile.lean", "its name does not name a problem of benchmark.jsonl"),
        ("notes.txt", "not a lean candidate (they end in .lean)"),
        ("old", "directories are not searched recursively"),
    ):
        assert f"warning: {proofs / name}: skipped: " in result.stderr and why in result.stderr, name


def test_a_folder_of_many_other_files_names_the_first_skips_and_counts_the_rest(tmp_path: Path) -> None:
    proofs = tmp_path / "proofs"
    shutil.copytree(LEAN_SAMPLES / "proofs", proofs)
    for i in range(SHOWN_SKIPS + 25):
        (proofs / f"build-{i:03d}.log").write_text("")
    result = _verify_text(LEAN_SAMPLES / "benchmark.jsonl", proofs)
    assert result.exit_code == 0 and "4 problems: 4 accepted" in result.stdout
    assert result.stderr.count(": skipped: ") == SHOWN_SKIPS, result.stderr
    assert f"warning: {proofs / 'build-000.log'}: skipped: not a lean candidate" in result.stderr
    assert f"warning: {proofs}: 25 more entries skipped (not named above)" in result.stderr


# ------------------------------------------------------------------------------------ what verify prints


@pytest.mark.parametrize(
    ("samples", "name", "text"),
    [
        (LEAN_SAMPLES, "toy_and_comm.lean", "theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := by exact?\n"),
        (ROCQ_SAMPLES, "sample_sum_odds.v", None),
    ],
)
def test_a_text_profile_acceptance_says_nothing_was_compiled(
    tmp_path: Path, samples: Path, name: str, text: str | None
) -> None:
    candidate = tmp_path / name
    if text is None:
        shutil.copy(samples / "proofs" / name, candidate)
    else:
        candidate.write_text(text)
    result = _verify_text(samples / "benchmark.jsonl", candidate)
    assert result.exit_code == 0
    assert result.stdout.startswith(f"ACCEPTED (text gates only: not compiled) {candidate.stem}  {candidate}")


def test_a_compiling_profile_prints_a_bare_accepted() -> None:
    verdict = Verdict(
        problem="p",
        prover="rocq",
        track=Track.WITH_ANSWER,
        profile=Profile.FAST,
        gates=[GateResult(g, g, GateStatus.PASSED, "") for g in ("G1", "G2", "G3", "G4")],
        expected_gates=("G1", "G2", "G3", "G4"),
        candidate_sha256="",
        statement_sha256="",
        challenge_sha256="",
        benchmark_sha256="",
        benchmark_pinned=True,
        candidate_path="p.v",
    )
    assert verdict_text(verdict) == "ACCEPTED  p  p.v"


def test_a_multi_line_gate_detail_is_indented_under_its_gate(tmp_path: Path) -> None:
    candidate = tmp_path / "toy_and_comm.lean"
    candidate.write_text(
        "theorem toy_and_comm (p q : Prop) (h : And p q) (x : True) : And q p := And.intro h.right h.left\n"
        "set_option debug.skipKernelTC true\n"
    )
    result = _verify_text(LEAN_SAMPLES / "benchmark.jsonl", candidate)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    gate = next(i for i, line in enumerate(lines) if line.startswith("          G2 preservation failed: line 1:"))
    assert lines[gate + 1].startswith("            line 2: "), lines


# ------------------------------------------------------------------------------------ doctor, policy, bootstrap


def test_doctor_shows_n_a_for_a_gate_rocq_lacks_and_where_the_benchmark_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = _run("doctor", "--prover", "coq")
    assert "  n/a  G7" in result.stdout and "MISS G7" not in result.stdout
    found = f"rocq: ok   benchmark data: {COQ_BENCH} (from PUTNAM_BENCHMARK): 412 problems, matches the pin"
    assert found in result.stdout
    assert result.exit_code == (0 if "rocq: full profile can run" in result.stdout else 1)
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(tmp_path / "nowhere"))
    result = _run("doctor", "--prover", "rocq")
    assert result.exit_code == 1
    assert f"rocq: MISS benchmark data: {tmp_path / 'nowhere'}: no benchmark file here" in result.stdout
    assert "unset it to use the fetched or packaged copy" in result.stdout
    monkeypatch.delenv("PUTNAM_BENCHMARK")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    result = _run("doctor", "--prover", "rocq", "--benchmark", "minif2f")
    assert "(the copy packaged with putnam): 488 problems, " in result.stdout
    assert "matches the pin (miniF2F Rocq (Coq) (adapted) @ b60affa)" in result.stdout
    help_text = " ".join(_run("doctor", "--help").stdout.split())
    assert "Exit 0 when, for every prover checked, the full profile can run here and the benchmark data" in help_text
    assert "1 when something is missing" in help_text and "2 on bad input" in help_text


def _headings(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("#")]


def _column(text: str, header: str, index: int) -> set[str]:
    lines = text.splitlines()
    start = lines.index(header) + 2
    rows = lines[start : lines.index("", start)]
    return {row.split(" | ")[index].strip() for row in rows}


def test_coq_names_rocq_everywhere_and_both_policies_share_one_format() -> None:
    rocq, coq, lean = _run("policy", "--prover", "rocq"), _run("policy", "--prover", "coq"), _run("policy")
    assert coq.exit_code == 0 and coq.stdout == rocq.stdout
    for result, language in ((lean, "Lean"), (rocq, "Rocq")):
        headings = _headings(result.stdout)
        assert headings[:3] == [
            f"# {language} submission policy",
            "## Differences from the challenge, by whether they can change the statement",
            headings[2],
        ] and headings[2].startswith("## Permitted helpers")
        assert any(h.startswith("## Forbidden anywhere outside") for h in headings)
        assert _column(result.stdout, "| difference | verdict | reason |", 1) <= {"harmless", "elaboration", "refused"}
        assert "| construct | rule | reason |" in result.stdout
    listed = _run("list", "--prover", "coq", "--max-problems", "3")
    assert listed.exit_code == 0 and listed.stdout == _run("list", "--prover", "rocq", "--max-problems", "3").stdout
    assert len(listed.stdout.splitlines()) == 3, "one line per problem (a statement with errata says so on it)"
    unknown = _run("policy", "--prover", "isabelle")
    assert unknown.exit_code == 2 and "coq (= rocq)" in unknown.output


def test_bootstrap_refuses_lean_options_for_rocq_instead_of_ignoring_them(tmp_path: Path) -> None:
    result = _run("bootstrap", "--prover", "rocq", "--dir", tmp_path / "toolchain")
    assert result.exit_code == 2 and result.stdout == ""
    assert "--dir applies to the Lean toolchain only" in result.stderr
    assert "Run `putnam bootstrap --prover rocq` without --dir" in result.stderr
    assert not (tmp_path / "toolchain").exists()


# ------------------------------------------------------------------------------------ --help and --version


def _commands() -> list[list[str]]:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    names = [[name] for name in group.commands if name != "dataset"]
    return [[], *names, ["dataset"], ["dataset", "fetch"]]


@pytest.mark.parametrize("command", _commands(), ids=lambda c: " ".join(c) or "putnam")
def test_help_shows_flags_without_a_value_type(command: list[str]) -> None:
    result = _run(*command, "--help")
    assert result.exit_code == 0
    assert "<bool>" not in result.stdout and "{" not in result.stdout.splitlines()[1]


def test_verify_usage_names_its_files_and_version_prints_the_version() -> None:
    usage = _run("verify", "--help").stdout.splitlines()[1]
    assert "Usage: putnam verify [OPTIONS] [FILE...]" in usage
    result = _run("--version")
    assert result.exit_code == 0 and result.stdout == f"putnam (putnambench-solver) {__version__}\n"
