"""Red team, third round on the paths around the gates: a run directory handed over and resumed.

``putnam solve --resume RUN_DIR`` continues a run with the settings its ledger stores, and a ledger is
text anyone can edit. Before this round the resume obeyed three of them that make the resuming user's
machine run or load what the directory's author chose (``run/resume_checks.py``): the gates' tools (a
``coqc`` shipped beside the ledger ran, once per selftest canary, and a wrapper that calls the real one
passes every canary while it can accept any chosen candidate), the sandbox switched off (a setting no
``putnam solve`` flag records), and a benchmark file shipped in the directory. The runs are real: ``putnam
solve`` against the loopback model server, verdicts from real coqc in the sandbox.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from putnam_solver.run.report.tables import RECURSION_LIFTED as LIFTED
from tests.adversarial.test_rocq_recursion import GUARD_FALSE
from tests.fakes.openai_server import FakeOpenAI, serve
from tests.fakes.sample_prover import SAMPLES, SampleProver, solved_run
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import copied_coq_tools
from tests.processes import putnam

pytestmark = NEEDS_ROCQ

PROBLEM, RECURSIVE = "sample_rev_length", "sample_even_square"


class RecursiveProver(SampleProver):
    """Submits rocq#20455's proof of ``False`` for ``RECURSIVE``, the sample proof for the others."""

    def proof(self, problem: str, task: str) -> str:
        return GUARD_FALSE if problem == RECURSIVE else super().proof(problem, task)


def real_coqc() -> Path:
    found = shutil.which("coqc")
    assert found is not None
    return Path(found).resolve()


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A finished run of one problem, started with ``--tool coqc=<the real coqc>``."""
    return solved_run(tmp_path_factory.mktemp("made"), SampleProver([]), (PROBLEM,), "--tool", f"coqc={real_coqc()}")


@pytest.fixture
def run_dir(made: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FAKE_API_KEY", "test-key")
    copy = tmp_path / "run"
    shutil.copytree(made[0], copy, ignore=shutil.ignore_patterns("work", "logs", "run.lock"))
    return copy


def edit_settings(run_dir: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Rewrite every settings record of the ledger through ``change``, as ``sqlite3`` would."""
    db = sqlite3.connect(run_dir / "ledger.sqlite")
    try:
        for row_id, text in db.execute("SELECT id, json FROM settings").fetchall():
            settings = json.loads(text)
            change(settings)
            db.execute("UPDATE settings SET json=? WHERE id=?", (json.dumps(settings), row_id))
        db.commit()
    finally:
        db.close()


def resume(run_dir: Path, *flags: str) -> tuple[int, str]:
    with serve(FakeOpenAI([])) as url:
        code, stdout, stderr = putnam("solve", "--resume", run_dir, "--quiet", "--model-base-url", url, *flags)
    return code, stdout + stderr


def test_a_tool_the_ledger_names_is_never_run_by_a_resume(run_dir: Path, tmp_path: Path) -> None:
    """Before: the shipped ``coqc`` ran five times (the selftest's canaries) and the resume exited 0."""
    marker = tmp_path / "ran"
    shipped = run_dir / "coqc"
    shipped.write_text(f'#!/bin/sh\necho ran >> {marker}\nexec {real_coqc()} "$@"\n')
    shipped.chmod(0o755)
    edit_settings(run_dir, lambda s: s["config"].update(tools={"coqc": str(shipped)}))
    code, output = resume(run_dir)
    assert code == 2, output
    assert f"the run's settings name the tools --tool coqc={shipped}, and this resume gives no --tool" in output
    assert "a resume runs only the tools you name" in output
    assert not marker.exists(), "the tool the ledger names ran"
    # Named by the resuming user, the run's own tool is theirs to run.
    code, output = resume(run_dir, "--tool", f"coqc={shipped}")
    assert code == 0, output
    assert marker.exists()


