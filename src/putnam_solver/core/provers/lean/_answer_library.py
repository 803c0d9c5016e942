"""Library functions that are a question's term by definition, unfolded, for ``_answer_normal`` (value red
team 52).

``putnam_1997_b3`` asks about ``(∑ m ∈ Finset.Icc 1 n, 1/m : ℚ).den``; its copy ``(harmonic n).den`` passed:
Mathlib defines ``harmonic : ℕ → ℚ := fun n => ∑ i ∈ Finset.range n, (↑(i + 1))⁻¹``
(``Mathlib/NumberTheory/Harmonic/Defs.lean``), the same sum re-indexed (``_answer_intervals``). A function of
:data:`UNFOLDED` applied to one argument is read as its definition's body with the argument in place.
Reading more as the question only refuses more.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, make_token, rewrite

UNFOLDED: Final = {"harmonic": "( ∑ i ∈ Finset.range ( # ) , ( ( ( i + 1 ) : ℚ ) ) ⁻¹ )"}
"""Each function's definition, its argument at ``#`` (tokens separated by spaces)."""
TRIGGERS: Final = frozenset(UNFOLDED)


def library(x: Text) -> Tokens | None:
    """Every function of :data:`UNFOLDED` applied to an argument read as its definition (module doc)."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        body = UNFOLDED.get(t[i].text)
        if body is None or not x.head(i) or (end := x.atom(i + 1)) is None:
            return None
        out: Tokens = []
        for text in body.split():
            out += t[i + 1 : end] if text == "#" else [make_token(text, t[i])]
        return out, end

    return rewrite(t, match)
