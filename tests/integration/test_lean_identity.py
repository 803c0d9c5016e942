"""One identity for the Lean toolchain: the fingerprint (and so the cache key, the selftest record and the
verdict's evidence) changes when anything that decides a Lean verdict changes: `lake`, `lean`, the
project's manifest, the built library, comparator, lean4export, landrun, nanoda."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from putnam_solver.core.provers.lean import LeanProver
from putnam_solver.core.provers.lean.toolchain import ToolchainPaths, find_lean
from putnam_solver.core.verify import VerifyOptions
from tests.helpers import needs_sandbox
from tests.integration.test_lean_compile import bootstrapped_toy_layout

pytestmark = needs_sandbox


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _library(paths: ToolchainPaths) -> Path:
    return paths.project / ".lake" / "packages" / "init" / ".lake" / "build" / "lib" / "lean"


CHANGES: dict[str, Callable[[ToolchainPaths], None]] = {
    "lake": lambda p: _write(p.toolchain_bin / "lake", (p.toolchain_bin / "lake").read_text() + "\n# rebuilt\n"),
    "manifest": lambda p: _write(p.project / "lake-manifest.json", json.dumps({"version": "1.1.0", "packages": []})),
    "library": lambda p: _write(_library(p) / "Extra.olean", "another module\n"),
    "comparator": lambda p: _write(p.comparator, "comparator\n"),
    "lean4export": lambda p: _write(p.lean4export, "lean4export\n"),
    "landrun": lambda p: _write(p.landrun, "landrun\n"),
    "nanoda": lambda p: _write(p.nanoda, "nanoda\n"),
}


@pytest.mark.parametrize("changed", list(CHANGES))
def test_the_fingerprint_covers_everything_that_decides_a_lean_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, changed: str
) -> None:
    paths = bootstrapped_toy_layout(tmp_path, monkeypatch)
    _write(paths.project / "lake-manifest.json", json.dumps({"version": "1.1.0", "packages": [], "name": "x"}))
    prover, options = LeanProver(), VerifyOptions()
    before, evidence = prover.toolchain_fingerprint(options), find_lean(options).evidence()
    assert prover.toolchain_fingerprint(options) == before  # stable while nothing changes
    CHANGES[changed](paths)
    after = prover.toolchain_fingerprint(options)
    assert after != before, changed
    if changed in ("lake", "manifest", "library"):  # what G4 and G5 record as the toolchain they ran
        assert find_lean(options).evidence() != evidence
