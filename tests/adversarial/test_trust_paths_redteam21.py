"""Red team round 21 of the trust paths: a library changed under a long-running verifier.

Every attack runs for real: the library state as the fingerprint reads it (``core.tree_state``), the toy
Lean (a real ``lean``) behind a real ``putnam serve`` on a loopback port with its selftest run for real,
a real ``coqc`` replaced and put back under the real MCP server (in-process client of the MCP SDK).

Holes, and what closes each:

- A Lean module deep in the library (``Mathlib/Algebra/.../X.olean``) replaced, by a rename or in place:
  Lean's listing was remembered while the manifest, the library directories and the ``.olean`` files
  directly in them kept their state, so ``serve`` kept the old digest until a restart; a verdict asked
  for after the swap was answered from the cache under the old key, and one made while the gates ran was
  stored under it. Now one mechanism serves Rocq and Lean (``tree_state``): the listing is remembered while
  every directory (modification and change time: a file created, renamed or deleted) and every kept file
  (size, modification time: a file rewritten in place) keeps its state; ``serve`` then finds a toolchain
  no selftest vouches for (503) after the swap, and an acceptance made across it is an ``error``.
- The other parts of a Lean module (``.olean.server``, ``.olean.private``, ``.ir`` of Lean's module system,
  which `lean` reads as it imports such a module) were in no listing; now they are.
- A library subdirectory that is a symbolic link: ``os.walk`` does not follow it, so its modules were in
  no listing, Coq's or Lean's, though both provers load them; now linked directories are listed, once each.
  Coq's module names (what G2 resolves a partially qualified ``Require`` against) were listed apart, by a
  walk that did not follow a link below a ``user-contrib`` package either; they now come from the same
  listing as the state.
- Lean's ``lake-manifest.json`` rewritten with its size and time set back kept the old digest (it was read
  only when its state moved); it is a few kilobytes, now read at every reading.
- ``putnam mcp`` had no test of a tool replaced and put back during ``verify`` (round 20's fix runs the same
  code as ``serve``); it has one now.

Tried and stopped (no change): ``COQPATH``, ``COQLIB``, ``COQCORELIB`` and ``OCAMLPATH`` in the harness's
environment (the fingerprint and ``coqc -where`` stay: every tool run and probe starts from
``sandbox.base_environment``); relative ``PUTNAM_CACHE_DIR`` and ``PUTNAM_TOOLCHAIN_DIR`` (refused,
``util.path_variable``, red team 19); a verdict cache entry replaced by a link to a file of the attacker's
(no verdict: ``read_regular_file(own=True)``); a candidate in a folder of someone else's proofs that is a
link to a file of this machine (``putnam verify`` answers an input error, never reads it); a ``LEAN_PATH``
entry that is a link pointed at another library (the entries are resolved at every reading, so the root,
and the digest, change).

Measured against the code before the fixes (main): 10 of the 12 attack tests got through (the two that did
not are the Rocq in-place rewrite and a module added with its directory's time set back, kept as guards of
the remembered listing: Rocq listed everything at every reading); after, 0 of 12. The MCP tool swap test
passes on both (new coverage). Honest twins (4 tests) pass before and after. ``bench/library_state.py``
(children alternated with main's, on 2 shared cores): a Rocq reading after the first 7.8 ms against 22.9 ms
(2.9 times cheaper; load average 5, 3 x 15 readings) and 17.9 ms against 48.8 ms (2.7 times; load 12,
5 x 20); Lean on a made-up 8,000-module library 45 ms (load 5) to 100 ms (load 12) a reading, where main's
0.03 ms never looked below the top directory. A Lean verification reads it 4 times on the fast profile
(each gate's ``find_lean``), a cost against the seconds a Mathlib import takes.

Assessed, left as it is: a library file rewritten with its size and modification time set back, or twice
within one tick of the file system's clock, keeps the state (round 20's note: the cluster's nodes must
agree on it; rewriting the installed library needs the trusted account). A kernel notification (inotify)
would make a reading cost microseconds, but is Linux-only, misses changes made by another machine on a
shared file system, and is more code in the trusted package than this round wanted.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.lean.identity import library_digest
from putnam_solver.core.provers.rocq.libraries import installed_modules
from putnam_solver.core.provers.rocq.toolchain import COQC, find_tool, library_state
from putnam_solver.core.verify import Verdict, VerifyOptions
from putnam_solver.verifier import dispatch
from tests.fakes.swapped_coqc import GOOD, NEEDS_COQ, PROBLEM, replace, upgraded_coqc
from tests.helpers import ROCQ_SAMPLES
from tests.serve_server import in_process
from tests.toylean.build import BENCHMARK as LEAN_SAMPLES
from tests.toylean.build import VALID as LEAN_PROOFS
from tests.toylean.build import ToyLean

KEY = "redteam21-key-0123456789abcdef"
TICK = 0.02
"""Longer than the kernel's clock tick, by which file times move."""


