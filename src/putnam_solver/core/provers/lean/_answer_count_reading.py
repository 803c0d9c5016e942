"""One reading of a no-answer value for the count rules (red teams 39-42): its token texts, bracket partners,
set-builders, the end of its own leading ``fun``s and the counts in it that pick a value, made once and
read by :mod:`_answer_counts` (a search beside a count), :mod:`_answer_count_words` (an undecided word
beside a count) and :mod:`_answer_count_domains` (a count of a domain the text does not bound).

A count picks a value except in a proposition (the solution's codomain ``Prop``: it states, it picks
nothing; the published ``putnam_1973_a2`` answer restates its question with ``pluses = {i | ..}.ncard``)
and inside a set-builder of a ``Set`` answer (a count there characterises the members: ``{n : ℤ | 0 < n
∧ {m : ℕ | |n - ↑(m ^ 2)| ≤ 250}.encard = 15}``, red team 27's honest spellings of ``putnam_1994_b1``);
one outside (``{Set.ncard {k | ..}}``) picks a value.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import accumulate
from typing import Final, NamedTuple

from putnam_solver.core.provers.lean._answer_decisions import leading_lambdas
from putnam_solver.core.provers.lean._brackets import bracket_partners
from putnam_solver.core.provers.lean._number_decisions import solution_domains
from putnam_solver.core.provers.lean.syntax import IDENT, Statement, Token, name_parts, normalize_name

COUNTS: Final = frozenset(
    {"ncard", "encard", "indicator", "mulIndicator", "indicatorSome", "toFinset", "ofFinite", "card"}
)
"""A name's last part that counts a set or decides membership classically (``card`` alone or after
``Nat``/``ENat``/``PartENat``/``Fintype``/``Finite``: :data:`CARD_OWNERS`)."""
CARD_OWNERS: Final = frozenset({"Nat", "ENat", "PartENat", "Fintype", "Finite", "Cardinal"})
OTHER_COUNTS: Final = frozenset({("Cardinal", "mk"), ("Measure", "count"), ("Finite", "fintype")})
"""``Cardinal.mk`` (a set's cardinal), the counting measure, a ``Fintype`` of a finite set by choice. The
symbol ``#`` (``Cardinal.mk`` under ``open Cardinal``, ``Finset.card`` under ``open Finset``) counts too;
``Cardinal.toNat`` does not (``Cardinal.toNat (Cardinal.mk (Fin 3))`` is one count, red team 14's honest
twin)."""


class CountReading(NamedTuple):
    """What the count rules read of one value (module doc)."""

    value: Sequence[Token]
    texts: list[str]
    partner: dict[int, int]
    builders: dict[int, int]
    """The ``{`` of each set-builder or subtype, and its first ``|`` or ``//`` at its own top level."""
    head: int
    """Where the body after the value's own leading ``fun``s begins (:func:`leading_lambdas`)."""
    domains: list[str | None]
    """The solution's declared domains then codomain, one word each (:func:`solution_domains`)."""
    counts: list[int]
    """The indices of the counts that pick a value (module doc)."""
    opened: frozenset[str]
    """The namespaces in force at the value (opened, exported or entered: ``_answer_value.header_namespaces``)."""


def read_counts(value: Sequence[Token], expected: Statement, solution: str, opened: Sequence[str] = ()) -> CountReading:
    """The reading of ``value``, the value of the solution named ``solution`` of ``expected``, with the
    namespaces ``opened`` in force there."""
    texts = [t.text for t in value]
    partner = bracket_partners(texts)
    builders = {i: bar for i, text in enumerate(texts) if text == "{" and (bar := top(texts, partner, i)) is not None}
    pinned = next((s.command for s in expected.solutions if s.command.name == solution), None)
    domains: list[str | None] = solution_domains(pinned) if pinned is not None else ["Prop"]
    head = leading_lambdas(value, partner)[1]
    counts: list[int] = []
    if domains[-1:] != ["Prop"]:
        inside = _inside(len(value), builders, partner) if domains[-1:] == ["Set"] else [0] * len(value)
        counts = [i for i, t in enumerate(value) if not inside[i] and counts_here(t, texts[i - 1] if i else "")]
    return CountReading(value, texts, partner, builders, head, domains, counts, frozenset(opened))


def counts_here(token: Token, before: str) -> bool:
    """Whether ``token`` names a count (:func:`count_part`), or is the symbol ``#``."""
    if token.kind != IDENT:
        return token.text == "#"
    return count_part(name_parts(normalize_name(token.text)), before) is not None


def count_part(parts: Sequence[str], before: str) -> int | None:
    """The index of the first part of a name (its ``parts``, after ``before``) that counts, or None. A field
    chain counts wherever the count stands in it (``{..}.encard.toNat``, ``{..}.ncard.succ``: one token,
    red team 42; only its last part was read before). A bare ``card`` as a field (``s.card``, ``(..).card``)
    is ``Finset.card`` of a ``Finset`` the value builds, which a count or a decision here already shows."""
    for j, part in enumerate(parts):
        owner = parts[j - 1] if j else ""
        if (owner, part) in OTHER_COUNTS:
            return j
        if part == "card":
            if (j == 0 and before not in (".", "|>.")) or owner in CARD_OWNERS:
                return j
        elif part in COUNTS:
            return j
    return None


def _inside(n: int, builders: Collection[int], partner: dict[int, int]) -> list[int]:
    """For each token, how many set-builders enclose it."""
    steps = [0] * (n + 1)
    for i in builders:
        steps[i + 1] += 1
        steps[partner[i]] -= 1
    return list(accumulate(steps[:n]))


def top(texts: Sequence[str], partner: dict[int, int], opener: int, symbols: Sequence[str] = ("|", "//")) -> int | None:
    """The first of ``symbols`` (``//`` is two ``/``) at the own top level of the group opened at
    ``opener``, or None."""
    end = partner.get(opener, opener)
    k = opener + 1
    while k < end:
        if texts[k] in symbols or ("//" in symbols and texts[k : k + 2] == ["/", "/"]):
            return k
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    return None
