"""What others leave in the cache directory is not a verdict of ours (docs/threat-model.md), with real coqc.

``PUTNAM_CACHE_DIR`` may name a directory shared with other accounts or prepared by someone else. A
verdict cache entry is reused only for the exact inputs it judged and only when this user wrote it; a
kept build of a pinned statement (the Rocq reference ``.vo``) only under the key it was built for and only
when it is this user's own. Each attack is beside the valid case that must still be reused.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core import pinned_store
from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions
from putnam_solver.verifier.candidates import Candidate, verdict_key, verify_candidates
from tests.helpers import ROCQ_SAMPLES, SANDBOX_AVAILABLE
from tests.processes import putnam

PROBLEM = "sample_even_square"
GOOD = (ROCQ_SAMPLES.parent / "proofs" / f"{PROBLEM}.v").read_text()
BAD = GOOD.replace("Qed.", "Admitted.")
NOBODY = 65534
NEEDS_COQ = pytest.mark.skipif(
    shutil.which("coqc") is None or shutil.which("coqchk") is None or not SANDBOX_AVAILABLE,
    reason="needs coqc, coqchk and the sandbox",
)


@pytest.fixture
def bench() -> Benchmark:
    return load_benchmark(ROCQ_SAMPLES)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> VerdictCache:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    return VerdictCache(tmp_path / "cache")


def candidate(bench: Benchmark, tmp_path: Path, name: str, text: str) -> Candidate:
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    path = folder / f"{PROBLEM}.v"
    path.write_text(text)
    return Candidate(path, bench.problems[PROBLEM], text.encode())


def judge(bench: Benchmark, cache: VerdictCache, cand: Candidate, profile: Profile = Profile.TEXT) -> Verdict:
    options = VerifyOptions(profile=profile, toolchain=bench.release(None))
    (verdict,) = verify_candidates([cand], RocqProver(), bench, Track.WITH_ANSWER, options, cache=cache)
    return verdict


def entry(bench: Benchmark, cache: VerdictCache, cand: Candidate, profile: Profile = Profile.TEXT) -> Path:
    options = VerifyOptions(profile=profile, toolchain=bench.release(None))
    return cache._path(verdict_key(RocqProver(), bench, cand, Track.WITH_ANSWER, options))


def plant(source: Path, target: Path, key_of: Path, **changes: object) -> None:
    """The entry at ``source`` written at ``target`` under its key, with ``changes`` to its verdict."""
    data = json.loads(source.read_text())
    data.update(key=key_of.stem, **changes)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data))
    target.chmod(0o644)


# -- the verdict cache ---------------------------------------------------------------------------------


@NEEDS_COQ
def test_the_good_proof_s_entry_placed_at_the_bad_proof_s_key_is_not_its_verdict(
    bench: Benchmark, cache: VerdictCache, tmp_path: Path
) -> None:
    good, bad = candidate(bench, tmp_path, "good", GOOD), candidate(bench, tmp_path, "bad", BAD)
    assert judge(bench, cache, good, Profile.FULL).accepted
    target = entry(bench, cache, bad, Profile.FULL)
    plant(entry(bench, cache, good, Profile.FULL), target, target)
    code, stdout, stderr = putnam("verify", "--benchmark", ROCQ_SAMPLES, bad.path)
    assert code == 1 and "REJECTED" in stdout and "cached verdict" not in stdout, stdout + stderr
    assert "G3 forbidden failed" in stdout and "Admitted" in stdout
    # Valid beside: the good proof's own entry is still reused.
    code, stdout, stderr = putnam("verify", "--benchmark", ROCQ_SAMPLES, good.path)
    assert code == 0 and "ACCEPTED" in stdout and "(cached verdict)" in stdout, stdout + stderr


# A forger who rewrites every recorded hash: bound to the request, so only who wrote it can tell.
FORGED_HASHES = {"candidate_sha256": "", "challenge_sha256": "", "statement_sha256": "", "benchmark_sha256": ""}


def forged_entry(bench: Benchmark, cache: VerdictCache, tmp_path: Path) -> tuple[Candidate, Path]:
    """An accepted verdict for the bad proof, at its key, with every hash made to agree with it."""
    good, bad = candidate(bench, tmp_path, "good", GOOD), candidate(bench, tmp_path, "bad", BAD)
    assert judge(bench, cache, bad).status == "rejected"
    honest_bad = json.loads(entry(bench, cache, bad).read_text())
    assert judge(bench, cache, good).accepted
    target = entry(bench, cache, bad)
    plant(entry(bench, cache, good), target, target, **{k: honest_bad[k] for k in FORGED_HASHES})
    return bad, target


def test_a_verdict_entry_another_account_wrote_is_never_reused(
    bench: Benchmark, cache: VerdictCache, tmp_path: Path
) -> None:
    bad, target = forged_entry(bench, cache, tmp_path)
    os.chown(target, NOBODY, NOBODY)
    verdict = judge(bench, cache, bad)
    assert verdict.status == "rejected" and not verdict.cached
    assert target.stat().st_uid == os.geteuid(), "the foreign entry is replaced by this user's own"
    assert judge(bench, cache, bad).cached, "valid beside: this user's own entry is reused"


@pytest.mark.parametrize("mode", [0o666, 0o664])
def test_a_verdict_entry_others_can_write_is_never_reused(
    bench: Benchmark, cache: VerdictCache, tmp_path: Path, mode: int
) -> None:
    bad, target = forged_entry(bench, cache, tmp_path)
    target.chmod(mode)
    verdict = judge(bench, cache, bad)
    assert verdict.status == "rejected" and not verdict.cached
    assert target.stat().st_mode & 0o777 == 0o644


def test_entries_are_written_writable_by_their_owner_alone_whatever_the_umask(
    bench: Benchmark, cache: VerdictCache, tmp_path: Path
) -> None:
    good = candidate(bench, tmp_path, "good", GOOD)
    old = os.umask(0o002)
    try:
        assert judge(bench, cache, good).accepted
    finally:
        os.umask(old)
    assert entry(bench, cache, good).stat().st_mode & 0o777 == 0o644
    assert judge(bench, cache, good).cached


def test_a_linked_verdict_entry_is_not_followed(bench: Benchmark, cache: VerdictCache, tmp_path: Path) -> None:
    bad, target = forged_entry(bench, cache, tmp_path)
    elsewhere = tmp_path / "elsewhere.json"
    target.rename(elsewhere)
    target.symlink_to(elsewhere)
    assert not judge(bench, cache, bad).cached


# -- kept builds of pinned statements --------------------------------------------------------------------


def _kept_entry(source: str) -> Path:
    key = {"source_sha256": source}
    return pinned_store.entry_path("rocq-pinned", key, "Reference.vo", producer=pinned_store.write_entry)


def test_a_kept_build_copied_under_another_key_is_not_that_build(cache: VerdictCache) -> None:
    mine = _kept_entry("a")
    other = _kept_entry("b")
    pinned_store.write_entry(mine, {"Reference": b"compiled statement a"})
    other.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(mine, other)
    assert pinned_store.read_entry(other, 1 << 20) is None
    os.link(mine, other.with_name(other.name + ".tmp"))
    os.replace(other.with_name(other.name + ".tmp"), other)
    assert pinned_store.read_entry(other, 1 << 20) is None, "a hard link under another key"
    assert pinned_store.read_entry(mine, 1 << 20) == {"Reference": b"compiled statement a"}, "valid beside"


def test_a_kept_build_another_account_wrote_or_others_can_write_is_absent(cache: VerdictCache) -> None:
    mine = _kept_entry("a")
    pinned_store.write_entry(mine, {"Reference": b"compiled statement a"})
    assert mine.stat().st_mode & 0o777 == 0o644
    os.chown(mine, NOBODY, NOBODY)
    assert pinned_store.read_entry(mine, 1 << 20) is None
    os.chown(mine, os.geteuid(), os.getegid())
    mine.chmod(0o666)
    assert pinned_store.read_entry(mine, 1 << 20) is None
    mine.chmod(0o644)
    assert pinned_store.read_entry(mine, 1 << 20) == {"Reference": b"compiled statement a"}


# -- a run directory's ledger ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def honest_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    pytest.importorskip("inspect_ai")
    from tests.fakes.sample_prover import SampleProver, solved_run

    return solved_run(tmp_path_factory.mktemp("honest"), SampleProver([]), (PROBLEM,))


@NEEDS_COQ
def test_a_ledger_that_is_a_link_is_never_opened(honest_run: tuple[Path, Path], tmp_path: Path) -> None:
    """A handed-over run whose ledger links to a file of the reader's: SQLite would follow the link and make
    that file a ledger (an empty file became a 100 KB database under `putnam report`)."""
    run_dir = tmp_path / "run"
    shutil.copytree(honest_run[0], run_dir, ignore=shutil.ignore_patterns("work", "logs", "run.lock"))
    real = tmp_path / "real-ledger.sqlite"
    (run_dir / "ledger.sqlite").rename(real)
    victim = tmp_path / "victim"
    victim.write_bytes(b"")
    (run_dir / "ledger.sqlite").symlink_to(victim)
    for command in (("report", run_dir), ("audit", run_dir, "--benchmark", honest_run[1])):
        code, stdout, stderr = putnam(*command)
        assert code == 2 and "ledger.sqlite is a symbolic link; not followed" in stderr, stdout + stderr
    code, stdout, stderr = putnam("export", run_dir, "--proofs", tmp_path / "proofs")
    assert code == 2 and "symbolic link; not followed" in stderr and not (tmp_path / "proofs").exists()
    assert victim.read_bytes() == b"", "the linked file was written"
    # The same link to the run's real ledger is refused too; the ledger in its place is audited.
    (run_dir / "ledger.sqlite").unlink()
    (run_dir / "ledger.sqlite").symlink_to(real)
    assert putnam("report", run_dir)[0] == 2
    (run_dir / "ledger.sqlite").unlink()
    real.rename(run_dir / "ledger.sqlite")
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", honest_run[1])
    assert code == 0 and "1 accepted" in stdout, stdout + stderr


@NEEDS_COQ
def test_a_problem_selected_twice_is_refused_by_every_reader(honest_run: tuple[Path, Path], tmp_path: Path) -> None:
    """A run selects each problem once; an edit that repeats one made SUMMARY.md say "Solved: 1 of 3,
    audited ...; 3 verified at submission" for one proof."""
    run_dir = tmp_path / "run"
    shutil.copytree(honest_run[0], run_dir, ignore=shutil.ignore_patterns("work", "logs", "run.lock"))
    # Valid beside: the untouched copy reports and audits one pass of one problem.
    assert putnam("report", run_dir)[0] == 0
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", honest_run[1])
    assert code == 0 and "audited 1 passes: 1 accepted" in stdout, stdout + stderr
    db = sqlite3.connect(run_dir / "ledger.sqlite")
    for row, text in db.execute("SELECT id, json FROM settings").fetchall():
        settings = json.loads(text)
        settings["selected"] = settings["selected"] * 3
        db.execute("UPDATE settings SET json=? WHERE id=?", (json.dumps(settings), row))
    db.commit()
    db.close()
    refused = f"`selected` names {PROBLEM!r} more than once"
    for command in (
        ("report", run_dir),
        ("audit", run_dir, "--benchmark", honest_run[1]),
        ("export", run_dir, "--proofs", tmp_path / "proofs"),
    ):
        code, stdout, stderr = putnam(*command)
        assert code == 2 and refused in stderr and "the ledger was edited" in stderr, stdout + stderr


