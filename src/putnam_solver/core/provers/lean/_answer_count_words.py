"""G2 on a no-answer value that counts (red team 41): what may stand beside a count, by class, not by list.

A count decides membership of the counted set by choice inside Mathlib's own definitions (:mod:`_answer_counts`
cites them), so the count states an answer only where the counted property is one a computation decides.
Red teams 39-40 refused the quantifiers, nestings and iterations a search needs by listing them; a quantifier
hidden in a library predicate or relation no list names passed: "the least ``n`` with ``P``" is ``Set.ncard
{k : ℕ | Set.Iic k ⊆ S}`` with ``S`` the property written point-free (``(Irrational ∘ Real.sqrt ∘ Nat.cast :
Set ℕ)ᶜ``), and ``⊆`` is also ``Set.Subset``, ``HasSubset.Subset``, ``≤`` on sets, ``Set.MapsTo id``, an
empty meet, ``IsEmpty``, a powerset's membership; the property hides its own quantifier in ``Set.range``,
``Set.InjOn``, ``Subsingleton``...

So where a value counts (:func:`_answer_count_reading.read_counts`: not in a proposition; since red team 42
also inside a ``Set`` answer's set-builder or a predicate's body, where ``∩``, ``∪`` and ``\\`` outside
every bracket combine the answer's own sets), each of its words must be one whose meaning a computation decides
(:func:`unlisted_beside_count`): a numeral; a symbol of :data:`SYMBOLS` (arithmetic, comparisons,
connectives, brackets, ``fun``/set-builder/subtype syntax, ``∈``/``⊆`` between the sets these words make);
a name the value itself binds there (its set-builder's variables, its ``fun``'s parameters, the answer's
own ``fun``s: scope by scope, :func:`syntax.free_occurrences` over the value in brackets, so a name bound
in one place does not pass for the same name used free in another), with only :data:`FIELDS` after it; a
plain type of :data:`TYPES`, ``Set`` only as a set-builder's ascription (``({p | ..} : Set T)``, the
published ``putnam_2011_a1`` answer) or, since false rejections 44, as the finite type a count counts
(``Nat.card (Set (Fin 5))``: :func:`_answer_count_binders.finite_type`, its members named by no property),
since false rejections 48 as the type ascribed to a count's argument, with ``Set.univ`` when that argument is it
alone (``Set.ncard (Set.univ : Set (Fin 5))``: :func:`_ascribed_arguments`), and ``ℝ`` only as a cast's target
(``(Nat.card (Fin 3) : ℝ)``, ``(k : ℝ) ≤ x``) or in the answer's own leading binders (``fun (x : ℝ) =>``): red team
41 also asked that the value bind nothing else, lest a variable take ``ℝ`` from an ascription (``{x | (x : ℝ) ^ 2 =
2}``); since red team 42 a counted variable has its type written, or a ``Finset`` membership or an equation
fixes it, or :mod:`_answer_count_domains` refuses the count; or a library name of :data:`NAMES`, bare where
the ``open``s in force make it mean one (:mod:`_short_names`, also an ``open Finset in`` inside the value,
whose own words then pass). Anything
else (an unknown name, ``∩``, ``ᶜ``, ``∅``, ``let``, ``·``, a dependent arrow ``(i : ℕ) → ..``, which is a
``∀``) refuses the value. So do a ``fun`` holding a ``fun`` or ``{``
other than the value's leading ones (``(fun i => ..) = fun i => ..`` is a ``∀`` over the domain), as red
team 39 refused a set inside a set-builder, and a set-builder's image form (``{j | (j : ℕ) (i : ℕ) (_ : P
i ∧ j < i)}``: each member an ``∃ i``, :func:`syntax.image_bars`). The words a search needs are outside
the list whatever their name: a predicate with a quantifier, its point-free form, a relation between a
set and a property.

Why each listed name decides by computation: ``Nat.Coprime m n`` is ``gcd m n = 1`` with a computable
instance (leanprover/lean4 src/Init/Data/Nat/Coprime.lean, commit 24c4e8a, lines 26 and 29); ``Even``/
``Odd`` on ``ℕ`` by ``n % 2`` (Mathlib/Algebra/Group/Nat/Even.lean, commit 4cc9258, line 27); ``Nat.Prime``
by ``Nat.decidablePrime`` (Mathlib/Data/Nat/Prime/Defs.lean: ``decidable_of_iff' _ prime_def_lt'``); the
intervals are set-builders of comparisons (Mathlib/Order/Interval/Set/Defs.lean, commit 7d17731, lines
31-73); ``⊆`` of ``Finset``s by ``Finset.instDecidableRelSubset`` (Mathlib/Data/Finset/Defs.lean:
``decidableDforallFinset``); ``Nat.gcd``, ``lcm``, ``factorial``, ``choose``, ``Int.natAbs``/``toNat``,
``Finset.range``/``card`` are computable functions, ``Finset.univ`` is the list of a ``Fintype`` instance
(Mathlib/Data/Fintype/Defs.lean: ``class Fintype (α : Type*) where elems : Finset α``, ``def Finset.univ :
Finset α := @Fintype.elems α _``; since false rejections 49: membership in it is ``True``, and the type it
is ascribed is read word by word as any other), and so are ``Finset.Icc``/``Ico``/``Ioc``/``Ioo`` of
``ℕ`` (Mathlib/Order/Interval/Finset/Nat.lean, ``instance instLocallyFiniteOrder : LocallyFiniteOrder ℕ
where finsetIcc a b := ⟨List.range' a (b + 1 - a), List.nodup_range' _ _⟩``; red team 42); the types'
orders and equalities are computable instances (:func:`_number_decisions.plain_type` cites them; ``ZMod
n``'s is ``ZMod.decidableEq``, that of ``ℤ`` or ``Fin``: Mathlib/Data/ZMod/Defs.lean); ``ℝ``'s are
classical (``Real.decidableLT``).

Kept: an indicator taken at a numeral point (``Set.indicator {x | Q x} 1 5``) decides one proposition
and searches nothing; red team 40 accepted it beside ``Irrational`` and ``Real.pi``, and red team 39-40's
rule (quantifier, second count, nesting, iteration, inner ``fun``) still reads it, so none of that rule is
dropped. Left: such a single decision (a value hedging between two answers by one undecided proposition);
the domain a count ranges over is :mod:`_answer_count_domains`' (red team 42).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_count_binders import finite_type
from putnam_solver.core.provers.lean._answer_count_quantifiers import bounded_quantifiers
from putnam_solver.core.provers.lean._answer_count_reading import CountReading, free_in_brackets, indicator, top
from putnam_solver.core.provers.lean._short_names import opened_in
from putnam_solver.core.provers.lean.syntax import (
    IDENT,
    NUMBER,
    SYMBOL,
    Token,
    image_bars,
    name_parts,
    normalize_name,
)

WORD_RULE: Final = (
    "the answer counts (or takes the indicator of) a set it defines with a quantifier hidden in a word no "
    "computation decides: beside a count only numerals, arithmetic, comparisons, connectives, plain types, the "
    "value's own variables and a few decidable library names may stand (Mathlib decides the counted set's "
    "membership by choice, and `Set.ncard {k | Set.Iic k ⊆ S}` is the least `n` outside `S`); state the answer"
)

SYMBOLS: Final = frozenset(
    {"(", ")", "{", "}", "⟨", "⟩", ",", ":", "|", "=>", "↦", ".", "|>.", "|>", "<|", "$", "↑", "#"}
    | {"+", "-", "*", "/", "%", "^", "∣", "!", "=", "≠", "<", ">", "≤", "≥", "∧", "∨", "¬", "↔", "→", "->"}
    | {"×", "⊕", "∈", "∉", "⊆"}
)
"""Symbols whose meaning over the listed types is a computation (``#`` is a count itself; ``//`` of a subtype
is two ``/``). Not here: ``∀``, ``∃``, ``∑``, ``∩``, ``∪``, ``\\``, ``ᶜ``, ``∅``, ``⊂``, ``⊥``, ``·``, ``∘``,
``⁻¹'``, ``[``, ``;``, ``:=``, ``@``."""
TYPES: Final = frozenset({"ℕ", "ℤ", "ℚ", "Nat", "Int", "Rat", "Fin", "Bool", "ZMod", "Finset", "Prod"})
NAMES: Final = frozenset(
    {
        "Set.ncard",
        "Set.encard",
        "Nat.card",
        "Fintype.card",
        "Cardinal.mk",
        "Cardinal.toNat",
        "Set.indicator",
        "Set.mulIndicator",
    }
    | {"Set.Icc", "Set.Ico", "Set.Ioc", "Set.Ioo", "Set.Ici", "Set.Iic", "Set.Ioi", "Set.Iio"}
    | {"Nat.Prime", "Nat.Coprime", "Nat.gcd", "Nat.lcm", "Nat.factorial", "Nat.choose", "Nat.fib", "Even", "Odd"}
    | {"Int.natAbs", "Int.toNat", "Finset.range", "Finset.card", "True", "False", "true", "false", "fun", "λ", "_"}
    | {"Finset.Icc", "Finset.Ico", "Finset.Ioc", "Finset.Ioo", "Finset.univ"}
)
"""The counts themselves, then library names whose meaning a computation decides (module doc)."""
FIELDS: Final = frozenset(
    {"fst", "snd", "val", "natAbs", "toNat", "ncard", "encard", "card", "Prime", "Coprime", "gcd", "lcm"}
    | {"factorial", "choose", "fib", "succ", "pred"}
)
"""Names allowed after a ``.`` or a bound variable's name (``p.fst``, ``d.Prime``, ``{..}.ncard``)."""


