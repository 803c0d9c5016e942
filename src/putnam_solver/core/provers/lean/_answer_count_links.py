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
the side it bounds ``b`` (:func:`one_way`); not the converse (``a < 0 * b`` says nothing of ``b``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_count_binders import coordinate
from putnam_solver.core.provers.lean._answer_count_reading import CountReading
from putnam_solver.core.provers.lean.syntax import NUMBER

Link = tuple[str, str, str]
"""A coordinate (its path), a side, and the coordinate whose bound on that side bounds it there."""
_MOST_LINKS: Final = 32


def links(path: str, relation: str, other: str) -> list[Link]:
    """The links a conjunct ``path relation other`` between two coordinates makes (module doc)."""
    found: list[Link] = []
    if relation in ("<", "≤", "="):
        found += [(path, "upper", other), (other, "lower", path)]
    if relation in (">", "≥", "="):
        found += [(path, "lower", other), (other, "upper", path)]
    return found


def carry(need: dict[str, set[str]], found: Sequence[Link], numbers: Collection[str]) -> None:
    """Strike from ``need`` the sides the links ``found`` bound, to a fixpoint; ``numbers``: the coordinates
    of type ``ℕ`` or ``ℤ`` (only those link)."""
    if len(found) > _MOST_LINKS:
        return
    changed = True
    while changed:
        changed = False
        for path, side, source in found:
            if path in numbers and source in numbers and side in need[path] and side not in need[source]:
                need[path].discard(side)
                changed = True


def one_way(path: str, relation: str, other: str) -> list[Link]:
    """The links ``path relation f(other)`` makes for ``f`` growing (:func:`shifted`): ``path``'s only."""
    return [link for link in links(path, relation, other) if link[0] == path]


def shifted(reading: CountReading, names: dict[str, str], span: tuple[int, int]) -> str | None:
    """The coordinate ``value[span]`` is plus or times a numeral (``b + 1``, ``2 * b``, ``p.2 + 3``), one
    operator at its top level; None otherwise."""
    texts, partner = reading.texts, reading.partner
    start, end = span
    operators, k = [], start
    while k < end:
        operators += [k] if texts[k] in ("+", "*") else []
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    if len(operators) != 1:
        return None
    at = operators[0]
    for numeral, term in (((at + 1, end), (start, at)), ((start, at), (at + 1, end))):
        if numeral[1] - numeral[0] == 1 and reading.value[numeral[0]].kind == NUMBER:
            found = coordinate(reading, names, term)
            if found is not None:
                return found
    return None
