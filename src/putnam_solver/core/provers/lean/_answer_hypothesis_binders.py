"""A condition bound as a hypothesis, read as the connective it is, for ``_answer_normal`` (value red team 52).

``putnam_2024_a1`` asks ``∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ E``; its copy with the bounds bound as
hypotheses, ``∃ (a : ℕ) (_ : 0 < a) (b : ℕ) (_ : 0 < b) (c : ℕ) (_ : 0 < c), E`` or ``∃ (a b c : ℕ) (_ : 0 <
a ∧ 0 < b ∧ 0 < c), E``, passed. An existential over a proof is the conjunction (``exists_prop``: ``(∃ (_ :
P), Q) ↔ P ∧ Q``) and a universal over one the implication (``∀ (_ : P), Q`` is ``P → Q``, the same term),
so the group ``(h : P)`` of a binder is read ``∃ earlier, P ∧ ∃ later, body`` (``→`` for ``∀``), where the
name ``h`` is ``_`` or used nowhere after it.

Read only where the tokens delimit it: every group of the header is bracketed, and ``P`` is a proposition
because a relation or a connective stands in it outside brackets (``(_ : ℕ)`` binds a number, no
hypothesis). Reading more as the question only refuses more.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_divisibility import LOOSE, outside
from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, is_name, make_token

TRIGGERS: Final = frozenset({"∃", "∀"})
LINKS: Final = {"∃": "∧", "∀": "→"}
NOT_SHOWN: Final = frozenset(
    {"+", "-", "%", ":", ",", "|", ":=", "=>", "↦", "fun", "λ", "∑", "∏", "if", "then", "→", "->"}
)
PROPOSITIONAL: Final = LOOSE - NOT_SHOWN
"""What shows a bound type to be a proposition (a relation, a connective, a quantifier; not ``→``, which a
function type writes too)."""


def hypothesis_binders(x: Text) -> Tokens | None:
    """The first hypothesis bound by a quantifier of ``x`` read as ``∧``/``→`` (module doc); None if none."""
    for i in range(len(x.t)):
        found = _hypothesis(x, i)
        if found is not None:
            return [*x.t[:i], *found, *x.t[x.end[i] :]]
    return None


def _groups(x: Text, i: int) -> tuple[list[tuple[int, int]], int] | None:
    """The bracketed groups of the header of the ``∃``/``∀`` at ``i`` and its ``,``; None for another header."""
    groups, k = [], i + 1
    while k < len(x.t) and x.t[k].text == "(" and (close := x.partner[k]) is not None:
        groups.append((k, close + 1))
        k = close + 1
    return (groups, k) if groups and k < len(x.t) and x.t[k].text == "," else None


def _hypothesis(x: Text, i: int) -> Tokens | None:
    t = x.t
    if t[i].text not in LINKS or (found := _groups(x, i)) is None:
        return None
    groups, comma = found
    end = x.end[i]
    for g, (lo, hi) in enumerate(groups):
        if hi - lo < 5 or t[lo + 2].text != ":" or not (is_name(t[lo + 1]) or t[lo + 1].text == "_"):
            continue
        inner = Text(list(t[lo + 3 : hi - 1]))
        if not any(inner.t[k].text in PROPOSITIONAL for k in outside(inner, 0, len(inner.t))):
            continue
        name = t[lo + 1].text
        if name != "_" and any(u.text == name or u.text.startswith(name + ".") for u in t[hi:end]):
            continue
        like = t[i]
        rest: Tokens = [t[i], *t[hi:comma], t[comma]] if g + 1 < len(groups) else []
        body = [make_token("(", like), *rest, *t[comma + 1 : end], make_token(")", like)]
        linked = [make_token("(", like), *inner.t, make_token(")", like), make_token(LINKS[t[i].text], like), *body]
        return [t[i], *t[groups[0][0] : lo], t[comma], *linked] if g else linked
    return None
