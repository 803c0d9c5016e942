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
binds, anywhere inside it is refused, whatever operator searches it. Likewise the function of
``Tendsto F l (𝓝 solution)`` (27 PutnamBench problems): a value holding ``F`` takes its limit by some
operator (``limUnder``, ``lim`` and kin are refused by name; this refuses the rest). No official answer
holds the set it is the extremum of, or the sequence it is the limit of
(``test_every_official_answer_is_a_valid_no_answer_value``).
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._idchars import starts_letter
from putnam_solver.core.provers.lean.syntax import name_parts

EXTREMAL_PREDICATES: Final = frozenset({"IsLeast", "IsGreatest", "IsLUB", "IsGLB", "Minimal", "Maximal"})
_CLOSERS: Final = {")": "(", "}": "{", "]": "[", "⟩": "⟨"}


def extremal_sides(theorem: list[str], start: int) -> list[tuple[str, list[str]]]:
    """``[(label, the set)]`` when ``theorem[:start]`` ends with ``IsLeast <set>`` (or another
    :data:`EXTREMAL_PREDICATES` word), the set one bracketed term or one name; and ``[(label, the
    function)]`` when it ends with ``Tendsto <function> <filter> (𝓝`` (the solution the limit); else ``[]``."""
    first = _argument(theorem, start)
    if first is not None and first >= 1:
        parts = name_parts(theorem[first - 1])
        if parts and parts[-1] in EXTREMAL_PREDICATES:
            return [(f"{parts[-1]} _ _", theorem[first:start])]
    if start >= 3 and theorem[start - 1] in ("𝓝", "nhds") and theorem[start - 2] == "(":
        filter_ = _argument(theorem, start - 2)
        function = _argument(theorem, filter_) if filter_ is not None else None
        if function is not None and function >= 1 and name_parts(theorem[function - 1])[-1:] == ["Tendsto"]:
            return [("Tendsto _ _ (𝓝 _)", theorem[function:filter_])]
    return []


def _argument(theorem: list[str], end: int) -> int | None:
    """Where the one argument that ends right before ``theorem[end]`` begins: a bracketed term or a name."""
    if end < 1:
        return None
    last = theorem[end - 1]
    if last not in _CLOSERS:
        return end - 1 if starts_letter(last) else None
    depth = 0
    for j in range(end - 1, -1, -1):
        if theorem[j] in _CLOSERS:
            depth += 1
        elif theorem[j] in _CLOSERS.values():
            depth -= 1
            if depth == 0:
                return j if theorem[j] == _CLOSERS[last] else None
    return None
