"""Red team round 20 of the trust paths: tools and libraries changed and put back under a verification.

Every attack runs for real: real coqc and coqchk in the sandbox, a real ``coqc`` file replaced in place
and put back (``tests.fakes.swapped_coqc``), the real verdict cache, a real ``putnam serve`` on a loopback
port, a Coq library directory with a plugin package beside it.

Holes, and what closes each:

- A tool replaced and put back within one verification (A, B, A): the toolchain's fingerprint holds each
  tool's SHA-256, read before the gates and again after (``verifier.one_toolchain``), and both readings
  were A's, so ``putnam verify`` (with or without a cache), ``putnam serve`` and ``putnam mcp`` kept, and
  stored under A's key, an acceptance B's compile made. Now the gates run inside a
  ``gatekit.watched_tool_files`` block, and a tool file hashed in two states that show it written or
  replaced (another inode, a new modification time, a change time that did not move with the link count)
  turns an acceptance into an ``error`` that is not stored, as a changed fingerprint does.
- The same within one ``submit`` of ``putnam solve`` (``run/agent/toolchain_guard.py``): the fingerprint
  after the gates matched the one the run started on, so the acceptance counted; the guard now holds the
  verdict to the same block.
- The same through a symbolic link (``--tool coqc=LINK``, an alternatives system): the link pointed at B
  while the gates ran and at A again left A's file in every state it had, so the first fix alone still
  accepted. Now the states are also kept under the name a tool was found by, which then shows two files.
- coqc's native plugins (``ring``, ``micromega``, ``ltac``, ``ssreflect``: ``.cmxs`` files of ``coq-core``
  beside the library, ``COQCORELIB``; ``coq-elpi`` for Hierarchy Builder) were outside the library's state:
  a plugin rebuilt or replaced kept the fingerprint, the verdict cache's key and the selftest's record.
  Now the ``.cmxs`` and ``META`` files of the ``coq-*``/``rocq-*`` packages beside the library are in it.
- A relative ``PUTNAM_CLAUDE_CODE`` (``node_modules/.bin/claude``, the local npm install the variable is
  for) named the ``claude`` under the working directory, put first on PATH and run as the agent, outside
  any sandbox; round 19 refused relative path variables of the gates, not this one. Now it is refused too.

Measured against the code before the fixes: 6 of 6 attack tests through (the in-place swap through
``verify`` and through ``serve``, the link swap, the plugin replaced, the relative ``PUTNAM_CLAUDE_CODE``;
the ``solve`` guard's test fails there on the new argument, while its old rule compared only the equal
fingerprints); after, 6 of 6 refused. Honest twins (7 tests) pass after, and before where they exist.

Assessed, left as it is:

- A Coq library file (or a Lean ``.olean``) rewritten with its size and modification time set back keeps
  the library's state. Inode and change time would show it (tried this round), but a cluster's nodes
  must agree on the state with the head, and two machines' copies of one install differ in both; a hash of
  the bytes was measured at 0.24 to 0.46 s per process for the 224 MB Coq library (every Rocq verification
  reads the state) and is out of reach for Mathlib's gigabytes. Writing the installed library needs the
  account that owns the toolchain, which the threat model trusts.
- Deleting the newest own audit row of a ledger (round 19's note stands): it reads as the ledger copied
  back from before that audit; binding it needs a record outside the run directory, in this account's
  configuration, which this round did not build.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.gatekit import watched_tool_files
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.toolchain import library_state
from putnam_solver.core.verify import Track, Verdict, VerifyOptions
from putnam_solver.run.agent import cli_worker
from putnam_solver.run.agent.toolchain_guard import on_selftested_toolchain
from putnam_solver.verifier import dispatch
from putnam_solver.verifier.candidates import Candidate, verify_candidates
from tests.fakes.swapped_coqc import GOOD, NEEDS_COQ, PROBLEM, replace, serve_config, upgraded_coqc
from tests.helpers import ROCQ_SAMPLES
from tests.serve_server import in_process

KEY = "redteam20-key-0123456789abcdef"


class SwappedAndBack:
    """The local gates run with ``coqc`` replaced by ``data`` (B) and put back (A, the same bytes, the old
    modification time) before the verification ends: the readings before and after both see A."""

    name = "local"

    def __init__(self, coqc: Path, data: bytes | None) -> None:
        self.coqc, self.data = coqc, data

    def slots(self) -> int:
        return 1

    def verify(self, *args: Any) -> Verdict:
        if self.data is None:
            return dispatch.LOCAL.verify(*args)
        good, info = self.coqc.read_bytes(), self.coqc.stat()
        replace(self.coqc, self.data)
        try:
            return dispatch.LOCAL.verify(*args)
        finally:
            time.sleep(0.02)  # the file times move by the kernel's clock tick
            replace(self.coqc, good)
            os.utime(self.coqc, ns=(info.st_atime_ns, info.st_mtime_ns))


class RelinkedAndBack(SwappedAndBack):
    """``coqc`` named by a symbolic link (an alternatives system) pointed at B while the gates run and at A
    again before the verification ends: A itself is never touched."""

    def verify(self, *args: Any) -> Verdict:
        target = os.readlink(self.coqc)
        other = self.coqc.with_name("coqc-b")
        other.write_bytes(upgraded_coqc())
        other.chmod(0o755)
        _relink(self.coqc, other.name)
        try:
            return dispatch.LOCAL.verify(*args)
        finally:
            _relink(self.coqc, target)


def _relink(link: Path, target: str) -> None:
    scratch = link.with_name(".link.new")
    scratch.symlink_to(target)
    os.replace(scratch, link)


class HardLinkedMeanwhile(SwappedAndBack):
    """An honest change beside the gates: a hard link to ``coqc`` made while they run (a package
    manager's backup), which leaves the file as it was."""

    def verify(self, *args: Any) -> Verdict:
        verdict = dispatch.LOCAL.verify(*args)
        time.sleep(0.02)
        os.link(self.coqc, self.coqc.with_name("coqc.backup"))
        return verdict


def judged(coqc: Path, tmp_path: Path, verifier: Any, cache: VerdictCache | None = None) -> Verdict:
    bench = load_benchmark(ROCQ_SAMPLES)
    candidate = Candidate(tmp_path / f"{PROBLEM}.v", bench.problems[PROBLEM], GOOD)
    options = VerifyOptions(tools={"coqc": coqc})
    (verdict,) = verify_candidates(
        [candidate], get_prover("rocq"), bench, Track.WITH_ANSWER, options, cache=cache, verifier=verifier
    )
    return verdict


@NEEDS_COQ
def test_verify_an_acceptance_made_on_a_tool_put_back_is_an_error(coqc: Path, tmp_path: Path) -> None:
    """Before: ``accepted``, and stored under A's key, though B compiled the candidate."""
    cache = VerdictCache(tmp_path / "verdicts")
    verdict = judged(coqc, tmp_path, SwappedAndBack(coqc, upgraded_coqc()), cache)
    assert verdict.status == "error", verdict.gates
    problem = verdict.first_problem()
    assert problem is not None and f"{coqc} written or replaced" in problem.detail, problem
    again = judged(coqc, tmp_path, dispatch.LOCAL, cache)  # nothing was stored: judged again, on A
    assert again.accepted and not again.cached, again.gates


@NEEDS_COQ
def test_verify_an_acceptance_made_through_a_link_pointed_away_and_back_is_an_error(coqc: Path, tmp_path: Path) -> None:
    """Before the name was watched too: ``accepted``, though B compiled the candidate (A's file kept every
    state it had)."""
    link = coqc.with_name("coqc-link")
    link.symlink_to(coqc.name)
    verdict = judged(link, tmp_path, RelinkedAndBack(link, None))
    assert verdict.status == "error", verdict.gates
    problem = verdict.first_problem()
    assert problem is not None and f"{link} written or replaced" in problem.detail, problem


@pytest.mark.slow
@NEEDS_COQ
def test_honest_a_tool_named_by_a_link_left_alone_is_accepted(coqc: Path, tmp_path: Path) -> None:
    link = coqc.with_name("coqc-link")
    link.symlink_to(coqc.name)
    assert judged(link, tmp_path, SwappedAndBack(link, None)).accepted


@NEEDS_COQ
def test_honest_a_hard_link_made_while_the_gates_run_keeps_the_acceptance(coqc: Path, tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path / "verdicts")
    verdict = judged(coqc, tmp_path, HardLinkedMeanwhile(coqc, None), cache)
    assert verdict.accepted, verdict.gates
    assert judged(coqc, tmp_path, dispatch.LOCAL, cache).cached


def _guarded(coqc: Path, tmp_path: Path, change: Any) -> Verdict:
    """What ``putnam solve``'s ``submit`` does after the gates (``toolchain_guard``): an acceptance made on
    the started toolchain, held to it inside the block the gates ran in, with ``change`` done meanwhile."""
    options = VerifyOptions(tools={"coqc": coqc})
    rocq = get_prover("rocq")
    started_on = rocq.toolchain_fingerprint(options)
    with watched_tool_files() as watch:
        made = judged(coqc, tmp_path, dispatch.LOCAL)
        assert made.accepted, made.gates
        change()
        return on_selftested_toolchain(rocq, options, started_on, made, watch)


@NEEDS_COQ
def test_solve_an_acceptance_made_on_a_tool_put_back_is_an_error(coqc: Path, tmp_path: Path) -> None:
    """``coqc`` replaced and put back while a submission was judged. Before: the fingerprint after matched
    the one the run started on, and the acceptance counted."""
    good, info = coqc.read_bytes(), coqc.stat()

    def swap_and_back() -> None:
        time.sleep(0.02)
        replace(coqc, upgraded_coqc())
        get_prover("rocq").toolchain_fingerprint(VerifyOptions(tools={"coqc": coqc}))  # as a gate resolves it
        replace(coqc, good)
        os.utime(coqc, ns=(info.st_atime_ns, info.st_mtime_ns))

    verdict = _guarded(coqc, tmp_path, swap_and_back)
    assert verdict.status == "error", verdict.gates
    problem = verdict.first_problem()
    assert problem is not None and f"{coqc} written or replaced" in problem.detail, problem


@pytest.mark.slow
@NEEDS_COQ
def test_honest_solve_an_acceptance_on_a_tool_left_alone_counts(coqc: Path, tmp_path: Path) -> None:
    assert _guarded(coqc, tmp_path, lambda: None).accepted


@pytest.fixture
def serve(coqc: Path, tmp_path: Path) -> Iterator[Any]:
    """Starts the real server on ``coqc`` with a gate backend; returns its URL."""
    pytest.importorskip("uvicorn")
    from putnam_solver.serve import PoolVerifier

    config = serve_config(coqc, tmp_path, KEY, 1)
    with contextlib.ExitStack() as servers:
        yield lambda backend: servers.enter_context(in_process(config, PoolVerifier(1, backend)))


def _served(url: str) -> str:
    body = {"items": [{"problem": PROBLEM, "prover": "rocq", "candidate": GOOD.decode()}]}
    response = httpx.post(f"{url}/verify/batch", json=body, headers={"Authorization": f"Bearer {KEY}"}, timeout=600)
    assert response.status_code == 200, response.text
    (result,) = response.json()["results"]
    return str(result["status"])


@NEEDS_COQ
def test_serve_an_acceptance_made_on_a_tool_put_back_is_an_error(serve: Any, coqc: Path) -> None:
    """Before: ``accepted`` (and cached for A)."""
    assert _served(serve(SwappedAndBack(coqc, upgraded_coqc()))) == "error"


@pytest.mark.slow
@NEEDS_COQ
def test_honest_serve_accepts_on_a_tool_left_alone(serve: Any, coqc: Path) -> None:
    assert _served(serve(SwappedAndBack(coqc, None))) == "accepted"


# ------------------------------------------------------------------------------------------------------
# The Coq library's state


def _library(tmp_path: Path) -> tuple[Path, Path]:
    library = tmp_path / "coq"
    (library / "theories" / "Init").mkdir(parents=True)
    vo = library / "theories" / "Init" / "Logic.vo"
    vo.write_bytes(b"A" * 64)
    return library, vo


def _plugin(library: Path, package: str) -> Path:
    plugin = library.parent / package / "plugins" / "ring" / "ring_plugin.cmxs"
    plugin.parent.mkdir(parents=True)
    plugin.write_bytes(b"A" * 64)
    return plugin


def test_a_coq_plugin_replaced_beside_the_library_changes_the_state(tmp_path: Path) -> None:
    """coqc loads ``ring_plugin.cmxs`` (native code) from ``coq-core`` beside its library (``COQCORELIB``).
    Before: the plugin package was outside the state, so a plugin replaced kept the fingerprint, the verdict
    cache's key and the selftest's record."""
    library, _ = _library(tmp_path)
    plugin = _plugin(library, "coq-core")
    before = library_state(library)
    time.sleep(0.02)  # the file times move by the kernel's clock tick
    other = tmp_path / "other.cmxs"
    other.write_bytes(b"B" * 64)
    os.replace(other, plugin)
    assert library_state(library) != before


def test_honest_other_ocaml_packages_and_a_plugins_sources_leave_the_state(tmp_path: Path) -> None:
    """An OCaml package that is no Coq plugin, and a plugin's interface files (read by builds against it,
    not by coqc), change nothing coqc runs: caches keep their verdicts."""
    library, _ = _library(tmp_path)
    plugin = _plugin(library, "coq-core")
    before = library_state(library)
    (library.parent / "zarith").mkdir()
    (library.parent / "zarith" / "zarith.cmxs").write_bytes(b"Z")
    (plugin.parent / "ring_plugin.cmi").write_bytes(b"I")
    assert library_state(library) == before


def test_honest_a_library_read_and_left_alone_keeps_its_state(tmp_path: Path) -> None:
    library, vo = _library(tmp_path)
    before = library_state(library)
    vo.read_bytes()
    assert library_state(library) == before


# ------------------------------------------------------------------------------------------------------
# The Claude Code binary a relative variable names


def _planted_claude(folder: Path) -> Path:
    binary = folder / "node_modules" / ".bin" / "claude"
    binary.parent.mkdir(parents=True)
    binary.write_text("#!/bin/sh\ntouch RAN\n")
    binary.chmod(0o755)
    return binary


def test_a_relative_claude_code_variable_does_not_name_the_folders_binary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``PUTNAM_CLAUDE_CODE=node_modules/.bin/claude`` (what a local npm install in one's own project gives),
    run from a folder that has its own. Before: the folder's ``claude`` was put first on PATH, to run as the
    agent outside any sandbox."""
    _planted_claude(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", os.environ["PATH"])  # restored after, whatever the code under test sets
    monkeypatch.setenv("PUTNAM_CLAUDE_CODE", "node_modules/.bin/claude")
    with pytest.raises(RuntimeError, match=r"PUTNAM_CLAUDE_CODE=node_modules/\.bin/claude is a relative path"):
        cli_worker.cli_binary("claude-code")
    assert str(tmp_path) not in os.environ["PATH"]


def test_honest_an_absolute_claude_code_variable_is_the_users_choice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    binary = _planted_claude(tmp_path)
    monkeypatch.setenv("PATH", os.environ["PATH"])
    monkeypatch.setenv("PUTNAM_CLAUDE_CODE", str(binary))
    assert cli_worker.cli_binary("claude-code") == binary
    assert os.environ["PATH"].split(os.pathsep)[0] == str(binary.parent)
