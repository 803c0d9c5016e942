"""A relation whose arithmetic one ascription lifts, read as ascribed whole, for ``_answer_normal`` (value red
team 52).

``putnam_2018_a1`` asks ``(1 : ℚ) / a + (1 : ℚ) / b = (3 : ℚ) / 2018`` (``a b : ℤ``); its copy ``(1 : ℚ) / a + 1 /
b = 3 / 2018`` passed: the normal form read ``1 / b`` as the integers' division, as its own operands show.
Lean elaborates the operands of ``+ - * / %`` (``binop%``) and of ``= ≠ < ≤ > ≥`` (``binrel%``) as one tree,
every leaf at the widest type among them (``Lean.Elab.Extra``, ``elabBinOp``/``elabBinRel``: "the leaves ..
are coerced to the maximal type"), so one ``(1 : ℚ)`` makes each ``/`` of the relation the field's. So where
a leaf of a relation's tree is ascribed a wider number type (``(e : ℚ)``, read ``(↑ (ascribed) (e))``), each
side that holds ``-``, ``/`` or ``%`` (where the type changes the value) is read ascribed whole, ``(↑
(ascribed) (side))``, as ``_answer_terms.ascription`` reads ``(side : ℚ)``.

Read only where the tokens delimit it: a side runs from the relation to a separator or the bracket that holds
it (at most :data:`REACH` tokens); the tree descends into bracketed arithmetic at an operand's place, not
into a function's argument or an exponent. Reading more as the question only refuses more.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_equalities import RELATIONS, RUN_STOPS
from putnam_solver.core.provers.lean._answer_nodes import ASCRIBED
from putnam_solver.core.provers.lean._answer_terms import CASTS, CLOSERS, OPEN_CLOSE, Text, Tokens, make_token

TRIGGERS: Final = frozenset({ASCRIBED, *CASTS})
COMPARED: Final = frozenset({"=", "≠", "<", "≤", ">", "≥"})
ARITHMETIC: Final = frozenset({"+", "-", "*", "/", "%"})
SENSITIVE: Final = frozenset({"-", "/", "%"})
STOPS: Final = RUN_STOPS | RELATIONS | {"¬", "∀", "∃", "fun", "λ", ":", "∑", "∏"}
REACH: Final = 400


def binop_casts(x: Text) -> Tokens | None:
    """The first relation of ``x`` with a leaf ascribed a wider type read with its sides ascribed (module
    doc); None when there is none."""
    t = x.t
    for r, token in enumerate(t):
        if token.text not in COMPARED:
            continue
        sides = [(_start(x, r), r), (r + 1, _end(x, r + 1))]
        if not any(_tree(x, lo, hi)[0] for lo, hi in sides):
            continue
        wrap = [_tree(x, lo, hi)[1] and not _wrapped(x, lo, hi) for lo, hi in sides]
        if not any(wrap):
            continue
        out = list(t[: sides[0][0]])
        for (lo, hi), wrapped in zip(sides, wrap, strict=True):
            out += _ascribed(t[lo:hi]) if wrapped else t[lo:hi]
            out += [token] if hi == r else []
        return out + list(t[sides[1][1] :])
    return None


def _ascribed(side: Tokens) -> Tokens:
    made = [make_token(text, side[0]) for text in ("(", ASCRIBED, "(")]
    return [*made, *side, make_token(")", side[0]), make_token(")", side[0])]


def _start(x: Text, r: int) -> int:
    k = r - 1
    while k >= 0 and r - k < REACH:
        text = x.t[k].text
        if text in CLOSERS and (partner := x.partner[k]) is not None and partner < k:
            k = partner - 1
        elif text in STOPS or text in OPEN_CLOSE or text in CLOSERS:
            return k + 1
        else:
            k -= 1
    return k + 1 if k < 0 else r


def _end(x: Text, k: int) -> int:
    start = k
    while k < len(x.t) and k - start < REACH:
        if x.t[k].text in STOPS or x.t[k].text in CLOSERS:
            return k
        k = x.skip(k)
    return k if k >= len(x.t) else start


def _wide(x: Text, k: int, close: int) -> bool:
    """Whether the group ``[k, close]`` is ``(e : T)``, ``T`` a wider number type, or already read so."""
    t = x.t
    if k + 1 < close and t[k + 1].text == ASCRIBED:
        return True
    return close - k > 3 and t[close - 1].text in CASTS and x.find(k + 1, close, {":"}) == close - 2


def _wrapped(x: Text, lo: int, hi: int) -> bool:
    return hi > lo and x.t[lo].text == "(" and x.partner[lo] == hi - 1 and _wide(x, lo, hi - 1)


def _tree(x: Text, lo: int, hi: int) -> tuple[bool, bool]:
    """Whether the arithmetic tree of ``[lo, hi)`` has a wide leaf, and whether it holds a sensitive operator."""
    t, wide, sensitive = x.t, False, False
    todo = [(lo, hi)]
    while todo:
        k, end = todo.pop()
        leaf_place = True  # an operand begins here (not an argument, not an exponent)
        while k < end:
            text = t[k].text
            close = x.partner[k] if text == "(" else None
            if close is not None and close < end:
                if leaf_place and _wide(x, k, close):
                    wide = True
                elif leaf_place:
                    todo.append((k + 1, close))
                k, leaf_place = close + 1, False
                continue
            sensitive = sensitive or text in SENSITIVE
            leaf_place = text in ARITHMETIC or text == "↑"
            k = x.skip(k) if text != "^" else (x.skip(k + 1) if k + 1 < end else end)
    return wide, sensitive
