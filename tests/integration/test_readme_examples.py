"""Every shell example of the README, as a user copies it: run here, or held to what runs it elsewhere.

The README's fenced ``bash`` blocks are parsed; every line must be one this module knows (a README edit
that adds a command fails here until it is run or its exemption is stated). Substituted, and only that:
the model's server (``--model-base-url`` of a loopback OpenAI-compatible server, ``OPENAI_API_KEY`` a
dummy), the working directory (a temporary one), the port of ``putnam serve`` (a free one instead of
8000), the run directory a first ``solve`` made (for ``runs/20261130-031500``), the proof file ``curl``
sends (the published ``putnam_1974_a3.v`` copied in) and ``examples/score_batch.py`` (its absolute path).
Coq is real throughout.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from putnam_solver.run.ledger import LEDGER_NAME
from tests.fakes.openai_server import FakeOpenAI, serve, tool_call_reply
from tests.helpers import PUTNAMBENCH, REPO

README = (REPO / "README.md").read_text()
CORPUS = REPO / "tests" / "fixtures" / "conformance" / "rocq"
PUBLISHED = {p.stem: p.read_text() for p in (REPO / "samples" / "published" / "putnambench-rocq").glob("*.v")}

SOLVE = "putnam solve --model openai/gpt-5.5 --prover rocq --max-problems 10 --campaigns 3 --run-cost-limit 50"
RESUME = "putnam solve --resume runs/20261130-031500"
KEYS = "(umask 077; openssl rand -hex 32 | sed 's/^/rl-loop /; s/$/ 8/' > keys.txt)"
SERVE = "putnam serve --keys keys.txt --host 127.0.0.1 --port 8000 --jobs 8"
SERVE_NAMED = "putnam serve --keys keys.txt --benchmark minif2f:valid"
SCORE = (
    "PUTNAM_API_KEY=$(cut -d' ' -f2 keys.txt) python examples/score_batch.py http://127.0.0.1:8000 proofs.jsonl "
    "--prover rocq"
)
EXEMPT = {
    "bash scripts/quickstart.sh": "test_quickstart_offline.py runs it with no network and an empty home",
    "bash scripts/test.sh": "the test suite itself",
    "ray start --head --num-cpus 8": "Ray daemons: test_ray_cluster.py runs --ray on a cluster_utils cluster",
    "ray start --address HEAD:6379 --num-cpus 16": "as above",
    "putnam verify --ray proofs/": "as above (putnam verify --ray there)",
    "putnam solve --ray --model openai/gpt-5.5 --prover rocq ...": "as above (solve --ray --audit under -m slow)",
    "putnam audit --ray HEAD:6379 runs/20261130-031500": "as above (putnam audit --ray there)",
    "claude mcp add --scope project putnam -- putnam mcp --prover lean": "test_mcp_cli_agents.py runs Claude Code",
    'claude mcp add --transport http putnam http://127.0.0.1:8000/mcp --header "Authorization: Bearer $KEY"': (
        "as above (test_mcp_cli_agents.py gives it the key as a header)"
    ),
    "inspect eval putnam_solver/putnambench --model openai/gpt-5.5 -T prover=rocq -T max_problems=10 -T samples=4": (
        "test_inspect_entry_point.py runs inspect eval putnam_solver/putnambench through Inspect's CLI and the entry "
        "point, -T samples=2, against the loopback model server"
    ),
    "inspect eval putnam_solver/minif2f --model anthropic/claude-sonnet-4-5 -T split=valid --epochs 4 "
    "--epochs-reducer mean,pass_at_2,pass_at_4": "as above (the same task builder, another benchmark name)",
    "inspect view": "Inspect's own viewer, a web server over the log directory",
}


def shell_lines(markdown: str) -> list[str]:
    """The commands of every ``bash`` block: comments dropped, continuation lines joined."""
    lines: list[str] = []
    for block in re.findall(r"```bash\n(.*?)```", markdown, re.DOTALL):
        for line in block.replace("\\\n", " ").splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith("#"):
                lines.append(" ".join(command.split()))
    return lines


def quickstart_steps() -> list[str]:
    """What ``scripts/quickstart.sh`` runs: each ``step ARGS`` is ``putnam ARGS``."""
    script = (REPO / "scripts" / "quickstart.sh").read_text().replace("\\\n", " ")
    return [" ".join(("putnam " + m).split()) for m in re.findall(r"^step (.+)$", script, re.MULTILINE)]


def test_every_readme_command_is_run_or_its_exemption_stated() -> None:
    curl = next(line for line in shell_lines(README) if line.startswith("curl "))
    known = {*quickstart_steps(), "export OPENAI_API_KEY=...", SOLVE, RESUME, KEYS, SERVE, SERVE_NAMED, curl, SCORE}
    assert set(shell_lines(README)) == known | set(EXEMPT)


def test_the_quick_start_block_is_the_script_the_offline_test_runs() -> None:
    block = [line for line in shell_lines(README) if line in quickstart_steps()]
    assert block == quickstart_steps(), "README's quick start and scripts/quickstart.sh say the same commands"


# ---------------------------------------------------------------------------------------------- solve


SOLVABLE = {"putnam_1962_a5", "putnam_1962_a6", "putnam_1962_b2"}
"""The problems among the first ten of PutnamBench's Rocq file with a published proof in ``samples/``."""


