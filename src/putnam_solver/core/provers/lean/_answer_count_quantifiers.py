"""A bounded quantifier beside a count (false rejections 46): ``{m : ℕ | m < 10 ∧ ∃ j < 3, m = 2 * j}``.

The quantifier rule (:mod:`_answer_counts`) and the word rule (:mod:`_answer_count_words`) refuse a count
beside any ``∃``/``∀``: a quantifier over an unbounded domain is a search by choice (``Set.ncard {_u : Unit
| ∃ k, P k}`` decides ``∃ k, P k``). A quantifier over finitely many values is not: ``∃ j < c, p`` over
``ℕ`` is ``∃ j, j < c ∧ p``, decided by evaluation (core's ``Nat.decidableExistsLT``/``decidableBallLT``
instances), as the bounded count it stands in is. So the ``∃``/``∀`` at ``i`` is read harmless where it
binds one name and is one of:

* ``Q j < c,`` or ``Q j ≤ c,`` with ``c`` numerals, ``+``/``*``/``^``, brackets and the answer's own leading
  parameters only, none rebound inside it (never the counted variable or another bound name: ``∀ i ≤ k, ¬P i``
  with ``k`` counted is the search "the ``k`` below the least ``n`` with ``P``"), and ``j``'s type ``ℕ``:
  ``j`` is untyped, so its type is what the body makes it; the value must then write no other number type (no
  ``ℤ``, ``ℚ``, ``ℝ``, ``ℂ``, no ``Int.``/``Real.``/``Cardinal.`` name, no ``↑``, and the answer's declared
  domains none of them), so it elaborates to ``ℕ`` (numerals default to it), where ``j < c`` bounds both sides
  (``∃ j < 3`` over ``ℤ`` is unbounded below);
* since the same round ``Q j ∈ Finset.range c,`` (``Icc``/``Ico``/``Ioc``/``Ioo`` of such terms), alike;
* ``Q j : T,`` with ``T`` a finite type (:func:`_answer_count_binders.finite_type`: ``Fin 3``, ``Bool``).

Since false rejections 47 the ``ℕ`` of an untyped ``j`` is also read from the quantifier's own scope where
the value writes another number type elsewhere (:func:`_natural_scope`: a quantifier is a proposition, so
nothing outside its bound and body types ``j``), and a one-point ``∃ k, k = t ∧ B`` (``∀ k, k = t → B``) is
harmless under no ``fun`` but the answer's leading ones (:func:`_one_point`: it is ``B`` at ``t``). Since
false rejections 49 also inside a counted set (``Set.ncard {m : ℕ | m < 9 ∧ ∃ k, k = m + 1 ∧ k ∣ 12}``):
round 47 feared a member pinned through it (``{m | ∃ k, k = n ∧ m = k ∧ Q}``, red team 45's hedge), but
:mod:`_answer_count_padding` reads the copy rule's normal form, which substitutes a one-point quantifier
(``_answer_normal``), so it sees ``m = n`` as written plainly and refuses the hedge alike; the domain rule
reads such a conjunct as bounding nothing (:func:`_answer_count_domains._conjuncts`).

Since round 50 such a one-point quantifier at a counted set's top level whose point is a name of the counted
variable (``{m : ℕ | ∃ k, k = m ∧ k < 3987}``, :func:`point_body`) bounds that name as its body bounds ``k``
(it is ``B`` at ``m``); ``k`` untyped, so ``k = m`` gives it ``m``'s type (a ``k : Fin 5`` would cast ``m``
into a wrapping order), and a body with a binder of its own (which might rebind a name) bounds nothing.

Anything else (``∃ j,``, ``∃ j > 3,``, several names, a pattern, ``∃ j ∈ s`` of another ``s``) stays a search: refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_count_binders import finite_type
from putnam_solver.core.provers.lean._answer_count_reading import CountReading, under_inner_fun
from putnam_solver.core.provers.lean._number_decisions import Binding, binding_at, bindings
from putnam_solver.core.provers.lean.syntax import IDENT, NUMBER, name_parts, normalize_name

_QUANTIFIERS: Final = frozenset({"∃", "∀"})
_RANGES: Final = frozenset({"Finset.range", "Finset.Icc", "Finset.Ico", "Finset.Ioc", "Finset.Ioo"})
"""``Finset``s of numbers ``∃ j ∈ s,`` may range over, their endpoints read as ``c`` is."""
_ARITHMETIC: Final = frozenset({"+", "*", "^", "(", ")"})
_OTHER_NUMBERS: Final = frozenset(
    {"ℤ", "ℚ", "ℝ", "ℂ", "Int", "Rat", "Real", "Complex", "ZMod", "↑", "Cardinal", "ENat", "PartENat"}
)
"""Words that may give an untyped bound variable a type other than ``ℕ`` (``ℤ``: unbounded below; a
``Cardinal``'s order decides nothing by computation)."""
_NATURALS: Final = frozenset({"ℕ", "Nat"})
_LOOSER_THAN_AND: Final = frozenset({"∨", "→", "->", "↔"})


def bounded_quantifiers(reading: CountReading) -> frozenset[int]:
    """The indices of the ``∃``/``∀`` of the value read that range over finitely many values (module doc)."""
    texts = reading.texts
    if not _QUANTIFIERS.intersection(texts):
        return frozenset()
    naturals = _only_naturals(reading)
    found = bindings(reading.value, reading.partner, reading.domains[:-1])
    inner = {b.name for b in found if b.start >= reading.head}  # `fun n => {n : ℕ | ..}`: a shadowed name
    parameters = frozenset(b.name for b in found if b.start < reading.head and b.name not in inner)
    under = under_inner_fun(texts, reading.partner, reading.head)
    return frozenset(
        i
        for i, text in enumerate(texts)
        if text in _QUANTIFIERS
        and (
            _bounded(reading, i, naturals or _natural_scope(reading, found, i), parameters)
            or (not under[i] and _one_point(reading, i))
        )
    )


def _one_point(reading: CountReading, i: int) -> bool:
    """Whether the quantifier at ``i`` ranges over one value: ``∃ k, k = t ∧ B`` (``t = k`` too, ``∃ k : T,``),
    or ``∀ k, k = t → B``, with ``t`` free of ``k`` (false rejections 47: ``{n | ∃ k, k = n ∧ {m | m < k}.ncard
    = 2}``). It is ``B`` at ``t``, no search."""
    texts, partner = reading.texts, reading.partner
    name = i + 1
    if name >= len(texts) or reading.value[name].kind != IDENT or len(name_parts(normalize_name(texts[name]))) != 1:
        return False
    comma = _comma(reading, name + 1)
    if comma is None or (comma != name + 1 and texts[name + 1] != ":"):
        return False
    joint = "∧" if texts[i] == "∃" else "→"
    looser = _LOOSER_THAN_AND if joint == "∧" else ("↔",)  # the body's top level: `k = t ∧ B ∨ C` pins no `C`
    k, relation, end = comma + 1, None, None
    while k < len(texts) and partner.get(k, k) >= k and texts[k] not in (",", "|"):
        relation = k if texts[k] == "=" and relation is None else relation
        if end is None and texts[k] in ("∧", "→", "->"):
            end = k if texts[k] == joint else -1
        if texts[k] in looser:
            return False
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    if relation is None or end is None or end < relation:
        return False
    sides = [texts[comma + 1 : relation], texts[relation + 1 : end]]
    return any(side == [texts[name]] and texts[name] not in other for side, other in (sides, sides[::-1]))


_BINDING: Final = frozenset({"∃", "∀", "∃!", "fun", "λ", "|", "∑", "∏", "⋃", "⋂", "let", "have", "match"})
"""Tokens that bind a name: a one-point body holding one is not read (:func:`point_body`)."""


def point_body(
    reading: CountReading, span: tuple[int, int], harmless: frozenset[int], names: dict[str, str]
) -> tuple[dict[str, str], tuple[int, int]] | None:
    """Where ``value[span]`` is a one-point quantifier of ``harmless`` (:func:`_one_point`), ``∃ k, k = x ∧ B``
    or ``∀ k, k = x → B`` (``x = k`` too) with ``k`` untyped and ``x`` a name of ``names`` (each counted name
    and its coordinate), and ``B`` binds nothing: ``names`` with ``k`` naming ``x``'s coordinate, and ``B``'s
    span (module doc); None otherwise."""
    texts = reading.texts
    start, end = span
    if start not in harmless or end - start < 8 or texts[start + 2] != "," or texts[start + 4] != "=":
        return None
    bound, joint = texts[start + 1], "∧" if texts[start] == "∃" else "→"
    sides = (texts[start + 3], texts[start + 5])
    point = sides[1] if sides[0] == bound else sides[0] if sides[1] == bound else None
    if point is None or point == bound or point not in names or texts[start + 6] != joint:
        return None
    if reading.value[start + 3].kind != IDENT or reading.value[start + 5].kind != IDENT:
        return None
    if _BINDING.intersection(texts[start + 7 : end]):
        return None
    return {**names, bound: names[point]}, (start + 7, end)


def _natural_scope(reading: CountReading, found: Sequence[Binding], i: int) -> bool:
    """Whether the quantifier at ``i`` elaborates its variable as a ``ℕ`` by what its own scope holds, where
    the value writes another number type elsewhere (false rejections 47: ``(Set.ncard {m : ℕ | m < 3 ∧ ∃ j <
    2, m = j} : ℤ)``): the ``∃``/``∀`` is a proposition, so only its bound and body can type its variable,
    and there every name is a variable a binder types ``ℕ`` (the quantifier's own aside), with no number word
    of :data:`_OTHER_NUMBERS`, no ascription and no function applied."""
    own = next((b for b in found if b.start == i), None)
    if own is None:
        return False
    for k in range(i + 1, own.end):
        token, text = reading.value[k], reading.texts[k]
        if text in _OTHER_NUMBERS or text == ":":
            return False
        binding = binding_at(found, text, k)
        if token.kind == IDENT and not (binding is own or (binding is not None and binding.type in _NATURALS)):
            return False
    return True


def _only_naturals(reading: CountReading) -> bool:
    """Whether the value and the answer's declared domains write no number type but ``ℕ`` (module doc)."""
    words = {part for text in reading.texts for part in name_parts(normalize_name(text))} | set(reading.texts)
    return not _OTHER_NUMBERS.intersection(words) and not _OTHER_NUMBERS.intersection(
        d for d in reading.domains if d is not None
    )


def _bounded(reading: CountReading, i: int, naturals: bool, parameters: frozenset[str]) -> bool:
    """Whether the quantifier at ``i`` is one of the bounded forms of the module doc; ``naturals``: the
    value writes no number type but ``ℕ``; ``parameters``: the names its leading ``fun``s bind."""
    value, texts, partner = reading.value, reading.texts, reading.partner
    name = i + 1
    if name + 2 >= len(texts) or value[name].kind != IDENT or len(name_parts(normalize_name(texts[name]))) != 1:
        return False
    comma = _comma(reading, name + 1)
    if comma is None or comma <= name + 2:
        return False
    start = name + 2
    if texts[name + 1] == ":":
        return finite_type(reading, start, comma)
    if texts[name + 1] == "∈" and normalize_name(texts[start]) in _RANGES:
        start += 1  # `∃ j ∈ Finset.range c,`: the same bound
    elif texts[name + 1] not in ("<", "≤"):
        return False
    return (
        naturals
        and all(
            value[k].kind == NUMBER or texts[k] in _ARITHMETIC or (value[k].kind == IDENT and texts[k] in parameters)
            for k in range(start, comma)
        )
        and all(partner.get(k, k) < comma for k in range(start, comma))
    )


def _comma(reading: CountReading, at: int) -> int | None:
    """The first ``,`` at the level of ``at`` after it, None where a group closes first."""
    texts, partner = reading.texts, reading.partner
    k = at
    while k < len(texts):
        if texts[k] == ",":
            return k
        if partner.get(k, k) < k:
            return None
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    return None
