"""Red team round 18 of the trust paths: a Coq probe run with the harness's environment.

Hole: ``coqc -where`` and ``coqc --version`` (the library whose state is the Rocq toolchain fingerprint,
the module set G2 resolves ``Require`` names against, the read-only paths of the sandbox) were probed
with the harness's own environment, while every gate runs ``coqc`` in the sandbox with only the
sandbox's minimal one. A ``COQLIB`` in the user's shell (or a ``.env`` the harness loads) made the
fingerprint describe a library the gates never load: the real library could be rebuilt or replaced and
the cached verdicts of the old one still answered, as the fingerprint did not move. Now the probe starts
from ``sandbox.base_environment``, the environment the gates start from.

Measured against the code before the fix: with ``COQLIB`` pointing at an empty folder, ``coq_library``
named that folder and the sandboxed ``coqc`` loaded another (2 of 2 tests failing); after, both name the
library the sandboxed ``coqc`` loads (2 of 2 passing).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq import toolchain
from putnam_solver.core.sandbox import fresh_copy, run_sandboxed, sandbox_status
from putnam_solver.core.verify import VerifyOptions
from tests.helpers import needs_coq


@pytest.fixture
def fresh_probes() -> Iterator[None]:
    toolchain._probed_line.cache_clear()
    yield
    toolchain._probed_line.cache_clear()


@needs_coq
@pytest.mark.usefixtures("fresh_probes")
def test_a_coqlib_in_the_harness_environment_does_not_move_the_probed_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    coqc = toolchain.find_tool(toolchain.COQC, VerifyOptions())
    honest_library = toolchain.coq_library(coqc)
    honest_fingerprint = toolchain.toolchain_fingerprint(VerifyOptions())
    toolchain._probed_line.cache_clear()
    decoy = tmp_path / "decoy-coqlib"
    decoy.mkdir()
    monkeypatch.setenv("COQLIB", str(decoy))
    assert honest_library is not None and honest_library != decoy
    assert toolchain.coq_library(coqc) == honest_library
    assert toolchain.toolchain_fingerprint(VerifyOptions()) == honest_fingerprint


@needs_coq
@pytest.mark.usefixtures("fresh_probes")
def test_the_probed_library_is_the_one_the_sandboxed_coqc_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COQLIB", str(tmp_path))
    coqc = toolchain.find_tool(toolchain.COQC, VerifyOptions())
    ran = run_sandboxed(
        [str(coqc.path), "-where"],
        workdir=fresh_copy({}, tmp_path / "runs"),
        readonly=toolchain.sandbox_paths(coqc),
        unsafe_no_sandbox=not sandbox_status()[0],
    )
    assert ran.ok, ran.stderr
    assert Path(ran.stdout.strip()) == toolchain.coq_library(coqc)