def test_the_run_s_own_tools_named_again_resume_it(run_dir: Path) -> None:
    code, output = resume(run_dir)
    assert code == 2 and f"Resume with --tool coqc={real_coqc()}" in output, output
    code, output = resume(run_dir, "--tool", f"coqc={real_coqc()}")
    assert code == 0 and "all 1 selected problems passed verification" in output, output


def test_another_tool_than_the_run_s_is_refused_on_resume(run_dir: Path, tmp_path: Path) -> None:
    other = tmp_path / "coqc"
    shutil.copy2(real_coqc(), other)
    code, output = resume(run_dir, "--tool", f"coqc={other}")
    assert code == 2 and "a resume runs only the tools you name" in output, output


def test_a_ledger_that_turns_the_sandbox_off_is_not_resumed(run_dir: Path) -> None:
    """Before: ``config.unsafe_no_sandbox`` (no ``solve`` flag records it) was obeyed: every candidate of
    the resumed run would compile on the resuming user's machine without isolation."""
    edit_settings(run_dir, lambda s: s["config"].update(unsafe_no_sandbox=True))
    code, output = resume(run_dir, "--tool", f"coqc={real_coqc()}")
    assert code == 2, output
    assert f"{run_dir}: the run's settings turn the sandbox off (`config.unsafe_no_sandbox`)" in output


def test_model_client_arguments_in_a_ledger_are_not_resumed(run_dir: Path) -> None:
    """Before: ``config.model_args`` (no ``solve`` flag records it) went to the model's client on resume: a
    ``base_url`` there sent the calls, with the resuming user's API key, to the ledger author's server."""
    edit_settings(run_dir, lambda s: s["config"].update(model_args={"base_url": "http://127.0.0.1:9/v1"}))
    code, output = resume(run_dir, "--tool", f"coqc={real_coqc()}")
    assert code == 2, output
    assert f"{run_dir}: the run's settings hold model client arguments (base_url)" in output


@pytest.mark.parametrize("where", ["inside", "linked", "relative"])
def test_a_benchmark_the_run_directory_ships_is_never_loaded_by_a_resume(run_dir: Path, where: str) -> None:
    """Before: the resume loaded the run directory's copy, pinned by the hash the ledger names."""
    [(text,)] = sqlite3.connect(run_dir / "ledger.sqlite").execute("SELECT json FROM settings LIMIT 1").fetchall()
    honest = Path(json.loads(text)["selection"]["benchmark"])
    shipped = run_dir / "benchmark.jsonl"
    shutil.copyfile(honest, shipped)
    named = {"inside": shipped, "linked": run_dir.parent / "bench-link.jsonl", "relative": Path("benchmark.jsonl")}
    if where == "linked":
        named[where].symlink_to(shipped)
    edit_settings(run_dir, lambda s: s["selection"].update(benchmark=str(named[where])))
    code, output = resume(run_dir, "--tool", f"coqc={real_coqc()}")
    assert code == 2, output
    assert f"the run's settings name the benchmark file {named[where]}" in output
    assert "a resume never loads a benchmark a run directory ships" in output


# -- an audit's own lifted rule in what it publishes -----------------------------------------------------


@pytest.fixture(scope="module")
def recursive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A run (``--allow-recursion``) whose pass of ``RECURSIVE`` is rocq#20455's proof of ``False``."""
    return solved_run(
        tmp_path_factory.mktemp("recursive"), RecursiveProver([]), (RECURSIVE, PROBLEM), "--allow-recursion"
    )


def headline(run_dir: Path) -> str:
    return next(line for line in (run_dir / "SUMMARY.md").read_text().splitlines() if line.startswith("**Solved"))


