"""A ``coqc`` replaced in place while the gates judge: how the tests simulate a toolchain changing between the
fingerprint read before a verdict and the one read after (an upgrade, a rebuilt package, a swapped binary).

The gates run a copy of the installed ``coqc`` (``--tool coqc=COPY``) that has a passed selftest record of its
own (:func:`selftested_copy`); :class:`SwappedDuring` is a gate backend that replaces that copy as a chosen
verification starts, by a ``coqc`` that judges as before under another fingerprint (:func:`upgraded_coqc`) or
one that rejects the sound sample proof (:func:`broken_coqc`).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Verdict, VerifyOptions
from putnam_solver.verifier import dispatch
from tests.helpers import ROCQ_SAMPLES, SANDBOX_AVAILABLE

if TYPE_CHECKING:
    from putnam_solver.serve import ServeConfig

NEEDS_COQ = pytest.mark.skipif(
    shutil.which("coqc") is None or shutil.which("coqchk") is None or not SANDBOX_AVAILABLE,
    reason="needs coqc, coqchk and the sandbox",
)

PROBLEM = "sample_even_square"
GOOD = (ROCQ_SAMPLES.parent / "proofs" / f"{PROBLEM}.v").read_bytes()


def installed_coqc() -> Path:
    found = shutil.which("coqc")
    assert found is not None
    return Path(found).resolve()


def replace(tool: Path, data: bytes) -> None:
    """``tool`` replaced in place by a new file holding ``data``, as a package upgrade does."""
    scratch = tool.with_name(f".{tool.name}.new")
    scratch.write_bytes(data)
    scratch.chmod(0o755)
    os.replace(scratch, tool)


def broken_coqc() -> bytes:
    """A ``coqc`` that reads no prelude: the sound sample proof fails to compile (a G4 rejection)."""
    return f'#!/bin/sh\nexec {installed_coqc()} -noinit "$@"\n'.encode()


def upgraded_coqc() -> bytes:
    """A ``coqc`` that runs the installed one (an upgrade in place): it judges as before, under another fingerprint."""
    return f'#!/bin/sh\nexec {installed_coqc()} "$@"\n'.encode()


def selftested_copy(directory: Path) -> Path:
    """A copy of the installed ``coqc`` in ``directory``, with a passed selftest record of its own (the installed
    one's, found in the cache ``PUTNAM_CACHE_DIR`` names, under the copy's fingerprint)."""
    directory.mkdir()
    copy = directory / "coqc"
    shutil.copy2(installed_coqc(), copy)
    _passed_record(copy)
    return copy


def selftested_as(coqc: Path, data: bytes) -> None:
    """A passed selftest record for ``coqc`` as it will be once replaced by ``data`` (an upgrade whose selftest
    has passed); ``coqc`` is left as it was."""
    before = coqc.read_bytes()
    replace(coqc, data)
    _passed_record(coqc)
    replace(coqc, before)


def _passed_record(coqc: Path) -> None:
    from putnam_solver.selftest.record import last_record, write_record

    real = last_record("rocq", VerifyOptions())
    assert real is not None and real.passed
    options = VerifyOptions(tools={"coqc": coqc})
    write_record(dataclasses.replace(real, fingerprint=get_prover("rocq").toolchain_fingerprint(options)), options)


class SwappedDuring:
    """The local gates, with ``coqc`` replaced by ``data`` once, as the ``at``-th verification (from 1) starts:
    after it was asked for (its fingerprint and cache key read) and before the gates run it."""

    name = "local"

    def __init__(self, coqc: Path, data: bytes, at: int = 1) -> None:
        self.coqc, self.data, self.at, self.calls = coqc, data, at, 0
        self.lock = threading.Lock()

    def slots(self) -> int:
        return 1

    def verify(self, *args: Any) -> Verdict:
        with self.lock:
            self.calls += 1
            if self.calls == self.at:
                replace(self.coqc, self.data)
        return dispatch.LOCAL.verify(*args)


def serve_config(coqc: Path, directory: Path, key: str, limit: int) -> ServeConfig:
    """A ``putnam serve`` configuration on ``coqc`` (the Rocq samples, a verdict cache in ``directory``, no
    selftest run by the server: ``coqc`` has its record) with one API key that runs ``limit`` at a time."""
    from putnam_solver.core.benchmark import load_benchmark
    from putnam_solver.core.cache import VerdictCache
    from putnam_solver.serve import ServeConfig, load_keys

    (directory / "keys").write_text(f"tests {key} {limit}\n")
    (directory / "keys").chmod(0o600)  # the keys file is this account's alone
    return ServeConfig(
        keys=load_keys(directory / "keys"),
        benchmarks={"rocq": load_benchmark(ROCQ_SAMPLES)},
        options=VerifyOptions(tools={"coqc": coqc}),
        cache=VerdictCache(directory / "verdicts"),
        run_selftest=False,
    )
