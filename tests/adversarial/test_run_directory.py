"""A run directory handed to ``putnam audit``, ``export``, ``report`` (or ``solve --resume``) is evidence, not
instructions (docs/threat-model.md).

The runs are real: ``putnam solve`` with the loopback model server, every verdict from real coqc/coqchk in
the sandbox. The honest run's model submits the sample proofs of two problems; the other run's submits
rocq#20455's proof of ``False`` for one of them (accepted only because that run was started with
``--allow-recursion``). Each test copies a run and edits its ledger with plain ``sqlite3``, as a sceptic's
adversary would, then checks that nothing is confirmed that the auditor's own settings refuse, and that nothing is
written outside the run directory and the export targets. Beside each edit, the untouched run (or the
auditor's own flags) still gives the honest result.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from tests.adversarial.test_rocq_recursion import GUARD_FALSE
from tests.browser import NEEDS_CHROMIUM, page_requests, parse, recording_proxy, render
from tests.fakes.openai_server import FakeOpenAI, serve
from tests.fakes.sample_prover import SAMPLES, SampleProver, solved_run
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import COQ_BENCH, replace_candidate, sql
from tests.processes import putnam

pytestmark = NEEDS_ROCQ

RECURSIVE, HONEST = "sample_even_square", "sample_rev_length"
PROBLEMS = (RECURSIVE, HONEST)


class Prover(SampleProver):
    """Submits the proof of False for ``RECURSIVE``."""

    def proof(self, problem: str, task: str) -> str:
        return GUARD_FALSE if problem == RECURSIVE else super().proof(problem, task)


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return solved_run(tmp_path_factory.mktemp("honest"), SampleProver([]), PROBLEMS)


@pytest.fixture(scope="module")
def recursive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return solved_run(tmp_path_factory.mktemp("recursive"), Prover([]), PROBLEMS, "--allow-recursion")


def copy_run(made: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    """A copy of a run (``tmp_path/run``) and of its benchmark, for one test to edit."""
    run_dir = tmp_path / "run"
    shutil.copytree(made[0], run_dir, ignore=shutil.ignore_patterns("work", "logs", "run.lock"))
    benchmark = tmp_path / "benchmark.jsonl"
    shutil.copyfile(made[1], benchmark)
    return run_dir, benchmark


@pytest.fixture
def case(honest: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("FAKE_API_KEY", "test-key")
    return copy_run(honest, tmp_path)


@pytest.fixture
def recursive_case(recursive: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    return copy_run(recursive, tmp_path)


def edit_settings(run_dir: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Rewrite every settings record of the ledger through ``change``."""
    for row_id, text in sql(run_dir, "SELECT id, json FROM settings"):
        settings = json.loads(text)
        change(settings)
        sql(run_dir, "UPDATE settings SET json=? WHERE id=?", json.dumps(settings), row_id)


def audits(run_dir: Path) -> list[tuple[str, str]]:
    """(problem, status) of every stored audit, oldest first."""
    return [
        (str(p), str(s))
        for p, s in sql(run_dir, "SELECT a.problem, x.status FROM audits x JOIN attempts a ON a.id = x.attempt_id")
    ]


def tree(root: Path, skip: Path | None = None) -> dict[str, bytes | str]:
    """Every entry under ``root`` (links not followed) with its bytes or link target, ``skip`` left out."""
    found: dict[str, bytes | str] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            if skip is not None and (path == skip or skip in path.parents):
                continue
            key = str(path.relative_to(root))
            found[key] = os.readlink(path) if path.is_symlink() else path.read_bytes() if path.is_file() else "dir"
    return found


def headline(run_dir: Path) -> str:
    return next(line for line in (run_dir / "SUMMARY.md").read_text().splitlines() if line.startswith("**Solved"))


# -- 1. the auditor's settings, never the run's ----------------------------------------------------------


