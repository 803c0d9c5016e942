"""One spelling for each relation and for primality, before ``_answer_restated`` reads a value as written
(value red team 44).

The restated rule looks for the question's condition in the value twice: in the copy rule's normal form
(``_answer_order``) and as written. The normal form reads ``p > 5`` as ``5 < p`` and ``Nat.Prime p`` as
``p.Prime``, but it also turns an implication into a disjunction and pulls the premise's quantifiers out
(``∀ m, C m → n = m`` is ``∀ m a .., ¬C₁ ∨ .. ∨ n = m``), so a condition under a premise is found only as
written, and any respelling of one of its parts hid it: ``{n | ∀ p, Nat.Prime p ∧ p > 5 ∧ .. → n = p}``
against ``putnam_2024_a4``'s ``{p | p.Prime ∧ 5 < p ∧ ..} = solution`` passed (the least such ``p``
restated, a proof needs no value). Each of these respellings is the same proposition to Lean:

* ``a > b`` is notation for ``b < a`` and ``a ≥ b`` for ``b ≤ a`` (core's ``GT.gt a b := LT.lt b a``,
  ``GE.ge a b := LE.le b a``, both reducible); ``a ≠ b`` is ``¬ a = b`` (``Ne a b := a = b → False``);
* ``p.Prime`` is ``Nat.Prime p`` (generalised field notation on ``p : ℕ``) and ``_root_.Prime p`` is
  equivalent on ``ℕ`` (Mathlib's ``Nat.prime_iff``); all read as ``Prime p``;
* ``a = b`` is equivalent to ``b = a`` (``eq_comm``): ``∀ m, (∃ A .., m = A ^ 3 + ..) → m = n`` against
  ``putnam_2019_a1``'s ``∃ A .., A ^ 3 + .. = n``. An equation's sides are put in one order, the shorter
  first, then by their tokens with every plain name masked (so the order does not depend on what its bound
  variables are called); one that holds another equation is left as written (the inner one is ordered).

Red team 45: the same up to order algebra, as the normal form reads it (``_answer_bounds``), since ``6 ≤ p``
and ``¬ p ≤ 5`` for ``5 < p`` hid the condition as well:

* ``¬ a < b`` is ``b ≤ a`` and ``¬ a ≤ b`` is ``b < a``, also ``¬ (a ≤ b)`` (``not_lt``, ``not_le``: a
  linear order, the orders PutnamBench states its conditions in);
* ``c ≤ x`` is ``c - 1 < x`` and ``x ≤ c`` is ``x < c + 1`` for a numeral ``c`` (``Nat.lt_iff_add_one_le``,
  ``Int.lt_iff_add_one_le``), the normal form's own step (``_answer_bounds.stepped``): not where a leaf is
  shown to be of a field (a statement's ``x : ℝ``, ``1.5``), nor where the value writes a field type for a
  name of it (``∀ x : ℝ``, ``(x : ℝ)``); elsewhere the type is unknown and the step is taken, as the normal
  form takes it (a value bound ``∀ p,`` with ``Nat.Prime p`` has no type written).

So both sides, value and condition, are rewritten alike to ``b < a``, ``b ≤ a``, ``¬ a = b``, a strict
bound by a numeral and ``Prime p``. An operand runs to the nearest looser operator, separator or unmatched
bracket; a binder's own predicate (``∃ x > 0, ..``, ``∀ k ≠ 0, ..``) is left as written, since it binds its
left side. Reading more as the question only refuses more; the honest closed forms hold no such condition
either way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Final

from putnam_solver.core.provers.lean._answer_bounds import stepped
from putnam_solver.core.provers.lean._answer_nodes import render
from putnam_solver.core.provers.lean._answer_order import terms
from putnam_solver.core.provers.lean._answer_types import NAMES
from putnam_solver.core.provers.lean._brackets import bracket_partners

SWAPPED: Final = {">": "<", "≥": "≤"}
NEGATED: Final = {"<": "≤", "≤": "<"}
"""``¬ a < b`` is ``b ≤ a`` and ``¬ a ≤ b`` is ``b < a`` (``not_lt``, ``not_le``)."""
STRICT: Final = 51
"""Tighter than a relation: a stepped side looser than this is written back in parentheses."""
PRIMES: Final = frozenset({"Nat.Prime", "_root_.Prime", "Prime"})
STOPS: Final = frozenset(
    {"∧", "∨", "¬", "→", "↔", ",", "|", "//", "=>", "↦", ":=", ":", ";", "then", "else", "if", "by", "$", "<|"}
    | {"=", "≠", "<", ">", "≤", "≥", "∈", "∉", "∣", "⊆", "⊂"}
)
"""What ends an operand of a comparison: a looser operator, a separator, another relation."""
BINDERS: Final = frozenset({"∀", "∃", "∃!", "∑", "∏", "⋃", "⋂", "fun", "λ", "{"})
Rewrite = Callable[[list[str], int], tuple[list[str], int]]


def respelled(texts: Sequence[str], budget: list[int]) -> list[str]:
    """``texts`` with each relation and each primality in one spelling (module doc). Each rewrite is charged
    to ``budget`` (``_answer_normal.work_for``), which is marked when spent (the caller then refuses)."""
    relation: Rewrite = partial(_relation, fields=_fields(texts))
    out = _each(_primes(list(texts), budget), frozenset({*SWAPPED, *NEGATED, "≠"}), relation, budget)
    return _each(out, frozenset({"="}), _equation, budget)


def _each(texts: list[str], wanted: frozenset[str], rewrite: Rewrite, budget: list[int]) -> list[str]:
    """``texts`` with ``rewrite`` applied at each token of ``wanted``, left to right (it says where to read
    on), each application charged the text's length."""
    out, i = texts, 0
    while i < len(out):
        if out[i] not in wanted:
            i += 1
        elif _spent(budget, len(out)):
            return out
        else:
            out, i = rewrite(out, i)
    return out


