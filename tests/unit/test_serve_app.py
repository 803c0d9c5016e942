"""The API with another Verifier plugged in (as a cluster backend would be): every verification goes
through it, and one that crashes is a 500 with the request id, never a traceback."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from putnam_solver.benchmark_files import open_benchmark
from putnam_solver.core.benchmark import BenchmarkError, load_benchmark
from putnam_solver.core.verify import Verdict, VerifyOptions
from putnam_solver.serve import (
    KeyRing,
    PoolVerifier,
    Readiness,
    ServeConfig,
    VerifyJob,
    VerifyService,
    create_app,
    load_keys,
)
from putnam_solver.serve.server import load_config
from putnam_solver.serve.service import record_problem
from putnam_solver.serve.verifier import run_job
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import DATA_ROOT, REPO, ROCQ_SAMPLES

KEY = "unit-key-0123456789abcdef"
CANDIDATE = (REPO / "samples" / "rocq" / "proofs" / "sample_rev_length.v").read_text()


class Recording:
    """A Verifier that runs the gates itself (after ``delay`` seconds) and remembers each job and the
    most jobs it held at once, or fails when told to."""

    def __init__(self, fail: bool = False, delay: float = 0.0) -> None:
        self.fail = fail
        self.delay = delay
        self.jobs: list[VerifyJob] = []
        self.running = self.peak = 0

    async def verify(self, job: VerifyJob) -> Verdict:
        self.jobs.append(job)
        if self.fail:
            raise RuntimeError("the cluster is gone /secret/path")
        self.running += 1
        self.peak = max(self.peak, self.running)
        await asyncio.sleep(self.delay)
        self.running -= 1
        return run_job(job)

    def close(self) -> None:
        pass


def keys(tmp_path: Path) -> KeyRing:
    (tmp_path / "keys").write_text(f"unit {KEY} 2\n")
    (tmp_path / "keys").chmod(0o600)  # the keys file is this account's alone
    return load_keys(tmp_path / "keys")


@pytest.fixture(autouse=True)
def _ready(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Readiness, "not_ready", lambda self, prover=None: None)  # no selftest in a unit test
    monkeypatch.setattr(Readiness, "start", lambda self: None)


@pytest.mark.parametrize("fail", [False, True])
def test_every_verification_goes_through_the_verifier(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, fail: bool
) -> None:
    verifier = Recording(fail)
    config = ServeConfig(keys=keys(tmp_path), benchmarks={"rocq": load_benchmark(ROCQ_SAMPLES)})
    body = {"problem": "sample_rev_length", "candidate": CANDIDATE, "profile": "text"}
    with (
        TestClient(create_app(config, verifier), raise_server_exceptions=False) as client,
        caplog.at_level(logging.ERROR),
    ):
        response = client.post("/verify", json=body, headers={"Authorization": f"Bearer {KEY}"})
    assert len(verifier.jobs) == 1 and verifier.jobs[0].problem.id == "sample_rev_length"
    assert verifier.jobs[0].options.profile.value == "text" and verifier.jobs[0].candidate == CANDIDATE.encode()
    if not fail:
        assert response.status_code == 200 and response.json()["status"] == "accepted"
        return
    assert response.status_code == 500
    rid = response.headers["x-request-id"]
    assert response.json() == {
        "status": 500,
        "detail": f"internal error; the server's log has it under request id {rid}",
        "request_id": rid,
    }
    assert "RuntimeError" in caplog.text, "the traceback goes to the log, not to the client"


def test_a_batch_enters_the_verifier_at_most_its_key_limit_at_a_time(tmp_path: Path) -> None:
    verifier = Recording(delay=0.2)
    config = ServeConfig(keys=keys(tmp_path), benchmarks={"rocq": load_benchmark(ROCQ_SAMPLES)})
    item = {"problem": "sample_rev_length", "candidate": CANDIDATE, "profile": "text"}
    with TestClient(create_app(config, verifier)) as client:
        response = client.post("/verify/batch", json={"items": [item] * 5}, headers={"Authorization": f"Bearer {KEY}"})
    assert response.status_code == 200 and response.json()["all_okay"] is True
    assert len(verifier.jobs) == 5 and verifier.peak == 2, "the key's limit is 2"


@pytest.mark.skipif(not (DATA_ROOT / "minif2f").is_dir(), reason="miniF2F data not found")
def test_serve_loads_a_named_benchmark_for_each_of_its_provers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--benchmark NAME[:SPLIT] serves each prover's file of it; a record sent is read in its hole syntax."""
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(DATA_ROOT))
    (tmp_path / "keys").write_text(f"unit {KEY} 2\n")
    (tmp_path / "keys").chmod(0o600)  # the keys file is this account's alone
    config = load_config(tmp_path / "keys", ["lean", "rocq"], "minif2f:valid", cache=False, run_selftest=False)
    served = {p: (b.file.file if b.file else None, b.split) for p, b in config.benchmarks.items()}
    assert served == {"lean": ("minif2f_lean4.jsonl", "valid"), "rocq": ("minif2f_rocq_adapted.jsonl", "valid")}
    rocq = config.benchmarks["rocq"]
    record = {"problem_id": "my_own", "formal_statement": rocq.problems["mathd_algebra_455"].formal_statement}
    _, problem = record_problem(rocq, record)
    assert problem.format == rocq.problems["mathd_algebra_455"].format
    with pytest.raises(BenchmarkError, match="ProofNet"):
        load_config(tmp_path / "keys", ["rocq"], "proofnet", cache=False, run_selftest=False)


