"""Which libraries a Rocq ``Require`` loads: resolved against the libraries the installed coqc has.

Coq resolves ``Require A.B`` by the suffix of logical paths: ``Require Import ZArith.Zpow_facts`` loads
``Coq.ZArith.Zpow_facts`` when that is the only installed library whose path ends so. G2 uses this to
accept a partially qualified name of an installed library, and a header ``Require`` that names the
challenge's library by another path (``Coq.Reals.Reals`` for ``Reals``); an unresolvable or ambiguous
name stays refused.
"""

from __future__ import annotations

import functools
import os

from putnam_solver.core.gatekit import ResolvedTool
from putnam_solver.core.provers.rocq.syntax import Kind, Sentence
from putnam_solver.core.provers.rocq.toolchain import coq_library, library_listing


def installed_modules(coqc: ResolvedTool | None) -> frozenset[str]:
    """Every compiled library this coqc can ``Require``, by full logical name: ``theories/A/B.vo`` is
    ``Coq.A.B``, ``user-contrib/X/A.vo`` is ``X.A`` (how ``coqc`` binds its own library directories).
    Empty without a coqc: then no partially qualified name can be resolved, and none is accepted.

    Read from the listing the library's state comes from (``toolchain.library_listing``; the toolchain's
    fingerprint, and so every verdict's key, holds that state): remembered by its path alone (before red
    team 17), a module installed while ``serve`` ran was missing from the set, so a name it made ambiguous
    was still resolved, under the key of the new library; listed apart, without following links (before
    red team 21), a module under a linked directory, which coqc loads, was missing from it the same way."""
    library = coq_library(coqc) if coqc is not None else None
    return _modules_of(str(library), library_listing(library)[1]) if library is not None else frozenset()


@functools.lru_cache(maxsize=4)
def _modules_of(library: str, files: tuple[str, ...]) -> frozenset[str]:
    """The modules the compiled files of ``library`` (among ``files``) are."""
    theories, contrib = (os.path.join(library, name) + os.sep for name in ("theories", "user-contrib"))
    roots = [(theories, ["Coq"]), (contrib, [])]
    return frozenset(
        ".".join([*prefix, *path[len(root) : -len(".vo")].split(os.sep)])
        for path in files
        if path.endswith(".vo")
        for root, prefix in roots
        if path.startswith(root) and (prefix or os.sep in path[len(root) :])
    )


def library_ok(sentence: Sentence, installed: frozenset[str], permitted: tuple[str, ...]) -> bool:
    """A ``Require``/``From ... Require`` of libraries under the ``permitted`` roots only."""
    root, names = _require_names(sentence)
    if root or sentence.command == "From":
        return any((root + ".").startswith(p) for p in permitted)
    return bool(names) and all(_permitted_name(n, installed, permitted) for n in names)


def same_sentence(got: Sentence, want: Sentence, installed: frozenset[str]) -> bool:
    """Equal as Coq reads them; a header ``Require`` also when each name resolves to the same installed
    library as the challenge's (``Require Import Coq.Reals.Reals.`` for ``Require Import Reals.``)."""
    if got.key == want.key:
        return True
    if got.command != "Require" or want.command != "Require" or len(got.tokens) != len(want.tokens):
        return False
    return all(_same_library(a, b, installed) for a, b in zip(got.words, want.words, strict=True))


def loads_more(got: Sentence, want: Sentence, installed: frozenset[str]) -> bool:
    """``got`` loads the challenge's header ``Require`` ``want`` along with other libraries, in one sentence of
    the same mode (``Require Import Reals Lra.`` for ``Require Import Reals.``). What it adds acts only
    through elaboration, as the same ``Require`` written as a sentence of its own would."""
    got_mode, got_names = _require_parts(got)
    want_mode, want_names = _require_parts(want)
    if not want_mode or got_mode != want_mode or len(got_names) <= len(want_names):
        return False
    return all(any(_same_library(a, b, installed) for a in got_names) for b in want_names)


