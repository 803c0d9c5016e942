"""One reading of a no-answer value for the count rules (red teams 39-42): its token texts, bracket partners,
set-builders, the end of its own leading ``fun``s and the counts in it that pick a value, made once and
read by :mod:`_answer_counts` (a search beside a count), :mod:`_answer_count_words` (an undecided word
beside a count) and :mod:`_answer_count_domains` (a count of a domain the text does not bound).

A count picks a value except in a proposition (the solution's type ``Prop`` with no parameter: it states, it
picks nothing; the published ``putnam_1973_a2`` answer restates its question with ``pluses = {i | ..}.ncard``).
Until red team 42 a count inside a ``Set`` answer's set-builder and any count of a predicate passed as
"characterising the members", and ``{n | n = Set.ncard {k | ∀ i ≤ k, ¬P i}}`` (the singleton of the least
``n`` with ``P``, whose proof needs only that ``P`` holds once and at most once, never the value) passed with
them; such a body is now read as a value under the answer's parameters (:func:`_answer_builders`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Sequence
from typing import Final, NamedTuple

from putnam_solver.core.provers.lean._answer_decisions import leading_lambdas
from putnam_solver.core.provers.lean._answer_spelling import ONE
from putnam_solver.core.provers.lean._brackets import bracket_partners
from putnam_solver.core.provers.lean._number_decisions import solution_domains
from putnam_solver.core.provers.lean._short_names import resolved
from putnam_solver.core.provers.lean.syntax import (
    IDENT,
    NUMBER,
    SYMBOL,
    Statement,
    Token,
    free_occurrences,
    name_parts,
    normalize_name,
)

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
INDICATORS: Final = frozenset({"indicator", "mulIndicator", "indicatorSome"})
"""The names of ``Set``'s indicators, bare or under ``Set`` (:func:`indicator`): one decides one membership
and counts nothing (red team 40's rule reads it at a numeral point); the word, hedge and domain rules pass
over it alike (three copies until false rejections 44, the domain and hedge rules' for any owner)."""


_COMPARISONS: Final = frozenset({"=", "≠", "<", "≤", ">", "≥"})
_EDGES: Final = frozenset({"∧", "∨", "¬", "→", "->", "↔", "(", ")", "|", "}", ","})
"""Tokens that end a comparison on either side (:meth:`CountReading.characterises`)."""


class CountReading(NamedTuple):
    """What the count rules read of one value (module doc)."""

    value: Sequence[Token]
    texts: list[str]
    """Each token's text; a bare library name as the ``open``s in force make it mean
    (:func:`_short_names.resolved`: ``card`` under ``open Finset`` is ``Finset.card``)."""
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
    own: frozenset[int]
    """The ``{`` of the answer's own set-builders (:func:`_answer_builders`): they bind its parameters."""
    holds_sets: bool
    """Whether the solution's codomain holds sets (``Set T``, ``ℕ → Set T``, ``Set A × Set B``)."""

    def characterises(self, i: int, counted: tuple[int, int]) -> bool:
        """Whether the count at ``i`` (of ``value[counted]``) stands inside one of the answer's own
        set-builders and is compared, whole, with a numeral there (``{n : ℤ | 0 < n ∧ {m : ℕ | |n - ↑(m ^ 2)| ≤
        250}.encard = 15}``, red team 27's honest spelling of ``putnam_1994_b1``): a property of each member,
        which picks no value (a set that does not depend on the member makes the answer all or nothing), so
        the domain rule does not read its domain (:mod:`_answer_count_hedges` refuses one that names no
        member). Anything more on the other side (``= n``, ``= 15 + n``) passes the count's value on."""
        texts, value = self.texts, self.value
        start, end = (counted[0], i + 1) if i and texts[i - 1] == "." else (i, counted[1])
        if not any(o < start and end <= self.partner[o] for o in self.own):
            return False

        def edge(k: int) -> bool:
            return not 0 <= k < len(texts) or texts[k] in _EDGES

        def numeral(k: int) -> bool:
            return 0 <= k < len(texts) and value[k].kind == NUMBER

        after = edge(end + 2) and numeral(end + 1) and end < len(texts) and texts[end] in _COMPARISONS
        before = edge(start - 3) and numeral(start - 2) and texts[start - 1] in _COMPARISONS
        return (after and edge(start - 1)) or (before and edge(end))


_ASCII: Final = frozenset({"<=", ">=", "->"})


def read_counts(value: Sequence[Token], expected: Statement, solution: str, opened: Sequence[str] = ()) -> CountReading:
    """The reading of ``value``, the value of the solution named ``solution`` of ``expected``, with the
    namespaces ``opened`` in force there. Round 50: an ASCII comparison or arrow is read as its symbol
    (``n <= 3986`` is ``n ≤ 3986``: core gives both spellings the same term, ``_answer_spelling.ONE``)."""
    texts = [ONE[t.text] if t.text in _ASCII else t.text for t in value]
    if opened:
        index = {t.offset: i for i, t in enumerate(value)}
        for token in free_in_brackets(value):  # a name the value binds means that binding
            at = index[token.offset]
            field = at > 0 and texts[at - 1] in (".", "|>.")  # `s.card`: a field, no open resolves it
            if not field and (full := resolved(token.text, opened)) is not None:
                texts[at] = full
    partner = bracket_partners(texts)
    builders = {i: bar for i, text in enumerate(texts) if text == "{" and (bar := top(texts, partner, i)) is not None}
    pinned = next((s.command for s in expected.solutions if s.command.name == solution), None)
    domains: list[str | None] = solution_domains(pinned) if pinned is not None else ["Prop"]
    head = leading_lambdas(value, partner)[1]
    codomain, parameters = domains[-1], len(domains) > 1
    counts: list[int] = []
    if codomain != "Prop" or parameters:
        counts = [i for i, t in enumerate(value) if counts_here(t.kind, texts[i], texts[i - 1] if i else "")]
    own = (
        _answer_builders(builders, partner, counts)
        if codomain == "Set" or (codomain == "Prop" and parameters)
        else frozenset()
    )
    return CountReading(
        value, texts, partner, builders, head, domains, counts, frozenset(opened), own, codomain == "Set"
    )


def _answer_builders(builders: Collection[int], partner: dict[int, int], counts: Sequence[int]) -> frozenset[int]:
    """Where the set-builders that are the answer's own open (the ``{`` of each): in a value whose type holds
    sets or a predicate's (``T → Prop``), each outermost set-builder (no other encloses it) that holds a
    count. Its names are the answer's parameters (``{n | B n}`` is ``fun n => B n``), as a leading ``fun``'s
    are: :func:`_answer_counts.counted_search` does not read it as a set nested around the counted one. A
    set-builder that holds no count is no such place, so the counted set of ``{Set.ncard {k | ..}}`` (a set
    literal, no set-builder) stays a set inside which nothing may nest."""
    own: list[int] = []
    end = -1  # where the last outermost set-builder closes
    for i in sorted(builders):  # in order: an enclosing set-builder comes before what it holds
        if i > end:
            end = partner[i]
            after = bisect_right(counts, i)  # the first count after the `{` (counts are in order)
            if after < len(counts) and counts[after] < end:
                own.append(i)
    return frozenset(own)


def counts_here(kind: str, text: str, before: str) -> bool:
    """Whether a token (its ``kind`` and ``text``) names a count (:func:`count_part`), or is the symbol ``#``."""
    if kind != IDENT:
        return text == "#"
    return count_part(name_parts(normalize_name(text)), before) is not None


def indicator(kind: str, text: str) -> bool:
    """Whether a token (its ``kind`` and ``text``) names an indicator (:data:`INDICATORS`)."""
    parts = name_parts(normalize_name(text)) if kind == IDENT else []
    return parts[-1:] != [] and parts[-1] in INDICATORS and parts[:-1] in ([], ["Set"])


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


_BRACKETS: Final = (Token(SYMBOL, "(", -1, -1, 0, 0, True), Token(SYMBOL, ")", -2, -2, 0, 0, True))


def free_in_brackets(tokens: Sequence[Token]) -> list[Token]:
    """The free identifiers of ``tokens`` read as one bracketed term, so that no top-level binder group
    (a theorem parameter's reading) binds."""
    return free_occurrences([_BRACKETS[0], *tokens, _BRACKETS[1]])


def under_inner_fun(texts: Sequence[str], partner: dict[int, int], head: int) -> list[bool]:
    """For each token, whether a ``fun`` other than the value's own leading ones (the answer's parameters,
    before ``head``: :func:`_answer_decisions.leading_lambdas`) encloses it: a ``fun`` reaches to the end of
    the group it stands in. One pass, a stack of the groups that hold an open ``fun``."""
    depth = 0
    fun_depths: list[int] = []
    under = []
    for i, text in enumerate(texts):
        if partner.get(i, i) < i:
            depth -= 1
            while fun_depths and fun_depths[-1] > depth:
                fun_depths.pop()
        under.append(bool(fun_depths))
        if partner.get(i, -1) > i:
            depth += 1
        elif text in ("fun", "λ") and i >= head:
            fun_depths.append(depth)
    return under
