"""Bounds in one spelling for the copy rule's normal form (red team 28): intervals, strict and weak orders.

A copy of a question's bound in another spelling passed the copy rule (``_answer_copy``): ``{n | P n} ∩
Set.Ioi 0`` for ``0 < n ∧ P n``, ``{n | n ∈ Finset.range 5 ∧ P n}`` for ``n < 5 ∧ P n``, ``1 ≤ n`` (``n ≥
1``) for ``0 < n``, ``¬n < 2`` for ``2 ≤ n``: each changed nothing Lean proves, and the answer check can say
no more than ``unknown``. Read in ``_answer_commute``'s normal form, each by a lemma:

* membership of an interval is its bounds (:func:`interval_bounds`; Mathlib's ``Set.mem_Ici``,
  ``Set.mem_Ioi``, ``Set.mem_Icc``... and ``Finset.mem_Icc``..., by the interval's last name, which every
  namespace gives the same bounds), and of ``Finset.range n``, ``List.range n``, ``Multiset.range n`` the
  bound ``x < n`` (``Finset.mem_range``, ``List.mem_range``): :func:`range_head` reads these as ``Set.Iio
  n``, by their full name only (``Set.range f`` is an image). ``_answer_cover`` reads an interval beside a
  set-builder as the set-builder of its bounds (``Set.setOf_and``);
* ``¬a < b`` is ``b ≤ a`` and ``¬a ≤ b`` is ``b < a`` (``not_lt``, ``not_le``: a linear order);
* a weak bound by a numeral is the strict one (:func:`stepped`): ``c ≤ a`` is ``c - 1 < a`` for a numeral
  ``c ≥ 1`` and ``a ≤ c`` is ``a < c + 1`` (``Nat.lt_iff_add_one_le``, ``Int.lt_iff_add_one_le``: on the
  integers).

The last two hold in the orders PutnamBench's answers are stated in (``ℕ``, ``ℤ``; ``ℝ``, ``ℚ`` for the
first) but are read whatever the type, which the text rule does not know: a value and a side that differ
only by ``x ≤ 1`` against ``x < 2`` on ``ℝ`` read alike. Both are compared only as a whole question or a
condition that asks alone (``_answer_contains``), where no honest answer differs from the question by one
bound, and the honest-spelling sweep (``test_lean_honest27``) holds every official answer through them.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_nodes import Node, node
from putnam_solver.core.provers.lean._idchars import all_digits

INTERVALS: Final = {
    "Ici": ("≤", None),
    "Ioi": ("<", None),
    "Iic": (None, "≤"),
    "Iio": (None, "<"),
    "Icc": ("≤", "≤"),
    "Ico": ("≤", "<"),
    "Ioc": ("<", "≤"),
    "Ioo": ("<", "<"),
}
"""An interval's last name: how its element compares with its lower bound and with its upper one."""
RANGES: Final = frozenset({"Finset.range", "List.range", "Multiset.range"})
"""``range n``'s members are ``x < n`` (the set ``Set.Iio n``); ``Set.range f`` is no such set."""
LARGEST: Final = 10**6
"""Numerals stepped by :func:`stepped` (a literal beyond it is left as written)."""


def range_head(head: Node, args: list[Node]) -> Node | None:
    """``Finset.range n`` (:data:`RANGES`, by its full name) read as ``Iio n``, else None."""
    if head.kind == "atom" and head.text in RANGES and len(args) == 1:
        return node("app", "", [node("atom", "Iio"), args[0]], 1023)
    return None


def interval_bounds(element: Node, collection: Node) -> list[tuple[str, Node, Node]] | None:
    """``element ∈ collection`` for an interval ``collection`` (:data:`INTERVALS`) as its bounds, each
    ``(op, left, right)``: ``x ∈ Icc a b`` is ``a ≤ x`` and ``x ≤ b``; else None."""
    kids = collection.kids
    if collection.kind != "app" or not kids or kids[0].kind != "atom" or kids[0].text not in INTERVALS:
        return None
    lower, upper = INTERVALS[kids[0].text]
    args = kids[1:]
    if len(args) != (lower is not None) + (upper is not None):
        return None
    out = []
    if lower is not None:
        out.append((lower, args[0], element))
    if upper is not None:
        out.append((upper, element, args[-1]))
    return out


def flipped_negation(arg: Node) -> tuple[str, Node, Node] | None:
    """``¬arg`` for ``arg`` a strict or weak bound, as the other: ``¬a < b`` is ``b ≤ a``; else None."""
    if arg.kind == "bin" and arg.text in ("<", "≤") and len(arg.kids) == 2:
        return ("≤" if arg.text == "<" else "<", arg.kids[1], arg.kids[0])
    return None


def stepped(op: str, left: Node, right: Node) -> tuple[Node, Node] | None:
    """``left ≤ right`` with a numeral on one side as the strict bound it is on the integers (module doc):
    the new ``(left, right)`` of ``<``; else None."""
    if op != "≤":
        return None
    if (value := _numeral(left)) is not None and 1 <= value <= LARGEST:
        return node("atom", str(value - 1)), right
    if (value := _numeral(right)) is not None and value <= LARGEST:
        return left, node("atom", str(value + 1))
    return None


def _numeral(term: Node) -> int | None:
    return int(term.text) if term.kind == "atom" and all_digits(term.text) and len(term.text) <= 7 else None