def _spent(budget: list[int], work: int) -> bool:
    budget[0] -= work
    if budget[0] < 0:
        budget[1] = 1
    return budget[0] < 0


def _equation(texts: list[str], at: int) -> tuple[list[str], int]:
    """The equation at ``at`` with its sides in one order (module doc), and where to read on: after it."""
    partner = bracket_partners(texts)
    start, end = _left(texts, partner, at), _right(texts, partner, at)
    left, right = texts[start:at], texts[at + 1 : end]
    if left and right and "=" not in left and "=" not in right and _order(right) < _order(left):
        return [*texts[:start], *right, "=", *left, *texts[end:]], start + len(right) + 1
    return texts, at + 1


def _order(side: list[str]) -> tuple[int, tuple[str, ...]]:
    return len(side), tuple("_" if t.isidentifier() else t for t in side)


def _relation(texts: list[str], at: int, fields: frozenset[str]) -> tuple[list[str], int]:
    """The relation at ``at`` rewritten, and where to read on: from its left operand (or the ``¬`` taken off),
    which may now hold a relation of the right one."""
    partner = bracket_partners(texts)
    if (span := operands(texts, partner, at)) is None:
        return texts, at + 1  # a binder's own predicate, or no operand to read: as written
    start, end = span
    left, right, op = texts[start:at], texts[at + 1 : end], texts[at]
    if op in NEGATED and (outer := _negation(texts, partner, start, end)) is not None:
        return [*texts[: outer[0]], *right, NEGATED[op], *left, *texts[outer[1] :]], outer[0]
    if op == "≤" and (bound := _stepped(left, right, fields)) is not None:
        return [*texts[:start], *bound[0], "<", *bound[1], *texts[end:]], start + len(bound[0]) + 1
    if op in NEGATED:
        return texts, at + 1
    if op == "≠":
        return [*texts[:start], "¬", *left, "=", *right, *texts[end:]], start
    return [*texts[:start], *right, SWAPPED[op], *left, *texts[end:]], start


def _negation(texts: list[str], partner: dict[int, int], start: int, end: int) -> tuple[int, int] | None:
    """Where ``¬ a ≤ b`` or ``¬ (a ≤ b)`` begins and ends, if the relation between ``start`` and ``end`` is
    negated so."""
    if start >= 1 and texts[start - 1] == "¬":
        return start - 1, end
    if start >= 2 and texts[start - 2] == "¬" and texts[start - 1] == "(" and partner.get(start - 1) == end:
        return start - 2, end + 1
    return None


