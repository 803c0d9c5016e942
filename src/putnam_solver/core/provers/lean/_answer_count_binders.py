"""What a counted set-builder binds (red team 43): its variable's coordinates, their types, and the names that
stand for them.

A variable of a product type has one coordinate per factor, read right-nested as Lean reads ``×``
(``ℕ × ℕ × ℕ`` is ``ℕ × (ℕ × ℕ)``, core's ``infixr:35 " × " => Prod``): a path ``"1"``, ``"2.1"``, ``"2.2"``
names each, ``""`` the whole. Each coordinate of type ``ℕ`` needs an upper bound, of ``ℤ`` both, of a finite
type none (:func:`_answer_count_domains._finite_type`); any other leaf is not read (fail closed). The
variable's name reaches a coordinate by ``.1``/``.fst``, ``.2``/``.snd``, chained (``p.2.1``, ``p.snd.fst``).

A pattern binder ``{(a, b, c) : ℕ × ℕ × ℕ | P}`` is Mathlib's ``{x : ℕ × ℕ × ℕ | match x with | (a, b, c) =>
P}`` (Mathlib/Data/Set/Defs.lean, ``macroPattSetBuilder``: ``"{" pat:term " : " t:term " | " p:term "}" =>
`({ x : $t | match x with | $pat => $p })``), so each of its names is one coordinate: ``a`` is ``"1"``, ``b``
``"2.1"``, ``c`` ``"2.2"`` (a nested ``((a, b), c)`` likewise). A pattern with no written type, or of another
shape than the type, is not read.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_count_reading import CountReading, top
from putnam_solver.core.provers.lean._answer_count_terms import positive
from putnam_solver.core.provers.lean._number_decisions import NUMBER_TYPES, Binding
from putnam_solver.core.provers.lean.syntax import IDENT, name_parts, normalize_name

Span = tuple[int, int]
Need = dict[str, set[str]]
"""For each coordinate (its path) the sides still to bound (``"upper"``, ``"lower"``; ``"subset"`` for a
``Finset`` variable)."""
_DEEPEST: Final = 8
"""More nested products or patterns than a counted set writes: none is read (fail closed)."""
_LOOSER: Final = frozenset({"→", "->", "⊕"})
"""Type operators looser than ``×`` (core's ``infixr:25 " → "``, ``infixr:30 " ⊕ "``)."""
_ACCESSORS: Final = {"1": "1", "2": "2", "fst": "1", "snd": "2"}


def join(path: str, step: str) -> str:
    return f"{path}.{step}" if path else step


def leaves(
    reading: CountReading, found: Sequence[Binding], span: Span, finite: bool, path: str = "", depth: int = 0
) -> Need | None:
    """The coordinates of a variable of the type ``value[span]`` and the sides each needs bounded (module
    doc); ``finite``: whether the span is a finite type (:func:`finite_type`, read by the caller for the
    whole); ``found``: the value's bindings; None where a leaf is not read."""
    texts, partner = reading.texts, reading.partner
    start, end = span
    while end - start > 2 and texts[start] == "(" and partner.get(start) == end - 1:
        start, end = start + 1, end - 1
    if depth > _DEEPEST or start >= end:
        return None
    if finite:
        return {path: set()}
    words = texts[start:end]
    if words in (["ℕ"], ["Nat"]):
        return {path: {"upper"}}
    if words in (["ℤ"], ["Int"]):
        return {path: {"upper", "lower"}}
    tops, k = [], start
    while k < end:
        tops.append(k)
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    if any(texts[t] in _LOOSER for t in tops) or not any(texts[t] == "×" for t in tops):
        return None  # `ℕ × Fin 2 → Fin 3` is a function type, `ℕ × ℕ ⊕ Bool` a sum: no coordinates
    k = next(t for t in tops if texts[t] == "×")
    left = leaves(reading, found, (start, k), finite_type(reading, start, k, found), join(path, "1"), depth + 1)
    right = leaves(reading, found, (k + 1, end), finite_type(reading, k + 1, end, found), join(path, "2"), depth + 1)
    return None if left is None or right is None else {**left, **right}


def pattern(reading: CountReading, opener: int, path: str = "", depth: int = 0) -> dict[str, str] | None:
    """The names of the pattern ``(a, b, c)`` opened at ``opener`` and the coordinate each is (module doc),
    right-nested as a tuple is; None for any other pattern."""
    texts, partner, value = reading.texts, reading.partner, reading.value
    close = partner.get(opener, opener)
    if depth > _DEEPEST or close <= opener:
        return None
    items: list[Span] = []
    first, k = opener + 1, opener + 1
    while k <= close:
        if k == close or texts[k] == ",":
            items.append((first, k))
            first = k + 1
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    if len(items) < 2:
        return None
    names: dict[str, str] = {}
    for n, (a, b) in enumerate(items):
        here = join(path, _tuple_step(n, len(items)))
        if b - a == 1 and value[a].kind == IDENT and len(name_parts(normalize_name(texts[a]))) == 1:
            names[texts[a]] = here
        elif b - a > 2 and texts[a] == "(" and partner.get(a) == b - 1:
            inner = pattern(reading, a, here, depth + 1)
            if inner is None:
                return None
            names.update(inner)
        else:
            return None
    return names


def _tuple_step(n: int, count: int) -> str:
    """The path of the ``n``-th of ``count`` items of a right-nested tuple: ``1``, ``2.1``, ``2.2.1``, ...,
    the last ``2.2...2``."""
    steps = ["2"] * n + ([] if n == count - 1 else ["1"])
    return ".".join(steps)


def coordinate(reading: CountReading, names: dict[str, str], span: Span) -> str | None:
    """Which coordinate of the counted variable (``names``: each name it binds and its path) the term
    ``value[span]`` is; it may be cast to a number type (``(k : ℝ)``, ``(↑k : ℤ)``: monotone); None
    otherwise (a bare ``↑k`` too: its target could wrap)."""
    texts, partner = reading.texts, reading.partner
    start, end = span
    while end - start >= 3 and texts[start] == "(" and partner.get(start) == end - 1:
        colon = top(texts, partner, start, (":",))
        if colon is not None and (colon + 2 != end - 1 or texts[colon + 1] not in NUMBER_TYPES):
            return None
        start, end = (start + 1, end - 1) if colon is None else (start + 1 + (texts[start + 1] == "↑"), colon)
    if start >= end or reading.value[start].kind != IDENT:
        return None
    parts = name_parts(normalize_name(texts[start]))
    if parts[0] not in names:
        return None
    steps = list(parts[1:])
    if end - start == 3 and texts[start + 1] == ".":
        steps += texts[start + 2].split(".")
    elif end - start != 1:
        return None
    path = names[parts[0]]
    for step in steps:
        if step not in _ACCESSORS:
            return None
        path = join(path, _ACCESSORS[step])
    return path


_FINITE_WORDS: Final = frozenset({"Bool", "(", ")", "×", "⊕", "→", "->", "Finset", "Set"})


def finite_type(
    reading: CountReading,
    start: int,
    end: int,
    found: Sequence[Binding] = (),
    positives: Collection[tuple[str, ...]] = (),
) -> bool:
    """Whether ``value[start:end]`` writes a finite type: ``Fin`` of an atom, ``ZMod`` of a positive term
    (``ZMod 0`` is ``ℤ``; red team 43: ``ZMod (n + 1)``, :func:`_answer_count_terms.positive`, or ``ZMod n``
    of a name in ``positives``, the answer's parameters the statement only gives positive numbers), ``Bool``,
    ``Finset`` and ``Set`` of those, products, sums and functions of those (the module doc of
    :mod:`_answer_count_domains`; Mathlib/Data/Fintype/Powerset.lean: ``instance Set.finite' [Finite α] :
    Finite (Set α)``, ``Set.instFinite`` in later Mathlib)."""
    texts, partner = reading.texts, reading.partner
    k = start
    while k < end:
        text = texts[k]
        after = partner[k + 1] + 1 if k + 1 < end and partner.get(k + 1, k + 1) > k + 1 else k + 2
        if text == "(" and partner.get(k, end) >= end:
            return False
        if text in _FINITE_WORDS:
            k += 1
        elif (text == "Fin" and k + 1 < end) or (
            text == "ZMod" and after <= end and positive(reading, found, (k + 1, after), True, positives)
        ):
            k = after
        else:
            return False
    return k == end


def known(need: Need, path: str) -> bool:
    """Whether ``path`` is a coordinate of the variable (a leaf of ``need``) or holds some."""
    return path in need or any(path == "" or key.startswith(f"{path}.") for key in need)


def needs(reading: CountReading, found: Sequence[Binding], typed: Span | None) -> Need | None:
    """The bounds a variable of the type ``value[typed]`` needs (:data:`Need`); None where it is not read.
    Untyped: one membership in a ``Finset`` or a bounded interval must show both sides."""
    if typed is None:
        return {"": {"upper", "lower"}}
    words = reading.texts[typed[0] : typed[1]]
    if words[:1] == ["Finset"] and words[1:] in (["ℕ"], ["ℤ"], ["Nat"], ["Int"]):
        return {"": {"subset"}}
    return leaves(reading, found, typed, False)
