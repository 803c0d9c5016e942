"""Install the pinned Lean toolchain for ``putnam bootstrap`` and report on it for ``putnam doctor``.

This is the one module of the Lean prover that uses the network, and it runs only on the user's
request. It builds the directory described in ``toolchain.py`` as a plan of steps. Each step says what
it downloads and where, and is idempotent and resumable: when it finishes, the SHA-256 of the files it
produced are recorded in the manifest (``toolchain.json``), and a step counts as done only while those
files still exist with those hashes. An interrupted bootstrap therefore resumes where it stopped, and a
tampered or half-written file makes its step run again.

Mathlib is never built from source unless asked (``build_mathlib=True``): ``lake exe cache get``
downloads its prebuilt ``.olean`` files. Comparator is built with the Lean version its own repository
names (elan installs it); lean4export is built with the project's Lean, because it reads the project's
``.olean`` files. The choice of the comparator commit is explained in ``docs/lean-toolchain.md``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from putnam_solver.core.provers.lean.project import (
    CHALLENGE_MODULE,
    COMPARATOR_REV,
    lakefile,
    release_pins,
)
from putnam_solver.core.provers.lean.toolchain import (
    DEFAULT,
    LANDRUN_REV,
    LeanRelease,
    ToolchainPaths,
)
from putnam_solver.core.util import sha256_file
from putnam_solver.kits.installing import InstallError
from putnam_solver.kits.lean.bootstrap_paths import (
    bootstrap_env,
    elan_bin,
    lake_shim,
    manifest_path,
    mathlib_olean,
    sources_dir,
)
from putnam_solver.kits.lean.closure import import_closure_step
from putnam_solver.safe_write import write_atomic

NANODA_REV = "f58f2f6d535e189a40fcb02ede8eb95f97a92d37"
"""nanoda_lib's master head (2026-06-02, PR 21: a wrong back-reference exits non-zero); comparator's
multi-kernel merge that G6 runs it through (PR 75, 2026-08-19) came after it, so the two were meant to
work together."""
NANODA_GIT = "https://github.com/ammkrn/nanoda_lib"

ELAN_RELEASE = "v4.2.3"
ELAN_INSTALLER_COMMIT = "b6cec7e10fe4965a605aaf60d1cb4a5837f0462b"
"""The commit elan's tag v4.2.3 points to; the installer script is fetched from it, never from a branch."""
ELAN_INSTALLER_URL = f"https://raw.githubusercontent.com/leanprover/elan/{ELAN_INSTALLER_COMMIT}/elan-init.sh"
ELAN_INSTALLER_SHA256 = "a620ff1641616222c8d37c54845492004bb84d6877cdbc944dd65c1aa685bf53"
"""SHA-256 of ``elan-init.sh`` at that commit (git blob ab8c346b); checked before the script runs."""
ELAN_UNPINNED = (
    "not pinned: the elan binary that script downloads (it always fetches elan's latest release, with no hash to check)"
)
"""What the elan step cannot pin, said in its description, in the README and in docs/lean-toolchain.md."""
COMPARATOR_GIT = "https://github.com/leanprover/comparator"
LEAN4EXPORT_GIT = "https://github.com/leanprover/lean4export"
LANDRUN_GIT = "https://github.com/Zouuup/landrun"


Progress = Callable[[str], None]
COMMAND_OUTPUT_TAIL = 4000


class BootstrapError(InstallError):
    """A step could not finish. The message names the command, its output and what to do."""


