"""Red team, second round on the paths around the gates (docs/threat-model.md): counts a handed-over run
directory can change without touching a candidate's bytes, and what a verdict, kept build or selftest
record made under other gate data is worth.

The run is real: ``putnam solve --samples 2`` with the loopback model server, whose first answer is the
sample proof and whose second the same proof ``Admitted`` (real coqc/coqchk in the sandbox), so the one
problem has one pass in two samples. Each attack copies it and edits its ledger with plain ``sqlite3``;
beside it the untouched copy still audits, reports and exports as before.
"""

from __future__ import annotations

import csv
import hashlib
import itertools
import json
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core import cache as core_cache
from putnam_solver.core.verify import VerifyOptions
from putnam_solver.errata import ERRATA_DIR
from tests.adversarial.test_run_directory import copy_run
from tests.fakes.openai_server import FakeOpenAI, Step, tool_call_reply
from tests.fakes.sample_prover import SAMPLES, SampleProver
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import DATA_ROOT, copied_coq_tools, sql
from tests.processes import putnam

PROBLEM, OTHER = "sample_even_square", "sample_sum_first_n"
CORE = Path(core_cache.__file__).parent
GATES = ("G4", "G5", "G6")


@dataclass
class OneOfTwo(SampleProver):
    """The sample proof at its first answer, the same proof ``Admitted`` at every later one.

    The count is the instance's: a class-wide one left a second module's run (one worker runs both modules
    that build this run) with no first answer, so both its samples were rejected."""

    answers: Iterator[int] = field(default_factory=itertools.count)

    def proof(self, problem: str, task: str) -> str:
        text = super().proof(problem, task)
        return text if next(self.answers) == 0 else text.replace("Qed.", "Admitted.")


@pytest.fixture(scope="module")
def sampled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    pytest.importorskip("inspect_ai")
    from tests.fakes.openai_server import serve
    from tests.processes import solve_args

    base = tmp_path_factory.mktemp("sampled")
    benchmark = base / "benchmark.jsonl"
    shutil.copyfile(SAMPLES / "benchmark.jsonl", benchmark)
    with serve(OneOfTwo([])) as url:
        args = solve_args(benchmark, base / "run", PROBLEM, url=url, jobs=2, max_turns=1, campaigns=1)
        code, stdout, stderr = putnam(*args, "--samples", "2", FAKE_API_KEY="test-key", INSPECT_EVAL_MAX_RETRIES="1")
    assert code == 0, stdout + stderr
    assert sorted(r[0] for r in sql(base / "run", "SELECT status FROM attempts")) == ["passed", "rejected"]
    return base / "run", benchmark


