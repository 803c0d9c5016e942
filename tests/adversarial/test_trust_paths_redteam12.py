"""Red team round 12 of the trust paths: a run directory handed to ``putnam solve --resume``, ``report``,
``audit`` or ``export``, through its model names, the order of a resume's checks and ledger values taken as
they came.

Model names that name a path: Inspect's local providers (``hf``, ``nnterp``: ``from_pretrained``; ``vllm``,
``sglang``: the server's model path; ``vllm``'s ``base:adapter``) load a folder of the model's name from the
working directory before any hub. A ledger's ``hf/planted/model``, resumed from a directory holding
``planted/model``, had the resume load the code and weights the directory's author chose; the model check
did so before the first campaign. A resume now takes such a name only when its caller says it again
(``--model``, ``--reviewer-model``: ``resume_checks``), as a new run takes it from the command line.

Order: a resume ran the gates' check, the model check and the selftest before it noticed that its benchmark
file had changed or its ledger had been edited; those cheap checks now come first (``resume_precheck``).

Ledger values: a negative ``rate_limits.retries``, a ``campaigns.fresh`` other than 0 or 1 (read as true)
and an outcome's exit code that no ``putnam solve`` exits with were taken, and a seal's text ``ref`` ended
``putnam report`` in "unexpected ValueError ... a bug in putnam"; each is refused as an edited ledger naming
its table and field. An honest old run recorded with a finite limit above the largest one
putnam now takes (``--cost-limit 1e13``) was refused as edited: a limit never reached, it reads as no limit,
as ``Infinity`` does (``stored_settings.BEYOND_MEANS_NONE``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from putnam_solver.core.util import InputError
from putnam_solver.run.agent.model_names import local_model_path
from putnam_solver.run.campaign import stored_run
from putnam_solver.run.ledger import LEDGER_NAME
from putnam_solver.run.resume_checks import check_resumable
from putnam_solver.run.resume_precheck import check_before_start
from putnam_solver.run.stored_settings import parse_settings
from tests.adversarial.test_trust_paths_redteam10 import EDITED, edit_settings, made_run
from tests.helpers import ROCQ_SAMPLES, sampled, sql
from tests.processes import FAKE_MODEL, putnam, solve_args


@pytest.fixture
def run_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The run of ``test_trust_paths_redteam10`` (one Lean problem, one rejected attempt, campaign 1)."""
    return made_run(tmp_path, monkeypatch)


def said(stderr: str) -> str:
    return " ".join(stderr.split())


# -- model names that name a path here -------------------------------------------------------------------

PLANTED = {
    "hf": ("hf/planted/model", "planted/model", "config.model"),
    "vllm adapter": ("vllm/Qwen/Qwen3-8B:planted", "planted", "config.model"),
    "sglang": ("sglang/planted/model", "planted/model", "config.model"),
    "reviewer": ("hf/planted/model", "planted/model", "config.reviewer_model"),
    "hf, no folder here": ("hf/some-org/model", None, "config.model"),
    "vllm, no folder here": ("vllm/some-org/model", None, "config.model"),
    "nnterp reviewer, no folder here": ("nnterp/some-org/model", None, "config.reviewer_model"),
}
"""Stored names each with the folder planted in the resume's working directory; with none, red team 13's:
the name was taken and the model check had Inspect download the model from the Hugging Face hub."""


@pytest.mark.parametrize(("name", "folder", "field"), sampled(PLANTED, {"hf", "hf, no folder here"}))
def test_a_stored_model_loaded_on_this_machine_is_refused_on_resume(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_slow_checks: list[str], name: str,
    folder: str | None, field: str,
) -> None:  # fmt: skip
    """Before: taken, and the model check created the model: Inspect loaded ``planted/model`` from here."""
    if folder is not None:
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "config.json").write_text("{}")
    edit_settings(run_dir, lambda data: data["config"].update({field.split(".")[1]: name}))
    monkeypatch.chdir(tmp_path)
    code, stdout, stderr = putnam("solve", "--resume", run_dir)
    text = said(stderr)
    assert code == 2 and f"`{field}`" in text and str(run_dir / LEDGER_NAME) in text, stdout + stderr
    flag = "--model" if field == "config.model" else "--reviewer-model"
    assert f"Resume with {flag} {name}" in text and not no_slow_checks
    assert (folder or "from the Hugging Face hub") in text


