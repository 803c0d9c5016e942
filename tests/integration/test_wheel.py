"""The wheel built from the tree (``python -m build``) carries the pinned benchmark files, and an install
of it alone, in an empty venv, works without the network and without the tree: ``putnam check`` finds
every file in the package, ``putnam list --benchmark minif2f:test`` lists the split, and a published proof
is verified through the full Rocq profile against the packaged statement (real coqc/coqchk).

Building needs PyPI (``build`` makes an isolated environment with setuptools) and so does installing the
wheel's dependencies; the installed ``putnam`` then runs in a network namespace with no route."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from putnam_solver.benchmark_catalog import catalog
from putnam_solver.core.benchmarks import benchmark_names, get_spec
from tests.helpers import REPO

pytest.importorskip("build", reason="the test extra's `build` is not installed")

PROOF = REPO / "samples" / "published" / "putnambench-rocq" / "putnam_1962_a5.v"


def _run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, check=False, timeout=1200, **kwargs)  # type: ignore[call-overload,no-any-return]


def _offline(args: list[str]) -> list[str]:
    """``args`` in a network namespace with no route, where one can be made (root, or user namespaces)."""
    usable = shutil.which("unshare") is not None and _run(["unshare", "-n", "true"]).returncode == 0
    return ["unshare", "-n", *args] if usable else args


def _tree(target: Path) -> Path:
    """A copy of the source tree to build from, so that the build's own files (``*.egg-info``, ``build/``)
    land there and not in the checkout, where an import path could pick them up."""
    skip = shutil.ignore_patterns(".git", ".venv", "*.egg-info", "build", "dist", "__pycache__", ".*_cache")
    shutil.copytree(REPO, target, ignore=skip, symlinks=True)
    return target


def test_the_built_wheel_carries_the_data_and_works_installed_alone(tmp_path: Path) -> None:
    built = _run([sys.executable, "-m", "build", "--outdir", str(tmp_path / "dist"), str(_tree(tmp_path / "tree"))])
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    wheel = next((tmp_path / "dist").glob("putnambench_solver-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for spec in map(get_spec, benchmark_names()):
            folder = f"putnam_solver/data/{catalog(spec.name).directory}"
            for file in spec.files:
                data = archive.read(f"{folder}/{file.file}")
                assert hashlib.sha256(data).hexdigest() == file.sha256, f"{file.file}: not the pinned bytes"
            assert f"{folder}/SOURCE.md" in names
            assert any(n.startswith(f"{folder}/LICENSE-") for n in names), f"{folder}: no licence"
    venv = tmp_path / "venv"
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PUTNAM_"))}  # only the wheel
    assert _run([sys.executable, "-m", "venv", str(venv)], env=clean).returncode == 0
    installed = _run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)], env=clean)
    assert installed.returncode == 0, installed.stderr[-3000:]
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": f"{venv / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}", "LANG": "C.UTF-8"}
    putnam = str(venv / "bin" / "putnam")

    checked = _run(_offline([putnam, "check"]), env=env, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    lines = checked.stdout.splitlines()
    assert len(lines) == 6 and all(line.startswith("OK ") for line in lines), lines
    assert all(str(venv) in line and line.endswith("; the copy packaged with putnam") for line in lines)

    listed = _run(_offline([putnam, "list", "--benchmark", "minif2f:test"]), env=env, cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert len(listed.stdout.split()) == 244 and "mathd_algebra_478" in listed.stdout.split()

    if shutil.which("coqc") is None:
        pytest.skip("coqc is not installed: the packaged data is checked, the Rocq verification is not")
    verify = [putnam, "verify", "--prover", "rocq", "--benchmark", "putnambench", str(PROOF)]
    verified = _run(_offline(verify), env=env, cwd=tmp_path)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.startswith(f"ACCEPTED  putnam_1962_a5  {PROOF}")
    assert ": 1 accepted, 0 rejected, 0 errors (profile full, track with-answer)" in verified.stdout