def left_out(want: Sentence, rest: list[Sentence], installed: frozenset[str]) -> bool:
    """The challenge's header ``Require`` ``want`` that no sentence of ``rest`` loads. G5 elaborates the
    statement from the pinned text with the challenge's own libraries, so a candidate that does without
    one (``Require Import Nat Lia.`` for ``Require Import Arith.``) differs only through elaboration."""
    if not _require_parts(want)[0]:
        return False
    return not any(same_sentence(s, want, installed) or loads_more(s, want, installed) for s in rest)


def _require_parts(sentence: Sentence) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A ``Require`` sentence's mode (``From X Require Import``) and the library names it loads; no mode
    for any other sentence."""
    words = [t.text for t in sentence.tokens[sentence.command_index() : -1]]
    start = 2 if words[:1] == ["From"] else 0
    if words[start : start + 1] != ["Require"]:
        return (), ()
    end = start + 1 + (words[start + 1 : start + 2] in (["Import"], ["Export"]))
    return tuple(words[:end]), tuple(words[end:])


def _same_library(a: str, b: str, installed: frozenset[str]) -> bool:
    return a == b or _resolve(a, installed) == _resolve(b, installed) is not None


def _resolve(name: str, installed: frozenset[str]) -> str | None:
    """The one installed library a ``Require`` of ``name`` loads, or None when there is none or several."""
    found = [m for m in installed if m == name or m.endswith(f".{name}")]
    return found[0] if len(found) == 1 else None


SUFFIX_ROOT = "Coq."
"""The one root whose libraries coqc finds by a suffix of their names (``Reals``, ``Reals.Rfunctions``); the
other installed roots (``mathcomp``, ``Coquelicot``, ``Ltac2``...) are bound by their full names only, or
searched within the root a ``From`` names. Measured with coqc 8.16: ``Require Import Ltac2.``, ``Require
Import ssreflect.ssrnat.``, ``From Coq Require Import Ltac2.`` and ``Require Import Coq.Ltac2.`` fail with
"Cannot find a physical path bound to logical path"; ``Require Import Reals.Rfunctions.``, ``From mathcomp
Require Import ssrnat.`` and ``Require Import Coquelicot.Rcomplements.`` load."""


def unresolved_names(sentence: Sentence, installed: frozenset[str]) -> list[str]:
    """The names of a ``Require`` that coqc cannot load: a text gate that took them would pass what the
    compile then refuses (``Require Import Ltac2.``). Empty without a coqc (nothing to resolve against: the
    compile decides)."""
    root, names = _require_names(sentence)
    if not installed:
        return []
    if root:
        return [n for n in names if not any(m.startswith(f"{root}.") and _ends(m, n) for m in installed)]
    return [n for n in names if not any(m == n or (m.startswith(SUFFIX_ROOT) and _ends(m, n)) for m in installed)]


def _ends(module: str, name: str) -> bool:
    return module == name or module.endswith(f".{name}")


def _require_names(sentence: Sentence) -> tuple[str, list[str]]:
    """A ``Require``'s ``From`` root (empty without one) and the library names it loads: not the import
    categories (``Require Import -(notations) Reals.``) or the filter (``PeanoNat(Nat.add_comm)``) in
    parentheses, nor the ``-`` that negates categories (coqc 8.16 accepts both)."""
    tokens = sentence.tokens[sentence.command_index() : -1]
    root = tokens[1].text if tokens[:1] and tokens[0].text == "From" and len(tokens) > 1 else ""
    names, depth = [], 0
    for tok in tokens[3 if root else 1 :]:
        depth += {"(": 1, ")": -1}.get(tok.text, 0)
        if depth == 0 and tok.kind is Kind.WORD and tok.text not in ("Import", "Export"):
            names.append(tok.text)
    return root, names


def _permitted_name(name: str, installed: frozenset[str], permitted: tuple[str, ...]) -> bool:
    """A bare name, a name under a permitted root, or a partially qualified one that resolves to exactly
    one installed library under a permitted root."""
    if "." not in name or any(name.startswith(p) for p in permitted):
        return True
    found = _resolve(name, installed)
    return found is not None and any(found.startswith(p) for p in permitted)
