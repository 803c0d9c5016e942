"""A counted coordinate bounded by another (false rejections 44): ``{(a, b) : ℕ × ℕ | a < b ∧ b < 10}``.

A top-level conjunct ``a < b`` between two coordinates of the counted variable (:mod:`_answer_count_binders`),
each of type ``ℕ`` or ``ℤ``, bounds ``a`` above wherever ``b`` is bounded above, and ``b`` below wherever ``a``
is bounded below (a ``ℕ`` is, by ``0``); ``≤`` likewise, ``>``/``≥`` mirrored, ``=`` both ways. Casts between
``ℕ`` and ``ℤ`` (``↑a < b``, what Lean elaborates for mixed sides) are monotone. A coordinate of a finite type
(``Fin 5``) links nothing: ``a < b`` with ``b : Fin 5`` casts ``a`` into ``Fin 5``, whose order wraps, so
``a`` is unbounded. The bounds are carried to a fixpoint; a cycle (``a < b ∧ b < a``) bounds nothing. More
links than an honest count writes are not read (fail closed, and the fixpoint stays small).

Since false rejections 46 the other side may be a coordinate plus or times a numeral (``a < b + 1``, ``a ≤ 2
* b``, :func:`shifted`): a numeral is no negative number, so the term grows with ``b`` and bounds ``a`` on
the side it bounds ``b`` (:func:`one_way`); not the converse (``a < 0 * b`` says nothing of ``b``). Since
false rejections 47 it may be a chain of ``+`` and ``-`` of coordinates and numerals (``a < b + c``, ``a ≤ b -
1``, ``a ≤ b + c - d``): Lean reads it from the left, and ``x + y`` grows with both, ``x - y`` (``ℤ``'s, and
``ℕ``'s truncated one alike) grows with ``x`` and shrinks with ``y``, so the term is bounded above where each
coordinate it adds is bounded above and each it subtracts below, and the other way round; ``a``'s side is
struck only where every one of those is (a ``ℕ`` is bounded below by ``0``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_count_binders import Span, coordinate
from putnam_solver.core.provers.lean._answer_count_reading import CountReading
from putnam_solver.core.provers.lean._answer_count_terms import number_term
from putnam_solver.core.provers.lean._number_decisions import Binding
from putnam_solver.core.provers.lean.syntax import NUMBER

Link = tuple[str, str, tuple[tuple[str, str], ...]]
"""A coordinate (its path), a side, and the coordinates whose bounds on the sides given bound it there."""
Term = list[tuple[str, bool]]
"""The coordinates a term grows with (``True``) or shrinks with (``False``)."""
_MOST_LINKS: Final = 32
_FLIP: Final = {"upper": "lower", "lower": "upper"}


def links(path: str, relation: str, other: str) -> list[Link]:
    """The links a conjunct ``path relation other`` between two coordinates makes (module doc)."""
    found: list[Link] = []
    if relation in ("<", "≤", "="):
        found += [(path, "upper", ((other, "upper"),)), (other, "lower", ((path, "lower"),))]
    if relation in (">", "≥", "="):
        found += [(path, "lower", ((other, "lower"),)), (other, "upper", ((path, "upper"),))]
    return found


def carry(need: dict[str, set[str]], found: Sequence[Link], numbers: Collection[str]) -> None:
    """Strike from ``need`` the sides the links ``found`` bound, to a fixpoint; ``numbers``: the coordinates
    of type ``ℕ`` or ``ℤ`` (only those link)."""
    if sum(len(sources) for _, _, sources in found) > _MOST_LINKS:
        return
    changed = True
    while changed:
        changed = False
        for path, side, sources in found:
            if (
                path in numbers
                and side in need[path]
                and all(source in numbers and wanted not in need[source] for source, wanted in sources)
            ):
                need[path].discard(side)
                changed = True


def one_way(path: str, relation: str, term: Term) -> list[Link]:
    """The links ``path relation term`` makes for a ``term`` of coordinates (:func:`shifted`): ``path``'s
    only, each side needing the sides of the coordinates the term grows or shrinks with (module doc)."""
    found: list[Link] = []
    for side, holds in (("upper", relation in ("<", "≤", "=")), ("lower", relation in (">", "≥", "="))):
        if holds:
            found.append((path, side, tuple((source, side if grows else _FLIP[side]) for source, grows in term)))
    return found


def shifted(reading: CountReading, names: dict[str, str], span: tuple[int, int], scaled: bool = False) -> Term | None:
    """The coordinates ``value[span]`` grows or shrinks with where it is a coordinate times a numeral (``2 *
    b``, ``p.2 * 3``, one operator at its top level; ``scaled``: not ``0``) or a chain of ``+``/``-`` of
    coordinates and numerals with one coordinate at least (``b + 1``, ``b + c``, ``b - 1``, ``b + c - d``);
    None otherwise."""
    texts, partner = reading.texts, reading.partner
    start, end = span
    operators, k = [], start
    while k < end:
        operators += [k] if texts[k] in ("+", "-", "*") else []
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    if not operators:
        return None
    bounds = [start - 1, *operators, end]
    atoms = [(bounds[n] + 1, bounds[n + 1]) for n in range(len(bounds) - 1)]
    if any(texts[at] == "*" for at in operators):
        if len(atoms) != 2 or not any(_numeral(reading, atom) for atom in atoms):
            return None
        if scaled and any(_numeral(reading, atom) and texts[atom[0]].strip("0") == "" for atom in atoms):
            return None  # `0 * n ≤ 5` bounds no `n`
        atoms = [atom for atom in atoms if not _numeral(reading, atom)] or atoms[1:]
        found = coordinate(reading, names, atoms[0])
        return [(found, True)] if found is not None else None
    term: Term = []
    for n, atom in enumerate(atoms):
        if _numeral(reading, atom):
            continue
        found = coordinate(reading, names, atom)
        if found is None:
            return None
        term.append((found, n == 0 or texts[operators[n - 1]] == "+"))
    return term or None


def term_bound(
    reading: CountReading, found: Sequence[Binding], names: dict[str, str], relation: str, sides: tuple[Span, Span]
) -> list[Link] | None:
    """The links a conjunct ``T relation e`` (or ``e relation T``) makes where ``T`` is a term of coordinates
    (:func:`shifted`, no coordinate alone) and ``e`` a number term free of the counted variable (false
    rejections 47: ``a + b ≤ 2``, ``n + 1 ≤ 3988``, ``2 * n < 7974``): ``T`` below ``e`` bounds above each
    coordinate ``T`` grows with, where the others it grows with are bounded below (a ``ℕ`` is) and those it
    shrinks with above (``ℕ``'s truncated ``x - y`` is never below the integers' difference, so ``x - y ≤ e``
    gives ``x ≤ e + y``). Only that side: ``T`` above ``e`` bounds nothing here (``x - y ≥ e`` of naturals
    says nothing of ``x`` where the difference truncates). None where the conjunct is no such bound."""
    left, right = sides
    if coordinate(reading, names, left) is not None or coordinate(reading, names, right) is not None:
        return None
    mirrored = {"<": ">", "≤": "≥", ">": "<", "≥": "≤", "=": "="}[relation]
    for (term_span, bound_span), below in (((left, right), relation), ((right, left), mirrored)):
        term = shifted(reading, names, term_span, scaled=True)
        if term is None or below not in ("<", "≤", "=") or not number_term(reading, found, names, bound_span):
            continue
        return [
            (path, "upper", tuple((other, "lower" if up else "upper") for k, (other, up) in enumerate(term) if k != n))
            for n, (path, grows) in enumerate(term)
            if grows
        ]
    return None


def _numeral(reading: CountReading, atom: tuple[int, int]) -> bool:
    return atom[1] - atom[0] == 1 and reading.value[atom[0]].kind == NUMBER
