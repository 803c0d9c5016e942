"""Positivity respelled, read back as the bounds it stands for, for ``_answer_normal`` (value red team 50).

``putnam_2024_a1`` asks for ``∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ E``; its copy with the three bounds
written as one passed:

* ``0 < a * b * c`` on ``ℕ`` is ``0 < a ∧ 0 < b ∧ 0 < c`` (``Nat.mul_pos_iff``, ``CanonicallyOrderedAdd``:
  not in a ring, where two negative factors have a positive product), read so where every factor is a name
  the text binds with ``ℕ`` (``_answer_types.declared``), a positive numeral factor dropped (``0 < 2 * a`` is
  ``0 < a``);
* ``a * b ≠ 0`` is ``a ≠ 0 ∧ b ≠ 0`` in every type without zero divisors (``mul_ne_zero_iff``: ``ℕ``, ``ℤ``,
  the fields), read so for factors that are atoms;
* witnesses in ``ℕ+``: ``∃ (a : ℕ+), E`` is ``∃ (a : ℕ), 0 < a ∧ E`` and ``∀ (a : ℕ+), E`` is ``∀ (a : ℕ), 0 <
  a → E``, where ``E``'s arithmetic is ``+ * ^`` and relations, which the coercion carries (``PNat.coe_inj``,
  ``PNat.add_coe``, ``PNat.mul_coe``, ``PNat.pow_coe``, ``PNat.coe_le_coe``); not where ``E`` writes ``-``,
  ``/`` or ``%`` (``ℕ+``'s subtraction stops at ``1``).

* witnesses as successors (red team 51): ``∃ a, E (a + 1)`` is ``∃ a, 0 < a ∧ E a`` on ``ℕ``
  (:func:`_successor_binder`).

* a bound through the lattice or ``|·|``: ``max a 0 = a`` and ``|a| = a`` are ``0 ≤ a`` (``max_eq_left_iff``,
  ``abs_eq_self``), ``0 < min a b`` is ``0 < a ∧ 0 < b`` (``lt_min_iff``, in a linear order).

Read only where the tokens delimit it: the bound between separators, a binder's groups up to its ``,``.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_equalities import AFTER, BEFORE
from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, make_token
from putnam_solver.core.provers.lean._answer_types import declared
from putnam_solver.core.provers.lean.syntax import Token

TRIGGERS: Final = frozenset({"ℕ+", "PNat", "<", ">", "≠", "max", "|", "min"})
HEADER_ENDS: Final = (BEFORE - {"("}) | {"=>", "|"}
"""What ends a binder's header (its ``,``) or shows it is no header of a quantifier."""
UNSAFE: Final = frozenset({"-", "/", "%", "⁻¹", "Nat.sub", "Nat.pred", "∑", "∏", "fun", "λ"})
"""What ``ℕ+`` computes otherwise than ``ℕ`` (or where a term of it may be read at another type)."""


def positives(x: Text) -> Tokens | None:
    """The first respelled positivity of ``x`` read as its bounds (module doc); None when there is none."""
    naturals = {name for name, kind in declared([t.text for t in x.t]) if kind == "ℕ"}
    for i in range(len(x.t)):
        found = _product(x, i, naturals) or _positive_binder(x, i) or _nonnegative(x, i) or _least(x, i)
        found = found or _successor_binder(x, i)
        if found is not None:
            return [*x.t[:i], *found[0], *x.t[found[1] :]]
    return None