def test_the_run_s_allow_recursion_is_compared_and_reported_never_obeyed(recursive_case: tuple[Path, Path]) -> None:
    run_dir, benchmark = recursive_case
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark, "--jobs", "2")
    assert code == 1, stdout + stderr
    assert "the run used --allow-recursion; audited without it" in stdout
    assert f"not confirmed: {RECURSIVE}" in stdout
    assert sorted(audits(run_dir)) == [(RECURSIVE, "rejected"), (HONEST, "accepted")]
    assert headline(run_dir).startswith("**Solved: 1 of 2 (50.0%), audited**"), "the proof of False is not audited"
    evidence = json.loads((run_dir / "attempts" / "campaign-1" / RECURSIVE / "audit.json").read_text())
    assert [g["id"] for g in evidence["verdict"]["gates"] if g["status"] != "passed"] == ["G3"]
    # The auditor who lifts the rule themselves gets the run's result, and no difference is reported.
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark, "--allow-recursion", "--jobs", "2")
    assert code == 0, stdout + stderr
    assert "claims differ" not in stdout and "2 accepted" in stdout
    assert headline(run_dir).startswith("**Solved: 2 of 2 (100.0%), audited**")


def test_the_run_s_tools_are_never_run(case: tuple[Path, Path], tmp_path: Path) -> None:
    run_dir, benchmark = case
    marker = tmp_path / "ran"
    fake = run_dir / "coqc"
    fake.write_text(f"#!/bin/sh\necho ran > {marker}\nexit 0\n")
    fake.chmod(0o755)
    edit_settings(run_dir, lambda s: s["config"].update(tools={"coqc": str(fake)}))
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark, "--jobs", "2")
    assert code == 0, stdout + stderr
    assert not marker.exists(), "the tool the ledger names ran"
    assert f"the run named its own tools (coqc={fake}); audited with this machine's" in stdout
    evidence = json.loads((run_dir / "attempts" / "campaign-1" / HONEST / "audit.json").read_text())
    assert str(fake) not in json.dumps(evidence["verdict"]["gates"]), "the audit's gates ran this machine's coqc"


def test_a_benchmark_the_run_names_is_never_loaded_unless_the_auditor_names_it(case: tuple[Path, Path]) -> None:
    run_dir, benchmark = case
    # The forger ships a copy of the benchmark whose statement is restated as True, proves that, and makes
    # the ledger name the copy and its hash.
    forged = run_dir / "benchmark.jsonl"
    records = [json.loads(line) for line in benchmark.read_text().splitlines() if line.strip()]
    for record in records:
        if record["problem_id"] == HONEST:
            record["formal_statement"] = f"Theorem {HONEST} : True.\nProof. Admitted.\n"
    forged.write_text("".join(json.dumps(r) + "\n" for r in records))
    sha = hashlib.sha256(forged.read_bytes()).hexdigest()
    replace_candidate(run_dir, HONEST, f"Theorem {HONEST} : True.\nProof. exact I. Qed.\n")

    def claim(settings: dict[str, Any]) -> None:
        settings["benchmark_sha256"] = sha
        settings["selection"].update(benchmark=str(forged), benchmark_sha256=sha, requested_sha256=sha)

    edit_settings(run_dir, claim)
    code, stdout, stderr = putnam("audit", run_dir)
    assert code == 2, stdout + stderr
    assert "not a registered benchmark" in stderr and "--benchmark PATH" in stderr
    assert audits(run_dir) == [] and "audited" not in headline(run_dir).split("**")[1]
    # The copy named as the registered PutnamBench Coq file: the auditor's own copy of that is used instead.
    registered = run_dir / COQ_BENCH.name
    shutil.copyfile(forged, registered)
    edit_settings(run_dir, lambda s: s["selection"].update(benchmark=str(registered)))
    code, _, stderr = putnam("audit", run_dir)
    assert code == 2 and f"{COQ_BENCH}: SHA-256 is" in stderr and "the same statements" in stderr, stderr
    # The auditor's own benchmark file: refused, the statements differ.
    code, _, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 2 and "can only be checked against the same statements" in stderr
    # The auditor names the shipped copy: it is audited, and said to be unpinned everywhere.
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", forged)
    assert code == 0, stdout + stderr
    assert "UNPINNED (no pin you hold matches it)" in stdout
    assert "against an UNPINNED benchmark" in (run_dir / "SUMMARY.md").read_text()
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", forged, "--benchmark-sha256", sha, "--jobs", "2")
    assert code == 0 and f"pinned as sha256:{sha}" in stdout, stdout + stderr