def read_manifest(paths: ToolchainPaths) -> dict[str, Any]:
    """The manifest, or an empty one when it is missing or unreadable (every step then runs again)."""
    try:
        data = json.loads(manifest_path(paths).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_json_atomic(path: Path, data: Mapping[str, Any]) -> None:
    write_atomic(path, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8"))


def _recorded_steps(manifest: Mapping[str, Any]) -> dict[str, Any]:
    steps = manifest.get("steps")
    return dict(steps) if isinstance(steps, dict) else {}


def record_step(paths: ToolchainPaths, name: str, pin: str, artifacts: Sequence[Path]) -> None:
    """Mark a step done: the pin it installed and the hashes of its artifacts, relative to the root."""
    manifest = read_manifest(paths)
    steps = _recorded_steps(manifest)
    steps[name] = {
        "pin": pin,
        "artifacts": {str(p.relative_to(paths.root)): sha256_file(p) for p in artifacts},
    }
    recorded = manifest.get("pins")
    pins = {k: v for k, v in recorded.items() if isinstance(v, dict)} if isinstance(recorded, dict) else {}
    pins[paths.release.version] = release_pins(paths.release)
    write_json_atomic(manifest_path(paths), {**manifest, "pins": pins, "steps": steps})


def step_recorded(paths: ToolchainPaths, name: str, pin: str, artifacts: Sequence[Path]) -> bool:
    """True when the manifest records this step at this pin and every artifact still has its hash.

    A changed pin (a new comparator commit, say) makes only that step run again.
    """
    recorded = _recorded_steps(read_manifest(paths)).get(name)
    if not isinstance(recorded, dict) or recorded.get("pin") != pin:
        return False
    hashes = recorded.get("artifacts")
    expected = {str(p.relative_to(paths.root)): p for p in artifacts}
    if not isinstance(hashes, dict) or set(hashes) != set(expected):
        return False
    return all(p.is_file() and sha256_file(p) == hashes[rel] for rel, p in expected.items())


def run_command(argv: Sequence[str | Path], *, cwd: Path, env: Mapping[str, str], progress: Progress) -> None:
    """Run one command; on failure raise with the command, its exit code and the tail of its output."""
    shown = " ".join(str(a) for a in argv)
    progress(f"$ {shown}  (in {cwd})")
    try:
        done = subprocess.run(
            [str(a) for a in argv],
            cwd=cwd,
            env=dict(env),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            check=False,
        )
    except FileNotFoundError as exc:
        raise BootstrapError(f"{shown}: {argv[0]} not found ({exc.strerror}); install it and retry") from exc
    if done.returncode != 0:
        tail = done.stdout[-COMMAND_OUTPUT_TAIL:]
        raise BootstrapError(f"{shown} failed with exit code {done.returncode} (in {cwd}):\n{tail}")


@dataclass(frozen=True)
class Step:
    """One idempotent bootstrap step. ``artifacts`` are the files whose hashes prove it finished."""

    name: str
    description: str
    paths: ToolchainPaths
    pin: str
    artifacts: tuple[Path, ...]
    action: Callable[[Progress], None]

    def done(self) -> bool:
        return step_recorded(self.paths, self.name, self.pin, self.artifacts)

    def run(self, progress: Progress) -> None:
        """Run the step unless it is done; check that it produced its artifacts, then record them."""
        if self.done():
            progress(f"{self.name}: already done")
            return
        progress(f"{self.name}: {self.description}")
        self.action(progress)
        missing = [str(p) for p in self.artifacts if not p.is_file()]
        if missing:
            raise BootstrapError(f"{self.name}: finished but did not produce {', '.join(missing)}")
        record_step(self.paths, self.name, self.pin, self.artifacts)


def _install_elan(paths: ToolchainPaths, progress: Progress) -> None:
    root = paths.root
    root.mkdir(parents=True, exist_ok=True)
    script = root / "elan-init.sh"
    env = bootstrap_env(paths)
    run_command(["curl", "-sSfL", ELAN_INSTALLER_URL, "-o", script], cwd=root, env=env, progress=progress)
    actual = sha256_file(script)
    if actual != ELAN_INSTALLER_SHA256:
        script.unlink(missing_ok=True)
        raise BootstrapError(
            f"the elan installer from {ELAN_INSTALLER_URL} has SHA-256 {actual}, but {ELAN_INSTALLER_SHA256} "
            "is pinned; it was not run. A proxy or mirror may have changed it: fetch it from GitHub directly, "
            "or install elan yourself and pass --lean PATH"
        )
    progress(f"elan installer SHA-256 matches the pin ({ELAN_INSTALLER_SHA256}); {ELAN_UNPINNED}")
    run_command(
        ["sh", script, "-y", "--no-modify-path", "--default-toolchain", "none"],
        cwd=root,
        env=env,
        progress=progress,
    )
    script.unlink(missing_ok=True)


def _install_lean(paths: ToolchainPaths, progress: Progress) -> None:
    run_command(
        [elan_bin(paths) / "elan", "toolchain", "install", paths.release.toolchain],
        cwd=paths.root,
        env=bootstrap_env(paths),
        progress=progress,
    )


def project_files(release: LeanRelease = DEFAULT) -> dict[str, str]:
    """The files of the Lake project template of ``release``, by name."""
    return {"lakefile.toml": lakefile(release), "lean-toolchain": release.toolchain + "\n"}


def _write_project(paths: ToolchainPaths, progress: Progress) -> None:
    project = paths.project
    project.mkdir(parents=True, exist_ok=True)
    for name, text in project_files(paths.release).items():
        (project / name).write_text(text, encoding="utf-8")
    progress(f"wrote {', '.join(project_files(paths.release))} in {project}")


def _fetch_mathlib(paths: ToolchainPaths, progress: Progress) -> None:
    run_command([lake_shim(paths), "update"], cwd=paths.project, env=bootstrap_env(paths), progress=progress)


def _mathlib_cache(paths: ToolchainPaths, progress: Progress) -> None:
    run_command(
        [lake_shim(paths), "exe", "cache", "get"], cwd=paths.project, env=bootstrap_env(paths), progress=progress
    )


def _build_mathlib(paths: ToolchainPaths, progress: Progress) -> None:
    run_command([lake_shim(paths), "build", "Mathlib"], cwd=paths.project, env=bootstrap_env(paths), progress=progress)


def checkout(paths: ToolchainPaths, url: str, rev: str, name: str, progress: Progress) -> Path:
    """A clone of ``url`` at exactly ``rev`` under ``<root>/src/<name>``; an existing clone is reused."""
    target = sources_dir(paths) / name
    env = bootstrap_env(paths)
    if not (target / ".git").is_dir():
        sources_dir(paths).mkdir(parents=True, exist_ok=True)
        shutil.rmtree(target, ignore_errors=True)
        run_command(["git", "clone", "--quiet", url, target], cwd=sources_dir(paths), env=env, progress=progress)
    try:
        run_command(
            ["git", "-C", target, "checkout", "--quiet", "--force", rev], cwd=target, env=env, progress=progress
        )
    except BootstrapError as exc:
        raise BootstrapError(
            f"the pinned commit {rev} of {url} cannot be checked out (removed upstream, or a wrong pin?); "
            f"nothing was built from it. Check the pin in docs/lean-toolchain.md.\n{exc}"
        ) from exc
    return target


def _install_binary(built: Path, dest: Path) -> None:
    if not built.is_file():
        raise BootstrapError(f"the build finished but {built} does not exist")
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(built, dest)
    dest.chmod(0o755)


def _build_lake_exe(paths: ToolchainPaths, url: str, rev: str, name: str, dest: Path, progress: Progress) -> None:
    source = checkout(paths, url, rev, name, progress)
    run_command([lake_shim(paths), "build", name], cwd=source, env=bootstrap_env(paths), progress=progress)
    _install_binary(source / ".lake" / "build" / "bin" / name, dest)


def _build_comparator(paths: ToolchainPaths, progress: Progress) -> None:
    _build_lake_exe(paths, COMPARATOR_GIT, COMPARATOR_REV, "comparator", paths.comparator, progress)


def _build_lean4export(paths: ToolchainPaths, progress: Progress) -> None:
    """lean4export's repository names the Lean it builds with (its ``lean-toolchain``): the release's own."""
    release = paths.release
    source = checkout(paths, LEAN4EXPORT_GIT, release.lean4export_rev, f"lean4export-{release.version}", progress)
    run_command([lake_shim(paths), "build", "lean4export"], cwd=source, env=bootstrap_env(paths), progress=progress)
    _install_binary(source / ".lake" / "build" / "bin" / "lean4export", paths.lean4export)


def _build_nanoda(paths: ToolchainPaths, progress: Progress) -> None:
    if shutil.which("cargo", path=bootstrap_env(paths)["PATH"]) is None:
        raise BootstrapError(
            "nanoda is written in Rust: install cargo (rustup.rs) and run putnam bootstrap --nanoda again"
        )
    source = checkout(paths, NANODA_GIT, NANODA_REV, "nanoda_lib", progress)
    run_command(["cargo", "build", "--release"], cwd=source, env=bootstrap_env(paths), progress=progress)
    _install_binary(source / "target" / "release" / "nanoda_bin", paths.nanoda)


WARM_MODULE = "import Mathlib\n"


def _warm_mathlib(paths: ToolchainPaths, progress: Progress) -> None:
    """Build one ``import Mathlib`` module in the bootstrapped project while its packages are still
    writable: whatever Lake wants to write into them (traces, rebuilt files) happens now, not under
    comparator's landrun, where the linked packages are read-only."""
    project = paths.project
    (project / f"{CHALLENGE_MODULE}.lean").write_text(WARM_MODULE, encoding="utf-8")
    run_command([lake_shim(paths), "build", CHALLENGE_MODULE], cwd=project, env=bootstrap_env(paths), progress=progress)


def _build_landrun(paths: ToolchainPaths, progress: Progress) -> None:
    if shutil.which("go", path=bootstrap_env(paths)["PATH"]) is None:
        raise BootstrapError(
            "landrun is written in Go and must be built from source: install a Go toolchain "
            "(the `go` command, e.g. the golang package of your distribution) and run putnam bootstrap again"
        )
    source = checkout(paths, LANDRUN_GIT, LANDRUN_REV, "landrun", progress)
    run_command(
        ["go", "build", "-o", paths.landrun, "./cmd/landrun"],
        cwd=source,
        env=bootstrap_env(paths),
        progress=progress,
    )


def plan(root: Path, build_mathlib: bool = False, nanoda: bool = False, release: LeanRelease = DEFAULT) -> list[Step]:
    """The steps that make ``root`` a complete toolchain directory for ``release``, in the order they must
    run. Steps of one release are named after it (``lean v4.24.0``), so releases install side by side and
    the shared ones (elan, comparator, landrun) run once."""
    paths = ToolchainPaths(root, release)
    project = paths.project
    packages = project / ".lake" / "packages"
    tag = release.version

    def step(
        name: str,
        description: str,
        pin: str,
        artifacts: Sequence[Path],
        action: Callable[[ToolchainPaths, Progress], None],
    ) -> Step:
        return Step(name, description, paths, pin, tuple(artifacts), lambda progress: action(paths, progress))

    mathlib = release_pins(release)["mathlib"]
    mathlib_oleans = (
        step(
            f"mathlib-build {tag}",
            f"build Mathlib {release.mathlib_tag} from source in {project} (hours; needs ~16 GB of memory)",
            mathlib,
            [mathlib_olean(paths)],
            _build_mathlib,
        )
        if build_mathlib
        else step(
            f"mathlib-cache {tag}",
            f"download Mathlib's prebuilt .olean files (several GB) into {packages} (lake exe cache get)",
            mathlib,
            [mathlib_olean(paths)],
            _mathlib_cache,
        )
    )
    return [
        step(
            "elan",
            f"download the elan installer of elan {ELAN_RELEASE} ({ELAN_INSTALLER_URL}), check its SHA-256 "
            f"against the pin and install elan into {paths.elan_home}, without a default toolchain and "
            f"without touching your shell profile; {ELAN_UNPINNED}",
            ELAN_INSTALLER_URL,
            [elan_bin(paths) / "elan", lake_shim(paths)],
            _install_elan,
        ),
        step(
            f"lean {tag}",
            f"download Lean {release.toolchain} into {paths.elan_home / 'toolchains'}",
            release.toolchain,
            [paths.lean],
            _install_lean,
        ),
        step(
            f"project {tag}",
            f"write the Lake project template (Mathlib {release.mathlib_tag}, autoImplicit false) into {project}",
            mathlib,
            [project / name for name in project_files(release)],
            _write_project,
        ),
        step(
            f"mathlib-source {tag}",
            f"clone Mathlib {release.mathlib_rev} and its dependencies into {packages} (lake update)",
            mathlib,
            [project / "lake-manifest.json"],
            _fetch_mathlib,
        ),
        mathlib_oleans,
        step(
            f"mathlib-warm {tag}",
            f"build one `import Mathlib` module in {project} so that Lake never writes into the shared "
            "packages later (comparator builds with them read-only)",
            mathlib,
            [project / ".lake" / "build" / "lib" / "lean" / f"{CHALLENGE_MODULE}.olean"],
            _warm_mathlib,
        ),
        step(
            f"import-closure {tag}",
            f"compute the import closure of Mathlib {release.mathlib_tag} from its sources in {packages} and "
            "check that the closure shipped with putnam (the imports the text gates take as already loaded) "
            "names no module it lacks",
            mathlib,
            [project / "import_closure.json"],
            import_closure_step,
        ),
        step(
            "comparator",
            f"clone {COMPARATOR_GIT} at {COMPARATOR_REV} into {sources_dir(paths)}, build it with the Lean "
            f"version it names (elan downloads it) and install {paths.comparator}",
            COMPARATOR_REV,
            [paths.comparator],
            _build_comparator,
        ),
        step(
            f"lean4export {tag}",
            f"clone {LEAN4EXPORT_GIT} at {release.lean4export_rev} into {sources_dir(paths)}, build it with Lean "
            f"{tag} and install {paths.lean4export}",
            release.lean4export_rev,
            [paths.lean4export],
            _build_lean4export,
        ),
        step(
            "landrun",
            f"clone {LANDRUN_GIT} at {LANDRUN_REV} into {sources_dir(paths)} and build {paths.landrun} with Go",
            LANDRUN_REV,
            [paths.landrun],
            _build_landrun,
        ),
        *(
            [
                step(
                    "nanoda",
                    f"clone {NANODA_GIT} ({NANODA_REV}) into {sources_dir(paths)} and build {paths.nanoda} with cargo",
                    NANODA_REV,
                    [paths.nanoda],
                    _build_nanoda,
                )
            ]
            if nanoda
            else []
        ),
    ]
