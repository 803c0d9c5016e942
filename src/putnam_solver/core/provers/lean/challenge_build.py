"""G6's challenge side, built by Lake once per problem and toolchain and kept with the cache.

Comparator builds the harness's ``Challenge`` module with ``lake build Challenge`` before it builds the
candidate. That build depends on nothing a candidate chooses: the challenge text (derived from the
pinned statement, per track and answer form), the project's lakefile (the benchmark's ``leanOptions``),
the toolchain (`lake`, `lean`, its shared library), the built Mathlib and the checkers. So the harness
builds it on its own, in a fresh project that holds no candidate, with the pinned toolchain's `lake`
under the confinement comparator gets, and keeps everything that build left under ``.lake/build``
(the ``.olean``, ``.ilean``, Lake's ``.trace`` and ``.hash`` files) in the cache directory
(``core.pinned_store``, the mechanism the Rocq reference compile uses), under a key hashing all of the
above and the gates' code.

Each G6 run then writes those files into its own fresh project before comparator starts. Comparator
runs a plain ``lake build <module>`` in that project (leanprover/comparator Main.lean ``safeLakeBuild``:
no clean, no ``--rehash``) and builds and exports the challenge before it builds the solution
(``compareIt``), so the candidate's build cannot touch what the challenge's export read. Comparator's
``lake build Challenge`` finds the module up to date by Lake's own rule (the trace Lake itself wrote
holds the hash of the same inputs, and no path is part of it: leanprover/lean4
src/lake/Lake/Build/Module.lean ``Module.recBuildLean``, Trace.lean ``SavedTrace.replayIfUpToDate``)
and replays the log instead of elaborating; when Lake disagrees (another Lake, another layout) it
simply builds again, as it did before. Soundness: the files come from a harness build of harness text,
read back as regular files under the cap, and a cache entry is used only when every file hashes to its
header; a damaged entry is built again. A challenge that does not build is an ``error`` of G6 (the
harness's own file), never a rejection, and nothing of a failed build is kept.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from putnam_solver.core.pinned_store import building, entry_path, read_entry, write_entry
from putnam_solver.core.provers.lean.checks import form_challenge
from putnam_solver.core.provers.lean.identity import files_fingerprint, library_digest
from putnam_solver.core.provers.lean.project import CHALLENGE_MODULE, lakefile
from putnam_solver.core.provers.lean.toolchain import (
    ToolchainPaths,
    checkers_fingerprint,
    git_trust_file,
    package_checkouts,
)
from putnam_solver.core.safe_files import UnsafeFile, read_regular_file
from putnam_solver.core.sandbox import SandboxResult, fresh_copy
from putnam_solver.core.verify import Submission

PINNED_DIR = "lean-challenge"
"""The folder of the cache directory holding challenge builds."""
BUILD_DIR = Path(".lake") / "build"
PROJECT_FILES = ("lakefile.toml", "lean-toolchain", "lake-manifest.json")
MAX_FILES = 64
"""A build of one module leaves a handful of files; more is not a build to keep."""

Runner = Callable[[Path], SandboxResult]
"""Runs ``lake build Challenge`` in the project directory it is given (comparator's confinement)."""


@dataclass(frozen=True)
class ChallengeBuild:
    """Lake's products for the challenge (path under ``.lake/build`` to bytes), and how they were had."""

    files: dict[str, bytes]
    cached: bool
    result: SandboxResult | None = None
    failure: str | None = field(default=None)

    def evidence(self) -> dict[str, Any]:
        evidence: dict[str, Any] = {
            "cached": self.cached,
            "files": {name: hashlib.sha256(data).hexdigest() for name, data in sorted(self.files.items())},
        }
        if self.result is not None:
            evidence |= {"exit_code": self.result.exit_code, "wall_seconds": round(self.result.wall_seconds, 3)}
        if self.failure is not None:
            evidence["failure"] = self.failure
        return evidence


def project_files(sub: Submission, paths: ToolchainPaths) -> dict[str, bytes]:
    """The files of a comparator project common to the challenge build and G6: the pinned project's
    manifest and toolchain, the lakefile with the benchmark's options, the harness's challenge, and the
    ``HOME`` git configuration that lets Lake read the package checkouts (``toolchain.git_trust_file``)."""
    files = {name: (paths.project / name).read_bytes() for name in PROJECT_FILES}
    files["lakefile.toml"] = lakefile(paths.release, dict(sub.problem.format.lean_options)).encode("utf-8")
    files[f"{CHALLENGE_MODULE}.lean"] = form_challenge(sub)[1].encode("utf-8")
    files[".gitconfig"] = git_trust_file(package_checkouts(paths)).encode("utf-8")
    return files


def new_project(files: dict[str, bytes], paths: ToolchainPaths, into: Path) -> Path:
    """A fresh project of ``files`` whose packages link to the bootstrapped (read-only) ones."""
    project = fresh_copy(files, into)
    (project / ".lake").mkdir()
    (project / ".lake" / "packages").symlink_to(paths.project / ".lake" / "packages", target_is_directory=True)
    return project


def build_key(sub: Submission, paths: ToolchainPaths) -> dict[str, object]:
    """What the challenge's build depends on: its text and lakefile, the toolchain, Mathlib, the checkers."""
    files = project_files(sub, paths)
    toolchain = paths.toolchain_bin
    binaries = (toolchain / "lake", toolchain / "lean", toolchain.parent / "lib" / "lean" / "libleanshared.so")
    library = [Path(p) / ".lake" / "build" / "lib" / "lean" for p in package_checkouts(paths)]
    return {
        "release": paths.release.version,
        "statement_sha256": hashlib.sha256(sub.problem.formal_statement.encode("utf-8")).hexdigest(),
        "project": {name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())},
        "toolchain": files_fingerprint(binaries),
        "library": library_digest(library, paths.project / "lake-manifest.json"),
        "checkers": checkers_fingerprint(paths),
    }


