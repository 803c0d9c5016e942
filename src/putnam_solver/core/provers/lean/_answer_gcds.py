"""A gcd or coprimality respelled, read in the one form ``_answer_divisibility`` reads, for ``_answer_normal``
(value red team 52).

``putnam_1997_b3`` asks for ``¬5 ∣ d``; round 51 read ``Nat.Coprime 5 d`` and ``Nat.gcd 5 d = 1`` back to it,
and its copy with the gcd written another way passed:

* the field notation: ``d.Coprime 5``, ``(e).den.Coprime 5``, ``d.gcd 5`` are ``Nat.Coprime d 5`` and
  ``Nat.gcd d 5`` (Lean puts the receiver at the first explicit argument of type ``ℕ``: ``_answer_dots``);
  ``Int.gcd`` is read as ``Nat.gcd`` (both give the natural gcd; ``Int.gcd_natCast_natCast``);
* a numeral argument ascribed its type: ``Nat.Coprime (5 : ℕ) d`` is ``Nat.Coprime 5 d`` (the arguments are
  natural numbers: the ascription changes no term);
* the relation turned: ``1 = Nat.gcd a b`` is ``Nat.gcd a b = 1``;
* the gcd equal to a numeral argument: ``Nat.gcd p d = p`` is ``p ∣ d`` and ``Nat.gcd d p = p`` is ``p ∣ d``
  (``Nat.gcd_eq_left_iff_dvd``, ``Nat.gcd_eq_right_iff_dvd``), so ``≠ p`` and ``¬ .. = p`` are ``¬ p ∣ d``,
  and so is ``< p`` for ``p ≠ 0`` (the gcd divides ``p``, so it is at most ``p``: ``Nat.gcd_le_left``).

Each reading is a token rewrite where the tokens delimit it (between separators); a receiver is a name
with a variable's first component (``d``, ``x.den``: not a namespace such as ``Nat``) or a bracketed term
and the projections after it. Reading more as the question only refuses more.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_divisibility import argument, numeral
from putnam_solver.core.provers.lean._answer_equalities import AFTER, BEFORE
from putnam_solver.core.provers.lean._answer_nodes import NATURAL
from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, make_token
from putnam_solver.core.provers.lean.syntax import Token

FIELDS: Final = {"Coprime": "Nat.Coprime", "gcd": "Nat.gcd"}
TRIGGERS: Final = frozenset({".Coprime", ".gcd", "Coprime", "gcd", "Int.gcd", "Nat.gcd"})
TURNED: Final = {"=": "=", "≠": "≠", ">": "<"}
"""A relation to the gcd written with the numeral first (``p ≠ gcd``, ``p > gcd``) and as it reads turned."""


def gcds(x: Text) -> Tokens | None:
    """The first respelled gcd of ``x`` in ``Nat.Coprime``/``Nat.gcd`` form (module doc); None when none."""
    for i in range(len(x.t)):
        found = _field(x, i) or _relation(x, i) or _ascribed(x, i)
        if found is not None:
            return [*x.t[: found[2]], *found[0], *x.t[found[1] :]]
    return None


def _field(x: Text, i: int) -> tuple[Tokens, int, int] | None:
    """``r.Coprime``/``r.gcd`` (``(e).gcd``, ``(e).den.gcd``) at ``i`` as ``Nat.Coprime r``/``Nat.gcd r``; and
    ``Int.gcd`` as ``Nat.gcd``. With where the receiver begins."""
    t = x.t
    text = t[i].text
    if text == "Int.gcd":
        return [make_token("Nat.gcd", t[i])], i + 1, i
    receiver, _, field = text.rpartition(".")
    if field not in FIELDS or (not receiver and text == field and (not i or t[i - 1].text != ".")):
        return None
    first = receiver.partition(".")[0]
    like, made = t[i], list[Token]()
    if i > 1 and t[i - 1].text == "." and t[i - 2].text == ")" and (start := x.partner[i - 2]) is not None:
        made = t[start : i - 1]
        if len(made) == 3 and numeral(made[1], zero=True):
            made = [made[1]]  # `(5).Coprime d`
        if receiver:
            dotted = [make_token(".", like), make_token(receiver, like)]
            made = [make_token("(", like), *made, *dotted, make_token(")", like)]
    elif receiver and first[:1].islower() and first.isidentifier():
        start, made = i, [make_token(receiver, like)]
    else:
        return None
    return [make_token(FIELDS[field], like), *made], i + 1, start


def _ascribed(x: Text, i: int) -> tuple[Tokens, int, int] | None:
    """An argument ``(p : ℕ)`` (read ``(↑ (ascribed ℕ) p)``) of the ``Nat.Coprime``/``Nat.gcd`` at ``i``, ``p``
    a numeral, as ``p``."""
    if x.t[i].text not in ("Nat.Coprime", "Nat.gcd") or (one := argument(x, i + 1)) is None:
        return None
    for lo, hi in ((i + 1, one), (one, argument(x, one))):
        inner = x.t[lo + 1 : (hi or lo) - 1]
        texts = [u.text for u in inner]
        typed = texts[1:] in ([":", "ℕ"], [":", "Nat"]) or texts[:1] == [NATURAL]
        kept = [u for u in inner[1:] if u.text not in ("(", ")")] if texts[:1] == [NATURAL] else inner[:1]
        if hi is not None and typed and len(kept) == 1 and numeral(kept[0], zero=True):
            return kept, hi, lo
    return None


def _relation(x: Text, i: int) -> tuple[Tokens, int, int] | None:
    """``1 = Nat.gcd a b`` as ``Nat.gcd a b = 1``; ``Nat.gcd a b R p`` (``p`` a numeral argument, ``R`` one of
    ``= ≠ <``, or ``p R' Nat.gcd a b``, or ``¬ Nat.gcd a b = p``) as ``p ∣ d``, ``¬ p ∣ d``."""
    t = x.t
    if i and t[i - 1].text not in BEFORE:
        return None
    negated = t[i].text == "¬"
    lead = i + 1 if negated else i
    numeral_first = lead + 2 < len(t) and t[lead + 1].text in TURNED and t[lead + 2].text == "Nat.gcd"
    at = lead + 2 if numeral_first else lead
    if at >= len(t) or t[at].text != "Nat.gcd" or (one := argument(x, at + 1)) is None:
        return None
    if (two := argument(x, one)) is None:
        return None
    if numeral_first:
        value, op, end = t[lead], TURNED[t[lead + 1].text], two
    elif two + 1 < len(t) and t[two].text in ("=", "≠", "<"):
        value, op, end = t[two + 1], t[two].text, two + 2
    else:
        return None
    if end < len(t) and t[end].text not in AFTER:
        return None
    like, args = t[i], [t[at + 1 : one], t[one:two]]
    if value.text == "1" and op == "=" and numeral_first and not negated:
        return [*t[at:two], make_token("=", like), value], end, i
    kept = [k for k, arg in enumerate(args) if len(arg) == 1 and arg[0].text == value.text]
    if not kept or not numeral(value, zero=False) or (negated and op != "="):
        return None
    other = args[1 - kept[0]]
    dvd = [value, make_token("∣", like), make_token("(", like), *other, make_token(")", like)]
    denied = negated or op in ("≠", "<")
    return ([make_token("¬", like)] if denied else []) + dvd, end, i
