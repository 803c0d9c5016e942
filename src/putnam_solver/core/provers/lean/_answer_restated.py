"""G2 on a no-answer value: the question's own condition held at another point (value red team 43).

The copy rule (``_answer_copy``) refuses a value that holds the statement's side, or the condition it binds,
with the condition's variable where the member stands (``{n | C n ∧ True}``), and since copy red team 30 a
variable bound outside a needle only where the value binds it alike (a quantifier's body through the same
quantifier). So the question's member condition ``C`` held at ANOTHER variable, or at a numeral, passed:

* a search restated with quantifiers alone: ``{n | ∀ m, C m ∧ (∀ i < m, ¬C i) → n = m}`` is the least ``m``
  with ``C`` (all of ``ℕ`` if there is none), with no ``Nat.find``, ``sInf`` or count for the name and count
  rules to read; against ``putnam_2024_a1``'s ``{n | C n} = solution`` a proof needs only a witness and the
  uniqueness, never the value, as for ``{n | n = Set.ncard {k | ∀ i ≤ k, ¬C i}}`` (red team 42). The same
  with ``∀ m, C m → m = n``, ``∃ m ≤ n, n ≤ m ∧ C m``, a ``let``, ``setOf``;
* a hedge at a point: ``{n | n = 1 ∧ C 1}`` is ``{1}`` if ``C 1`` holds and empty otherwise; the theorem
  then needs ``C n → n = 1`` and never ``C 1`` itself (the member's half of the answer is the question's
  own). ``{n : ℤ | {m : ℕ | |320 - m ^ 2| ≤ 250}.encard = 15 ∧ n = 320}`` (``putnam_1994_b1``, the
  question's count at ``320``) lets the proof skip counting the squares near each member
  (``_answer_count_hedges`` refuses its respellings, ``ncard`` for ``encard``, a bound added).

The rule: where the statement applies the solution to names and an ``=``/``↔`` (or ``IsLeast`` and kin:
:data:`ASKING`) holds the other side, the side's member condition (the condition of the side's set-builder,
or the side abstracted over the solution's one argument, ``_answer_shapes.rebound``) may not stand in the
value under ANY binder of the value (``∀``, ``∃``, a set-builder, a ``fun``), nor a top-level conjunct of it
that asks alone (``_answer_needles``: a name or binder and three tokens, or twelve) under a quantifier of the
value; and neither the condition nor such a conjunct may stand at any numeral the value writes (the condition
instantiated there, its arithmetic folded as the value's is). A conjunct is not looked for under the value's
own set-builder: an honest answer may share an easy conjunct of its question there (red team 23's ``{P |
P.eval 0 = 0} ∩ {P | ∀ x, P.eval x = x}``), so the official answer ∩ the question's hard conjunct is left.
No official answer holds its question's condition in any of these places (346 of 346 pass); an honest
closed form states the members, it does not ask about them.

Read in the copy rule's normal form and canonical tokens (``_answer_normal``, ``_answer_canonical``), bound
variables up to renaming (``_answer_contains``), coercion arrows left out on both sides. A point is tried
only where the value writes every name and binder of one of the condition's needles (a set of many
numerals without them is not searched point by point), and the search shares one work budget: spent, or a
value too deep to read, the value is refused.

Red team 44: a point is any closed term of the value's normal form (``_answer_points``: ``2 + 1``, ``-3``,
``Nat.succ 0``, ``(1 : ℤ) + 2``), not only a numeral it writes; and both sides are read with one spelling per
relation and for primality (``_answer_respelled``: ``p > 5`` as ``5 < p``, ``a ≠ b`` as ``¬ a = b``,
``Nat.Prime p`` as ``p.Prime``, an equation's sides in one order), which the reading as written (where a
condition under a premise is found: the normal form turns ``C m → n = m`` into a disjunction) did not share
with the normal form. Red team 45: the condition up to order algebra (``6 ≤ p``, ``¬ p ≤ 5`` for ``5 < p``,
``_answer_respelled``), and a point inside a binder's type (``Fin (1 + 1)``: the canonical form kept the
empty parentheses of the type it drops, ``_answer_canonical``). Red team 47: a third reading, as written
with each number relation's sides as polynomials (``_answer_algebra``: ``a ^ m * 2``, ``x - y = 0``, ``r + 1
≤ p``) and no parentheses around a trailing quantifier (``_answer_unparenthesized``), searched beside the
other two. Red team 49: common factors divided out where the types are written (``_answer_algebra``), and
an ascription inside a congruence's ascribed side read once (:func:`_uncast`). Left: a condition of
arithmetic alone at a point (``2 ^ 2 < 10 ^ 100 ∧ ..``, decided by evaluation, red team 43).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_algebra import cancelling
from putnam_solver.core.provers.lean._answer_binders import plain_name
from putnam_solver.core.provers.lean._answer_binding import QUANTIFIERS
from putnam_solver.core.provers.lean._answer_canonical import BINDERS, NUMBERED, canonical_kept
from putnam_solver.core.provers.lean._answer_contains import Haystack, haystacks
from putnam_solver.core.provers.lean._answer_cover import PADDED
from putnam_solver.core.provers.lean._answer_extremal import EXTREMAL_PREDICATES
from putnam_solver.core.provers.lean._answer_needles import asks_more, is_question, needles, partner
from putnam_solver.core.provers.lean._answer_nodes import ASCRIBED, unnumbered
from putnam_solver.core.provers.lean._answer_normal import definitions, normalized, normalized_texts, work_for
from putnam_solver.core.provers.lean._answer_order import TooDeep
from putnam_solver.core.provers.lean._answer_points import at_point, closed_points
from putnam_solver.core.provers.lean._answer_respelled import respelled
from putnam_solver.core.provers.lean._answer_scopes import renamed_free
from putnam_solver.core.provers.lean._answer_shapes import piped, rebound, spelled
from putnam_solver.core.provers.lean._answer_sides import applications, other_sides, widened
from putnam_solver.core.provers.lean._answer_terms import foreign_types, make_token
from putnam_solver.core.provers.lean._answer_types import declared, typed
from putnam_solver.core.provers.lean._idchars import starts_letter
from putnam_solver.core.provers.lean.syntax import Statement, Token, code_tokens, normalize_name

_POINT: Final = "point_of_the_question"
"""The condition's variable read at any point (only a filter: a value that writes this name is searched)."""
ASKING: Final = frozenset({"=", "↔"} | {f"{p} _ _" for p in EXTREMAL_PREDICATES})
"""The relations whose other side asks the question itself (``_answer_sides.other_sides`` labels): an
equation, an equivalence, ``IsLeast S solution`` and kin (``_answer_extremal``)."""
RESTATED_RULE: Final = (
    "the answer holds the question's own condition at another variable or at a point (`{n | ∀ m, C m ∧ (∀ i < "
    "m, ¬C i) → n = m}` is the least `m` with `C`, `{n | n = 1 ∧ C 1}` is `{1}` or empty): a proof then needs "
    "only part of the answer, never its value; state the members"
)


