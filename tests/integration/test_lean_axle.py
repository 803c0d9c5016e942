"""G7 (AXLE) through the real ``axiom-axle`` client against a local HTTP server on 127.0.0.1.

The server (tests/fakes/axle_server.py, which cites the client source it follows) implements
``POST /api/v1/verify_proof``: a JSON body with ``formal_statement``, ``content``, ``environment``,
``mathlib_options``...; a one-line JSON answer with ``okay``, ``tool_messages``, ``lean_messages``,
``failed_declarations``, ``timings``. Each test scripts the server's answers and checks what the client sent.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from putnam_solver.axle.gate import RetryPolicy, axle_gate, served_environments
from putnam_solver.benchmark_files import open_benchmark
from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean.checks import form_challenge
from putnam_solver.core.util import InputError, sha256_hex
from putnam_solver.core.verify import GateStatus, Profile, Submission, VerifyOptions
from putnam_solver.doctor import require_gates
from tests.fakes.axle_server import AxleServer, Reply, serve_axle, verified
from tests.helpers import DATA_ROOT, LEAN_BENCH, lean_filled, lean_submission

pytest.importorskip("axle", reason="axiom-axle is not installed")


BENCHMARK = LEAN_BENCH
"""What the ``bench`` fixture (conftest.py) loads for this module."""

KEY = "test-key-123"
FAST = RetryPolicy(max_attempts=4, base_delay_seconds=0.01, max_delay_seconds=0.2, queue_slack_seconds=1.0)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[AxleServer]:
    with serve_axle(AxleServer()) as srv:
        monkeypatch.setenv("AXLE_API_URL", srv.url)
        monkeypatch.setenv("AXLE_API_KEY", KEY)
        yield srv


def submission(bench: Benchmark, tmp_path: Path, timeout: float = 30.0) -> Submission:
    """An unfinished proof of ``putnam_1962_a2`` against its statement as the record writes it."""
    challenge = bench.problems["putnam_1962_a2"].formal_statement
    candidate = challenge.replace(":= sorry", ":= by\n  sorry", 1)
    options = VerifyOptions(timeout_seconds=timeout)
    return lean_submission(bench, "putnam_1962_a2", candidate, scratch=tmp_path, options=options, challenge=challenge)


def test_okay_true_passes_and_sends_the_challenge(server: AxleServer, bench: Benchmark, tmp_path: Path) -> None:
    server.replies = [verified(True)]
    sub = submission(bench, tmp_path)
    result = axle_gate(sub, FAST)
    assert (result.id, result.name, result.status) == ("G7", "axle", GateStatus.PASSED)
    [request] = server.requests
    assert request["path"] == "/api/v1/verify_proof"
    assert request["headers"]["Authorization"] == f"Bearer {KEY}"
    body = request["body"]
    assert body["formal_statement"] == form_challenge(sub)[1]  # the form the candidate uses
    assert body["content"] == sub.candidate
    assert body["environment"] == "lean-4.27.0"
    assert body["mathlib_options"] is True
    evidence = result.evidence
    assert evidence["request_id"] == "req-42"
    assert evidence["okay"] is True
    assert evidence["statement_sha256"] == sha256_hex(form_challenge(sub)[1].encode("utf-8"))
    assert evidence["proof_sha256"] == sha256_hex(sub.candidate_bytes)
    assert KEY not in json.dumps(evidence)


def test_okay_false_is_a_rejection_with_the_tool_message(server: AxleServer, bench: Benchmark, tmp_path: Path) -> None:
    message = "Declaration 'putnam_1962_a2' is incomplete (uses 'sorry' or has errors)"
    server.replies = [verified(False, (message,))]
    result = axle_gate(submission(bench, tmp_path), FAST)
    assert result.status is GateStatus.FAILED
    assert message in result.detail
    assert result.evidence["tool_errors"] == [message]
    assert result.evidence["failed_declarations"] == ["putnam_1962_a2"]


@pytest.mark.parametrize("status", [429, 503])
def test_rate_limit_and_unavailable_are_retried(
    server: AxleServer, bench: Benchmark, tmp_path: Path, status: int
) -> None:
    server.replies = [Reply(status, "slow down", {"Retry-After": "0.05"}), verified(True)]
    result = axle_gate(submission(bench, tmp_path), FAST)
    assert result.status is GateStatus.PASSED
    assert result.evidence["attempts"] == 2
    assert len(server.requests) == 2


def test_retries_are_bounded(server: AxleServer, bench: Benchmark, tmp_path: Path) -> None:
    server.replies = [Reply(429, "slow down")]
    result = axle_gate(submission(bench, tmp_path), FAST)
    assert result.status is GateStatus.ERROR
    assert len(server.requests) == FAST.max_attempts
    assert "429" in result.detail


def test_server_error_is_an_error_without_retry(server: AxleServer, bench: Benchmark, tmp_path: Path) -> None:
    server.replies = [Reply(500, "boom")]
    result = axle_gate(submission(bench, tmp_path), FAST)
    assert result.status is GateStatus.ERROR
    assert len(server.requests) == 1


def test_slow_server_past_the_timeout_is_an_error(server: AxleServer, bench: Benchmark, tmp_path: Path) -> None:
    server.replies = [Reply(delay=30.0, body=verified(True).body)]
    result = axle_gate(submission(bench, tmp_path, timeout=1.0), FAST)
    assert result.status is GateStatus.ERROR
    assert "timeout" in result.detail.lower()


@pytest.mark.parametrize("body", ["{not json", '{"okay": "true"}\n', '{"content": ""}\n'])
def test_malformed_answers_are_never_a_pass(server: AxleServer, bench: Benchmark, tmp_path: Path, body: str) -> None:
    server.replies = [Reply(body=body)]
    result = axle_gate(submission(bench, tmp_path), FAST)
    assert result.status is GateStatus.ERROR


def test_missing_key_is_unavailable(
    server: AxleServer, bench: Benchmark, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AXLE_API_KEY")
    result = axle_gate(submission(bench, tmp_path), FAST)
    assert result.status is GateStatus.UNAVAILABLE
    assert "AXLE_API_KEY" in result.detail
    assert server.requests == []


def registered_submission(benchmark: str, problem_id: str, tmp_path: Path) -> Submission:
    """A candidate for a problem of a registered benchmark, judged as its callers judge it: with the
    release its record states."""
    loaded = open_benchmark(benchmark, "lean")
    options = VerifyOptions(timeout_seconds=30.0, toolchain=loaded.release())
    challenge = loaded.problems[problem_id].formal_statement
    candidate = lean_filled(loaded, problem_id)
    return lean_submission(loaded, problem_id, candidate, scratch=tmp_path, options=options, challenge=challenge)


@pytest.mark.skipif(not (DATA_ROOT / "minif2f").is_dir(), reason="pinned data not found")
@pytest.mark.parametrize(
    ("benchmark", "problem_id", "environment", "mathlib"),
    [
        ("putnambench", "putnam_1962_a2", "lean-4.27.0", True),  # its lakefile: autoImplicit false
        ("minif2f", "mathd_algebra_478", "lean-4.24.0", False),  # Lean's defaults
        ("proofnet", "Rudin_exercise_1_1b", "lean-4.28.0", False),
    ],
)
def test_axle_judges_in_the_records_release_with_the_records_options(
    server: AxleServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, benchmark: str, problem_id: str,
    environment: str, mathlib: bool,
) -> None:  # fmt: skip
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(DATA_ROOT))
    server.replies = [verified(True)]
    assert axle_gate(registered_submission(benchmark, problem_id, tmp_path), FAST).passed
    [request] = server.requests
    assert request["body"]["environment"] == environment
    assert request["body"]["mathlib_options"] is mathlib


@pytest.mark.parametrize(
    ("tool_errors", "lean_errors", "status"),
    [
        (("Request timed out after 120 seconds",), (), GateStatus.ERROR),  # AXLE's limit, not a verdict
        (("Internal tool failure while elaborating",), (), GateStatus.ERROR),
        ((), ("-:3:2-3:7: unknown identifier 'x'",), GateStatus.FAILED),
        (("Missing required declaration 'putnam_1962_a2'",), (), GateStatus.FAILED),
    ],
)
def test_a_refusal_without_a_lean_or_verification_error_is_an_error(
    server: AxleServer, bench: Benchmark, tmp_path: Path, tool_errors: tuple[str, ...],
    lean_errors: tuple[str, ...], status: GateStatus,
) -> None:  # fmt: skip
    reply = json.loads(verified(False, tool_errors).body)
    reply["lean_messages"]["errors"] = list(lean_errors)
    server.replies = [Reply(body=json.dumps(reply) + "\n")]
    result = axle_gate(submission(bench, tmp_path), FAST)
    assert result.status is status, result.detail


# axiom-axle client.py:182-186 raises these for AXLE's own limits (endpoints.py TIMEOUT_INPUT: "return a timeout error")
@pytest.mark.parametrize("error_type", ["LeanTimeout", "LeanResourceExceeded"])
def test_axles_own_time_or_resource_limit_is_an_error_never_a_rejection(
    server: AxleServer, bench: Benchmark, tmp_path: Path, error_type: str
) -> None:
    server.replies = [Reply(body=json.dumps({"error_type": error_type, "error": "limit reached"}) + "\n")]
    result = axle_gate(submission(bench, tmp_path), FAST)
    assert result.status is GateStatus.ERROR, result.detail
    assert error_type in result.detail
    assert len(server.requests) == 1  # a limit is not retried: the same request would meet it again


def test_a_release_axle_does_not_serve_is_refused_before_any_work(server: AxleServer) -> None:
    served_environments.cache_clear()
    wanted = VerifyOptions(axle=True, profile=Profile.TEXT, toolchain="v4.24.0")
    with pytest.raises(InputError, match=r"does not serve lean-4\.24\.0"):
        require_gates("lean", wanted)
    require_gates("lean", replace(wanted, toolchain="v4.27.0"))  # served: no refusal
    assert [r["path"] for r in server.requests] == ["/v1/environments"]  # asked once, nothing verified
    server.environments.append("lean-4.24.0")
    served_environments.cache_clear()
    require_gates("lean", wanted)


@pytest.mark.skipif(not (DATA_ROOT / "minif2f").is_dir(), reason="pinned data not found")
def test_verify_with_axle_refuses_an_unserved_release_with_exit_2_before_any_work(
    server: AxleServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from putnam_solver.cli import app

    monkeypatch.setenv("PUTNAM_BENCHMARK", str(DATA_ROOT))
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    served_environments.cache_clear()
    candidate = tmp_path / "mathd_algebra_478.lean"
    candidate.write_text(lean_filled(open_benchmark("minif2f", "lean"), "mathd_algebra_478"))
    result = CliRunner().invoke(app, ["verify", "--gates", "text", "--axle", "--benchmark", "minif2f", str(candidate)])
    assert result.exit_code == 2, result.stdout
    assert "does not serve lean-4.24.0" in result.stdout + result.stderr
    assert all(r["path"] == "/v1/environments" for r in server.requests)