def _module(library: Path, name: str, data: bytes = b"A" * 64) -> Path:
    path = library.joinpath(*name.split(".")).with_suffix(".olean")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _rebuilt(path: Path, data: bytes = b"B" * 64) -> None:
    """``path`` replaced by a new file (a rename over it, as Lake and package managers write)."""
    time.sleep(TICK)
    scratch = path.with_name(f".{path.name}.new")
    scratch.write_bytes(data)
    os.replace(scratch, path)


def _rewritten(path: Path) -> None:
    """``path`` rewritten in place with bytes of the same size (its directory keeps its state)."""
    time.sleep(TICK)
    with path.open("r+b") as handle:
        handle.write(b"C" * path.stat().st_size)


def _lean_library(tmp_path: Path) -> tuple[Path, Path]:
    library = tmp_path / "lib"
    _module(library, "Mathlib")
    return library, _module(library, "Mathlib.Algebra.Group.Defs")


def _lean_digest(library: Path) -> str:
    return library_digest([library], library / "lake-manifest.json")


@pytest.mark.parametrize("change", [_rebuilt, _rewritten], ids=["renamed over", "rewritten in place"])
def test_a_lean_module_deep_in_the_library_changed_changes_the_digest(
    tmp_path: Path, change: Callable[[Path], None]
) -> None:
    """Before: the same digest (only the top directory and its ``.olean`` files were watched)."""
    library, deep = _lean_library(tmp_path)
    before = _lean_digest(library)
    change(deep)
    assert _lean_digest(library) != before


@pytest.mark.parametrize("part", [".olean.private", ".olean.server", ".ir"])
def test_another_part_of_a_lean_module_changed_changes_the_digest(tmp_path: Path, part: str) -> None:
    """Before: not listed at all (only ``.olean`` files were)."""
    library, deep = _lean_library(tmp_path)
    other = deep.with_suffix(part)
    other.write_bytes(b"P" * 64)
    before = _lean_digest(library)
    _rewritten(other)
    assert _lean_digest(library) != before


def test_a_module_under_a_linked_library_directory_changed_changes_the_state(tmp_path: Path) -> None:
    """Both provers load modules through a linked directory. Before: not listed (``os.walk`` does not follow
    links), so the Lean digest and the Coq state stayed."""
    elsewhere = tmp_path / "elsewhere"
    deep = _module(elsewhere, "Group.Defs")
    lean, _ = _lean_library(tmp_path)
    (lean / "Mathlib" / "Linked").symlink_to(elsewhere)
    coq = tmp_path / "coq"
    (coq / "user-contrib").mkdir(parents=True)
    (coq / "user-contrib" / "Linked").symlink_to(elsewhere)
    before = _lean_digest(lean), library_state(coq)
    _rewritten(deep)
    assert _lean_digest(lean) != before[0]
    assert library_state(coq) != before[1]


def test_a_coq_module_under_a_linked_directory_is_an_installed_module(tmp_path: Path) -> None:
    """G2 resolves a partially qualified ``Require`` against the modules coqc can load, which include those
    under a linked directory (Coq's ``System.all_subdirs`` follows links). Before: missing from the set, so
    a name such a module made ambiguous was still resolved to the other one."""
    library = tmp_path / "coq"
    (library / "theories" / "Init").mkdir(parents=True)
    (library / "theories" / "Init" / "Logic.vo").write_bytes(b"L")
    (tmp_path / "elsewhere" / "Algebra").mkdir(parents=True)
    (tmp_path / "elsewhere" / "Algebra" / "Ring.vo").write_bytes(b"R")
    (library / "user-contrib" / "mathcomp").mkdir(parents=True)
    (library / "user-contrib" / "mathcomp" / "Linked").symlink_to(tmp_path / "elsewhere")
    coqc = tmp_path / "bin" / "coqc"  # answers ``coqc -where`` as the real one does: the library's directory
    coqc.parent.mkdir()
    coqc.write_text(f"#!/bin/sh\necho {library}\n")
    coqc.chmod(0o755)
    modules = installed_modules(find_tool(COQC, VerifyOptions(tools={"coqc": coqc})))
    assert modules == {"Coq.Init.Logic", "mathcomp.Linked.Algebra.Ring"}


