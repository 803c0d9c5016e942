"""The Lake project every Lean gate builds in, and what a toolchain of a release is pinned to.

G4 and G5 compile with the project's Lean options, G6 writes this lakefile for comparator's build, and the
verdict records the pins; ``putnam bootstrap`` (``putnam_solver.kits.lean.install``) installs exactly
these. Kept apart from the installer so that the gates import no download code.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping

from putnam_solver.core.provers.lean.toolchain import DEFAULT, LANDRUN_REV, LeanRelease

COMPARATOR_REV = "575674928e239f5bc452aab72d1dd7b0f1326494"
"""leanprover/comparator, merge of PR 75 (external kernels): every soundness fix after 099775bf (see
docs/lean-toolchain.md for the list and why not a newer commit)."""
MATHLIB_GIT = "https://github.com/leanprover-community/mathlib4"
CHALLENGE_MODULE = "Challenge"
SOLUTION_MODULE = "Solution"


def _toml_value(value: bool | int | str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, int) else json.dumps(value)


PROJECT_LEAN_OPTIONS: dict[str, bool | int | str] = {"autoImplicit": False}
"""The ``leanOptions`` of the project template: PutnamBench's (``autoImplicit`` off, as in Mathlib itself),
used for benchmarks whose record states none of their own."""


def lakefile(release: LeanRelease = DEFAULT, options: Mapping[str, bool | int | str] = PROJECT_LEAN_OPTIONS) -> str:
    """The Lake project every Lean gate copies, for one release: Mathlib pinned by commit, the two
    libraries comparator builds, and the benchmark's ``leanOptions`` (a fresh project per verification
    carries the benchmark's own; they apply to its two libraries, not to Mathlib)."""
    lines = [f"{name} = {_toml_value(value)}" for name, value in sorted(options.items())]
    return f"""name = "PutnamWorkspace"
version = "0.1.0"
defaultTargets = []

[leanOptions]
{chr(10).join(lines)}

[[require]]
name = "mathlib"
git = "{MATHLIB_GIT}"
rev = "{release.mathlib_rev}"

[[lean_lib]]
name = "{CHALLENGE_MODULE}"

[[lean_lib]]
name = "{SOLUTION_MODULE}"
"""


LAKEFILE = lakefile()


def lean_option_flags(options: Mapping[str, object] | None = None, lakefile_text: str = LAKEFILE) -> tuple[str, ...]:
    """Lean options as the ``-D`` flags Lake gives `lean` for them: ``options`` (a benchmark's own), else
    the ``[leanOptions]`` of the project template.

    G4 and G5 call `lean` themselves, so without these they would compile with Lean's defaults while
    comparator's ``lake build`` uses the project's, and the fast profile could pass what the full one
    refuses. Lake formats each as ``-D<name>=<value>``, strings in double quotes (leanprover/lean4
    src/Lean/Util/LeanOptions.lean, ``LeanOption.asCliArg`` and ``asCliFlagValue``).
    """
    chosen = dict(options) if options is not None else tomllib.loads(lakefile_text).get("leanOptions", {})
    return tuple(f"-D{name}={_cli_value(value)}" for name, value in sorted(chosen.items()))


def _cli_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value >= 0:
        return str(value)
    if isinstance(value, str):
        return f'"{value}"'
    raise ValueError(f"a Lean option must be a string, a boolean or a natural number, not {value!r}")


def release_pins(release: LeanRelease) -> dict[str, str]:
    """What a bootstrap of ``release`` installs, pinned."""
    return {
        "lean": release.toolchain,
        "mathlib": f"{release.mathlib_tag} {release.mathlib_rev}",
        "comparator": COMPARATOR_REV,
        "lean4export": release.lean4export_rev,
        "landrun": LANDRUN_REV,
    }


PINS = release_pins(DEFAULT)