def _product(x: Text, i: int, naturals: set[str]) -> tuple[Tokens, int] | None:
    """``0 < a * b``, ``a * b > 0`` on ``ℕ`` and ``a * b ≠ 0``, ``0 ≠ a * b`` at ``i`` as their factors' bounds."""
    t = x.t
    if i and t[i - 1].text not in BEFORE:
        return None
    zero_first = t[i].text == "0" and i + 1 < len(t) and t[i + 1].text in ("<", "≠")
    start = i + 2 if zero_first else i
    factors, end = _factors(x, start)
    if len(factors) < 2:
        return None
    if zero_first:
        op, stop = t[i + 1].text, end
    elif end + 1 < len(t) and t[end].text in (">", "≠") and t[end + 1].text == "0":
        op, stop = t[end].text, end + 2
    else:
        return None
    if stop < len(t) and t[stop].text not in AFTER:
        return None
    like = t[i]
    if op == "≠":
        bounds = [[*f, make_token("≠", like), make_token("0", like)] for f in factors]
    else:
        kept = [f for f in factors if not (len(f) == 1 and f[0].text.isdigit() and f[0].text.strip("0"))]
        if any(len(f) != 1 or f[0].text not in naturals for f in kept) or not kept:
            return None
        bounds = [[make_token("0", like), make_token("<", like), *f] for f in kept]
    joined = [token for k, bound in enumerate(bounds) for token in ([make_token("∧", like)] if k else []) + bound]
    return [make_token("(", like), *joined, make_token(")", like)], stop


def _factors(x: Text, start: int) -> tuple[list[Tokens], int]:
    """The atoms ``a * b * ..`` from ``start`` and where they end."""
    factors: list[Tokens] = []
    k = start
    while (end := x.atom(k)) is not None and x.t[k].text not in ("ℕ+",):
        factors.append(x.t[k:end])
        if end + 1 < len(x.t) and x.t[end].text == "*":
            k = end + 1
        else:
            return factors, end
    return [], start


def _positive_binder(x: Text, i: int) -> tuple[Tokens, int] | None:
    """``∃``/``∀`` at ``i`` binding names in ``ℕ+`` (``(a b : ℕ+)`` groups, or ``a b : ℕ+`` before its ``,``)
    as the same names in ``ℕ`` with their bounds before the body (module doc)."""
    t, comma = x.t, _header_comma(x, i)
    if comma is None:
        return None
    header, names = [t[i]], list[Token]()
    k = i + 1
    for k, token in enumerate(t[i + 1 : comma], i + 1):
        if _positive_type(t, k):
            names += _group_names(t, i + 1, k)
            header.append(make_token("ℕ", token))
        elif not (token.text == "+" and k and t[k - 1].text == "ℕ" and _positive_type(t, k - 1)):
            header.append(token)
    body_end = x.end[i]
    if not names or any(token.text in UNSAFE for token in t[comma + 1 : body_end]):
        return None
    like, link = t[i], "∧" if t[i].text == "∃" else "→"
    bounds = [
        made for name in names for made in (make_token("0", like), make_token("<", like), name, make_token(link, like))
    ]
    body = [make_token("(", like), *t[comma + 1 : body_end], make_token(")", like)]
    return [*header, t[comma], *bounds, *body], body_end


def _successor_binder(x: Text, i: int) -> tuple[Tokens, int] | None:
    """``∃``/``∀`` at ``i`` binding names (``a b : ℕ``, ``(a b : ℕ)`` or no type) each written only as ``(a +
    1)`` in its body, as the same binder with ``0 < a`` before the body and ``a`` for ``(a + 1)``: on ``ℕ``
    the successor is a bijection onto the positives (``Nat.exists_eq_add_one``, ``Nat.succ_pred_eq_of_pos``);
    a name with no type is read so too (only refusing more where it elaborates elsewhere)."""
    t, comma = x.t, _header_comma(x, i)
    if comma is None:
        return None
    header = [u.text for u in t[i + 1 : comma] if u.text not in ("(", ")")]
    named = header[: header.index(":")] if ":" in header else header
    if header[len(named) :] not in ([], [":", "ℕ"], [":", "Nat"]) or not all(n.isidentifier() for n in named):
        return None
    body = t[comma + 1 : x.end[i]]
    texts = [u.text for u in body]
    shifted = {n for n in named if n in texts and all(_successor(texts, k) for k, u in enumerate(texts) if u == n)}
    if not shifted:
        return None
    out, k = list[Token](), 0
    while k < len(body):
        if k + 4 < len(body) and texts[k + 1] in shifted and _successor(texts, k + 1):
            out.append(body[k + 1])
            k += 5
        else:
            out.append(body[k])
            k += 1
    like, link = t[i], "∧" if t[i].text == "∃" else "→"
    bounds = [made for n in named if n in shifted for made in _bound(n, link, like)]
    return [*t[i : comma + 1], *bounds, make_token("(", like), *out, make_token(")", like)], x.end[i]


