"""Red team, eighth round on the paths around the gates: the samples pass@k rests on, and which node an audit
re-verifies a pass on (``run/ledger_seals.py``, ``run/audit_placement.py``).

- pass@k counts a problem's samples (``n``) and its passes (``c``) from the ledger's attempt rows, which no
  one sealed: a valid proof copied into the failed sample's row (``putnam audit`` confirms the copy too)
  raised the audited pass@1 of a run of one pass in two samples from 0.500 to 1.000, and so did deleting the
  failed sample's row; now each attempt row and each campaign's sample plan is sealed by this account's
  ``putnam solve``, the verified pass@k counts every planned sample and a pass only in a sealed row, and a
  problem whose samples are not all in such rows is named as not verified, the ledger's claim shown apart;
- ``putnam audit --ray`` read the node to keep the re-verification away from out of the stored verdict,
  ledger text: an editor naming the honest node sent the audit to the other one; now a node named in a row
  whose seal does not check sends the audit to the head, a sealed one is avoided where another node can
  take the task (else the head re-verifies), and the audit row says which.

The run is real (``test_trust_paths_redteam2``'s: ``putnam solve --samples 2`` with the loopback model, real
coqc/coqchk); each attack edits a copy of its ledger with plain ``sqlite3``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core.verify import Verdict
from putnam_solver.run import audit_placement, audit_seal
from putnam_solver.run.audit import AuditRequest, audit_run
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
from putnam_solver.run.ledger_seals import RUN_ID, attempt_stated
from putnam_solver.run.ledger_writes import dump_json
from putnam_solver.verifier import dispatch
from tests.adversarial.test_run_directory import copy_run
from tests.adversarial.test_trust_paths_redteam2 import pass_at_k_row, sampled
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import sql
from tests.processes import putnam

__all__ = ["sampled"]  # the real run of one pass in two samples, made once for this module

HONEST_ROW = "| all | 1 | 0.500 | 1.000 |"
SOLVED = "**Solved: 1 of 1 (100.0%), audited**"


@pytest.fixture
def case(sampled: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    return copy_run(sampled, tmp_path)


def ids(run_dir: Path) -> tuple[int, int]:
    """The ids of the passed and of the rejected sample's rows."""
    rows = dict(sql(run_dir, "SELECT status, id FROM attempts"))
    return rows["passed"], rows["rejected"]


def copy_proof_into_failed_sample(run_dir: Path) -> None:
    good, bad = ids(run_dir)
    ((candidate, sha),) = sql(run_dir, "SELECT candidate, candidate_sha256 FROM attempts WHERE id=?", good)
    ((verdict,),) = sql(run_dir, "SELECT json FROM verdicts WHERE attempt_id=?", good)
    sql(run_dir, "UPDATE attempts SET status='passed', candidate=?, candidate_sha256=? WHERE id=?", candidate, sha, bad)
    sql(
        run_dir,
        "UPDATE verdicts SET status='accepted', candidate_sha256=?, json=? WHERE attempt_id=?",
        sha,
        verdict,
        bad,
    )


def copy_proof_and_its_seal(run_dir: Path) -> None:
    good, bad = ids(run_dir)
    copy_proof_into_failed_sample(run_dir)
    ((seal,),) = sql(run_dir, "SELECT seal FROM seals WHERE kind='attempt' AND ref=?", good)
    sql(run_dir, "UPDATE seals SET seal=? WHERE kind='attempt' AND ref=?", seal, bad)


def delete_failed_sample(run_dir: Path) -> None:
    _, bad = ids(run_dir)
    for table in ("verdicts", "gates", "turns", "attempt_notes"):
        sql(run_dir, f"DELETE FROM {table} WHERE attempt_id=?", bad)
    sql(run_dir, "DELETE FROM attempts WHERE id=?", bad)


def add_row_for_failed_sample(run_dir: Path) -> None:
    """The failed sample's row deleted and a new one written in its place: the pass's columns, sample 2."""
    good, bad = ids(run_dir)
    ((sample,),) = sql(run_dir, "SELECT sample FROM attempts WHERE id=?", bad)
    delete_failed_sample(run_dir)
    (row,) = sql(run_dir, "SELECT * FROM attempts WHERE id=?", good)
    columns = [r[1] for r in sql(run_dir, "PRAGMA table_info(attempts)")]
    added = dict(zip(columns, row, strict=True)) | {"id": bad + 100, "sample": sample}
    sql(run_dir, f"INSERT INTO attempts VALUES ({', '.join('?' * len(added))})", *added.values())
    ((verdict,),) = sql(run_dir, "SELECT json FROM verdicts WHERE attempt_id=?", good)
    sql(run_dir, "INSERT INTO verdicts VALUES (?, 'accepted', ?, ?)", bad + 100, added["candidate_sha256"], verdict)


