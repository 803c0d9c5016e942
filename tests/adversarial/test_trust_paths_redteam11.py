"""Red team round 11 of the trust paths: a run directory handed over, through its challenges, its model
names and the limits an earlier putnam recorded.

Challenges: ``putnam report`` linked an attempt's ``challenge`` file whenever one was there, and the evidence
folders write one only for a problem the ledger holds; so a challenge shipped in the folder of a problem the
ledger holds none of (a statement restated as ``True``) was linked from ``report.html`` as the run's
challenge. The report now links a challenge only for a problem the ledger holds, and a stored challenge must
be the text its stored SHA-256 names (``ledger_rows.problem_row``), as ``record_problems`` writes both.

Model names: only ``--model`` was checked, and with a pattern taking any character but a slash or a blank in
a name's parts; a ledger's names were taken as they came, into every output and into the Inspect call of a
resume (``hf/../../models/x`` has Inspect's local providers load a model from a path). ``SolveConfig`` now
checks its names as it is made (``run/agent/model_names.py``): flags and ledgers alike.

Limits recorded as ``Infinity``: before red team 10, ``--cost-limit inf`` was taken and recorded as
``Infinity``, meaning no limit; red team 10 refused every such honest run as "edited". An infinite limit
is now read back as no limit (``stored_settings.BEYOND_MEANS_NONE``); ``NaN`` and ``-Infinity`` are
still refused.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from putnam_solver.core.util import InputError
from putnam_solver.run.agent.model_names import model_name_problem
from putnam_solver.run.campaign import solve, stored_run
from putnam_solver.run.campaign._settings import check_resume
from putnam_solver.run.ledger import LEDGER_NAME, Ledger, LedgerError
from putnam_solver.run.ledger_rows import sha256_text
from putnam_solver.run.stored_settings import parse_settings
from tests.adversarial.test_trust_paths_redteam10 import EDITED, PID, edit_settings, made_run
from tests.helpers import ROCQ_SAMPLES, sql
from tests.integration.campaign_driver import recorded_lean_settings
from tests.processes import putnam, solve_args

FOLDER = Path("attempts") / "campaign-1" / PID
FORGED = "theorem putnam_1962_a1 : True := trivial\n"


@pytest.fixture
def run_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The run of ``test_trust_paths_redteam10`` (one Lean problem, one rejected attempt, no problem row)."""
    return made_run(tmp_path, monkeypatch)


def linked(run_dir: Path) -> set[str]:
    page = (run_dir / "report.html").read_text()
    return set(re.findall(rf'href="{re.escape(str(FOLDER))}/([^"]+)"', page))


def stored_settings_of(run_dir: Path) -> object:
    ((stored,),) = sql(run_dir, "SELECT json FROM settings")
    return parse_settings(json.loads(stored), run_dir)


# -- what the report links: challenges, transcripts -----------------------------------------------------


def test_a_shipped_challenge_of_a_problem_the_ledger_lacks_is_not_linked(run_dir: Path) -> None:
    """Before: ``report.html`` linked ``challenge.lean`` (the shipped file) beside the ledger's attempt."""
    (run_dir / FOLDER).mkdir(parents=True)
    (run_dir / FOLDER / "challenge.lean").write_text(FORGED)
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    assert linked(run_dir) == {"candidate.lean", "turns.json", "attempt.json"}


def test_a_held_challenge_is_linked_with_the_ledger_s_bytes(run_dir: Path) -> None:
    """Valid beside: the ledger holds the problem, so its challenge is written over the shipped one and linked."""
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    ledger.record_problems([(PID, "a" * 64, "theorem putnam_1962_a1 : 1 = 1 := sorry\n")])
    ledger.close()
    (run_dir / FOLDER).mkdir(parents=True)
    (run_dir / FOLDER / "challenge.lean").write_text(FORGED)
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    assert linked(run_dir) == {"candidate.lean", "challenge.lean", "turns.json", "attempt.json"}
    assert (run_dir / FOLDER / "challenge.lean").read_text() == "theorem putnam_1962_a1 : 1 = 1 := sorry\n"