def _successor(texts: list[str], k: int) -> bool:
    """Whether the name at ``k`` stands as ``( a + 1 )``."""
    return k > 0 and k + 3 < len(texts) and [texts[k - 1], *texts[k + 1 : k + 4]] == ["(", "+", "1", ")"]


def _bound(name: str, link: str, like: Token) -> Tokens:
    return [make_token(text, like) for text in ("0", "<", name, link)]


def _header_comma(x: Text, i: int) -> int | None:
    """The ``,`` ending the header of the ``∃``/``∀`` at ``i``; None where there is no such binder."""
    if x.t[i].text not in ("∃", "∀"):
        return None
    comma = next((k for k in range(i + 1, len(x.t)) if x.t[k].text in HEADER_ENDS), None)
    return comma if comma is not None and x.t[comma].text == "," else None


def _positive_type(t: Tokens, k: int) -> bool:
    """Whether ``t[k]`` begins the type ``ℕ+`` (lexed ``ℕ`` ``+``) or ``PNat`` right after a binder's ``:``."""
    if not k or t[k - 1].text != ":":
        return False
    return t[k].text == "PNat" or (t[k].text == "ℕ" and k + 1 < len(t) and t[k + 1].text == "+")


def _group_names(t: Tokens, start: int, at: int) -> list[Token]:
    """The names bound with the type at ``at`` (between the group's opening or the binder and its ``:``)."""
    names: list[Token] = []
    k = at - 2
    while k >= start and t[k].text not in ("(", ")", "{", "}", "⦃", "⦄", "[", "]"):
        names.append(t[k])
        k -= 1
    return names[::-1]


def _nonnegative(x: Text, i: int) -> tuple[Tokens, int] | None:
    """``max a 0 = a`` (``max 0 a``) or ``|a| = a`` at ``i``, ``a`` an atom, as ``0 ≤ a``."""
    t = x.t
    if i and t[i - 1].text not in BEFORE:
        return None
    if t[i].text == "max" and (one := x.atom(i + 1)) is not None and (two := x.atom(one)) is not None:
        args = [[u.text for u in t[i + 1 : one]], [u.text for u in t[one:two]]]
        kept = args[0] if args[1] == ["0"] else args[1] if args[0] == ["0"] else None
    elif t[i].text == "|" and (one := x.atom(i + 1)) is not None and one < len(t) and t[one].text == "|":
        kept, two = [u.text for u in t[i + 1 : one]], one + 1
    else:
        return None
    end = two + 1 + len(kept or ())
    if kept is None or end > len(t) or t[two].text != "=" or [u.text for u in t[two + 1 : end]] != kept:
        return None
    if end < len(t) and t[end].text not in AFTER:
        return None
    like = t[i]
    return [make_token("0", like), make_token("≤", like), *t[two + 1 : end]], end


def _least(x: Text, i: int) -> tuple[Tokens, int] | None:
    """``0 < min a b`` (``min a b > 0``; nested ``min`` read on in a later pass) at ``i`` as ``(0 < a ∧ 0 < b)``."""
    t = x.t
    if i and t[i - 1].text not in BEFORE:
        return None
    zero_first = t[i].text == "0" and i + 2 < len(t) and t[i + 1].text == "<" and t[i + 2].text == "min"
    at = i + 2 if zero_first else i
    if t[at].text != "min" or (one := x.atom(at + 1)) is None or (two := x.atom(one)) is None:
        return None
    if zero_first:
        end = two
    elif two + 1 < len(t) and t[two].text == ">" and t[two + 1].text == "0":
        end = two + 2
    else:
        return None
    if end < len(t) and t[end].text not in AFTER:
        return None
    like = t[i]
    zero, less, both = make_token("0", like), make_token("<", like), make_token("∧", like)
    args = [t[at + 1 : one], t[one:two]]
    args = [arg[1:-1] if len(arg) > 2 and arg[1].text == "min" else arg for arg in args]  # `min a (min b c)`
    inner = [zero, less, *args[0], both, zero, less, *args[1]]
    return [make_token("(", like), *inner, make_token(")", like)], end
