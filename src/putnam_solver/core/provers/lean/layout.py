"""The layout rule of the Lean text gates: where whitespace between two tokens can change what Lean
parses, derived from Lean's grammar, and token comparison that honours it (G2 compares a candidate's
statement with the challenge's through :func:`same_tokens`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean.syntax import SYMBOL, Token

# Where whitespace between two tokens can change what Lean parses (Lean 4 sources, leanprover/lean4):
# * `src/Lean/Parser/Term.lean`: `argument` (`checkWsBefore "expected space"`: an application argument
#   needs a space before it, so `f (x)` is an application and `f(x)` is not), `proj` (`checkNoWsBefore >>
#   "." >> checkNoWsBefore`: `h.1`, `(e).f`), `explicitUniv` (`checkNoWsBefore` before `.{`),
#   `namedPattern` (`checkNoWsBefore` before `@`), `pipeProj` (after ` |>.`), `dotIdent` (`"." >>
#   checkNoWsBefore`: `(.f)` versus the `cdot` `(. f)`), `doubleQuotedName`, `letIdLhs` (`x[i]` versus an
#   instance binder), `type`/`sort` (`checkWsBefore` before a universe level);
# * `src/Init/GetElem.lean`: `syntax:max term noWs "[" withoutPosition(term) "]"`, `"]'"`, and `noWs "?"`
#   / `noWs "!"` after the `]`.
# Everywhere else the parser never looks at whitespace: around an infix operator, after an opening or
# before a closing bracket, spacing is layout. Two operator symbols side by side stay glued as they are,
# because a library token could join them (`^[`, `^^^`).
_NO_WS_GUARDED: Final = frozenset({".", "[", "@", "!", "?", "]'", "|>.", "`", "..", "$"})
"""Tokens whose gluing to a neighbour Lean's grammar checks (see above); compared on both sides."""
_INFIX: Final = frozenset(
    {"+", "*", "/", "^", "=", "≠", "<", ">", "≤", "≥", "<=", ">=", "!=", "==", "∣", "%", "∘", "×", "→",
     "->", "↔", "<->", "∧", "∨", "∈", "∉", "⊆", "⊂", "⊇", "⊃", "∩", "∪", "•", "≡", "\\", ",", ":", ":=",
     "=>", "↦", "<|", "|>", "∆", "⊔", "⊓", "≃", "≅", "⬝", "⁻¹'", "''", "×'"}
)  # fmt: skip
"""Infix operators and separators: they can neither begin nor end a term. ``⁻¹'`` and ``''`` are
Mathlib's ``infixl:80 " ⁻¹' " => preimage`` and ``infixl:80 " '' " => image`` (Mathlib/Data/Set/Defs.lean):
``f⁻¹' s`` and ``f ⁻¹' s`` are the same term."""
_CANNOT_END: Final = _INFIX | frozenset({"-", "¬", "∀", "∃", "∃!", "∑", "∏", "⋃", "⋂", "(", "{", "⟨", "⦃"})
"""Tokens after which a term continues (prefix operators, openers): no application can start after them."""
_CANNOT_START: Final = _INFIX | frozenset({")", "}", "⟩", "⦄", "]", "-"})
"""Tokens no application argument begins with: infix operators, closers, and ``-``. Lean's negation is
``prefix:75 "-" => Neg.neg`` (src/Init/Notation.lean, beside ``infixl:65 " - " => HSub.hSub``): a term
it begins has precedence 75, below the ``maxPrec`` an application argument needs (src/Lean/Parser/Term.lean,
``app``'s ``argPrec``), so ``y -3``, ``y - 3`` and ``y-3`` are all the subtraction ``y - 3``."""
_BRACKETS: Final = frozenset({"(", ")", "{", "}", "⟨", "⟩", "⦃", "⦄", "[", "]"})


def _operator(token: Token) -> bool:
    return token.kind == SYMBOL and token.text not in _BRACKETS


def spacing_matters(before: Token, token: Token) -> bool:
    """Whether Lean could read ``before token`` differently from ``beforetoken`` (same two tokens)."""
    if before.text in _NO_WS_GUARDED or token.text in _NO_WS_GUARDED:
        return True
    if _operator(before) and _operator(token):
        return True
    return not (before.text in _CANNOT_END or token.text in _CANNOT_START)


def same_tokens(a: Sequence[Token], b: Sequence[Token]) -> bool:
    """Equal as Lean sees them: same kinds and texts, and the same gluing where the grammar checks it."""
    return len(a) == len(b) and first_difference(a, b) is None


def first_difference(a: Sequence[Token], b: Sequence[Token]) -> int | None:
    """Index of the first token where ``b`` differs from ``a`` as Lean sees them (kind, text, or gluing
    where :func:`spacing_matters`), or None when the common prefix agrees."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x.kind != y.kind or x.text != y.text:
            return i
        if i and x.spaced != y.spaced and spacing_matters(a[i - 1], x):
            return i
    return None
