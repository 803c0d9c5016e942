"""Which code decided a verdict: what the verdict cache's key and a selftest record's key take, so that a
verdict made by other code is never reused for this code's.

The trusted package's own code is one fingerprint (``cache.gate_code_fingerprint``, over every file of
``core``). Gates can also come from outside it, registered by entry point (``core.registry``): a prover of
another distribution (``putnam_solver.provers``) and an external check (``putnam_solver.external_checks``:
G7, whose AXLE client lives in ``putnam_solver.axle``). Before red team 16 their code was in no key: after a
plug-in's upgrade whose G3 refuses a candidate, the old release's acceptance still answered, ``accepted
(cached verdict)``. :func:`plugin_code` names that code by its bytes, as ``gate_code_fingerprint`` names
the core's.
"""

from __future__ import annotations

import hashlib
import sys
from functools import cache
from pathlib import Path

CORE = Path(__file__).resolve().parent
"""The trusted package, whose every file ``cache.gate_code_fingerprint`` hashes already."""


def code_fingerprint(root: Path) -> str:
    """SHA-256 over the files under ``root`` (names and bytes) but bytecode.

    Every file, not only the source: the gates also read data shipped beside it (the benchmark records,
    Rocq's table of kernel bugs, which decides whether candidate recursion is refused, Lean's import
    closure, which decides which imports are accepted), and a verdict, kept build or selftest record made
    under other data is not one of these gates."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not _bytecode(p.relative_to(root))):
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _bytecode(relative: Path) -> bool:
    return "__pycache__" in relative.parts or relative.suffix in (".pyc", ".pyo")


def plugin_code(plugin: object) -> str:
    """The identity of the code ``plugin`` (a prover, an external check) is defined in: the SHA-256 of every
    file of its module's package (of the module's file when it is in no package), so that a changed gate,
    or changed data beside it, is another identity. ``""`` for code inside the trusted package (its
    fingerprint is part of every key already). Code with no file to read (defined in ``__main__``'s
    input or at run time) is an identity of this process alone: what it decided answers no other process."""
    name = getattr(plugin, "__module__", None) or type(plugin).__module__
    found = _module_code(name)
    return found if found is not None else f"{name}: no source file, this process only ({id(sys.modules)})"


@cache
def _module_code(name: str) -> str | None:
    module = sys.modules.get(name)
    if module is None:
        return None
    package = sys.modules.get(module.__package__) if module.__package__ else None
    package_file = getattr(package, "__file__", None)
    module_file = getattr(module, "__file__", None)
    if package_file and Path(package_file).name == "__init__.py":
        root = Path(package_file).resolve().parent
    elif module_file and Path(module_file).is_file():
        root = Path(module_file).resolve()
    else:
        return None
    if root == CORE or CORE in root.parents:
        return ""
    if root.is_file():
        single = hashlib.sha256(root.name.encode() + b"\0" + root.read_bytes())
        return f"{name}: {single.hexdigest()}"
    return f"{name}: {code_fingerprint(root)}"