def unlisted_beside_count(reading: CountReading) -> int | None:
    """The index of the first word of the value read (:func:`_answer_count_reading.read_counts`) no
    computation decides, where the value counts other than by an indicator at a numeral (module doc), else
    None."""
    value, texts, partner, head = reading.value, reading.texts, reading.partner, reading.head
    if all(_at_a_numeral(value, partner, i) for i in reading.counts):
        return None  # no count, or one indicator at one point (red team 39-40's rule reads it)
    wrapped = free_in_brackets(value)  # in brackets: no top-level group binds
    free = {t.offset for t in wrapped}
    if (nested := _fun_in_fun(texts, partner, head)) is not None:
        return nested
    if bars := image_bars(value):  # `{j | (j : ℕ) (i : ℕ) (_ : P i ∧ j < i)}`: an `∃ i`
        return min(bars)
    skipped = (_combining(texts, partner) if reading.holds_sets else frozenset()) | opened_in(value)
    skipped |= bounded_quantifiers(reading)  # `∃ j < 3,` over ℕ (false rejections 46)
    skipped |= _ascribed_arguments(reading)  # `Set.ncard (Set.univ : Set (Fin 5))` (false rejections 48)
    return next(
        (i for i, t in enumerate(value) if i not in skipped and not _listed(reading, i, t.offset in free, i < head)),
        None,
    )