def restated_condition(value: Sequence[Token], expected: Statement, solution: str) -> bool:
    """Whether ``value`` holds its question's member condition (or a conjunct of it that asks alone) at a
    variable of any binder or at a numeral (module doc). Fails closed: a value too long or too deep for the
    normal form to read, or whose search spends its budget, is refused."""
    theorem = [t.text for t in code_tokens(expected.theorem.tokens[: expected.proof_assign])]
    conditions = [
        make_token(t, None) for _, condition in _conditions(theorem, normalize_name(solution)) for t in condition
    ]
    try:
        with (
            typed(declared(theorem)),
            cancelling(not foreign_types(code_tokens(value)) and not foreign_types(conditions)),
        ):
            return _restated(value, expected, solution, theorem)
    except TooDeep:
        return True


def _restated(value: Sequence[Token], expected: Statement, solution: str, theorem: list[str]) -> bool:
    unfold = definitions(expected.commands, {s.command.name or "" for s in expected.solutions})
    budget = work_for(value)
    written = normalized_texts(spelled(piped([t.text for t in normalized(code_tokens(value), unfold, budget)])))
    texts = respelled(_uncast(written), budget)
    conditions = _conditions(theorem, normalize_name(solution))
    if not texts or not conditions:
        return bool(budget[1])
    numerals = [(t,) for t in texts if t.isdigit()]  # as written, and every closed term of the normal form
    points = list(dict.fromkeys([*numerals, *closed_points(canonical_kept(texts)[1])]))
    stacks = [*((h.normal, h) for h in haystacks(texts)), *((_ALGEBRA, h) for h in _algebraic(texts, budget))]
    words = set().union(*(h.where for _, h in stacks))  # what the value holds, bound variables unnumbered

    def held(written: list[str], depth: int) -> bool:  # the condition (or a conjunct) stands in the value
        side = respelled(_uncast(normalized_texts(spelled(piped(written)), unfold, budget)), budget)  # folded
        for reading in (True, False, _ALGEBRA):
            kept = canonical_kept(side, normal=reading is True, algebra=budget if reading == _ALGEBRA else None)[1]
            for plain, needle_kept, conjunct in _needles(kept, depth):
                if conjunct and reading == _ALGEBRA:
                    continue  # a conjunct is looked for as the other two read it (``_ALGEBRA``)
                if not {unnumbered(t) for t in plain} <= words:
                    continue  # a token of it the value never writes: held nowhere (and no chain is parsed)
                for h in (h for read, h in stacks if read == reading):
                    outer = [{"#0": s} for s in set(h.sites.values()) if s[0] in QUANTIFIERS] if depth else [{}]
                    if any(h.contains(plain, needle_kept, budget, PADDED, free or None) for free in outer):
                        return True
                    if not conjunct and depth and h.contains(plain, needle_kept, budget, PADDED):
                        return True
        return bool(budget[1])

    for variable, condition in conditions:
        if held(["{", variable, "|", *condition, "}"], 1):  # under a binder of the value
            return True
        if not any(named <= words for named in _named(condition, variable, unfold, budget)):
            continue  # at a point: only where the words of one of its needles all stand
        free = renamed_free(condition, {variable: _POINT}, BINDERS | NUMBERED, plain_name)
        if any(held(at_point(free, _POINT, p), 0) for p in points):
            return True
    return bool(budget[1])


