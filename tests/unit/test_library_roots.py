"""Where the agent's ``search`` looks: the Lean library sources of the toolchain the gates use."""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.provers.lean import LeanProver
from putnam_solver.core.provers.lean.toolchain import ToolchainPaths
from putnam_solver.core.verify import VerifyOptions
from putnam_solver.run.agent.tools import library_roots


def _toolchain(root: Path) -> Path:
    """A bootstrapped-looking toolchain directory; returns its real `lean` executable."""
    paths = ToolchainPaths(root)
    (paths.project / ".lake" / "packages" / "mathlib").mkdir(parents=True)
    toolchain = paths.elan_home / "toolchains" / "leanprover--lean4---v4.27.0"
    (toolchain / "src" / "lean").mkdir(parents=True)
    (toolchain / "bin").mkdir()
    lean = toolchain / "bin" / "lean"
    lean.write_text("#!/bin/sh\n")
    return lean


def test_search_finds_mathlib_in_the_configured_toolchain_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lean = _toolchain(tmp_path / "tc")
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(tmp_path / "tc"))
    for given in ({}, {"lean": lean}):  # a `--tool lean=PATH` executable is not a toolchain directory
        roots, glob = library_roots(LeanProver(), VerifyOptions(tools=given))
        assert glob == "*.lean"
        assert ToolchainPaths(tmp_path / "tc").project / ".lake" / "packages" in roots
        assert lean.parent.parent / "src" / "lean" in roots
