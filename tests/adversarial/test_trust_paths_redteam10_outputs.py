"""Red team round 10 of the trust paths, second part: what a run directory handed over makes ``audit``,
``solve --resume``, ``verify --bundle`` and ``report`` print, obey and link.

The run's claimed settings on the CLI's lines: ``putnam audit`` prints where the run's claimed kernels, tools
and toolchain release differ from its own, and ``--resume`` quotes the tools and server it refuses to use;
a line feed in one wrote a line of their own (``ACCEPTED ...``, ``audited 6 passes: 6 accepted``). Each is
now shown with its line breaks escaped (``terminal.shown_path``).

A gate's detail in the one-line rows of ``verify --bundle`` and ``audit``: both showed the first failing gate's
detail as it was, so a detail over several lines (a cluster node that named itself ``node-7<LF>ACCEPTED ...``)
wrote rows of its own; it is now one line (``terminal.one_line``), as ``putnam verify`` indents it.

What a resume obeys: a ledger saying ``acceptance_profile: text`` (which no ``putnam solve`` records) or
``allow_recursion: true`` was resumed as it said, counting passes never compiled, or accepting candidate
recursion through which Coq 8.16's guard checker bugs prove False. The first is refused like
``unsafe_no_sandbox``; the second is used only when the resume says ``--allow-recursion`` too, as the run's
tools are run only when the resume names them (``resume_checks``).

Evidence folders handed over: a folder holding its marker (``attempt.json``) was kept as it came, and
``putnam report`` (which wrote none) linked whatever it held: a shipped ``verdict.json`` or ``audit.json`` saying
``accepted`` and a candidate of other bytes stood beside the ledger's rejection. Every output now derives each
folder from the ledger (writing a file only where it differs), the report included, and links only what the
ledger backs (``report/evidence.py``, ``report/attempts.py``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core.util import InputError
from tests.adversarial.test_trust_paths_redteam10 import PID, edit_settings, made_run
from tests.helpers import ROCQ_SAMPLES
from tests.processes import putnam


@pytest.fixture
def run_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The run of ``test_trust_paths_redteam10`` (one Lean problem, one rejected attempt, a text profile)."""
    return made_run(tmp_path, monkeypatch)


# -- the run's claimed settings on lines of audit's and resume's own ---------------------------------------

FORGED_PASS = "ACCEPTED  putnam_1962_a2  every gate passed"
FORGED_COUNT = "audited 6 passes: 6 accepted, 0 rejected"


def _forged_claims(data: dict) -> None:
    data["config"]["kernels"] = [f"lean\n{FORGED_PASS}"]
    data["config"]["tools"] = {"lean": f"/opt/lean\n{FORGED_COUNT}"}
    data["config"]["toolchain"] = f"v4.9.0\r\n{FORGED_PASS}"


def _no_line_of_theirs(*texts: str) -> list[str]:
    shown = [line for text in texts for line in text.splitlines()]
    assert not any(line.startswith((FORGED_PASS, FORGED_COUNT)) for line in shown), shown
    return shown


def test_the_run_s_claimed_settings_write_no_line_of_audit_s_own(run_dir: Path) -> None:
    """Before: ``putnam audit`` compared the run's claimed kernels, tools and toolchain release with its own and
    printed them as they were: a line feed in one wrote ``ACCEPTED  putnam_1962_a2 ...`` and ``audited 6
    passes: 6 accepted`` as lines of the audit's own output. Now each is shown on its note's line, escaped."""
    edit_settings(run_dir, _forged_claims)
    code, stdout, stderr = putnam("audit", run_dir)
    assert code == 0, stdout + stderr
    shown = _no_line_of_theirs(stdout, stderr)
    notes = [line for line in shown if line.startswith("note: the run")]
    assert any(f"kernels lean\\x0a{FORGED_PASS}" in line for line in notes), notes
    assert any(f"lean=/opt/lean\\x0a{FORGED_COUNT}" in line for line in notes), notes
    assert any(f"release v4.9.0\\x0a{FORGED_PASS}" in line for line in notes), notes