EDITS = {
    "a valid proof copied into the failed sample's row": copy_proof_into_failed_sample,
    "the copy with the pass's seal copied onto it": copy_proof_and_its_seal,
    "the failed sample's row deleted": delete_failed_sample,
    "a row added in place of the failed sample's": add_row_for_failed_sample,
}


@NEEDS_ROCQ
def test_the_honest_run_s_pass_at_k_is_verified_and_unchanged(case: tuple[Path, Path]) -> None:
    run_dir, benchmark = case
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 0 and pass_at_k_row(stdout) == HONEST_ROW and "NOT VERIFIED" not in stdout, stdout + stderr
    summary = (run_dir / "SUMMARY.md").read_text()
    assert SOLVED in summary and HONEST_ROW in summary and "NOT VERIFIED" not in summary
    assert putnam("report", run_dir)[0] == 0
    page = (run_dir / "report.html").read_text()
    assert '<table class="plain" id="pass-at-k">' in page and "pass-at-k-unverified" not in page


@NEEDS_ROCQ
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edited_sample_row_never_raises_the_verified_pass_at_k(case: tuple[Path, Path], edit: str) -> None:
    """Before: the audit printed pass@1 1.000 (0.500 honest) with exit 0 for the copy and the deletion alike.
    Now the verified pass@k is the honest one (a sample without a sealed row counts as failed), the problem is
    named as not verified with why, and the ledger's claim is shown apart; the solved count stands."""
    run_dir, benchmark = case
    EDITS[edit](run_dir)
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 0, stdout + stderr
    assert pass_at_k_row(stdout) == HONEST_ROW and "NOT VERIFIED: 1 problems" in stdout, stdout
    claimed = stdout[stdout.index("as the ledger states it, NOT VERIFIED") :]
    assert "| all | 1 | 1.000 |" in claimed, stdout
    summary = (run_dir / "SUMMARY.md").read_text()
    assert SOLVED in summary and HONEST_ROW in summary and "NOT VERIFIED: 1 problems" in summary
    assert putnam("report", run_dir)[0] == 0
    page = (run_dir / "report.html").read_text()
    verified = '<td data-k="1" data-value="0.5">0.500</td><td data-k="2" data-value="1.0">1.000</td>'
    assert '<table class="plain" id="pass-at-k"><thead>' in page and verified in page
    assert 'id="pass-at-k-unverified"' in page and 'id="pass-at-k-claimed"' in page


@NEEDS_ROCQ
def test_another_account_s_run_audits_its_solved_count_but_not_its_pass_at_k(
    case: tuple[Path, Path], tmp_path: Path
) -> None:
    run_dir, benchmark = case
    other = {"XDG_CONFIG_HOME": str(tmp_path / "another-account")}
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark, **other)
    assert code == 0 and "audited 1 passes: 1 accepted" in stdout, stdout + stderr
    assert "pass@k NOT VERIFIED" in stdout and HONEST_ROW in stdout, "the claim is shown, marked unverified"
    assert SOLVED in (run_dir / "SUMMARY.md").read_text()


@NEEDS_ROCQ
def test_a_ledger_from_before_attempt_seals_loads_with_its_pass_at_k_unverified(case: tuple[Path, Path]) -> None:
    run_dir, _ = case
    sql(run_dir, "DELETE FROM seals")
    sql(run_dir, "DELETE FROM meta WHERE key=?", RUN_ID)
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    page = (run_dir / "report.html").read_text()
    assert 'id="pass-at-k-unverified"' in page and 'id="pass-at-k-claimed"' in page


@NEEDS_ROCQ
def test_a_run_killed_and_resumed_has_its_pass_at_k_verified(tmp_path: Path) -> None:
    """Valid: ``kill -9`` while both samples' reviewer calls are held (nothing recorded), then ``--resume``:
    each sample is recorded by the resumed process, sealed, and pass@k is verified."""
    from tests.adversarial.test_cost_redteam import Reviewed
    from tests.adversarial.test_spend_after_kill import HeldReview, _solve
    from tests.fakes.openai_server import serve
    from tests.processes import finished, putnam_process, resume_args

    run_dir = _solve(tmp_path, HeldReview([], hold=True), True, "--samples", "2")
    assert sql(run_dir, "SELECT COUNT(*) FROM attempts") == [(0,)], "the kill came before any record"
    with serve(Reviewed([])) as url, putnam_process(*resume_args(run_dir, url)) as proc:
        finished(proc)
    assert sorted(sql(run_dir, "SELECT sample, status FROM attempts")) == [(1, "passed"), (2, "passed")]
    summary = (run_dir / "SUMMARY.md").read_text()
    assert "| all | 1 | 1.000 | 1.000 |" in summary and "NOT VERIFIED" not in summary, summary


