"""A scalar multiple of a number read as a product, for ``_answer_normal`` (value red team 52).

``putnam_2024_a1`` asks ``2*a^n + 3*b^n = 4*c^n``; its copy ``2 • a^n + 3 • b^n = 4 • c^n`` passed. A natural
or integer multiple in a semiring is the product with the number's cast (``nsmul_eq_mul``, ``zsmul_eq_mul``,
``smul_eq_mul`` of a ring acting on itself), and the cast is read through (``_answer_casts``), so ``k • x`` is
read ``k * x``. ``•`` binds tighter than ``*`` (73 against 70) and as tightly on the right, so the token is
the only change but after ``/`` or ``%`` (``a / k • x`` is ``a / (k • x)``, ``a / k * x`` is not): there it
is left. Reading more as the question only refuses more.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, make_token, rewrite

TRIGGERS: Final = frozenset({"•"})
DIVIDING: Final = frozenset({"/", "%", "⁻¹"})


def scalars(x: Text) -> Tokens | None:
    """Every ``k • x`` of ``x`` read ``k * x`` (module doc); None when there is none."""
    t = x.t
    starts = _operand_starts(x)

    def match(i: int) -> tuple[Tokens, int] | None:
        if t[i].text != "•" or not i or (start := starts.get(i - 1)) is None:
            return None
        return ([make_token("*", t[i])], i + 1) if not start or t[start - 1].text not in DIVIDING else None

    return rewrite(t, match)


def _operand_starts(x: Text) -> dict[int, int]:
    """For the last token of each argument (a name, a numeral, a bracketed group) where it begins."""
    starts = {}
    for k in range(len(x.t)):
        end = x.atom(k)
        if end is not None:
            starts[end - 1] = k
    return starts
