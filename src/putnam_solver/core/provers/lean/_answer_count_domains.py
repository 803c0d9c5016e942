"""G2 on a no-answer value that counts (red team 42): the counted domain must be finite by what the text says.

A count over an unbounded domain is a search in disguise, however decidable its property. Mathlib's counts
of an infinite set are junk values: ``Set.ncard s = 0`` and ``Nat.card α = 0`` for an infinite one
(Mathlib/Data/Set/Card.lean: ``theorem Infinite.ncard (hs : s.Infinite) : s.ncard = 0 :=
@Nat.card_eq_zero_of_infinite _ hs.to_subtype``, the latter ``Nat.card α = 0`` for ``[Infinite α]`` in
Mathlib/SetTheory/Cardinal/Finite.lean), ``Set.encard s = ⊤`` (same file: ``theorem encard_eq_top_iff :
s.encard = ⊤ ↔ s.Infinite``). So for an upward-closed decidable ``P``, ``Set.ncard {k : ℕ | ¬P k}``
IS "the least ``n`` with ``P``" (the set is the ``k`` below it), and a proof shows ``IsLeast`` of it in
general through ``Nat.find`` without ever computing the value, the cheat ``sInf`` gives; ``Set.ncard {p :
ℕ | p.Prime ∧ (p + 2).Prime}`` is ``0`` or the number of twin primes, an open question stated as an
answer. Red teams 39-41 read what stands beside a count (a quantifier, a second count, an undecided word),
not what it counts.

So each count that picks a value (:func:`_answer_count_reading.read_counts`; an indicator decides one
membership and counts nothing, red team 40's rule reads it) must count, by its text, one of:

* a finite type (:func:`_answer_count_binders.finite_type`): ``Fin e``, ``Bool``, ``ZMod N`` for a positive
  ``N`` (``ZMod 0`` is ``ℤ``: Mathlib/Data/ZMod/Defs.lean ``def ZMod : ℕ → Type | 0 => ℤ | n + 1 => Fin (n +
  1)``; since red team 43 any term positive by :func:`_answer_count_terms.positive`, ``ZMod (n + 1)``),
  ``Finset T``, ``Set T``, and products, sums and functions of those (Mathlib's ``Fintype`` instances,
  cited in :func:`_number_decisions.plain_type`; Mathlib/Data/Fintype/Powerset.lean: ``instance
  Finset.fintype [Fintype α] : Fintype (Finset α)``, ``instance Set.finite' [Finite α] : Finite (Set
  α)``);
* a ``Finset`` (``Finset.range e``, ``Finset.Icc a b``: every ``Finset`` is finite, also ascribed a ``Set``
  type), ``Set.univ`` ascribed ``Set T`` of a finite ``T`` (since false rejections 48), a set literal ``{a,
  b}``, or an interval of ``ℕ``/``ℤ`` (``Set.Icc``/``Ico``/``Ioc``/``Ioo``; ``Set.Iic``/``Iio`` of ``ℕ``)
  whose endpoints show no other type (numerals default to ``ℕ``);
* a set-builder or subtype over such a finite type, or over ``ℕ``/``ℤ`` (or a product of them and finite
  types, each coordinate read by :mod:`_answer_count_binders`, also through a typed tuple pattern ``{(a, b,
  c) : ℕ × ℕ × ℕ | ..}``) whose condition bounds each coordinate by a top-level conjunct (:func:`_bound`):
  ``k < e``, ``k ≤ e``, ``k = e``, their mirrors, ``k ∈ Finset.range e`` or any ``Finset``, ``k ∈ Set.Icc a
  b``, ``|k| ≤ e``, ``k ∣ N`` (``N`` positive by its text: :func:`_answer_count_terms.positive`, a conjunct
  ``0 < N``, or a parameter the statement only gives positive numbers, :mod:`_answer_count_parameters`),
  with ``e`` free of the variable and a number term (:func:`_answer_count_terms.number_term`: numerals,
  arithmetic, casts to ``ℕ``/``ℤ``/``ℚ``/``ℝ``, variables of those types, ``Nat.choose``/``Nat.factorial``
  (since false rejections 44 ``Nat.fib``):
  so the comparison is one of numbers, never a wrapping ``Fin n`` order); ``ℤ`` needs a bound on each side.
  ``k`` may be cast to a number type there (``(k : ℝ) ≤ x``: the casts are monotone); a bare ``↑k`` is not
  read (its target could wrap). A ``Finset`` variable is bounded by ``S ⊆`` a ``Finset``. Since false
  rejections 44 a coordinate may be bounded by another that is (``a < b ∧ b < 10``:
  :mod:`_answer_count_links`), since 47 by a term of coordinates below a number (``a + b ≤ 2``).

A disjunction bounds the sides each of its disjuncts bounds (a union of bounded sets). Since false rejections 48 a
negated order is read as its complement (``¬ (3987 ≤ n)``; since 49 ``¬ 3987 ≤ n`` too). Anything else beside
a count (an untyped variable, ``ℚ``, another negation, a variable counted by name) is refused:
fail closed. A bounded count of a decidable property is an evaluable term, as ``List.find?`` over a range
is (red team 41's aliases row leaves bounded decidable searches).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_count_binders import Need, coordinate, finite_type, known, needs, pattern
from putnam_solver.core.provers.lean._answer_count_links import (
    Counted,
    Link,
    carry,
    links,
    one_way,
    shifted,
    term_bound,
)
from putnam_solver.core.provers.lean._answer_count_quantifiers import bounded_quantifiers, point_body
from putnam_solver.core.provers.lean._answer_count_reading import CountReading, count_part, indicator, top
from putnam_solver.core.provers.lean._answer_count_terms import negation, number_term, positive
from putnam_solver.core.provers.lean._answer_decisions import leading_lambdas
from putnam_solver.core.provers.lean._number_decisions import Binding, bindings, library_decides
from putnam_solver.core.provers.lean.syntax import IDENT, NUMBER, name_parts, normalize_name

DOMAIN_RULE: Final = (
    "the answer counts a set or type its text does not show finite: the count of an infinite set is a junk 0 "
    "(or ⊤), and `Set.ncard {k : ℕ | ¬P k}` is the least `n` with an upward-closed `P`, which a proof may show "
    "through `Nat.find` without computing it; count a finite type, a `Finset`, or a set of `ℕ`/`ℤ` bounded by a "
    "top-level conjunct (`k < e`, `k ∈ Finset.range e`, `k ∈ Set.Icc a b`), or state the answer"
)

_OWNERS: Final = frozenset({"Set", "Nat", "ENat", "PartENat", "Fintype", "Finite", "Cardinal", "Measure", "Finset"})
"""Namespaces whose counts take the counted set or type as their first explicit argument."""
_INTEGERS: Final = frozenset({"ℕ", "ℤ", "Nat", "Int"})
_NATURALS: Final = frozenset({"ℕ", "Nat"})
_FIELDS: Final = frozenset({"ℚ", "ℝ", "ℂ", "Rat", "Real", "Complex"})
"""Types in which divisibility bounds nothing (``(k : ℝ) ∣ 1024`` holds of every ``k ≠ 0``)."""
_BOTH_SIDES: Final = frozenset({"Icc", "Ico", "Ioc", "Ioo"})
_UPPER_ONLY: Final = frozenset({"Iic", "Iio"})
_LOWER_ONLY: Final = frozenset({"Ici", "Ioi"})
_RELATIONS: Final = frozenset({"<", "≤", ">", "≥", "=", "∈", "∣", "⊆", "≠", "∉", "⊂", "↔", "≡"})
_LOOSE: Final = frozenset(
    {"∨", "→", "->", "↔", ",", "=>", "↦", "$", "<|", "|>", "|>.", "&&", "||", "^^", ";", ":=", ":", "∃", "∀", "∃!"}
    | {"fun", "λ", "if", "then", "else", "let", "have", "show", "from", "by", "match", "with", "do", "at"}
)
"""Tokens that bind looser than ``∧`` (or begin code that does): where one stands at a condition's top
level, its ``∧``s split no conjunct of the whole condition (``k < e ∧ P ∨ Q``)."""
_POSITIVE_BEFORE: Final = frozenset({("0", "<"), ("1", "≤"), ("0", "≠")})
_POSITIVE_AFTER: Final = frozenset({(">", "0"), ("≥", "1"), ("≠", "0")})
_NEGATED: Final = {"<": "≥", "≤": ">", ">": "≤", "≥": "<"}
"""The order a negated comparison states (``ℕ``, ``ℤ`` and their casts are linearly ordered); not ``=``."""
_TYPE_WORDS: Final = frozenset({"Bool", "Finset", "Set", "Fin", "ZMod"})
"""Words that begin a type :func:`_answer_count_binders.finite_type` reads, not a set."""

Span = tuple[int, int]


def unbounded_count(reading: CountReading, positive: frozenset[int] = frozenset()) -> int | None:
    """The index of the first count of the value read whose domain its text does not show finite (module
    doc), else None; ``positive``: the positions of the answer's parameters the statement only gives
    positive numbers (:func:`_answer_count_parameters.positive_parameters`)."""
    found: list[Binding] | None = None
    for i in reading.counts:
        if indicator(reading.value[i].kind, reading.texts[i]):
            continue
        span = _counted(reading, i)
        if span is not None and reading.characterises(i, span):
            continue
        if found is None:
            found = bindings(reading.value, reading.partner, reading.domains[:-1])
        if span is None or not _finite(reading, found, span, None, _given(reading, found, positive, i)):
            return i
    return None


def _given(
    reading: CountReading, found: Sequence[Binding], positive: frozenset[int], at: int
) -> frozenset[tuple[str, ...]]:
    """The names of the answer's positive parameters (their positions ``positive``, among the names its own
    leading ``fun``s bind, in order) that still name those parameters at ``at`` (no inner binder shadows them)."""
    leading = leading_lambdas(reading.value, reading.partner)[0]
    region = reading.texts[: reading.head]
    if not positive or "⟨" in region or "," in region:
        return frozenset()  # a pattern parameter (`fun ⟨a, b⟩ =>`): positions not read
    parameters = [b for b in found if b.start in leading]
    given: set[tuple[str, ...]] = set()
    for j in positive:
        if j < len(parameters):
            name = parameters[j].name
            inner = max(
                (b for b in found if b.name == name and b.start < at < b.end), key=lambda b: b.start, default=None
            )
            given |= {(name,)} if inner == parameters[j] else set()
    return frozenset(given)


def _counted(reading: CountReading, i: int) -> Span | None:
    """Where the argument the count at ``i`` counts stands: the receiver of a field (``{..}.ncard``,
    ``(Set.Icc 1 9).ncard``, ``s |>.ncard``), else the atom after it (or all after a ``<|``/``$``); None for
    a variable counted by name (``s.ncard``) or an argument not read."""
    value, texts, partner = reading.value, reading.texts, reading.partner
    before = texts[i - 1] if i else ""
    if value[i].kind == IDENT:
        parts = name_parts(normalize_name(texts[i]))
        at = count_part(parts, before)
        if at is None or (at > 0 and (at > 1 or parts[0] not in _OWNERS)):
            return None  # `s.ncard`: whatever `s` is, the text does not show it
    if before == "." and i > 1:
        last = i - 2
        first = partner.get(last, last)
        return (first, last + 1) if first <= last and (first < last or value[last].kind == IDENT) else None
    if before == "|>.":
        return (_group_start(texts, partner, i - 1), i - 1)
    j = i + 1
    if j >= len(value):
        return None
    if texts[j] in ("<|", "$"):
        return (j + 1, _group_end(texts, partner, j))
    end = partner[j] + 1 if partner.get(j, j) > j else j + 1
    return (j, end) if end > j + 1 or value[j].kind in (IDENT, NUMBER) else None


def _group_start(texts: Sequence[str], partner: dict[int, int], at: int) -> int:
    """The first token of the bracket group (or value) that ``at`` stands in."""
    k = at - 1
    while k >= 0:
        if partner.get(k, k) > k:
            return k + 1
        k = partner[k] - 1 if partner.get(k, k) < k else k - 1
    return 0


def _group_end(texts: Sequence[str], partner: dict[int, int], at: int) -> int:
    """The end (exclusive) of the bracket group (or value) that ``at`` stands in."""
    k = at + 1
    while k < len(texts):
        if partner.get(k, k) < k:
            return k
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    return len(texts)


def _finite(
    reading: CountReading,
    found: Sequence[Binding],
    span: Span,
    ascribed: Span | None,
    given: frozenset[tuple[str, ...]] = frozenset(),
) -> bool:
    """Whether ``value[span]`` is a finite type, a ``Finset``, a set literal, a bounded interval or a bounded
    set-builder (module doc); ``ascribed``: the ``T`` of an enclosing ``(… : Set T)``, which types an
    untyped set-builder's variable."""
    value, texts, partner = reading.value, reading.texts, reading.partner
    start, end = span
    while start < end and texts[start] == "(" and partner.get(start) == end - 1:
        colon = _top(reading, start, ":")
        if colon is not None and texts[colon + 1] == "Finset" and _applied(reading, colon + 1, end - 1):
            return True  # `(Finset.univ : Finset (Fin 5))`: a `Finset` is finite (false rejections 49)
        if colon is not None and texts[colon + 1 : colon + 2] != ["Set"]:
            return False
        start, end, ascribed = (
            (start + 1, end - 1, ascribed) if colon is None else (start + 1, colon, (colon + 2, end - 1))
        )
    if start >= end:
        return False
    if texts[start] == "{" and partner.get(start) == end - 1:
        if start not in reading.builders:
            return _top(reading, start, ",") is not None or end - start > 2  # `{a, b}`, `{a}`: finitely many
        return _bounded_builder(reading, found, start, ascribed, given)
    if value[start].kind == IDENT and texts[start] not in _TYPE_WORDS:
        parts = name_parts(normalize_name(texts[start]))
        if parts[0] == "Finset":
            return _applied(reading, start, end)  # every `Finset` is finite
        if parts == ["Set", "univ"] and end == start + 1:  # `(Set.univ : Set (Fin 5))`: the whole type
            return ascribed is not None and finite_type(reading, *ascribed, found, given)
        if parts[0] == "Set" and len(parts) == 2 and _applied(reading, start, end):
            types = _NATURALS if parts[1] in _UPPER_ONLY else _INTEGERS
            return parts[1] in _BOTH_SIDES | _UPPER_ONLY and library_decides(value, start + 1, end, found, types=types)
        return False
    return finite_type(reading, start, end, found, given)