def test_a_stored_challenge_that_is_not_its_hash_s_text_refuses_the_ledger(run_dir: Path) -> None:
    """An edit that swaps the challenge and keeps its hash (which ``audit`` compares with its own) is named."""
    honest = "theorem putnam_1962_a1 : 1 = 1 := sorry\n"
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    ledger.record_problems([(PID, "a" * 64, honest)])
    assert ledger.problems()[PID].challenge_sha256 == sha256_text(honest)
    ledger.close()
    sql(run_dir, "UPDATE problems SET challenge=?", FORGED)
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        with pytest.raises(LedgerError, match=f"problem {PID}: the challenge is not the text its SHA-256 names"):
            ledger.problems()
    finally:
        ledger.close()
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 2 and EDITED in " ".join(stderr.split()) and "Traceback" not in stderr, stdout + stderr


@pytest.mark.parametrize("name", ["transcript.svg", pytest.param("transcript.html", marks=pytest.mark.slow)])
def test_a_transcript_a_browser_would_run_is_not_linked(run_dir: Path, name: str) -> None:
    """Before: the ledger's ``transcript`` naming a shipped ``logs/transcript.svg`` was linked as the attempt's
    transcript; opened, its script ran outside the report's content security policy."""
    (run_dir / "logs").mkdir()
    planted = run_dir / "logs" / name
    planted.write_text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    sql(run_dir, "UPDATE attempts SET transcript=?", str(planted))
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    assert ">transcript</a>" not in (run_dir / "report.html").read_text()


def test_an_inspect_transcript_is_linked(run_dir: Path) -> None:
    """Valid beside: the ``.eval`` log Inspect wrote under the run's ``logs`` is linked."""
    (run_dir / "logs").mkdir()
    log = run_dir / "logs" / "2026-12-05T09-00-00_putnam_abc.eval"
    log.write_bytes(b"PK\x05\x06" + bytes(18))
    sql(run_dir, "UPDATE attempts SET transcript=?", str(log))
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    assert f'<a href="logs/{log.name}">transcript</a>' in (run_dir / "report.html").read_text()


# -- model names ---------------------------------------------------------------------------------------------

HOSTILE_NAMES = {
    "a path": "hf/../../models/planted",
    "markup": "openai/<img src=x onerror=alert(1)>",
    "an escape sequence": "openai/gpt-5.5\x1b[2K\x1b[1AACCEPTED",
    "a NUL": "openai/gpt\x00",
    "a right-to-left override": "openai/gpt\u202e5.5",
}
"""Model names a ledger handed over held, each of which the old ``--model`` pattern took too (but NUL)."""


@pytest.mark.parametrize(
    "kind", [k if k == "a path" else pytest.param(k, marks=pytest.mark.slow) for k in HOSTILE_NAMES]
)
def test_a_stored_model_name_that_is_no_model_refuses_the_settings(run_dir: Path, kind: str) -> None:
    """Before: parsed as it came, shown in every output, and called through Inspect on ``--resume``."""
    name = HOSTILE_NAMES[kind]
    edit_settings(run_dir, lambda data: data["config"].update(model=name))
    with pytest.raises(InputError) as refused:
        stored_settings_of(run_dir)
    message = str(refused.value)
    assert "--model" in message and EDITED in message and str(run_dir) in message, message
    assert "\x1b" not in message and "\x00" not in message and "\u202e" not in message
    code, stdout, stderr = putnam("solve", "--resume", run_dir)
    assert code == 2 and EDITED in " ".join(stderr.split()) and "\x1b" not in stderr, stdout + stderr


@pytest.mark.slow
def test_a_stored_reviewer_name_is_checked_too(run_dir: Path) -> None:
    edit_settings(run_dir, lambda data: data["config"].update(reviewer_model="vllm/./x/../.."))
    with pytest.raises(InputError, match="--reviewer-model"):
        stored_settings_of(run_dir)


