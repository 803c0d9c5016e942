"""One spelling per notation before ``_answer_contains`` puts a no-answer value and the statement's side
in canonical form: where Lean's grammar has two spellings of the same term, the copy rule reads one.

Red team 21: the question's condition copied with an ASCII spelling of its logic, or with its binder
group split, was no copy to the token comparison, and the text profile accepted it against
``putnam_2024_a1``. Lean reads them as the same term:

* ``exists`` is ``∃`` (src/Init/NotationExtra.lean: ``macro "exists" xs:explicitBinders ", " b:term``
  beside ``macro "∃" ...``, both ``expandExplicitBinders ``Exists``), ``forall`` is ``∀``, ``λ`` is
  ``fun``, ``->`` is ``→``, ``↦`` is ``=>`` (src/Lean/Parser/Term.lean, ``unicodeSymbol``), ``/\\`` is
  ``∧``, ``\\/`` is ``∨``, ``<=`` is ``≤``, ``>=`` is ``≥`` (src/Init/Notation.lean: ``infixr:35 " /\\\\ "
  => And`` beside ``infixr:35 " ∧ " => And``; ``macro_rules | `($x <= $y) => `(binrel% LE.le $x $y)``
  beside ``≤``), ``<->`` is ``↔`` (src/Init/Core.lean, ``infix:20 " <-> " => Iff``). The lexer, which
  knows only core's own multi-character symbols, reads ``/\\`` as ``/`` then ``\\`` (neither has a use
  beside the other), so those pairs are joined here, as the subtype's ``//`` always was.
* ``∃ (a : ℕ) (b : ℕ), B`` is ``∃ (a b : ℕ), B`` (``explicitBinders``: several bracketed groups, each
  one ``∃``): the canonical form skipped a binder's type up to the next binder end (``:``, ``,``...), so
  after the first group's type it took ``b`` for more of the type and never bound it. Each group right
  after a binder is read here without its type, as the first always was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._abs_bars import abs_spelled, norm_spelled
from putnam_solver.core.provers.lean._answer_terms import binder_names
from putnam_solver.core.provers.lean._answer_types import NAMES
from putnam_solver.core.provers.lean._brackets import bracket_partners

ONE: Final = {
    **{"exists": "∃", "forall": "∀", "λ": "fun", "->": "→", "↦": "=>", "<=": "≤", ">=": "≥", "⦃": "(", "⦄": ")"},
    **{"&&": "∧", "||": "∨"},
    **{"rexp": "Real.exp", "cexp": "Complex.exp"},
}
"""ASCII (or second) spellings Lean's grammar gives the same term, one token each (module doc); a strict
implicit binder group ``⦃a b⦄`` is the proposition ``(a b)`` states (copy red team 33: ``∀ ⦃a b⦄, f a = f b
→ a = b`` is ``Function.Injective f`` as Lean defines it); ``Bool``'s ``&&`` and ``||`` are ``∧`` and ``∨``
where a ``Bool`` is read as the proposition ``b = true`` and ``decide p`` as ``p`` (``Bool.and_eq_true``,
``Bool.or_eq_true``; copy red team 34: ``fun n => decide (A n) && decide (B n)`` against ``solution n =
true ↔ A n ∧ B n``); Mathlib's notations ``rexp`` and ``cexp`` are the functions they name
(Mathlib/Data/Complex/Exponential.lean: ``scoped notation "rexp" => Real.exp``; copy red team 35b:
``putnam_1980_b1``'s ``exp`` as ``rexp`` passed)."""
TWO: Final = {
    ("/", "\\"): "∧",
    ("\\", "/"): "∨",
    ("<-", ">"): "↔",
    ("/", "/"): "//",
    ("∃", "!"): "∃!",
    ("⋃", "₀"): "⋃₀",
    ("×", "ˢ"): "×ˢ",
    ("×", "₃"): "×₃",
}
"""Symbols Lean reads as one token that the lexer splits in two: ``/\\``, ``\\/``, ``<->``, the
subtype's ``//`` (``{x // C}``) and Mathlib's ``∃!`` (copy red team 32: read as ``∃`` then ``!``, its
one-point reading was never tried), Mathlib's ``⋃₀`` and ``×ˢ`` (copy red team 33: ``⋃₀ {S}`` was
a binder over ``₀``) and ``×₃`` (copy red team 35b, ``_answer_nodes.INFIX``)."""
GROUP_BINDERS: Final = frozenset({"∀", "∃", "∃!", "∑", "∏", "fun", "⋃", "⋂", "⨆", "⨅"})


def one_spelling(texts: Sequence[str], types: bool) -> list[str]:
    """``texts`` with each notation in one spelling (:data:`ONE`, :data:`TWO`) and, unless ``types``, each
    bracketed binder group after a binder without its type (module doc); an absolute value's bars as
    brackets (``_abs_bars``: no separators)."""
    out: list[str] = []
    for text in texts:
        text = ONE.get(text, text)
        if out and (out[-1], text) in TWO:
            out[-1] = TWO[out[-1], text]
        else:
            out.append(text)
    out = abs_spelled(norm_spelled(out))
    return out if types else _untyped_groups(out)


def grouped_kinds(texts: Sequence[str]) -> dict[str, str]:
    """The number kind (``_answer_types.NAMES``) each name bound in a bracketed group after a binder is written
    with, ``∃ (a b c : ℕ),`` (value red team 49: :func:`one_spelling` takes the type off, so ``_answer_types``
    saw no type of ``a``); a name grouped with two kinds is left out."""
    found: dict[str, str | None] = {}
    partner = bracket_partners(list(texts))
    for i, text in enumerate(texts):
        j = i + 1
        while text in GROUP_BINDERS and j < len(texts) and texts[j] == "(" and j in partner:
            close = partner[j]
            names = binder_names(texts[j : close + 1])
            if names and close - j == len(names) + 3 and texts[close - 2] == ":" and texts[close - 1] in NAMES:
                for name in names:
                    kind = NAMES[texts[close - 1]]
                    found[name] = kind if found.get(name, kind) == kind else None
            j = close + 1
    return {name: kind for name, kind in found.items() if kind is not None}


def untyped_names(texts: Sequence[str]) -> dict[str, str]:
    """Each name a quantifier binds with no type written, ``∃ a b c,`` (value red team 50), as ``"elaborated"``:
    Lean gives it the type its uses elaborate (a numeral's default ``ℕ``, the statement's ``ℤ``), which the common
    factor reading (``_answer_algebra``) takes for a number type where the value ascribes nothing to another
    (``_answer_terms.foreign_types``: ``(x : ZMod 4)``)."""
    found: dict[str, str] = {}
    for i, text in enumerate(texts):
        j = i + 1
        while text in ("∀", "∃") and j < len(texts) and texts[j].isidentifier() and texts[j] not in ("fun", "by"):
            j += 1
        if j > i + 1 and j < len(texts) and texts[j] == ",":
            found.update(dict.fromkeys(texts[i + 1 : j], "elaborated"))
    return found


def _untyped_groups(texts: list[str]) -> list[str]:
    out: list[str] = []
    partner = bracket_partners(texts)
    i, size = 0, len(texts)
    while i < size:
        out.append(texts[i])
        i += 1
        if texts[i - 1] not in GROUP_BINDERS:
            continue
        while i < size and texts[i] == "(" and i in partner:
            names = binder_names(texts[i : partner[i] + 1])  # `(x y : T)`: its names
            if names is None:
                break
            out += ["(", *names, ")"]
            i = partner[i] + 1
    return out
