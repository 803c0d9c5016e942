"""A big operator's range respelled, read as one closed interval, for ``_answer_normal`` (value red team 52).

``putnam_1997_b3`` asks about ``∑ m ∈ Finset.Icc 1 n, 1/m``; its copy over ``Finset.Ioc 0 n``, ``Finset.Ico 1 (n
+ 1)`` or ``Finset.range n`` with the index shifted (``1/(m + 1)``) passed. On the integers (``ℕ``, ``ℤ``: a
successor order) an open end is the closed one moved by one, so:

* ``Finset.Ioc a b`` is ``Finset.Icc (a+1) b`` and ``Finset.Ioo a (e + 1)`` is ``Finset.Icc (a+1) e``, ``a`` a
  numeral (``Nat.Icc_succ_left``, ``Finset.Ioc_eq_Icc``); ``Finset.Ico a (e + 1)`` is ``Finset.Icc a e``
  (``Nat.Ico_succ_right``) and ``Finset.range (e + 1)`` is ``Finset.Icc 0 e`` (``Finset.range_eq_Ico``);
* a sum or product over ``Finset.Ico a b``, ``Finset.Icc a b`` (``a`` a numeral) or ``Finset.range e`` (``Ico 0
  e``) whose index stands only as ``(m + 1)`` is the one over the interval moved up with ``m`` for ``(m + 1)``
  (``Finset.sum_Ico_add'``, ``Finset.sum_map`` of ``addRightEmbedding 1``).

Read only where the tokens delimit it: the interval is a big operator's set (``∑ m ∈ I,``; a membership ``n ∈
Finset.range 5`` is read as its bound by ``_answer_bounds``, and left), its bounds are arguments, the body
runs to the end of the group that holds it. Reading more as the question only refuses more.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, is_name, make_token
from putnam_solver.core.provers.lean.syntax import NUMBER, Token

TRIGGERS: Final = frozenset({"Finset.Ioc", "Finset.Ioo", "Finset.Ico", "Finset.range"})
OPERATORS: Final = frozenset({"∑", "∏"})


def intervals(x: Text) -> Tokens | None:
    """The first respelled interval of ``x`` read as ``Finset.Icc`` or ``Finset.Ico`` (module doc); None when
    there is none."""
    for i in range(len(x.t)):
        found = _interval(x, i) or _shifted(x, i)
        if found is not None:
            return [*x.t[:i], *found[0], *x.t[found[1] :]]
    return None


def _numeral(token: Token) -> int | None:
    return int(token.text) if token.kind == NUMBER and token.text.isdigit() and len(token.text) < 10 else None


def _successor(x: Text, lo: int, hi: int) -> Tokens | None:
    """``e`` of the argument ``( e + 1 )`` at ``[lo, hi)``, ``e`` one argument; None for another."""
    t = x.t
    if t[lo].text != "(" or x.partner[lo] != hi - 1 or hi - lo < 5:
        return None
    if [u.text for u in t[hi - 3 : hi - 1]] != ["+", "1"]:
        return None
    return list(t[lo + 1 : hi - 3]) if x.atom(lo + 1) == hi - 3 else None


def _interval(x: Text, i: int) -> tuple[Tokens, int] | None:
    """The interval at ``i``, the set of a big operator (``∑ m ∈ I,``), as ``Finset.Icc``."""
    t, name = x.t, x.t[i].text
    if name not in TRIGGERS or i < 3 or t[i - 3].text not in OPERATORS or t[i - 1].text not in ("∈", "in"):
        return None
    if (one := x.atom(i + 1)) is None:
        return None
    like = t[i]
    if name == "Finset.range":
        upper = _successor(x, i + 1, one)
        if upper is None or one >= len(t) or t[one].text != ",":
            return None
        return [make_token("Finset.Icc", like), make_token("0", like), make_token("(", like), *upper, t[one - 1]], one
    if (two := x.atom(one)) is None or two >= len(t) or t[two].text != ",":
        return None
    low, start = t[i + 1 : one], _numeral(t[i + 1]) if one == i + 2 else None
    high: Tokens | None = t[one:two]
    upper = _successor(x, one, two)
    if name in ("Finset.Ioc", "Finset.Ioo") and start is not None:
        low, high = [make_token(str(start + 1), like)], high if name == "Finset.Ioc" else upper
    elif name == "Finset.Ico":
        high = upper
    else:
        return None
    if not high:
        return None
    return [make_token("Finset.Icc", like), *low, make_token("(", like), *high, make_token(")", like)], two


def _shifted(x: Text, i: int) -> tuple[Tokens, int] | None:
    t = x.t
    if t[i].text not in OPERATORS or i + 4 >= len(t) or not is_name(t[i + 1]):
        return None
    if t[i + 2].text not in ("∈", "in"):
        return None
    m, kind, end = t[i + 1].text, t[i + 3].text, x.end[i]
    if kind not in ("Finset.Icc", "Finset.Ico", "Finset.range") or (one := x.atom(i + 4)) is None:
        return None
    start: int | None = 0
    two: int | None = one
    low = high = i + 4
    if kind == "Finset.range":  # `Finset.range e` is `Finset.Ico 0 e`, moved up `Finset.Icc 1 e`
        kind = "Finset.Icc"
    else:
        two = x.atom(one)
        start, low, high = _numeral(t[i + 4]) if one == i + 5 else None, one, two or one
    if two is None or start is None or two >= end or t[two].text != ",":
        return None
    body, out, k = t[two + 1 : end], list[Token](), 0
    while k < len(body):
        u = body[k]
        if u.text.startswith(m + "."):
            return None
        if u.text == m:
            if k == 0 or [v.text for v in (body[k - 1], *body[k + 1 : k + 4])] != ["(", "+", "1", ")"]:
                return None
            out[-1:] = [u]
            k += 4
        else:
            out.append(u)
            k += 1
    if len(out) == len(body):
        return None
    like = t[i]
    upper = [*t[low:high], make_token("+", like), make_token("1", like)] if high > low else list(t[i + 4 : two])
    moved = [make_token(kind, like), make_token(str(start + 1), like), make_token("(", like), *upper]
    return [*t[i : i + 3], *moved, make_token(")", like), t[two], *out], end