def challenge_build(sub: Submission, paths: ToolchainPaths, run: Runner, limit: int) -> ChallengeBuild:
    """The cached build for this challenge and toolchain, else a new one (kept when it succeeded)."""
    entry = entry_path(PINNED_DIR, build_key(sub, paths), f"{CHALLENGE_MODULE}.build", producer=challenge_build)
    with building(entry):
        stored = read_entry(entry, limit, sub.options.kept_builds)
        if stored is not None:
            return ChallengeBuild(stored, cached=True)
        project = new_project(project_files(sub, paths), paths, sub.scratch / "challenge-build")
        result = run(project)
        if not result.ok:
            return ChallengeBuild({}, False, result, f"lake build {CHALLENGE_MODULE} exited {result.exit_code}")
        try:
            files = products(project, limit)
        except UnsafeFile as exc:
            return ChallengeBuild({}, False, result, f"refused what the build left: {exc}")
        if f"lib/lean/{CHALLENGE_MODULE}.olean" not in files:
            return ChallengeBuild(files, False, result, f"lake build {CHALLENGE_MODULE} left no .olean")
        write_entry(entry, files)
        return ChallengeBuild(files, False, result)


def products(project: Path, limit: int) -> dict[str, bytes]:
    """Every file the build left under ``.lake/build``, read as regular files under the cap
    (UnsafeFile for a link, a FIFO, an oversized file or too many files)."""
    root = project / BUILD_DIR
    found: dict[str, bytes] = {}
    for directory, _, names in os.walk(root):
        for name in sorted(names):
            path = Path(directory) / name
            if len(found) >= MAX_FILES:
                raise UnsafeFile(f"more than {MAX_FILES} files under {root}")
            found[path.relative_to(root).as_posix()] = read_regular_file(path, limit)
    return found


def seed(project: Path, build: ChallengeBuild) -> None:
    """Write the challenge's build products into a fresh project, where comparator's Lake finds them."""
    root = project / BUILD_DIR
    for name, data in build.files.items():
        relative = PurePosixPath(name)
        if relative.is_absolute() or ".." in relative.parts:
            raise UnsafeFile(f"a challenge build names {name!r}, outside the build directory")
        target = root.joinpath(*relative.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
