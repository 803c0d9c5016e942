"""Which terms bound a counted variable (red team 43): number terms, through ``choose`` and ``factorial``, and
which of them are positive, so that their divisors are finitely many.

A bound ``k < e`` makes ``{k : ℕ | k < e ∧ ..}`` finite whatever number ``e`` denotes; what must be shown is
that ``e`` is a number term and no search: numerals, arithmetic, casts and variables of number types
(:func:`_number_decisions.library_decides`), and since red team 43 ``Nat.choose``, ``Nat.factorial`` and its
notation ``n !`` (also as a field, ``n.choose 2``, ``(10).choose 3``) of such terms: total computable
functions ``ℕ → ℕ → ℕ`` and ``ℕ → ℕ`` (Mathlib/Data/Nat/Choose/Basic.lean: ``def choose : ℕ → ℕ → ℕ | _, 0 =>
1 | 0, _ + 1 => 0 | n + 1, k + 1 => choose n k + choose n (k + 1)``; Mathlib/Data/Nat/Factorial/Basic.lean:
``def factorial : ℕ → ℕ | 0 => 1 | succ n => succ n * factorial n`` with ``scoped notation:10000 n "!" =>
Nat.factorial n``); since false rejections 44 ``Nat.fib`` (``n.fib``, ``(10).fib``) too, total and
computable (Mathlib/Data/Nat/Fib/Basic.lean: ``def fib (n : ℕ) : ℕ := ((fun p : ℕ × ℕ => (p.snd, p.fst +
p.snd))^[n] (0, 1)).fst``), never positive here (``fib 0 = 0``). Any other function (a variable,
``Nat.find``, an unknown name) is no bound.

A divisor bounds its variable only where what it divides is positive (``{d | d ∣ 0}`` is every number):
:func:`positive` reads positive numerals joined by ``+``, ``*``, ``^``, a factorial (the same file:
``theorem factorial_pos : ∀ n, 0 < n !``), a power
whose base is positive, a natural sum whose last summand is positive (``n + 1``: ``ℕ`` has no negatives; an
integer ``n + 1`` may be ``0``), and a term that a top-level conjunct of the same condition states positive
(``0 < n ∧ d ∣ n``: where ``n = 0`` the set is empty).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import pairwise
from typing import Final

from putnam_solver.core.provers.lean._answer_count_reading import CountReading
from putnam_solver.core.provers.lean._number_decisions import NUMBER_TYPES, Binding, library_decides, type_at
from putnam_solver.core.provers.lean.syntax import IDENT, NUMBER, name_parts, normalize_name

Span = tuple[int, int]
_FUNCTIONS: Final = frozenset({"choose", "factorial", "fib"})
_NATURAL: Final = frozenset({"ℕ", "Nat"})
_DEEPEST: Final = 16
"""More nested sums, products and powers than a bound writes: none is read (fail closed, and linear)."""


def number_term(
    reading: CountReading,
    found: Sequence[Binding],
    names: Collection[str],
    span: Span,
    types: frozenset[str] = NUMBER_TYPES,
) -> bool:
    """Whether ``value[span]`` is a term of numbers free of ``names`` (module doc): each run of tokens
    between the functions read here is one :func:`_number_decisions.library_decides` accepts, of ``types``."""
    value, texts = reading.value, reading.texts
    start, end = span
    if start >= end or any(
        t.kind == IDENT and name_parts(normalize_name(t.text))[0] in names for t in value[start:end]
    ):
        return False
    first = start
    for k in range(start, end + 1):
        if k < end and not _function(reading, found, k):
            continue
        if first < k and not library_decides(value, first, k, found, types=types):
            return False
        first = k + 1 + (k + 1 < end and texts[k] == "." and texts[k + 1] in _FUNCTIONS)
    return True


def _function(reading: CountReading, found: Sequence[Binding], k: int) -> bool:
    """Whether the token at ``k`` is ``Nat.choose``/``Nat.factorial``, ``!``, the ``.`` of ``(e).choose``, or
    ``n.choose`` of a natural variable ``n`` (module doc)."""
    texts, token = reading.texts, reading.value[k]
    if texts[k] == "!":
        return k > 0
    if texts[k] == ".":
        return texts[k + 1 : k + 2] in (["choose"], ["factorial"], ["fib"]) and k > 0 and texts[k - 1] == ")"
    if token.kind != IDENT:
        return False
    parts = name_parts(normalize_name(texts[k]))
    if len(parts) != 2 or parts[1] not in _FUNCTIONS:
        return False
    return parts[0] == "Nat" or type_at(found, parts[0], k) in _NATURAL


def positive(
    reading: CountReading,
    found: Sequence[Binding],
    span: Span,
    natural: bool,
    positives: Collection[tuple[str, ...]],
    names: Collection[str] = (),
) -> bool:
    """Whether ``value[span]``, a number term free of ``names`` (the counted variable's: ``d ∣ d !`` holds of
    every ``d``), is positive by its text (module doc); ``natural``: it is a ``ℕ``; ``positives``: the
    texts of terms a conjunct of the condition states positive."""
    return number_term(reading, found, names, span) and _positive(reading, span, natural, positives, 0)


def _positive(
    reading: CountReading, span: Span, natural: bool, positives: Collection[tuple[str, ...]], depth: int
) -> bool:
    texts, partner, value = reading.texts, reading.partner, reading.value
    start, end = span
    while end - start > 2 and texts[start] == "(" and partner.get(start) == end - 1:
        start, end = start + 1, end - 1
    if depth > _DEEPEST or start >= end:
        return False
    if tuple(texts[start:end]) in positives:
        return True
    if end - start == 1 and value[start].kind == NUMBER:
        return texts[start].isdigit() and int(texts[start]) > 0
    sums, products, powers = _top_operators(reading, start, end)
    if sums:  # `ℕ` has no negatives: a natural sum is positive where a summand is; `n + 1 - 1` is `n`
        last, minus = sums[-1], any(texts[k] == "-" for k in sums)
        if natural and texts[last] == "+" and _positive(reading, (last + 1, end), natural, positives, depth + 1):
            return True
        parts = [_positive(reading, p, natural, positives, depth + 1) for p in _parts(start, end, sums)]
        return not minus and (any(parts) if natural else all(parts))  # an integer `n + 1` may be `0`
    if products:
        return all(_positive(reading, p, natural, positives, depth + 1) for p in _parts(start, end, products))
    if powers:
        return _positive(reading, (start, powers[0]), natural, positives, depth + 1)
    if texts[end - 1] == "!" or texts[end - 2 : end] == [".", "factorial"]:
        return True  # `n ! ≥ 1`, `(n + 1).factorial ≥ 1`
    if value[start].kind == IDENT and name_parts(normalize_name(texts[start]))[-1] == "factorial":
        return end - start == 1 or end - start == 2 or reading.partner.get(start + 1) == end - 1
    return False


def _top_operators(reading: CountReading, start: int, end: int) -> tuple[list[int], list[int], list[int]]:
    """The top-level ``+``/``-``, ``*`` and ``^`` of ``value[start:end]``."""
    texts, partner = reading.texts, reading.partner
    sums: list[int] = []
    products: list[int] = []
    powers: list[int] = []
    k = start
    while k < end:
        text = texts[k]
        if text in ("+", "-"):
            sums.append(k)
        elif text == "*":
            products.append(k)
        elif text == "^":
            powers.append(k)
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    return sums, products, powers


def _parts(start: int, end: int, cuts: Sequence[int]) -> list[Span]:
    bounds = [start - 1, *cuts, end]
    return [(a + 1, b) for a, b in pairwise(bounds)]


_ORDERS: Final = frozenset({"<", "≤", ">", "≥"})
_PLAIN: Final = frozenset({"+", "-", "*", "/", "%", "^", "↑"})
"""Operators that bind tighter than an order, so inside ``¬``'s argument (:func:`negation`)."""
_WORDS: Final = frozenset({"fun", "λ", "if", "then", "else", "let", "have", "show", "from", "by", "match", "with"})