class Solver(FakeOpenAI):
    """A model that submits the published proof of a problem it has one for (and approves, if asked as a
    reviewer); on the other problems it says nothing useful, and only once those three passes are in the
    run's ledger under ``runs`` (so that the run budget, spent by the many tokens each reply reports, stops
    the run after them, whatever the machine's speed)."""

    def __init__(self, runs: Path) -> None:
        super().__init__([], output_tokens=100_000)  # $3 a reply at gpt-5.5's price: $50 is about 17 replies
        self.runs = runs
        self.submitted: set[str] = set()
        self.all_recorded = threading.Event()

    def next_step(self, request: dict[str, Any]) -> Any:
        super().next_step(request)
        text = json.dumps(request)
        problem = next((p for p in SOLVABLE if p in text), None)
        if "Answer APPROVE or VETO" in text:
            return {"role": "assistant", "content": "APPROVE"}
        if problem is not None:
            if "function_call_output" in text:
                return {"role": "assistant", "content": "Submitted."}
            self.submitted.add(problem)
            if self.submitted == SOLVABLE:
                threading.Thread(target=self._wait_until_recorded, daemon=True).start()
            return tool_call_reply("submit", {"proof": PUBLISHED[problem]}, f"call-{problem}")
        if re.search(r"putnam_\d{4}_[ab]\d", text):  # a worker on another problem (not solve's model check)
            self.all_recorded.wait(timeout=300)
        return self.default

    def _wait_until_recorded(self) -> None:
        """Set ``all_recorded`` once the ledger holds a pass of each solvable problem (at most 300 s)."""
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not self.all_recorded.is_set():
            if self._passed() >= SOLVABLE:
                self.all_recorded.set()
            time.sleep(0.5)
        self.all_recorded.set()

    def _passed(self) -> set[str]:
        for ledger in self.runs.glob(f"*/{LEDGER_NAME}"):
            try:
                with contextlib.closing(sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)) as db:
                    return {row[0] for row in db.execute("SELECT problem FROM attempts WHERE status = 'passed'")}
            except sqlite3.Error:
                return set()
        return set()


def putnam(command: str, cwd: Path, env: dict[str, str], timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """A README line starting with ``putnam``, run as the installed command is (this checkout's package)."""
    argv = [sys.executable, "-m", "putnam_solver", *command.split()[1:]]
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)