def _applied(reading: CountReading, start: int, end: int) -> bool:
    """Whether ``value[start:end]`` is the name at ``start`` applied to atoms, each a name, a numeral or a
    bracket group (no operator: ``Finset.range 3 ∪ s`` may be a ``Set`` union by a coercion)."""
    k = start + 1
    while k < end:
        if reading.partner.get(k, k) > k:
            k = reading.partner[k] + 1
        elif reading.value[k].kind in (IDENT, NUMBER) and reading.texts[k] not in _LOOSE:
            k += 1
        else:
            return False
    return k == end


def _top(reading: CountReading, opener: int, symbol: str) -> int | None:
    """The first ``symbol`` at the top level of the group opened at ``opener``."""
    return top(reading.texts, reading.partner, opener, (symbol,))


def _bounded_builder(
    reading: CountReading,
    found: Sequence[Binding],
    opener: int,
    ascribed: Span | None,
    given: frozenset[tuple[str, ...]],
) -> bool:
    """Whether the set-builder or subtype at ``opener`` ranges over a finite type, or over ``ℕ``/``ℤ`` (a
    product of them and finite types, ``Finset`` of them) with each coordinate bounded by a top-level
    conjunct (module doc); its variable a name or, typed, a tuple pattern (``{(a, b) : ℕ × ℕ | ..}``)."""
    value, texts, partner = reading.value, reading.texts, reading.partner
    close = partner[opener]
    sep = reading.builders[opener]
    first = opener + 1
    if texts[first] == "(" and partner.get(first, close) < sep:
        names, after = pattern(reading, first), partner[first] + 1
    elif value[first].kind == IDENT and len(name_parts(normalize_name(texts[first]))) == 1:
        names, after = {texts[first]: ""}, first + 1
    else:
        return False
    conditions = [(sep + (1 if texts[sep] == "|" else 2), close)]
    if after == sep:
        typed = ascribed
    elif texts[after] == ":":
        typed = (after + 1, sep)
    elif texts[after] == "∈" and after == first + 1:  # `{x ∈ s | p}`: the conjunct `x ∈ s`
        typed, conditions = None, [(first, sep), *conditions]
    else:
        return False
    if names is None or (typed is None and after != first + 1):
        return False  # a pattern not read, or with no written type
    if typed is not None and finite_type(reading, *typed, found, given):
        return True
    need = needs(reading, found, typed)
    if need is None or any(not known(need, path) for path in names.values()):
        return False
    naturals = frozenset(path for path, sides in need.items() if sides == {"upper"})
    shown = _positives(reading, found, conditions[-1], names) | {name for name in given if name[0] not in names}
    integers = frozenset(path for path, sides in need.items() if typed is not None and sides == {"upper", "lower"})
    ordered = _positives(reading, found, conditions[-1], names, False)
    counted = Counted(names, naturals, shown, typed is None, integers, ordered)
    numbers, linked = frozenset(path for path, sides in need.items() if sides), list[Link]()
    harmless = bounded_quantifiers(reading)
    for condition in conditions:
        conjuncts = _conjuncts(reading, condition, harmless)
        if conjuncts is None and _disjuncts(reading, condition) is not None:
            conjuncts = [condition]  # `n < 3 ∨ n ∣ 12`: one disjunction, read as one conjunct
        for conjunct in conjuncts or []:
            point = point_body(reading, conjunct, harmless, names)
            if point is not None:  # round 50: `∃ k, k = m ∧ k < 9` bounds `m` as `k < 9` does
                inner = counted._replace(names=point[0])
                for part in _conjuncts(reading, point[1]) or []:
                    if _disjuncts(reading, part) is None:
                        _bound(reading, found, inner, part, need, linked)
                continue
            disjuncts = _disjuncts(reading, conjunct)
            if disjuncts is None:
                _bound(reading, found, counted, conjunct, need, linked)
                continue
            struck = [_struck(reading, found, counted, disjunct, need) for disjunct in disjuncts]
            for key in need:  # a union of sets bounded on a side is bounded on it
                need[key] -= struck[0][key].intersection(*(sides[key] for sides in struck[1:]))
    carry(need, linked, numbers)  # `a < b ∧ b < 10`: a coordinate bounded by another
    return not any(need.values())