@pytest.fixture
def case(sampled: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    return copy_run(sampled, tmp_path)


def copy_pass(run_dir: Path, **changes: Any) -> None:
    """A new attempt row copying the stored pass (and its verdict), with ``changes`` to its columns; a
    changed ``candidate`` gets every stored hash made to agree with it."""
    db = sqlite3.connect(run_dir / "ledger.sqlite")
    columns = [r[1] for r in db.execute("PRAGMA table_info(attempts)")]
    row = dict(zip(columns, db.execute("SELECT * FROM attempts WHERE status='passed'").fetchone(), strict=True))
    (verdict,) = db.execute("SELECT json FROM verdicts WHERE attempt_id=?", (row["id"],)).fetchone()
    verdict = json.loads(verdict)
    row |= changes
    row["id"] = db.execute("SELECT MAX(id) + 1 FROM attempts").fetchone()[0]
    sha = hashlib.sha256(row["candidate"].encode()).hexdigest()
    row["candidate_sha256"] = verdict["candidate_sha256"] = sha
    verdict["problem"] = row["problem"]
    db.execute(
        f"INSERT INTO attempts ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", list(row.values())
    )
    db.execute("INSERT INTO verdicts VALUES (?, 'accepted', ?, ?)", (row["id"], sha, json.dumps(verdict)))
    db.commit()
    db.close()


def drop_unique_sample(run_dir: Path) -> None:
    """Rebuild ``attempts`` without ``UNIQUE (campaign, problem, sample)``, as an editor may."""
    db = sqlite3.connect(run_dir / "ledger.sqlite")
    (schema,) = db.execute("SELECT sql FROM sqlite_master WHERE name='attempts'").fetchone()
    db.execute("PRAGMA legacy_alter_table=ON")  # the other tables keep naming `attempts`
    db.execute("ALTER TABLE attempts RENAME TO attempts_old")
    db.execute(schema.replace(", UNIQUE (campaign, problem, sample)", ""))
    db.execute("INSERT INTO attempts SELECT * FROM attempts_old")
    db.execute("DROP TABLE attempts_old")
    db.commit()
    db.close()


def pass_at_k_row(stdout: str) -> str:
    return next(line for line in stdout.splitlines() if line.startswith("| all |"))


# -- 1. counts made of attempts the run could not have recorded ------------------------------------------


def _third_sample(run_dir: Path) -> None:
    copy_pass(run_dir, sample=3)


def _second_outcome_of_a_sample(run_dir: Path) -> None:
    drop_unique_sample(run_dir)
    (rejected,) = sql(run_dir, "SELECT sample FROM attempts WHERE status='rejected'")
    copy_pass(run_dir, sample=rejected[0])


def _unselected_problem(run_dir: Path) -> None:
    copy_pass(run_dir, problem=OTHER, candidate=(SAMPLES / "proofs" / f"{OTHER}.v").read_text())


def _campaign_that_never_ran(run_dir: Path) -> None:
    copy_pass(run_dir, campaign=2)


EDITS = {
    "a third sample of a run of --samples 2": (_third_sample, "the run drew 2 sample(s) per problem"),
    "two outcomes of one sample": (_second_outcome_of_a_sample, "two outcomes of sample"),
    "a pass of a problem the run never selected": (_unselected_problem, f"the run did not select {OTHER}"),
    "a pass in a campaign that never ran": (_campaign_that_never_ran, f"campaign 2 did not select {PROBLEM}"),
}


@NEEDS_ROCQ
def test_the_honest_run_audits_reports_and_exports_its_one_pass_in_two_samples(
    case: tuple[Path, Path], tmp_path: Path
) -> None:
    run_dir, benchmark = case
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 0 and "audited 1 passes: 1 accepted" in stdout, stdout + stderr
    assert pass_at_k_row(stdout) == "| all | 1 | 0.500 | 1.000 |"
    assert "**Solved: 1 of 1 (100.0%), audited**" in (run_dir / "SUMMARY.md").read_text()
    assert putnam("report", run_dir)[0] == 0
    code, stdout, stderr = putnam("export", run_dir, "--proofs", tmp_path / "proofs")
    assert code == 0 and sorted(p.name for p in (tmp_path / "proofs").iterdir()) == [f"{PROBLEM}.v"], stderr


@NEEDS_ROCQ
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_attempt_the_run_could_not_record_is_refused_by_every_reader(
    case: tuple[Path, Path], tmp_path: Path, edit: str
) -> None:
    """Before: the third sample made the audit print pass@1 0.667 (0.500 honest) with exit 0; the pass of an
    unselected problem made it "audited 2 passes: 2 accepted" of a run of one problem, and `export` wrote
    that proof into the run's proof folder. Every gate accepts each such row: the proof is real, the count
    is not."""
    run_dir, benchmark = case
    change, refusal = EDITS[edit]
    change(run_dir)
    for command in (
        ("audit", run_dir, "--benchmark", benchmark),
        ("report", run_dir),
        ("export", run_dir, "--proofs", tmp_path / "proofs"),
    ):
        code, stdout, stderr = putnam(*command)
        assert code == 2 and refusal in stderr and "the ledger was edited" in stderr, (command, stdout + stderr)
    assert not (tmp_path / "proofs").exists()
    assert sql(run_dir, "SELECT COUNT(*) FROM audits") == [(0,)], "the refused ledger was audited"


def tsv_statuses(run_dir: Path) -> list[str]:
    with (run_dir / "attempts.tsv").open() as handle:
        return sorted(row["status"] for row in csv.DictReader(handle, delimiter="\t"))


@NEEDS_ROCQ
def test_a_pass_the_ledger_claims_without_a_verdict_for_it_is_not_passed_in_attempts_tsv(
    case: tuple[Path, Path],
) -> None:
    """Before: the rejected sample marked ``passed`` in the ledger (its stored verdict still the rejection of
    its bytes) was counted nowhere, and audited as UNBACKED, yet attempts.tsv, which the audit writes
    again, listed two ``passed`` rows."""
    run_dir, benchmark = case
    assert putnam("audit", run_dir, "--benchmark", benchmark)[0] == 0
    assert tsv_statuses(run_dir) == ["passed", "rejected"]
    sql(run_dir, "UPDATE attempts SET status='passed' WHERE status='rejected'")
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 1 and "1 marked passed without a stored verdict for their bytes" in stdout, stdout + stderr
    assert tsv_statuses(run_dir) == ["passed", "unbacked"]
    assert "**Solved: 1 of 1 (100.0%), audited**" in (run_dir / "SUMMARY.md").read_text()


@NEEDS_ROCQ
def test_an_audit_leaves_no_other_bytes_beside_the_audit_json_that_confirms_the_ledger_s(
    case: tuple[Path, Path],
) -> None:
    """Before: with the pass's evidence candidate replaced by a file that proves nothing, the audit warned,
    confirmed the ledger's bytes, and wrote ``audit.json`` (accepted) beside the replaced file."""
    run_dir, benchmark = case
    verdicts = run_dir.glob("attempts/campaign-1/**/verdict.json")
    (folder,) = [v.parent for v in verdicts if json.loads(v.read_text())["status"] == "accepted"]
    candidate = folder / "candidate.v"
    real = candidate.read_text()
    candidate.write_text(real.replace("Qed.", "Admitted."))
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 0 and "differs from the candidate the ledger holds" in stderr, stdout + stderr
    assert candidate.read_text() == real
    assert (
        json.loads((folder / "audit.json").read_text())["candidate_sha256"] == hashlib.sha256(real.encode()).hexdigest()
    )


# -- 2. the gates' data is part of the gate code -----------------------------------------------------------


@pytest.fixture
def core_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "core"
    shutil.copytree(CORE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


@pytest.mark.parametrize(
    "data", ["provers/rocq/kernel_bugs.json", "provers/lean/import_closure.json", "benchmarks/specs/minif2f.json"]
)
def test_a_verdict_made_under_other_gate_data_is_not_this_gate_code_s(core_copy: Path, data: str) -> None:
    """Rocq's kernel-bug table decides whether candidate recursion is refused, Lean's import closure which
    imports are accepted; the fingerprint that keys the verdict cache, the kept builds and the selftest
    records hashed only ``*.py`` and the benchmark records, so an accepted verdict of a recursive proof,
    cached before the table listed the installed Coq's bug, was still reused after."""
    before = core_cache.code_fingerprint(core_copy)
    path = core_copy / data
    path.write_bytes(path.read_bytes().replace(b"{", b"{ ", 1))
    assert core_cache.code_fingerprint(core_copy) != before


def test_what_no_gate_reads_leaves_the_gate_code_as_it_is(core_copy: Path) -> None:
    """Bytecode, and the errata (shown beside a verdict, never an input of one), which live outside the
    package the fingerprint covers: an erratum added or edited reuses every cached verdict."""
    assert not ERRATA_DIR.is_relative_to(CORE) and list(ERRATA_DIR.glob("*.json"))
    assert (
        core_cache.gate_code_fingerprint()
        == core_cache.code_fingerprint(CORE)
        == core_cache.code_fingerprint(core_copy)
    )
    before = core_cache.code_fingerprint(core_copy)
    (core_copy / "__pycache__").mkdir()
    (core_copy / "__pycache__" / "cache.cpython-312.pyc").write_bytes(b"\0")
    assert core_cache.code_fingerprint(core_copy) == before
    (core_copy / "provers" / "rocq" / "policy.py").write_text("# changed\n", encoding="utf-8")
    assert core_cache.code_fingerprint(core_copy) != before


# -- 3. an audited count leaves out what the auditor's errata call defective ------------------------------

VACUOUS_PROBLEM = "amc12b_2020_p5"
"""miniF2F Rocq's statement whose hypotheses contradict each other (its errata: ``vacuous``)."""


class Vacuous(FakeOpenAI):
    """Submits the one-line proof through the contradictory hypotheses, at the first turn."""

    def next_step(self, request: dict[str, Any]) -> Step:
        super().next_step(request)
        record = next(
            json.loads(line)
            for line in (DATA_ROOT / "minif2f" / "minif2f_rocq_adapted.jsonl").read_text().splitlines()
            if f'"{VACUOUS_PROBLEM}"' in line
        )
        proof = (
            record["formal_statement"]
            .replace("Theorem", "Require Import Lia.\n\nTheorem", 1)
            .replace("Proof.\nAdmitted.", "Proof.\n  intros; exfalso; lia.\nQed.")
        )
        return tool_call_reply("submit", {"proof": proof}, f"v{self.requests}")


@pytest.fixture(scope="module")
def vacuous(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("inspect_ai")
    from tests.fakes.openai_server import serve
    from tests.processes import solve_args

    if not (DATA_ROOT / "minif2f" / "minif2f_rocq_adapted.jsonl").is_file():
        pytest.skip("miniF2F data not found")
    run_dir = tmp_path_factory.mktemp("vacuous") / "run"
    with serve(Vacuous([])) as url:
        args = solve_args("minif2f:valid", run_dir, VACUOUS_PROBLEM, url=url, max_turns=1)
        code, stdout, stderr = putnam(*args, FAKE_API_KEY="test-key", INSPECT_EVAL_MAX_RETRIES="1")
    assert code == 0, stdout + stderr
    return run_dir


APART = "**Solved: 0 of 1 (0.0%), audited**"


@NEEDS_ROCQ
@pytest.mark.parametrize("recorded", ["as recorded", "errata edited out of the ledger"])
def test_the_audited_headline_counts_apart_what_the_auditor_s_errata_call_defective(
    vacuous: Path, tmp_path: Path, recorded: str
) -> None:
    """Before: with the run's recorded errata emptied (or recorded before the erratum was known), `putnam
    audit` printed "1 on statements known defective, counted apart" and wrote "**Solved: 1 of 1 (100.0%),
    audited**" into the SUMMARY.md it regenerates, and the report counted it solved."""
    run_dir = tmp_path / "run"
    shutil.copytree(vacuous, run_dir, ignore=shutil.ignore_patterns("work", "logs", "run.lock"))
    if recorded != "as recorded":
        for row, text in sql(run_dir, "SELECT id, json FROM settings"):
            settings = json.loads(text)
            settings["benchmark"]["record"]["errata"] = []
            sql(run_dir, "UPDATE settings SET json=? WHERE id=?", json.dumps(settings), row)
    code, stdout, stderr = putnam("audit", run_dir)
    assert code == 0 and f"counted apart: {VACUOUS_PROBLEM}" in stdout, stdout + stderr
    summary = (run_dir / "SUMMARY.md").read_text()
    assert APART in summary and f"(counted apart): {VACUOUS_PROBLEM}." in summary, summary[:600]
    assert putnam("report", run_dir)[0] == 0
    page = (run_dir / "report.html").read_text()
    assert 'id="stat-solved" data-value="0"' in page and 'id="stat-solved-apart" data-value="1"' in page


# -- 4. a selftest record made when a gate could not run does not vouch for it ----------------------------


def _record_file() -> Path:
    from putnam_solver.core.provers import get_prover
    from putnam_solver.core.selftest_record import record_path

    return record_path("rocq", get_prover("rocq").toolchain_fingerprint(VerifyOptions()), VerifyOptions())


def _as_if_without_sandbox(path: Path) -> None:
    """The record as `putnam selftest` writes it where bubblewrap cannot start: G4-G6 cannot run, so
    their cells are shown, not judged, and the record passes (no surprise), on the same fingerprint."""
    data = json.loads(path.read_text())
    for cell in data["cells"]:
        if cell["gate"] in GATES:
            cell |= {"status": "unavailable", "judgement": "cannot-run", "detail": "bubblewrap cannot start"}
    data["cannot_run"] = dict.fromkeys(GATES, "bubblewrap cannot start a sandbox here")
    path.write_text(json.dumps(data))
    path.chmod(0o644)


@NEEDS_ROCQ
def test_a_passed_selftest_that_never_ran_the_compiled_gates_does_not_let_solve_or_serve_use_them(
    solve_env: None,
) -> None:
    """Before: `solve` spent money (and `serve` answered) on a toolchain whose compiled gates no canary had
    been through: the record of a selftest run before bubblewrap worked passed, and nothing it is keyed
    by changes when the sandbox starts working."""
    from putnam_solver.selftest.record import last_record
    from putnam_solver.selftest.runner import require_selftest, uncovered
    from putnam_solver.serve import Readiness

    options = VerifyOptions()
    honest = last_record("rocq", options)
    assert honest is not None and honest.passed and uncovered(honest, "rocq", options) == []
    assert require_selftest("rocq", options).finished_at == honest.finished_at, "a covering record is reused"
    assert Readiness({"rocq": options}, run_missing=False).state()["rocq"][0]

    _as_if_without_sandbox(_record_file())
    stale = last_record("rocq", options)
    assert stale is not None and stale.passed
    ready, why = Readiness({"rocq": options}, run_missing=False).state()["rocq"]
    assert not ready and "did not judge what can run now: G4" in why
    assert uncovered(stale, "rocq", options) == [f"{g} (could not run when the record was made)" for g in GATES]
    again = require_selftest("rocq", options)
    assert again.finished_at > honest.finished_at and again.passed and not again.cannot_run
    assert {c.judgement.value for c in again.cells if c.gate == "G4" and c.expected == "pass"} == {"right"}
    # A canary the kit ships now that the record never judged (it came with an update of the kit alone,
    # which changes neither key of the record) is not vouched for either.
    data = json.loads(_record_file().read_text())
    dropped = data["cells"][-1]["canary"]
    data["cells"] = [c for c in data["cells"] if c["canary"] != dropped]
    _record_file().write_text(json.dumps(data))
    ready, why = Readiness({"rocq": options}, run_missing=False).state()["rocq"]
    assert not ready and f"/{dropped} (not in the record)" in why


# -- 5. a verification said to be afresh uses no build an earlier process kept ----------------------------


def _references(cache: Path) -> set[Path]:
    return set((cache / "rocq-pinned").glob("*/*-Reference.vo"))


def _forge(source: Path, target: Path) -> None:
    """``source``'s entry (another statement's reference ``.vo``) at ``target``, its header naming
    ``target``: what anything running as this user (an IDE agent with a shell, say) can write there."""
    header, _, body = source.read_bytes().partition(b"\n")
    stated = json.loads(header)
    stated["entry"] = target.name
    target.write_bytes(json.dumps(stated).encode() + b"\n" + body)
    target.chmod(0o644)


@NEEDS_ROCQ
def test_audit_and_no_cache_never_judge_with_a_reference_build_an_earlier_process_kept(
    case: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: with the kept reference of another statement in the entry of this one, `putnam audit` ("afresh,
    no cache") and `putnam verify --no-cache` rejected the run's sound proof at G5 (its theorem's type
    compared with the other statement's), a rejection that the verdict cache then kept."""
    run_dir, benchmark = case
    cache = tmp_path / "cache"
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(cache))
    other = tmp_path / f"{OTHER}.v"
    shutil.copyfile(SAMPLES / "proofs" / f"{OTHER}.v", other)
    mine = tmp_path / f"{PROBLEM}.v"
    shutil.copyfile(SAMPLES / "proofs" / f"{PROBLEM}.v", mine)
    verify = ("verify", "--prover", "rocq", "--benchmark", benchmark)
    assert putnam(*verify, other)[0] == 0
    (kept_other,) = _references(cache)
    assert putnam(*verify, mine)[0] == 0
    (kept_mine,) = _references(cache) - {kept_other}
    _forge(kept_other, kept_mine)
    code, stdout, stderr = putnam(*verify, "--no-cache", mine)
    assert code == 0 and "ACCEPTED" in stdout, stdout + stderr
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 0 and "audited 1 passes: 1 accepted" in stdout, stdout + stderr
    # Valid beside: the fresh build replaced the forged entry, and a verification that may reuse kept builds
    # (a verdict not in the cache: --keep-going is part of its key, not of the build's) reuses it.
    kept = kept_mine.read_bytes()
    assert kept.partition(b"\n")[2] != kept_other.read_bytes().partition(b"\n")[2]
    code, stdout, stderr = putnam(*verify, "--keep-going", mine)
    assert code == 0 and "cached verdict" not in stdout, stdout + stderr
    assert kept_mine.read_bytes() == kept


# -- 6. no audit on a toolchain whose last selftest found its gates misjudging ----------------------------


@NEEDS_ROCQ
def test_an_audit_refuses_a_toolchain_whose_last_selftest_found_a_gate_misjudging(
    case: tuple[Path, Path], solve_env: None
) -> None:
    """Before: the audit ran on a toolchain whose selftest had just seen G6 refuse a known-good canary (a
    broken coqchk, say): its refusals of sound passes would be stored as failed audits, which SUMMARY.md
    marks and `export` leaves out."""
    run_dir, benchmark = case
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 0 and "no selftest" not in stderr, stdout + stderr
    data = json.loads(_record_file().read_text())
    good = next(c for c in data["cells"] if c["gate"] == "G6" and c["expected"] == "pass")
    good |= {"status": "failed", "judgement": "wrong", "detail": "coqchk: Anomaly"}
    _record_file().write_text(json.dumps(data))
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 2 and "found gates that misjudge canaries (G6 kernel check refused the known-good" in stderr
    assert len(sql(run_dir, "SELECT id FROM audits")) == 1, "the refused audit stored a row"
    _record_file().unlink()
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 0 and "note: no selftest of rocq on this toolchain" in stderr, stdout + stderr


@NEEDS_ROCQ
def test_a_ready_server_is_not_ready_again_once_its_toolchain_changes_under_it(solve_env: None, tmp_path: Path) -> None:
    """Before: once ready, `putnam serve` stayed ready for its whole life, so a Coq upgraded in place while it
    ran was judging requests with no selftest of it."""
    from putnam_solver.core.provers import get_prover
    from putnam_solver.core.selftest_record import KEY, record_key, record_path
    from putnam_solver.serve import Readiness

    tools = copied_coq_tools(tmp_path / "bin")
    options = VerifyOptions(tools=tools)
    fingerprint = get_prover("rocq").toolchain_fingerprint(options)
    passed = record_path("rocq", fingerprint, options)
    record = json.loads(_record_file().read_text())  # the record of these very bytes: the canaries judged them
    passed.write_text(json.dumps({**record, KEY: record_key("rocq", fingerprint, options)}))
    passed.chmod(0o644)
    readiness = Readiness({"rocq": options}, run_missing=False, recheck_seconds=0)
    assert readiness.not_ready() is None
    assert readiness.not_ready() is None, "an unchanged toolchain stays ready"
    with tools["coqc"].open("ab") as handle:  # an upgrade in place: another coqc at the same path
        handle.write(b"\n")
    why = readiness.not_ready()
    assert why is not None and "no selftest of rocq on this toolchain" in why