def negation(reading: CountReading, span: Span) -> Span | None:
    """The comparison that the conjunct ``value[span]`` negates: ``¬ (e)``'s ``e``, or ``¬ a < b``'s ``a < b``
    where its top level holds one order (``<``, ``≤``, ``>``, ``≥``) and otherwise names, numerals,
    arithmetic and groups in parentheses (since false rejections 49); else None. Lean reads ``¬ p`` as
    ``notation:max "¬" p:40 => Not p`` (leanprover/lean4 src/Init/Core.lean), so ``¬`` takes the whole
    comparison (the orders are at 50, arithmetic above) and stops at ``∧`` (35), where the conjunct ends; a
    second ``¬``, a quantifier, ``=`` or a word (``fun``, ``if``) after it is left unread (fail closed)."""
    texts, partner, value = reading.texts, reading.partner, reading.value
    start, end = span
    if end - start < 3 or texts[start] != "¬":
        return None
    if partner.get(start + 1) == end - 1:
        return (start + 2, end - 1)
    k, orders = start + 1, 0
    while k < end:
        if texts[k] == "(" and partner.get(k, k) > k:
            k = partner[k] + 1
            continue
        orders += texts[k] in _ORDERS
        plain = value[k].kind in (IDENT, NUMBER) and texts[k] not in _WORDS
        if not (plain or texts[k] in _ORDERS or texts[k] in _PLAIN):
            return None
        k += 1
    return (start + 1, end) if orders == 1 else None