def test_a_count_audited_with_allow_recursion_says_so_where_it_is_published(
    recursive: tuple[Path, Path], tmp_path: Path
) -> None:
    """Before: the ledger edited to claim a run without ``--allow-recursion``, then ``putnam audit
    --allow-recursion``: SUMMARY.md read "Solved: 2 of 2 (100.0%), audited", "Acceptance gates: profile full",
    and the report's audited figure said nothing either, for a count holding a proof of ``False``."""
    run_dir = tmp_path / "run"
    shutil.copytree(recursive[0], run_dir, ignore=shutil.ignore_patterns("work", "logs", "run.lock"))
    edit_settings(run_dir, lambda s: s["config"].update(allow_recursion=False))
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", recursive[1], "--allow-recursion", "--jobs", "2")
    assert code == 0, stdout + stderr
    assert f"audited with {LIFTED}" in stdout
    note = f"2 of them confirmed only with {LIFTED} ({RECURSIVE}, {PROBLEM})"
    assert headline(run_dir).startswith("**Solved: 2 of 2 (100.0%), audited**") and note in headline(run_dir)
    assert note in (run_dir / "SUMMARY.md").read_text().split("| Audited passes |", 1)[1].splitlines()[0]
    code, _, stderr = putnam("report", run_dir)
    assert code == 0, stderr
    assert note in (run_dir / "report.html").read_text()
    # Audited again with every rule held, the proof of False fails and nothing is said to be lifted.
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", recursive[1], "--jobs", "2")
    assert code == 1 and "audited with" not in stdout, stdout + stderr
    assert headline(run_dir).startswith("**Solved: 1 of 2 (50.0%), audited**")
    assert "confirmed only with" not in (run_dir / "SUMMARY.md").read_text()
    putnam("report", run_dir)
    assert "confirmed only with" not in (run_dir / "report.html").read_text()


# -- a selftest record of this user's, under another key ------------------------------------------------


def test_a_selftest_record_renamed_to_another_toolchain_s_name_is_no_record_of_it(
    rocq_selftest_records: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whoever can write a shared ``PUTNAM_CACHE_DIR``'s ``selftest`` folder can rename this user's own files
    there. Before: the passed record of the Coq on ``PATH``, renamed to the name of another Coq's record (a
    copy elsewhere: another fingerprint), was read as that Coq's passed selftest, so ``solve`` would spend and
    ``serve`` answer on a toolchain no canary had judged (a failed record renamed over a passed one likewise)."""
    from putnam_solver.core.provers import get_prover
    from putnam_solver.core.selftest_record import record_path, stored_record
    from putnam_solver.core.verify import VerifyOptions
    from putnam_solver.selftest.record import last_record

    cache = tmp_path / "cache"
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(cache))
    shutil.copytree(rocq_selftest_records, cache / "selftest")
    honest = VerifyOptions()
    assert (record := last_record("rocq", honest)) is not None and record.passed, "valid beside: its own record"
    tools = copied_coq_tools(tmp_path / "bin")
    other = VerifyOptions(tools=tools)
    prover = get_prover("rocq")
    assert prover.toolchain_fingerprint(other) != prover.toolchain_fingerprint(honest)
    source = record_path("rocq", prover.toolchain_fingerprint(honest), honest)
    target = record_path("rocq", prover.toolchain_fingerprint(other), other)
    os.rename(source, target)
    assert target.stat().st_uid == os.geteuid() and not target.stat().st_mode & 0o022, "this user's own file"
    assert stored_record("rocq", other) is None and last_record("rocq", other) is None
    # Put back under its own name, it is that toolchain's record again.
    os.rename(target, source)
    assert (record := last_record("rocq", honest)) is not None and record.passed


# -- a proof folder from someone else ----------------------------------------------------------------------

SECRET = "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY"


def verify_text(*paths: Path | str) -> tuple[int, str]:
    args = ("verify", "--prover", "rocq", "--benchmark", SAMPLES / "benchmark.jsonl", "--gates", "text", *paths)
    code, stdout, stderr = putnam(*args)
    return code, stdout + stderr


def test_a_link_in_a_proof_folder_is_never_read(tmp_path: Path) -> None:
    """Before: ``putnam verify submissions/`` read ``sample_rev_length.v -> ~/.aws/credentials`` and G2 quoted
    its first line in the verdict (stdout, ``--json``; a CI log of submissions), the secret included."""
    secret = tmp_path / "credentials"
    secret.write_text(f"{SECRET}\nTheorem x : True.\n")
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / f"{PROBLEM}.v").symlink_to(secret)
    shutil.copyfile(SAMPLES / "proofs" / f"{RECURSIVE}.v", folder / f"{RECURSIVE}.v")
    report = tmp_path / "verdicts.json"
    code, output = verify_text(folder, "--json", report)
    assert code == 2, output
    assert SECRET not in output and SECRET not in report.read_text()
    assert f"{folder / PROBLEM}.v: a symbolic link, not followed" in output
    assert "2 problems: 1 accepted, 0 rejected, 1 error" in output, "the regular file beside it still counts"
    # The same link named on the command line (a shell glob over the folder) is not followed either.
    code, output = verify_text(folder / f"{PROBLEM}.v")
    assert code == 2 and SECRET not in output and "a symbolic link, not followed" in output, output


def test_a_link_to_another_candidate_does_not_hide_it(tmp_path: Path) -> None:
    """Before: ``sample_even_square.v -> sample_rev_length.v`` (sorted first) was read as the even-square
    candidate, and the rev-length file itself was then skipped as already seen: the one real proof of the
    folder was never verified."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    shutil.copyfile(SAMPLES / "proofs" / f"{PROBLEM}.v", folder / f"{PROBLEM}.v")
    (folder / f"{RECURSIVE}.v").symlink_to(folder / f"{PROBLEM}.v")
    code, output = verify_text(folder)
    assert code == 2, output
    assert "2 problems: 1 accepted, 0 rejected, 1 error" in output
    assert f"ACCEPTED (text gates only: not compiled) {PROBLEM}  {folder / PROBLEM}.v" in output