# -- putnam serve reads the same cache --------------------------------------------------------------------


class _Here:
    """A serve Verifier that runs the gates in this process."""

    async def verify(self, job: Any) -> Verdict:
        from putnam_solver.serve.verifier import run_job

        return run_job(job)

    def close(self) -> None:
        pass


def test_serve_answers_a_planted_entry_with_a_fresh_verdict(
    bench: Benchmark, cache: VerdictCache, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from putnam_solver.serve import Readiness, ServeConfig, create_app, load_keys

    monkeypatch.setattr(Readiness, "not_ready", lambda self, prover=None: None)
    monkeypatch.setattr(Readiness, "start", lambda self: None)
    key = "redteam-key-0123456789abcdef"
    (tmp_path / "keys").write_text(f"unit {key} 2\n")
    (tmp_path / "keys").chmod(0o600)  # the keys file is this account's alone
    config = ServeConfig(keys=load_keys(tmp_path / "keys"), benchmarks={"rocq": bench}, cache=cache)
    good, bad = candidate(bench, tmp_path, "good", GOOD), candidate(bench, tmp_path, "bad", BAD)
    headers = {"Authorization": f"Bearer {key}"}
    with TestClient(create_app(config, _Here())) as client:

        def post(text: str) -> dict[str, Any]:
            body = {"problem": PROBLEM, "candidate": text, "profile": "text"}
            response = client.post("/verify", json=body, headers=headers)
            assert response.status_code == 200, response.text
            return dict(response.json())

        assert post(GOOD)["status"] == "accepted"
        target = entry(bench, cache, bad)
        plant(entry(bench, cache, good), target, target)
        answered = post(BAD)
        assert answered["status"] == "rejected" and answered["cached"] is False
        assert post(GOOD)["cached"] is True, "valid beside: the good proof's own entry answers it"


# -- putnam verify counts problems -------------------------------------------------------------------------


def test_a_proof_folder_naming_one_problem_twice_is_refused_not_counted_twice(tmp_path: Path) -> None:
    """``putnam verify DIR`` printed "2 problems: 2 accepted" for one proof under its id and its module name."""
    folder = tmp_path / "proofs"
    folder.mkdir()
    (folder / f"{PROBLEM}.v").write_text(GOOD)
    code, stdout, stderr = putnam("verify", "--gates", "text", "--benchmark", ROCQ_SAMPLES, folder)
    assert code == 0 and "1 problem: 1 accepted" in stdout, stdout + stderr  # valid beside
    (folder / "SampleEvenSquare.v").write_text(GOOD)
    code, stdout, stderr = putnam("verify", "--gates", "text", "--benchmark", ROCQ_SAMPLES, folder)
    assert code == 2 and f"both name problem {PROBLEM}" in stderr and "accepted" not in stdout, stdout + stderr
    other = tmp_path / "other"
    other.mkdir()
    (other / f"{PROBLEM}.v").write_text(GOOD)
    code, stdout, stderr = putnam(
        "verify", "--gates", "text", "--benchmark", ROCQ_SAMPLES, folder / f"{PROBLEM}.v", other / f"{PROBLEM}.v"
    )
    assert code == 2 and f"both name problem {PROBLEM}" in stderr, stdout + stderr
    # The same file named twice (directly and through its folder) is still one candidate.
    (folder / "SampleEvenSquare.v").unlink()
    both = (folder, folder / f"{PROBLEM}.v")
    code, stdout, stderr = putnam("verify", "--gates", "text", "--benchmark", ROCQ_SAMPLES, *both)
    assert code == 0 and "1 problem: 1 accepted" in stdout, stdout + stderr


# -- the selftest record a gate and `putnam serve` read back ----------------------------------------------


@NEEDS_COQ
def test_a_selftest_record_another_account_wrote_is_no_record(cache: VerdictCache, rocq_selftest_records: Path) -> None:
    from putnam_solver.core.selftest_record import record_path, stored_record

    shutil.copytree(rocq_selftest_records, cache.directory / "selftest")
    options = VerifyOptions()
    record = record_path("rocq", RocqProver().toolchain_fingerprint(options), options)
    assert stored_record("rocq", options) is not None, "valid beside: this user's own record is read"
    os.chown(record, NOBODY, NOBODY)
    assert stored_record("rocq", options) is None
    os.chown(record, os.geteuid(), os.getegid())
    record.chmod(0o666)
    assert stored_record("rocq", options) is None
