"""The files of a bootstrapped Lean toolchain directory that only bootstrap (and its status rows) touch:
its manifest, elan's shims, the checked-out sources and the environment of every bootstrap command.

What the gates read of the same directory is ``core.provers.lean.toolchain.ToolchainPaths``; these stay
out of the trusted package because no gate runs or reads them.
"""

from __future__ import annotations

import os
from pathlib import Path

from putnam_solver.core.provers.lean.toolchain import ToolchainPaths


def manifest_path(paths: ToolchainPaths) -> Path:
    """``toolchain.json``: pins, versions and SHA-256 of every installed binary."""
    return paths.root / "toolchain.json"


def elan_bin(paths: ToolchainPaths) -> Path:
    return paths.elan_home / "bin"


def lake_shim(paths: ToolchainPaths) -> Path:
    """elan's ``lake`` shim, for bootstrap commands only: each runs in a directory whose own
    ``lean-toolchain`` names its Lean (the project, comparator's and lean4export's sources), which
    is the file the shim walks up to find (leanprover/elan src/elan/config.rs:197)."""
    return elan_bin(paths) / "lake"


def sources_dir(paths: ToolchainPaths) -> Path:
    """Where bootstrap checks out the tools it builds (comparator, lean4export, landrun, nanoda)."""
    return paths.root / "src"


def mathlib_olean(paths: ToolchainPaths) -> Path:
    return paths.mathlib / ".lake" / "build" / "lib" / "lean" / "Mathlib.olean"


def bootstrap_env(paths: ToolchainPaths) -> dict[str, str]:
    """The environment of every bootstrap command: our elan first on PATH, nothing else changed."""
    env = dict(os.environ)
    env["ELAN_HOME"] = str(paths.elan_home)
    env["PATH"] = os.pathsep.join([str(elan_bin(paths)), env.get("PATH", "")])
    return env
