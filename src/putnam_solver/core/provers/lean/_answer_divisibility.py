"""A non-divisibility respelled, read back as ``¬ p ∣ d``, for ``_answer_normal`` (value red team 51).

``putnam_1997_b3`` asks for ``¬5 ∣ d``; its copy with the condition written another way passed:

* a remainder not zero: ``d % p ≠ 0``, ``0 ≠ d % p``, ``0 < d % p`` and ``d % p > 0`` are ``¬ p ∣ d`` for a
  numeral ``p ≠ 0`` (``Nat.dvd_iff_mod_eq_zero``, ``Int.dvd_iff_emod_eq_zero``; a remainder by ``p ≠ 0`` is
  never negative, ``Int.emod_nonneg``, so positive is nonzero);
* coprime to a prime: ``Nat.Coprime p d``, ``Nat.Coprime d p``, ``Nat.gcd p d = 1`` and ``Nat.gcd d p = 1``
  are ``¬ p ∣ d`` for a prime numeral ``p`` only (``Nat.Prime.coprime_iff_not_dvd``, ``Nat.coprime_comm``;
  ``Nat.Coprime 4 d`` is not ``¬ 4 ∣ d`` at ``d = 2``).

Read only where the tokens delimit it: between separators, ``d`` a product of applications before ``%`` or
an argument (an atom with its projections) of ``Nat.Coprime``. Reading more as the question only refuses more.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_equalities import AFTER, BEFORE, RELATIONS, RUN_STOPS
from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, is_name, make_token
from putnam_solver.core.provers.lean.syntax import NUMBER, Token

TRIGGERS: Final = frozenset({"%", "Nat.Coprime", "Nat.gcd"})
LOOSE: Final = RUN_STOPS | RELATIONS | {"+", "-", "%", "¬", "∑", "∏", "∃", "∀", "fun", "λ", ":"}
"""What may not stand outside brackets in the dividend before ``%`` (it would bind looser than ``%``)."""


def divisibility(x: Text) -> Tokens | None:
    """The first respelled non-divisibility of ``x`` read as ``¬ p ∣ d`` (module doc); None when there is none."""
    for i in range(len(x.t)):
        found = _remainder(x, i) or _coprime(x, i)
        if found is not None:
            return [*x.t[:i], *found[0], *x.t[found[1] :]]
    return None


def _not_dividing(p: Token, d: Tokens, like: Token) -> Tokens:
    return [make_token("¬", like), p, make_token("∣", like), make_token("(", like), *d, make_token(")", like)]


def _remainder(x: Text, i: int) -> tuple[Tokens, int] | None:
    """``d % p ≠ 0``, ``d % p > 0``, ``0 ≠ d % p`` or ``0 < d % p`` at ``i``, ``p`` a nonzero numeral."""
    t = x.t
    if i and t[i - 1].text not in BEFORE:
        return None
    zero_first = t[i].text == "0" and i + 1 < len(t) and t[i + 1].text in ("<", "≠")
    start = i + 2 if zero_first else i
    pct = x.find(start, x.end[i], {"%"})
    if pct is None or pct == start or pct + 1 >= len(t) or not numeral(t[pct + 1], zero=False):
        return None
    if any(t[k].text in LOOSE for k in outside(x, start, pct)):
        return None
    end = pct + 2
    if not zero_first:
        if end + 1 >= len(t) or t[end].text not in (">", "≠") or t[end + 1].text != "0":
            return None
        end += 2
    if end < len(t) and t[end].text not in AFTER:
        return None
    return _not_dividing(t[pct + 1], t[start:pct], t[i]), end


def outside(x: Text, lo: int, hi: int) -> list[int]:
    """The places in ``[lo, hi)`` outside every bracket group opened there."""
    out, k = [], lo
    while k < hi:
        out.append(k)
        k = x.skip(k)
    return out


def _coprime(x: Text, i: int) -> tuple[Tokens, int] | None:
    """``Nat.Coprime a b`` or ``Nat.gcd a b = 1`` at ``i``, one of ``a b`` a prime numeral ``p``, as ``¬ p ∣``
    the other."""
    t = x.t
    if t[i].text not in ("Nat.Coprime", "Nat.gcd") or not x.head(i) or (i and t[i - 1].text not in BEFORE):
        return None
    one = argument(x, i + 1)
    two = argument(x, one) if one is not None else None
    if one is None or two is None:
        return None
    end = two
    if t[i].text == "Nat.gcd":
        if end + 1 >= len(t) or t[end].text != "=" or t[end + 1].text != "1":
            return None
        end += 2
    if end < len(t) and t[end].text not in AFTER:
        return None
    first, second = t[i + 1 : one], t[one:two]
    for p, d in ((first, second), (second, first)):
        if len(p) == 1 and numeral(p[0], zero=False) and len(p[0].text) < 8 and prime(int(p[0].text)):
            return _not_dividing(p[0], d, t[i]), end
    return None


def argument(x: Text, k: int) -> int | None:
    """The end of the argument at ``k``: an atom and the projections after it (``(e).den``)."""
    end = x.atom(k)
    while end is not None and end + 1 < len(x.t) and x.t[end].text == "." and is_name(x.t[end + 1]):
        end += 2
    return end


def numeral(token: Token, zero: bool) -> bool:
    return token.kind == NUMBER and token.text.isdigit() and (zero or bool(token.text.strip("0")))


def prime(n: int) -> bool:
    """Whether ``n`` is prime, by trial division; a numeral past ``10 ** 6`` is not read (no cost unbounded)."""
    return 1 < n < 10**6 and all(n % k for k in range(2, int(n**0.5) + 1))
