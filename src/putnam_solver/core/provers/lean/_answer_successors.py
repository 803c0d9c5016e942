"""A successor respelled, read as ``(a + 1)``, for ``_answer_normal`` (value red team 52).

Round 51 read positive witnesses written as successors back as bounded ones (``∃ a, E (a + 1)`` is ``∃ a, 0
< a ∧ E a`` on ``ℕ``: ``_answer_positives``), but only the spelling ``(a + 1)``; ``putnam_2024_a1``'s copy
with ``(1 + a)``, ``Nat.succ a``, ``a.succ`` or ``(a).succ`` passed. Each is ``a + 1``: ``Nat.succ a`` by
definition (``Nat.succ_eq_add_one``), ``a.succ`` and ``(a).succ`` the same application in field notation,
``1 + a`` by ``Nat.add_comm``. So each is read as ``(a + 1)``, on both sides alike, wherever the tokens
delimit it: ``(1 + a)`` whole in its brackets, ``Nat.succ`` applied to an argument (a name, a numeral or a
bracketed term), ``.succ`` on a name whose first component is a variable's (not ``Nat.succ`` itself) or on
a bracketed term. Reading more as the question only refuses more.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, is_name, make_token
from putnam_solver.core.provers.lean.syntax import NUMBER, Token

TRIGGERS: Final = frozenset({"Nat.succ", ".succ", "succ", "∃", "∀"})
"""``(1 + a)`` matters only as a bound witness (``_answer_positives``): a binder, not every ``+``, runs the rule."""


def successors(x: Text) -> Tokens | None:
    """The first respelled successor of ``x`` read as ``(a + 1)`` (module doc); None when there is none."""
    for i in range(len(x.t)):
        found = _turned(x, i) or _applied(x, i) or _field(x, i)
        if found is not None:
            return [*x.t[: found[2]], *_plus_one(found[0], x.t[i]), *x.t[found[1] :]]
    return None


def _plus_one(a: Tokens, like: Token) -> Tokens:
    return [make_token("(", like), *a, make_token("+", like), make_token("1", like), make_token(")", like)]


def _turned(x: Text, i: int) -> tuple[Tokens, int, int] | None:
    """``( 1 + a )`` at ``i``, ``a`` a name or a numeral."""
    t = x.t
    if t[i].text != "(" or x.partner[i] != i + 4 or [u.text for u in t[i + 1 : i + 3]] != ["1", "+"]:
        return None
    a = t[i + 3]
    return ([a], i + 5, i) if is_name(a) or a.kind == NUMBER else None


def _applied(x: Text, i: int) -> tuple[Tokens, int, int] | None:
    """``Nat.succ e`` at ``i``, ``e`` an argument (a name, a numeral or a bracketed term)."""
    if x.t[i].text != "Nat.succ" or not x.head(i) or (end := x.atom(i + 1)) is None:
        return None
    return x.t[i + 1 : end], end, i


def _field(x: Text, i: int) -> tuple[Tokens, int, int] | None:
    return field_receiver(x, i, "succ")


def field_receiver(x: Text, i: int, field: str) -> tuple[Tokens, int, int] | None:
    """For ``a.field`` at ``i`` (``a`` a name whose first component is a variable's) or ``( e ) . field``:
    the receiver, the index after the field and where the receiver begins."""
    t = x.t
    receiver, _, name = t[i].text.rpartition(".")
    if name != field:
        return None
    bracketed = not receiver and i > 1 and t[i - 1].text == "." and t[i - 2].text == ")"
    if bracketed and (start := x.partner[i - 2]) is not None:
        return t[start : i - 1], i + 1, start
    first = receiver.partition(".")[0]
    if receiver and first[:1].islower() and first.isidentifier() and (not i or t[i - 1].text != "."):
        return [make_token(receiver, t[i])], i + 1, i
    return None
