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
the side it bounds ``b`` (:func:`one_way`); not the converse (``a < 0 * b`` says nothing of ``b``). Since
false rejections 47 it may be a chain of ``+`` and ``-`` of coordinates and numerals (``a < b + c``, ``a ≤ b -
1``, ``a ≤ b + c - d``): Lean reads it from the left, and ``x + y`` grows with both, ``x - y`` (``ℤ``'s, and
``ℕ``'s truncated one alike) grows with ``x`` and shrinks with ``y``, so the term is bounded above where each
coordinate it adds is bounded above and each it subtracts below, and the other way round; ``a``'s side is
struck only where every one of those is (a ``ℕ`` is bounded below by ``0``). Since false rejections 48 a
summand may be a product of coordinates (``a < b * c``: bounded where each factor is bounded on both sides,
so ``b * c`` with ``b, c : ℤ`` bounded above only bounds nothing) or a coordinate to a positive numeral power
(an odd one is monotone, as the coordinate is; an even one is bounded where its coordinate is on both sides
and is never negative); ``x ^ 0`` is ``1``. Since false rejections 49 a numeral power of a natural coordinate
(``2 ^ n < 9``) is read as growing with it (:func:`_exponential`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final, NamedTuple

from putnam_solver.core.provers.lean._answer_count_binders import Span, coordinate
from putnam_solver.core.provers.lean._answer_count_reading import CountReading
from putnam_solver.core.provers.lean._answer_count_terms import number_term
from putnam_solver.core.provers.lean._number_decisions import Binding
from putnam_solver.core.provers.lean.syntax import NUMBER

Link = tuple[str, str, tuple[tuple[str, str], ...]]
"""A coordinate (its path), a side, and the coordinates whose bounds on the sides given bound it there."""
Term = list[tuple[str, str]]
"""The coordinates a term grows with (``"+"``), shrinks with (``"-"``), or holds as a factor of a product
(``"*"``) or under an even power (``"^"``): bounded where the coordinate is bounded on both sides."""
_MOST_LINKS: Final = 32
_FLIP: Final = {"upper": "lower", "lower": "upper"}


class Counted(NamedTuple):
    """A counted set-builder's variable: each name it binds and the coordinate that name is
    (:mod:`_answer_count_binders`), the coordinates of type ``ℕ``, the terms a top-level conjunct states
    positive (their texts), whether its type is written, the coordinates of type ``ℤ`` and the terms stated
    positive by an order (``0 < a``, ``1 ≤ a``, not ``a ≠ 0``: an integer not zero may be negative)."""

    names: dict[str, str]
    naturals: frozenset[str]
    positives: frozenset[tuple[str, ...]]
    untyped: bool
    integers: frozenset[str] = frozenset()
    ordered: frozenset[tuple[str, ...]] = frozenset()


def links(path: str, relation: str, other: str) -> list[Link]:
    """The links a conjunct ``path relation other`` between two coordinates makes (module doc)."""
    found: list[Link] = []
    if relation in ("<", "≤", "="):
        found += [(path, "upper", ((other, "upper"),)), (other, "lower", ((path, "lower"),))]
    if relation in (">", "≥", "="):
        found += [(path, "lower", ((other, "lower"),)), (other, "upper", ((path, "upper"),))]
    return found


def carry(need: dict[str, set[str]], found: Sequence[Link], numbers: Collection[str]) -> None:
    """Strike from ``need`` the sides the links ``found`` bound, to a fixpoint; ``numbers``: the coordinates
    of type ``ℕ`` or ``ℤ`` (only those link)."""
    if sum(len(sources) for _, _, sources in found) > _MOST_LINKS:
        return
    changed = True
    while changed:
        changed = False
        for path, side, sources in found:
            if (
                path in numbers
                and side in need[path]
                and all(source in numbers and wanted not in need[source] for source, wanted in sources)
            ):
                need[path].discard(side)
                changed = True


def one_way(path: str, relation: str, term: Term) -> list[Link]:
    """The links ``path relation term`` makes for a ``term`` of coordinates (:func:`shifted`): ``path``'s
    only, each side needing the sides that bound the term there (module doc)."""
    found: list[Link] = []
    for side, holds in (("upper", relation in ("<", "≤", "=")), ("lower", relation in (">", "≥", "="))):
        if holds:
            found.append((path, side, tuple(need for source, how in term for need in _bounding(source, how, side))))
    return found


def _bounding(source: str, how: str, side: str) -> tuple[tuple[str, str], ...]:
    """The sides of ``source`` that bound, on ``side``, a term holding it as ``how`` (:data:`Term`)."""
    if how in ("*", "^"):
        return ((source, "upper"), (source, "lower"))
    return ((source, side if how == "+" else _FLIP[side]),)


def shifted(
    reading: CountReading,
    names: dict[str, str],
    span: tuple[int, int],
    scaled: bool = False,
    naturals: Collection[str] = frozenset(),
) -> Term | None:
    """How ``value[span]`` holds each coordinate (:data:`Term`) where it is a chain of ``+``/``-`` of summands
    with one coordinate at least (``b + 1``, ``b + c``, ``b - 1``, ``b + 2 * c``, ``x ^ 2 + y ^ 2``), each
    summand a product of numerals and of coordinates, each maybe to a positive numeral power; None otherwise,
    and where ``scaled`` (the term bounds its own coordinates, :func:`term_bound`) also for a product of two
    coordinates or a factor ``0`` (``b * c ≤ 6`` and ``0 * n ≤ 5`` bound no factor). A numeral of ``2`` or
    more to the power of a coordinate of ``naturals`` (``2 ^ n``) grows with it as the coordinate does."""
    texts = reading.texts
    signs = _split(reading, span, ("+", "-"))
    if len(signs) == 1 and len(_split(reading, span, ("*", "^"))) == 1:
        return None  # one atom: a coordinate alone or no term (:func:`links`)
    term: Term = []
    for n, (start, end) in enumerate(signs):
        sign = "+" if n == 0 or texts[start - 1] == "+" else "-"
        held: list[tuple[str, bool]] = []
        for factor in _split(reading, (start, end), ("*",)):
            if _numeral(reading, factor):
                if scaled and texts[factor[0]].strip("0") == "":
                    return None
                continue
            powered = _split(reading, factor, ("^",))
            grown = _exponential(reading, names, powered, naturals)
            if grown is not None:
                held.append((grown, False))
                continue
            exponent = texts[powered[-1][0]] if len(powered) == 2 and _numeral(reading, powered[1]) else ""
            if len(powered) > 2 or (len(powered) == 2 and not (exponent.isdigit() and int(exponent) > 0)):
                return None  # `n ^ 0` is 1; `2 ^ n` of an integer `n` is read nowhere
            found = coordinate(reading, names, powered[0])
            if found is None:
                return None
            held.append((found, exponent != "" and int(exponent) % 2 == 0))
        if len(held) > 1 and scaled:
            return None
        for found, even in held:
            term.append((found, "*" if len(held) > 1 or (even and sign == "-") else "^" if even else sign))
    return term or None


def _exponential(
    reading: CountReading, names: dict[str, str], powered: Sequence[tuple[int, int]], naturals: Collection[str]
) -> str | None:
    """The coordinate of ``naturals`` that ``value[powered]`` (the parts of a factor between ``^``s) raises a
    numeral of at least ``2`` to (``2 ^ n``), else None: ``b ^ n`` with ``n : ℕ`` grows strictly with ``n``
    in the number types, and past every bound (``n < b ^ n`` for ``1 < b``: Mathlib's ``Nat.lt_pow_self``);
    an integer exponent (``zpow`` in a field) makes ``2 ^ n`` small for every negative ``n``: not read."""
    if len(powered) != 2 or not _numeral(reading, powered[0]):
        return None
    base = reading.texts[powered[0][0]]
    found = coordinate(reading, names, powered[1])
    return found if base.isdigit() and int(base) >= 2 and found in naturals else None


def _split(reading: CountReading, span: tuple[int, int], operators: tuple[str, ...]) -> list[tuple[int, int]]:
    """The parts of ``value[span]`` between the ``operators`` at its top level."""
    texts, partner = reading.texts, reading.partner
    start, end = span
    parts, first, k = [], start, start
    while k < end:
        if texts[k] in operators:
            parts.append((first, k))
            first = k + 1
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    return [*parts, (first, end)]


def term_bound(
    reading: CountReading, found: Sequence[Binding], counted: Counted, relation: str, sides: tuple[Span, Span]
) -> list[Link] | None:
    """The links a conjunct ``T relation e`` (or ``e relation T``) makes where ``T`` is a term of coordinates
    (:func:`shifted`, no coordinate alone) and ``e`` a number term free of the counted variable (false
    rejections 47: ``a + b ≤ 2``, ``n + 1 ≤ 3988``, ``2 * n < 7974``): ``T`` below ``e`` bounds above each
    coordinate ``T`` grows with, where the others it grows with are bounded below (a ``ℕ`` is, an even power
    is) and those it shrinks with above (``ℕ``'s truncated ``x - y`` is never below the integers' difference,
    so ``x - y ≤ e`` gives ``x ≤ e + y``); an even power below ``e`` bounds its coordinate on both sides
    (``n ^ 2 < 9``, false rejections 48). Since 48 also ``T`` above ``e`` bounds below each coordinate it
    grows with, the others it grows with bounded above and those it shrinks with below (``a + b ≥ -3``, of
    ``ℤ``: a ``ℕ`` needs no lower bound, so ``ℕ``'s truncation says nothing false here). None where the
    conjunct is no such bound."""
    left, right = sides
    names = counted.names
    if coordinate(reading, names, left) is not None or coordinate(reading, names, right) is not None:
        return None
    mirrored = {"<": ">", "≤": "≥", ">": "<", "≥": "≤", "=": "="}[relation]
    for (term_span, bound_span), below in (((left, right), relation), ((right, left), mirrored)):
        if not number_term(reading, found, names, bound_span):
            continue
        factors = _factors(reading, counted, term_span) if below in ("<", "≤", "=") else None
        if factors is not None:  # `a * b ≤ 6 ∧ 0 < b`: `a ≤ 6`
            return [(path, "upper", ()) for path in factors]
        term = shifted(reading, names, term_span, True, counted.naturals)
        if term is None:
            continue
        made: list[Link] = []
        for side, holds in (("upper", below in ("<", "≤", "=")), ("lower", below in (">", "≥", "="))):
            for n, (path, how) in enumerate(term):
                if holds and (how == "+" or (how == "^" and side == "upper")):
                    others = tuple(
                        need
                        for k, (other, way) in enumerate(term)
                        if k != n and not (way == "^" and side == "upper")  # an even power is never negative
                        for need in _bounding(other, {"+": "-", "-": "+"}.get(way, way), side)
                    )
                    made += [(path, edge, others) for edge in ((side, "lower") if how == "^" else (side,))]
        return made
    return None


def _factors(reading: CountReading, counted: Counted, span: Span) -> list[str] | None:
    """Where ``value[span]`` is a product of coordinates of ``ℕ`` or ``ℤ`` and positive numerals (``a * b``,
    ``2 * a * b``), the coordinates it bounds when below a number: each whose other factors are all stated
    positive (:data:`Counted`'s ``positives``: ``0 < b``; an integer's by an order, ``ordered``), as ``a ≤ a *
    b`` for ``b ≥ 1`` in ``ℕ`` (``a * b ≤ 6 ∧ 1 ≤ b`` leaves ``b`` unbounded: ``a`` may be ``0``); an integer
    one (round 50) also stated positive itself, as ``a ≤ a * b`` needs ``a ≥ 0`` in ``ℤ`` (a negative ``a``
    makes every such product small). None where it is no such product."""
    texts = reading.texts
    if len(_split(reading, span, ("+", "-"))) != 1:
        return None
    held: list[tuple[str, bool]] = []
    for factor in _split(reading, span, ("*",)):
        if _numeral(reading, factor) and texts[factor[0]].isdigit() and int(texts[factor[0]]) > 0:
            continue
        path = coordinate(reading, counted.names, factor)
        words = tuple(texts[factor[0] : factor[1]])
        if path is not None and path in counted.naturals:
            held.append((path, words in counted.positives))
        elif path is not None and path in counted.integers:
            held.append((path, words in counted.ordered))
        else:
            return None
    if len(held) < 2:
        return None
    return [
        path
        for k, (path, own) in enumerate(held)
        if (own or path in counted.naturals) and all(shown for j, (_, shown) in enumerate(held) if j != k)
    ]


def _numeral(reading: CountReading, atom: tuple[int, int]) -> bool:
    return atom[1] - atom[0] == 1 and reading.value[atom[0]].kind == NUMBER
