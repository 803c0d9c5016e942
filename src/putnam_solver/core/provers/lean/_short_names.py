"""What a bare library name in a counting value means under the ``open``s in force (red team 42, false
rejections 44): ``ncard`` under ``open Set`` is ``Set.ncard``, ``card (range n)`` under ``open Finset`` is
``Finset.card (Finset.range n)``, read as that spelling is read.

Lean resolves a bare name to every ``N.x`` of an open namespace ``N`` that exists and is not ``protected``,
and to a root ``x``; it elaborates them all: one success is used, more are an error (leanprover/lean4
src/Lean/Elab/App.lean, ``elabAppAux``: "ambiguous, possible interpretations"). So a name means one
declaration only where, among the namespaces in force, one declares it: that must be known of every
namespace in force. :data:`SHORT` lists, for each name read, the one namespace whose declaration it
means and the namespaces known not to declare it otherwise (with no root one); where any other namespace
is in force, or none declares it, the name is left as written (the count rules then refuse it: fail
closed). Known: ``Set.ncard``/``Set.encard`` (Mathlib/Data/Set/Card.lean), ``Nat.Coprime`` (core's
src/Init/Data/Nat/Coprime.lean), ``Nat.factorial`` (Mathlib/Data/Nat/Factorial/Basic.lean),
``Finset.card``, ``Finset.range``, ``Finset.filter`` (Mathlib/Data/Finset/); ``Nat.card`` is ``protected
def card`` (Mathlib/SetTheory/Cardinal/Finite.lean), so ``open Nat`` gives no bare ``card``; no root one,
nor another in the known namespaces, was found in the stored sources. Not here: ``Prime`` (a root
``Prime``), ``gcd``/``lcm`` (root ``GCDMonoid`` exports), ``range`` beside ``open Set`` (``Set.range``,
an ``∃``: truly ambiguous), ``choose`` (``Nat.choose`` and ``Finset.choose``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from putnam_solver.core.provers.lean.syntax import IDENT, Token, name_parts, normalize_name

SHORT: Final = {
    "ncard": ("Set", frozenset({"Nat", "Set"})),
    "encard": ("Set", frozenset({"Nat", "Set"})),
    "Coprime": ("Nat", frozenset({"Nat", "Set"})),
    "factorial": ("Nat", frozenset({"Nat", "Set"})),
    "card": ("Finset", frozenset({"Nat", "Finset"})),
    "range": ("Finset", frozenset({"Finset"})),
    "filter": ("Finset", frozenset({"Finset"})),
}
"""A bare name: the namespace whose declaration it means where that namespace is open, and the namespaces
known to give it no other meaning (module doc)."""
SCOPES: Final = frozenset(scope for _, known in SHORT.values() for scope in known)


def resolved(text: str, opened: Collection[str]) -> str | None:
    """The full name the bare name ``text`` (with its fields: ``card.succ``) means where the namespaces
    ``opened`` are in force, or None where it is not one :data:`SHORT` resolves (module doc)."""
    parts = name_parts(normalize_name(text))
    if parts[0] not in SHORT:
        return None
    owner, known = SHORT[parts[0]]
    if owner not in opened or not set(opened) <= known:
        return None
    return ".".join([owner, *parts])


def opened_in(value: Sequence[Token]) -> frozenset[int]:
    """The tokens of each ``open N .. in`` inside ``value`` whose namespaces are all among :data:`SCOPES`:
    such an ``open`` only makes bare names mean what :func:`resolved` reads (with its namespaces counted
    in force over the whole value: more namespaces resolve fewer names)."""
    found: list[int] = []
    for i, token in enumerate(value):
        if token.text != "open":
            continue
        j = i + 1
        while j < len(value) and value[j].kind == IDENT and value[j].text in SCOPES:
            j += 1
        if j > i + 1 and j < len(value) and value[j].text == "in":
            found += range(i, j + 1)
    return frozenset(found)