def test_a_lean_manifest_rewritten_with_its_time_set_back_changes_the_digest(tmp_path: Path) -> None:
    """Before: the same digest (the manifest was read only when its size or time moved)."""
    library, _ = _lean_library(tmp_path)
    manifest = library / "lake-manifest.json"
    manifest.write_text('{"rev": "aaaa"}')
    before, info = _lean_digest(library), manifest.stat()
    manifest.write_text('{"rev": "bbbb"}')
    os.utime(manifest, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert _lean_digest(library) != before


def _coq_library(tmp_path: Path) -> tuple[Path, Path]:
    library = tmp_path / "coq"
    vo = library / "user-contrib" / "mathcomp" / "algebra" / "ssralg.vo"
    vo.parent.mkdir(parents=True)
    vo.write_bytes(b"A" * 64)
    return library, vo


def test_a_coq_library_file_rewritten_in_place_changes_the_remembered_state(tmp_path: Path) -> None:
    """The remembered listing must not hide a file rewritten in place, whose directory keeps its state."""
    library, vo = _coq_library(tmp_path)
    before = library_state(library)
    _rewritten(vo)
    assert library_state(library) != before


def test_a_coq_module_added_with_its_directorys_time_set_back_changes_the_state(tmp_path: Path) -> None:
    library, vo = _coq_library(tmp_path)
    before, info = library_state(library), vo.parent.stat()
    time.sleep(TICK)
    (vo.parent / "ssrnum.vo").write_bytes(b"N")
    os.utime(vo.parent, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert library_state(library) != before


def test_honest_files_lean_does_not_load_and_a_library_left_alone_keep_the_digest(tmp_path: Path) -> None:
    library, deep = _lean_library(tmp_path)
    before = _lean_digest(library)
    assert _lean_digest(library) == before
    deep.with_suffix(".ilean").write_bytes(b"I")  # the editor's, Lake's
    deep.with_suffix(".trace").write_bytes(b"T")
    assert _lean_digest(library) == before


def test_honest_a_coq_library_read_and_left_alone_keeps_its_state(tmp_path: Path) -> None:
    library, vo = _coq_library(tmp_path)
    before = library_state(library)
    vo.read_bytes()
    assert library_state(library) == before == library_state(library)


# ------------------------------------------------------------------------------------------------------
# ``putnam serve`` on the toy Lean, a module deep in its library replaced


LEAN_PROBLEM = "toy_and_comm"
LEAN_GOOD = (LEAN_PROOFS / f"{LEAN_PROBLEM}.lean").read_text()


class ReplacedDuring:
    """The local gates, with ``change`` done while they run (after the fingerprint and the cache key were
    read, before the fingerprint is read again)."""

    name = "local"

    def __init__(self, change: Callable[[], None]) -> None:
        self.change = change

    def slots(self) -> int:
        return 1

    def verify(self, *args: Any) -> Verdict:
        verdict = dispatch.LOCAL.verify(*args)
        self.change()
        return verdict


@pytest.fixture
def lean_served(toy_lean_deciding: ToyLean, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A library (the toy's ``Init`` and a module deep below) with a passing selftest of its own, and a way
    to start the real server on it with a gate backend: ``(start, deep module)``."""
    pytest.importorskip("uvicorn")
    from putnam_solver.selftest import runner
    from putnam_solver.serve import PoolVerifier, ServeConfig, load_keys

    library = tmp_path / "leanlib"
    library.mkdir(mode=0o755)
    shutil.copyfile(toy_lean_deciding.init_dir / "Init.olean", library / "Init.olean")
    deep = _module(library, "Toy.Algebra.Group.Defs")
    for name in ("PUTNAM_LEAN", "PUTNAM_COQC"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LEAN_PATH", str(library))
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(tmp_path / "no-toolchain"))
    options = VerifyOptions(tools={"lean": toy_lean_deciding.lean})
    assert runner.run_selftest("lean", options).passed
    (tmp_path / "keys").write_text(f"tests {KEY} 1\n")
    (tmp_path / "keys").chmod(0o600)
    config = ServeConfig(
        keys=load_keys(tmp_path / "keys"),
        benchmarks={"lean": load_benchmark(LEAN_SAMPLES)},
        options=options,
        cache=VerdictCache(tmp_path / "verdicts"),
        run_selftest=False,
    )
    with contextlib.ExitStack() as servers:
        yield lambda backend: servers.enter_context(in_process(config, PoolVerifier(1, backend))), deep


def _asked(url: str) -> httpx.Response:
    body = {"problem": LEAN_PROBLEM, "prover": "lean", "profile": "fast", "candidate": LEAN_GOOD}
    return httpx.post(f"{url}/verify", json=body, headers={"Authorization": f"Bearer {KEY}"}, timeout=600)


def test_serve_a_lean_module_replaced_after_an_acceptance_is_not_answered_from_the_old_key(lean_served: Any) -> None:
    """Before: the second request was answered ``accepted`` from the cache, under the old library's key."""
    start, deep = lean_served
    url = start(dispatch.LOCAL)
    first = _asked(url)
    assert first.status_code == 200 and first.json()["status"] == "accepted", first.text
    _rebuilt(deep)
    again = _asked(url)
    assert again.status_code == 503, again.text
    assert "no selftest of lean on this toolchain" in again.text


@pytest.mark.slow
def test_serve_an_acceptance_made_while_a_lean_module_was_replaced_is_an_error(lean_served: Any) -> None:
    """Before: ``accepted`` (and stored under the old library's key)."""
    start, deep = lean_served
    answer = _asked(start(ReplacedDuring(lambda: _rewritten(deep))))
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "error", answer.text
    assert "toolchain changed while this candidate was judged" in answer.text


def test_honest_serve_answers_from_the_cache_while_only_the_editors_files_change(lean_served: Any) -> None:
    start, deep = lean_served
    url = start(ReplacedDuring(lambda: deep.with_suffix(".ilean").write_bytes(b"I")))
    assert _asked(url).json()["status"] == "accepted"
    again = _asked(url)
    assert again.status_code == 200 and again.json()["cached"] is True, again.text


# ------------------------------------------------------------------------------------------------------
# ``putnam mcp``: a tool replaced and put back during ``verify``


def _mcp_verdict(coqc: Path, during: Callable[[], None], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """``verify`` called through the MCP SDK's in-process client on the server ``putnam mcp`` builds, with
    ``during`` done while the gates run."""
    from mcp import Client

    from putnam_solver.mcp.server import McpSettings, PutnamTools, build_server

    gates = dispatch.LOCAL.verify

    def swapped(*args: Any) -> Verdict:
        try:
            return gates(*args)
        finally:
            during()

    monkeypatch.setattr(dispatch.LOCAL, "verify", swapped)
    options = VerifyOptions(tools={"coqc": coqc})
    settings = McpSettings(get_prover("rocq"), load_benchmark(ROCQ_SAMPLES), options=options, run_selftest=False)
    server = build_server(PutnamTools(settings, None))
    found: dict[str, Any] = {}

    async def main() -> None:
        async with Client(server) as client:
            result = await client.call_tool("verify", {"problem": PROBLEM, "proof": GOOD.decode()})
            assert result.structured_content is not None, result
            found.update(result.structured_content)

    anyio.run(main)
    return found


@NEEDS_COQ
def test_mcp_an_acceptance_made_on_a_tool_put_back_is_an_error(coqc: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``coqc`` replaced by B while the gates run and put back (A, the old modification time) before the
    verification ends: round 20's watch, tested through ``putnam mcp``'s own ``verify``."""
    good, info = coqc.read_bytes(), coqc.stat()

    def swap_and_back() -> None:
        time.sleep(TICK)
        replace(coqc, upgraded_coqc())
        get_prover("rocq").toolchain_fingerprint(VerifyOptions(tools={"coqc": coqc}))  # as a gate resolves it
        replace(coqc, good)
        os.utime(coqc, ns=(info.st_atime_ns, info.st_mtime_ns))

    verdict = _mcp_verdict(coqc, swap_and_back, monkeypatch)
    assert verdict["status"] == "error", verdict
    assert any("written or replaced" in gate["detail"] for gate in verdict["gates"]), verdict["gates"]


@pytest.mark.slow
@NEEDS_COQ
def test_honest_mcp_accepts_on_a_tool_left_alone(coqc: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _mcp_verdict(coqc, lambda: None, monkeypatch)["status"] == "accepted"