_ALGEBRA: Final = "algebra"
"""The third reading: as written, with each number relation's sides as polynomials (``_answer_algebra``) and
no parentheses around a trailing quantifier (``_answer_unparenthesized``). Only the whole condition is
looked for in it: with its parentheses gone, a question's last conjunct ``(∀ n > 0, ..)`` would become a
needle it never was, and refuse the honest ``{p | (∀ n > 0, ..) ∧ p ∈ Set.Icc 0 (1 / 4)}`` of
``putnam_2022_b5`` (red team 44 left the answer beside the question's hard conjunct to the check by
meaning)."""


def _algebraic(texts: list[str], budget: list[int]) -> list[Haystack]:
    """The value read as written with its relations' sides as polynomials (``_answer_algebra``: the question
    respelled by algebra under a premise, where only the reading as written finds it), and again with
    binders' types kept, as ``_answer_contains.haystacks`` reads the other two."""
    plain = Haystack(texts, canonical_kept(texts, normal=False, algebra=budget))
    typed = canonical_kept(texts, types=True, normal=False, algebra=budget)
    return [plain] if typed[0] == plain.plain else [plain, Haystack(texts, typed)]


def _named(condition: list[str], variable: str, unfold: dict[str, list[Token]], budget: list[int]) -> list[set[str]]:
    """For each needle the condition makes at a point (its variable read as a fresh name), the names and
    binders it holds in canonical form. A value that lacks one of a needle's holds it at no numeral, so a
    value that holds no needle's all is not searched point by point.
    A needle of arithmetic alone asks nothing at a point (its numerals fold, ``_answer_needles.is_question``)
    and is left out."""
    written = renamed_free(condition, {variable: _POINT}, BINDERS | NUMBERED, plain_name)
    side = respelled(_uncast(normalized_texts(spelled(piped(written)), unfold, budget)), budget)
    kept = canonical_kept(side, normal=True)[1]
    named = [
        {t for t in plain if t != _POINT and (starts_letter(t) or t in BINDERS)} for plain, _, _ in _needles(kept, 0)
    ]
    return [n for n in named if n]


