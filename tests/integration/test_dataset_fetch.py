"""`putnam dataset fetch` from local git repositories laid out like each benchmark's upstreams.

The repositories are rebuilt by the test from the pinned data files (each record's text goes back to its
``source_path``), so the builders must reproduce every pinned file byte for byte, miniF2F's documented
Rocq adaptations included, and refuse anything else.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver import benchmark_files, datasets
from putnam_solver.benchmark_catalog import catalog
from putnam_solver.cli import app
from putnam_solver.core.benchmark import BenchmarkError, load_benchmark
from putnam_solver.core.benchmarks import get_spec
from putnam_solver.datasets import fetch_benchmark
from tests.helpers import DATA_ROOT

pytestmark = pytest.mark.skipif(not (DATA_ROOT / "minif2f").is_dir(), reason="pinned data not found")
runner = CliRunner()


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def _records(benchmark: str, file: str) -> list[dict[str, object]]:
    text = (DATA_ROOT / catalog(benchmark).directory / file).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


def _commit(repo: Path, files: dict[str, str | bytes]) -> str:
    for name, content in files.items():
        target = repo / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "data")
    return _git(repo, "rev-parse", "HEAD")


def _statements(records: list[dict[str, object]]) -> dict[str, str | bytes]:
    return {str(r["source_path"]): str(r["formal_statement"]) for r in records}


def _putnambench(root: Path) -> dict[str, tuple[Path, str]]:
    files: dict[str, str | bytes] = {}
    informal: dict[str, dict[str, object]] = {}
    for file in get_spec("putnambench").files:
        for record in _records("putnambench", file.file):
            files[str(record["source_path"])] = str(record["formal_statement"])
            if record["informal_statement"] is not None:
                informal[str(record["problem_id"])] = {
                    "problem_name": record["problem_id"],
                    "informal_statement": record["informal_statement"],
                    "informal_solution": record["informal_solution"],
                    "tags": record["tags"],
                }
    informal["putnam_1997_a1"] = {"problem_name": "putnam_1997_a1", "informal_statement": "(no formalization)"}
    files["informal/putnam.json"] = json.dumps([informal[k] for k in sorted(informal)], indent=4)
    files["lean4/src/README.txt"] = "not a statement\n"
    repo = root / "PutnamBench"
    return {"putnambench": (repo, _commit(repo, files))}


def _minif2f(root: Path) -> dict[str, tuple[Path, str]]:
    lean = _records("minif2f", "minif2f_lean4.jsonl")
    rocq = _records("minif2f", "minif2f_rocq.jsonl")
    informal = {
        f"informal/{r['split']}/{r['problem_id']}.json": json.dumps(
            {"problem_name": r["problem_id"], "informal_statement": r["informal_statement"],
             "informal_proof": r["informal_proof"]}
        )
        for r in rocq
    }  # fmt: skip
    repos = {"lean": _statements(lean), "rocq": _statements(rocq), "informal": dict(informal)}
    return {name: (root / name, _commit(root / name, files)) for name, files in repos.items()}


def _proofnet(root: Path) -> dict[str, tuple[Path, str]]:
    records = _records("proofnet", "proofnet_lean4.jsonl")
    entries = sorted(
        (
            {"index": int(str(r["source_path"]).split("-")[-1].removesuffix(".lean")), "name": r["problem_id"],
             "informal_stmt": r["informal_statement"], "informal_proof": r["informal_proof"]}
            for r in records
        ),
        key=lambda e: int(str(e["index"])),
    )  # fmt: skip
    statements = _statements(records)
    statements["data/proofnet-verified.jsonl"] = "".join(json.dumps(e) + "\n" for e in entries)

    def original(name: object) -> str:
        book, _, rest = str(name).partition("_exercise_")
        return f"{book.replace('_', '-')}|exercise_{rest}"

    split = {f"benchmark/{s}_ids": "".join(original(r["problem_id"]) + "\n" for r in records if r["split"] == s)
             for s in ("valid", "test")}  # fmt: skip
    return {
        "statements": (root / "statements", _commit(root / "statements", statements)),
        "split": (root / "split", _commit(root / "split", dict(split))),
    }


UPSTREAMS = {"putnambench": _putnambench, "minif2f": _minif2f, "proofnet": _proofnet}


@pytest.fixture(scope="module")
def upstreams(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, tuple[Path, str]]]:
    root = tmp_path_factory.mktemp("upstreams")
    return {name: make(root / name) for name, make in UPSTREAMS.items()}


def _fetch(benchmark: str, repos: dict[str, tuple[Path, str]], out: Path) -> list[Path]:
    sources = {i: str(repo) for i, (repo, _) in repos.items()}
    revisions = {i: commit for i, (_, commit) in repos.items()}
    return [f.path for f in fetch_benchmark(benchmark, out, sources, revisions)]


@pytest.mark.parametrize("benchmark", list(UPSTREAMS))
def test_fetch_reproduces_every_pinned_file_byte_for_byte(
    upstreams: dict[str, dict[str, tuple[Path, str]]], benchmark: str, tmp_path: Path
) -> None:
    spec, directory = get_spec(benchmark), catalog(benchmark).directory
    out = tmp_path / directory
    fetched = _fetch(benchmark, upstreams[benchmark], out)
    assert sorted(p.name for p in fetched) == sorted(f.file for f in spec.files)
    for file in spec.files:
        assert (out / file.file).read_bytes() == (DATA_ROOT / directory / file.file).read_bytes()
        assert load_benchmark(out / file.file).file == file
    assert sorted(p.name for p in out.iterdir()) == sorted(f.file for f in spec.files), "no temp files left"


def test_fetch_says_whether_the_packaged_copy_has_the_same_bytes(
    upstreams: dict[str, dict[str, tuple[Path, str]]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repos = upstreams["proofnet"]
    sources, revisions = {i: str(r) for i, (r, _) in repos.items()}, {i: c for i, (_, c) in repos.items()}
    [same] = fetch_benchmark("proofnet", tmp_path / "a", sources, revisions)
    assert same.packaged is True and same.describe().endswith("(matches the pin and the packaged copy)")
    damaged = tmp_path / "package" / "proofnet" / "proofnet_lean4.jsonl"
    damaged.parent.mkdir(parents=True)
    damaged.write_bytes(same.path.read_bytes()[:-1])
    monkeypatch.setattr(datasets, "PACKAGED_DATA", tmp_path / "package")
    [differs] = fetch_benchmark("proofnet", tmp_path / "b", sources, revisions)
    assert differs.packaged is False and "NOT the packaged copy (reinstall putnam)" in differs.describe()
    monkeypatch.setattr(datasets, "PACKAGED_DATA", tmp_path / "nothing")
    [alone] = fetch_benchmark("proofnet", tmp_path / "c", sources, revisions)
    assert alone.packaged is None and alone.describe().endswith("(matches the pin)")


def test_fetch_refuses_a_tampered_upstream_and_writes_nothing(
    upstreams: dict[str, dict[str, tuple[Path, str]]], tmp_path: Path
) -> None:
    repos = dict(upstreams["minif2f"])
    clone = tmp_path / "rocq"
    subprocess.run(["git", "clone", "-q", str(repos["rocq"][0]), str(clone)], check=True)
    statement = clone / "test" / "mathd_algebra_478.v"
    statement.write_text(statement.read_text(encoding="utf-8").replace("Theorem", "Lemma", 1), encoding="utf-8")
    _git(clone, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qam", "edit")
    repos["rocq"] = (clone, _git(clone, "rev-parse", "HEAD"))
    out = tmp_path / "data"
    with pytest.raises(BenchmarkError, match=r"built minif2f_rocq_adapted.jsonl hashes to .* nothing was written"):
        _fetch("minif2f", repos, out)
    assert not out.exists()


def test_fetch_of_a_missing_revision_names_the_problem(
    upstreams: dict[str, dict[str, tuple[Path, str]]], tmp_path: Path
) -> None:
    repo, _ = upstreams["putnambench"]["putnambench"]
    with pytest.raises(BenchmarkError, match="is revision 3c9b9268"):
        fetch_benchmark("putnambench", tmp_path / "data", {"putnambench": str(repo)})  # the pinned commit is absent


def test_cli_fetch_takes_a_source_per_upstream_and_refuses_a_bare_one(
    upstreams: dict[str, dict[str, tuple[Path, str]]], tmp_path: Path
) -> None:
    repos = upstreams["proofnet"]
    args = ["dataset", "fetch", "--benchmark", "proofnet", "--dir", str(tmp_path / "pn")]
    for upstream, (repo, commit) in repos.items():
        args += ["--source", f"{upstream}={repo}", "--revision", f"{upstream}={commit}"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "proofnet_lean4.jsonl  366 records" in result.stdout
    assert "(matches the pin and the packaged copy)" in result.stdout
    bare = runner.invoke(app, ["dataset", "fetch", "--benchmark", "proofnet", "--source", str(repos["split"][0])])
    assert bare.exit_code == 2
    assert "several upstreams; write ID=VALUE with ID one of statements, split" in bare.stderr


def test_cli_fetch_of_minif2f_fills_the_data_directory_that_named_benchmarks_are_found_in(
    upstreams: dict[str, dict[str, tuple[Path, str]]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PUTNAM_BENCHMARK", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    args = ["dataset", "fetch", "--benchmark", "minif2f"]
    for upstream, (repo, commit) in upstreams["minif2f"].items():
        args += ["--source", f"{upstream}={repo}", "--revision", f"{upstream}={commit}"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.count("(matches the pin and the packaged copy)") == 3
    assert str(tmp_path / "xdg") in result.stdout
    checked = runner.invoke(app, ["check", "--benchmark", "minif2f"])
    assert checked.exit_code == 0, checked.output
    assert [line.split()[0] for line in checked.stdout.splitlines()] == ["OK"] * 3
    listed = runner.invoke(app, ["list", "--prover", "rocq", "--benchmark", "minif2f:test"])
    assert listed.exit_code == 0 and len(listed.stdout.splitlines()) == 244
    assert all(line.endswith("; the copy `putnam dataset fetch` built") for line in checked.stdout.splitlines())
    everything = runner.invoke(app, ["check"])
    assert everything.exit_code == 0, everything.output
    assert everything.stdout.count("the copy packaged with putnam") == 3, "the others: their packaged copies"
    monkeypatch.setattr(benchmark_files, "PACKAGED_DATA", tmp_path / "no-package-data")
    absent = runner.invoke(app, ["check"])
    assert absent.exit_code == 2, "PutnamBench, the default, must be there"
    assert absent.stdout.splitlines()[0].startswith("ERROR ") and "OK " in absent.stdout
