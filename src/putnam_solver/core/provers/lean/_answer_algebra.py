"""The sides of each number relation as polynomials in one form, one more reading for ``_answer_restated``
(value red team 47).

The restated rule finds the question's condition in the value in the copy rule's normal form and as written
(``_answer_respelled``: one spelling per relation). The normal form already orders commutative operands and
reads ``p + p`` as ``2 * p``, but it turns an implication into a disjunction and pulls the premise's
quantifiers out, so a condition under a premise (``{n | ∀ m, C m → m = n}``, the only ``m`` with ``C``) is
found only as written, where any algebra hid it: ``a ^ m * 2`` for ``2 * a ^ m``, ``a ^ m + a ^ m``, ``3 *
b ^ m + 2 * a ^ m`` for the sum reordered, ``x - y = 0`` or ``x + c = y + c`` for ``x = y``, ``r + 1 ≤ p``
for ``r ≤ p - 1``, ``A * A * A`` for ``A ^ 3`` each passed against the pinned statements.

So each relation ``=``, ``<``, ``≤`` (after the respelling: ``>``, ``≥`` and ``≠`` are written with these),
``∣`` and ``≡ [ZMOD n]`` is read with its operands as polynomials over integer coefficients: the monomials of ``+ * ^``
by a small numeral collected, products of sums multiplied out, and, for ``=``, ``<`` and ``≤``, every
monomial moved to the side where its coefficient is positive (``x - y = 0`` is ``x = y``, ``x + c < y + c``
is ``x < y``); ``≤`` is ``<`` by one more on the right (``x ≤ y`` is ``x < y + 1``) where no leaf is shown
to be of a field, as ``_answer_bounds.stepped`` reads a numeral bound. Anything else is an atom (an
application, ``a / b``, ``a % b``, ``a ^ n`` by a variable), its own arithmetic read alike. Each step holds
in a commutative ring, and all but subtraction in ``ℕ`` (a cancellative semiring): a ``-`` is read as a
ring's where the relation shows no leaf of ``ℕ``, or shows a leaf of ``ℤ`` or a field beside it (Lean
elaborates the whole relation at one type, casting the naturals up), and inside an ascription ``(e : ℤ)``;
where it shows ``ℕ`` alone (or inside ``(e : ℕ)``), ``a - b`` truncates and is an atom. The sides are
written back by the normal form's own constructors (``_answer_commute``), so their order does not depend
on how bound variables are named.

A type the text does not show is read as a ring's: a truncating ``-`` or a type that does not cancel
(``ℝ≥0∞``) may then be read as more than it is, which can only find the question where it is not (a
refusal), never hide it. It is a reading added beside the others, never instead of one: what it cannot
read (a side that is no single term, a polynomial past :data:`MONOMIALS` terms or a power past
:data:`POWER`) stays as written, so every copy found before is still found. Its work is charged to the
comparison's budget, which marks it spent (the caller then refuses).

Red team 49: a common factor of a relation's coefficients is divided out (``4*a^m + 6*b^m = 8*c^m`` for
``2*a^m + 3*b^m = 4*c^m``), only where every leaf's type is written as ``ℕ``, ``ℤ`` or a field and nothing is
ascribed another type (:func:`_shown`, :func:`cancelling`): in ``ZMod n`` it does not hold. Two tuples or lists
equal are read as their components' equations (:func:`_components`), and a cast an ascription leaves around a
side (``(x : ℤ) - y``) as a ring's term.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from contextvars import ContextVar
from math import gcd
from typing import Final

from putnam_solver.core.provers.lean._answer_commute import binary, chain, componentwise, ordered, prefix
from putnam_solver.core.provers.lean._answer_literals import MAX_DIGITS
from putnam_solver.core.provers.lean._answer_nodes import Node, node, render, same
from putnam_solver.core.provers.lean._answer_order import terms
from putnam_solver.core.provers.lean._answer_respelled import operands
from putnam_solver.core.provers.lean._answer_types import NAMES, SHOWN, TYPES, holding
from putnam_solver.core.provers.lean._brackets import bracket_partners
from putnam_solver.core.provers.lean._idchars import all_digits, starts_digit

RELATIONS: Final = frozenset({"=", "<", "≤", "∣", "≡"})
MOVED: Final = frozenset({"=", "<", "≤"})
"""The relations whose monomials move between sides (``∣`` and ``≡`` are read side by side)."""
CONGRUENT: Final = 51
"""Tighter than a relation: a side of ``∣`` or ``≡`` looser than this is written in parentheses."""
MONOMIALS: Final = 64
"""The most monomials a side is multiplied out to; past it the side stays as written."""
POWER: Final = 8
"""The largest numeral exponent a sum is multiplied out to."""

Monomial = tuple[tuple[tuple[str, ...], int], ...]
Poly = dict[Monomial, int]
_ONE: Final[Poly] = {(): 1}
_LARGEST: Final = 10**MAX_DIGITS


class _Unread(Exception):
    """A side the reading leaves as written."""


def algebraic(kept: Sequence[str], budget: list[int]) -> list[str]:
    """``kept`` (canonical tokens, parentheses kept) with each number relation's sides read as polynomials
    (module doc), left to right, each where it stands in ``kept`` (a relation inside an operand already read
    is read with it, as an atom); each relation read is charged its own length to ``budget``
    (``_answer_normal.work_for``), which is marked when spent (the caller refuses): linear in ``kept``."""
    texts = list(kept)
    partner = bracket_partners(texts)
    out: list[str] = []
    done = 0  # `texts[:done]` is in `out`
    for at, text in enumerate(texts):
        if text not in RELATIONS or at < done or (span := operands(texts, partner, at)) is None or span[0] < done:
            continue
        budget[0] -= span[1] - span[0]
        if budget[0] < 0:
            budget[1] = 1
            break
        if (read := _relation(texts[span[0] : at], text, texts[at + 1 : span[1]])) is not None:
            out += [*texts[done : span[0]], *read]
            done = span[1]
    return [*out, *texts[done:]]


def _relation(left: list[str], op: str, right: list[str]) -> list[str] | None:
    """``left op right`` read (module doc), or None where a side is no single term, holds no arithmetic, or
    is too large to multiply out. A congruence ``a ≡ b [ZMOD n]`` keeps its modulus as written."""
    modulus: list[str] = []
    if op == "≡":
        opener = bracket_partners(right).get(len(right) - 1, -1) if right[-1:] == ["]"] else -1
        if opener <= 0:
            return None
        right, modulus = right[:opener], right[opener:]
    sides = terms(left), terms(right)
    if len(sides[0]) != 1 or len(sides[1]) != 1:
        return None
    if op == "=" and (parts := componentwise(sides[0][0], sides[1][0])) is not None:
        return _components(parts)
    if op == "=" and (read := _remainders(sides[0][0], sides[1][0])) is not None:
        return read
    if not any(map(_arithmetic, (sides[0][0], sides[1][0]))):
        return None
    kinds = _kinds(sides[0][0]) | _kinds(sides[1][0])
    reading = _Reading(_ring(kinds))
    shown = CANCELLING.get() and _shown(sides[0][0]) and _shown(sides[1][0])  # common factors may go
    out: list[str] = []
    try:
        one, other = reading.poly(sides[0][0]), reading.poly(sides[1][0])
        if op not in MOVED:
            if shown and op == "∣":
                one, other = _divided((one, other))
            if op == "∣" and reading.ring:
                other = _signed(other)
            for side, after in ((one, [op]), (other, modulus)):
                render(reading.term(side), out, CONGRUENT)
                out += after
            return out
        (difference,) = _divided((_sum(one, _negated(other)),)) if shown else (_sum(one, _negated(other)),)
        if op == "≤" and "field" not in kinds:
            op, difference = "<", _sum(difference, {(): -1})
            (difference,) = _divided((difference,)) if shown else (difference,)  # `2 * x ≤ 2 * y + 1` on ℤ
    except _Unread:
        return None
    positive = {m: c for m, c in difference.items() if c > 0}
    render(binary(op, reading.term(positive), reading.term(_negated(difference, only=True))), out)
    return out


CANCELLING: ContextVar[bool] = ContextVar("common_factors", default=False)
"""Whether the comparison under way may divide a relation by a common factor (:func:`cancelling`)."""


def cancelling(on: bool) -> AbstractContextManager[None]:
    """Divide common factors out of relations while the block runs, if ``on`` (value red team 49): the
    caller's terms elaborate no part at a type the normal form takes off (``_answer_terms.foreign_types``:
    ``(2 * n : ZMod 4) = 2 * m`` reads ``2 * n = 2 * m``, where ``n = m`` does not follow)."""
    return holding(CANCELLING, on)


def _shown(term: Node) -> bool:
    """Whether ``term`` is shown to be a number of ``ℕ``, ``ℤ`` or a field: every leaf of its arithmetic a
    numeral or a variable whose type is written (``_answer_types.SHOWN``: the statement's, a binder's own),
    through ``+ - * / %``, ``^``'s base and negation. A leaf the text does not type (an application, ``k.1``,
    an untyped binder's variable) may be of ``ZMod n``, where ``2 * x = 2 * y`` does not give ``x = y``."""
    if term.kind == "atom":
        return all_digits(term.text) or bool(dict(SHOWN.get()).get(term.text))
    if (ascribed := _ascription(term)) is not None:
        return _shown(ascribed[0])
    if term.kind == "pre" and term.text == "↑" and term.lifted:
        return True  # an ascription's cast to a number type (``_answer_casts.explicit``; others are taken off)
    if term.kind == "bin" and term.text == "^" and term.kids:
        return _shown(term.kids[0])  # `a ^ m` is of `a`'s type (`Monoid.npow`)
    if term.kind == "bin" and term.text in ("+", "-", "*", "/", "%"):
        return all(_shown(kid) for kid in term.kids)
    return term.kind == "pre" and term.text == "-" and all(_shown(kid) for kid in term.kids)


