"""A congruence read as the equation it is defined as, for the copy rule (red team 23).

Mathlib defines ``Nat.ModEq n a b`` and ``Int.ModEq n a b`` as ``a % n = b % n`` (Mathlib/Data/Nat/ModEq,
Mathlib/Data/Int/ModCast: ``def ModEq (n a b : ℤ) := a % n = b % n``), and writes them ``a ≡ b [MOD n]``
and ``a ≡ b [ZMOD n]`` (``notation:50``). The copy rule read the notation as tokens no normal form
reorders, so ``putnam_2023_b5``'s condition copied with its congruence turned (``b ≡ a [ZMOD n]``), in
function form (``Int.ModEq n a b``), as the remainders' equation, or with ``1 + x`` for ``x + 1`` inside,
passed the text profile. Both sides are now read as ``(a) % (n) = (b) % (n)``, an equation whose sides
``_answer_order`` orders, each part of a ``ZMOD`` congruence elaborated at ``ℤ`` (red team 31). ``[PMOD p]``
and ``[SMOD]`` have other definitions and are left as written.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_extremal import left_at_level
from putnam_solver.core.provers.lean._answer_nodes import ASCRIBED, Node, is_atom
from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, make_token
from putnam_solver.core.provers.lean.syntax import Token

MODULI: Final = frozenset({"MOD", "ZMOD"})
FUNCTIONS: Final = frozenset({"Nat.ModEq", "Int.ModEq"})
TRIGGER: Final = frozenset({"≡", *FUNCTIONS})
LEFT_ENDS: Final = frozenset(
    {",", "∧", "∨", "→", "->", "↔", "¬", ":=", "=>", "↦", "|", "then", "else", "if", ":", "=", "≠", "<", ">", "≤", "≥"}
)
"""What ends a congruence's left side, read leftwards (it is read at precedence 51)."""


def _equation(a: Tokens, b: Tokens, n: Tokens, like: Token, integer: bool) -> Tokens:
    """``(a) % (n) = (b) % (n)``; on ``ℤ`` each part elaborated there (``_answer_nodes.ASCRIBED``), as
    ``Int.ModEq``'s signature elaborates it: ``(p k).1 + 1 ≡ m [ZMOD n]`` is ``↑(p k).1 + 1 ≡ m [ZMOD ↑n]``
    (copy red team 31: ``putnam_2023_b5``'s condition with its casts written out passed)."""

    def group(part: Tokens) -> Tokens:
        inner = [make_token("(", like), *part, make_token(")", like)]
        return [make_token("(", like), make_token(ASCRIBED, like), *inner, make_token(")", like)] if integer else inner

    mod = [make_token("%", like), *group(n)]
    return [*group(a), *mod, make_token("=", like), *group(b), *mod]


def _argument(x: Text, i: int, end: int) -> int | None:
    """The end (exclusive) of the argument that begins at ``i``: a bracketed group or one token, with the
    projections after it (``(f x).1``, ``k . 1``), after any coercion arrows (``↑j``: Lean reads ``↑`` with
    its argument at the highest precedence, core's ``coeNotation``, so ``Int.ModEq ↑j a b`` has ``↑j`` for its
    modulus; value red team 49: it was read as ``↑`` alone, ``j`` the left side). Where no argument begins
    (an operator), None: the congruence is left as written."""
    while i < end and x.t[i].text == "↑":
        i += 1
    if i >= end or x.atom(i) is None:
        return None
    close = x.partner[i] if x.t[i].text in ("(", "[", "{", "⟨") else i
    if close is None or close >= end:
        return None
    j = close + 1
    while j + 1 < end and x.t[j].text == ".":
        j += 2
    return j


BARE_BEFORE: Final = frozenset({",", "∧", "∨", "→", "->", "↔", "¬", ":=", "=>", "↦", "|", "then", "else", "if", "("})
BARE_AFTER: Final = frozenset({",", "∧", "∨", "→", "->", "↔", ":=", "|", "then", "else", ")"})


def _bare(texts: list[str], start: int, end: int) -> bool:
    """Whether ``Int.ModEq n a b`` at ``texts[start:end]`` stands where its equation reads alike without
    parentheses (value red team 49): between tokens that bind looser than ``=`` (``∀ k, Int.ModEq n a b``, ``¬``
    at 40), as the notation ``a ≡ b [ZMOD n]`` (``notation:50``, an equation's precedence) reads there; the
    parentheses the function form was given told it apart from its notation in the reading as written."""
    before = texts[start - 1] if start else ","
    after = texts[end] if end < len(texts) else ","
    return before in BARE_BEFORE and after in BARE_AFTER


def congruences(x: Text) -> Tokens | None:
    """The first congruence of ``x`` in either form rewritten (module doc); None when there is none."""
    t, texts = x.t, [token.text for token in x.t]
    for i, token in enumerate(t):
        if token.text in FUNCTIONS:
            ends = [i + 1]
            for _ in range(3):
                nxt = _argument(x, ends[-1], len(t))
                if nxt is None:
                    break
                ends.append(nxt)
            if len(ends) == 4:
                n, a, b = t[ends[0] : ends[1]], t[ends[1] : ends[2]], t[ends[2] : ends[3]]
                equation = _equation(list(a), list(b), list(n), token, token.text == "Int.ModEq")
                if _bare(texts, i, ends[3]):
                    return [*t[:i], *equation, *t[ends[3] :]]
                return [*t[:i], make_token("(", token), *equation, make_token(")", token), *t[ends[3] :]]
        if token.text != "≡":
            continue
        j = next((k for k in range(i + 1, len(t) - 1) if t[k].text == "[" and t[k + 1].text in MODULI), None)
        close = x.partner[j] if j is not None else None
        if j is None or close is None or any((x.partner[k] or 0) > j for k in range(i + 1, j)):
            continue  # the modulus must follow the right side, not stand inside a bracket it opens
        stop = left_at_level(texts, i, LEFT_ENDS, opener=True)  # the bracket or operator before
        start = stop + 1 if stop is not None else 0  # the left side
        if start == i:
            continue
        modulus = list(t[j + 2 : close])
        equation = _equation(list(t[start:i]), list(t[i + 1 : j]), modulus, token, t[j + 1].text == "ZMOD")
        return [*t[:start], *equation, *t[close + 1 :]]
    return None


def divided(op: str, left: Node, right: Node) -> tuple[Node, Node] | None:
    """``a % b = 0`` as ``b ∣ a`` (``Nat.dvd_iff_mod_eq_zero``, ``Int.dvd_iff_emod_eq_zero``,
    ``EuclideanDomain.mod_eq_zero``: in every type with both), with ``0 % b`` read ``0`` (``Nat.zero_mod``,
    ``EuclideanDomain.zero_mod``) so that a congruence to ``0`` is the divisibility too (copy red team 36:
    ``S j % 2021 = 0`` and ``S j ≡ 0 [ZMOD 2021]`` for ``2021 ∣ S j`` passed); else None."""
    for term, other in ((left, right), (right, left)):
        if op == "=" and is_atom(other, "0") and term.kind == "bin" and term.text == "%":
            return term.kids[1], term.kids[0]
    return None
