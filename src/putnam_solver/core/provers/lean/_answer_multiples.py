"""A divisibility written by its definition, read as ``p ∣ d``, for ``_answer_normal`` (value red team 52).

``putnam_1997_b3`` asks for ``¬5 ∣ d``; its copy written ``¬ ∃ k, d = 5 * k`` or ``∀ k, d ≠ 5 * k`` passed.
``p ∣ d`` is by definition ``∃ k, d = p * k`` (``Dvd.dvd``, ``Nat.instDvdNat``, ``Int.instDvdInt``), so ``∃ k,
d = p * k`` (``d = k * p``, ``p * k = d``, ``k * p = d``: ``mul_comm``, ``eq_comm``) is ``p ∣ d``, and ``∀
k, d ≠ p * k`` is ``¬ p ∣ d`` (``not_exists``). Read for ``k`` with no type or of ``ℕ`` or ``ℤ``, ``p`` one
argument (a name, a numeral or a bracketed term), ``d`` a term with no relation or connective outside
brackets; neither holds ``k``. A remainder bounded below by one, ``1 ≤ d % p`` (``d % p ≥ 1``), is ``0 < d %
p`` (a remainder is an integer: ``Nat.one_le_iff_ne_zero``, ``Int.add_one_le_iff``), which
``_answer_divisibility`` reads as ``¬ p ∣ d``.

Read only where the tokens delimit it: the quantifier's body is the one relation, up to the end of the
group that holds it. Reading more as the question only refuses more.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_divisibility import LOOSE, outside
from putnam_solver.core.provers.lean._answer_equalities import AFTER, BEFORE
from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, is_name, make_token
from putnam_solver.core.provers.lean.syntax import Token

TRIGGERS: Final = frozenset({"∃", "∀", "%"})
TYPES: Final = frozenset({"ℕ", "Nat", "ℤ", "Int"})
LINKS: Final = {"∃": "=", "∀": "≠"}


def multiples(x: Text) -> Tokens | None:
    """The first divisibility of ``x`` written by its definition read as ``p ∣ d`` (module doc); None when
    there is none."""
    for i in range(len(x.t)):
        found = _defined(x, i) or _remainder_bound(x, i)
        if found is not None:
            return [*x.t[:i], *found[0], *x.t[found[1] :]]
    return None


def _bound_name(t: Tokens, i: int) -> tuple[Token, int] | None:
    """``k`` and the ``,`` of ``∃ k ,``, ``∃ k : T ,`` or ``∃ ( k : T ) ,`` at ``i`` (``T`` ``ℕ`` or ``ℤ``)."""
    texts = [u.text for u in t[i + 1 : i + 7]]
    if len(texts) > 1 and is_name(t[i + 1]) and texts[1] == ",":
        return t[i + 1], i + 2
    if len(texts) > 3 and is_name(t[i + 1]) and texts[1] == ":" and texts[2] in TYPES and texts[3] == ",":
        return t[i + 1], i + 4
    if len(texts) > 5 and texts[0] == "(" and is_name(t[i + 2]) and texts[2] == ":" and texts[3] in TYPES:
        return (t[i + 2], i + 6) if texts[4:6] == [")", ","] else None
    return None


def _defined(x: Text, i: int) -> tuple[Tokens, int] | None:
    """``∃ k, d = p * k`` as ``p ∣ (d)`` and ``∀ k, d ≠ p * k`` as ``¬ p ∣ (d)`` at ``i`` (module doc)."""
    t = x.t
    if t[i].text not in LINKS or (found := _bound_name(t, i)) is None:
        return None
    k, comma = found
    end = x.end[i]
    relation = x.find(comma + 1, end, {LINKS[t[i].text]})
    if relation is None:
        return None
    sides = [t[comma + 1 : relation], t[relation + 1 : end]]
    for product, d in (sides, sides[::-1]):
        p = _factor(x, product, k.text)
        if p is None or not d or any(u.text == k.text or u.text.startswith(k.text + ".") for u in d):
            continue
        if any(d[k].text in LOOSE for k in outside(Text(list(d)), 0, len(d))):
            continue
        like = t[i]
        dvd = [*p, make_token("∣", like), make_token("(", like), *d, make_token(")", like)]
        return ([make_token("¬", like)] if t[i].text == "∀" else []) + dvd, end
    return None


def _factor(x: Text, product: Tokens, k: str) -> Tokens | None:
    """``p`` of ``p * k`` or ``k * p``: one argument with no ``k``; None for anything else."""
    inner = Text(list(product))
    if not product or (one := inner.atom(0)) is None or one + 1 >= len(product) or product[one].text != "*":
        return None
    if inner.atom(one + 1) != len(product):
        return None
    left, right = list(product[:one]), list(product[one + 1 :])
    for p, name in ((left, right), (right, left)):
        if [u.text for u in name] == [k] and not any(u.text == k or u.text.startswith(k + ".") for u in p):
            return p
    return None


def _remainder_bound(x: Text, i: int) -> tuple[Tokens, int] | None:
    """``1 ≤ d % p`` or ``d % p ≥ 1`` at ``i`` as ``0 < d % p``."""
    t = x.t
    if i and t[i - 1].text not in BEFORE:
        return None
    one_first = t[i].text == "1" and i + 1 < len(t) and t[i + 1].text == "≤"
    start = i + 2 if one_first else i
    pct = x.find(start, x.end[i], {"%", *LOOSE - {"%"}})
    if pct is None or t[pct].text != "%" or pct == start or (after := x.atom(pct + 1)) is None:
        return None
    if one_first:
        end = after
    elif after + 1 < len(t) and t[after].text == "≥" and t[after + 1].text == "1":
        end = after + 2
    else:
        return None
    if end < len(t) and t[end].text not in AFTER:
        return None
    like = t[i]
    return [make_token("0", like), make_token("<", like), *t[start:after]], end
