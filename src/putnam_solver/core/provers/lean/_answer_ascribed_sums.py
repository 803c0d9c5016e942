"""A big operator ascribed a number type read with the ascription on its body, for ``_answer_normal`` (value
red team 52).

``putnam_1997_b3`` asks about ``(∑ m ∈ Finset.Icc 1 n, 1/m : ℚ).den``; the ascription is read only where its
term is no binder (``_answer_terms.ascription``), so the sum kept ``: ℚ`` in the normal form, and the copy
with the cast pushed into the body (``∑ m ∈ Finset.Icc 1 n, (1 : ℚ)/m``, ``1/(m : ℚ)``, ``(1/m : ℚ)``)
passed. Lean elaborates ``(∑ x ∈ s, f x : T)`` with the expected type ``T``, which the sum hands to its body
(``Finset.sum s fun x => f x`` at ``T``: the body is elaborated at ``T``), so it is ``∑ x ∈ s, (f x : T)``;
where the body's type is fixed otherwise the ascription casts the sum, and a cast of a sum is the sum of
the casts (``Nat.cast_sum``, ``Int.cast_sum``; ``Nat.cast_prod`` for ``∏``). So ``(∑ B, body : T)``, ``T``
one number type, is read ``(∑ B, (body : T))`` on both sides alike, and the ascription's own reading
(``_answer_casts``) does the rest. Read only where the tokens delimit it: the bracket holds the operator,
its binder up to the first ``,`` and a body with no other ``:`` outside brackets.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_terms import CASTS, Text, Tokens, make_token, rewrite

OPERATORS: Final = frozenset({"∑", "∏", "∑'", "∏'"})
TYPES: Final = CASTS | {"ℕ", "Nat"}
TRIGGERS: Final = OPERATORS


def ascribed_sums(x: Text) -> Tokens | None:
    """Every ``(∑ B, body : T)`` of ``x`` read ``(∑ B, (body : T))`` (module doc); None when there is none."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        close = x.partner[i] if t[i].text == "(" else None
        if close is None or close < i + 5 or t[i + 1].text not in OPERATORS or t[close - 2].text != ":":
            return None
        comma = x.find(i + 2, close, {","})
        if comma is None or comma + 1 >= close - 2 or t[close - 1].text not in TYPES:
            return None
        if x.find(comma + 1, close, {":"}) != close - 2:
            return None
        like = t[close - 2]
        body = [make_token("(", like), *t[comma + 1 : close], make_token(")", like)]
        return [*t[i : comma + 1], *body, t[close]], close + 1

    return rewrite(t, match)