# -- 2. nothing confirmed without re-verifying -----------------------------------------------------------


def test_an_accepted_audit_row_in_the_ledger_confirms_nothing(case: tuple[Path, Path]) -> None:
    run_dir, benchmark = case
    forged = (SAMPLES / "proofs" / f"{HONEST}.v").read_text().replace("Qed.", "Admitted.")
    attempt, _ = replace_candidate(run_dir, HONEST, forged)
    [(toolchain,)] = sql(run_dir, "SELECT json_extract(json, '$.toolchain') FROM settings ORDER BY id LIMIT 1")
    verdict = {"status": "accepted", "candidate_sha256": hashlib.sha256(forged.encode()).hexdigest(), "gates": []}
    sql(
        run_dir,
        "INSERT INTO audits (attempt_id, audited_at, status, candidate_sha256, toolchain, benchmark_sha256, "
        "toolchain_changed, json) VALUES (?, '2030-01-01T00:00:00+00:00', 'accepted', ?, ?, '', 0, ?)",
        attempt,
        verdict["candidate_sha256"],
        toolchain,
        json.dumps(verdict),
    )
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark, "--jobs", "2")
    assert code == 1, stdout + stderr
    assert "(2 re-verified now;" in stdout and f"not confirmed: {HONEST}" in stdout
    assert "1 earlier audits in the ledger are history, not counted" in stderr
    assert sorted(audits(run_dir)[1:]) == [(RECURSIVE, "accepted"), (HONEST, "rejected")]
    assert headline(run_dir).startswith("**Solved: 1 of 2 (50.0%), audited**")


# -- 3. ledger text never becomes a path -----------------------------------------------------------------

ESCAPES: dict[str, tuple[str, tuple[Any, ...]]] = {  # (statement, its arguments)
    "problem id ../": ("UPDATE attempts SET problem=? WHERE problem=?", ("../../../escaped", HONEST)),
    "absolute problem id": ("UPDATE attempts SET problem=? WHERE problem=?", ("{tmp}/escaped", HONEST)),
    "campaign number as text": ("UPDATE attempts SET campaign=? WHERE problem=?", ("1/../../../escaped", HONEST)),
    "problem id in the problems table": ("UPDATE problems SET id=? WHERE id=?", ("../escaped", HONEST)),
}


@pytest.mark.parametrize("edit", sorted(ESCAPES))
def test_a_path_in_the_ledger_is_refused_and_nothing_is_written_outside(
    case: tuple[Path, Path], tmp_path: Path, edit: str
) -> None:
    run_dir, benchmark = case
    statement, args = ESCAPES[edit]
    sql(run_dir, statement, *(str(a).replace("{tmp}", str(tmp_path)) for a in args))
    shutil.rmtree(run_dir / "attempts")  # evidence folders are rebuilt from the ledger
    before = tree(tmp_path, skip=run_dir)
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 2 and "is not" in stderr and "the ledger was edited" in stderr, stdout + stderr
    code, stdout, stderr = putnam("export", run_dir, "-o", tmp_path / "bundle", "--proofs", tmp_path / "proofs")
    assert code == 2 and "the ledger was edited" in stderr, stdout + stderr
    code, _, stderr = putnam("report", run_dir)
    if edit != "problem id in the problems table":  # the one table the report does not read
        assert code == 2 and "the ledger was edited" in stderr, stderr
    with serve(FakeOpenAI([])) as url:
        code, stdout, stderr = putnam("solve", "--resume", run_dir, "--quiet", "--model-base-url", url)
    assert code == 2 and "the ledger was edited" in stdout + stderr, stdout + stderr
    assert tree(tmp_path, skip=run_dir) == before, "a file was written outside the run directory"
    assert not list(tmp_path.glob("**/escaped*"))
    assert audits(run_dir) == []


