"""G2 on a no-answer value that counts (value red team 43): a count compared into a closed proposition.

Red team 42's domain rule (``_answer_count_reading.CountReading.characterises``) leaves a count compared, whole, with a
numeral inside the answer's own set-builder unread: ``{n : ℤ | 0 < n ∧ {m : ℕ | |n - ↑(m ^ 2)| ≤ 250}.encard
= 15}`` is a property of each member, which picks no value. Its own note says why that needs the member: "a
set that does not depend on the member makes the answer all or nothing". Such a count passed:
``{n : ℤ | {m : ℕ | |320 - ↑(m ^ 2)| ≤ 250}.ncard = 15 ∧ n = 320}`` is ``{320}`` if ``320`` is within ``250``
of exactly ``15`` squares and empty otherwise, a hedge on one undecided proposition. Against
``putnam_1994_b1``'s ``n ∈ solution ↔ 0 < n ∧ {m : ℕ | |n - m ^ 2| ≤ 250}.encard = 15`` the proof then shows
the two counts agree (``ncard`` and ``encard`` of one finite set, or the set bounded by ``m < 30``), never
their value: the member's own half of the answer is the question's, unevaluated. A closed count compared
with a numeral states nothing an answer needs: true or false, it is a constant the value should show.

So a count (any form since red team 47, ``Finset``'s, a list's, ``Nat.count``, a sum of ``if .. then 1 else
0``: :mod:`_answer_count_forms`; not an indicator, whose numeral point red team 40 reads) whose comparison
with another term (``=``, ``≠``, ``<``, ``≤``, ``>``, ``≥``; the term runs to the next connective or
bracket) names no variable the value binds outside it (no member, no parameter of the
answer's own ``fun``s, no bound variable of an enclosing binder: :func:`syntax.free_occurrences` of the
proposition alone against the value's) is refused, wherever it stands. A count compared with the member
(``{n | n = Set.ncard {k : Fin 5 | ..}}``) or counting a set of the member passes to the other count rules.
Red team 44: a count that names the member only in a padding (``{m : ℕ | |320 + 0 * n - m ^ 2| ≤ 250}``, ``=
15 + (n - n)``) is the same closed proposition; the variables must stand where the comparison varies with
them (``_answer_count_padding.depends``, which fails closed on what it cannot read), or it is refused.
Red team 48: for every count of :mod:`_answer_count_forms` (red team 47 asked it only of those
``_answer_count_reading`` lists, so ``((Finset.range 30).filter (fun m => |320 + 0 * n - ↑(m ^ 2)| ≤ 250))
.card = 15`` passed); the padding reader reads a count by a predicate, a filter's, ``countP``, ``Nat.count``,
an indicator sum, and an honest count of a member's divisors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_count_forms import extent, hedged_counts
from putnam_solver.core.provers.lean._answer_count_padding import depends
from putnam_solver.core.provers.lean._answer_count_reading import CountReading, free_in_brackets, indicator

HEDGE_RULE: Final = (
    "the answer compares a count with a term that names none of its own variables (or names them only where "
    "they cannot change it, `0 * n`, `n - n`): a closed proposition, true or false, on which the answer hedges "
    "(`{n | {m : ℕ | ..}.ncard = 15 ∧ n = 3}` is `{3}` or empty), and a proof may leave the count unevaluated; "
    "state the answer"
)
_COMPARISONS: Final = frozenset({"=", "≠", "<", "≤", ">", "≥"})
_EDGES: Final = frozenset({"∧", "∨", "¬", "→", "->", "↔", ",", "|", "=>", "↦", "then", "else", "if", ":="})


def closed_comparison(reading: CountReading) -> int | None:
    """The index of the first count of the value read that a comparison makes a closed proposition (module
    doc), else None."""
    value, texts, partner = reading.value, reading.texts, reading.partner
    counts = hedged_counts(reading)
    if not counts:
        return None
    free = {t.offset for t in free_in_brackets(value)}
    for i in counts:
        if indicator(value[i].kind, texts[i]):
            continue
        start, end = extent(texts, partner, i)
        if end < len(texts) and texts[end] in _COMPARISONS:
            lo, hi = start, _operand_end(texts, partner, end + 1)
        elif start >= 1 and texts[start - 1] in _COMPARISONS:
            lo, hi = _operand_start(texts, partner, start - 1), end
        else:
            continue
        outer = {t.text for t in free_in_brackets(value[lo:hi]) if t.offset not in free}  # bound outside it
        if not outer or not depends(texts[lo:hi], outer):  # none, or only where it cannot matter
            return i
    return None


def _operand_end(texts: Sequence[str], partner: dict[int, int], k: int) -> int:
    """The end of the operand that begins at ``k``: the next connective or unmatched closing bracket."""
    while k < len(texts) and texts[k] not in _EDGES:
        if partner.get(k, k) > k:
            k = partner[k] + 1
        elif partner.get(k, k) < k:
            return k
        else:
            k += 1
    return k


def _operand_start(texts: Sequence[str], partner: dict[int, int], k: int) -> int:
    """The start of the operand that ends right before ``k``: after the previous connective or unmatched
    opening bracket."""
    j = k - 1
    while j >= 0 and texts[j] not in _EDGES:
        if partner.get(j, j) < j:
            j = partner[j] - 1
        elif partner.get(j, j) > j:
            return j + 1
        else:
            j -= 1
    return j + 1
