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

import functools
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from putnam_solver.core.gatekit import ToolSpec, ToolUnavailable, explicit_tool, file_sha256
from putnam_solver.core.sandbox import DEFAULT_PATH
from putnam_solver.core.verify import VerifyOptions

LEAN_TOOLCHAIN = "leanprover/lean4:v4.27.0"
MATHLIB_REV = "a3a10db0e9d66acbebf76c5e6a135066525ac900"
MATHLIB_TAG = "v4.27.0"
LEAN4EXPORT_REV = "590dec59d93ab6becdf16fdd8aee5abbb99cb856"
LANDRUN_REV = "811cfff51ceaf3d9843708aa6d22e9b84ccac8b4"


def default_toolchain_dir() -> Path:
    return Path(platformdirs.user_data_dir("putnambench-solver")) / "lean"


def toolchain_root() -> Path:
    """The toolchain directory: ``PUTNAM_TOOLCHAIN_DIR`` if set, else the per-user data directory."""
    configured = os.environ.get("PUTNAM_TOOLCHAIN_DIR")
    return Path(configured).expanduser() if configured else default_toolchain_dir()


@dataclass(frozen=True)
class ToolchainPaths:
    """The files of a bootstrapped toolchain directory (they may not exist yet): those bootstrap writes
    and those the gates and the agent's workspaces read."""

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

    @property
    def nanoda(self) -> Path:
        return self.root / "bin" / "nanoda_bin"

    @property
    def toolchain_bin(self) -> Path:
        """The pinned toolchain's own ``bin`` (its real `lean` and `lake`, not elan's shims).

        elan's shims choose a toolchain from ``ELAN_TOOLCHAIN``, else a ``lean-toolchain`` file found
        walking up from the current directory, else the default toolchain, and never from ``lake -d``
        (leanprover/elan src/elan/config.rs:156-243 ``find_override``, :337 ``toolchain_for_dir``).
        Bootstrap installs elan without a default toolchain and the gates run in fresh directories, so
        every gate calls these binaries directly.
        """
        return self.elan_home / "toolchains" / toolchain_dir_name(LEAN_TOOLCHAIN) / "bin"

    @property
    def elan_bin(self) -> Path:
        return self.elan_home / "bin"

    @property
    def lean(self) -> Path:
        return self.toolchain_bin / "lean"

    @property
    def lake(self) -> Path:
        """elan's ``lake`` shim, for bootstrap commands only: each runs in a directory whose own
        ``lean-toolchain`` names its Lean (the project, comparator's and lean4export's sources), which
        is the file the shim walks up to find (leanprover/elan src/elan/config.rs:197)."""
        return self.elan_bin / "lake"

    @property
    def sources(self) -> Path:
        return self.root / "src"

    @property
    def mathlib(self) -> Path:
        """The project's Mathlib checkout, which agents' workspaces and the Mathlib canaries reuse."""
        return self.project / ".lake" / "packages" / "mathlib"

    @property
    def mathlib_olean(self) -> Path:
        return self.mathlib / ".lake" / "build" / "lib" / "lean" / "Mathlib.olean"

    def env(self) -> dict[str, str]:
        """The environment of every bootstrap command: our elan first on PATH, nothing else changed."""
        env = dict(os.environ)
        env["ELAN_HOME"] = str(self.elan_home)
        env["PATH"] = os.pathsep.join([str(self.elan_bin), env.get("PATH", "")])
        return env


def toolchain_dir_name(toolchain: str) -> str:
    """elan's directory for a toolchain: ``leanprover/lean4:v4.27.0`` -> ``leanprover--lean4---v4.27.0``."""
    return toolchain.replace("/", "--").replace(":", "---")


def pinned_toolchain_env(paths: ToolchainPaths) -> dict[str, str]:
    """Variables that make any elan shim a process reaches pick the pinned toolchain (and no other)."""
    return {
        "ELAN_HOME": str(paths.elan_home),
        "ELAN_TOOLCHAIN": LEAN_TOOLCHAIN,
        "PATH": f"{paths.toolchain_bin}:{paths.elan_home / 'bin'}:{DEFAULT_PATH}",
    }


# ---------------------------------------------------------------------------------------------------------
# Which `lean` the gates run


LEAN_TOOL = ToolSpec("lean", "PUTNAM_LEAN", "the `lean` of G4, G5 and the answer check (default: bootstrapped)")
_PROBE_SECONDS = 120.0
_NOT_FOUND_FIX = (
    "run `putnam bootstrap` to install the pinned toolchain, or pass --tool lean=PATH (or set PUTNAM_LEAN=PATH) "
    "to use another `lean`, with LEAN_PATH naming the directories of its library (.olean files)"
)


class LeanNotFound(ToolUnavailable):
    """No usable `lean`; the message says which one was tried and how to fix it."""


