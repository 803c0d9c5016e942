"""The canonical form the copy rule compares in (``_answer_copy``, ``_answer_contains``).

A value and the statement's side are read as token lists in which a copy regrouped or renamed is still the
same list: parentheses are kept apart (the comparison judges them where they group, ``_answer_contains``),
each bound variable is numbered in the order it is bound (``∑ i`` for ``∑ j``; red team 19: a name bound
again inside, or used after its binder's scope, is another variable, ``_answer_scopes``), a binder's type
is left out unless asked for (``∑ (j : ℕ) ∈ s``: the side elaborates the same without it; a needle may
stand in a type, ``∃ _ : A n, True``), and with it the parentheses it held (red team 45: an empty ``( )``
left by ``Fin (1 + 1)`` told the condition at that point apart from the question's ``Fin n``), ``∑ j in
s`` is ``∑ j ∈ s``, a set-builder's pattern or binder predicate binds its names (``{(a, b) : T | C}``,
``{x ≤ a | C}``, red teams 21, 29), and last the normal form of ``_answer_order`` (red team 22) is applied
to the result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from putnam_solver.core.provers.lean._answer_algebra import algebraic
from putnam_solver.core.provers.lean._answer_binders import plain_name, sorted_binders
from putnam_solver.core.provers.lean._answer_nodes import PREDICATES
from putnam_solver.core.provers.lean._answer_order import normal_order
from putnam_solver.core.provers.lean._answer_scopes import scoped
from putnam_solver.core.provers.lean._answer_sets import predicated
from putnam_solver.core.provers.lean._answer_spelling import grouped_kinds, one_spelling, untyped_names
from putnam_solver.core.provers.lean._answer_types import Types, showing, typed, with_bound, written
from putnam_solver.core.provers.lean._answer_unparenthesized import unparenthesized

BINDERS: Final = frozenset({"∀", "∃", "∃!", "∑", "∏", "fun", "λ", "⋃", "⋂", "⨆", "⨅"})
NUMBERED: Final = frozenset({"∫", "∮", "∑'", "∏'", "∀ᶠ", "∃ᶠ"})
"""Binders whose variables the canonical form numbers too, though no body of theirs is a needle (red team 21:
``∫ x in s, f x`` binds ``x``, which ``syntax.bound_names`` counts among the theorem's variables)."""
BINDER_ENDS: Final = frozenset({",", "=>", "↦", ":", *PREDICATES, "|", "//", "in"})
SET_BINDER_ENDS: Final = (":", "|", "//", "∈")
"""What follows the bound name of a set-builder: ``{x | C}``, ``{x : T | C}``, ``{x // C}``, ``{x ∈ s | C}``."""


def canonical_kept(
    texts: Sequence[str], keep: bool = True, types: bool = False, normal: bool = True, algebra: list[int] | None = None
) -> tuple[list[str], list[str]]:
    """``texts`` without parentheses and with bound variables numbered in the order they are bound (a copy
    regrouped, ``(∀ x, P x)`` for ``∀ x, P x``, or with a bound variable renamed, ``∑ i`` for ``∑ j``, is
    still a copy), and the same tokens with the parentheses kept (where a run's brackets are judged; empty
    unless ``keep``). Binders' types are left out unless ``types`` (where a needle may stand as well:
    ``∃ _ : A n, True``). Last, unless not ``normal``, the normal form of ``_answer_order`` (red team 22), and
    where ``algebra`` (a work budget) is given, the relations' sides as polynomials (``_answer_algebra``) and
    no parentheses around a trailing quantifier (``_answer_unparenthesized``)."""
    read, kinds, grouped = _canonical(tuple(texts), types)
    shown = with_bound((*kinds, *grouped))  # what the common-factor reading may rely on (``_answer_algebra``)
    with typed(with_bound(kinds)), showing(shown):  # each bound variable as its binder types it (``_answer_types``)
        kept = normal_order(read) if normal else list(read)
        kept = kept if algebra is None else algebraic(unparenthesized(kept), algebra)
    return [t for t in kept if t not in ("(", ")")], kept if keep else []


@lru_cache(maxsize=16)
def _canonical(texts: Sequence[str], types: bool) -> tuple[tuple[str, ...], Types, Types]:
    """:func:`canonical_kept` before the normal form, with parentheses (the copy rule reads one value in
    both forms and several times: once). Each binding occurrence gets the next number, read as that only
    within its binder's scope (``_answer_scopes``): a name bound again inside, or used after the scope, is
    another variable (red team 19; the shadowing found after red team 29). With it, the kind of each
    numbered variable whose binder writes a number type (``_answer_types.written``)."""
    grouped = untyped_names(texts) | grouped_kinds(texts)  # `∃ (a b c : ℕ),`: the types `one_spelling` takes off
    texts = sorted_binders(one_spelling(texts, types))  # red teams 21, 22: as Lean reads them, `∃ c b a`
    at = [k for k, t in enumerate(texts) if t not in ("(", ")")]  # each plain token's place in `texts`
    plain = [texts[k] for k in at]
    sites: dict[int, int] = {}  # a binding occurrence (in `plain`) and its binder's token or `{` (in `texts`)
    typed_at: set[int] = set()  # the `:` of a typed pattern, `{(a, b) : T | ...}`
    for i in range(len(plain) - 1):  # `{(a, b) | ...}`: the pattern's names are bound like `{x | ...}`'s
        pattern = _pattern(plain, i + 1) if plain[i] == "{" else None
        first = i + 1 + (plain[i + 1] == "⟨")
        sites.update({first + 2 * k: at[i] for k in range(len(pattern or ()))})
        if pattern:
            typed_at.add(next(k for k in range(i + 1, len(plain)) if plain[k] in ("|", ":")))
    binding = typed = False
    binder = 0
    predicates = predicated(plain)
    out: list[str | None] = []
    for i, text in enumerate(plain):
        set_builder = i >= 1 and plain[i - 1] == "{" and i + 1 < len(plain) and plain[i + 1] in SET_BINDER_ENDS
        set_builder = set_builder or i in predicates  # `{x ≤ a | C}` (``_answer_sets``)
        if typed and text not in BINDER_ENDS:
            out.append(None)  # a binder's type (``∑ (j : ℕ) ∈ s``): the side elaborates the same without it
            continue
        typed = False
        if text in BINDERS or text in NUMBERED:
            binding, binder = True, at[i]
        elif (binding or (i >= 2 and plain[i - 2] == "{") or i in typed_at) and text == ":" and not types:
            typed = True  # red team 16: `{n | C}` for `{n : ℕ | C}`, the set's type fixes its element's
            out.append(None)
            continue
        elif text in BINDER_ENDS:
            binding = False
            text = "∈" if text == "in" else text  # ``∑ j in s`` is the older spelling of ``∑ j ∈ s``
        elif (binding or set_builder) and plain_name(text):
            sites[i] = binder if binding else at[i - 1]
        out.append(text)
    once = Counter(plain[i] for i in sites)  # a grouped name's kind, where it is bound once
    numbered = list(enumerate(sorted(sites)))  # as `scoped` numbers them
    kinds = ((f"#{k}", written(texts, at[i])) for k, i in numbered)
    shown = ((f"#{k}", grouped.get(plain[i]) if once[plain[i]] == 1 else None) for k, i in numbered)
    read = scoped(texts, at, out, sites, BINDERS | NUMBERED, _emptied(texts, at, out))
    return tuple(read), tuple((n, k) for n, k in kinds if k), tuple((n, k) for n, k in shown if k)


def _emptied(texts: Sequence[str], at: Sequence[int], out: Sequence[str | None]) -> set[int]:
    """The places of the parentheses that hold only tokens left out (a dropped binder's type, ``Fin (1 + 1)``),
    so that they are left out too (value red team 45: the empty ``( )`` they left told the type's term apart
    from its condition written at a point). A pair written empty (``()``) is kept."""
    dropped = {at[i] for i, text in enumerate(out) if text is None}
    gone: set[int] = set()
    opened: list[int] = []
    for k, text in enumerate(texts):
        if text == "(":
            opened.append(k)
        elif text == ")" and opened:
            start = opened.pop()
            inside = range(start + 1, k)
            if inside and all(j in dropped or j in gone for j in inside):
                gone.update((start, k))
    return gone


def _pattern(texts: Sequence[str], i: int) -> list[str] | None:
    """The names ``a, b`` of a set-builder pattern ``a, b |``, ``⟨a, b⟩ |`` or typed, ``a, b : T |``, at
    ``texts[i]`` (parentheses already dropped), if there is one of at least two names (red team 21: the typed
    pattern's names were left free, and a padded copy of ``putnam_1976_a3``'s set was searched for nowhere)."""
    names, j = [], i + (texts[i] == "⟨")
    while j < len(texts) and plain_name(texts[j]):
        names.append(texts[j])
        if j + 1 < len(texts) and texts[j + 1] == ",":
            j += 2
        else:
            j += 1
            break
    j += j < len(texts) and texts[j] == "⟩"
    return names if len(names) >= 2 and j < len(texts) and texts[j] in ("|", ":") else None
