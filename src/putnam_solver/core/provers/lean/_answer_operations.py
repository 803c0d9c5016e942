"""Operations written out by their definitions, read back as the operation, for ``_answer_normal`` (value red
team 50: each spelling of the question passed the copy rule).

* ``Monoid.npow n a`` is ``a ^ n`` (Mathlib's ``Monoid.Pow`` instance: ``x ^ n`` unfolds to it);
* ``∏ _i ∈ Finset.range n, a`` and ``∏ _i : Fin n, a``, ``a`` free of the bound name, are ``a ^ n``
  (``Finset.prod_const``, ``Finset.card_range``, ``Fin.prod_const``);
* ``∃ k, b = a * k`` (``k * a`` too, ``k`` named nowhere else, no type or ``ℕ``/``ℤ`` written) is ``a ∣ b``:
  ``Dvd.dvd`` on ``ℕ`` and ``ℤ`` is defined so (``Nat.instDvdNat``, ``Int.instDvdInt``: ``⟨fun a b => ∃ c, b =
  a * c⟩``), and a commutative monoid's divisibility alike (``Dvd.intro``, ``exists_eq_mul_left_of_dvd``).
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_equalities import AFTER, BEFORE
from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, make_token
from putnam_solver.core.provers.lean.syntax import Token

TRIGGERS: Final = frozenset({"Monoid.npow", "∏", "∃"})
SUMS: Final = frozenset({"+", "-", "/", "%", "∣"})
"""What would bind looser than, or differ from, the product ``a * k`` the divisor is read from."""
LOOSER: Final = (BEFORE - {"("}) | {"≠", "<", "≤", ">", "≥", "∣", "∈"}
"""What a body of one equation may not hold."""
INTEGRAL: Final = frozenset({"ℕ", "ℤ", "Nat", "Int"})


def operations(x: Text) -> Tokens | None:
    """The first operation of ``x`` written out, read back (module doc); None when there is none."""
    for i in range(len(x.t)):
        found = _power(x, i) or _product(x, i) or _divisibility(x, i)
        if found is not None:
            return [*x.t[:i], *found[0], *x.t[found[1] :]]
    return None


def _power(x: Text, i: int) -> tuple[Tokens, int] | None:
    """``Monoid.npow n a`` at ``i`` as ``(a ^ n)``."""
    if x.t[i].text != "Monoid.npow" or not x.head(i) or (one := x.atom(i + 1)) is None or (two := x.atom(one)) is None:
        return None
    return _raised(x.t[one:two], x.t[i + 1 : one], x.t[i]), two


def _raised(base: Tokens, exponent: Tokens, like: Token) -> Tokens:
    made = [make_token(text, like) for text in ("(", "^", ")")]
    return [made[0], *base, made[1], *exponent, made[2]]


def _product(x: Text, i: int) -> tuple[Tokens, int] | None:
    """``∏ k ∈ Finset.range n, a`` or ``∏ k : Fin n, a`` at ``i``, ``a`` an atom free of ``k``, as ``(a ^ n)``."""
    t = x.t
    if t[i].text != "∏" or i + 3 >= len(t) or t[i + 2].text not in ("∈", ":"):
        return None
    name, head = t[i + 1].text, t[i + 3].text
    if (t[i + 2].text, head) not in ((":", "Fin"), ("∈", "Finset.range")) or (count := x.atom(i + 4)) is None:
        return None
    if count >= len(t) or t[count].text != "," or (end := x.atom(count + 1)) is None or x.end[i] != end:
        return None
    body = t[count + 1 : end]
    if any(token.text == name for token in body):
        return None
    return _raised(body, t[i + 4 : count], t[i]), end


def _divisibility(x: Text, i: int) -> tuple[Tokens, int] | None:
    """``∃ k, b = a * k`` (or ``k * a``; ``∃ k : ℤ,``) at ``i``, its body one equation to the end of its group,
    as ``a ∣ b``."""
    t = x.t
    if t[i].text != "∃" or i + 2 >= len(t) or (i and t[i - 1].text not in BEFORE):
        return None
    name, comma = t[i + 1].text, i + 2
    if t[comma].text == ":" and comma + 2 < len(t) and t[comma + 1].text in INTEGRAL:
        comma += 2
    if t[comma].text != "," or not name.isidentifier() or (x.end[i] < len(t) and t[x.end[i]].text not in AFTER):
        return None
    body = t[comma + 1 : x.end[i]]
    equal = [k for k, token in enumerate(body) if token.text == "="]
    if len(equal) != 1 or any(token.text in LOOSER for token in body):
        return None
    left, right = body[: equal[0]], body[equal[0] + 1 :]
    if len(right) < 3 or (right[-2].text != "*" and right[1].text != "*"):
        return None
    factor = (
        right[:-2] if right[-1].text == name and right[-2].text == "*" else right[2:] if right[0].text == name else None
    )
    if factor is None or any(token.text == name for token in (*left, *factor)) or any(t.text in SUMS for t in factor):
        return None
    like = t[i]
    return [make_token("(", like), *factor, make_token(")", like), make_token("∣", like), *left], x.end[i]