def _disjuncts(reading: CountReading, span: Span) -> list[Span] | None:
    """The top-level disjuncts of ``value[span]`` (``n ∣ 10 ^ 40 ∨ n ∣ 20 ^ 30``), or None where it has
    no ``∨`` at its top level or another token looser than ``∧`` stands there."""
    texts, partner = reading.texts, reading.partner
    start, end = span
    parts, first, k = [], start, start
    while k < end:
        if texts[k] == "∨":
            parts.append((first, k))
            first = k + 1
        elif texts[k] in _LOOSE:
            return None
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    return [*parts, (first, end)] if parts else None


def _positives(
    reading: CountReading, found: Sequence[Binding], condition: Span, names: dict[str, str], unequal: bool = True
) -> frozenset[tuple[str, ...]]:
    """The texts of the terms free of the variable, and of its coordinates, that a top-level conjunct of
    ``condition`` states positive (``0 < n``, ``1 ≤ n``, ``0 ≠ n`` and their mirrors): where such a term is
    ``0`` the set is empty, so a divisor of it bounds (:func:`_answer_count_terms.positive`); a natural
    coordinate so stated bounds the other factors of a product (:func:`_answer_count_links.term_bound`)."""
    texts = reading.texts
    shown: set[tuple[str, ...]] = set()
    for start, end in _conjuncts(reading, condition) or []:
        if end - start < 3:
            continue
        if not unequal and "≠" in (texts[start + 1], texts[end - 2]):
            continue  # round 50: an integer not zero may be negative (`_answer_count_links._factors`)
        if (texts[start], texts[start + 1]) in _POSITIVE_BEFORE:
            term = (start + 2, end)
        elif (texts[end - 2], texts[end - 1]) in _POSITIVE_AFTER:
            term = (start, end - 2)
        else:
            continue
        words = texts[term[0] : term[1]]
        if not _RELATIONS.intersection(words) and (
            number_term(reading, found, names, term) or coordinate(reading, names, term) is not None
        ):
            shown.add(tuple(words))
    return frozenset(shown)