def test_a_resume_refusal_quotes_the_run_s_tools_on_its_own_line(run_dir: Path) -> None:
    """The same for ``putnam solve --resume``, which refuses to run the tools a ledger names and quotes them."""
    edit_settings(run_dir, _forged_claims)
    code, stdout, stderr = putnam("solve", "--resume", run_dir)
    assert code == 2, stdout + stderr
    (error,) = [line for line in _no_line_of_theirs(stdout, stderr) if line.startswith("error:")]
    assert f"--tool lean=/opt/lean\\x0a{FORGED_COUNT}" in error, stderr


def test_honest_claims_read_as_before(run_dir: Path) -> None:
    """Valid beside: a run's own tools and kernels are quoted as they are."""

    def honest(data: dict) -> None:
        data["config"]["kernels"] = ["lean", "nanoda"]
        data["config"]["tools"] = {"lean": "/opt/lean-4.9/bin/lean"}

    edit_settings(run_dir, honest)
    code, stdout, stderr = putnam("audit", run_dir)
    assert code == 0, stdout + stderr
    message = " ".join(stderr.split())
    assert "note: the run required kernels lean,nanoda; audited with lean" in message
    assert "note: the run named its own tools (lean=/opt/lean-4.9/bin/lean); audited with this machine's" in message


# -- a gate's detail in the one-line rows of verify --bundle and audit ---------------------------------------


def node_verdict(hostname: str) -> Any:
    """The verdict the head makes of a cluster node's answer that is no verdict: its ``D0`` detail names the
    node by the host name the node itself reported."""
    from putnam_solver.cluster.request import NodeResult, Request
    from putnam_solver.core.benchmark import load_benchmark
    from putnam_solver.core.provers import get_prover
    from putnam_solver.core.verify import Track, VerifyOptions

    bench = load_benchmark(ROCQ_SAMPLES)
    problem = bench.problems["sample_even_square"]
    data = (ROCQ_SAMPLES.parent / "proofs" / "sample_even_square.v").read_bytes()
    request = Request("verify", get_prover("rocq"), bench, problem, data, Track.WITH_ANSWER, VerifyOptions(), "p.v")
    return request.checked(NodeResult("n1", hostname, "toolchain", outcome="no verdict"), [])


@pytest.mark.parametrize("host", ["node-7", f"node-7\n{FORGED_PASS}"])
def test_a_detail_s_later_lines_stay_on_the_row_of_its_problem(host: str) -> None:
    """Before: ``verify --bundle``'s table and the audit's line per pass showed the first failing gate's detail as
    it was; a cluster node that named itself ``node-7<LF>ACCEPTED ...`` (or a compiler message over several
    lines) wrote a row of its own. Now the detail is on the row; an honest one reads as before."""
    from putnam_solver.bundles.bundle import BundleCheck, BundleEntry
    from putnam_solver.run.audit import AuditItem
    from putnam_solver.run.ledger_rows import AttemptRow, AuditRow

    verdict = node_verdict(host)
    assert verdict.status == "error" and host in verdict.gates[0].detail
    entry = BundleEntry("sample_even_square", b"x", "proofs/sample_even_square.v", None, {}, None, None)
    row = BundleCheck(entry, verdict, None).line(20)
    attempt = AttemptRow(1, 1, "sample_even_square", "passed", 1, 0, 0, 0.0, "x", "h", None, None, None, None)
    audit = AuditRow(1, 1, "2026-01-01T00:00:00+00:00", "error", "h", "t", "s", False, verdict.to_json())
    line = AuditItem(attempt, audit).line()
    for shown in (row, line):
        assert "\n" not in shown and "node node-7" in shown, shown
        assert ("ACCEPTED putnam_1962_a2" in shown) == ("\n" in host), shown


# -- a resume's acceptance: what the ledger alone may not weaken ---------------------------------------------


