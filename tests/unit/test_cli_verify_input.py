"""`putnam verify` on bad input: exit 2, a message naming the file and the problem, nothing half-written."""

from __future__ import annotations

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
        ("putnam_1962_a2.lean", b"", "the candidate file is empty"),
        ("Putnam1962A2.lean", b"\xff\xfe theorem", "not UTF-8 text"),
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
