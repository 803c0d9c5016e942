"""The points a no-answer value writes: every closed term it holds, for ``_answer_restated`` (value red team 44).

Red team 43 tried the question's member condition at each numeral the value writes (``{n | n = 1 ∧ C 1}`` is
``{1}`` or empty, a hedge on ``C 1``). The same hedge at a point written as a term passed: ``{n | n = 2 + 1 ∧
C (2 + 1)}``, ``Nat.succ 0``, ``(1 : ℤ) + 2``, a negative literal ``-3`` (``Int.neg`` of ``3``, no numeral
token of its own), ``3 / 3``, ``Finset.card {0}``. What the point is spelled as does not matter: the
condition at any closed term is one proposition the answer hedges on, and the proof never decides it.

So a point is any closed sub-term of the value's normal form (``_answer_order``: literal arithmetic folded,
``Nat.succ 0`` read as ``1``, casts of literals dropped): a node with no variable of the value in it
(``Node.low`` is -1: no bound variable, no binder), that is a numeral, a negated or cast term, an application
or an arithmetic operation; each written back (:func:`_answer_nodes.render`) once. A proposition or a set is
no point (its kind is left out), and neither is a bare name: an honest value that names a constant of the
statement is read by the copy rule. The caller tries a point only where the value writes every word of one
of the condition's needles, within one work budget (spent: refused).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_nodes import Node, render
from putnam_solver.core.provers.lean._answer_order import terms
from putnam_solver.core.provers.lean._idchars import all_digits

ARITHMETIC: Final = frozenset({"+", "-", "*", "/", "%", "^"})
"""The operators whose closed operation is a number (a point), not a proposition or a set."""


def closed_points(kept: Sequence[str]) -> list[tuple[str, ...]]:
    """Each distinct closed term of ``kept`` (a value in normal form, parentheses kept) that can stand for
    a number (module doc), written back as tokens, in the order first met."""
    found: dict[tuple[str, ...], None] = {}
    todo: list[Node] = list(terms(kept))
    while todo:
        term = todo.pop()
        todo += term.kids
        if term.low < 0 and _number_like(term):
            out: list[str] = []
            render(term, out)
            found.setdefault(tuple(out), None)
    return list(found)


def _number_like(term: Node) -> bool:
    if term.kind == "atom":
        return all_digits(term.text)
    if term.kind == "bin":
        return term.text in ARITHMETIC
    if term.kind == "pre":
        return term.text != "¬"
    return term.kind in ("app", "post") and term.text != "ᶜ"


def at_point(condition: Sequence[str], placeholder: str, point: Sequence[str]) -> list[str]:
    """``condition`` with each ``placeholder`` (its variable, already renamed) read as ``point``: a name as it
    is (also as a field's receiver, ``x.Prime``), a numeral as it is but in parentheses as a field's receiver
    (``(2).eval``: red team 45, ``2.eval`` read as one token lost the point), a longer term in parentheses."""
    out: list[str] = []
    for text in condition:
        head, dot, rest = text.partition(".")
        if head != placeholder:
            out.append(text)
        elif len(point) == 1 and not (dot and all_digits(point[0])):
            out.append(point[0] + dot + rest)
        else:
            out += ["(", *point, ")", *([".", rest] if dot else [])]
    return out