def _stepped(left: list[str], right: list[str], fields: frozenset[str]) -> tuple[list[str], list[str]] | None:
    """``c ≤ x`` as ``c - 1 < x`` and ``x ≤ c`` as ``x < c + 1`` for a numeral ``c``, as the normal form steps
    it (``_answer_bounds.stepped``: not where a leaf shows a field, a statement's ``x : ℝ``, ``1.5``), nor
    where the value writes a field type for a name of it (``∀ x : ℝ``, ``(x : ℝ)``): ``(left, right)`` of
    ``<``; else None."""
    if any(t in fields for t in (*left, *right)):
        return None
    sides = terms(left), terms(right)
    if len(sides[0]) != 1 or len(sides[1]) != 1 or (step := stepped("≤", sides[0][0], sides[1][0])) is None:
        return None
    out: tuple[list[str], list[str]] = ([], [])
    for term, tokens in zip(step, out, strict=True):
        render(term, tokens, STRICT)
    return out


def _fields(texts: Sequence[str]) -> frozenset[str]:
    """The names ``texts`` writes a field type for, ``x y : ℝ`` (in a binder or an ascription)."""
    found: set[str] = set()
    for i, text in enumerate(texts[1:-1], 1):
        if text == ":" and NAMES.get(texts[i + 1]) == "field":
            j = i - 1
            while j >= 0 and texts[j].isidentifier():
                found.add(texts[j])
                j -= 1
    return frozenset(found)


def operands(texts: list[str], partner: dict[int, int], at: int) -> tuple[int, int] | None:
    """Where the left operand of the relation at ``at`` begins and its right one ends (module doc), or None
    for a binder's own predicate or a relation with an operand missing (``_answer_algebra`` reads the same
    operands)."""
    start, end = _left(texts, partner, at), _right(texts, partner, at)
    return None if start == at or end == at + 1 or _binding(texts, start) else (start, end)


def _binding(texts: list[str], start: int) -> bool:
    """The left operand at ``start`` is a binder's variables (``∃ x y > 0``, ``{x ≤ a | C}``): the operand
    reading stops at a binder's token only right before its names."""
    return start >= 1 and texts[start - 1] in BINDERS


def _left(texts: list[str], partner: dict[int, int], at: int) -> int:
    j = at - 1
    while j >= 0 and texts[j] not in STOPS and texts[j] not in BINDERS:
        if partner.get(j, j) < j:
            j = partner[j] - 1
        elif j in partner:
            break  # an unmatched opening bracket
        else:
            j -= 1
    return j + 1


def _right(texts: list[str], partner: dict[int, int], at: int) -> int:
    k = at + 1
    while k < len(texts) and texts[k] not in STOPS and texts[k] not in BINDERS:
        if partner.get(k, k) > k:
            k = partner[k] + 1
        elif k in partner:
            break  # an unmatched closing bracket
        else:
            k += 1
    return k


def _primes(texts: list[str], budget: list[int]) -> list[str]:
    """``Nat.Prime p``, ``_root_.Prime p``, ``p.Prime``, ``p . Prime`` and ``(t).Prime`` as ``(Prime p)`` or
    ``(Prime (t))``; a receiver's reading charged to ``budget``."""
    out: list[str] = []
    for text in texts:
        head, dot, rest = text.partition(".")
        receiver = _receiver(out, budget) if text == "Prime" and out[-1:] == ["."] else None
        if receiver is not None:
            group = out[receiver:-1]
            out[receiver:] = ["(", "Prime", *(group[1:-1] if len(group) == 3 else group), ")"]  # `(p)` is `p`
        elif text in PRIMES:
            out.append("Prime")
        elif dot and rest == "Prime" and head.isidentifier():
            out += ["(", "Prime", head, ")"]
        else:
            out.append(text)
    return out


def _receiver(out: list[str], budget: list[int]) -> int | None:
    """Where the receiver of a field call ``r . Prime`` begins (``out`` ends with its ``.``): a name, or a
    bracketed group (read back to its opening bracket)."""
    if len(out) >= 2 and out[-2].isidentifier():
        return len(out) - 2
    depth = 0
    for j in range(len(out) - 2, -1, -1) if out[-2:-1] == [")"] else ():
        if _spent(budget, 1):
            return None
        depth += (out[j] == ")") - (out[j] == "(")
        if depth == 0:
            return j
    return None
