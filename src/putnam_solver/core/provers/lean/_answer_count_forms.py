"""Every form of a count the hedge rule reads, in one place (value red team 47).

The hedge rule (``_answer_count_hedges``) refuses a count compared into a closed proposition: ``{n : ℤ |
{m : ℕ | |320 - ↑(m ^ 2)| ≤ 250}.ncard = 15 ∧ n = 320}`` is ``{320}`` or empty, a hedge on one proposition the
proof never decides. It read only the counts ``_answer_count_reading`` lists for the other count rules
(``Set.ncard``, ``encard``, ``Nat.card``, ``Fintype.card``, ``#``...), which leave a ``Finset``'s ``card`` to
the decision rules: a decidable count needs no ``Classical``. So the same hedge passed with the count
spelled as a ``Finset``, ``List`` or ``Multiset`` one: ``((Finset.range 30).filter (fun m => |320 - ↑(m ^ 2)|
≤ 250)).card = 15``, ``Finset.card {m ∈ Finset.range 30 | ..}``, ``(List.range 30).countP ..``, ``List.length
(..filter ..)``, ``Multiset.card``, ``Nat.count p 30`` (red team 43's hedge, the count decidable).
Decidable or not, a closed count compared with a numeral is one proposition, true or false, that the value
should state as its truth value instead.

So a count here is any name whose last part counts (:data:`COUNTING`: ``card``, ``ncard``, ``encard``,
``length``, ``count``, ``countP``), as a function (``Finset.card s``, ``Nat.count p n``) or a field (``s.card``,
``(..).card``, ``l |>.length``), the symbol ``#``, and a sum of the indicator ``if .. then 1 else 0`` (``∑``
in brackets, ``Finset.sum``, ``.sum``); it stands with what it counts (:func:`extent`: the
receiver before a field, the arguments after). The domain, word and search rules read their own list, as
before; the hedge rule and the pin and padding readers (``_answer_count_padding``) read this one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_count_reading import CountReading
from putnam_solver.core.provers.lean._idchars import all_digits, starts_letter

COUNTING: Final = frozenset({"card", "ncard", "encard", "length", "count", "countP"})
"""The last parts of the names that count a collection or the elements with a property."""
_KEYWORDS: Final = frozenset({"fun", "λ", "then", "else", "if", "with", "in", "at", "by", "do", "let", "have", "show"})
_OPENERS: Final = frozenset({"(", "[", "{", "⟨"})


def counting(text: str) -> bool:
    """Whether a token's text names a count (module doc): ``#``, or a name whose last part counts."""
    return text == "#" or text.rpartition(".")[2] in COUNTING


def hedged_counts(reading: CountReading) -> list[int]:
    """The indices of every count in the value read (module doc), where the count rules read any: not in
    a proposition with no parameter, which states and picks nothing (``_answer_count_reading``)."""
    domains, texts, partner = reading.domains, reading.texts, reading.partner
    if domains[-1] == "Prop" and len(domains) == 1:
        return []
    return [i for i, text in enumerate(texts) if counting(text) or _indicator_sum(texts, partner, i)]


def _indicator_sum(texts: Sequence[str], partner: dict[int, int], i: int) -> bool:
    """A sum of ``if .. then 1 else 0``, the number of elements with the property: ``(∑ m ∈ s, if P m then 1
    else 0)``, ``∑ m ∈ s, (if ..)``, ``Finset.sum s (fun m => if .. then 1 else 0)``, ``s.sum fun m => ..`` in
    brackets."""
    if texts[i] == "∑":
        close = partner.get(i - 1, -1) if i and texts[i - 1] == "(" else _summand(texts, partner, i)
    elif texts[i].rpartition(".")[2] == "sum":
        close = extent(texts, partner, i)[1] - 1
    else:
        return False
    return close > i and list(texts[close - 4 : close + 1]) == ["then", "1", "else", "0", ")"]


def _summand(texts: Sequence[str], partner: dict[int, int], i: int) -> int:
    """Where the bracketed summand of the ``∑`` at ``i`` closes (``∑ m ∈ s, (..)``: the body is read at
    precedence 67, so a comparison after the brackets compares the sum), else -1."""
    k = i + 1
    while k < len(texts) and texts[k] != ",":
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    return partner.get(k + 1, -1) if k + 1 < len(texts) and texts[k + 1] == "(" else -1


def extent(texts: Sequence[str], partner: dict[int, int], i: int) -> tuple[int, int]:
    """Where the count at ``i`` stands with what it counts: the receiver before a field (``{..}.ncard``,
    ``(s).card``, ``l |>.length``; one name, ``s.card``, is its own), then every argument after it (a name, a
    numeral, a bracketed group: ``Finset.card s``, ``Nat.count p 30``, ``# {..}``) up to the first other
    token; a sum in brackets, ``(∑ m ∈ s, ..)``, is that group."""
    if texts[i] == "∑" and i and texts[i - 1] == "(" and partner.get(i - 1, i) > i:
        return i - 1, partner[i - 1] + 1
    if texts[i] == "∑" and (close := _summand(texts, partner, i)) > i:
        return i, close + 1
    start = i
    if i >= 2 and texts[i - 1] in (".", "|>."):
        close = i - 2
        start = partner[close] if partner.get(close, close) < close else close
    end = i + 1
    while end < len(texts):
        text = texts[end]
        if text in _OPENERS and partner.get(end, end) > end:
            end = partner[end] + 1
        elif (starts_letter(text) and text not in _KEYWORDS) or all_digits(text):
            end += 1
        else:
            break
    return start, end
