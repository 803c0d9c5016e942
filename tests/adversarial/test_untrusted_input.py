"""Candidates that break the harness instead of the statement: huge files, slow text, answer records.

Each must end in a verdict or an input error that says what happened, never in a crash or a run that
does not end.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import REPO, interpreted_steps

runner = CliRunner()
ROCQ_SAMPLES = REPO / "samples" / "rocq"
LEAN_SAMPLES = REPO / "samples" / "lean"


@pytest.fixture(autouse=True)
def _private_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))


def test_rocq_no_answer_verify_prints_each_answer_beside_the_official_one() -> None:
    """It crashed with AttributeError on every problem with a solution (the answer record had a shape
    the CLI did not expect)."""
    result = runner.invoke(
        app,
        [
            "verify",
            "--prover",
            "rocq",
            "--benchmark",
            str(ROCQ_SAMPLES / "benchmark.jsonl"),
            "--track",
            "no-answer",
            "--gates",
            "text",
            "--show-official",
            str(ROCQ_SAMPLES / "proofs"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "answer sample_sum_odds_solution: 'fun n => n * n' (official: 'fun n => n * n')" in result.stdout


@pytest.mark.parametrize("prover_name", ["rocq", "lean"])
def test_a_candidate_over_the_size_cap_is_refused_before_any_gate_reads_it(prover_name: str) -> None:
    samples = ROCQ_SAMPLES if prover_name == "rocq" else LEAN_SAMPLES
    bench = load_benchmark(samples / "benchmark.jsonl")
    problem = bench.problems[min(bench.problems)]
    prover = get_prover(prover_name)
    valid = (samples / "proofs" / f"{problem.id}{prover.suffix}").read_bytes()
    padded = valid + b"\n" + b"(* x *)\n" * 200_000 if prover_name == "rocq" else valid + b"-- x\n" * 400_000
    options = VerifyOptions(profile=Profile.TEXT, max_candidate_bytes=1 << 20)

    def refused(candidate: bytes, cap: int) -> Verdict:
        capped = VerifyOptions(profile=Profile.TEXT, max_candidate_bytes=cap)
        return run_gates(prover, bench, problem, candidate, Track.WITH_ANSWER, capped)

    interpreted_steps(lambda: refused(valid, len(valid) - 1))  # imports and caches of a first call
    one_byte_over = interpreted_steps(lambda: refused(valid, len(valid) - 1))
    far_over = interpreted_steps(lambda: refused(padded, 1 << 20))
    read_whole = interpreted_steps(lambda: run_gates(prover, bench, problem, valid, Track.WITH_ANSWER, options))
    # The counter sees the gates' work (reading the small valid file costs more than refusing), so a
    # refusal of the 1.6 MB that costs no more than one of a file one byte over read none of it.
    assert 0 < one_byte_over < read_whole, (one_byte_over, read_whole)
    assert far_over <= one_byte_over * 1.1, (far_over, one_byte_over)
    verdict = refused(padded, 1 << 20)
    assert verdict.status == "rejected"
    assert [(g.id, g.status.value) for g in verdict.gates] == [("G0", "failed")]
    assert "over the cap of 1048576 bytes" in verdict.gates[0].detail
    accepted = run_gates(prover, bench, problem, valid, Track.WITH_ANSWER, options)
    assert accepted.status == "accepted", [g.to_json() for g in accepted.gates]


def test_verify_refuses_an_oversized_file_naming_it_and_the_flag(tmp_path: Path) -> None:
    candidate = tmp_path / "sample_sum_odds.v"
    candidate.write_bytes((ROCQ_SAMPLES / "proofs" / "sample_sum_odds.v").read_bytes() + b"(* pad *)" * 1000)
    args = ["verify", "--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES / "benchmark.jsonl"), "--gates", "text"]
    refused = runner.invoke(app, [*args, "--max-candidate-bytes", "4096", str(candidate)])
    assert refused.exit_code == 2  # its own error verdict, naming the file and the flag
    assert "G0 input error" in refused.stdout
    assert "sample_sum_odds.v" in refused.stdout and "--max-candidate-bytes" in refused.stdout
    allowed = runner.invoke(app, [*args, "--max-candidate-bytes", "100000", str(candidate)])
    assert allowed.exit_code == 0, allowed.output


def test_text_gates_that_overrun_their_time_bound_are_errors_not_passes() -> None:
    bench = load_benchmark(ROCQ_SAMPLES / "benchmark.jsonl")
    problem = bench.problems["sample_sum_odds"]
    candidate = (ROCQ_SAMPLES / "proofs" / "sample_sum_odds.v").read_bytes() + b"Check nat. " * 20_000
    options = VerifyOptions(profile=Profile.TEXT, text_gate_seconds=0.01)
    verdict = run_gates(get_prover("rocq"), bench, problem, candidate, Track.WITH_ANSWER, options)
    timed_out = [g for g in verdict.gates if "time bound" in g.detail]
    assert timed_out and all(g.status.value == "error" for g in timed_out)
    assert verdict.status != "accepted"