def test_the_suffix_comes_from_the_prover_registry(case: tuple[Path, Path], tmp_path: Path) -> None:
    run_dir, benchmark = case
    edit_settings(run_dir, lambda s: s.update(suffix="/../../../../escaped"))
    shutil.rmtree(run_dir / "attempts")
    before = tree(tmp_path, skip=run_dir)
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark, "--jobs", "2")
    assert code == 0, stdout + stderr
    assert (run_dir / "attempts" / "campaign-1" / HONEST / "candidate.v").is_file()
    code, _, stderr = putnam("export", run_dir, "--proofs", tmp_path / "proofs")
    assert code == 0, stderr
    assert sorted(p.name for p in (tmp_path / "proofs").iterdir()) == sorted(f"{p}.v" for p in PROBLEMS)
    after = tree(tmp_path, skip=run_dir)
    assert {k for k in after if k not in before} == {"proofs", *(f"proofs/{p}.v" for p in PROBLEMS)}


SETTINGS_EDITS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "a problem id that is a path": (
        lambda s: s.update(selected=["../../escaped"]),
        "`selected` holds '../../escaped', which is not a problem id",
    ),
    "a gate rule lifted by text": (
        lambda s: s["config"].update(allow_recursion="yes"),
        '`config.allow_recursion` must be true or false, not "yes"',
    ),
}


@pytest.mark.parametrize("edit", sorted(SETTINGS_EDITS))
def test_malformed_settings_are_refused_by_every_reader_naming_the_field(
    case: tuple[Path, Path], tmp_path: Path, edit: str
) -> None:
    run_dir, benchmark = case
    change, field = SETTINGS_EDITS[edit]
    edit_settings(run_dir, change)
    before = tree(tmp_path, skip=run_dir)
    refused = f"{run_dir}: the run's stored settings cannot be read: {field}"
    for command in (("audit", run_dir, "--benchmark", benchmark), ("export", run_dir, "--proofs", tmp_path / "p")):
        code, stdout, stderr = putnam(*command)
        assert code == 2 and refused in stderr and "the ledger was edited" in stderr, stdout + stderr
    code, _, stderr = putnam("report", run_dir)
    assert code == 2 and refused in stderr, stderr
    with serve(FakeOpenAI([])) as url:
        code, stdout, stderr = putnam("solve", "--resume", run_dir, "--quiet", "--model-base-url", url)
    assert code == 2 and refused in stdout + stderr, stdout + stderr
    assert tree(tmp_path, skip=run_dir) == before and audits(run_dir) == []


def test_planted_links_are_never_followed(case: tuple[Path, Path], tmp_path: Path) -> None:
    run_dir, benchmark = case
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (run_dir / "run.lock").symlink_to("../victim.txt")
    code, _, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 2 and "run.lock is a symbolic link; not followed" in stderr, stderr
    assert victim.read_text() == "precious\n"
    (run_dir / "run.lock").unlink()
    # An evidence folder replaced by a link to a folder of the user's: the audit writes nothing there.
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    folder = run_dir / "attempts" / "campaign-1" / HONEST
    shutil.rmtree(folder)
    folder.symlink_to(elsewhere, target_is_directory=True)
    (elsewhere / ".profile").write_text("keep me\n")
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 2 and "is a link or not a directory; not followed" in stderr, stdout + stderr
    assert sorted(p.name for p in elsewhere.iterdir()) == [".profile"], "written through the link"
    # Valid beside: the same run without the link is audited, and the report replaces a link named
    # report.html instead of writing through it.
    folder.unlink()
    (run_dir / "report.html").unlink()
    (run_dir / "report.html").symlink_to(victim)
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark, "--jobs", "2")
    assert code == 0 and (folder / "audit.json").is_file(), stdout + stderr
    assert putnam("report", run_dir)[0] == 0
    assert victim.read_text() == "precious\n" and not (run_dir / "report.html").is_symlink()


# -- 5. untrusted JSON is bounded ------------------------------------------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000


