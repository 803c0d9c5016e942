"""An integer's natural absolute value read as its absolute value, for ``_answer_normal`` (value red team 52).

``putnam_1976_a3`` asks ``|(p^r : ℤ) - q^s| = 1``; its copy ``((p^r : ℤ) - q^s).natAbs = 1`` passed. The cast of
``Int.natAbs e`` is ``|e|`` (``Int.natCast_natAbs``) and a cast is read through in a relation
(``_answer_casts``), so ``Int.natAbs e``, ``e.natAbs`` and ``(e).natAbs`` are read ``|e|``. Read only where
the tokens delimit it: ``Int.natAbs`` applied to an argument, ``.natAbs`` on a name whose first component is
a variable's or on a bracketed term. Reading more as the question only refuses more.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_successors import field_receiver
from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, make_token

TRIGGERS: Final = frozenset({"Int.natAbs", ".natAbs", "natAbs"})


def natabs(x: Text) -> Tokens | None:
    """The first natural absolute value of ``x`` read as ``|e|`` (module doc); None when there is none."""
    t = x.t
    for i in range(len(t)):
        found = _applied(x, i) or _field(x, i)
        if found is not None:
            bar = make_token("|", t[i])
            return [*t[: found[2]], make_token("(", t[i]), bar, *found[0], bar, make_token(")", t[i]), *t[found[1] :]]
    return None


def _applied(x: Text, i: int) -> tuple[Tokens, int, int] | None:
    if x.t[i].text != "Int.natAbs" or not x.head(i) or (end := x.atom(i + 1)) is None:
        return None
    return x.t[i + 1 : end], end, i


def _field(x: Text, i: int) -> tuple[Tokens, int, int] | None:
    return field_receiver(x, i, "natAbs")