@pytest.fixture(scope="module")
def user_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A user's environment: this checkout's package, the benchmark data, one verdict cache for the module."""
    cache = tmp_path_factory.mktemp("cache")
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    return {
        **keep,
        "PYTHONPATH": str(REPO / "src"),
        "PUTNAM_BENCHMARK": str(PUTNAMBENCH),
        "PUTNAM_CACHE_DIR": str(cache),
    }


@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")
def test_the_solve_example_runs_until_its_budget_and_resume_continues(tmp_path: Path, user_env: dict[str, str]) -> None:
    pytest.importorskip("inspect_ai")
    fake = Solver(tmp_path / "runs")
    with serve(fake) as url:
        env = {**user_env, "OPENAI_API_KEY": "sk-readme-example"}
        first = putnam(f"{SOLVE} --model-base-url {url}", tmp_path, env)
        output = first.stdout + first.stderr
        assert first.returncode == 3, output[-3000:]  # a run budget stopped the run early
        (run_dir,) = (tmp_path / "runs").iterdir()
        summary = (run_dir / "SUMMARY.md").read_text()
        with (run_dir / "attempts.tsv").open() as handle:
            solved = {row["problem"] for row in csv.DictReader(handle, delimiter="\t") if row["status"] == "passed"}
        assert solved == SOLVABLE, output[-3000:]
        assert "**Solved: 2 of 10 (20.0%)**" in summary and "(counted apart): putnam_1962_a6" in summary
        assert "| Cost | $" in summary and "| Limits per run | $50.00 |" in summary
        assert "raise the limit and run again with --resume" in output, "the message says how to continue"
        requests = fake.requests
        resume = RESUME.replace("runs/20261130-031500", str(run_dir.relative_to(tmp_path)))
        resumed = putnam(f"{resume} --model-base-url {url}", tmp_path, env)  # the loopback server, named again
    assert resumed.returncode == 3, resumed.stdout + resumed.stderr
    assert fake.requests == requests, "the spent budget calls no model again"


# ---------------------------------------------------------------------------------------------- serve


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def running(command: str, cwd: Path, env: dict[str, str]) -> Iterator[int]:
    """``putnam serve ...`` in the background on a free port (instead of 8000), until ``/ready``."""
    port = free_port()
    argv = [sys.executable, "-m", "putnam_solver", *re.sub(r"--port \d+", "", command).split()[1:]]
    log = (cwd / f"serve-{port}.log").open("w")
    process = subprocess.Popen([*argv, "--port", str(port)], cwd=cwd, env=env, stderr=log, stdout=log)
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            assert process.poll() is None, (cwd / f"serve-{port}.log").read_text()[-3000:]
            try:
                if httpx.get(f"http://127.0.0.1:{port}/ready", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(1)
        else:
            raise AssertionError("putnam serve was not ready in 600 s")
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def bash(line: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.skipif(shutil.which("coqc") is None or shutil.which("jq") is None, reason="needs coqc, openssl, jq, curl")
def test_the_service_examples_run(tmp_path: Path, user_env: dict[str, str]) -> None:
    assert bash(KEYS, tmp_path, user_env).returncode == 0
    name, key, limit = (tmp_path / "keys.txt").read_text().split()
    assert name == "rl-loop" and re.fullmatch(r"[0-9a-f]{64}", key) and limit == "8"
    proof = (CORPUS / "putnambench-rocq__putnam_1974_a3.v").read_text()
    (tmp_path / "putnam_1974_a3.v").write_text(proof)
    curl = next(line for line in shell_lines(README) if line.startswith("curl "))
    proofs = [{"problem": "putnam_1974_a3", "proof": p} for p in (proof, proof.replace("4%N", "3%N"))]
    (tmp_path / "proofs.jsonl").write_text("".join(json.dumps(p) + "\n" for p in proofs))
    score = SCORE.replace("python examples/", f"{sys.executable} {REPO}/examples/")
    with running(SERVE, tmp_path, user_env) as port:
        answer = bash(curl.replace(":8000/", f":{port}/"), tmp_path, user_env)
        verdict = json.loads(answer.stdout)
        assert verdict["status"] == "accepted" and verdict["failing_gate"] is None, verdict
        assert len(answer.stdout) < 1000, "a compact verdict by default"
        scored = bash(score.replace(":8000", f":{port}"), tmp_path, user_env)
    assert scored.returncode == 0, scored.stderr
    printed = [json.loads(line) for line in scored.stdout.splitlines()]
    assert [p.get("reward") for p in printed[:2]] == [1.0, 0.0] and printed[2] == {"pass_rate": 0.5}
    assert printed[1]["failing"].startswith("G") and printed[1]["error"]
    with running(SERVE_NAMED, tmp_path, user_env) as port:
        ready = httpx.get(f"http://127.0.0.1:{port}/ready").json()
    assert set(ready["provers"]) == {"lean", "rocq"} and ready["ready"] is True
