"""Imports a candidate may add: modules the challenge's own imports already load.

Why this is sound: Lean loads the import closure of a file's header once, as a set (``importModules``
visits each module once, whatever the order or repetition of the ``import`` lines), and
``Lean.Elab.headerToImports`` adds ``Init`` to every header without ``prelude``. A candidate header
``import Mathlib`` + ``import Aesop`` therefore builds exactly the environment ``import Mathlib`` builds
whenever ``Aesop`` is in the closure of ``Mathlib``: nothing the statement can mean changes. Any other
import can add declarations, instances, notations or attributes, and stays refused. Only the plain
form ``import M`` qualifies (``import all M`` exposes private declarations, as ``open private`` would).

The closure is data per pinned release (``import_closure.json``), so the text profile knows it without
Lean; ``kits.lean.closure`` recomputes it from an installed toolchain's sources at bootstrap.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from putnam_solver.core.provers.lean.syntax import IDENT, LexError, lex_code, normalize_name

CLOSURE_DATA: Final = Path(__file__).with_name("import_closure.json")


@dataclass(frozen=True)
class ImportClosure:
    """What the imports ``roots`` load on ``release``: every module of the ``whole`` roots, and
    ``modules``, each with the reason it is there (the import chain, cited from the sources)."""

    release: str
    roots: tuple[str, ...]
    whole: tuple[str, ...]
    modules: dict[str, str]

    def reason(self, module: str) -> str | None:
        """Why ``module`` is already loaded by the roots (recorded in the verdict), or None if it is not
        known to be: then importing it may change the environment."""
        module = normalize_name(module)
        if module in self.roots:
            return "imported by the challenge itself"
        if module in self.modules:
            return self.modules[module]
        root = next((w for w in self.whole if module == w or module.startswith(f"{w}.")), None)
        return f"every module of `{root}` is in the closure of `{root}`" if root is not None else None


@cache
def _shipped() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CLOSURE_DATA.read_text(encoding="utf-8"))
    return data


def closure_for(release: str | None, roots: Iterable[str]) -> ImportClosure | None:
    """The shipped closure of the challenge's ``roots`` on ``release``, or None where the data has no
    such release (then no import beyond the challenge's own is accepted). Several roots: the union of
    each one's closure, which is the closure of the union."""
    data = _shipped()
    roots = tuple(sorted({normalize_name(r) for r in roots}))
    if release is None or release not in data["releases"]:
        return None
    whole: list[str] = []
    modules: dict[str, str] = {}
    for root in roots:
        entry = data["roots"].get(root)
        if entry is None:
            continue
        whole += [name for name in entry["whole"] if name not in whole]
        modules |= entry["modules"]
    return ImportClosure(release, roots, tuple(whole), modules)


def header_imports(text: str) -> list[str]:
    """The modules a Lean file's header imports (``module``, ``prelude`` and the ``public``/``meta``/``all``
    markers skipped), read with the gates' lexer so that comments cannot hide or fake an import."""
    try:
        tokens = lex_code(text)
    except LexError:
        return []
    modules: list[str] = []
    i = 0
    while i < len(tokens):
        text_i = tokens[i].text
        if text_i in ("module", "prelude", "public", "meta", "private"):
            i += 1
        elif text_i == "import":
            j = i + 1
            while j < len(tokens) and tokens[j].text in ("all", "private"):
                j += 1
            if j >= len(tokens) or tokens[j].kind != IDENT:
                break
            modules.append(normalize_name(tokens[j].text))
            i = j + 1
        else:
            break
    return modules
