"""`putnam solve` end to end: the CLI, the campaign, the Inspect agent over HTTP and real coqc/coqchk.

The model is a loopback OpenAI-compatible server scripted per test; every verdict comes from the real
Rocq gates on the project's samples.
"""

from __future__ import annotations

import csv
import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.exit_codes import ExitCode
from tests.fakes.openai_server import FakeOpenAI, serve, tool_call_reply
from tests.helpers import REPO
from tests.processes import checkout_env, putnam, solve_args

pytest.importorskip("inspect_ai")
pytestmark = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")

SAMPLES = REPO / "samples" / "rocq"
PROBLEM = "sample_rev_length"
GOOD = (SAMPLES / "proofs" / f"{PROBLEM}.v").read_text()
EDITED = GOOD.replace("length (rev l) = length l", "length l = length l")
runner = CliRunner()


@pytest.fixture(autouse=True)
def _env(solve_env: None) -> None:
    """Every test solves against the loopback model server (``solve_env``)."""


def _solve(url: str, run_dir: Path, *extra: str) -> tuple[int, str]:
    code, stdout, stderr = putnam(*solve_args(SAMPLES / "benchmark.jsonl", run_dir, PROBLEM, url=url), *extra)
    assert stdout.count("\n") <= 1, f"stdout carries only the run's result: {stdout!r}"
    return code, stdout + stderr


def _attempts(run_dir: Path) -> list[dict[str, str]]:
    with (run_dir / "attempts.tsv").open() as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def test_a_worker_that_fixes_its_proof_solves_the_problem(tmp_path: Path) -> None:
    fake = FakeOpenAI(
        [
            tool_call_reply("submit", {"proof": EDITED}, "call_1"),
            tool_call_reply("submit", {"proof": GOOD}, "call_2"),
        ]
    )
    run_dir = tmp_path / "run"
    with serve(fake) as url:
        code, output = _solve(url, run_dir, "--max-turns", "4")
    assert code == 0, output
    rows = _attempts(run_dir)
    assert [(r["campaign"], r["problem"], r["status"]) for r in rows] == [("1", PROBLEM, "passed")]
    evidence = run_dir / "attempts" / "campaign-1" / PROBLEM
    assert (evidence / "candidate.v").read_text() == GOOD
    assert '"status": "accepted"' in (evidence / "verdict.json").read_text()
    assert (run_dir / "unresolved.txt").read_text() == ""
    assert "1" in (run_dir / "SUMMARY.md").read_text()
    assert list((run_dir / "logs").glob("*.eval")), "the Inspect transcript is kept beside the outputs"
    assert f"report: {run_dir / 'report.html'}" in output, "the end message points to the run's report"
    assert 'id="stat-solved" data-value="1"' in (run_dir / "report.html").read_text()


def test_an_edited_statement_never_counts_and_a_completed_evaluation_exits_0(tmp_path: Path) -> None:
    """Unsolved problems after the last campaign are a normal result (as ``inspect eval``): exit 0;
    ``--fail-on-unsolved`` makes them exit 4 for scripts that want it."""
    fake = FakeOpenAI([], default=tool_call_reply("submit", {"proof": EDITED}, "call_x"))
    run_dir = tmp_path / "run"
    with serve(fake) as url:
        code, output = _solve(url, run_dir, "--max-turns", "1", "--campaigns", "2")
        strict, strict_output = _solve(url, tmp_path / "strict", "--max-turns", "1", "--fail-on-unsolved")
    assert code == ExitCode.SUCCESS == 0, output
    assert "campaign limit reached (2 campaigns): the evaluation is complete, 0 of 1 problems solved" in output
    assert strict == ExitCode.UNSOLVED == 4, strict_output
    rows = _attempts(run_dir)
    assert [(r["campaign"], r["status"]) for r in rows] == [("1", "rejected"), ("2", "rejected")]
    assert all(r["verdict"].startswith("rejected:G2") for r in rows)
    assert (run_dir / "unresolved.txt").read_text().split() == [PROBLEM]
    assert (run_dir / "selections" / "campaign-2.txt").read_text().split() == [PROBLEM]


