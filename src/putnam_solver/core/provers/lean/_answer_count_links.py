"""A counted coordinate bounded by another (false rejections 44): ``{(a, b) : ℕ × ℕ | a < b ∧ b < 10}``.

A top-level conjunct ``a < b`` between two coordinates of the counted variable (:mod:`_answer_count_binders`),
each of type ``ℕ`` or ``ℤ``, bounds ``a`` above wherever ``b`` is bounded above, and ``b`` below wherever ``a``
is bounded below (a ``ℕ`` is, by ``0``); ``≤`` likewise, ``>``/``≥`` mirrored, ``=`` both ways. Casts between
``ℕ`` and ``ℤ`` (``↑a < b``, what Lean elaborates for mixed sides) are monotone. A coordinate of a finite type
(``Fin 5``) links nothing: ``a < b`` with ``b : Fin 5`` casts ``a`` into ``Fin 5``, whose order wraps, so
``a`` is unbounded. The bounds are carried to a fixpoint; a cycle (``a < b ∧ b < a``) bounds nothing. More
links than an honest count writes are not read (fail closed, and the fixpoint stays small).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

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
