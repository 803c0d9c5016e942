"""`putnam selftest` puts, per installed Lean release, a Mathlib-using known-good canary and one whose
replay the kernel rejects through G6, so that a comparator/lean4export pairing that breaks on any release
shows before money is spent. The toolchains are faithful fakes (tests/fakes: comparator, lean4export,
landrun, lake) in a directory G6's unprivileged user can enter."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.core.provers.lean import nounix
from putnam_solver.core.provers.lean.toolchain import lean_release
from putnam_solver.core.sandbox import landlock_status
from putnam_solver.core.verify import VerifyOptions
from putnam_solver.selftest import runner as selftest
from tests.integration.test_lean_comparator import fake_toolchain

pytestmark = pytest.mark.skipif(
    not (landlock_status()[0] and nounix.libseccomp_status()[0]), reason="G6 needs Landlock and libseccomp"
)
RELEASES = ("v4.27.0", "v4.28.0")


def test_selftest_runs_the_mathlib_canaries_through_g6_on_every_installed_release(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    shared = Path(tempfile.mkdtemp(prefix="putnam-releases-"))  # G6's unprivileged user can enter it
    shared.chmod(0o755)
    request.addfinalizer(lambda: shutil.rmtree(shared, ignore_errors=True))
    root = shared / "toolchain"
    for release in RELEASES:
        fake_toolchain(root, lean_release(release), interpreter="/usr/bin/python3")
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(root))
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    for name in ("PUTNAM_LEAN", "LEAN_PATH"):
        monkeypatch.delenv(name, raising=False)

    result = CliRunner().invoke(app, ["selftest", "--prover", "lean", "--jobs", "2"])
    assert result.exit_code == 0, result.stdout
    assert result.stdout.count("Lean canaries with Mathlib (the bootstrapped project) [lean-mathlib]") == 2
    for release in RELEASES:
        record = selftest.last_record("lean", VerifyOptions(toolchain=release))
        assert record is not None and record.passed, release
        g6 = {c.canary: c.status for c in record.cells if c.suite == "lean-mathlib" and c.gate == "G6"}
        assert g6["good"] == "passed" and g6["kernel_rejected"] == "failed", (release, g6)
        assert record.known_good_passed("G6") is True
