"""G2 on no-answer values: the set of an extremal statement copied into its answer (red team 24).

``putnam_1993_b1`` states ``IsLeast {n : ℕ | 0 < n ∧ ...} putnam_1993_b1_solution``: no ``=`` or ``↔``
stands beside the solution, so the copy rule (``_answer_copy``) had no other side to look for, and only the
names of choice and extremal operators were refused. A bounded search over the question's own set by any
other name, ``((Fin.find fun i : Fin 5000 => (i : ℕ) ∈ {n : ℕ | ...}).map Fin.val).getD 0``, ``(List.range
5000).find? (· ∈ {n | ...})``, a ``Nat.rec`` that keeps the least member, passed G2 on both profiles: the
theorem's lower bound then follows from the search's own specification (``Fin.find_min``) and only a
member below the bound remains to be shown, and the answer check can only say ``unknown``.

The rule: the set (or predicate) argument of ``IsLeast``, ``IsGreatest``, ``IsLUB``, ``IsGLB``, ``Minimal``
and ``Maximal`` written right before the solution (or its application, ``IsLeast S (solution n)``) is one
more "other side" of the solution for the copy rule, so a value that holds that set, or the condition it
binds, anywhere inside it is refused, whatever operator searches it. No official answer holds the set it
is the extremum of (``test_every_official_answer_is_a_valid_no_answer_value``).
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._idchars import starts_letter
from putnam_solver.core.provers.lean.syntax import name_parts

EXTREMAL_PREDICATES: Final = frozenset({"IsLeast", "IsGreatest", "IsLUB", "IsGLB", "Minimal", "Maximal"})
_CLOSERS: Final = {")": "(", "}": "{", "]": "[", "⟩": "⟨"}


def extremal_sides(theorem: list[str], start: int) -> list[tuple[str, list[str]]]:
    """``[(label, the set)]`` when ``theorem[:start]`` ends with ``IsLeast <set>`` (or another
    :data:`EXTREMAL_PREDICATES` word), the set one bracketed term or one name; else ``[]``."""
    if start < 2:
        return []
    last = theorem[start - 1]
    first = start - 1
    if last in _CLOSERS:
        depth = 0
        for j in range(start - 1, -1, -1):
            if theorem[j] in _CLOSERS:
                depth += 1
            elif theorem[j] in _CLOSERS.values():
                depth -= 1
                if depth == 0:
                    first = j
                    break
        else:
            return []
        if theorem[first] != _CLOSERS[last]:
            return []
    elif not starts_letter(last):
        return []
    if first < 1:
        return []
    parts = name_parts(theorem[first - 1])
    if not parts or parts[-1] not in EXTREMAL_PREDICATES:
        return []
    return [(f"{parts[-1]} _ _", theorem[first:start])]