def test_resume_continues_a_finished_run_with_more_campaigns(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    script = [tool_call_reply("submit", {"proof": EDITED}, "c1"), tool_call_reply("submit", {"proof": GOOD}, "c2")]
    with serve(FakeOpenAI(script)) as url:
        assert _solve(url, run_dir, "--max-turns", "1")[0] == ExitCode.SUCCESS
        resume = ["solve", "--resume", str(run_dir), "--campaigns", "2", "--quiet"]
        unnamed = runner.invoke(app, resume)  # the ledger's server gets the API key only when named again
        assert unnamed.exit_code == 2 and f"--model-base-url {url}" in unnamed.stderr, unnamed.output
        result = runner.invoke(app, [*resume, "--model-base-url", url])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert [(r["campaign"], r["status"]) for r in _attempts(run_dir)] == [("1", "rejected"), ("2", "passed")]


def test_a_run_without_prices_shows_cost_unknown_and_resume_takes_prices_for_a_budget(
    tmp_path: Path, unpriced_fake_model: None
) -> None:
    """The README's budget example on a model the catalogue has no price for: the cost is unknown (never
    $0.00); ``--resume --prices FILE`` then gives the price, and a run budget can be set. Before: the
    SUMMARY.md of the resumed run then showed "| Cost | $0.00..." as the run's cost, campaign 1's tokens
    counted at $0."""
    run_dir = tmp_path / "run"
    prices = tmp_path / "prices.json"
    prices.write_text('{"openai-api/fake/fake-model": {"input": 1.0, "output": 2.0}}')
    script = [tool_call_reply("submit", {"proof": EDITED}, "c1"), tool_call_reply("submit", {"proof": GOOD}, "c2")]
    with serve(FakeOpenAI(script)) as url:
        code, output = _solve(url, run_dir, "--max-turns", "1")
        assert code == 0, output
        assert output.count("warning: no price for openai-api/fake/fake-model") == 1
        summary = (run_dir / "SUMMARY.md").read_text()
        assert "| Cost | unknown (no price for openai-api/fake/fake-model" in summary and "$0.00" not in summary
        resume = ["solve", "--resume", str(run_dir), "--campaigns", "2", "--quiet", "--model-base-url", url]
        refused = runner.invoke(app, [*resume, "--run-cost-limit", "5"])
        assert refused.exit_code == 2 and "--prices FILE" in refused.stderr, refused.output
        result = runner.invoke(app, [*resume, "--run-cost-limit", "5", "--prices", str(prices)])
    assert result.exit_code == 0, result.stdout + result.stderr
    summary = (run_dir / "SUMMARY.md").read_text()
    # Campaign 1's tokens were spent without a price: counted as $0, so the run's cost is at least what it shows.
    assert "| Cost | at least $" in summary and "no price for openai-api/fake/fake-model when" in summary


@pytest.mark.parametrize(
    ("model", "message"),
    [("openai/gpt-4o", "OPENAI_API_KEY"), ("nosuch/model", "not recognized")],
)
def test_unusable_models_are_refused_before_any_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, model: str, message: str
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    run_dir = tmp_path / "run"
    args = ["solve", "--prover", "rocq", "--benchmark", str(SAMPLES / "benchmark.jsonl"), "--model", model,
            "--run-dir", str(run_dir), "--quiet"]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == ExitCode.USAGE == 2
    assert f"the worker model '{model}' cannot be used" in result.stderr and message in result.stderr
    assert not run_dir.exists()


def test_resume_refuses_flags_that_would_change_the_run_and_accepts_connection_changes(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    with serve(FakeOpenAI([tool_call_reply("submit", {"proof": EDITED}, "c1")])) as first:
        assert _solve(first, run_dir, "--max-turns", "1")[0] == ExitCode.SUCCESS
    refused = runner.invoke(app, ["solve", "--resume", str(run_dir), "--max-turns", "5", "--model", "x/y"])
    assert refused.exit_code == ExitCode.USAGE
    assert "--max-turns cannot change" in refused.stderr and "start a new run" in refused.stderr
    # --model only says the run's own again (red team 12 of the trust paths): another one is refused
    refused = runner.invoke(app, ["solve", "--resume", str(run_dir), "--model", "x/y"])
    assert refused.exit_code == ExitCode.USAGE and "only to say the run's own again" in " ".join(refused.stderr.split())
    # The model's server moved: the run goes on there.
    with serve(FakeOpenAI([tool_call_reply("submit", {"proof": GOOD}, "c2")])) as moved:
        args = ["solve", "--resume", str(run_dir), "--campaigns", "2", "--model-base-url", moved, "--jobs", "2",
                "--quiet"]  # fmt: skip
        result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert [(r["campaign"], r["status"]) for r in _attempts(run_dir)] == [("1", "rejected"), ("2", "passed")]


def _closed_port_url() -> str:
    """The URL of a loopback port nothing listens on: every connection to it is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_a_server_that_refuses_connections_stops_solve_before_the_run_with_the_url_and_the_fix(
    tmp_path: Path,
) -> None:
    url = _closed_port_url()
    run_dir = tmp_path / "run"
    code, output = _solve(url, run_dir)
    assert code == ExitCode.USAGE, output
    assert f"the worker model 'openai-api/fake/fake-model' cannot reach its server at {url}: connection refused" in (
        " ".join(output.split())
    )
    assert "Start the server, or correct --model-base-url" in " ".join(output.split())
    assert not run_dir.exists(), "nothing was started"


def test_a_provider_s_default_server_is_checked_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inspect leaves ``base_url`` unset for a provider's default server, and the check skipped it: a first run
    with an API key and no network started, and retried for minutes. Its client's own URL is checked now, and
    the fix names the network; where the server can be reached the check lets the run start."""
    from putnam_solver.run.agent import task
    from tests.fakes.scripted_agent import config

    asked: list[str] = []

    def unreachable(url: str) -> str | None:
        asked.append(url)
        return None if len(asked) > 1 else "cannot resolve the host api.openai.com"

    monkeypatch.setattr(task, "unreachable", unreachable)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    chosen = config(None, model="openai/gpt-5.5", model_args={})
    with pytest.raises(ValueError) as refused:
        task.check_models(chosen, {})
    said = str(refused.value)
    assert "cannot reach its server at https://api.openai.com/v1/" in said, said
    assert "Check this machine's network" in said and "Start the server" not in said, said
    task.check_models(chosen, {})
    assert asked == ["https://api.openai.com/v1/"] * 2


def test_dropped_connections_show_in_the_quiet_output_while_inspect_retries(tmp_path: Path) -> None:
    """The server accepts the connection and closes it without an answer, then recovers: the log says
    that requests fail and why, and the run goes on."""
    fake = FakeOpenAI(["drop", tool_call_reply("submit", {"proof": GOOD}, "call_1")])
    run_dir = tmp_path / "run"
    with serve(fake) as url:
        code, output = _solve(url, run_dir, "--max-turns", "1")
    assert code == 0, output
    assert fake.requests == 2
    assert "model requests are failing: 1 failed model request in the last minute, retrying" in output
    assert [(r["campaign"], r["status"]) for r in _attempts(run_dir)] == [("1", "passed")]


def test_prepare_only_says_what_it_wrote_and_what_to_run_next_and_resume_starts_the_run(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    args = [*solve_args(SAMPLES / "benchmark.jsonl", run_dir, PROBLEM, quiet=False), "--prepare-only"]
    prepared = runner.invoke(app, args)
    assert prepared.exit_code == 0, prepared.output
    lines = prepared.stdout.splitlines()
    assert lines[0] == f"prepared run {run_dir} for 1 problems with openai-api/fake/fake-model; no model was called"
    assert lines[-1] == f"next: putnam solve --resume {run_dir}"
    workspace = run_dir / "work" / PROBLEM
    assert str(workspace) in prepared.stdout and (workspace / "PROMPT.md").is_file()
    assert (run_dir / "run.json").is_file()
    assert len((run_dir / "attempts.tsv").read_text().splitlines()) == 1, "the header only: nothing ran"
    again = runner.invoke(app, args)
    assert again.exit_code == ExitCode.USAGE and "already holds a run" in again.stderr
    with serve(FakeOpenAI([tool_call_reply("submit", {"proof": GOOD}, "call_1")])) as url:
        started = runner.invoke(app, ["solve", "--resume", str(run_dir), "--model-base-url", url, "--quiet"])
    assert started.exit_code == 0, started.stdout + started.stderr
    assert [(r["campaign"], r["status"]) for r in _attempts(run_dir)] == [("1", "passed")]


def test_the_first_line_comes_before_inspect_is_imported(tmp_path: Path) -> None:
    """Importing Inspect AI takes seconds (up to half a minute on a loaded machine): solve says what it
    is doing first. The server's port is closed, so the run stops right after the checks."""
    code = (
        "import json, sys\n"
        "class Probe:\n"
        "    def __init__(self, real): self.real, self.first = real, None\n"
        "    def write(self, text):\n"
        "        if self.first is None and text.strip():\n"
        "            self.first = [text.strip(), 'inspect_ai' in sys.modules]\n"
        "        return self.real.write(text)\n"
        "    def flush(self): self.real.flush()\n"
        "    def isatty(self): return False\n"
        "sys.stderr = probe = Probe(sys.stderr)\n"
        "from putnam_solver.cli import app\n"
        "try:\n"
        "    app(sys.argv[1:])\n"
        "except SystemExit as exc:\n"
        "    print(json.dumps([exc.code, probe.first]))\n"
    )
    run_dir = tmp_path / "run"
    args = ["solve", "--prover", "rocq", "--benchmark", str(SAMPLES / "benchmark.jsonl"), "--problem", PROBLEM,
            "--model", "openai-api/fake/fake-model", "--model-base-url", _closed_port_url(), "--run-dir",
            str(run_dir), "--quiet"]  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=checkout_env(), cwd=REPO
    )
    exit_code, (first, inspect_loaded) = json.loads(done.stdout.splitlines()[-1])
    assert exit_code == ExitCode.USAGE, done.stderr
    assert first.startswith(f"starting run {run_dir} with openai-api/fake/fake-model: checking"), first
    assert not inspect_loaded


@pytest.mark.parametrize(
    ("flags", "history", "off"),
    [([], 64_000, []), (["--without", "sketch,compact", "--history-tokens", "9000"], 9_000, ["sketch", "compact"])],
)
def test_the_sketch_and_compaction_flags_reach_the_run_and_its_prompt(
    tmp_path: Path, flags: list[str], history: int, off: list[str]
) -> None:
    run_dir = tmp_path / "run"
    args = [*solve_args(SAMPLES / "benchmark.jsonl", run_dir, PROBLEM), "--prepare-only", *flags]
    prepared = runner.invoke(app, args)
    assert prepared.exit_code == 0, prepared.output
    config = json.loads((run_dir / "run.json").read_text())["config"]
    assert config["budgets"]["history_tokens"] == history
    assert [part for part in ("sketch", "compact") if not config["parts"][part]] == off
    prompt = (run_dir / "work" / PROBLEM / "PROMPT.md").read_text()
    in_words = "Prove that reversing a list over any type $A$ keeps its length."
    assert (in_words in prompt) is not off and ("`sketch(informal_proof, skeleton)`" in prompt) is not off


def test_history_tokens_zero_never_compacts_and_an_unknown_part_is_refused(tmp_path: Path) -> None:
    base = [*solve_args(SAMPLES / "benchmark.jsonl", tmp_path / "run", PROBLEM), "--prepare-only"]
    assert runner.invoke(app, [*base, "--history-tokens", "0"]).exit_code == 0
    assert json.loads((tmp_path / "run" / "run.json").read_text())["config"]["budgets"]["history_tokens"] is None
    refused = runner.invoke(
        app, [*solve_args(SAMPLES / "benchmark.jsonl", tmp_path / "other", PROBLEM), "--without", "sketches"]
    )
    assert refused.exit_code == ExitCode.USAGE and "sketch" in refused.stderr and "compact" in refused.stderr
