"""``putnam audit``, ``putnam export`` and ``putnam verify --bundle`` on a real run: ``putnam solve`` with a
loopback model server, every verdict from real coqc/coqchk in the sandbox.

The run (made once for the module, copied for each test) solves two sample problems. Tests tamper with
it the way a dishonest reporter would (a stored pass replaced by a proof that is not one, with every hash
in the ledger and the evidence folder made to agree), change its benchmark or toolchain, kill an audit
half-way, and carry its bundle to a place where only the benchmark file exists.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import tarfile
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from putnam_solver.run.ledger import Ledger
from tests.fakes.openai_server import FakeOpenAI, serve
from tests.fakes.sample_prover import SAMPLES, SampleProver, solved_run
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.processes import WAIT_SECONDS, putnam, python_process, wait_for

pytestmark = NEEDS_ROCQ

PROBLEMS = ("sample_even_square", "sample_rev_length")
TAMPERED = "sample_rev_length"
BENCHMARK = SAMPLES / "benchmark.jsonl"
"""The auditor's own copy of the run's benchmark (an unregistered file: named with --benchmark)."""
FORGED = (SAMPLES / "proofs" / f"{TAMPERED}.v").read_text().replace("Qed.", "Admitted.")
DRIVER = Path(__file__).with_name("audit_driver.py")


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run in which both problems passed (the benchmark is a copy only this module uses)."""
    return solved_run(tmp_path_factory.mktemp("solved"), SampleProver([]), PROBLEMS)[0]


@pytest.fixture
def run_dir(solved: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FAKE_API_KEY", "test-key")
    copy = tmp_path / "run"
    shutil.copytree(solved, copy, ignore=shutil.ignore_patterns("work", "logs", "run.lock"))
    return copy


def audits(run_dir: Path) -> list[tuple[str, str, int, str]]:
    """(problem, status, toolchain_changed, toolchain) of every stored audit, oldest first."""
    ledger = Ledger.open(run_dir / "ledger.sqlite")
    try:
        problem = {a.id: a.problem for a in ledger.attempts()}
        return [(problem[a.attempt_id], a.status, int(a.toolchain_changed), a.toolchain) for a in ledger.audits()]
    finally:
        ledger.close()


def recorded_toolchain(run_dir: Path) -> str:
    settings = Ledger.open(run_dir / "ledger.sqlite")
    try:
        return str((settings.settings() or {})["toolchain"])
    finally:
        settings.close()


def headline(run_dir: Path) -> str:
    return next(line for line in (run_dir / "SUMMARY.md").read_text().splitlines() if line.startswith("**Solved"))


def audit_column(run_dir: Path) -> dict[str, str]:
    lines = (run_dir / "attempts.tsv").read_text().splitlines()
    header = lines[0].split("\t")
    rows = [dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:]]
    return {r["problem"]: r["audit"] for r in rows}


def tamper(run_dir: Path, problem: str, text: str) -> None:
    """Replace a stored pass's candidate, making every stored hash agree (ledger and evidence folder)."""
    sha = hashlib.sha256(text.encode()).hexdigest()
    db = sqlite3.connect(run_dir / "ledger.sqlite")
    (attempt,) = db.execute("SELECT id FROM attempts WHERE problem=? AND status='passed'", (problem,)).fetchone()
    db.execute("UPDATE attempts SET candidate=?, candidate_sha256=? WHERE id=?", (text, sha, attempt))
    verdict = json.loads(db.execute("SELECT json FROM verdicts WHERE attempt_id=?", (attempt,)).fetchone()[0])
    verdict["candidate_sha256"] = sha
    db.execute("UPDATE verdicts SET json=?, candidate_sha256=? WHERE attempt_id=?", (json.dumps(verdict), sha, attempt))
    db.commit()
    db.close()
    (run_dir / "attempts" / "campaign-1" / problem / "candidate.v").write_text(text)


def table(stdout: str) -> dict[str, tuple[str, str]]:
    """``verify --bundle``'s table: problem -> (claimed, re-verified)."""
    rows = [line.split() for line in stdout.splitlines() if line.startswith(PROBLEMS)]
    return {r[0]: (r[1], r[2]) for r in rows}


