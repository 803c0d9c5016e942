"""Loading, pinning and selecting benchmarks; module names; `putnam list` and `putnam check`."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver import benchmark_files
from putnam_solver.benchmark_files import PACKAGED_DATA, Located, locate_benchmark, open_benchmark
from putnam_solver.cli import app
from putnam_solver.core.benchmark import (
    BenchmarkError,
    PinMismatch,
    load_benchmark,
    module_name,
)
from putnam_solver.problem_selection import problem_id_from_module, select_problems
from tests.helpers import COQ_BENCH, LEAN_BENCH, PUTNAMBENCH, ROCQ_SAMPLES

runner = CliRunner()


def _write_jsonl(path: Path, records: list[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _record(problem_id: str, statement: str = "theorem t : True := sorry\n") -> dict[str, str]:
    return {"problem_id": problem_id, "formal_statement": statement}


def test_pinned_putnambench_files_load_with_their_pins() -> None:
    lean = load_benchmark(LEAN_BENCH)
    coq = load_benchmark(COQ_BENCH)
    assert (len(lean.problems), len(coq.problems)) == (672, 412)
    assert lean.pinned and lean.pin_name is not None and "Lean 4" in lean.pin_name
    assert all(p.declared_sha256 == p.statement_sha256 for p in lean.problems.values())


def test_a_modified_putnambench_file_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / LEAN_BENCH.name
    copy.write_bytes(LEAN_BENCH.read_bytes().replace(b"0 \xe2\x89\xa4 a", b"0 < a", 1))
    with pytest.raises(BenchmarkError, match=r"putnam_bench_lean4\.jsonl: SHA-256 is .* was modified"):
        load_benchmark(copy)


def test_explicit_pin_is_enforced(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "mine.jsonl", [_record("my_problem")])
    unpinned = load_benchmark(path)
    assert not unpinned.pinned
    assert load_benchmark(path, unpinned.sha256.upper()).pinned
    with pytest.raises(BenchmarkError, match=r"mine.jsonl: SHA-256 is .* but 0{64} was pinned"):
        load_benchmark(path, "0" * 64)
    with pytest.raises(BenchmarkError, match="not 64 hexadecimal digits"):
        load_benchmark(path, "abc")


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (
            ['{"problem_id": "a", "formal_statement": "x"}', "{not json"],
            r"bad\.jsonl line 2 column 2: Expecting property name enclosed in double quotes \(not valid JSON",
        ),
        (['["a list"]'], r"bad\.jsonl line 1: expected a JSON object"),
        (
            ['{"problem_id": "1abc", "formal_statement": "x"}'],
            r"bad\.jsonl line 1: problem_id '1abc' is not a valid",
        ),
        (
            ['{"problem_id": "a", "formal_statement": "  "}'],
            r"bad\.jsonl line 1: problem a: formal_statement must",
        ),
        (['{"problem_id": "a"}'], r"bad\.jsonl line 1: problem a: formal_statement must"),
        (
            ['{"problem_id": "a", "formal_statement": "x"}', '{"problem_id": "a", "formal_statement": "y"}'],
            r"bad\.jsonl line 2: duplicate problem_id 'a' \(first on line 1\)",
        ),
        ([""], r"bad\.jsonl: no records"),
    ],
)
def test_malformed_benchmarks_name_file_line_and_problem(tmp_path: Path, lines: list[str], message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(BenchmarkError, match=message):
        load_benchmark(path)


def test_putnambench_named_files_need_putnam_ids(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "putnam_bench_lean4.jsonl", [_record("not_putnam")])
    with pytest.raises(BenchmarkError, match="was modified"):
        load_benchmark(path)  # the built-in pin follows the file name
    with pytest.raises(BenchmarkError, match=r" line 1: problem_id 'not_putnam' is not of the form putnam_\\d\{4\}"):
        load_benchmark(path, hashlib.sha256(path.read_bytes()).hexdigest())


def test_selection_is_sorted_bounded_and_suggests_close_ids() -> None:
    lean = load_benchmark(LEAN_BENCH)
    assert [p.id for p in select_problems(lean, ["putnam_1999_b2", "putnam_1962_a2"])] == [
        "putnam_1962_a2",
        "putnam_1999_b2",
    ]
    assert [p.id for p in select_problems(lean, max_problems=2)] == ["putnam_1962_a1", "putnam_1962_a2"]
    with pytest.raises(BenchmarkError, match=r"no problem 'putnam_1962_a7'; did you mean .*putnam_1962_a[1-6]"):
        select_problems(lean, ["putnam_1962_a7"])


@pytest.mark.parametrize(
    ("problem_id", "module"),
    [
        ("putnam_1962_a2", "Putnam1962A2"),
        ("putnam_2023_b6", "Putnam2023B6"),
        ("putnam_1988_b1", "Putnam1988B1"),
    ],
)
def test_module_names_both_ways(problem_id: str, module: str) -> None:
    assert module_name(problem_id) == module
    assert problem_id_from_module(module) == problem_id
    assert problem_id_from_module("Putnam1962C2") is None


def test_every_putnam_id_round_trips_through_its_module_name() -> None:
    lean = load_benchmark(LEAN_BENCH)
    assert all(problem_id_from_module(module_name(i)) == i for i in lean.problems)


def test_benchmark_resolution_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(PUTNAMBENCH))  # the flat layout: the files themselves
    assert locate_benchmark(None, "rocq").path == COQ_BENCH
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(PUTNAMBENCH.parent))  # the data root: one folder per benchmark
    assert locate_benchmark(None, "rocq").path == COQ_BENCH
    assert locate_benchmark("putnambench", "lean").path == LEAN_BENCH
    explicit = _write_jsonl(tmp_path / "x.jsonl", [_record("x")])
    assert locate_benchmark(str(explicit), "rocq").path == explicit
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(explicit))
    assert locate_benchmark(None, "lean").path == explicit
    monkeypatch.delenv("PUTNAM_BENCHMARK")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    packaged = locate_benchmark(None, "lean")
    assert (packaged.path, packaged.origin) == (PACKAGED_DATA / "putnambench" / LEAN_BENCH.name, "packaged")
    assert packaged.copy == "the copy packaged with putnam"
    fetched = tmp_path / "xdg" / "putnambench-solver" / "putnambench" / LEAN_BENCH.name
    fetched.parent.mkdir(parents=True)
    shutil.copyfile(LEAN_BENCH, fetched)
    assert locate_benchmark(None, "lean") == Located(fetched, None, "fetched"), "a fetched copy comes first"
    assert locate_benchmark(None, "rocq").origin == "packaged", "each file is looked up on its own"
    elsewhere = tmp_path / "data"
    (elsewhere / "putnambench").mkdir(parents=True)
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(elsewhere))
    assert locate_benchmark("putnambench", "lean").origin == "fetched", "a directory without the file is passed"
    monkeypatch.delenv("PUTNAM_BENCHMARK")
    monkeypatch.setattr(benchmark_files, "PACKAGED_DATA", tmp_path / "no-package-data")
    fetched.unlink()
    with pytest.raises(BenchmarkError, match=r"Run `putnam dataset fetch --benchmark putnambench`"):
        locate_benchmark(None, "lean")


def test_a_changed_copy_is_refused_not_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first copy found is the one judged by: one that fails its pin stops the command, however many
    good copies come later in the lookup (a silent fallback would hide the change)."""
    monkeypatch.delenv("PUTNAM_BENCHMARK", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    fetched = tmp_path / "putnambench-solver" / "putnambench" / COQ_BENCH.name
    fetched.parent.mkdir(parents=True)
    fetched.write_bytes(COQ_BENCH.read_bytes() + b"\n")
    with pytest.raises(PinMismatch, match="the file was modified"):
        open_benchmark(None, "rocq")


def test_cli_list_and_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(PUTNAMBENCH))
    result = runner.invoke(app, ["list", "--max-problems", "3"])
    assert result.exit_code == 0, result.output
    assert result.stdout.split() == ["putnam_1962_a1", "putnam_1962_a2", "putnam_1962_a3"]
    result = runner.invoke(app, ["list", "--json", "--problem", "putnam_1962_a2", "--problem", "putnam_1962_a1"])
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["problem"], r["module"], r["has_answer"]) for r in records] == [
        ("putnam_1962_a1", "Putnam1962A1", False),
        ("putnam_1962_a2", "Putnam1962A2", True),
    ]
    assert all(len(r["statement_sha256"]) == 64 and r["benchmark_pinned"] for r in records)