def _uncast(texts: list[str]) -> list[str]:
    """``texts`` without coercion arrows: the statement writes ``n - m ^ 2`` where the value may write ``n -
    ↑(m ^ 2)``, one term once elaborated (a cast's target is the type's, which the text does not show at a
    point). Read on both sides alike, this only widens what is found. The parentheses an arrow or an
    ascription leaves around one name within an ascription go with it (value red team 48: ``[ZMOD ↑j]`` is
    read ``↑(ascribed) (↑j)``, ``[ZMOD (j : ℤ)]`` ``↑(ascribed) (↑(ascribed) j)``, ``putnam_2023_b5``'s ``[ZMOD
    n]`` ``↑(ascribed) n``)."""
    out: list[str] = []
    opened: list[tuple[int, bool]] = []  # where each group open in `out` begins, and whether in an ascription
    for i, text in enumerate(texts):
        if text == "↑":
            continue
        out.append(text)
        if text in ("(", "[", "{", "⟨"):
            opened.append((len(out) - 1, (bool(opened) and opened[-1][1]) or out[-2:-1] == [ASCRIBED]))
        elif text in (")", "]", "}", "⟩") and opened:
            start = opened.pop()[0]
            if text == ")" and texts[i - 3 : i - 1] == ["(", "↑"] and _name(texts[i - 1]):
                out[-3:] = out[-2:-1]  # `(↑j)`: `j`
            elif text == ")" and out[-5:-3] == [ASCRIBED, "("] and out[-3] == ASCRIBED and _name(out[-2]):
                out[-4:] = out[-2:-1]  # `↑(ascribed) (↑(ascribed) j)`: `↑(ascribed) j`
            elif (
                out[start : start + 3] == ["(", ASCRIBED, "("]
                and opened
                and opened[-1][1]
                and _primary(out[start + 3 : -2])
            ):
                out[start:] = out[start + 3 : -2]  # `((↑k.1 : ℤ) + 1)` in `[ZMOD n]`'s ascription: `(k.1 + 1)`
    return out


def _primary(texts: list[str]) -> bool:
    """Whether ``texts`` is one name, numeral or bracketed group, with projections after it (``k . 1``,
    ``( p k ) . 1``): what may stand anywhere without parentheses of its own."""
    if not texts:
        return False
    end = (partner(texts, 0) or 0) + 1 if texts[0] in ("(", "[", "{", "⟨") else 1 if _name(texts[0]) else 0
    rest = texts[end:] if end else ["?"]
    return len(rest) % 2 == 0 and all(t == "." for t in rest[::2]) and all(_name(t) for t in rest[1::2])


def _name(text: str) -> bool:
    return starts_letter(text) or text.isdigit()


def _needles(kept: list[str], depth: int) -> list[tuple[list[str], list[str], bool]]:
    """The condition (``depth`` 1: the body of ``{x | C}``; 0: the closed condition itself) and its top-level
    conjuncts that ask alone, in canonical form, each plain, with parentheses and whether it is a conjunct."""
    found = [(n[0], n[1], False) for n in needles(kept, [], depth=depth) if depth == 0 or n[1] != kept]
    whole = [n[1] for n in found] or ([kept] if depth == 0 else [])
    for part in whole:
        for conjunct in _conjuncts(part):
            plain = [t for t in conjunct if t not in ("(", ")")]
            if is_question(conjunct, []) and asks_more(conjunct, [], frozenset()):
                found.append((plain, conjunct, True))
    return found


def _conjuncts(kept: list[str]) -> list[list[str]]:
    """The operands of ``kept``'s top-level ``∧`` chain (none if it is no chain)."""
    out, depth, start = [], 0, 0
    for i, text in enumerate(kept):
        if text in ("(", "[", "{", "⟨"):
            depth += 1
        elif text in (")", "]", "}", "⟩"):
            depth -= 1
        elif depth == 0 and text == "∧":
            out.append(kept[start:i])
            start = i + 1
    return [*out, kept[start:]] if out else []


def _conditions(theorem: list[str], name: str) -> list[tuple[str, list[str]]]:
    """Each member condition the statement asks of its solution: ``(variable, condition)`` of the other side
    abstracted over one argument (``x ∈ solution ↔ C x``), or of a side that is itself a set-builder (``{n |
    C n} = solution``, ``IsLeast {n | C n} solution``)."""
    found: list[tuple[str, list[str]]] = []
    for arity in (0, 1):
        for start, end, args in widened(theorem, applications(theorem, name, arity)):
            for relation, other in other_sides(theorem, start, end):
                if relation not in ASKING:
                    continue  # a premise restricting the domain, or an extremum stated by hand: left
                if any(t.startswith("/--") or t in ("theorem", "lemma", ":=") for t in other):
                    continue  # a reading of the side that runs into the statement's header
                for side in rebound(other, args)[:1] if args else [other]:
                    if (split := _builder(side)) is not None and split not in found:
                        found.append(split)
    return found


def _builder(side: list[str]) -> tuple[str, list[str]] | None:
    """``(x, C)`` of a side ``{x | C}`` or ``{x : T | C}``, else None."""
    if len(side) < 5 or side[0] != "{" or partner(side, 0) != len(side) - 1 or not plain_name(side[1]):
        return None
    bar = 2 if side[2] == "|" else next((k for k in range(3, len(side) - 1) if side[k] == "|"), None)
    if bar is None or (bar > 2 and side[2] != ":"):
        return None
    return side[1], side[bar + 1 : -1]