def test_solve_audit_reverifies_every_pass_and_the_headline_becomes_the_audited_count(run_dir: Path) -> None:
    assert headline(run_dir).startswith("**Solved: 2 of 2 (100.0%)**, verified at submission; not audited yet")
    assert audit_column(run_dir) == {p: "" for p in PROBLEMS}
    with serve(FakeOpenAI([])) as url:  # solve checks the model's server accepts connections before it runs
        code, stdout, stderr = putnam("solve", "--resume", run_dir, "--audit", "--quiet", "--model-base-url", url)
    assert code == 0, stdout + stderr
    assert "audit: audited 2 passes: 2 accepted, 0 rejected, 0 could not be decided (2 re-verified now; " in stdout
    toolchain = recorded_toolchain(run_dir)
    assert "coqc" in toolchain
    assert sorted(audits(run_dir)) == [(p, "accepted", 0, toolchain) for p in sorted(PROBLEMS)]
    assert headline(run_dir).startswith("**Solved: 2 of 2 (100.0%), audited** (re-verified afresh")
    assert "| Verified passes | 2 (100.0%) |" in (run_dir / "SUMMARY.md").read_text()
    assert "| Audited passes | 2 (100.0%); against an UNPINNED benchmark |" in (run_dir / "SUMMARY.md").read_text()
    assert audit_column(run_dir) == {p: "accepted" for p in PROBLEMS}
    evidence = json.loads((run_dir / "attempts" / "campaign-1" / TAMPERED / "audit.json").read_text())
    assert evidence["status"] == "accepted" and evidence["verdict"]["profile"] == "full"
    assert [g["id"] for g in evidence["verdict"]["gates"]] == ["G1", "G2", "G3", "G4", "G5", "G6"]
    assert evidence["verdict"]["audit"]["challenge_matches_run"] is True
    # Run again: every audit re-verifies every pass; the earlier audits stay in the ledger as history.
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", BENCHMARK)
    assert code == 0 and "(2 re-verified now; benchmark " in stdout and "UNPINNED" in stdout, stdout + stderr
    assert "2 earlier audits in the ledger are history, not counted" in stderr
    assert len(audits(run_dir)) == 4


def test_a_pass_tampered_after_the_run_is_caught_by_the_bundle_check_and_by_the_audit(
    run_dir: Path, tmp_path: Path
) -> None:
    # A bundle edited after export no longer matches its manifest: refused before anything is verified.
    edited = tmp_path / "edited"
    assert putnam("export", run_dir, "-o", edited)[0] == 0
    (edited / "proofs" / f"{TAMPERED}.v").write_text(FORGED)
    code, _, stderr = putnam("verify", "--bundle", edited, "--benchmark", SAMPLES / "benchmark.jsonl")
    assert code == 2 and f"proofs/{TAMPERED}.v (problem {TAMPERED}): SHA-256" in stderr, stderr
    # A careful forger rewrites the ledger and the evidence folder so that every stored hash agrees.
    tamper(run_dir, TAMPERED, FORGED)
    bundle = tmp_path / "claims.tar.gz"
    assert putnam("export", run_dir, "-o", bundle)[0] == 0, "the ledger looks consistent: the pass is exported"
    code, stdout, stderr = putnam(
        "verify", "--bundle", bundle, "--benchmark", SAMPLES / "benchmark.jsonl", "--no-cache"
    )
    assert code == 1, stdout + stderr
    assert table(stdout) == {"sample_even_square": ("accepted", "accepted"), TAMPERED: ("accepted", "REJECTED")}
    assert "G3 forbidden failed" in stdout and "Admitted" in stdout

    code, stdout, stderr = putnam("audit", run_dir, "--jobs", "2", "--benchmark", BENCHMARK)
    assert code == 1, stdout + stderr
    assert f"not confirmed: {TAMPERED}" in stdout
    assert sorted((p, s) for p, s, _, _ in audits(run_dir)) == [
        ("sample_even_square", "accepted"),
        (TAMPERED, "rejected"),
    ]
    assert audit_column(run_dir) == {"sample_even_square": "accepted", TAMPERED: "rejected:G3"}
    summary = (run_dir / "SUMMARY.md").read_text()
    assert headline(run_dir).startswith("**Solved: 1 of 2 (50.0%), audited**")
    assert "2 verified at submission, 1 failed their audit" in headline(run_dir)
    assert f"- {TAMPERED} (campaign 1): audit rejected on " in summary, "the failed pass is marked, not dropped"
    # Exporting again leaves the pass whose audit failed out, and says so.
    code, stdout, stderr = putnam("export", run_dir, "--proofs", tmp_path / "proofs")
    assert code == 0 and f"warning: {TAMPERED} not exported: its newest audit" in stderr
    assert sorted(p.name for p in (tmp_path / "proofs").iterdir()) == ["sample_even_square.v"]