def _divided(polys: tuple[Poly, ...]) -> tuple[Poly, ...]:
    """``polys`` divided by the greatest common divisor of all their coefficients (value red team 49: ``2 * x
    = 2 * y`` for ``x = y``, ``4 * a < 6 * b`` for ``2 * a < 3 * b``, ``2 * x ∣ 2 * y`` for ``x ∣ y``). Sound where
    the terms are numbers of ``ℕ``, ``ℤ`` or a field (:func:`_shown`) and the divisor a positive numeral:
    ``c * a = c * b ↔ a = b`` (``mul_left_cancel₀``, no zero divisors), ``c * a < c * b ↔ a < b`` and ``≤``
    (``mul_lt_mul_left``, ``mul_le_mul_left`` for ``0 < c``), ``c * a ∣ c * b ↔ a ∣ b``
    (``mul_dvd_mul_iff_left``, ``c ≠ 0``); a relation of ``0`` is left."""
    divisor = 0
    for poly in polys:
        for coefficient in poly.values():
            divisor = gcd(divisor, coefficient)
    if divisor <= 1:
        return polys
    return tuple({m: c // divisor for m, c in poly.items()} for poly in polys)


def _remainders(one: Node, other: Node) -> list[str] | None:
    """``a % n = b % n`` on ``ℤ`` (a ``[ZMOD n]`` congruence, ``_answer_modeq``: its parts cast) read as ``n ∣ b -
    a`` (``Int.emod_emod_of_dvd``, ``Int.ModEq``'s ``Int.modEq_iff_dvd``; value red team 49: ``putnam_2023_b5``'s
    congruence written ``(j : ℤ) ∣ m * (k.1 + 1) - ((p (p k)).1 + 1)`` passed); else None. Not on ``ℕ``, whose
    ``-`` truncates: each side must be marked cast (``_answer_casts``)."""
    if not all(side.kind == "bin" and side.text == "%" and len(side.kids) == 2 for side in (one, other)):
        return None
    if not (one.cast or one.lifted) or not (other.cast or other.lifted) or not same(one.kids[1], other.kids[1]):
        return None
    reading = _Reading(ring=True)
    try:
        modulus = reading.poly(one.kids[1])
        difference = _signed(_sum(reading.poly(other.kids[0]), _negated(reading.poly(one.kids[0]))))
    except _Unread:
        return None
    out: list[str] = []
    render(reading.term(modulus), out, CONGRUENT)
    out.append("∣")
    render(reading.term(difference), out, CONGRUENT)
    return out


def _signed(poly: Poly) -> Poly:
    """``poly`` or ``-poly``, whichever has its least monomial positive: a divisor divides both alike
    (``dvd_neg``, in every ring)."""
    return _negated(poly) if poly and poly[min(poly)] < 0 else poly


def _components(parts: list[tuple[Node, Node]]) -> list[str]:
    """Two tuples or lists equal as their components are (``_answer_commute.componentwise``), each equation
    read as any other; those that read ``True`` (``(x, 0) = (y, 0)``'s ``0 = 0``) left out, the rest joined by
    ``∧`` (in parentheses if more than one, as it stands where one relation stood)."""
    read: list[list[str]] = []
    for one, other in parts:
        written: tuple[list[str], list[str]] = ([], [])
        render(one, written[0], CONGRUENT)
        render(other, written[1], CONGRUENT)
        equation = _relation(written[0], "=", written[1])
        if equation is None:
            equation = []
            render(binary("=", one, other), equation)
        if equation != ["True"]:
            read.append(equation)
    joined = [t for k, equation in enumerate(read) for t in ([] if k == 0 else ["∧"]) + equation]
    return joined if len(read) == 1 else ["(", *joined, ")"] if read else ["True"]


def _negated(poly: Poly, only: bool = False) -> Poly:
    """``-poly`` (only its negative monomials, negated, where ``only``)."""
    return {m: -c for m, c in poly.items() if c < 0 or not only}


def _arithmetic(term: Node) -> bool:
    """Whether ``term`` is a number written with arithmetic or a numeral (a relation of sets or propositions
    is left as written)."""
    return (term.kind == "atom" and all_digits(term.text)) or (
        term.kind in ("bin", "pre") and term.text in ("+", "-", "*", "^")
    )


def _kinds(term: Node) -> set[str]:
    """The number types the leaves of ``term``'s arithmetic show (``_answer_types.NAMES``: a statement's
    declared variable, a decimal literal, an ascription's type), as far as ``+ - * ^`` reach."""
    if term.kind == "atom":
        if starts_digit(term.text) and not all_digits(term.text):
            return {"field"}
        return {k} if (k := dict(TYPES.get()).get(term.text)) else set()
    if (ascribed := _ascription(term)) is not None:
        return {NAMES[ascribed[1]]}
    if term.kind == "pre" and term.text == "↑" and term.lifted:
        return {"ring"}  # an ascription's cast to a wider number type: a ring's `-` around it
    if term.kind in ("bin", "pre") and term.text in ("+", "-", "*"):
        return set().union(*map(_kinds, term.kids))
    if term.kind == "bin" and term.text == "^" and term.kids:
        return _kinds(term.kids[0])
    return set()


def _ring(kinds: set[str]) -> bool:
    """Whether ``-`` is a ring's in a relation whose leaves show ``kinds`` (module doc)."""
    return "ℕ" not in kinds or bool(kinds & {"ℤ", "field", "ring"})


def _ascription(term: Node) -> tuple[Node, str] | None:
    """``(e : T)`` for a number type ``T`` (the reader keeps it as a group): ``e`` and ``T``."""
    kids = term.kids
    if term.kind != "group" or term.text != "(" or len(kids) != 4 or kids[1].text != ":" or kids[3].text != ")":
        return None
    return (kids[0], kids[2].text) if kids[2].kind == "atom" and kids[2].text in NAMES else None


def difference(left: Node, right: Node) -> Poly | None:
    """``left - right`` as one polynomial over the atoms' tokens (``-`` a ring's unless the sides show ``ℕ``
    alone, as :func:`_relation` reads), or None where it is too large to read or a side is no arithmetic: how
    far an equation ``left = right`` pins a variable (``_answer_count_padding``: ``m = n + 0 * m`` is ``m - n``)."""
    if not any(map(_arithmetic, (left, right))):
        return None
    kinds = _kinds(left) | _kinds(right)
    reading = _Reading(_ring(kinds))
    try:
        return _sum(reading.poly(left), _negated(reading.poly(right)))
    except _Unread:
        return None


class _Reading:
    """One relation's sides read as polynomials: ``ring`` says whether ``-`` is a ring's (module doc);
    ``atoms`` keeps each atom's node by its tokens, to write the polynomial back."""

    def __init__(self, ring: bool) -> None:
        self.ring = ring
        self.atoms: dict[tuple[str, ...], Node] = {}

    def poly(self, term: Node) -> Poly:
        """``term`` as a polynomial over its atoms; :class:`_Unread` past the size bounds."""
        kind, text, kids = term.kind, term.text, term.kids
        if kind == "atom" and all_digits(text) and len(text) <= MAX_DIGITS:
            return {(): int(text)} if int(text) else {}
        if kind == "bin" and text == "+":
            return _fold(_sum, map(self.poly, kids))
        if kind == "bin" and text == "*":
            return _fold(_product, map(self.poly, kids))
        if kind == "bin" and text == "-" and self.ring:
            rest = _fold(_sum, map(self.poly, kids[1:]))
            return _sum(self.poly(kids[0]), _negated(rest))
        if kind == "pre" and text == "-" and self.ring and kids:
            return _negated(self.poly(kids[0]))
        if kind == "bin" and text == "^" and len(kids) == 2 and _small(kids[1]):
            base, power = self.poly(kids[0]), _ONE
            for _ in range(int(kids[1].text)):
                power = _product(power, base)
            return power
        if (ascribed := _ascription(term)) is not None:
            inner = _Reading(NAMES[ascribed[1]] != "ℕ")
            inner.atoms = self.atoms
            return inner.poly(ascribed[0])
        if kind == "pre" and text == "↑" and term.lifted and kids:  # `(e : ℤ)` where `e` is cast whole
            inner = _Reading(False)  # (value red team 49): a cast commutes with `+ * ^`; `e`'s own `-` is an atom
            inner.atoms = self.atoms
            return inner.poly(kids[0])
        return self._atom(self._rebuilt(term))

    def _atom(self, term: Node) -> Poly:
        tokens: list[str] = []
        render(term, tokens)
        self.atoms.setdefault(tuple(tokens), term)
        return {((tuple(tokens), 1),): 1}

    def _rebuilt(self, term: Node) -> Node:
        """An atom with the arithmetic inside it read alike (``e (n - 1)``, ``a ^ (2 * k)``, ``a - b`` where it
        truncates)."""
        if not term.kids or term.kind in ("binder", "ite"):
            return term
        kids = [self.term(self.poly(k)) if _arithmetic(k) else self._rebuilt(k) for k in term.kids]
        if term.kind == "bin" and term.text == "-":
            return ordered("-", kids)
        made = node(term.kind, term.text, kids, term.prec)
        made.cast, made.lifted, made.natural = term.cast, term.lifted, term.natural
        return made

    def term(self, poly: Poly) -> Node:
        """``poly`` written back: its positive monomials, less its negative ones."""
        positive = [self._monomial(m, c) for m, c in poly.items() if c > 0]
        negative = [self._monomial(m, -c) for m, c in poly.items() if c < 0]
        if not negative:
            return chain("+", positive) if positive else node("atom", "0")
        subtracted = chain("+", negative)
        return ordered("-", [chain("+", positive), subtracted]) if positive else prefix("-", subtracted)

    def _monomial(self, monomial: Monomial, coefficient: int) -> Node:
        factors = [
            self.atoms[tokens] if power == 1 else ordered("^", [self.atoms[tokens], node("atom", str(power))])
            for tokens, power in monomial
        ]
        return chain(
            "*", [node("atom", str(coefficient)), *factors] if coefficient != 1 else factors or [node("atom", "1")]
        )


def _small(term: Node) -> bool:
    return term.kind == "atom" and all_digits(term.text) and len(term.text) <= 2 and int(term.text) <= POWER


def _fold(op: Callable[[Poly, Poly], Poly], polys: Iterable[Poly]) -> Poly:
    result: Poly | None = None
    for poly in polys:
        result = poly if result is None else op(result, poly)
    return result or {}


def _sum(one: Poly, other: Poly) -> Poly:
    out = dict(one)
    for monomial, coefficient in other.items():
        _add(out, monomial, coefficient)
    if len(out) > MONOMIALS:
        raise _Unread
    return out


def _product(one: Poly, other: Poly) -> Poly:
    if len(one) * len(other) > MONOMIALS * MONOMIALS:
        raise _Unread
    out: Poly = {}
    for m1, c1 in one.items():
        for m2, c2 in other.items():
            _add(out, _times(m1, m2), c1 * c2)
    if len(out) > MONOMIALS:
        raise _Unread
    return out


def _add(poly: Poly, monomial: Monomial, coefficient: int) -> None:
    poly[monomial] = poly.get(monomial, 0) + coefficient
    if abs(poly[monomial]) >= _LARGEST:  # past what a numeral may be written as (and Python prints)
        raise _Unread
    if not poly[monomial]:
        del poly[monomial]


def _times(one: Monomial, other: Monomial) -> Monomial:
    powers: dict[tuple[str, ...], int] = dict(one)
    for atom, power in other:
        powers[atom] = powers.get(atom, 0) + power
    return tuple(sorted(powers.items()))
