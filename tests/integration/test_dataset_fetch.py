"""`putnam dataset fetch` from a local git repository laid out like PutnamBench."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import PINS, BenchmarkError, fetch_dataset, load_benchmark
from tests.helpers import PUTNAMBENCH


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def _records(pin_name: str) -> list[dict[str, object]]:
    text = (PUTNAMBENCH / pin_name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repository with PutnamBench's layout, rebuilt from the pinned data files."""
    repo = tmp_path_factory.mktemp("upstream") / "PutnamBench"
    repo.mkdir()
    informal: dict[str, dict[str, object]] = {}
    for pin in PINS:
        for record in _records(pin.name):
            target = repo / str(record["source_path"])
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(str(record["formal_statement"]).encode("utf-8"))
            if record["informal_statement"] is not None:
                informal[str(record["problem_id"])] = {
                    "problem_name": record["problem_id"],
                    "informal_statement": record["informal_statement"],
                    "informal_solution": record["informal_solution"],
                    "tags": record["tags"],
                }
    informal["putnam_1997_a1"] = {
        "problem_name": "putnam_1997_a1",
        "informal_statement": "(no formalization)",
        "informal_solution": "None.",
        "tags": [],
    }
    (repo / "informal").mkdir()
    entries = [informal[k] for k in sorted(informal)]
    (repo / "informal" / "putnam.json").write_text(json.dumps(entries, indent=4), encoding="utf-8")
    (repo / "lean4" / "src" / "README.txt").write_text("not a statement\n")
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "data")
    return repo


def test_fetch_reproduces_pinned_files_byte_for_byte(upstream: Path, tmp_path: Path) -> None:
    out = tmp_path / "data"
    fetched = fetch_dataset(out, source=str(upstream), revision=_git(upstream, "rev-parse", "HEAD"))
    assert {f.path.name for f in fetched} == {pin.name for pin in PINS}
    for pin in PINS:
        built = (out / pin.name).read_bytes()
        assert built == (PUTNAMBENCH / pin.name).read_bytes()
        assert load_benchmark(out / pin.name).pinned
    assert sorted(p.name for p in out.iterdir()) == sorted(pin.name for pin in PINS), "no temp files left"


def test_fetch_refuses_tampered_data_and_writes_nothing(upstream: Path, tmp_path: Path) -> None:
    clone = tmp_path / "tampered"
    subprocess.run(["git", "clone", "-q", str(upstream), str(clone)], check=True)
    statement = clone / "lean4" / "src" / "putnam_1962_a2.lean"
    statement.write_text(statement.read_text(encoding="utf-8").replace("0 ≤ a", "0 < a", 1), encoding="utf-8")
    _git(clone, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qam", "edit")
    out = tmp_path / "data"
    with pytest.raises(BenchmarkError, match=r"putnam_bench_lean4.jsonl hashes to .* nothing was written"):
        fetch_dataset(out, source=str(clone), revision=_git(clone, "rev-parse", "HEAD"))
    assert not out.exists()


def test_fetch_of_a_missing_revision_names_the_problem(upstream: Path, tmp_path: Path) -> None:
    with pytest.raises(BenchmarkError, match="git checkout failed"):
        fetch_dataset(tmp_path / "data", source=str(upstream))  # the pinned commit is not in this repository