def test_a_stored_model_is_taken_when_said_again(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Valid beside: the user names the model (``--model``); with no folder here the name is a hub download,
    which red team 13 refuses unsaid too (``test_trust_paths_redteam13``)."""
    edit_settings(run_dir, lambda data: data["config"].update(model="hf/planted/model", acceptance_profile="full"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "planted" / "model").mkdir(parents=True)
    stored = stored_run(run_dir)
    assert stored is not None
    assert local_model_path("hf/planted/model") == "planted/model"
    with pytest.raises(InputError, match="Resume with --model hf/planted/model"):
        check_resumable(stored, {}, None)
    check_resumable(stored, {}, None, given_models={"--model": "hf/planted/model"})  # said again: taken
    edit_settings(run_dir, lambda data: data["config"].update(reviewer_model="hf/planted/model"))
    stored = stored_run(run_dir)
    assert stored is not None
    check_resumable(stored, {}, None, given_models={"--model": "hf/planted/model"})  # the reviewer of the same
    for remote in ("llama-cpp-python/planted/model", "ollama/planted/model", "openai-api/planted/model"):
        assert local_model_path(remote) is None, remote  # the name goes to a server as text


def test_which_providers_load_a_folder_of_the_model_s_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As Inspect AI 0.3.285's providers read the name: a path for the local loaders, text for the rest."""
    (tmp_path / "planted" / "model").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    loads = {
        "hf/planted/model": "planted/model",
        "nnterp/planted/model": "planted/model",
        "vllm/planted/model": "planted/model",
        "vllm-completions/planted/model": "planted/model",
        "sglang/planted/model": "planted/model",
        "vllm/Qwen/Qwen3-8B:planted/model": "planted/model",
    }
    for name, path in loads.items():
        assert local_model_path(name) == path, name
    for name in ("llama-cpp-python/planted/model", "ollama/planted/model", "transformer_lens/planted/model",
                 "openai-api/planted/model", "hf/planted/other", "hf/Qwen/Qwen3-8B:planted/model"):  # fmt: skip
        assert local_model_path(name) is None, name


def test_a_resume_s_model_flag_must_be_the_run_s_own(run_dir: Path, no_slow_checks: list[str]) -> None:
    code, stdout, stderr = putnam("solve", "--resume", run_dir, "--model", "openai/gpt-5.5")
    text = said(stderr)
    assert code == 2 and "the run's worker model is scripted/worker" in text, stdout + stderr
    assert "`config.model`" in text
    assert not no_slow_checks


def test_a_new_run_takes_a_local_model_from_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Valid: the user's own ``--model`` naming a folder here is the user's choice."""
    (tmp_path / "planted" / "model").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    args = solve_args(ROCQ_SAMPLES, tmp_path / "run", "sample_sum_first_n")
    args[args.index("--model") + 1] = "hf/planted/model"
    code, stdout, stderr = putnam(*args, "--prepare-only")
    assert code == 0 and "with hf/planted/model" in stdout, stdout + stderr


# -- a resume checks its directory and benchmark before anything slow -------------------------------------


@pytest.fixture
def prepared(tmp_path: Path) -> tuple[Path, Path]:
    """A Rocq run prepared from a copy of the samples (benchmark file, run directory)."""
    bench, run = tmp_path / "benchmark.jsonl", tmp_path / "run"
    bench.write_text(ROCQ_SAMPLES.read_text())
    code, stdout, stderr = putnam(*solve_args(bench, run, "sample_sum_first_n"), "--prepare-only")
    assert code == 0, stdout + stderr
    return bench, run


def test_a_changed_benchmark_is_said_before_the_slow_checks(
    prepared: tuple[Path, Path], no_slow_checks: list[str]
) -> None:
    """Before: the gates' check, the model check and the selftest ran, then "the benchmark file changed"."""
    bench, run = prepared
    bench.write_text(bench.read_text().replace("2 * sum_to n", "3 * sum_to n"))
    code, stdout, stderr = putnam("solve", "--resume", run)
    text = said(stderr)
    assert code == 2 and f"the benchmark file {bench} changed" in text, stdout + stderr
    assert not no_slow_checks and "checking the toolchain" not in text


@pytest.mark.slow
def test_an_edited_ledger_is_said_before_the_slow_checks(
    prepared: tuple[Path, Path], no_slow_checks: list[str]
) -> None:
    _, run = prepared
    sql(run, "INSERT INTO campaigns VALUES (1, 7, '2026-12-05T10:00:00+00:00', NULL)")
    code, stdout, stderr = putnam("solve", "--resume", run)
    assert code == 2 and EDITED in said(stderr) and not no_slow_checks, stdout + stderr


def test_an_untouched_prepared_run_passes_the_early_checks(
    prepared: tuple[Path, Path], no_slow_checks: list[str]
) -> None:
    """Valid beside: the cheap checks pass, and the resume goes on to the slow ones."""
    _, run = prepared
    stored = stored_run(run)
    assert stored is not None
    check_before_start(stored)
    code, stdout, stderr = putnam("solve", "--resume", run)
    assert code == 2 and no_slow_checks == ["require_gates"], stdout + stderr
    # the run's own models said again are taken too
    code, stdout, stderr = putnam("solve", "--resume", run, "--model", FAKE_MODEL, "--reviewer-model", "none")
    assert code == 2 and no_slow_checks == ["require_gates"] * 2, stdout + stderr


# -- ledger values taken as they came ---------------------------------------------------------------------

NOW = "2026-12-05T10:00:00+00:00"
EDITS = {
    "negative retries": (
        f"INSERT INTO rate_limits (campaign, observed_at, retries, connections) VALUES (1, '{NOW}', -5, NULL)",
        "rate_limits: retries: -5 is not a count",
    ),
    "fresh of 7": ("UPDATE campaigns SET fresh=7", "campaigns: campaign 1: fresh: 7 is not 0 or 1"),
    "fresh as text": ("UPDATE campaigns SET fresh='yes'", "campaigns: campaign 1: fresh: 'yes' is not 0 or 1 (a flag)"),
    "a huge exit code": (
        f"INSERT OR REPLACE INTO meta VALUES ('outcome', '{json.dumps({'exit_code': 10**30, 'message': 'x'})}')",
        "outcome: exit code past 10**18 is not one putnam solve exits with",
    ),
    "an exit code of none": (
        f"INSERT OR REPLACE INTO meta VALUES ('outcome', '{json.dumps({'exit_code': 77, 'message': 'x'})}')",
        "outcome: exit code 77 is not one putnam solve exits with",
    ),
    "a seal of a text ref": (  # before: "unexpected ValueError ... This is a bug in putnam"
        "INSERT INTO seals VALUES ('attempt', 'abc', 'x')",
        "seals: ref: 'abc' is not a number",
    ),
}
IN_CI = {"negative retries", "fresh of 7", "a huge exit code", "a seal of a text ref"}


@pytest.mark.parametrize(("statement", "says"), sampled(EDITS, IN_CI))
def test_a_malformed_ledger_value_is_refused_by_table_and_field(run_dir: Path, statement: str, says: str) -> None:
    sql(run_dir, statement)
    code, stdout, stderr = putnam("report", run_dir)
    text = said(stderr)
    assert code == 2 and says in text and EDITED in text and "bug in putnam" not in text, stdout + stderr


def test_honest_values_beside_still_report(run_dir: Path) -> None:
    sql(run_dir, f"INSERT INTO rate_limits (campaign, observed_at, retries, connections) VALUES (1, '{NOW}', 0, NULL)")
    sql(run_dir, f"INSERT INTO rate_limits (campaign, observed_at, retries, connections) VALUES (1, '{NOW}', 3, NULL)")
    sql(run_dir, "UPDATE campaigns SET fresh=1")
    sql(run_dir, "INSERT OR REPLACE INTO meta VALUES ('outcome', ?)", json.dumps({"exit_code": 3, "message": "x"}))
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr


def _recorded_past_the_maximum(data: dict) -> None:
    """What an earlier putnam recorded for ``--cost-limit 1e13 --token-limit 10**13 --worker-timeout 1e10
    --run-token-limit 10**30 --run-cost-limit 1e300`` (before red team 10 refused such values)."""
    data["config"]["budgets"].update(cost_limit_dollars=1e13, token_limit=10**13, worker_timeout_seconds=1e10)
    data["limits"].update(max_tokens=10**30, max_cost_dollars=1e300)


def test_an_earlier_run_s_limits_past_the_maximum_read_as_no_limit(run_dir: Path, tmp_path: Path) -> None:
    """Before: refused as "--cost-limit 1e13: give dollars ... the ledger was edited", an honest run unreadable."""
    edit_settings(run_dir, _recorded_past_the_maximum)
    ((stored,),) = sql(run_dir, "SELECT json FROM settings")
    settings = parse_settings(json.loads(stored), run_dir)
    budgets, limits = settings.config.budgets, settings.limits
    assert budgets.cost_limit_dollars is None and budgets.token_limit is None
    assert budgets.worker_timeout_seconds is None and limits.max_tokens is None and limits.max_cost_dollars is None
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    edit_settings(run_dir, lambda data: data["config"]["budgets"].update(cost_limit_dollars=1e12, token_limit=5))
    ((stored,),) = sql(run_dir, "SELECT json FROM settings")
    budgets = parse_settings(json.loads(stored), run_dir).config.budgets
    assert budgets.cost_limit_dollars == 1e12 and budgets.token_limit == 5  # the largest limit is kept as it is