def _struck(reading: CountReading, found: Sequence[Binding], counted: Counted, conjunct: Span, need: Need) -> Need:
    """The sides :func:`_bound` would strike from ``need`` for ``value[conjunct]``, ``need`` left as it is."""
    trial = {key: set(sides) for key, sides in need.items()}
    _bound(reading, found, counted, conjunct, trial)
    return {key: need[key] - trial[key] for key in need}


def _bound(
    reading: CountReading,
    found: Sequence[Binding],
    counted: Counted,
    conjunct: Span,
    need: Need,
    linked: list[Link] | None = None,
) -> None:
    """Strike from ``need`` the sides the conjunct ``value[conjunct]`` bounds of the counted variable (module
    doc); an untyped variable only by ``=`` or a membership (its type could be ``ℚ``). ``linked``: where a
    top-level conjunct compares two coordinates, the links it makes (:mod:`_answer_count_links`)."""
    texts, partner = reading.texts, reading.partner
    start, end = conjunct
    if texts[start] in ("∃", "∀"):
        return  # a bounded quantifier (`_conjuncts`): its body bounds nothing of the whole
    inner = negation(reading, conjunct)  # `¬ (3987 ≤ n)`, `¬ 3987 ≤ n`: `n < 3987`
    negated = inner is not None
    start, end = inner or conjunct
    relations, k = [], start
    while k < end:
        relations += [k] if texts[k] in _RELATIONS else []
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    if len(relations) != 1 or (negated and texts[relations[0]] not in _NEGATED):
        return
    r = relations[0]
    relation, left, right = _NEGATED[texts[r]] if negated else texts[r], (start, r), (r + 1, end)
    names, untyped = counted.names, counted.untyped
    sides: set[str] = set()
    if relation in ("∈", "⊆"):
        path = coordinate(reading, names, left)
        sides = _member_sides(reading, found, right, relation, untyped)
    elif relation == "∣":  # of integers: in a field every nonzero number divides every number
        path = coordinate(reading, names, left)
        natural = path in counted.naturals
        integral = not _FIELDS.intersection(texts[start:r]) and number_term(reading, found, names, right, _INTEGERS)
        shown = integral and positive(reading, found, right, natural, counted.positives)
        sides = {"upper", "lower"} if shown and not untyped else set()
    elif relation in ("<", "≤", ">", "≥", "="):
        bounded = None if untyped or linked is None else term_bound(reading, found, counted, relation, (left, right))
        if linked is not None and bounded is not None:  # `a + b ≤ 2`: each coordinate's upper bound
            linked += bounded
            return
        absolute = texts[start] == "|" and texts[r - 1] == "|" and r - start > 2 and relation in ("<", "≤")
        path = coordinate(reading, names, (start + 1, r - 1) if absolute else left)
        other = right
        if path is None and not absolute:
            path, other = coordinate(reading, names, right), left
            relation = {"<": ">", "≤": "≥", ">": "<", "≥": "≤", "=": "="}[relation]
        other_path = None if absolute or untyped or path is None else coordinate(reading, names, other)
        if linked is not None and other_path is not None:
            linked += links(path or "", relation, other_path)
            return
        grown = None if absolute or untyped or path is None else shifted(reading, names, other, False, counted.naturals)
        if linked is not None and grown is not None:  # `a < b + 1`: `a`'s bound only
            linked += one_way(path or "", relation, grown)
            return
        if not number_term(reading, found, names, other) or (untyped and relation != "="):
            return
        upper, lower = relation in ("<", "≤", "=") or absolute, relation in (">", "≥", "=") or absolute
        sides = {side for side, bounded in (("upper", upper), ("lower", lower)) if bounded}
    else:
        return
    if path is None:
        return
    if path in need:
        need[path] -= sides
    elif relation == "=" or sides == {"upper", "lower", "subset"}:
        for key in need:  # `p = (1, 2)`, `p ∈ Finset.univ ×ˢ ..`: every coordinate it holds
            if path == "" or key.startswith(f"{path}."):
                need[key].clear()


