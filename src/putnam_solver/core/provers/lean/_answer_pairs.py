"""A tuple's names read as its projections, for ``_answer_normal``: a one-case ``match`` or ``let`` on a tuple
pattern (:func:`tuple_pattern`), and a pair pinned by an equation under ``∃`` (:func:`pair_point`).

Copy red team 33: ``{p | ∃ a b, p = (a, b) ∧ C}``, the pattern set-builder ``{(a, b) | C}`` written out,
passed; it reads as ``C`` with ``p.1``, ``p.2`` for ``a``, ``b``. Copy red team 34: the same with the
equation written after the condition (``∃ a b, C ∧ p = (a, b)``), among more conjuncts, with the names in
typed groups (``∃ (a b : ℤ),``, ``∃ (a : ℤ) (b : ℤ),``) or bound one ``∃`` at a time (``∃ a, ∃ b,``) passed:
Lean reads each as the same proposition (``∧`` is associative and commutative, ``explicitBinders`` makes one
``∃`` per name), so each is read here as the first was.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_terms import (
    BINDERS,
    Text,
    Tokens,
    is_name,
    lam,
    make_token,
    rewrite,
    substituted,
)
from putnam_solver.core.provers.lean.syntax import Token

PROJECTIONS: Final = {2: ("1", "2"), 3: ("1", "2.1", "2.2")}
"""The fields of a pair's and a triple's components, as the lexer reads ``p.2.1`` (``p``, ``.``, ``2.1``)."""
LOOSER: Final = frozenset({"∨", "→", "->", "↔", "<->", "\\/"})
"""The operators a conjunction is an operand of, outside brackets."""


def tuple_pattern(x: Text, j: int, scrutinee: Token) -> tuple[dict[str, Tokens], int]:
    """The names a one-case ``match`` pattern at ``x.t[j]`` binds, each with what it stands for (a name or
    ``_``: ``scrutinee``; a tuple of names ``(a, b, c)`` or ``⟨a, b, c⟩``: its projections), and where the
    pattern ends; no names and ``j`` where it is neither."""
    t = x.t
    if is_name(t[j]) or t[j].text == "_":
        return ({t[j].text: [scrutinee]}, j + 1) if "." not in t[j].text else ({}, j)
    close = x.partner[j] if t[j].text in ("(", "⟨") else None
    if close is None or "." in scrutinee.text:
        return {}, j
    parts = [token for token in t[j + 1 : close] if token.text != ","]
    if len(parts) not in PROJECTIONS or len(parts) * 2 - 1 != close - j - 1:
        return {}, j
    if not all((is_name(p) and "." not in p.text) or p.text == "_" for p in parts):
        return {}, j
    fields = zip(parts, PROJECTIONS[len(parts)], strict=True)
    dot = make_token(".", scrutinee)
    return {p.text: [scrutinee, dot, make_token(f, scrutinee)] for p, f in fields if p.text != "_"}, close + 1


def pair_point(x: Text) -> Tokens | None:
    """``∃ a b, p = (a, b) ∧ C`` (``(a, b) = p``, ``⟨a, b⟩``, a triple; the equation any conjunct; the names
    typed or not, in groups or bound one ``∃`` at a time): the other conjuncts with ``p.1`` for ``a`` and
    ``p.2`` for ``b`` (``Prod.exists``, ``exists_eq_left``; module doc). Not where an operator looser than
    ``∧`` follows (``p = (a, b) ∧ A ∨ B`` is ``(p = (a, b) ∧ A) ∨ B``); a binder's body is one conjunct."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        end = x.end[i]
        bound = _names(x, i, end) if t[i].text == "∃" else None
        if bound is None or len(bound[0]) < 2 or len(set(bound[0])) != len(bound[0]):
            return None
        names, j = bound
        if j >= end or x.find(j, end, LOOSER) is not None:
            return None
        parts = _conjuncts(x, j, end)
        for k, (lo, hi) in enumerate(parts):
            fields = _pinned(x, lo, hi)
            if fields is None or set(fields) != set(names) or len(parts) < 2:
                continue
            rest: Tokens = []
            for lo2, hi2 in parts[:k] + parts[k + 1 :]:
                rest += [*([make_token("∧", t[i])] if rest else []), *t[lo2:hi2]]
            body = substituted(rest, fields)
            return (lam([], body, t[i]), end) if body is not None else None
        return None

    return rewrite(t, match)


def _names(x: Text, i: int, end: int) -> tuple[list[str], int] | None:
    """The names ``∃`` at ``i`` binds, with those of each ``∃`` that is all its body (``∃ a, ∃ b,``), and
    where the innermost body begins; None where a binder is not plain names (typed or not)."""
    t, names = x.t, []
    while i < end and t[i].text == "∃" and x.end[i] == end:
        comma = x.find(i + 1, end, {","})
        if comma is None:
            return None
        k = i + 1
        while k < comma and t[k].text == "(" and (close := x.partner[k]) is not None and close < comma:
            group = _plain(t, k + 1, close)
            if group is None:
                return None
            names += group
            k = close + 1
        if k < comma:  # `∃ (a : ℤ) b,` is no binder list Lean reads
            group = None if k > i + 1 else _plain(t, k, comma)
            if group is None:
                return None
            names += group
        i = comma + 1
    return names, i


def _plain(t: Tokens, lo: int, hi: int) -> list[str] | None:
    """The names of ``a b`` or ``a b : T`` in ``t[lo:hi]``, None if it is something else."""
    names: list[str] = []
    for token in t[lo:hi]:
        if token.text == ":":
            return names or None
        if not is_name(token) or "." in token.text:
            return None
        names.append(token.text)
    return names or None


def _conjuncts(x: Text, j: int, end: int) -> list[tuple[int, int]]:
    """The operands of the conjunction ``x.t[j:end]``, outside brackets; from a binder on, one operand."""
    t, parts, lo, k = x.t, [], j, j
    while k < end:
        if t[k].text in BINDERS or t[k].text == "if":
            break
        if t[k].text == "∧":
            parts.append((lo, k))
            lo = k + 1
        k = x.skip(k)
    parts.append((lo, end))
    return parts


def _pinned(x: Text, lo: int, hi: int) -> dict[str, Tokens] | None:
    """The projections ``p = (a, b)`` or ``(a, b) = p`` in ``x.t[lo:hi]`` gives the tuple's names."""
    t = x.t
    if hi - lo < 3:
        return None
    if is_name(t[lo]) and t[lo + 1].text == "=":
        whole, pattern, after = t[lo], lo + 2, x.skip(lo + 2)
    elif t[lo].text in ("(", "⟨") and x.skip(lo) + 2 == hi and t[x.skip(lo)].text == "=":
        whole, pattern, after = t[hi - 1], lo, hi
    else:
        return None
    if after != hi or not is_name(whole) or t[pattern].text not in ("(", "⟨"):
        return None
    fields, closed = tuple_pattern(x, pattern, whole)
    return fields if closed != pattern and whole.text not in fields else None
