"""Where the statement applies its solution, and the other side of the relation there (``_answer_copy``).

The copy rule refuses a value that is, or holds, the other side of an ``=``/``↔`` whose one side applies the
solution to plain names (``solution k``, ``x ∈ solution``, ``solution (a, b)``, ``(a, b) ∈ solution``,
``solution`` alone, a field of it) or of an extremal statement (``IsLeast S solution``:
``_answer_extremal``). This module finds those applications in the theorem's tokens and every reading of
the side beside each: a side may end at any token that can end one outside brackets, since a binder's
comma (``∑ j ∈ s, f j``) is one such token inside the side.
"""

from __future__ import annotations

from collections.abc import Sequence

from putnam_solver.core.provers.lean._answer_binders import plain_name
from putnam_solver.core.provers.lean._answer_extremal import extremal_sides
from putnam_solver.core.provers.lean._answer_terms import OPEN_CLOSE
from putnam_solver.core.provers.lean.syntax import normalize_name

RELATIONS = ("=", "↔")
ENDS_A_SIDE = {
    "=": frozenset({")", "]", "}", ",", ":=", "∧", "∨", "↔", "→", "->"}),
    "↔": frozenset({")", "]", "}", ",", ":="}),
}
"""Tokens after which a side of the relation has ended (``=`` binds tighter than ``∧``, ``↔`` looser)."""
STARTS_A_SIDE = {
    "=": frozenset({"(", "[", "{", ",", ":", "∧", "∨", "↔", "→", "->"}),
    "↔": frozenset({"(", "[", "{", ",", ":"}),
}
"""Tokens before which a side of the relation begins."""


def widened(theorem: list[str], found: list[tuple[int, int, list[str]]]) -> list[tuple[int, int, list[str]]]:
    """Each application with the parentheses around exactly it (``↔ (⟨a, b⟩ ∈ solution)``) taken in, so
    that the relation beside them is found."""
    out = []
    for start, end, args in found:
        while start >= 1 and end < len(theorem) and theorem[start - 1] == "(" and theorem[end] == ")":
            start, end = start - 1, end + 1
        out.append((start, end, args))
    return out


def tuple_applications(theorem: list[str], solution: str) -> list[tuple[int, int, list[str]]]:
    """Where the theorem applies the solution to a tuple of plain names, ``solution (b, c)``, ``solution
    ⟨b, c⟩``, or asks ``(a, b) ∈ solution`` (red team 14: ``putnam_1975_a2``'s condition copied as ``fun (b,
    c) => ...`` or with ``p.1``, ``p.2``, and ``putnam_2018_a1``'s as ``{(a, b) | ...}`` or ``{p | ...}``,
    passed the text profile; the theorem is then ``Iff.rfl``, or a one-line ``simp``)."""
    found = []
    for i, text in enumerate(theorem):
        if normalize_name(text) != solution:
            continue
        if i + 1 < len(theorem) and (names := tuple_names(theorem[i + 1 :])) is not None:
            found.append((i, i + 2 * len(names) + 2, names))
        if i >= 2 and theorem[i - 1] == "∈" and theorem[i - 2] in (")", "⟩"):
            opener = "(" if theorem[i - 2] == ")" else "⟨"
            start = next((j for j in range(i - 3, -1, -1) if theorem[j] in (opener, ")", "⟩")), None)
            if start is not None and (names := tuple_names(theorem[start : i - 1])) is not None:
                found.append((start, i + 1, names))
    return found


def tuple_names(texts: Sequence[str]) -> list[str] | None:
    """The names of the tuple ``(a, b, ...)`` or ``⟨a, b, ...⟩`` that ``texts`` begins with, if it is one of
    at least two plain names."""
    if not texts or texts[0] not in ("(", "⟨"):
        return None
    close = ")" if texts[0] == "(" else "⟩"
    end = next((j for j in range(1, len(texts)) if texts[j] in (close, "(", "⟨")), None)
    inner = list(texts[1:end]) if end is not None and texts[end] == close else []
    names, commas = inner[0::2], inner[1::2]
    tuple_ = len(names) >= 2 and len(inner) % 2 == 1 and all(c == "," for c in commas)
    return names if tuple_ and all(map(plain_name, names)) else None


def applications(theorem: list[str], solution: str, arity: int) -> list[tuple[int, int, list[str]]]:
    """Where the theorem applies the solution to ``arity`` plain names: ``(start, end, names)`` of each
    ``solution a b`` (``arity`` names after it) or, for one name, ``a ∈ solution``; for none, also a field
    of it (``solution.prod``, red team 26)."""
    found: list[tuple[int, int, list[str]]] = []
    for i, text in enumerate(theorem):
        if not arity and normalize_name(text).startswith(solution + "."):
            found.append((i, i + 1, []))
        if normalize_name(text) != solution:
            continue
        args = theorem[i + 1 : i + 1 + arity]
        if len(args) == arity and all(plain_name(a) for a in args):
            found.append((i, i + 1 + arity, args))
        if arity == 1 and i >= 2 and theorem[i - 1] == "∈" and plain_name(theorem[i - 2]):
            found.append((i - 2, i + 1, [theorem[i - 2]]))
    return found


def other_sides(theorem: list[str], start: int, end: int) -> list[tuple[str, list[str]]]:
    """Every reading of the other side of an ``=``/``↔`` next to ``theorem[start:end]``: it may end (or
    begin) at any token that can end (begin) a side outside brackets, since a binder's comma (``∑ j ∈ s,
    f j``) is one such token inside the side."""
    sides: list[tuple[str, list[str]]] = []
    if end < len(theorem) and theorem[end] in RELATIONS:
        relation = theorem[end]
        after = theorem[end + 1 :]
        sides += [(relation, after[:k]) for k in _side_ends(after, ENDS_A_SIDE[relation], OPEN_CLOSE)]
    if start >= 1 and theorem[start - 1] in RELATIONS:
        relation = theorem[start - 1]
        before = theorem[: start - 1][::-1]
        closers = {close: open_ for open_, close in OPEN_CLOSE.items()}
        sides += [(relation, before[:k][::-1]) for k in _side_ends(before, STARTS_A_SIDE[relation], closers)]
    return sides + extremal_sides(theorem, start, end)  # `IsLeast S solution`: its set `S` (red teams 24, 26)


def _side_ends(texts: list[str], ends: frozenset[str], brackets: dict[str, str]) -> list[int]:
    """The lengths at which a side read from ``texts[0]`` on may end: before an ending token outside
    brackets, or at the end; reading stops at a bracket closed that it did not open."""
    lengths, depth = [], 0
    for k, text in enumerate(texts):
        if depth == 0 and text in ends and k:
            lengths.append(k)
        if text in brackets:
            depth += 1
        elif text in brackets.values():
            depth -= 1
            if depth < 0:
                return lengths
    return [*lengths, len(texts)] if depth == 0 else lengths