def test_a_stored_reasoning_effort_inspect_refuses_is_refused_with_the_settings(run_dir: Path) -> None:
    """Before: taken, and a resume ran its model and selftest checks, then ended in Inspect's ValidationError."""
    edit_settings(run_dir, lambda data: data["config"].update(reasoning_effort="ultra"))
    with pytest.raises(InputError, match="--reasoning-effort 'ultra': choose auto or one of"):
        stored_settings_of(run_dir)
    edit_settings(run_dir, lambda data: data["config"].update(reasoning_effort="xhigh"))
    assert stored_settings_of(run_dir).config.reasoning_effort == "xhigh"  # type: ignore[attr-defined]


def test_a_flag_naming_a_path_or_markup_is_refused_before_anything_is_created(tmp_path: Path) -> None:
    run = tmp_path / "run"
    for name in ("hf/../../models/planted", "openai/<script>x"):
        code, stdout, stderr = putnam(
            "solve", "--model", name, "--prover", "rocq", "--benchmark", ROCQ_SAMPLES, "--run-dir", run,
        )  # fmt: skip
        assert code == 2 and "--model" in stderr and not run.exists(), stdout + stderr


def test_real_model_names_are_names() -> None:
    """Valid beside: the names Inspect's providers take, a service between provider and model included."""
    for name in (
        "openai/gpt-5.5",
        "anthropic/claude-sonnet-4-5",
        "openai-api/vllm/Qwen/Qwen3-8B",
        "ollama/llama3.1:8b",
        "openrouter/meta-llama/llama-3.1-8b-instruct:free",
        "bedrock/us.anthropic.claude-3-5-sonnet-20241022-v2:0",
        "vertex/claude-3-5-sonnet-v2@20241022",
        "hf/meta-llama/Llama-3.1-8B-Instruct",
        "together/meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo",
        "fireworks/accounts/fireworks/models/deepseek-r1",
        "mockllm/model",
        "grok/grok-4",
    ):
        assert model_name_problem(name) is None, name


# -- limits an earlier putnam recorded as Infinity -----------------------------------------------------------


def _recorded_as_infinite(data: dict) -> None:
    """What ``--cost-limit inf --run-cost-limit inf --worker-timeout inf`` recorded before red team 10."""
    data["config"]["budgets"].update(cost_limit_dollars=float("inf"), worker_timeout_seconds=float("inf"))
    data["limits"]["max_cost_dollars"] = float("inf")


def test_an_earlier_run_s_infinite_limits_read_as_no_limit(run_dir: Path, tmp_path: Path) -> None:
    """Before: refused as "--cost-limit inf ... the ledger was edited", an honest old run unreadable."""
    edit_settings(run_dir, _recorded_as_infinite)
    ((stored,),) = sql(run_dir, "SELECT json FROM settings")
    assert "Infinity" in stored
    settings = parse_settings(json.loads(stored), run_dir)
    assert settings.config.budgets.cost_limit_dollars is None and settings.limits.max_cost_dollars is None
    assert settings.config.budgets.worker_timeout_seconds is None
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    code, stdout, stderr = putnam("export", run_dir, "--proofs", tmp_path / "proofs")
    assert EDITED not in " ".join(stderr.split()), stdout + stderr


@pytest.mark.parametrize(
    "value",
    [float("nan"), pytest.param(float("-inf"), marks=pytest.mark.slow), pytest.param(-1.0, marks=pytest.mark.slow)],
)
def test_an_edited_limit_beside_is_still_refused(run_dir: Path, value: float) -> None:
    edit_settings(run_dir, lambda data: data["limits"].update(max_cost_dollars=value))
    with pytest.raises(InputError) as refused:
        stored_settings_of(run_dir)
    assert "--run-cost-limit" in str(refused.value) and EDITED in str(refused.value)


# -- problem ids that differ in case only --------------------------------------------------------------------