def test_a_resume_refuses_an_acceptance_below_full_that_no_flag_records(run_dir: Path) -> None:
    """Before: a ledger saying ``acceptance_profile: text`` was resumed as it said, and every pass of the resumed
    campaigns was counted ``verified`` without a compile or a kernel check. ``putnam solve`` accepts at full
    only, so such a ledger was written by something else."""
    code, stdout, stderr = putnam("solve", "--resume", run_dir)
    message = " ".join((stdout + stderr).split())
    assert code == 2 and "the run's settings accept passes at the text profile (`config.acceptance_profile`)" in message
    assert "no `putnam solve` records" in message


def test_a_resume_lifts_the_recursion_rule_only_when_its_caller_does(run_dir: Path) -> None:
    """Before: ``allow_recursion: true`` in the ledger alone made the resumed run accept candidate recursion,
    through which Coq 8.16's guard checker bugs prove False. Now the resume must say ``--allow-recursion`` too
    (and may not say it for a run that kept the rule)."""
    from putnam_solver.run.campaign import stored_run
    from putnam_solver.run.resume_checks import check_resumable

    edit_settings(run_dir, lambda s: s["config"].update(acceptance_profile="full", allow_recursion=True))
    code, stdout, stderr = putnam("solve", "--resume", run_dir)
    message = " ".join((stdout + stderr).split())
    assert code == 2 and "the run's settings lift the recursion rule (--allow-recursion), and this resume does not" in (
        message
    ), message
    stored = stored_run(run_dir)
    assert stored is not None
    check_resumable(stored, {}, None, given_recursion=True)  # valid: the caller lifts it too
    edit_settings(run_dir, lambda s: s["config"].update(allow_recursion=False))
    kept = stored_run(run_dir)
    assert kept is not None
    check_resumable(kept, {}, None)  # valid: the rule kept on both sides
    with pytest.raises(InputError, match="keep the recursion rule"):
        check_resumable(kept, {}, None, given_recursion=True)


# -- evidence folders handed over -----------------------------------------------------------------------------

FOLDER = Path("attempts") / "campaign-1" / PID


def test_a_shipped_evidence_folder_is_derived_again_from_the_ledger(run_dir: Path) -> None:
    """Before: a folder holding its marker (``attempt.json``) was kept as it came, so ``report.html`` linked a
    shipped ``verdict.json`` and ``audit.json`` saying ``accepted`` and a candidate of other bytes, beside the
    ledger's rejected attempt with no verdict and no audit. Now every file is what the ledger says (written
    only where it differs), and the report links only what the ledger backs."""
    folder = run_dir / FOLDER
    folder.mkdir(parents=True)
    forged = json.dumps({"status": "accepted", "problem": PID, "gates": []})
    for name, text in {
        "attempt.json": json.dumps({"status": "passed", "verified_pass": True}),
        "verdict.json": forged,
        "gates.log": f"{PID}: accepted (profile full)\n",
        "audit.json": json.dumps({"status": "accepted", "verdict": json.loads(forged)}),
        "candidate.lean": "theorem forged : True := trivial\n",
    }.items():
        (folder / name).write_text(text)
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    assert (folder / "candidate.lean").read_text() == "candidate", "the ledger's bytes"
    record = json.loads((folder / "attempt.json").read_text())
    assert record["status"] == "rejected" and record["verified_pass"] is False
    page = (run_dir / "report.html").read_text()
    linked = set(re.findall(rf'href="{re.escape(str(FOLDER))}/([^"]+)"', page))
    assert linked == {"candidate.lean", "turns.json", "attempt.json"}, linked  # no verdict, no audit: none linked


def test_an_honest_folder_is_left_as_it_is(run_dir: Path) -> None:
    """Valid beside: the second report writes no evidence file again (each already holds the ledger's bytes)."""
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    before = {p.name: p.stat().st_ino for p in (run_dir / FOLDER).iterdir()}
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    assert {p.name: p.stat().st_ino for p in (run_dir / FOLDER).iterdir()} == before
    assert "candidate.lean" in before and "attempt.json" in before
