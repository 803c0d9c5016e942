"""Which element type a ``Finset`` operation that shares ``Set``'s names shows in a value's text (classical
red teams 39 and 40).

``Finset``'s ``∪``/``∩``/``\\``/``∆``, its literals ``{a, b}``, ``insert`` and ``image`` ask a ``DecidableEq``
of the elements; where ``Classical`` is in force (:mod:`_answer_decisions`) that may be
``Classical.propDecidable``, unless the element type has its own instance of default priority, found first
(:func:`plain_type`). Each must show that type in its text:

* a chain of ``∪``... (:func:`chain_kind`) by an ascription ``(s : Finset T)`` on an operand or on the
  whole chain, by an operand ``Finset.range n`` (Mathlib/Data/Finset/Range.lean ``def range (n : ℕ) :
  Finset ℕ``), or by operands that are all literals of number terms of ``ℕ``/``ℤ``/``ℚ`` or intervals
  ``Finset.Icc a b`` between such terms (Mathlib/Order/Interval/Finset/Defs.lean ``def Icc (a b : α) :
  Finset α``: the bounds' type is the elements'); every operand has the chain's one type (``Union.union : α
  → α → α``). The ``Set`` side (a set-builder, a ``Set`` name, ``(s : Set α)``) decides nothing;
* ``insert a s`` (:func:`shown_insertion`) by an ascription of ``s`` or of the whole application (core's
  src/Init/Core.lean ``class Insert (α : outParam <| Type u) (γ : Type v)``: the collection's type fixes
  the element's), or by ``a`` and a literal ``s`` of number terms;
* ``image f s`` by the ascription ``(… : Finset T)`` of the whole application (Mathlib/Data/Finset/Image.lean
  ``def image [DecidableEq β] (f : α → β) (s : Finset α) : Finset β``: ``T`` is ``β``), or, not ascribed
  (false rejections 44), an image of ``Finset.range e`` counted by ``.card`` by arithmetic of its
  ``ℕ`` element alone (:func:`_counted_image`).

A ``Bool`` in such a type lets a proposition be coerced into an element (``(k, P)`` is ``(k, decide P)``),
so it counts only inside a counted literal (:func:`counted_literals`): a bracket group whose every token is
a numeral, ``true``/``false``, a bracket, a separator or a word of the type, whose ``Finset`` only
``.card`` reads. No proposition can be written there, and no other argument receives its elements.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate, pairwise
from typing import Final

from putnam_solver.core.provers.lean._number_decisions import (
    COMPUTABLE_EQ,
    Binding,
    library_decides,
    plain_type,
)
from putnam_solver.core.provers.lean._value_levels import Levels
from putnam_solver.core.provers.lean.syntax import IDENT, NUMBER, Token, name_parts, normalize_name

SHARED_SYMBOLS: Final = frozenset({"∪", "∩", "\\", "∆", "⊔", "⊓"})
"""``Finset``'s ``Union``, ``Inter``, ``SDiff``, ``symmDiff`` and lattice notations, each under ``[DecidableEq
α]``; on a ``Set`` (one operand a set-builder, the operation is homogeneous) they decide nothing."""

_CHAIN_BEFORE: Final = frozenset({"(", "[", "⟨", "{", ",", ":=", "=>", "↦", "then", "else", "=", "≠", "∈", "∉"})
_CHAIN_AFTER: Final = frozenset({")", "]", "⟩", "}", ",", ":", "then", "else", "=", "≠"})
"""Tokens that end a chain of ``∪``... on its left and right (no application or tighter operator there)."""
_MOST_LINKS: Final = 32
"""More operands on a side of a chain than an honest answer writes: not read (so the reading stays linear)."""
_MOST_ATOMS: Final = 3
"""The longest operand read, in tokens or bracket groups: ``Finset.Icc a b``."""
_INTERVALS: Final = frozenset({"Icc", "Ico", "Ioc", "Ioo"})
_APPLICATION_AFTER: Final = frozenset({"then", "else"})
"""Words after which an application has ended (an ``if``'s branches)."""
_OPENERS: Final = frozenset({"(", "[", "{", "⟨", "⦃"})
_HEAD_AFTER: Final = _CHAIN_BEFORE | SHARED_SYMBOLS | {"<|", "$"}
"""Tokens after which a name is the head of its own application."""
_LITERAL: Final = (
    frozenset({"true", "false", "Finset", "Bool", "Fin", "(", ")", "{", "}", ",", ":", "∅", "×", "⊕"})
    | COMPUTABLE_EQ
    | SHARED_SYMBOLS
)
"""What a counted literal is written with, besides numerals: no proposition can be."""


def set_group(value: Sequence[Token], k: int, levels: Levels) -> bool:
    """Whether ``value[k]`` opens a set-builder (``{x | p x}``, ``{f x | x : T}``: ``Set``'s notations, a
    ``|`` at the group's top level) or is a name of ``Set``'s."""
    if not 0 <= k < len(value):
        return False
    if value[k].kind == IDENT:
        return name_parts(normalize_name(value[k].text))[:1] == ["Set"]
    return value[k].text == "{" and levels.top(k, "|") is not None


def shared_with_set(
    value: Sequence[Token], i: int, partner: dict[int, int], levels: Levels, stated: set[int], found: Sequence[Binding]
) -> bool:
    """A ``Finset`` operation under a ``DecidableEq`` of its elements: ``∪``/``∩``/``\\``/``∆`` whose chain
    shows no ``Set`` and no plain element type (:func:`chain_kind`), or a literal ``{a, b}`` (``insert a
    {b}``), not ascribed ``Set`` or ``Finset`` of a plain type (:func:`plain_type`) nor an operand of such a
    chain (the caller then asks whether its elements are number terms)."""
    text = value[i].text
    if text in SHARED_SYMBOLS:
        return chain_kind(value, i, partner, levels, stated, found) is None
    if text != "{" or i not in partner or set_group(value, i, levels):
        return False
    if levels.top(i, ",") is None and levels.top(i, "fun") is None:  # `{a}` needs no `DecidableEq`
        return False
    close, n = partner[i], len(value)
    ascribed = close + 2 < n and value[close + 1].text == ":" and value[close + 2].text in ("Set", "Finset")
    if ascribed and value[close + 2].text == "Finset":
        ascribed = plain_type(value, close + 3, levels.end(close, n), partner, found, finite=False)
    operand = any(
        0 <= k < n and value[k].text in SHARED_SYMBOLS and chain_kind(value, k, partner, levels, stated, found)
        for k in (i - 1, close + 1)
    )
    return not (ascribed or operand) and levels.top(i, ":=") is None


def chain_kind(
    value: Sequence[Token], i: int, partner: dict[int, int], levels: Levels, stated: set[int], found: Sequence[Binding]
) -> str | None:
    """What the chain of ``∪``/``∩``/``\\``/``∆``/``⊔``/``⊓`` through ``value[i]`` shows of its operands' one
    type: ``"set"`` if every type written is ``Set`` (``(s : Set α)``), or none is and an operand is a
    ``Set`` (set-builder, ``Set`` name, stated group); ``"plain"`` if each type written (``(s : Finset T)``,
    or the chain's own ascription) is a plain ``T`` (:func:`plain_type`) and some type is written, an operand
    is ``Finset.range n``, or every operand is a literal of number terms of ``ℕ``/``ℤ``/``ℚ`` or an interval
    between such terms; else None (an operand not read, a type not read)."""
    operands = _chain_operands(value, i, partner)
    if operands is None:
        return None
    last = operands[-1][-1]
    n = len(value)
    shown = [(last + 1, levels.end(last, n))] if last < n and value[last].text == ":" else []
    literals, sets, ranged = True, False, False
    for atoms in operands:
        first, stop = atoms[0], atoms[-1]
        head = name_parts(normalize_name(value[first].text)) if value[first].kind == IDENT else []
        if len(atoms) == 3:  # `Finset.range n`: its elements are `ℕ`, whatever the rest shows
            if head != ["Finset", "range"]:
                return None
            ranged = True
            continue
        if len(atoms) == 4:  # `Finset.Icc a b`: of the bounds' type
            if len(head) != 2 or head[0] != "Finset" or head[1] not in _INTERVALS:
                return None
            literals = literals and all(_number_terms(value, a, b, found) for a, b in pairwise(atoms[1:]))
            continue
        colon = levels.top(first, ":") if value[first].text == "(" else None
        sets = sets or set_group(value, first, levels) or first in stated
        if colon is not None:
            shown.append((colon + 1, stop - 1))
        literals = literals and (
            value[first].text == "∅" or (value[first].text == "{" and _number_terms(value, first + 1, stop - 1, found))
        )
    written = {value[a].text for a, _ in shown}  # a written `Finset` outweighs a set-builder (then a filter)
    if written == {"Set"} or (sets and not written and not ranged):
        return "set"
    if all(value[a].text == "Finset" and plain_type(value, a + 1, b, partner, found, finite=False) for a, b in shown):
        return "plain" if shown or ranged or literals else None
    return None


def _chain_operands(value: Sequence[Token], i: int, partner: dict[int, int]) -> list[list[int]] | None:
    """The operands of the chain through the symbol ``value[i]``, each as the starts of its atoms (a token or
    a bracket group, at most :data:`_MOST_ATOMS`) then its end; None where an operand or the chain's ends
    are not read."""
    n, k = len(value), i
    operands: list[list[int]] = []
    while True:  # leftwards: atoms back to a chain symbol or a token that ends the chain
        starts: list[int] = []
        while len(starts) < _MOST_ATOMS and (not starts or starts[0] > 0):
            before = (starts[0] if starts else k) - 1
            first = partner.get(before, before)
            if not 0 <= first <= before:
                return None
            starts.insert(0, first)
            if first == 0 or value[first - 1].text in SHARED_SYMBOLS or value[first - 1].text in _CHAIN_BEFORE:
                break
        else:
            return None
        operands.insert(0, [*starts, k])
        first = starts[0]
        if first == 0 or value[first - 1].text not in SHARED_SYMBOLS or len(operands) > _MOST_LINKS:
            break
        k = first - 1
    if len(operands) > _MOST_LINKS:
        return None
    k = i
    while True:  # rightwards
        starts = [k + 1]
        while True:
            stop = partner.get(starts[-1], starts[-1]) + 1 if starts[-1] < n else 0
            if stop <= starts[-1]:
                return None
            if stop >= n or value[stop].text in SHARED_SYMBOLS or value[stop].text in _CHAIN_AFTER:
                break
            if len(starts) == _MOST_ATOMS:
                return None
            starts.append(stop)
        operands.append([*starts, stop])
        if stop >= n or value[stop].text not in SHARED_SYMBOLS or len(operands) > 2 * _MOST_LINKS:
            break
        k = stop
    return operands if len(operands) <= 2 * _MOST_LINKS else None


def shown_insertion(
    value: Sequence[Token], i: int, partner: dict[int, int], levels: Levels, found: Sequence[Binding]
) -> bool:
    """Whether the ``insert`` or ``image`` at ``value[i]`` shows a plain element type (module doc)."""
    parts = name_parts(normalize_name(value[i].text))
    if parts in (["insert"], ["Insert", "insert"]):
        return _insertion(value, i, partner, levels, found)
    if parts[-1:] != ["image"] or parts[:1] == ["Set"]:
        return False
    if parts == ["image"] and i > 1 and value[i - 1].text == "|>.":
        opener, count = levels.group[i], 1  # `(s |>.image f : Finset T)`: the receiver is the group's start
    elif parts == ["image"] and i > 1 and value[i - 1].text == "." and partner.get(i - 2, i) < i - 2:
        if value[i - 1].offset != value[i - 2].end:
            return False
        opener, count = partner[i - 2] - 1, 1  # `((e).image f : Finset T)`
    else:  # `(Finset.image f s : Finset T)`, `(s.image f : Finset T)`
        opener, count = i - 1, 2 if parts in (["Finset", "image"], ["image"]) else 1
    colon = levels.top(opener, ":") if opener >= 0 and value[opener].text == "(" else None
    if colon is None:
        return _counted_image(value, i, partner, levels)
    args = _arguments(value, i + 1, colon, partner, count)
    return args is not None and args[-1] == colon and _ascribed(value, opener, colon, partner, levels, found)


_ARITHMETIC: Final = frozenset({"+", "-", "*", "/", "%", "^", "(", ")"})


def _counted_image(value: Sequence[Token], i: int, partner: dict[int, int], levels: Levels) -> bool:
    """Whether the ``image`` at ``i``, not ascribed, is ``(Finset.range e).image f``, ``Finset.image f (Finset.range
    e)`` or (false rejections 46) ``Finset.range e |>.image f`` that fills a group counted by ``.card`` (false
    rejections 44), with ``f`` a ``fun x =>`` (``x`` untyped or ``ℕ``) whose body is arithmetic of ``x`` and
    numerals alone: the body is then a ``ℕ`` (``x`` is, as the range's element; no cast, no proposition, no other
    name), so the image's elements are (``def image [DecidableEq β] (f : α → β)``: ``β`` is the body's type, and a
    receiver of ``.card`` has no expected type to make it another)."""
    group = levels.group[i]
    close = partner.get(group, -1)
    counted = [t.text for t in value[close + 1 : close + 3]] == [".", "card"]
    if group < 0 or not counted:
        return False
    parts = name_parts(normalize_name(value[i].text))
    if parts == ["image"] and value[i - 1].text == "." and partner.get(i - 2, i) == group + 1:
        receiver, function = (group + 2, i - 2), i + 1  # `((Finset.range e).image f).card`
    elif parts == ["image"] and value[i - 1].text == "|>." and i > group + 1:
        receiver, function = (group + 1, i - 1), i + 1  # `(Finset.range e |>.image f).card`
    elif parts == ["Finset", "image"] and i == group + 1:
        function = i + 1  # `(Finset.image f (Finset.range e)).card`
        end = partner.get(function, function) + 1 if value[function].text == "(" else -1
        if end < 0 or value[end].text != "(" or partner.get(end) != close - 1:
            return False
        receiver = (end + 1, close - 1)
    else:
        return False
    start, stop = receiver
    atom = partner.get(start + 1, start + 1) + 1 if start + 1 < stop else -1
    if atom != stop or name_parts(normalize_name(value[start].text)) != ["Finset", "range"]:
        return False  # `Finset.range e`, `e` one token or group
    if value[function].text == "(":
        if partner.get(function) != close - 1 and parts == ["image"]:
            return False  # `((..).image (f) x).card`: more than the function after it
        function, last = function + 1, partner.get(function, close) - 1
    else:
        last = close - 1
    return _arithmetic_of(value, function, last + 1)


def _arithmetic_of(value: Sequence[Token], start: int, end: int) -> bool:
    """Whether ``value[start:end]`` is ``fun x => body`` (``x`` untyped, or ``(x : ℕ)``) with a body of
    :data:`_ARITHMETIC`, numerals and ``x`` alone."""
    texts = [t.text for t in value[start:end]]
    if texts[:1] not in (["fun"], ["λ"]):
        return False
    if len(texts) > 3 and texts[2] in ("=>", "↦") and value[start + 1].kind == IDENT:
        name, body = texts[1], texts[3:]
    elif len(texts) > 7 and texts[1] == "(" and texts[3:7] in ([":", "ℕ", ")", "=>"], [":", "ℕ", ")", "↦"]):
        name, body = texts[2], texts[7:]
        if value[start + 2].kind != IDENT:
            return False
    else:
        return False
    tokens = value[end - len(body) : end]
    return bool(body) and all(t.kind == NUMBER or t.text in _ARITHMETIC or t.text == name for t in tokens)


def _insertion(
    value: Sequence[Token], i: int, partner: dict[int, int], levels: Levels, found: Sequence[Binding]
) -> bool:
    """``insert a s`` at ``i``, the head of its own application, with ``s`` ascribed ``(… : Finset T)``, the
    application ascribed, or ``a`` and a literal ``s`` of number terms."""
    n = len(value)
    if i > 0 and value[i - 1].text not in _HEAD_AFTER:
        return False  # `List.foldr insert ..`: given as a function, its collection unread
    args = _arguments(value, i + 1, None, partner, 2)
    if args is None:
        return False
    element, collection, end = args
    if end < n and (value[end].text in _OPENERS or value[end].text == "." or _continues(value[end])):
        return False  # `insert a s t`, `insert a (s).f`: the application or its last argument is longer
    colon = levels.top(collection, ":") if value[collection].text == "(" else None
    literal = value[collection].text == "∅" or (
        value[collection].text == "{" and _number_terms(value, collection + 1, end - 1, found)
    )
    return (
        _ascribed(value, i - 1, end, partner, levels, found)
        or (colon is not None and _plain_finset(value, colon + 1, end - 1, partner, found))
        or (literal and _number_terms(value, element, collection, found))
        or (value[collection].text == "(" and _interval(value, collection + 1, end - 1, partner, found))
    )


def _interval(value: Sequence[Token], start: int, end: int, partner: dict[int, int], found: Sequence[Binding]) -> bool:
    """Whether ``value[start:end]`` is ``Finset.range n`` (a ``Finset ℕ``) or ``Finset.Icc a b`` (also ``Ico``,
    ``Ioc``, ``Ioo``) between number terms of ``ℕ``/``ℤ``/``ℚ``: the collection's type, which fixes the
    inserted element's (module doc), shows a plain one (red team 43)."""
    if start >= end or value[start].kind != IDENT:
        return False
    head = name_parts(normalize_name(value[start].text))
    atoms, at = [], start + 1
    while at < end:
        stop = partner.get(at, at) + 1
        if stop <= at or stop > end:
            return False
        atoms.append((at, stop))
        at = stop
    if head == ["Finset", "range"]:
        return len(atoms) == 1
    return (
        len(head) == 2
        and head[0] == "Finset"
        and head[1] in _INTERVALS
        and len(atoms) == 2
        and all(_number_terms(value, a, b, found) for a, b in atoms)
    )


def _arguments(
    value: Sequence[Token], start: int, stop: int | None, partner: dict[int, int], count: int
) -> list[int] | None:
    """The starts of ``count`` arguments (a token or a bracket group each) from ``start``, then where the last
    ends; the last may be a ``fun`` that runs to ``stop`` (an ascription's ``:``). None if one is missing."""
    starts, at, n = [], start, len(value) if stop is None else stop
    for _ in range(count):
        if at >= n:
            return None
        starts.append(at)
        if value[at].text in ("fun", "λ") and stop is not None:
            return [*starts, stop] if len(starts) == count else None
        end = partner.get(at, at) + 1
        if end <= at:
            return None
        at = end
    return [*starts, at]


def _continues(token: Token) -> bool:
    """Whether ``token`` after an application is one more argument (a name or a numeral)."""
    return token.kind in (IDENT, NUMBER) and token.text not in _APPLICATION_AFTER


def _ascribed(
    value: Sequence[Token], opener: int, colon: int, partner: dict[int, int], levels: Levels, found: Sequence[Binding]
) -> bool:
    """Whether ``value[opener]`` opens ``(e : Finset T)`` with a plain ``T`` whose ``:`` is ``value[colon]``."""
    return (
        opener >= 0
        and value[opener].text == "("
        and levels.top(opener, ":") == colon
        and _plain_finset(value, colon + 1, partner[opener], partner, found)
    )


def _plain_finset(
    value: Sequence[Token], start: int, end: int, partner: dict[int, int], found: Sequence[Binding]
) -> bool:
    """Whether ``value[start:end]`` writes ``Finset T`` with a plain ``T`` (:func:`plain_type`)."""
    return (
        start < end
        and value[start].text == "Finset"
        and plain_type(value, start + 1, end, partner, found, finite=False)
    )


def _number_terms(value: Sequence[Token], start: int, end: int, found: Sequence[Binding]) -> bool:
    """Whether ``value[start:end]`` is number terms of ``ℕ``/``ℤ``/``ℚ`` separated by ``,`` (numerals, or
    variables of those types): their equality is decided by core's and Mathlib's computable instances."""
    return library_decides(value, start, end, found, terms=True, types=COMPUTABLE_EQ)


def counted_literals(value: Sequence[Token], partner: dict[int, int]) -> list[bool]:
    """For each token, whether it stands in a counted literal (module doc): a bracket group followed by
    ``.card`` or given to ``Finset.card``, whose every token is a numeral, ``true``/``false``, a bracket, a
    separator, a chain symbol or a word of a plain type. One pass, then one sum per group."""
    n = len(value)
    foreign = list(accumulate((t.kind != NUMBER and t.text not in _LITERAL for t in value), initial=0))
    marks = [0] * (n + 1)
    for opener, close in partner.items():
        if value[opener].text != "(" or close < opener or foreign[close] != foreign[opener + 1]:
            continue
        field = [t.text for t in value[close + 1 : close + 3]] == [".", "card"] and value[close + 1].offset == value[
            close
        ].end
        given = opener > 0 and name_parts(normalize_name(value[opener - 1].text)) == ["Finset", "card"]
        if field or given:
            marks[opener] += 1
            marks[close] -= 1
    return [count > 0 for count in accumulate(marks[:n])]