def test_deep_json_in_a_ledger_a_bundle_or_a_benchmark_is_refused_with_exit_2(
    case: tuple[Path, Path], tmp_path: Path
) -> None:
    run_dir, benchmark = case
    bundle = tmp_path / "bundle"
    assert putnam("export", run_dir, "-o", bundle)[0] == 0
    code, stdout, stderr = putnam("verify", "--bundle", bundle, "--benchmark", benchmark, "--gates", "text")
    assert code == 0, stdout + stderr  # valid beside: the untouched bundle
    manifest = json.loads((bundle / "manifest.json").read_text())
    (bundle / "bundle.json").write_text(DEEP)
    manifest["files"]["bundle.json"] = hashlib.sha256(DEEP.encode()).hexdigest()
    (bundle / "manifest.json").write_text(json.dumps(manifest))
    code, stdout, stderr = putnam("verify", "--bundle", bundle, "--benchmark", benchmark)
    assert code == 2 and "nested 100000 levels deep, over the limit" in stderr, stdout + stderr
    (bundle / "manifest.json").write_text(DEEP)
    code, _, stderr = putnam("verify", "--bundle", bundle, "--benchmark", benchmark)
    assert code == 2 and "manifest.json: JSON nested 100000 levels deep" in stderr, stderr
    deep_benchmark = tmp_path / "deep.jsonl"
    deep_benchmark.write_text(benchmark.read_text() + '{"problem_id": ' + DEEP + "}\n")
    code, _, stderr = putnam("verify", "--prover", "rocq", "--benchmark", deep_benchmark, SAMPLES / "proofs")
    assert code == 2 and "levels deep" in stderr, stderr
    # The ledger's verdict column, nested the same way.
    sql(run_dir, "UPDATE verdicts SET json=? WHERE attempt_id=(SELECT MIN(id) FROM attempts)", DEEP)
    for command in (("audit", run_dir, "--benchmark", benchmark), ("export", run_dir, "--proofs", tmp_path / "p")):
        code, stdout, stderr = putnam(*command)
        assert code == 2 and "levels deep, over the limit of 200" in stderr, stdout + stderr
        assert "RecursionError" not in stdout + stderr


# -- 4. a report that loads nothing and runs nothing foreign ---------------------------------------------

HOSTILE = {
    "gate": '<span style="background-image:url(http://example.invalid/gate.png)">G4</span>',
    "how": '<b style="background:url(http://example.invalid/how.png)">failed</b><img src="http://example.invalid/i">',
    "limit": '<a href="http://example.invalid/a"><span style="background:url(//example.invalid/l.png)">16</span></a>',
}


@NEEDS_CHROMIUM
def test_a_report_of_a_hostile_ledger_loads_nothing_in_chromium(case: tuple[Path, Path], tmp_path: Path) -> None:
    run_dir, _ = case
    [(attempt, stored)] = sql(
        run_dir, "SELECT a.id, v.json FROM attempts a JOIN verdicts v ON v.attempt_id = a.id WHERE problem=?", HONEST
    )
    verdict = json.loads(stored)
    verdict["gates"][3].update(name=HOSTILE["gate"], status=HOSTILE["how"])
    sql(run_dir, "UPDATE verdicts SET json=? WHERE attempt_id=?", json.dumps(verdict), attempt)
    sql(run_dir, "UPDATE attempts SET status='failed' WHERE id=?", attempt)
    sql(
        run_dir,
        "INSERT INTO rate_limits (campaign, observed_at, retries, connections) VALUES (1, ?, 3, ?)",
        "2030-01-01T00:00:00+00:00",
        HOSTILE["limit"],
    )
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    text = (run_dir / "report.html").read_text()
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', text)
    assert policy is not None and "default-src 'none'" in policy.group(1) and "unsafe-eval" not in policy.group(1)
    with recording_proxy() as (proxy, address):
        dom = render((run_dir / "report.html").as_uri(), tmp_path / "profile", proxy=address)
    assert page_requests(proxy) == [], "the page asked the network for something"
    page = parse(dom)
    gates = page.by_id("chart-gates")
    assert gates.all("svg", cls="main-svg"), "the chart is still drawn"
    shown = " ".join(n.text() for n in gates.walk() if n.tag == "text")
    assert f"G4 {HOSTILE['gate']}" in shown, "the gate name is shown as the text it is"
    assert not [n for n in gates.walk() if n.tag == "a" or "url(" in n.attrs.get("style", "")]
    assert page.by_id("chart-rate-limits").all("svg", cls="main-svg")