def test_cli_list_unknown_problem_exits_2_with_suggestion(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(PUTNAMBENCH))
    result = runner.invoke(app, ["list", "--problem", "putnam_1962_a9"])
    assert result.exit_code == 2
    assert "no problem 'putnam_1962_a9'; did you mean" in result.stderr


def test_cli_list_warns_for_an_unpinned_benchmark(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "mine.jsonl", [_record("b_problem"), _record("a_problem")])
    result = runner.invoke(app, ["list", "--benchmark", str(path), "--prover", "lean"])
    assert result.exit_code == 0
    assert result.stdout.split() == ["a_problem", "b_problem"]
    assert "is not pinned" in result.stderr


def test_cli_check_reports_each_pin_and_which_copy(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(PUTNAMBENCH))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 6
    assert lines[0].startswith("OK ") and "putnam_bench_lean4.jsonl  672 problems" in lines[0]
    assert lines[1].startswith("OK ") and "putnam_bench_coq.jsonl  412 problems" in lines[1]
    assert all(line.endswith("); from PUTNAM_BENCHMARK") for line in lines[:2]), lines
    assert all(line.startswith("OK ") and line.endswith("; the copy packaged with putnam") for line in lines[2:])
    assert all(str(PACKAGED_DATA) in line and "matches the pin" in line for line in lines[2:])
    monkeypatch.setattr(benchmark_files, "PACKAGED_DATA", tmp_path / "no-package-data")
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 0, "a registered benchmark found nowhere is listed, not a failure"
    lines = result.stdout.splitlines()
    assert all(line.startswith("ABSENT ") and "putnam dataset fetch --benchmark" in line for line in lines[2:])
    result = runner.invoke(app, ["check", "--benchmark", "minif2f"])
    assert result.exit_code == 2, "a benchmark asked for by name must be there"
    assert [line.split()[0] for line in result.stdout.splitlines()] == ["ERROR"] * 3
    tampered = tmp_path / COQ_BENCH.name
    shutil.copy(COQ_BENCH, tampered)
    with tampered.open("ab") as handle:
        handle.write(b"\n")
    result = runner.invoke(app, ["check", "--benchmark", str(tampered)])
    assert result.exit_code == 1
    assert result.stdout.startswith("CHANGED ") and "was modified" in result.stdout
    assert "putnam dataset fetch" in result.stdout, "a PutnamBench file is rebuilt by dataset fetch"