def _combining(texts: Sequence[str], partner: dict[int, int]) -> frozenset[int]:
    """The ``∩``, ``∪`` and ``\\`` outside every bracket of a value whose type holds sets: they combine the
    answer's own sets (``{n | .. {m | ..}.encard = 15} ∩ {n | ..}``, red team 42), never a counted one (a
    count's argument stands in brackets, and a count is no set to combine)."""
    depth, found = 0, []
    for i, text in enumerate(texts):
        if partner.get(i, i) < i:
            depth -= 1
        elif partner.get(i, i) > i:
            depth += 1
        elif depth == 0 and text in ("∩", "∪", "\\"):
            found.append(i)
    return frozenset(found)


def _listed(reading: CountReading, i: int, free: bool, leading: bool) -> bool:
    """Whether the word at ``i`` is listed (module doc); ``free``: no binder of the value scopes it;
    ``leading``: the word stands in the answer's own leading ``fun`` binders."""
    value, texts, partner = reading.value, reading.texts, reading.partner
    token = value[i]
    if token.kind == NUMBER:
        return True
    if token.kind == SYMBOL:
        if texts[i] in ("→", "->", "×") and i > 0 and partner.get(i - 1, i) < i - 1:
            return top(texts, partner, partner[i - 1], (":",)) is None  # `(i : ℕ) → ..` is a `∀`
        return texts[i] in SYMBOLS
    if token.kind != IDENT:
        return False
    name = normalize_name(texts[i])  # as the `open`s in force make it mean (`_short_names`)
    if i > 0 and texts[i - 1] in (".", "|>."):
        return set(name_parts(name)) <= FIELDS
    if free:
        before, after = texts[max(i - 2, 0) : i], texts[i + 1 : i + 2]
        ascribed = bool(before) and before[-1] == ":" and after == [")"]  # `(e : ℝ)`, a cast of what `e` counts
        return (
            name in NAMES
            or name in TYPES
            or (name == "Set" and before == ["}", ":"])  # `({p | ..} : Set T)`, the published `2011_a1` answer
            or (name in ("ℝ", "Real") and (ascribed or leading))
            or (name == "Set" and _counted_type(reading, i))
        )
    return set(name_parts(name)[1:]) <= FIELDS  # a bound variable and its fields