# -- ledger text the report computes with ---------------------------------------------------------------

CRASHING_EDITS = {  # each made `putnam report` end in "unexpected ...: This is a bug in putnam"
    "an attempt's time": ("UPDATE attempts SET recorded_at = 'not a time'", "recorded_at: 'not a time' is not a time"),
    "a campaign's start": ("UPDATE campaigns SET started_at = 'yesterday'", "started_at: 'yesterday' is not a time"),
    "a rate-limit observation's time": (
        "INSERT INTO rate_limits (campaign, observed_at, retries, connections) VALUES (1, 'x', 3, NULL)",
        "rate_limits: 'x' is not a time",
    ),
    "the run's outcome": (
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('outcome', '[1, 2]')",
        "outcome: not a run's outcome",
    ),
    "an audit's own record": (
        "INSERT INTO audits (attempt_id, audited_at, status, candidate_sha256, toolchain, benchmark_sha256, "
        "toolchain_changed, json) SELECT id, '2030-01-01T00:00:00+00:00', 'rejected', '', '', '', 0, "
        '\'{"gates": [], "audit": "x"}\' FROM attempts',
        "its `audit` record is not an object",
    ),
}


@pytest.mark.parametrize("edit", sorted(CRASHING_EDITS))
def test_ledger_text_the_report_computes_with_is_refused_not_a_crash(run_dir: Path, edit: str) -> None:
    code, _, stderr = putnam("report", run_dir)
    assert code == 0, f"valid beside: the unedited run reports: {stderr}"
    statement, refusal = CRASHING_EDITS[edit]
    db = sqlite3.connect(run_dir / "ledger.sqlite")
    db.execute(statement)
    db.commit()
    db.close()
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 2, stdout + stderr
    assert "bug in putnam" not in stderr and f"{run_dir / 'ledger.sqlite'}: " in stderr, stderr
    assert refusal in stderr and "the ledger was edited after the run" in stderr, stderr