def test_cli_check_prints_one_line_per_file_with_a_hint_that_fits(tmp_path: Path) -> None:
    mine = _write_jsonl(tmp_path / "mine.jsonl", [_record("a_problem")])
    other = _write_jsonl(tmp_path / "other.jsonl", [_record("b_problem")])
    mine_sha = hashlib.sha256(mine.read_bytes()).hexdigest()
    other_sha = hashlib.sha256(other.read_bytes()).hexdigest()

    both = ["check", "--benchmark", str(mine), "--benchmark", str(other)]
    result = runner.invoke(app, [*both, "--benchmark-sha256", mine_sha])
    assert result.exit_code == 2, "one pin for two files is ambiguous"
    assert "give one per --benchmark" in result.stderr and "Traceback" not in result.output

    result = runner.invoke(app, [*both, "--benchmark-sha256", other_sha, "--benchmark-sha256", other_sha])
    assert result.exit_code == 1
    first, second = result.stdout.splitlines()
    assert first.startswith("CHANGED ") and str(mine) in first and other_sha in first
    assert "dataset fetch" not in first, "not a PutnamBench file: dataset fetch cannot restore it"
    assert second.startswith("OK ") and str(other) in second

    result = runner.invoke(app, ["check", "--benchmark", str(mine)])
    assert result.exit_code == 1, "an unpinned file checks nothing"
    assert result.stdout.startswith("UNPINNED ") and f"--benchmark-sha256 {mine_sha}" in result.stdout

    result = runner.invoke(app, [*both, "--benchmark", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2
    assert [line.split()[0] for line in result.stdout.splitlines()] == ["UNPINNED", "UNPINNED", "ERROR"]


def test_cli_check_names_the_line_and_column_of_broken_json(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"problem_id": "a", "formal_statement": "x"}\n{"problem_id": "b", "formal_statement": "x}\n')
    result = runner.invoke(app, ["check", "--benchmark", str(bad)])
    assert result.exit_code == 2
    assert "line 2 column 41: Unterminated string starting here" in result.stdout


def test_a_benchmark_path_is_read_only_as_a_regular_file(tmp_path: Path) -> None:
    """A path from anywhere (a run's ledger names one for ``solve --resume``) never makes a load block on a
    FIFO or read a device; a link to a real file is followed as a user expects."""
    import os

    from putnam_solver.core.benchmark import BenchmarkError

    real = tmp_path / "bench.jsonl"
    real.write_bytes(ROCQ_SAMPLES.read_bytes())
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    assert load_benchmark(link).sha256 == load_benchmark(real).sha256
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(BenchmarkError, match=r"(?i)fifo"):
        load_benchmark(fifo)
    with pytest.raises(BenchmarkError):
        load_benchmark(Path("/dev/zero"))
