"""G2 on a no-answer value that counts a set it defines by a quantifier (red team 39): a search of the
problem's own property by choice, with no choice operator and no decision to read.

Mathlib's cardinalities of a set and its indicator decide membership classically inside their own
definitions, so no ``open Classical``, ``decide`` or ``if`` in the value asks for it:
``noncomputable def ncard (s : Set α) : ℕ := ENat.toNat s.encard`` (Mathlib/Data/Set/Card.lean, commit
002297d, ``section ncard``), ``noncomputable def mulIndicator (s : Set α) (f : α → M) (x : α) : M := haveI :=
Classical.decPred (· ∈ s); if x ∈ s then f x else 1`` with ``indicator`` its additive form
(Mathlib/Algebra/Group/Indicator.lean, commit 097235a, lines 46-48), ``protected noncomputable def
Finite.toFinset (h : s.Finite) : Finset α := @Set.toFinset _ _ h.fintype`` with ``Finite.fintype`` a
``Nonempty.some`` (Mathlib/Data/Set/Finite/Basic.lean: "Using choice, get the `Finset` that represents this
`Set`").
"The least ``n`` with ``P``" is then ``Set.ncard {k | ∀ i ≤ k, ¬P i}`` (the ``k`` below the least one),
``∑ k ∈ range N, Set.indicator {k | ∀ i ≤ k, ¬P i} 1 k`` or ``Finset.fold min N id (h.toFinset)`` of
``{k | k ≤ N ∧ P k}``: with ``P`` the question's property (multiplied out, which the copy rule leaves), the
proof needs only a witness, as for ``sInf {n | P n}``; ``Set.ncard {_u : Unit | ∃ k < N, P k}`` decides
``∃ k < N, P k``. Red team 38's decision rule reads none of them (nothing is decided in the value), and
red team 16's copy rule only a count of the statement's own set.

So a value that counts (:data:`_answer_count_reading.COUNTS`: ``ncard``, ``encard``, ``Nat.card``,
``Cardinal.mk``, ``toFinset``, ``Fintype.ofFinite``, ``indicator``...) and also quantifies
(:data:`QUANTIFYING`: ``∀``, ``∃``, ``⋃``/``⋂``, ``lowerBounds``, ``IsLeast``, ``Nonempty``...), counts
again (a count nested in the counted set's property, ``ncard {k | ncard {i | i ≤ k ∧ P i} = 0}``) or
defines a set inside a set (``{k | Set.Iic k ∩ {i | P i} = ∅}``, a ``fun`` or ``setOf`` there) is
refused, wherever they stand (a ``let``, a ``fun`` applied, a field ``.ncard``, ``show .. from``): the set
a search counts needs one of them. A count of a set stated without quantifiers passes: a published
sound proof answers ``putnam_2011_a1`` with ``{p : Fin 2 → Fin 2012 | p 0 = 0 ∨ (p 1 ≤ p 0 ∧ p 1 ≤
3)}.ncard``; no official answer counts. A proposition (codomain ``Prop``) and a count inside a set-builder
of a ``Set`` answer characterise, they pick nothing (:mod:`_answer_count_reading`).
Red team 40: with no quantifier at all, a count or indicator of a property no instance decides
(``Irrational``) at each point of a range, combined by a big operator, fold or recursion (:data:`ITERATING`)
or under a ``fun`` other than the answer's own parameters, is the same search; such a value is refused too.
Red team 41: a quantifier hidden in a library predicate or relation none of these lists names (``Set.Iic k
⊆ S`` with ``S`` point-free) is refused by class in :mod:`_answer_count_words` (only words a computation
decides may stand beside a count); an indicator at a numeral point is left to this module's rule, which
therefore stays whole. Red team 42: a count of a domain the text does not bound is refused by
:mod:`_answer_count_domains`; the three rules read one :class:`_answer_count_reading.CountReading`.
Left: ``Finset.card`` (its ``Finset`` built by a computable filter is evaluable, or by one of the names
here).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_count_quantifiers import bounded_quantifiers
from putnam_solver.core.provers.lean._answer_count_reading import CountReading, under_inner_fun
from putnam_solver.core.provers.lean.syntax import IDENT, Token, name_parts, normalize_name

COUNT_RULE: Final = (
    "the answer counts (or takes the indicator of) a set it defines with a quantifier or another count: "
    "Mathlib decides membership there by choice, a search of the problem's own property (`Set.ncard {k | ∀ i "
    "≤ k, ¬P i}` is the least `n` with `P`); state the answer"
)

QUANTIFYING: Final = frozenset({"∀", "∃", "∃!", "∄", "∀ᶠ", "∃ᶠ", "⋃", "⋂", "⋃₀", "⋂₀", "Π", "Σ"})
"""Binders that quantify (a search's "no ``i ≤ k`` has ``P``") or take unions over an index."""
QUANTIFYING_NAMES: Final = frozenset(
    {
        "Exists",
        "ExistsUnique",
        "Nonempty",
        "Disjoint",
        "lowerBounds",
        "upperBounds",
        "IsLeast",
        "IsGreatest",
        "IsLUB",
        "IsGLB",
    }
    | {"Minimal", "Maximal", "iUnion", "iInter", "sUnion", "sInter", "biUnion", "biInter", "BddAbove", "BddBelow"}
)
"""Library predicates and sets defined by a quantifier: ``lowerBounds s`` is ``{x | ∀ ⦃a⦄, a ∈ s → x ≤ a}``
(Mathlib/Order/Bounds/Defs.lean), so ``ncard (lowerBounds S) - 1`` is ``S``'s least element."""
ITERATING: Final = frozenset(
    {"sum", "prod", "map", "fold", "foldl", "foldr", "foldlM", "foldrM", "iterate", "rec", "recOn", "brecOn"}
    | {"strongRec", "strongRecOn", "fix", "repeat", "where", "decreasing_by", "ofFn", "bind", "flatMap"}
    | {"find?", "findIdx", "findIdx?", "findSome?", "filter", "filterMap", "countP", "any", "all", "mapIdx"}
    | {"takeWhile", "dropWhile", "zipWith"}
)
"""Last parts of names that combine a function's values at many points (a fold, a big operator, a
recursion; ``f^[n]`` and ``∑``/``∏`` too, :func:`_iterates`): a count or indicator inside them decides the
question's property at each point, a search however the property is written (``∑ k ∈ range N, ∏ i ∈ range
(k + 1), (1 - Set.indicator {x | P x} 1 i)`` is the least ``n < N`` with ``P``, ``(List.range N).map
(Set.indicator {x | P x} 1)`` its table). ``Nat.count``/``List.count`` are not here (``Measure.count`` is a
count itself): the predicate they take is a ``fun`` around the indicator
(:func:`_answer_count_reading.under_inner_fun`) or a table built by one of these."""


def counted_search(reading: CountReading) -> int | None:
    """The index of the first count of the value read (:func:`_answer_count_reading.read_counts`, which
    leaves out a proposition's counts) when the value also
    quantifies, counts twice, nests a set in a set or iterates, or the count stands under an inner ``fun``
    (module doc), else None. A set's or a predicate's body is a value like any other (red team 42): the
    answer's own set-builders (``reading.own``) bind its parameters as its leading ``fun``s do."""
    value, texts, partner, counts = reading.value, reading.texts, reading.partner, reading.counts
    if not counts:
        return None
    harmless = bounded_quantifiers(reading)  # `∃ j < 3,` over ℕ (false rejections 46)
    if (
        len(counts) > 1
        or any(_quantifies(token) and i not in harmless for i, token in enumerate(value))
        or _nested_builder(texts, [i for i in reading.builders if i not in reading.own], partner)
        or _iterates(value, texts)
    ):
        return counts[0]
    under = under_inner_fun(texts, partner, reading.head)
    return next((i for i in counts if under[i]), None)


def _iterates(value: Sequence[Token], texts: Sequence[str]) -> bool:
    """Whether the value combines a function's values at many points (:data:`ITERATING`, ``f^[n]``)."""
    return any(
        text in ("∑", "∏")
        or (text == "^" and texts[i + 1 : i + 2] == ["["])
        or (token.kind == IDENT and name_parts(normalize_name(text))[-1] in ITERATING)
        for i, (token, text) in enumerate(zip(value, texts, strict=True))
    )


def _nested_builder(texts: Sequence[str], builders: Collection[int], partner: dict[int, int]) -> bool:
    """Whether a set-builder or subtype (``{x | p}``, ``{x // p}``: ``builders``) holds another one, a
    ``fun`` or a ``setOf`` inside: a set defined through another set (``{k | Set.Iic k ∩ {i | P i} = ∅}``,
    ``{k | Set.Iic k ∩ (fun i => P i : Set ℕ) = ∅}``: the ``k`` below the least ``i`` with ``P``), as a
    quantifier does. Linear: each token is read once at its own group's top level (:func:`_builder`), the
    marks inside a span by prefix sums."""
    marks = [0]
    opening = set(builders)
    for i, text in enumerate(texts):
        marks.append(marks[-1] + (text in ("fun", "λ", "setOf") or i in opening))
    return any(marks[partner[i]] - marks[i + 1] > 0 for i in builders)


def _quantifies(token: Token) -> bool:
    if token.text in QUANTIFYING:
        return True
    return token.kind == IDENT and bool(QUANTIFYING_NAMES.intersection(name_parts(normalize_name(token.text))))
