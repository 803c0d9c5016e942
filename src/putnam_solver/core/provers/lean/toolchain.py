"""Where the pinned Lean toolchains live and how the gates invoke `lean`.

A benchmark states the Lean and Mathlib release its statements were written for (its record's
``toolchain``: PutnamBench v4.27.0, miniF2F v4.24.0, ProofNet v4.28.0). ``putnam bootstrap`` installs each
release side by side, one Lake project per pinned Mathlib, and the gates judge with the release
``VerifyOptions.toolchain`` names (by default the benchmark's own; ``--toolchain`` chooses another).
Layout of a bootstrapped directory (written by ``putnam bootstrap``, see ``bootstrap.py``)::

    <dir>/toolchain.json               manifest: pins, versions and SHA-256 of every installed binary
    <dir>/elan/                        elan home (one toolchain per release: leanprover/lean4:v4.27.0 ...)
    <dir>/projects/<release>/          Lake project: Mathlib at that release, autoImplicit false
    <dir>/bin/comparator               leanprover/comparator (built with its own Lean)
    <dir>/bin/lean4export-<release>    lean4export for that release's .olean files
    <dir>/bin/landrun                  landrun
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from putnam_solver.core.gatekit import ToolSpec, ToolUnavailable, explicit_tool, file_sha256
from putnam_solver.core.provers.lean.identity import files_fingerprint, library_digest
from putnam_solver.core.sandbox import DEFAULT_PATH, SandboxLimits, fresh_copy, run_sandboxed, sandbox_status
from putnam_solver.core.util import path_variable
from putnam_solver.core.verify import VerifyOptions

LANDRUN_REV = "811cfff51ceaf3d9843708aa6d22e9b84ccac8b4"
DEFAULT_RELEASE = "v4.27.0"
"""The release used where no benchmark states one (PutnamBench's)."""
LEAN4EXPORT_REVS: dict[str, str] = {
    "v4.24.0": "f7f95b22c1bff79cfbec7f32c13ced73a1b4fdcd",
    "v4.27.0": "590dec59d93ab6becdf16fdd8aee5abbb99cb856",
    "v4.28.0": "d065b0009aed0520e9e99752847a33b337661690",
}
"""lean4export per Lean release: the commit of leanprover/lean4export tagged with that release (``chore:
v4.24.0``, ``chore: backport v4.27.0``, ``backport v4.28.0``); each writes the NDJSON format 3.1.0 that
the pinned comparator reads, from that release's ``.olean`` files. The v4.24.0 one cannot serve the
pinned comparator (``comparator.UNJUDGED_RELEASES``: Lean v4.24.0 has no ``String.ofList``)."""


@dataclass(frozen=True)
class LeanRelease:
    """One Lean/Mathlib release a benchmark was written for, pinned: Lean's toolchain, Mathlib's tag and
    commit, and the lean4export that reads its ``.olean`` files."""

    version: str
    mathlib_rev: str
    lean4export_rev: str

    @property
    def toolchain(self) -> str:
        return f"leanprover/lean4:{self.version}"

    @property
    def mathlib_tag(self) -> str:
        return self.version


@functools.cache
def lean_releases() -> dict[str, LeanRelease]:
    """Every release a registered benchmark states, pinned by its record's Mathlib commit (each needs a
    lean4export pin here: a test checks it)."""
    from putnam_solver.core.benchmarks import benchmark_names, get_spec

    found: dict[str, LeanRelease] = {}
    for spec in map(get_spec, benchmark_names()):
        for file in spec.files:
            stated = file.toolchain
            if stated.prover == "lean" and stated.version in LEAN4EXPORT_REVS:
                rev = stated.details.get("mathlib_rev", "")
                found[stated.version] = LeanRelease(stated.version, rev, LEAN4EXPORT_REVS[stated.version])
    return dict(sorted(found.items()))


def lean_release(version: str | None) -> LeanRelease:
    """The pinned release ``version`` names (default: ``DEFAULT_RELEASE``); InputError for another."""
    from putnam_solver.core.util import InputError

    chosen = version or DEFAULT_RELEASE
    known = lean_releases()
    if chosen not in known:
        raise InputError(f"no pinned Lean release {chosen!r}; choose one of: {', '.join(known)} (--toolchain)")
    return known[chosen]


DEFAULT = lean_release(DEFAULT_RELEASE)


def default_toolchain_dir() -> Path:
    return Path(platformdirs.user_data_dir("putnambench-solver")) / "lean"


def toolchain_root() -> Path:
    """The toolchain directory: ``PUTNAM_TOOLCHAIN_DIR`` if set, else the per-user data directory."""
    return path_variable("PUTNAM_TOOLCHAIN_DIR") or default_toolchain_dir()


def release_paths(options: VerifyOptions, root: Path | None = None) -> ToolchainPaths:
    """The bootstrapped files of the release ``options.toolchain`` names (default: ``DEFAULT_RELEASE``)."""
    return ToolchainPaths(toolchain_root() if root is None else root, lean_release(options.toolchain))


def installed_releases(root: Path | None = None) -> list[str]:
    """The releases with a bootstrapped project under ``root`` (for ``putnam doctor``)."""
    base = toolchain_root() if root is None else root
    return [v for v in lean_releases() if (ToolchainPaths(base, lean_release(v)).project / "lean-toolchain").is_file()]


@dataclass(frozen=True)
class ToolchainPaths:
    """The files of a bootstrapped toolchain directory for one release (they may not exist yet) that the
    gates and the agent's workspaces read (what only bootstrap touches: ``kits.lean.bootstrap_paths``).
    elan, comparator and landrun are shared by all releases; the project and lean4export are the
    release's own."""

    root: Path
    release: LeanRelease = DEFAULT

    @property
    def elan_home(self) -> Path:
        return self.root / "elan"

    @property
    def project(self) -> Path:
        return self.root / "projects" / self.release.version

    @property
    def comparator(self) -> Path:
        return self.root / "bin" / "comparator"

    @property
    def lean4export(self) -> Path:
        return self.root / "bin" / f"lean4export-{self.release.version}"

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
        return self.elan_home / "toolchains" / toolchain_dir_name(self.release.toolchain) / "bin"

    @property
    def lean(self) -> Path:
        return self.toolchain_bin / "lean"

    @property
    def mathlib(self) -> Path:
        """The project's Mathlib checkout, which agents' workspaces and the Mathlib canaries reuse."""
        return self.project / ".lake" / "packages" / "mathlib"


def toolchain_dir_name(toolchain: str) -> str:
    """elan's directory for a toolchain: ``leanprover/lean4:v4.27.0`` -> ``leanprover--lean4---v4.27.0``."""
    return toolchain.replace("/", "--").replace(":", "---")


def pinned_toolchain_env(paths: ToolchainPaths) -> dict[str, str]:
    """Variables that make any elan shim a process reaches pick the pinned toolchain (and no other), and
    let git read the project's package checkouts (``git_trust_env``)."""
    return {
        "ELAN_HOME": str(paths.elan_home),
        "ELAN_TOOLCHAIN": paths.release.toolchain,
        "PATH": f"{paths.toolchain_bin}:{paths.elan_home / 'bin'}:{DEFAULT_PATH}",
        **git_trust_env(package_checkouts(paths)),
    }


def package_checkouts(paths: ToolchainPaths) -> tuple[str, ...]:
    """The real paths of the project's package checkouts (Mathlib and its dependencies).

    Every time Lake loads the workspace (``lake env``, ``lake build``) it runs ``git rev-parse --verify
    HEAD`` in each of them (leanprover/lean4 src/lake/Lake/Load/Materialize.lean,
    ``PackageEntry.materialize``; src/lake/Lake/Util/Git.lean). git compares its ``safe.directory``
    entries with the real path of the repository it found, so links are resolved here.
    """
    packages = paths.project / ".lake" / "packages"
    if not packages.is_dir():
        return ()
    return tuple(str(p.resolve()) for p in sorted(packages.iterdir()) if p.is_dir())


def git_trust_env(repositories: tuple[str, ...]) -> dict[str, str]:
    """Let git, run by Lake as another user than the one who installed the toolchain, read these
    repositories, and no others.

    As root, the gates run Lean as ``nobody`` on a toolchain root owned; git (2.35.2 and later) refuses
    a repository owned by another user ("detected dubious ownership"), Lake reads that as "not at the
    manifest's revision", tries to clone again and fails on the read-only tree. ``safe.directory`` is
    git's own exception for exactly this, honoured only from protected configuration (system, global,
    command line; git 2.35.2-2.37 read it from system and global files only), never from a
    repository's own. ``GIT_CONFIG_COUNT``/``KEY_n``/``VALUE_n`` is the command-line scope, so it needs
    no file and no ``HOME``, reaches every git a sandboxed `lake` starts, and names exactly the
    checkouts bootstrap made (never ``*``): the check still protects from any other repository, say one
    a candidate's build creates. The repositories are read-only to the sandbox, so their configuration
    cannot be changed to run anything. ``putnam doctor`` runs `lean` in the sandbox as the gates do, so
    a git that ignores it fails there first.
    """
    env = {"GIT_CONFIG_COUNT": str(len(repositories))} if repositories else {}
    for index, repository in enumerate(repositories):
        env[f"GIT_CONFIG_KEY_{index}"] = "safe.directory"
        env[f"GIT_CONFIG_VALUE_{index}"] = repository
    return env


def git_trust_file(repositories: tuple[str, ...]) -> str:
    """The same trust as a global git configuration file, for a ``HOME`` where only ``HOME`` passes
    (comparator's landrun passes ``PATH``, ``HOME`` and ``LEAN_ABORT_ON_PANIC`` to ``lake build``:
    leanprover/comparator Main.lean:127)."""
    return "[safe]\n" + "".join(f"\tdirectory = {repository}\n" for repository in repositories)


# ---------------------------------------------------------------------------------------------------------
# Which `lean` the gates run


LEAN_TOOL = ToolSpec("lean", "PUTNAM_LEAN", "the `lean` of G4, G5 and the answer check (default: bootstrapped)")
_PROBE_SECONDS = 120.0
_NOT_FOUND_FIX = (
    "run `putnam bootstrap` (`--benchmark NAME` or `--toolchain RELEASE`) to install the pinned toolchain, or "
    "pass --tool lean=PATH (or set PUTNAM_LEAN=PATH) to use another `lean`, with LEAN_PATH naming the "
    "directories of its library (.olean files)"
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
    """(path, SHA-256) of the `lean` executable, its shared library and what runs it (the toolchain's
    `lake` for the bootstrapped one), when present."""
    library: str
    """``identity.library_digest`` of the library `lean` checks against (manifest and .olean listing)."""
    search_dirs: tuple[Path, ...] = ()
    """The directories `lean` finds modules in besides those a run adds (the toolchain's own library, the
    caller's ``LEAN_PATH`` or the project's packages), which a harness file importing the candidate's
    module must not find it in (``compile.shadowing_module``)."""

    @property
    def lean_path(self) -> tuple[Path, ...]:
        return tuple(Path(p) for p in self.env.get("LEAN_PATH", "").split(":") if p)

    @property
    def fingerprint(self) -> str:
        """Version, binary hashes and the library's digest: two verdicts share a cache entry only under
        the same `lake`, `lean` and built library."""
        hashes = ", ".join(f"{Path(path).name} {digest[:16]}" for path, digest in self.binaries)
        return f"{self.version} [{hashes}] library {self.library[:16]}"

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
            "library_sha256": self.library,
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
    paths = release_paths(options)
    lake, lean = paths.toolchain_bin / "lake", paths.toolchain_bin / "lean"
    if paths.project.is_dir() and _is_executable(lake) and _is_executable(lean):
        argv = (str(lake), "-d", str(paths.project), "env", str(lean))
        origin = f"bootstrap ({paths.root}, {paths.release.version})"
        library = [Path(p) / ".lake" / "build" / "lib" / "lean" for p in package_checkouts(paths)]
        digest = library_digest(library, paths.project / "lake-manifest.json")
        search = (*library, paths.project / ".lake" / "build" / "lib" / "lean")
        return _describe(argv, pinned_toolchain_env(paths), (paths.root.resolve(),), origin, digest, search)
    others = [v for v in installed_releases(paths.root) if v != paths.release.version]
    elsewhere = f"; installed there: {', '.join(others)} (--toolchain chooses one)" if others else ""
    raise LeanNotFound(
        f"no Lean {paths.release.version} toolchain found (no --tool lean, no {LEAN_TOOL.env}, none at "
        f"{paths.root}{elsewhere}); {_NOT_FOUND_FIX}"
    )


def toolchain_fingerprint(options: VerifyOptions) -> str:
    """What decides a Lean verdict here: ``find_lean(options).fingerprint`` (`lake`, `lean`, the built
    library) and G6's checkers; a marker instead of the first when there is no `lean` (text-only
    profiles). The cache key, the selftest record and the verdict's evidence all carry it."""
    try:
        lean = find_lean(options).fingerprint
    except LeanNotFound:
        lean = "lean: not found"
    return f"{lean}; {checkers_fingerprint(release_paths(options))}"


def checkers_fingerprint(paths: ToolchainPaths) -> str:
    """The hashes of what G6 runs besides `lake` and `lean`: comparator, the release's lean4export,
    landrun and nanoda (``absent`` where not installed)."""
    return "checkers " + files_fingerprint((paths.comparator, paths.lean4export, paths.landrun, paths.nanoda))


def _explicit_lean(path: Path, origin: str) -> LeanCommand:
    if not _is_executable(path):
        raise LeanNotFound(f"{origin} {path}: not an executable file; {_NOT_FOUND_FIX}")
    lean = path.resolve()
    # relative entries (``LEAN_PATH=:...`` or ``.lake/build/lib``) name the working directory, a folder of
    # someone else's proofs whose own `Init` would then be the library (trust paths red team 19), as in PATH
    lean_path = [Path(p).resolve() for p in os.environ.get("LEAN_PATH", "").split(":") if os.path.isabs(p)]
    library = tuple(p for p in lean_path if p.is_dir())
    env = {"LEAN_PATH": ":".join(str(p) for p in library)} if library else {}
    readonly = (lean.parent, *library)
    return _describe((str(lean),), env, readonly, f"{origin} {path}", library_digest(library), library)


def _describe(
    argv: tuple[str, ...],
    env: dict[str, str],
    readonly: tuple[Path, ...],
    origin: str,
    library: str,
    search: Sequence[Path] = (),
) -> LeanCommand:
    """Ask the toolchain for its prefix, then for its version the way the gates run it (in the sandbox,
    as its user, with what they expose), and hash its binaries (cached per file state)."""
    prefix = Path(_probe((*argv, "--print-prefix"), env)).resolve()
    exposed = tuple(dict.fromkeys(p for p in (prefix, *readonly) if not _under_any(p, prefix, readonly)))
    version = _probe((*argv, "--version"), env, exposed)
    binaries = [prefix / "bin" / "lean", prefix / "lib" / "lean" / "libleanshared.so", Path(argv[0])]
    if not binaries[0].is_file():
        binaries[0] = Path(argv[0])
    hashed = tuple((str(b), file_sha256(b)) for b in dict.fromkeys(binaries) if b.is_file())
    dirs = tuple(dict.fromkeys(Path(d) for d in (prefix / "lib" / "lean", *search)))
    return LeanCommand(argv, env, exposed, origin, version, hashed, library, dirs)


def _under_any(path: Path, prefix: Path, roots: tuple[Path, ...]) -> bool:
    """True when ``path`` lies strictly inside another exposed directory (no need to bind it twice)."""
    return any(path != root and path.is_relative_to(root) for root in (prefix, *roots))


def _probe(argv: tuple[str, ...], env: dict[str, str], sandboxed: tuple[Path, ...] | None = None) -> str:
    """Run a trusted toolchain query (no candidate involved); its first output line, or LeanNotFound.
    With ``sandboxed`` (the paths to expose), it runs in the sandbox as the gates run `lean`, so that
    what stops them there (a user who cannot read the toolchain, git refusing its checkouts) stops it."""
    stamp = _stamp(Path(argv[0]))
    return _probe_cached(argv, tuple(sorted(env.items())), sandboxed, *stamp)


@functools.lru_cache(maxsize=64)
def _probe_cached(
    argv: tuple[str, ...], env: tuple[tuple[str, str], ...], sandboxed: tuple[Path, ...] | None, *stamp: int
) -> str:
    try:
        code, out, err = _run_probe(argv, dict(env), sandboxed)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise LeanNotFound(f"`{' '.join(argv)}` could not run: {exc}; {_NOT_FOUND_FIX}") from exc
    lines = out.strip().splitlines()
    if code != 0 or not lines:
        where = " in the sandbox" if sandboxed is not None else ""
        why = (err or out).strip()[-500:]
        raise LeanNotFound(f"`{' '.join(argv)}` failed{where} (exit {code}): {why}; {_NOT_FOUND_FIX}")
    return lines[0].strip()


def _run_probe(argv: tuple[str, ...], env: dict[str, str], sandboxed: tuple[Path, ...] | None) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of a probe: directly, or in the sandbox when ``sandboxed`` is given
    and the sandbox runs here (where it does not, no gate runs `lean` either; doctor says why)."""
    if sandboxed is not None and sandbox_status()[0]:
        with tempfile.TemporaryDirectory(prefix="putnam-lean-probe-") as scratch:
            limits = SandboxLimits(timeout_seconds=_PROBE_SECONDS)
            done = run_sandboxed(
                argv, workdir=fresh_copy({}, Path(scratch)), readonly=sandboxed, env=env, limits=limits
            )
        return (0 if done.ok else done.exit_code or 1), done.stdout, done.stderr
    full_env = {"PATH": DEFAULT_PATH, "LANG": "C.UTF-8", **env}
    ran = subprocess.run(
        argv,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=_PROBE_SECONDS,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    return ran.returncode, ran.stdout, ran.stderr


def _stamp(path: Path) -> tuple[int, ...]:
    """The state a probe's answer is remembered for: a tool written back with its old size and time has a
    new change time or inode (as ``gatekit.file_sha256`` judges)."""
    info = path.stat()
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def _is_executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


_VERSION = re.compile(r"version (\d+\.\d+\.\d+(?:-rc\d+)?)")


def lean_version(options: VerifyOptions) -> str | None:
    """The release of the `lean` the gates would run (``v4.27.0``), or None when there is none."""
    try:
        found = _VERSION.search(find_lean(options).version)
    except LeanNotFound:
        return None
    return f"v{found[1]}" if found else None
