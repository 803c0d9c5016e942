"""Literal arithmetic read as the number it is, for the copy rule's normal form (copy red team 30).

``n ≤ 10^100 - 1`` restates ``n < 10^100`` (``putnam_2018_b3``), but the bound steps of ``_answer_bounds``
read only a numeral, so the copy passed: ``10^100 - 1`` is no token the step knows. A closed term of
numerals is read as the numeral it denotes (:func:`folded`) wherever it stands, in the value and in the
statement's side alike, so both reach one form (``_answer_bounds.stepped`` then reads ``≤ c`` as ``< c + 1``).

Only what means the same in every type a literal may be elaborated at (``ℕ``, ``ℤ``, ``ℚ``, ``ℝ``) is
evaluated: ``+``, ``*``, ``^`` by a natural exponent, and ``-`` where the result is not negative or an
operand is (a negative literal is never a natural number: ``ℕ`` has no ``Neg``), since ``0 - 1`` is ``0`` on
``ℕ`` and ``-1`` elsewhere; ``/`` and ``%`` floor on the integers and not in a field, so they stay.

The size is bounded before any work (:data:`MAX_DIGITS`, by the operands' bit lengths): ``10^10^10`` (in
``putnam_2010_a4``) is never computed, it stays as written, on both sides alike, and a bound by it is read
by its sign alone (:func:`positive_literal`: ``a ≤ E - 1`` is ``a < E`` for a literal ``E ≥ 1``, which
``_answer_bounds.predecessor`` reads at any size). A literal is never rendered beyond Python's limit on
decimal conversions.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_nodes import Node, node
from putnam_solver.core.provers.lean._idchars import all_digits

MAX_DIGITS: Final = 4000
"""The most decimal digits a folded literal may have (below Python's 4300-digit conversion limit)."""
MAX_BITS: Final = MAX_DIGITS * 3
"""A bound in bits that keeps a result within :data:`MAX_DIGITS` (``2^3 < 10``), checked before a power or a
product is computed."""


def value(term: Node) -> int | None:
    """The integer a numeral or a negated numeral is (``7``, ``-7``), else None."""
    if term.kind == "atom" and all_digits(term.text) and 0 < len(term.text) <= MAX_DIGITS:
        return int(term.text)
    if term.kind == "pre" and term.text == "-" and term.kids and (inner := value(term.kids[0])) is not None:
        return -inner if inner > 0 else None
    return None


def literal(number: int) -> Node:
    """The node of ``number`` as the reader builds it: a numeral, negated if negative."""
    atom = node("atom", str(abs(number)))
    return node("pre", "-", [atom], 75) if number < 0 else atom


def folded(op: str, operands: list[Node]) -> Node | None:
    """``operands`` joined by ``op`` as the literal they denote (module doc), if each is one and the
    result fits :data:`MAX_DIGITS`; else None. ``-`` is read left to right, ``^`` right to left."""
    numbers = [value(term) for term in operands]
    if len(numbers) < 2 or any(n is None for n in numbers):
        return None
    known = [n for n in numbers if n is not None]
    negative = any(n < 0 for n in known)
    if op == "+":
        result = sum(known)
    elif op == "*":
        if sum(abs(n).bit_length() for n in known) > MAX_BITS:
            return None
        result = 1
        for n in known:
            result *= n
    elif op == "-":
        result = known[0]
        for n in known[1:]:
            result -= n
            if result < 0 and not negative:  # truncated on ℕ, negative elsewhere: the type decides
                return None
    elif op == "^":
        result = known[-1]
        for base in reversed(known[:-1]):
            if result < 0 or result * abs(base).bit_length() > MAX_BITS:  # an upper bound, before computing
                return None
            result = base**result
    else:
        return None
    return literal(result) if result.bit_length() <= MAX_BITS else None


def summed(op: str, operands: list[Node]) -> list[Node]:
    """The operands of a ``+`` or ``*`` chain as the one literal they denote where all are literals (``2 +
    3`` is ``5``). A chain that also holds a term keeps its literals apart: ``n + 1 + 1`` (a definition
    unfolded twice in the statement's side) is no ``n + 2``, the honest closed form beside it."""
    number = folded(op, operands)  # None for fewer than two
    return [number] if number is not None else operands


def positive_literal(term: Node) -> bool:
    """Whether ``term`` is a closed literal term shown to be at least 1 without evaluating it: a positive
    numeral, a sum or product of such, or a power of one (``10^10^10``)."""
    if term.kind == "atom":
        return all_digits(term.text) and term.text.strip("0") != ""
    if term.kind == "bin" and term.text in ("+", "*") and term.kids:
        return all(positive_literal(kid) for kid in term.kids)
    if term.kind == "bin" and term.text == "^" and len(term.kids) >= 2:
        return positive_literal(term.kids[0]) and all(_natural_literal(kid) for kid in term.kids[1:])
    return False


def _natural_literal(term: Node) -> bool:
    if term.kind == "atom":
        return all_digits(term.text)
    return term.kind == "bin" and term.text in ("+", "*", "^") and all(_natural_literal(k) for k in term.kids)