def _member_sides(
    reading: CountReading, found: Sequence[Binding], span: Span, relation: str, untyped: bool
) -> set[str]:
    """The sides a membership in (``∈``) or inclusion into (``⊆``) ``value[span]`` bounds: all for a
    ``Finset`` (every ``Finset`` is finite), those of a ``Set`` interval (an untyped variable: only where
    the endpoints show ``ℕ``/``ℤ``, and ``Iic``/``Iio`` only ``ℕ``)."""
    texts, value = reading.texts, reading.value
    start, end = span
    if start >= end or value[start].kind != IDENT or not _applied(reading, start, end):
        return set()
    parts = name_parts(normalize_name(texts[start]))
    if parts[0] == "Finset":
        return {"upper", "lower", "subset"}
    if relation != "∈" or parts[0] != "Set" or len(parts) != 2:
        return set()
    if untyped:
        types = _NATURALS if parts[1] in _UPPER_ONLY else _INTEGERS
        if parts[1] in _LOWER_ONLY or not library_decides(value, start + 1, end, found, types=types):
            return set()
    if parts[1] in _BOTH_SIDES:
        return {"upper", "lower"}
    return {"upper"} if parts[1] in _UPPER_ONLY else {"lower"} if parts[1] in _LOWER_ONLY else set()


