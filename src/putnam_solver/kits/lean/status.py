"""What ``putnam doctor`` says of an installed Lean release: one row per component of the bootstrap plan,
usable only while the step that installed it is recorded as finished with the same files."""

from __future__ import annotations

import subprocess
from pathlib import Path

from putnam_solver.core.provers.lean.toolchain import DEFAULT, LeanRelease, ToolchainPaths, installed_releases
from putnam_solver.core.sandbox import landlock_status
from putnam_solver.kits.lean.bootstrap_paths import mathlib_olean
from putnam_solver.kits.lean.install import plan


def _lean_row(lean: Path, recorded: bool) -> tuple[bool, str]:
    """The toolchain's `lean`: missing, present but not recorded by a finished bootstrap step (a copy
    left by an interrupted or older bootstrap, whose files the manifest cannot vouch for), or usable."""
    if not lean.is_file():
        return False, f"{lean} missing; run putnam bootstrap"
    ok, version = _lean_version(lean)
    if not ok:
        return False, f"{version}; run putnam bootstrap to reinstall it"
    if not recorded:
        return False, (
            f"{version} at {lean}, but no finished bootstrap step records it (interrupted, or changed since); "
            "run putnam bootstrap to finish the install"
        )
    return True, version


def _lean_version(lean: Path) -> tuple[bool, str]:
    try:
        done = subprocess.run([str(lean), "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, f"{lean} --version failed: {exc}"
    version = done.stdout.strip() or done.stderr.strip()
    if done.returncode != 0:
        return False, f"{lean} --version failed with exit code {done.returncode}: {version}"
    return True, version


def toolchain_status(root: Path, release: LeanRelease = DEFAULT) -> list[tuple[str, bool, str]]:
    """One line per component of ``release`` for ``putnam doctor``: name, whether it is usable, the detail."""
    paths = ToolchainPaths(root, release)
    tag = release.version
    steps = {s.name: s for s in [*plan(root, release=release), *plan(root, build_mathlib=True, release=release)]}
    rows: list[tuple[str, bool, str]] = []
    for name in ("elan", "lean", "project", "mathlib", "comparator", "lean4export", "landrun"):
        own = f"{name} {tag}"
        if name == "lean":
            rows.append((own, *_lean_row(paths.lean, steps[own].done())))
        elif name == "mathlib":
            ok = steps[f"mathlib-cache {tag}"].done() or steps[f"mathlib-build {tag}"].done()
            detail = str(mathlib_olean(paths)) if ok else f"no Mathlib {tag} .olean files; run putnam bootstrap"
            rows.append((own, ok, detail))
        else:
            step = steps.get(own) or steps[name]
            ok = step.done()
            target = ", ".join(str(p) for p in step.artifacts)
            rows.append((step.name, ok, target if ok else f"missing or changed: {target}; run putnam bootstrap"))
    installed = installed_releases(root)
    rows.append(("releases installed", bool(installed), ", ".join(installed) or f"none under {root}"))
    rows.append(("landlock", *landlock_status()))
    return rows
