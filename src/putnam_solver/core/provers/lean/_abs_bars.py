"""Which ``|`` tokens are the bars of an absolute value ``|e|``, for the text rules that split on ``|``.

Mathlib's ``|a|`` (``abs a``, ``macro:max atomic("|" noWs) a:term noWs "|" : term``) shares its token with
the set-builder's separator ``{x | C}`` and with match alternatives ``fun | 0 => ..``. The copy rule read
every ``|`` as a separator, so a condition with an absolute value (``putnam_1976_a3``'s ``|(p^r : ℤ) - q^s|
= 1``) was never a whole term, never a needle, and its copy padded, ``{(p, r, q, s) | (C) ∧ True}``, passed.

Read here in one pass, as Lean's parser meets them (red team 21, abs): a ``|`` where a term begins (after an
operator, an opening bracket, a separator, or at the start; not after ``fun``/``with``/``first``, where it
opens an alternative) opens an absolute value; a ``|`` after a term's end closes the absolute value open
innermost, if the innermost open thing is one; every other ``|`` is a separator, so a set-builder's
separator, which always follows its pattern's end, is the first ``|`` at the brace's depth (``{x | |x| =
1}``). A bar left open (up to its enclosing bracket's end, or the text's) stays a separator: the reading
changes only bars it pairs. Linear: each token is pushed and popped at most once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._idchars import starts_alnum

ABS_OPEN: Final = "|abs"
ABS_CLOSE: Final = "abs|"
"""The bars of an absolute value as the copy rule's canonical form spells them: a pair of brackets (no
token of the lexer's: a name holds no ``|``)."""
_OPEN: Final = frozenset({"(", "[", "{", "⟨"})
_CLOSE: Final = frozenset({")", "]", "}", "⟩"})
_ALTERNATIVES: Final = frozenset({"fun", "λ", "with", "first"})
"""After these a ``|`` opens an alternative (``fun | 0 => ..``, ``match n with | ..``, ``first | ..``)."""
_NO_END: Final = frozenset({"then", "else", "if", "in", "from", "do", "return", "by", "match", "at", "let", "have"})
_POSTFIX: Final = frozenset({"ᶜ", "!", "⁻¹", "ᵀ", "ᴴ", "†", "·", "'", "⌋", "⌉", "‖", "⟫", "∞"})
"""Postfix operators, the closing brackets of floor, ceiling, norm, inner product, and symbols that are
terms (``·``, ``∞``): a term may end with each."""


def _ends(text: str) -> bool:
    """Whether a term may end with ``text`` (a name, a literal, a closing bracket, a postfix operator)."""
    if text in _ALTERNATIVES or text in _NO_END:
        return False
    return starts_alnum(text) or text[:1] in "_«\"'" or text in _CLOSE or text in _POSTFIX or text == ABS_CLOSE


def abs_pairs(texts: Sequence[str], bar: str = "|") -> dict[int, int]:
    """Each absolute value's opening bar's index, mapped to its closing bar's (module doc); with ``bar`` ``‖``,
    each norm's, which pair alike (a ``‖`` is never a separator)."""
    pairs: dict[int, int] = {}
    stack: list[tuple[str, int]] = []  # ("(", k) for a bracket, ("|", k) for an open absolute value
    ended = False
    before = ""
    for k, text in enumerate(texts):
        if text in _OPEN:
            stack.append(("(", k))
        elif text in _CLOSE:
            while stack and stack[-1][0] == "|":
                stack.pop()  # a bar left open inside the bracket: a separator after all
            if stack:
                stack.pop()
        elif text == bar and ended and stack and stack[-1][0] == "|":
            pairs[stack.pop()[1]] = k
            ended = True
            before = ABS_CLOSE
            continue
        elif text == bar and not ended and before not in _ALTERNATIVES:
            stack.append(("|", k))
            ended, before = False, text  # a `‖` ends a term only as a closing bar
            continue
        ended = _ends(text)
        before = text
    return pairs


def abs_spelled(texts: Sequence[str]) -> list[str]:
    """``texts`` with each absolute value's bars as :data:`ABS_OPEN` and :data:`ABS_CLOSE`."""
    out = list(texts)
    for opening, closing in abs_pairs(texts).items():
        out[opening], out[closing] = ABS_OPEN, ABS_CLOSE
    return out


def norm_spelled(texts: Sequence[str]) -> list[str]:
    """``texts`` with each norm ``‖e‖`` as the application ``(Norm.norm (e))`` it is (Mathlib/Analysis/Normed/
    Group/Basic.lean: ``@[notation_class] class Norm (E : Type*) where norm : E → ℝ``, ``‖e‖`` its notation),
    and ``Complex.abs`` as ``Norm.norm``: on ``ℂ``, the only type it takes, the norm is that absolute value
    (Mathlib/Analysis/Complex/Basic.lean: ``instance : Norm ℂ := ⟨abs⟩``, ``theorem norm_eq_abs (z : ℂ) : ‖z‖ =
    abs z := rfl``; copy red team 35b:
    ``putnam_1975_a2``'s ``‖z‖ < 1`` as ``Complex.abs z < 1`` passed, and no term holding a norm was read)."""
    pairs = abs_pairs(texts, "‖")
    closing = set(pairs.values())
    out: list[str] = []
    for k, text in enumerate(texts):
        if k in pairs:
            out += ["(", "Norm.norm", "("]
        elif k in closing:
            out += [")", ")"]
        else:
            out.append("Norm.norm" if text == "Complex.abs" else text)
    return out