@pytest.mark.skipif(not (DATA_ROOT / "minif2f").is_dir(), reason="miniF2F data not found")
def test_each_benchmark_is_judged_with_the_release_it_states_unless_one_is_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Lean benchmark's gates (and the selftest readiness waits for) use the Lean release its record
    states, as `putnam verify` does; `putnam serve --toolchain` chooses another for every benchmark."""
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(DATA_ROOT))
    benchmarks = {"lean": open_benchmark("minif2f:valid", "lean"), "rocq": load_benchmark(ROCQ_SAMPLES)}
    stated = ServeConfig(keys=keys(tmp_path), benchmarks=benchmarks)
    assert stated.options_for("lean").toolchain == "v4.24.0"
    assert stated.options_for("rocq").toolchain is None  # a file no record describes states nothing
    service = VerifyService(stated, Recording())
    assert {p: o.toolchain for p, o in service.readiness.options.items()} == {"lean": "v4.24.0", "rocq": None}
    chosen = ServeConfig(keys=keys(tmp_path), benchmarks=benchmarks, options=VerifyOptions(toolchain="v4.27.0"))
    assert chosen.options_for("lean").toolchain == chosen.options_for("rocq").toolchain == "v4.27.0"


@NEEDS_ROCQ
def test_ready_says_which_profiles_can_run_per_prover_as_the_verdicts_do(tmp_path: Path) -> None:
    """A Lean whose `lean` is missing: its text profile can run and its full profile cannot, naming G4, and
    a request on the full profile gets the `error` verdict /ready foretold; every Rocq profile can run."""
    lean_samples = REPO / "samples" / "lean"
    config = ServeConfig(
        keys=keys(tmp_path),
        benchmarks={"rocq": load_benchmark(ROCQ_SAMPLES), "lean": load_benchmark(lean_samples / "benchmark.jsonl")},
        options=VerifyOptions(tools={"lean": tmp_path / "no-such-lean"}),
    )
    candidate = (lean_samples / "proofs" / "toy_and_comm.lean").read_text()
    auth = {"Authorization": f"Bearer {KEY}"}
    with TestClient(create_app(config, PoolVerifier(1))) as client:
        provers = client.get("/ready").json()["provers"]
        verdicts = {
            profile: client.post(
                "/verify",
                json={"problem": "toy_and_comm", "prover": "lean", "candidate": candidate, "profile": profile},
                headers=auth,
            ).json()["status"]
            for profile in ("text", "full")
        }
    lean, rocq = provers["lean"]["profiles"], provers["rocq"]["profiles"]
    assert lean["text"] == {"ready": True}
    assert lean["fast"]["ready"] is lean["full"]["ready"] is False and lean["full"]["detail"].startswith("G4 compile:")
    assert rocq == {"text": {"ready": True}, "fast": {"ready": True}, "full": {"ready": True}}
    assert verdicts == {"text": "accepted", "full": "error"}