def _ascribed_arguments(reading: CountReading) -> frozenset[int]:
    """The ``Set`` of a count's argument ascribed a set type (``Set.ncard (Finset.range 9 : Set ℕ)``,
    ``(Set.univ : Set (Fin 5)).ncard``), and a ``Set.univ`` that is the whole of what it ascribes: the
    ascription only types the counted set, and every point is in ``Set.univ``, so neither hides a quantifier
    (whether the set is finite is :mod:`_answer_count_domains`' to read; ``(Set.univ : Set ℕ)`` is not)."""
    texts, partner = reading.texts, reading.partner
    found: set[int] = set()
    for i in reading.counts:
        after, before = i + 1, i - 2
        if after < len(texts) and texts[after] == "(":
            opener = after
        elif before > 0 and texts[i - 1] == "." and partner.get(before, before) < before:
            opener = partner[before]
        else:
            continue
        colon = top(texts, partner, opener, (":",))
        if colon is None or texts[colon + 1 : colon + 2] != ["Set"]:
            continue
        found.add(colon + 1)
        if colon == opener + 2 and normalize_name(texts[opener + 1]) == "Set.univ":
            found.add(opener + 1)
    return frozenset(found)


def _counted_type(reading: CountReading, i: int) -> bool:
    """Whether the ``Set`` at ``i`` begins the type a count counts, a finite one (``Nat.card (Set (Fin 5))``:
    :func:`_answer_count_binders.finite_type`): its elements are sets, named by no property."""
    texts, partner = reading.texts, reading.partner
    opener = i - 1
    return (
        opener > 0
        and texts[opener] == "("
        and opener - 1 in reading.counts
        and partner.get(opener, opener) > i
        and finite_type(reading, i, partner[opener])
    )


def _at_a_numeral(value: Sequence[Token], partner: dict[int, int], i: int) -> bool:
    """Whether the count at ``i`` is an indicator applied to a set, a function and a numeral."""
    if not indicator(value[i].kind, value[i].text):
        return False
    j = i + 1
    for _ in range(2):
        if j in partner and partner[j] > j:
            j = partner[j] + 1
        elif j < len(value) and value[j].kind in (IDENT, NUMBER) and value[j].text not in ("fun", "λ"):
            j += 1
        else:
            return False
    after = value[j + 1].text if j + 1 < len(value) else ""
    return j < len(value) and value[j].kind == NUMBER and after != "."  # not `5.succ`


def _fun_in_fun(texts: Sequence[str], partner: dict[int, int], head: int) -> int | None:
    """The first ``fun`` after the value's own leading ones (from ``head``) whose extent (to the end of the
    group it stands in) holds another ``fun``, a ``{`` or a ``setOf``. Linear: the end of each token's
    group from one stack, the marks inside an extent by prefix sums."""
    n = len(texts)
    ends, stack, marks = [n] * n, [n], [0]
    for k, text in enumerate(texts):
        if partner.get(k, k) < k:
            stack.pop()
        ends[k] = stack[-1]
        if partner.get(k, k) > k:
            stack.append(partner[k])
        marks.append(marks[-1] + (text in ("fun", "λ", "{", "setOf")))
    return next(
        (k for k, text in enumerate(texts) if k >= head and text in ("fun", "λ") and marks[ends[k]] > marks[k + 1]),
        None,
    )