def _conjuncts(reading: CountReading, span: Span, harmless: Collection[int] = ()) -> list[Span] | None:
    """The top-level conjuncts of the condition ``value[span]`` (a conjunct in parentheses split again);
    None where a looser token stands at the condition's top level (then no conjunct holds of the whole); a
    grouped part with one is kept whole. A conjunct that begins with a quantifier of ``harmless``
    (:mod:`_answer_count_quantifiers`) reaches to the end and bounds nothing. One pass over each group's
    top level, no recursion."""
    texts, partner = reading.texts, reading.partner
    leaves: list[Span] = []
    work = [(span, True)]
    while work:
        (start, end), root = work.pop()
        while (
            start < end and texts[start] == "(" and partner.get(start) == end - 1 and _top(reading, start, ":") is None
        ):
            start, end = start + 1, end - 1
        parts, first, k, loose = [], start, start, start >= end
        while k < end and not loose:
            if k == first and k in harmless:  # `∃ j < 3, p`: to the end
                break
            loose = texts[k] in _LOOSE
            if texts[k] == "∧":
                parts.append((first, k))
                first = k + 1
            k = partner[k] + 1 if partner.get(k, k) > k else k + 1
        if loose and root:
            return None
        if loose or not parts:
            leaves.append((start, end))
        else:
            work += [(part, False) for part in [*parts, (first, end)]]
    return leaves
