"""Where the pinned Lean toolchain lives and how the gates invoke `lean`.

Layout of a bootstrapped directory (written by ``putnam bootstrap``, see ``bootstrap.py``)::

    <dir>/toolchain.json     manifest: pins, versions and SHA-256 of every installed binary
    <dir>/elan/              elan home (toolchain leanprover/lean4:v4.27.0)
    <dir>/project/           Lake project: Mathlib v4.27.0, autoImplicit false
    <dir>/bin/comparator     leanprover/comparator
    <dir>/bin/lean4export    lean4export
    <dir>/bin/landrun        landrun
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import platformdirs

LEAN_TOOLCHAIN = "leanprover/lean4:v4.27.0"
MATHLIB_REV = "a3a10db0e9d66acbebf76c5e6a135066525ac900"
MATHLIB_TAG = "v4.27.0"
LEAN4EXPORT_REV = "590dec59d93ab6becdf16fdd8aee5abbb99cb856"
LANDRUN_REV = "5ed4a3db3a4ad930d577215c6b9abaa19df7f99f"


def default_toolchain_dir() -> Path:
    return Path(platformdirs.user_data_dir("putnambench-solver")) / "lean"


@dataclass(frozen=True)
class ToolchainPaths:
    """The files of a bootstrapped toolchain directory (they may not exist yet)."""

    root: Path

    @property
    def manifest(self) -> Path:
        return self.root / "toolchain.json"

    @property
    def elan_home(self) -> Path:
        return self.root / "elan"

    @property
    def project(self) -> Path:
        return self.root / "project"

    @property
    def comparator(self) -> Path:
        return self.root / "bin" / "comparator"

    @property
    def lean4export(self) -> Path:
        return self.root / "bin" / "lean4export"

    @property
    def landrun(self) -> Path:
        return self.root / "bin" / "landrun"
