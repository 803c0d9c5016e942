"""Red team round 19 of the trust paths: what the harness took from the directory it runs in, from its
environment, and from tools and ledger rows that changed under it.

Every attack runs for real where it can: ``python -m putnam_solver`` and ``putnam verify`` in processes of
their own from a folder of someone else's proofs, real coqc and coqchk in the sandbox, a Lean stand-in
probed in the sandbox, the selftest's record written through its own code, a ledger written by putnam and
edited with plain sqlite3.

Holes, and what closes each:

- ``python -m putnam_solver`` puts the working directory first on the path (the ``putnam`` console script
  does not), and the package's ``__init__`` imported the gates with it there: a ``json.py`` in the proof
  folder ran inside the harness. Now the package drops that entry before it imports anything when Python
  locates it for ``-m`` (a ``PYTHONPATH`` the user set stays).
- Path variables read relative to the working directory: a relative ``PUTNAM_COQC`` (or ``PUTNAM_LEAN``,
  ``PUTNAM_COQCHK``) named the proof folder's own ``coqc``, which, as a wrapper compiling a sound proof in
  place of the candidate, made ``putnam verify`` accept on the full profile a proof coqc rejects; a
  relative ``PUTNAM_CACHE_DIR`` (or ``PUTNAM_TOOLCHAIN_DIR``) made the folder's own verdict cache (or
  toolchain) the one read; a relative ``LEAN_PATH`` entry made the folder's directory the library the
  gates' `lean` loaded (and exposed). Now a relative path variable is refused, naming itself, and relative
  ``LEAN_PATH`` entries are dropped as ``PATH``'s are. ``COQPATH``, ``OCAMLPATH``, ``ROCQPATH`` and
  ``LEAN_SRC_PATH`` never reach a gate: the sandbox starts from its own minimal environment
  (``sandbox.base_environment``), checked here with coqc.
- A ``coqc`` replaced and put back while the selftest ran (A, B, A): the fingerprint before and after
  matched, and the record vouched for A though canaries ran on B. Now every state (device, inode, size,
  modification and change time, link count) a tool file is hashed in during the selftest is kept, and a
  file written or replaced meanwhile keeps no record: a file put back has a new modification time, change
  time or inode.
- A ``.env`` in (or above) the working directory of ``putnam solve``: Inspect loads it as the evaluation
  starts, after the toolchain was chosen and selftested, so a folder's ``.env`` naming its own ``coqc``
  (``PUTNAM_COQC``) or cache (``XDG_CACHE_HOME``) chose what judged the run's candidates from then on. Now
  a solve (and the ``inspect eval`` tasks) refuses to start under a ``.env`` naming any variable that
  chooses what the gates run or read (``run/dotenv_check.py``); model settings stay Inspect's to read.
- Which own audit of an attempt is the newest was read by the row's id, which no seal binds: an older
  acceptance renumbered above a newer rejection made the refused pass count as audited. Now newest is by
  the sealed time, a rejection winning a tie.

Measured against the code before the fixes: 9 of 9 attack tests through (the planted module run by
``python -m``, the folder's ``coqc`` by a relative ``PUTNAM_COQC`` accepting a proof coqc rejects, the
folder's verdict cache, a relative toolchain directory, the folder's ``LEAN_PATH`` library, the record
kept for A, B, A with and without canaries, the solve under the folder's ``.env``, the renumbered
acceptance counted); after, 9 of 9 refused. Honest twins (6 tests) pass after; 5 of them before too (the
sixth calls the new ``.env`` check, which did not exist). Two more pin the rule for a tool file's states
(``gatekit.watched_tool_files``, new): a file written back with its modification time set back is seen; a
hard link made elsewhere (which moves the change time with the link count) is not a change, as the toy
Lean's shared library, hard-linked by every test worker's build, showed (the first rule refused records
under ``-n 2``).

Assessed, left as it is: deleting the newest own audit row (a rejection) of a ledger makes the audit before
it the newest. No seal or chain inside the run directory can show a row removed from its end (a hash chain
shows a row removed from the middle, which never changes which audit is newest); it reads as the ledger
copied back from before that audit, as ``ledger_seals`` says. A ledger handed over from another account has
no audit this account counts at all: ``putnam audit`` re-verifies every pass.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.gatekit import file_sha256, watched_tool_files
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.lean import toolchain as lean_toolchain
from putnam_solver.core.sandbox import run_sandboxed
from putnam_solver.core.selftest_record import stored_record
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Track, VerifyOptions, run_gates
from putnam_solver.run import ledger_rows
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
from putnam_solver.selftest import runner as selftest_runner
from tests.adversarial.test_sandbox_containment import fake_tool
from tests.adversarial.test_trust_paths_redteam18 import (
    ADMITTED,
    FAITHFUL,
    HONEST,
    NOT_COMPILING,
    PID,
    PROBLEM,
    WRAPPER,
    _at,
    _Clock,
    _passed,
    _wrapped_folder,
    named_coqc,
)
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import LEAN_BENCH, REPO, ROCQ_SAMPLES, sql

PLANTED = """import os, sys
_here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(_here, "RAN"), "a") as _note:
    _note.write(__name__ + "\\n")
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
del sys.modules[__name__]
import importlib
sys.modules[__name__] = importlib.import_module(__name__)
"""
"""Planted in the proof folder under a module's name: notes that it ran in the harness, then hands over the
real module (what a forger would wrap, as round 18's ``pickle.py`` did)."""


def _module_run(folder: Path, cache: Path, *args: str, **env: str) -> tuple[int, str]:
    """``python -m putnam_solver ARGS`` from ``folder``, this checkout's sources on ``PYTHONPATH``."""
    full = {**os.environ, "PYTHONPATH": str(REPO / "src"), "PUTNAM_CACHE_DIR": str(cache), **env}
    done = subprocess.run(
        [sys.executable, "-m", "putnam_solver", *args],
        cwd=folder,
        env=full,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.returncode, done.stdout + done.stderr


def _planted(base: Path, candidate: str) -> Path:
    folder = base / "proofs"
    folder.mkdir()
    for name in ("json", "typer", "enum"):
        (folder / f"{name}.py").write_text(PLANTED)
    (folder / f"{PROBLEM}.v").write_text(candidate)
    return folder


VERIFY_TEXT = ("verify", f"{PROBLEM}.v", "--benchmark", str(ROCQ_SAMPLES), "--gates", "text")


def test_python_dash_m_does_not_import_the_working_directorys_modules(tmp_path: Path) -> None:
    """Before: the folder's ``json.py`` ran in the harness (here it only notes it; round 18's forger showed
    what such a module does to the text gates' verdict)."""
    folder = _planted(tmp_path, ADMITTED)
    code, output = _module_run(folder, tmp_path / "cache", *VERIFY_TEXT)
    assert code == 1 and "REJECTED" in output, output
    assert not (folder / "RAN").exists(), (folder / "RAN").read_text()


def test_honest_python_dash_m_beside_the_modules_and_from_the_sources(tmp_path: Path) -> None:
    """A sound proof beside the planted modules is accepted; started from the source folder itself, the
    package and its modules are still found (through the package, not the working directory)."""
    folder = _planted(tmp_path, HONEST)
    code, output = _module_run(folder, tmp_path / "cache", *VERIFY_TEXT)
    assert code == 0 and "ACCEPTED" in output, output
    full = {**os.environ, "PUTNAM_CACHE_DIR": str(tmp_path / "cache2")}
    full.pop("PYTHONPATH", None)
    done = subprocess.run(
        [sys.executable, "-m", "putnam_solver", *VERIFY_TEXT[:1], str(folder / f"{PROBLEM}.v"), *VERIFY_TEXT[2:]],
        cwd=REPO / "src",
        env=full,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0 and "ACCEPTED" in done.stdout, done.stdout + done.stderr


# ------------------------------------------------------------------------------------------------------
# Path variables relative to the working directory


def _verify(folder: Path, *args: str, **env: str) -> tuple[int, str]:
    """``putnam verify`` of the folder's candidate from the folder, as the console script runs (``-P``)."""
    full = {**os.environ, "PYTHONPATH": str(REPO / "src"), **env}
    argv = [sys.executable, "-P", "-m", "putnam_solver", "verify", f"{PROBLEM}.v", "--benchmark", str(ROCQ_SAMPLES)]
    done = subprocess.run([*argv, *args], cwd=folder, env=full, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


@NEEDS_ROCQ
def test_a_relative_tool_variable_does_not_name_the_folders_coqc(tmp_path: Path) -> None:
    """``PUTNAM_COQC=coqc`` (a shell profile meaning the one on PATH). Before: the folder's wrapper judged,
    and a proof coqc rejects was ``ACCEPTED`` on the full profile."""
    folder = _wrapped_folder(tmp_path, NOT_COMPILING)
    code, output = _verify(folder, PUTNAM_CACHE_DIR=str(tmp_path / "cache"), PUTNAM_COQC="coqc")
    assert code != 0 and "ACCEPTED" not in output, output
    assert "PUTNAM_COQC=coqc is a relative path" in output


@NEEDS_ROCQ
def test_honest_an_absolute_tool_variable_is_the_users_choice(tmp_path: Path) -> None:
    folder = _wrapped_folder(tmp_path, HONEST)
    code, output = _verify(folder, PUTNAM_CACHE_DIR=str(tmp_path / "cache"), PUTNAM_COQC=str(folder / "coqc"))
    assert code == 0 and "ACCEPTED" in output, output


def test_a_relative_cache_directory_is_not_the_folders(tmp_path: Path) -> None:
    """``PUTNAM_CACHE_DIR=.putnam-cache``. Before: the verdict cache read and written was the proof folder's
    own, which its author fills (an entry there is taken as this user's: the folder's files are theirs once
    unpacked)."""
    folder = _planted(tmp_path, ADMITTED)
    code, output = _verify(folder, "--gates", "text", PUTNAM_CACHE_DIR=".putnam-cache")
    assert code == 2, output
    assert "PUTNAM_CACHE_DIR=.putnam-cache is a relative path" in output
    assert not (folder / ".putnam-cache").exists()


def test_a_relative_toolchain_directory_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``PUTNAM_TOOLCHAIN_DIR=toolchain``. Before: the bootstrapped `lake` and `lean` looked for were the
    working directory's."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", "toolchain")
    with pytest.raises(InputError, match="PUTNAM_TOOLCHAIN_DIR=toolchain is a relative path"):
        lean_toolchain.toolchain_root()
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(tmp_path / "toolchain"))
    assert lean_toolchain.toolchain_root() == tmp_path / "toolchain"


def test_relative_lean_path_entries_are_not_the_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``LEAN_PATH=lib:...`` (or an empty entry: ``LEAN_PATH=$UNSET:...``) with the user's `lean`. Before:
    the proof folder's ``lib`` (holding its own ``Init.olean``) was the library the gates' `lean` loaded,
    exposed in the sandbox and hashed into the fingerprint."""
    lean = fake_tool(tmp_path / "toolchain" / "bin", "lean", "exit 0")
    library = tmp_path / "library"
    library.mkdir()
    folder = tmp_path / "proofs"
    (folder / "lib").mkdir(parents=True)
    (folder / "lib" / "Init.olean").write_bytes(b"planted")
    monkeypatch.chdir(folder)
    monkeypatch.setenv("LEAN_PATH", os.pathsep.join(["lib", "", str(library)]))
    command = lean_toolchain.find_lean(VerifyOptions(tools={"lean": lean}))
    assert command.env["LEAN_PATH"] == str(library.resolve())
    assert not any(folder in (p, *p.parents) for p in command.readonly)


def test_search_path_variables_do_not_reach_a_sandboxed_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``COQPATH`` and friends set in the harness (a shell, a ``.env``) naming the working directory: a
    sandboxed tool sees none of them (the honest case: it never did; kept so that it stays so)."""
    names = ("COQPATH", "ROCQPATH", "OCAMLPATH", "COQLIB", "LEAN_SRC_PATH", "LEAN_PATH", "PYTHONPATH")
    for name in names:
        monkeypatch.setenv(name, ".")
    ran = run_sandboxed(["/usr/bin/env"], workdir=tmp_path)
    seen = {line.split("=", 1)[0] for line in ran.stdout.splitlines()}
    assert ran.exit_code == 0 and seen and not seen & set(names), seen


# ------------------------------------------------------------------------------------------------------
# A tool replaced and put back while the selftest ran (A, B, A)


def _selftest_aba(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, swap: bool, canaries: bool) -> VerifyOptions:
    """The Rocq selftest on a ``coqc`` the user names (a faithful wrapper, A); ``swap``: the planting wrapper
    (B) is written in its place before the canaries and A written back after them."""
    tool, coqc, options = named_coqc(tmp_path, monkeypatch)
    real = selftest_runner.run_suites

    def swapped(*args: Any, **kwargs: Any) -> Any:
        if swap:
            tool.write_text(WRAPPER.replace("{coqc}", coqc))
        try:
            return real(*args, **kwargs) if canaries else []
        finally:
            if swap:
                tool.write_text(FAITHFUL.replace("{coqc}", coqc))

    monkeypatch.setattr(selftest_runner, "run_suites", swapped)
    with contextlib.suppress(InputError):
        selftest_runner.run_selftest("rocq", options, jobs=2)
    return options


@NEEDS_ROCQ
@pytest.mark.parametrize("canaries", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_no_selftest_record_for_a_coqc_replaced_and_put_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, canaries: bool
) -> None:
    """Before: a record under A's fingerprint, whose canaries ran on B (left out in CI, to keep it short)."""
    options = _selftest_aba(tmp_path, monkeypatch, swap=True, canaries=canaries)
    assert stored_record("rocq", options) is None


@NEEDS_ROCQ
@pytest.mark.slow
def test_honest_a_coqc_left_alone_keeps_its_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    options = _selftest_aba(tmp_path, monkeypatch, swap=False, canaries=True)
    record = stored_record("rocq", options)
    assert record is not None
    bench = load_benchmark(ROCQ_SAMPLES)
    rocq = get_prover("rocq")
    assert not run_gates(
        rocq, bench, bench.problems[PROBLEM], NOT_COMPILING.encode(), Track.WITH_ANSWER, options
    ).accepted


def _hashed_around(tool: Path, change: Any) -> list[str]:
    """The files ``watched_tool_files`` finds changed when ``tool`` is hashed, ``change``d, hashed again (the
    kernel's file times move by its clock tick: the pauses let each step have its own)."""
    with watched_tool_files() as watch:
        file_sha256(tool)
        time.sleep(0.02)
        change()
        time.sleep(0.02)
        file_sha256(tool)
        return watch.rewritten()


def test_a_tool_written_back_with_its_time_set_back_is_seen(tmp_path: Path) -> None:
    """B written in place, A written back and its modification time set back: same bytes, same time."""
    tool = tmp_path / "coqc"
    tool.write_bytes(b"A")
    before = tool.stat()

    def write_back() -> None:
        tool.write_bytes(b"B")
        tool.write_bytes(b"A")
        os.utime(tool, ns=(before.st_atime_ns, before.st_mtime_ns))

    assert _hashed_around(tool, write_back) == [str(tool)]


def test_honest_a_hard_link_made_elsewhere_leaves_the_tool_as_it_was(tmp_path: Path) -> None:
    """What a package manager's backup or another copy of the toolchain (a hard link) does to the file."""
    tool = tmp_path / "coqc"
    tool.write_bytes(b"A")
    assert _hashed_around(tool, lambda: os.link(tool, tmp_path / "copy")) == []


# ------------------------------------------------------------------------------------------------------
# Which own audit is the newest


@pytest.fixture
def audited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Ledger:
    """A ledger with one pass, audited as accepted at 12:10 and as rejected at 12:20 (a newer toolchain or
    gate code refused it), both by this account."""
    pytest.importorskip("inspect_ai")
    if not LEAN_BENCH.is_file():
        pytest.skip(f"{LEAN_BENCH} is missing")
    monkeypatch.setattr(ledger_rows, "datetime", _Clock)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    ledger = Ledger.open(tmp_path / LEDGER_NAME)
    _at(12, 0)
    ledger.start_campaign(1, [PID], fresh=False, samples=1)
    _at(12, 5)
    (attempt,) = ledger.record_attempts(1, [_passed()])
    assert attempt.verdict is not None
    accepted = dict(attempt.verdict)
    _at(12, 10)
    ledger.record_audit(attempt.id, accepted, "toolchain A", "b", False)
    _at(12, 20)
    ledger.record_audit(attempt.id, {**accepted, "status": "rejected"}, "toolchain B", "b", True)
    return ledger


def test_an_older_acceptance_renumbered_after_a_rejection_does_not_count(audited: Ledger, tmp_path: Path) -> None:
    """Before: the problem read as audited (the acceptance's row id made the largest)."""
    assert audited.audited_problems() == set()
    sql(tmp_path, "UPDATE audits SET id = 99 WHERE status = 'accepted'")
    assert [a.own for a in audited.audits()] == [True, True], "the seal binds no row id"
    assert audited.audited_problems() == set()
    audited.close()


def test_honest_a_newer_acceptance_counts(audited: Ledger, tmp_path: Path) -> None:
    (attempt,) = audited.attempts()
    assert attempt.verdict is not None
    _at(12, 30)
    audited.record_audit(attempt.id, dict(attempt.verdict), "toolchain B", "b", True)
    assert audited.audited_problems() == {PID}
    audited.close()


# ------------------------------------------------------------------------------------------------------
# A `.env` in (or above) the working directory of `putnam solve`

SOLVE = ("--model", "openai-api/fake/fake-model", "--model-base-url", "http://127.0.0.1:9/v1", "--quiet")
"""A solve whose model server nothing answers: a refusal before the model check is the one under test."""


def _dotenv_folder(base: Path, lines: str) -> Path:
    """A folder of someone else's proofs: the planting ``coqc`` wrapper and a ``.env``; the solve starts in
    a folder below it (``find_dotenv`` walks up)."""
    folder = _wrapped_folder(base, NOT_COMPILING)
    (folder / ".env").write_text(lines.format(folder=folder))
    (folder / "work").mkdir()
    return folder


def _solve(folder: Path, base: Path) -> tuple[int, str]:
    full = {**os.environ, "PYTHONPATH": str(REPO / "src"), "PUTNAM_CACHE_DIR": str(base / "cache")}
    full.pop("PUTNAM_COQC", None)
    argv = [sys.executable, "-P", "-m", "putnam_solver", "solve", "--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES)]
    argv += ["--problem", PROBLEM, "--run-dir", str(base / "run"), *SOLVE]
    done = subprocess.run(argv, cwd=folder / "work", env=full, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


PLANTING_DOTENV = "PUTNAM_COQC={folder}/coqc\nXDG_CACHE_HOME={folder}/cache\n"


def test_a_solve_under_a_dotenv_choosing_the_gates_tools_is_refused(tmp_path: Path) -> None:
    """Before: the solve went on; as its evaluation started, Inspect loaded the ``.env`` (shown here as it
    does) and the gates' ``coqc`` was the folder's wrapper, which accepts a proof coqc rejects."""
    pytest.importorskip("inspect_ai")
    folder = _dotenv_folder(tmp_path, PLANTING_DOTENV)
    code, output = _solve(folder, tmp_path)
    assert code == 2, output
    assert f"{folder / '.env'}: this `.env`" in output and "sets PUTNAM_COQC, XDG_CACHE_HOME" in output
    assert not (tmp_path / "run").exists()
    from dotenv import find_dotenv, load_dotenv

    from putnam_solver.core.gatekit import explicit_tool
    from putnam_solver.core.provers.rocq.toolchain import COQC

    saved = dict(os.environ)  # `load_dotenv` sets variables past the monkeypatch: they must not outlive the test
    try:
        with pytest.MonkeyPatch.context() as env:
            env.chdir(folder / "work")
            env.delenv("PUTNAM_COQC", raising=False)
            env.delenv("XDG_CACHE_HOME", raising=False)
            load_dotenv(find_dotenv(usecwd=True))
            assert explicit_tool(COQC, VerifyOptions()) == (folder / "coqc", "PUTNAM_COQC"), "what it would have run"
    finally:
        os.environ.clear()
        os.environ.update(saved)


def test_honest_a_dotenv_of_model_settings_is_inspects_to_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("inspect_ai")
    from putnam_solver.run.dotenv_check import check_dotenv

    folder = _dotenv_folder(tmp_path, "OPENAI_API_KEY=sk-test\nOPENAI_BASE_URL=http://127.0.0.1:9/v1\n")
    monkeypatch.chdir(folder / "work")
    check_dotenv()
    (folder / ".env").unlink()
    check_dotenv()