def test_a_bundle_verifies_elsewhere_with_only_the_benchmark_file(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (
        putnam("export", run_dir, "-o", tmp_path / "out" / "bundle.tar.gz", "--proofs", tmp_path / "out" / "proofs")[0]
        == 0
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copyfile(tmp_path / "out" / "bundle.tar.gz", elsewhere / "bundle.tar.gz")
    shutil.copytree(tmp_path / "out" / "proofs", elsewhere / "proofs")
    shutil.copyfile(SAMPLES / "benchmark.jsonl", elsewhere / "benchmark.jsonl")
    shutil.rmtree(run_dir)
    shutil.rmtree(tmp_path / "out")
    monkeypatch.chdir(elsewhere)
    with tarfile.open("bundle.tar.gz") as tar:
        names = sorted(tar.getnames())
    assert names == [
        "bundle.json", "challenges/sample_even_square.v", "challenges/sample_rev_length.v", "manifest.json",
        "proofs/sample_even_square.v", "proofs/sample_rev_length.v", "verdicts/sample_even_square.json",
        "verdicts/sample_rev_length.json",
    ]  # fmt: skip
    assert not any(name.endswith(".jsonl") for name in names), "the benchmark is named and hashed, not shipped"

    code, stdout, stderr = putnam("verify", "--bundle", "bundle.tar.gz", "--benchmark", "benchmark.jsonl", "--no-cache")
    assert code == 0, stdout + stderr
    assert table(stdout) == {p: ("accepted", "accepted") for p in PROBLEMS}
    assert "2 accepted, 0 rejected, 0 errors (profile full, track with-answer" in stdout
    # The proof folder is what `putnam verify DIR` (and PutnamBench submissions) take.
    assert sorted(p.name for p in Path("proofs").iterdir()) == [f"{p}.v" for p in PROBLEMS]
    code, stdout, _ = putnam(
        "verify", "--prover", "rocq", "--benchmark", "benchmark.jsonl", "--gates", "text", "proofs"
    )
    assert code == 0 and "2 problems: 2 accepted" in stdout

    # Another benchmark file: refused before anything is verified, naming both hashes.
    edited = Path("benchmark.jsonl").read_text().replace("keeps its length", "keeps its size")
    Path("other.jsonl").write_text(edited)
    code, _, stderr = putnam("verify", "--bundle", "bundle.tar.gz", "--benchmark", "other.jsonl")
    assert code == 2 and "give that benchmark file with --benchmark PATH" in stderr


def test_audit_refuses_a_changed_benchmark_and_a_changed_toolchain_unless_allowed(
    run_dir: Path, tmp_path: Path
) -> None:
    changed = tmp_path / "benchmark.jsonl"
    changed.write_text((SAMPLES / "benchmark.jsonl").read_text() + "\n")
    code, _, stderr = putnam("audit", run_dir, "--benchmark", changed)
    assert code == 2 and "can only be checked against the same statements" in stderr
    # The same Coq from another place is another toolchain (the fingerprint names each binary's file).
    other = tmp_path / "coq"
    other.mkdir()
    shutil.copy2(shutil.which("coqc") or "coqc", other / "coqc")
    code, _, stderr = putnam("audit", run_dir, "--tool", f"coqc={other / 'coqc'}", "--benchmark", BENCHMARK)
    assert code == 2 and "the toolchain differs" in stderr and "--allow-toolchain-change" in stderr
    assert audits(run_dir) == [], "a refused audit records nothing"
    code, stdout, stderr = putnam(
        "audit",
        run_dir,
        "--tool",
        f"coqc={other / 'coqc'}",
        "--allow-toolchain-change",
        "--jobs",
        "2",
        "--benchmark",
        BENCHMARK,
    )
    assert code == 0, stdout + stderr
    assert "warning: auditing on another toolchain" in stderr
    assert {(p, s, c) for p, s, c, _ in audits(run_dir)} == {(p, "accepted", 1) for p in PROBLEMS}
    assert all(str(other / "coqc") in t for *_, t in audits(run_dir)), "the audit's own toolchain is recorded"
    assert "2 on a changed toolchain (--allow-toolchain-change)" in (run_dir / "SUMMARY.md").read_text()


def test_an_audit_killed_half_way_is_history_and_the_next_one_re_verifies_every_pass(
    run_dir: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "paused"
    with python_process(str(DRIVER), str(run_dir), "1", str(marker), str(BENCHMARK)) as proc:
        wait_for("an audit is stored", lambda: marker.exists() or proc.poll() is not None, WAIT_SECONDS)
        assert marker.exists(), proc.communicate()[0]
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=WAIT_SECONDS)
    first = audits(run_dir)
    assert len(first) == 1, "the audit stored before the kill survives it"
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", BENCHMARK)
    assert code == 0, stdout + stderr
    assert "(2 re-verified now; " in stdout and "1 earlier audits in the ledger are history" in stderr
    stored = audits(run_dir)
    assert stored[0] == first[0] and sorted(p for p, *_ in stored[1:]) == sorted(PROBLEMS), "every pass afresh"
    assert headline(run_dir).startswith("**Solved: 2 of 2 (100.0%), audited**")