@dataclass(frozen=True)
class LeanCommand:
    """How the gates invoke `lean`, and what identifies that toolchain in evidence and cache keys.

    ``argv`` is the command prefix (the source file and flags are appended); ``env`` holds the variables
    it needs (``LEAN_PATH`` and, for the bootstrapped toolchain, elan's); ``readonly`` lists what the
    sandbox must expose (the toolchain's prefix and its library directories).
    """

    argv: tuple[str, ...]
    env: dict[str, str]
    readonly: tuple[Path, ...]
    origin: str
    version: str
    binaries: tuple[tuple[str, str], ...]
    """(path, SHA-256) of the `lean` executable and of its shared library, when present."""

    @property
    def lean_path(self) -> tuple[Path, ...]:
        return tuple(Path(p) for p in self.env.get("LEAN_PATH", "").split(":") if p)

    @property
    def fingerprint(self) -> str:
        """Version and binary hashes: two verdicts share a cache entry only under the same toolchain."""
        hashes = ", ".join(f"{Path(path).name} {digest[:16]}" for path, digest in self.binaries)
        return f"{self.version} [{hashes}]"

    def run_env(self, extra_lean_path: tuple[Path, ...] = ()) -> dict[str, str]:
        """The environment for one run, with ``extra_lean_path`` (say, a compiled candidate) appended."""
        entries = [str(p) for p in (*self.lean_path, *extra_lean_path)]
        return {**self.env, "LEAN_PATH": ":".join(entries)} if entries else dict(self.env)

    def evidence(self) -> dict[str, object]:
        return {
            "lean": " ".join(self.argv),
            "origin": self.origin,
            "version": self.version,
            "sha256": dict(self.binaries),
        }


def find_lean(options: VerifyOptions) -> LeanCommand:
    """The `lean` the gates use: the user's (``--tool lean=PATH``, else ``PUTNAM_LEAN``), else the
    bootstrapped project's.

    An explicit `lean` runs with the caller's ``LEAN_PATH`` (how a plain toolchain finds its library);
    the bootstrapped one runs as the pinned toolchain's own ``lake -d <project> env lean`` (never elan's
    shim, see ``ToolchainPaths.toolchain_bin``), which sets ``LEAN_PATH`` to the project's libraries.
    Raises LeanNotFound, saying what to do, when there is none.
    """
    chosen = explicit_tool(LEAN_TOOL, options)
    if chosen is not None:
        return _explicit_lean(*chosen)
    paths = ToolchainPaths(toolchain_root())
    lake, lean = paths.toolchain_bin / "lake", paths.toolchain_bin / "lean"
    if paths.project.is_dir() and _is_executable(lake) and _is_executable(lean):
        argv = (str(lake), "-d", str(paths.project), "env", str(lean))
        return _describe(argv, pinned_toolchain_env(paths), (paths.root.resolve(),), f"bootstrap ({paths.root})")
    raise LeanNotFound(
        f"no Lean toolchain found (no --tool lean, no {LEAN_TOOL.env}, none at {paths.root}); {_NOT_FOUND_FIX}"
    )


def toolchain_fingerprint(options: VerifyOptions) -> str:
    """``find_lean(options).fingerprint``, or a marker when there is no `lean` (text-only profiles)."""
    try:
        return find_lean(options).fingerprint
    except LeanNotFound:
        return "lean: not found"


def _explicit_lean(path: Path, origin: str) -> LeanCommand:
    if not _is_executable(path):
        raise LeanNotFound(f"{origin} {path}: not an executable file; {_NOT_FOUND_FIX}")
    lean = path.resolve()
    lean_path = [Path(p).resolve() for p in os.environ.get("LEAN_PATH", "").split(":") if p]
    library = tuple(p for p in lean_path if p.is_dir())
    env = {"LEAN_PATH": ":".join(str(p) for p in library)} if library else {}
    return _describe((str(lean),), env, (lean.parent, *library), f"{origin} {path}")


def _describe(argv: tuple[str, ...], env: dict[str, str], readonly: tuple[Path, ...], origin: str) -> LeanCommand:
    """Ask the toolchain for its version and prefix, and hash its binaries (cached per file state)."""
    version = _probe((*argv, "--version"), env)
    prefix = Path(_probe((*argv, "--print-prefix"), env)).resolve()
    binaries = [prefix / "bin" / "lean", prefix / "lib" / "lean" / "libleanshared.so"]
    if not binaries[0].is_file():
        binaries[0] = Path(argv[0])
    hashed = tuple((str(b), file_sha256(b)) for b in binaries if b.is_file())
    exposed = tuple(dict.fromkeys(p for p in (prefix, *readonly) if not _under_any(p, prefix, readonly)))
    return LeanCommand(argv, env, exposed, origin, version, hashed)


def _under_any(path: Path, prefix: Path, roots: tuple[Path, ...]) -> bool:
    """True when ``path`` lies strictly inside another exposed directory (no need to bind it twice)."""
    return any(path != root and path.is_relative_to(root) for root in (prefix, *roots))


def _probe(argv: tuple[str, ...], env: dict[str, str]) -> str:
    """Run a trusted toolchain query (no candidate involved); its first output line, or LeanNotFound."""
    stamp = _stamp(Path(argv[0]))
    return _probe_cached(argv, tuple(sorted(env.items())), *stamp)


@functools.lru_cache(maxsize=64)
def _probe_cached(argv: tuple[str, ...], env: tuple[tuple[str, str], ...], size: int, mtime_ns: int) -> str:
    full_env = {"PATH": DEFAULT_PATH, "LANG": "C.UTF-8", **dict(env)}
    try:
        done = subprocess.run(
            argv,
            env=full_env,
            capture_output=True,
            text=True,
            timeout=_PROBE_SECONDS,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise LeanNotFound(f"`{' '.join(argv)}` could not run: {exc}; {_NOT_FOUND_FIX}") from exc
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        why = (done.stderr or done.stdout).strip()[-500:]
        raise LeanNotFound(f"`{' '.join(argv)}` failed (exit {done.returncode}): {why}; {_NOT_FOUND_FIX}")
    return lines[0].strip()


def _stamp(path: Path) -> tuple[int, int]:
    info = path.stat()
    return info.st_size, info.st_mtime_ns


def _is_executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)
