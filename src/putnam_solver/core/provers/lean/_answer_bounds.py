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
  integers). Copy red team 30: any numeral the literal arithmetic reads (``_answer_literals``: ``10^100 -
  1`` is one, negative ones on ``ℤ`` too), and ``a ≤ b - 1`` is ``a < b`` where ``b`` is a literal at least
  1 of any size or both are of ``ℤ`` (:func:`predecessor`).

The last two hold in the orders PutnamBench's answers are stated in (``ℕ``, ``ℤ``; ``ℝ``, ``ℚ`` for the
first). Red team 29: the step is not taken where a leaf shows a field (``x`` of a statement's ``x : ℝ``,
``1.5``: ``_answer_types.fractional``), and elsewhere as before, the type being unknown. On
terms shown to be integers (``_answer_types``), ``a + 1 ≤ b`` is ``a < b`` (:func:`successor`), and on
naturals ``n ≠ 0`` is ``0 < n`` and ``n < 1`` is ``n = 0`` (:func:`positive`, :func:`zero_bound`). Each is
compared only as a whole question or a condition that asks alone (``_answer_contains``), and the
honest-spelling sweep (``test_lean_honest27``) holds every official answer through them.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_literals import literal, positive_literal, value
from putnam_solver.core.provers.lean._answer_nodes import Node, is_atom, node
from putnam_solver.core.provers.lean._answer_types import fractional, integers, integral, natural

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
    if op != "≤" or fractional(left, right):  # red team 29: `(x : ℝ) ≤ 1` is no `x < 2` (``_answer_types``)
        return None
    if (number := value(left)) is not None and (number >= 1 or number < 0):  # `0 ≤ a` is no `-1 < a` on ℕ
        return literal(number - 1), right
    if (number := value(right)) is not None:
        return left, literal(number + 1)
    return None


def successor(op: str, left: Node, right: Node) -> tuple[str, Node, Node] | None:
    """``a + 1 ≤ b`` as ``a < b`` and ``a < b + 1`` as ``a ≤ b`` where both are shown to be integers
    (``_answer_types.integral``: ``Int.lt_iff_add_one_le``, ``Nat.lt_succ_iff``); else None."""
    side = 0 if op == "≤" else 1 if op == "<" else None
    term = (left, right)[side] if side is not None else None
    if term is None or term.kind != "bin" or term.text != "+" or not integral(left, right):
        return None
    ones = [k for k, kid in enumerate(term.kids) if is_atom(kid, "1")]
    if not ones:
        return None
    rest = [kid for k, kid in enumerate(term.kids) if k != ones[0]]
    less = rest[0] if len(rest) == 1 else node("bin", "+", rest, term.prec)
    return ("<", less, right) if side == 0 else ("≤", left, less)


def predecessor(op: str, left: Node, right: Node) -> tuple[str, Node, Node] | None:
    """``a ≤ b - 1`` as ``a < b`` and ``b - 1 < a`` as ``b ≤ a`` (``Int.lt_iff_le_sub_one``), where ``b`` is a
    literal shown to be at least 1 however large (``_answer_literals.positive_literal``: ``10^10^10``, which is
    never evaluated; on ``ℕ`` that makes ``b - 1`` no truncation) or both are shown to be integers of ``ℤ``
    (``_answer_types.integers``: a natural number's ``-`` truncates); else None."""
    term = right if op == "≤" else left if op == "<" else None
    if term is None or term.kind != "bin" or term.text != "-" or not is_atom(term.kids[-1], "1"):
        return None
    less = term.kids[0] if len(term.kids) == 2 else node("bin", "-", term.kids[:-1], term.prec)
    if not positive_literal(less) and not integers(left if op == "≤" else right, less):
        return None
    return ("<", left, less) if op == "≤" else ("≤", less, right)


def zero_bound(op: str, left: Node, right: Node) -> tuple[str, Node, Node] | None:
    """``a < 1`` (``a ≤ 0`` stepped) as ``a = 0`` for ``a`` shown to be a natural number (``Nat.lt_one_iff``),
    so that ``¬0 < n``, ``n ≤ 0`` and ``n < 1`` read as ``n = 0``; else None."""
    if op == "<" and is_atom(right, "1") and natural(left):
        return "=", left, node("atom", "0")
    return None


def positive(equation: Node) -> tuple[str, Node, Node] | None:
    """``¬a = 0`` (``a ≠ 0``) as ``0 < a`` for ``a`` shown to be a natural number (``Nat.pos_iff_ne_zero``);
    else None."""
    kids = equation.kids
    if equation.kind != "bin" or equation.text != "=" or len(kids) != 2:
        return None
    for zero, other in (kids, kids[::-1]):
        if is_atom(zero, "0") and natural(other):
            return "<", zero, other
    return None


def lattice_bounds(op: str, left: Node, right: Node) -> list[tuple[Node, Node]] | None:
    """``a ≤ b ⊓ c`` as the pairs ``a ≤ b``, ``a ≤ c`` (``le_inf_iff``) and ``b ⊔ c ≤ a`` as ``b ≤ a``, ``c ≤ a``
    (``sup_le_iff``), in any lattice, ``min`` and ``max`` read as ``⊓`` and ``⊔`` (copy red team 36: ``0 ≤ min
    A (min B C)`` for ``0 ≤ A ∧ 0 ≤ B ∧ 0 ≤ C`` passed); else None. The other direction (``min a b ≤ c``) holds
    only in a linear order, which the text does not show."""
    if op == "≤" and right.kind == "bin" and right.text == "⊓":
        return [(left, k) for k in right.kids]
    if op == "≤" and left.kind == "bin" and left.text == "⊔":
        return [(k, right) for k in left.kids]
    return None
