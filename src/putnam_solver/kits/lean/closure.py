"""The import closure recomputed from an installed toolchain's sources, at bootstrap.

The gates accept an added ``import M`` only when the closure shipped with the trusted package
(``core.provers.lean.imports``, ``import_closure.json``) says the challenge's imports already load ``M``.
This computes the closure again from the installed release's ``.lean`` sources, so that bootstrap can
refuse to go on when the shipped data claims a module the installed sources do not load (the gate would
accept an import it should refuse). It decides no verdict: the gates read only the shipped data.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Final

from putnam_solver.core.provers.lean.imports import closure_for, header_imports
from putnam_solver.core.provers.lean.syntax import normalize_name
from putnam_solver.core.provers.lean.toolchain import ToolchainPaths
from putnam_solver.kits.installing import InstallError


def build_closure(search_path: Sequence[Path], roots: Iterable[str]) -> dict[str, str]:
    """Every module the ``roots`` load, found by reading the ``.lean`` sources under ``search_path``
    (the toolchain's ``src/lean`` and each Lake package's source directory), each with the module that
    first imports it. A module whose source is not found stays in the result (it is loaded; its own
    imports are unknown) and is reported by :func:`unresolved`."""
    found: dict[str, str] = {normalize_name(r): "root" for r in roots}
    found.setdefault("Init", "implicit: every header without `prelude`")
    todo = list(found)
    while todo:
        module = todo.pop()
        source = module_source(search_path, module)
        if source is None:
            continue
        for imported in header_imports(source.read_text(encoding="utf-8", errors="replace")):
            if imported not in found:
                found[imported] = f"imported by {module}"
                todo.append(imported)
    return found


def module_source(search_path: Sequence[Path], module: str) -> Path | None:
    """``A.B`` -> the first ``<root>/A/B.lean`` on the search path, as Lean's ``findOLean`` looks."""
    relative = Path(*module.split(".")).with_suffix(".lean")
    return next((root / relative for root in search_path if (root / relative).is_file()), None)


def unresolved(search_path: Sequence[Path], closure: Iterable[str]) -> list[str]:
    return sorted(m for m in closure if module_source(search_path, m) is None)


def check_shipped(release: str, root: str, built: Iterable[str]) -> list[str]:
    """Modules the shipped data says ``root`` loads on ``release`` but the installed toolchain's closure
    lacks: each is a defect of the data, which bootstrap refuses to go on with (the gate would accept an
    import it should refuse)."""
    shipped = closure_for(release, [root])
    if shipped is None:
        return []
    built_set = set(built)
    return sorted(m for m in [*shipped.modules, *shipped.whole] if m not in built_set)


BOOTSTRAP_ROOTS: Final = ("Mathlib",)


def installed_search_path(toolchain_bin: Path, project: Path) -> list[Path]:
    """Where an installed release's sources are: the toolchain's ``src/lean`` (Init, Std, Lean, Lake) and
    each Lake package of the project (Mathlib, Batteries, Aesop, Qq, ProofWidgets, ...), as ``lean`` finds
    their ``.olean`` files under the same module names."""
    packages = project / ".lake" / "packages"
    found = sorted(p for p in packages.iterdir() if p.is_dir()) if packages.is_dir() else []
    return [toolchain_bin.parent / "src" / "lean", *found]


def import_closure_step(paths: ToolchainPaths, progress: Callable[[str], None]) -> None:
    """Bootstrap's step: the closure of each of :data:`BOOTSTRAP_ROOTS` computed from the installed
    sources, written beside the project as ``import_closure.json``, after checking that the shipped
    data claims nothing the installed sources do not load (else the step fails)."""
    search = installed_search_path(paths.toolchain_bin, paths.project)
    release = paths.release.version
    data: dict[str, Any] = {"release": release, "roots": {}}
    for root in BOOTSTRAP_ROOTS:
        closure = build_closure(search, [root])
        if wrong := check_shipped(release, root, closure):
            raise InstallError(f"the shipped import closure of {root} on {release} names modules it lacks: {wrong}")
        data["roots"][root] = {"modules": closure, "unresolved": unresolved(search, closure)}
        progress(f"import closure of {root} on {release}: {len(closure)} modules")
    target = paths.project / "import_closure.json"
    target.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