def test_a_stored_selection_of_case_twins_refuses_the_settings(run_dir: Path) -> None:
    """On a case-insensitive file system the two ids share one evidence folder, exported proof and bundle
    entry: the report linked the candidate of one as the other's. No benchmark putnam ships has such ids; a
    ledger holding them is refused by every command that reads it, ``export`` before it writes a file."""
    edit_settings(run_dir, lambda data: data.update(selected=[PID, PID.upper()]))
    bundle, proofs = run_dir.parent / "bundle", run_dir.parent / "proofs"
    for command in (["report", run_dir], ["export", run_dir, "-o", bundle, "--proofs", proofs]):
        code, stdout, stderr = putnam(*command)
        said = " ".join(stderr.split())
        assert code == 2 and f"{PID!r} and {PID.upper()!r}" in said and "case-insensitive" in said, stdout + stderr
        assert EDITED in said and str(run_dir) in said
    assert not bundle.exists() and not proofs.exists()


def twins_benchmark(tmp_path: Path) -> Path:
    """The Rocq samples with a second record of the first problem under its id in capitals."""
    lines = ROCQ_SAMPLES.read_text().splitlines()
    twin = json.loads(lines[0])
    twin["problem_id"] = twin["problem_id"].upper()
    twin["formal_statement"] = twin["formal_statement"].replace("sample_sum_first_n", twin["problem_id"])
    path = tmp_path / "benchmark.jsonl"
    path.write_text("\n".join([*lines, json.dumps(twin)]) + "\n")
    return path


def test_a_new_run_selecting_case_twins_is_refused_before_anything_is_created(tmp_path: Path) -> None:
    bench, run = twins_benchmark(tmp_path), tmp_path / "run"
    code, stdout, stderr = putnam(*solve_args(bench, run), "--prepare-only")
    said = " ".join(stderr.split())
    assert code == 2 and "SAMPLE_SUM_FIRST_N" in said and "--problem" in said and str(bench) in said, stdout + stderr
    assert not run.exists()


@pytest.mark.slow
def test_one_of_the_twins_alone_is_prepared(tmp_path: Path) -> None:
    bench, run = twins_benchmark(tmp_path), tmp_path / "run"
    code, stdout, stderr = putnam(*solve_args(bench, run, "sample_sum_first_n"), "--prepare-only")
    assert code == 0, stdout + stderr


# -- a resume whose benchmark file changed ------------------------------------------------------------------


def test_a_resume_names_the_benchmark_file_that_changed(tmp_path: Path) -> None:
    """Before: "was started with other settings (benchmark_sha256: '8b42...' -> '1c8b...')", naming no file."""
    stored = recorded_lean_settings([PID])
    swapped = dataclasses.replace(stored, benchmark_sha256="0" * 64)
    with pytest.raises(InputError) as refused:
        check_resume(tmp_path, stored, swapped, resume=True, allow=False)
    said = str(refused.value)
    assert f"the benchmark file {stored.selection.benchmark} changed since the run started" in said, said
    assert f"SHA-256 {stored.benchmark_sha256[:16]}... then, {'0' * 16}... now" in said
    check_resume(tmp_path, stored, stored, resume=True, allow=False)  # the same file: resumed


@pytest.mark.slow
def test_a_prepared_run_resumed_on_an_edited_benchmark_file_is_refused(tmp_path: Path) -> None:
    bench, run = tmp_path / "benchmark.jsonl", tmp_path / "run"
    bench.write_text(ROCQ_SAMPLES.read_text())
    code, stdout, stderr = putnam(*solve_args(bench, run), "--prepare-only")
    assert code == 0, stdout + stderr
    bench.write_text(bench.read_text().replace("2 * sum_to n", "3 * sum_to n"))
    stored = stored_run(run)
    assert stored is not None
    outcome = solve(stored, None)
    assert outcome.exit_code == 2 and f"the benchmark file {bench} changed" in outcome.message, outcome.message
