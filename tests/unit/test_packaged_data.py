"""The pinned benchmark files ship inside the package, byte for byte, with their licences and provenance;
the optional extras are named where an import of theirs fails."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from putnam_solver.benchmark_catalog import catalog
from putnam_solver.benchmark_files import PACKAGED_DATA
from putnam_solver.core.benchmarks import BenchmarkFile, BenchmarkSpec, benchmark_names, get_spec
from putnam_solver.extras import EXTRAS, NEEDED_BY, extra_of, missing_extra_message
from tests.helpers import REPO

FILES = [(spec, file) for spec in map(get_spec, benchmark_names()) for file in spec.files]


@pytest.mark.parametrize(("spec", "file"), FILES, ids=[f.file for _, f in FILES])
def test_every_registered_file_is_packaged_as_pinned(spec: BenchmarkSpec, file: BenchmarkFile) -> None:
    listed = catalog(spec.name)
    data = (PACKAGED_DATA / listed.directory / file.file).read_bytes()
    assert hashlib.sha256(data).hexdigest() == file.sha256
    assert data.count(b"\n") == listed.listing(file).records, "one record per line, as pinned"


@pytest.mark.parametrize("name", benchmark_names())
def test_each_packaged_benchmark_has_its_licences_and_provenance(name: str) -> None:
    """Every licence file beside the data is named by its SOURCE.md (which says whose it is), and every
    data file of the folder is a registered, pinned one: nothing unlicensed or unpinned ships."""
    folder = PACKAGED_DATA / catalog(name).directory
    source = (folder / "SOURCE.md").read_text(encoding="utf-8")
    licences = sorted(p.name for p in folder.glob("LICENSE-*.txt"))
    assert licences, f"{folder}: no licence"
    assert all(licence in source for licence in licences)
    assert all(re.search(r"(MIT|Apache) License", (folder / licence).read_text()) for licence in licences)
    shipped = {p.name for p in folder.glob("*.jsonl")}
    assert shipped == {f.file for f in get_spec(name).files}
    assert all(f"`{data}`" in source for data in shipped), "SOURCE.md describes each file"


def test_package_data_globs_take_in_every_packaged_file() -> None:
    """pyproject's package-data is what puts the files in the wheel; a file it misses would be absent after
    ``pip install`` though present in a clone (the wheel itself is checked in the integration test)."""
    globs = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["putnam_solver"]
    root = PACKAGED_DATA.parent
    for path in PACKAGED_DATA.rglob("*"):
        if path.is_file() and path.name != ".gitattributes":
            assert any(path.relative_to(root).match(g) for g in globs), f"{path} is not package data"


def test_every_extra_names_the_modules_it_installs() -> None:
    """``EXTRAS`` against pyproject's optional-dependencies: the same extras (bar the test extra), and each
    requirement that installs an importable module has it listed under its extra."""
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(EXTRAS) == set(declared) - {"test"} == set(NEEDED_BY)
    modules_of = metadata.packages_distributions()
    for extra, requirements in declared.items():
        if extra == "test":
            continue
        for requirement in requirements:
            dist = re.split(r"[=<>\[ ]", requirement, maxsplit=1)[0]
            if dist == "putnambench-solver":
                continue
            provided = {m for m, dists in modules_of.items() if dist.lower() in {d.lower() for d in dists}}
            provided = {m for m in provided if not m.startswith("_") and m.isidentifier()}
            assert not provided or provided & set(EXTRAS[extra]), f"{extra}: {dist} installs {provided}"


def test_a_missing_extra_is_named_and_other_imports_stay_bugs() -> None:
    assert [extra_of(m) for m in ("inspect_ai.model", "axle", "fastapi", "ray", "mcp", "json")] == [
        "agent", "axle", "serve", "ray", "mcp", None,
    ]  # fmt: skip
    missing = ModuleNotFoundError("No module named 'uvicorn'", name="uvicorn")
    assert missing_extra_message(missing, "putnam serve") == (
        "putnam serve needs the serve extra (uvicorn is not installed): pip install 'putnambench-solver[serve]'"
    )
    assert missing_extra_message(ModuleNotFoundError("x", name="yaml")) is None
    assert missing_extra_message(ValueError("inspect_ai")) is None


@pytest.mark.parametrize(
    ("blocked", "args", "extra"),
    [
        ("inspect_ai", ["solve", "--model", "openai/gpt-4o", "--prover", "rocq", "--max-problems", "1"], "agent"),
        ("fastapi", ["serve", "--keys", "keys.txt"], "serve"),
        ("mcp", ["mcp", "--prover", "rocq"], "mcp"),
    ],
)
def test_a_command_without_its_extra_says_which_to_install(
    blocked: str, args: list[str], extra: str, tmp_path: Path
) -> None:
    """The command as a user without the extra runs it (the module made unimportable): one line, exit 2."""
    script = f"import sys; sys.modules[{blocked!r}] = None; from putnam_solver.cli import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=str(tmp_path), timeout=300
    )
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last == (
        f"error: putnam {args[0]} needs the {extra} extra ({blocked} is not installed): "
        f"pip install 'putnambench-solver[{extra}]'"
    ), done.stderr
    assert "bug" not in done.stderr and "Traceback" not in done.stderr
