"""`putnam verify` on bad input: exit 2, a message naming the file and the problem, nothing half-written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from tests.helpers import PUTNAMBENCH

runner = CliRunner()


@pytest.fixture(autouse=True)
def _benchmark(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(PUTNAMBENCH))
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))


def _verify(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["verify", "--prover", "lean", "--gates", "text", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("proof.lean", b"theorem x : True := trivial\n", "does not name a problem"),
        ("putnam_1962_a7.lean", b"theorem x : True := trivial\n", "does not name a problem"),
        ("putnam_1962_a2.v", b"Theorem x : True.\n", "must end in .lean"),
    ],
)
def test_bad_candidates_exit_2_naming_the_file(tmp_path: Path, name: str, content: bytes, message: str) -> None:
    candidate = tmp_path / name
    candidate.write_bytes(content)
    out = tmp_path / "verdicts.json"
    code, _, stderr = _verify("--json", str(out), str(candidate))
    assert code == 2
    assert str(candidate) in stderr and message in stderr
    assert not out.exists(), "no verdict file is written for bad input"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the candidate file is empty"),
        (b"\xff\xfe theorem", "not UTF-8 text"),
        (b"-- padding\n" * 20, "over the candidate size cap of 100 bytes"),
    ],
)
def test_a_bad_file_gets_its_own_error_and_the_batch_goes_on(tmp_path: Path, content: bytes, message: str) -> None:
    """One unusable file in a folder of candidates is an ``error`` verdict naming it; the others are verified
    and everything prints sorted by problem, counted as problems."""
    (tmp_path / "putnam_1962_a2.lean").write_bytes(content)
    (tmp_path / "putnam_1962_a1.lean").write_text("theorem x : True := trivial\n")
    out = tmp_path / "verdicts.json"
    code, stdout, _ = _verify("--max-candidate-bytes", "100", "--json", str(out), str(tmp_path))
    assert code == 2, stdout
    assert stdout.index("putnam_1962_a1") < stdout.index("putnam_1962_a2")
    assert "2 problems: 0 accepted, 1 rejected, 1 error " in stdout
    results = {r["problem"]: r for r in json.loads(out.read_text())["results"]}
    bad = results["putnam_1962_a2"]
    assert bad["status"] == "error" and bad["gates"][0]["id"] == "G0" and message in bad["gates"][0]["detail"]
    assert results["putnam_1962_a1"]["status"] == "rejected"


def test_missing_path_and_empty_directory(tmp_path: Path) -> None:
    code, _, stderr = _verify(str(tmp_path / "nope.lean"))
    assert code == 2 and "no such file or directory" in stderr
    (tmp_path / "lakefile.lean").write_text("-- not a candidate\n")
    code, _, stderr = _verify(str(tmp_path))
    assert code == 2 and "no candidate files here" in stderr and "putnam_1962_a1.lean" in stderr


def test_changed_benchmark_is_refused(tmp_path: Path) -> None:
    bench = tmp_path / "putnam_bench_lean4.jsonl"
    bench.write_bytes((PUTNAMBENCH / "putnam_bench_lean4.jsonl").read_bytes()[:-200] + b"\n")
    candidate = tmp_path / "putnam_1962_a1.lean"
    candidate.write_text("theorem x : True := trivial\n")
    code, _, stderr = _verify("--benchmark", str(bench), str(candidate))
    assert code == 2 and "was modified" in stderr and "putnam dataset fetch" in stderr
