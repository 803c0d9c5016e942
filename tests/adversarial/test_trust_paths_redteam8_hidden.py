"""Red team round 8 of the trust paths: benchmark files in the directories every sandbox shows.

Every sandbox (a candidate's compile, a warm checker, a CLI agent's layer) shows the system directories
read-only, and the caller's toolchain or the CLI's install. Where putnam is installed system-wide (``pip
install`` as root puts it under ``/usr/local``), its packaged benchmark files lie there, every official
answer and informal solution with them, and so may a file the user names with ``--benchmark``. Before
this round, ``cat`` in a sandbox (a Lean ``include_str``, a plugin's shell, a CLI agent's shell) printed
them: on the no-answer track the answer could reach the model. Now the benchmark files this process
loads and the packaged data folder are covered in every sandbox (``core/sandbox/hidden.py``): a folder
by an empty read-only tmpfs, a file by the null device (which a bind mount makes unopenable). Here a
toolchain folder and a CLI install stand in for ``/usr`` (the tests write nothing there); the rest of
what they hold stays readable.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from putnam_solver import benchmark_files
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.sandbox import SandboxResult, fresh_copy, run_sandboxed
from putnam_solver.core.sandbox.hidden import cover_argv, hidden_under, hide
from putnam_solver.run.agent.cli_sandbox import CliLayer, hand_over, layer_argv
from tests.helpers import COQ_BENCH, needs_sandbox

ANSWER_WORD = "informal_solution"


def _shown_tree(root: Path) -> Path:
    """A folder as a toolchain or an install is: readable by every uid, with a library file and the
    benchmark files a system-wide install ships."""
    tree = root / "installed"
    (tree / "lib").mkdir(parents=True)
    (tree / "lib" / "library.txt").write_text("library text\n")
    data = tree / "putnam_solver" / "data" / "putnambench"
    data.mkdir(parents=True)
    shutil.copyfile(COQ_BENCH, data / COQ_BENCH.name)
    (tree / "elsewhere").mkdir()
    shutil.copyfile(COQ_BENCH, tree / "elsewhere" / COQ_BENCH.name)
    for path in [tree, *tree.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return tree


def _sh(script: str, tmp_path: Path, readonly: tuple[Path, ...]) -> SandboxResult:
    workdir = fresh_copy({"input.txt": b"x\n"}, tmp_path / "work")
    return run_sandboxed(["/bin/sh", "-c", script], workdir=workdir, readonly=readonly)


@needs_sandbox
def test_a_benchmark_file_loaded_here_is_unreadable_in_a_sandbox_that_shows_its_folder(tmp_path: Path) -> None:
    tree = _shown_tree(tmp_path)
    named = tree / "elsewhere" / COQ_BENCH.name
    load_benchmark(named)  # as `--benchmark` or PUTNAM_BENCHMARK would
    script = f"cat {tree}/lib/library.txt; cat {named}; echo cat=$?; grep -c {ANSWER_WORD} {named}; echo grep=$?"
    result = _sh(script, tmp_path, (tree,))
    assert "library text" in result.stdout, result.stderr
    assert "cat=1" in result.stdout and "grep=2" in result.stdout, result.stdout
    assert ANSWER_WORD not in result.stdout


@needs_sandbox
def test_the_packaged_data_folder_is_empty_and_read_only_in_a_sandbox(tmp_path: Path) -> None:
    tree = _shown_tree(tmp_path)
    data = tree / "putnam_solver" / "data"
    hide(data)  # as `sandbox.hidden` does for the installed package's own folder
    script = f"ls -A {data}; echo listed; cat {data}/putnambench/{COQ_BENCH.name}; touch {data}/x && echo wrote"
    result = _sh(script, tmp_path, (tree,))
    assert result.stdout.split() == ["listed"], result.stdout
    assert ANSWER_WORD not in result.stdout + result.stderr
    assert not (data / "x").exists()
    assert (data / "putnambench" / COQ_BENCH.name).stat().st_size > 0, "the host's file is left as it was"


def test_the_installed_package_registers_its_data_folder() -> None:
    packaged = benchmark_files.PACKAGED_DATA
    load_benchmark(packaged / "putnambench" / COQ_BENCH.name)  # the default copy, inside the folder
    hidden = hidden_under([packaged.parent])  # other tests may have loaded the kits' canary benchmarks too
    assert packaged in hidden
    assert not [p for p in hidden if p != packaged and p.is_relative_to(packaged)], (
        "a file inside a covered folder is covered with it"
    )
    args = cover_argv([packaged.parent])
    covers = {(args[i], args[i + 1]) for i in range(len(args) - 1)}
    assert ("--tmpfs", str(packaged)) in covers
    assert ("--remount-ro", str(packaged)) in covers


def test_nothing_is_covered_outside_what_a_sandbox_shows(tmp_path: Path) -> None:
    outside = tmp_path / "outside.jsonl"
    outside.write_text("{}\n")
    hide(outside)
    assert outside not in hidden_under([tmp_path / "other"])
    assert hidden_under([outside]) == [], "a shown path itself is never covered (the caller asked for it)"
    assert cover_argv([tmp_path / "missing"]) == []


@needs_sandbox
def test_a_file_loaded_from_inside_the_covered_folder_leaves_the_sandbox_working(tmp_path: Path) -> None:
    tree = _shown_tree(tmp_path)
    data = tree / "putnam_solver" / "data"
    hide(data)
    load_benchmark(data / "putnambench" / COQ_BENCH.name)  # the packaged copy, the default benchmark
    result = _sh(f"cat {tree}/lib/library.txt; ls -A {data}; echo listed", tmp_path, (tree,))
    assert result.ok, result.stderr
    assert result.stdout.split() == ["library", "text", "listed"], result.stdout


@needs_sandbox
def test_a_sandbox_that_shows_no_hidden_file_runs_as_before(tmp_path: Path) -> None:
    tree = _shown_tree(tmp_path)
    load_benchmark(tree / "elsewhere" / COQ_BENCH.name)
    result = _sh("cat input.txt", tmp_path, ())
    assert result.ok, result.stderr
    assert result.stdout.split() == ["x"]


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_a_cli_agent_cannot_read_a_benchmark_file_in_its_cli_s_install() -> None:
    with tempfile.TemporaryDirectory(prefix="putnam-install-test-") as made, tempfile.TemporaryDirectory() as ws:
        root = Path(made)
        root.chmod(0o755)  # the layer's uid must reach the install, as it reaches a real one
        tree = _shown_tree(root)
        named = tree / "elsewhere" / COQ_BENCH.name
        load_benchmark(named)
        workspace = Path(ws)
        hand_over(workspace)
        layer = CliLayer(installs=(str(tree),), path=())
        script = f"cat {tree}/lib/library.txt; cat {named}; echo cat=$?"
        argv = layer_argv(layer, workspace, str(workspace), {}, ["sh", "-c", script])
        result = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
    assert "library text" in result.stdout, result.stdout + result.stderr
    assert "cat=1" in result.stdout and ANSWER_WORD not in result.stdout, result.stdout