# -- putnam audit --ray: where the pass is re-verified -----------------------------------------------------------


class Cluster:
    """A cluster of ``nodes`` that runs the local gates and says which node it ran them on, as ``RayVerifier``
    picks one: the first node not avoided, else the first."""

    name = "ray"

    def __init__(self, *nodes: str) -> None:
        self.nodes, self.calls = nodes, list[tuple[str, list[str]]]()

    def slots(self) -> int:
        return 1

    def verify(self, *args: Any) -> Verdict:
        avoided = dispatch.AVOIDED_NODES.get()
        node = next((n for n in self.nodes if n not in avoided), self.nodes[0])
        self.calls.append((node, sorted(avoided)))
        verdict = dispatch.LOCAL.verify(*args)
        verdict.ran_on = {"backend": "ray", "node_id": node}
        return verdict


def name_producer(run_dir: Path, node: str, reseal: bool) -> None:
    """The pass's stored verdict names ``node`` as the one that produced it; ``reseal``: as this account's
    ``putnam solve`` records a pass made on a cluster (its row sealed), else as an editor writes it."""
    good, _ = ids(run_dir)
    ((stored,),) = sql(run_dir, "SELECT json FROM verdicts WHERE attempt_id=?", good)
    verdict = json.loads(stored) | {"ran_on": {"backend": "ray", "node_id": node}}
    sql(run_dir, "UPDATE verdicts SET json=? WHERE attempt_id=?", dump_json(verdict), good)
    if reseal:
        ledger = Ledger.open(run_dir / LEDGER_NAME)
        (row,) = [a for a in ledger.attempts() if a.id == good]
        made = audit_seal.seal(attempt_stated(ledger.meta(RUN_ID), row), dump_json(row.verdict))
        ledger.close()
        sql(run_dir, "UPDATE seals SET seal=? WHERE kind='attempt' AND ref=?", made, good)


def audited_on(run_dir: Path, benchmark: Path, cluster: Cluster) -> tuple[str, dict[str, Any]]:
    """Audit with ``cluster``: the stored audit's placement and ``ran_on``."""
    outcome = audit_run(AuditRequest(run_dir, benchmark=benchmark, verifier=cluster))  # type: ignore[arg-type]
    assert outcome.exit_code == 0, outcome.message
    ((stored,),) = sql(run_dir, "SELECT json FROM audits")
    audit = json.loads(stored)
    return audit["audit"]["placement"], audit.get("ran_on", {})


@NEEDS_ROCQ
def test_a_node_named_by_an_edited_row_sends_the_audit_to_the_head(case: tuple[Path, Path]) -> None:
    """Before: the ledger naming the honest node ``node-a`` sent the audit to ``node-b``."""
    run_dir, benchmark = case
    name_producer(run_dir, "node-a", reseal=False)
    cluster = Cluster("node-a", "node-b")
    assert audited_on(run_dir, benchmark, cluster) == (audit_placement.ON_HEAD_UNSEALED, {})
    assert cluster.calls == [], "no node of the cluster re-verified it"


@NEEDS_ROCQ
def test_a_sealed_producer_is_avoided_where_another_node_can_take_it(case: tuple[Path, Path]) -> None:
    run_dir, benchmark = case
    name_producer(run_dir, "node-a", reseal=True)
    cluster = Cluster("node-a", "node-b")
    where, ran_on = audited_on(run_dir, benchmark, cluster)
    assert where == audit_placement.AWAY_FROM.format(node="node-a") and ran_on["node_id"] == "node-b"
    assert cluster.calls == [("node-b", ["node-a"])]


@NEEDS_ROCQ
def test_a_sealed_producer_alone_in_its_cluster_never_confirms_its_own_pass(case: tuple[Path, Path]) -> None:
    run_dir, benchmark = case
    name_producer(run_dir, "node-a", reseal=True)
    cluster = Cluster("node-a")
    assert audited_on(run_dir, benchmark, cluster) == (audit_placement.ON_HEAD_SOLE_NODE, {})


@NEEDS_ROCQ
def test_a_pass_made_where_solve_ran_is_audited_where_asked(case: tuple[Path, Path]) -> None:
    run_dir, benchmark = case
    cluster = Cluster("node-a", "node-b")
    where, ran_on = audited_on(run_dir, benchmark, cluster)
    assert where == audit_placement.AS_ASKED and ran_on["node_id"] == "node-a" and cluster.calls == [("node-a", [])]
