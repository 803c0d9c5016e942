"""``putnam export`` of a no-answer run: the bundle leaves the harness, so it holds no official answer
(docs/threat-model.md, "the official answer reaching a model on no-answer").

The run is real: ``putnam solve --track no-answer`` with the loopback model server, which submits the
sample's proof with its own answer (right, written differently from the official one), then ``putnam
audit``, real coqc/coqchk. Every file of the exported bundle and proof folder is searched for the
official answer's text.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.fakes.sample_prover import SAMPLES, SampleProver
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.processes import putnam

pytestmark = NEEDS_ROCQ

PROBLEM = "sample_sum_odds"
OFFICIAL = "fun n => n * n"
MINE = "fun k => k * k"


class OwnAnswer(SampleProver):
    def proof(self, problem: str, task: str) -> str:
        return super().proof(problem, task).replace(OFFICIAL, MINE)


def _files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_no_answer_bundle_holds_no_official_answer_and_still_verifies(tmp_path: Path) -> None:
    """Before: the bundle's ``verdicts/<problem>.json`` held the submission's and the audit's verdicts as
    recorded: ``answers.solution.official`` ("fun n => n * n"), the answer check comparing the two, and
    the gates' evidence about the harness's reference module."""
    pytest.importorskip("inspect_ai")
    from tests.fakes.openai_server import serve
    from tests.processes import solve_args

    benchmark = tmp_path / "benchmark.jsonl"
    shutil.copyfile(SAMPLES / "benchmark.jsonl", benchmark)
    run_dir = tmp_path / "run"
    with serve(OwnAnswer([])) as url:
        args = solve_args(benchmark, run_dir, PROBLEM, url=url, max_turns=1)
        code, stdout, stderr = putnam(
            *args, "--track", "no-answer", FAKE_API_KEY="test-key", INSPECT_EVAL_MAX_RETRIES="1"
        )
    assert code == 0 and "**Solved: 1 of 1" in (run_dir / "SUMMARY.md").read_text(), stdout + stderr
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 0 and "audited 1 passes: 1 accepted" in stdout, stdout + stderr
    code, stdout, stderr = putnam("export", run_dir, "-o", tmp_path / "bundle", "--proofs", tmp_path / "proofs")
    assert code == 0, stdout + stderr
    shared = _files(tmp_path / "bundle") | _files(tmp_path / "proofs")
    leaks = [name for name, text in shared.items() if OFFICIAL in text or "n * n" in text]
    assert leaks == [], leaks
    verdicts = json.loads((tmp_path / "bundle" / "verdicts" / f"{PROBLEM}.json").read_text())
    assert verdicts["submission"]["status"] == "accepted" and verdicts["audit"]["status"] == "accepted"
    answers = verdicts["submission"]["answers"]
    assert answers and all(set(a) == {"candidate"} for a in answers.values()), answers
    # Valid beside: the bundle still verifies, from the proofs' bytes, against the checker's benchmark.
    code, stdout, stderr = putnam(
        "verify", "--prover", "rocq", "--benchmark", benchmark, "--track", "no-answer", "--bundle", tmp_path / "bundle"
    )
    assert code == 0, stdout + stderr
    code, stdout, stderr = putnam("verify", "--benchmark", benchmark, "--bundle", tmp_path / "bundle")
    assert code == 0 and "track no-answer" in stdout, stdout + stderr
    # A checker who asks for the with-answer track is told what the bundle is, never judged on its track:
    # before, `--track with-answer` was set aside and the no-answer proofs were accepted, exit 0.
    code, stdout, stderr = putnam(
        "verify", "--benchmark", benchmark, "--track", "with-answer", "--bundle", tmp_path / "bundle"
    )
    assert code == 2 and "the bundle claims --track no-answer, not the with-answer you asked for" in stderr, (
        stdout + stderr
    )
    code, stdout, stderr = putnam("verify", "--prover", "lean", "--bundle", tmp_path / "bundle")
    assert code == 2 and "the bundle claims --prover rocq, not the lean you asked for" in stderr, stdout + stderr
