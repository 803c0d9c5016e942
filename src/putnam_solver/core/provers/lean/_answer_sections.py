"""Two spellings of a function the copy rule read as other terms: a ``·`` section and named arguments.

Red team 27 (Lean, no-answer): against ``putnam_2025_a3_solution n ↔ AliceHasWinningStrategy n`` the
values ``(· ∈ {n | AliceHasWinningStrategy n})`` and ``fun n => AliceHasWinningStrategy (n := n)`` passed
the text profile (the theorem then ``Iff.rfl`` after ``Set.mem_setOf_eq``, or ``Iff.rfl``), while
``fun m => m ∈ {n | AliceHasWinningStrategy n}`` and ``fun n => AliceHasWinningStrategy n`` were refused:
``_answer_copy`` read a section only at the value's top, after the rewrites that take the set-builder off,
and a named argument not at all. Both are rewritten here, wherever they stand, into what Lean elaborates
them to, before those rewrites (``_answer_normal``):

* ``(f · b ·)`` is ``fun x y => f x b y`` (Lean's ``·`` abstracts its nearest enclosing parentheses; one
  inside further brackets of the group is left as written, as ``_answer_shapes.sections`` reads it), with
  fresh names, none of them a name the value uses;
* ``(fun x y => e) (y := b)`` is ``(fun x => e[b/y])``: a named argument of a function whose binders are
  seen, which the statement's own definitions are once unfolded (``_answer_normal.definitions``), so
  ``AliceHasWinningStrategy (n := n)`` is ``HasWinningStrategy n []`` like ``AliceHasWinningStrategy n``.
  A named argument of any other function (an inductive type's, Mathlib's) is left as written: its
  binders' names are not known here.

Each is one left-to-right pass over the value, each group read once: linear.
"""

from __future__ import annotations

from putnam_solver.core.provers.lean._answer_terms import (
    ARROWS,
    CLOSERS,
    FUNS,
    OPEN_CLOSE,
    Text,
    Tokens,
    binder_names,
    is_name,
    lam,
    make_token,
    rewrite,
    substituted,
)

FRESH = "dot_"
"""The head of a section's parameter names (``dot_0``, ``dot_1``...), none of them a name of the value."""


def sections(x: Text) -> Tokens | None:
    """Each ``( .. · .. )`` with a ``·`` at its own level: ``(fun x✝0 .. => ..)``."""
    t = x.t
    used = {token.text for token in t}
    fresh = (name for name in (f"{FRESH}{n}" for n in range(len(t) + len(used) + 1)) if name not in used)

    def match(i: int) -> tuple[Tokens, int] | None:
        close = x.partner[i] if t[i].text == "(" else None
        if close is None or close <= i + 2:  # `(·)` is the identity (``_answer_terms.identity``)
            return None
        dots, depth, whole = [], 0, True
        for k in range(i + 1, close):
            text = t[k].text
            if text in ("by", "fun", "λ") and depth == 0:
                return None  # a tactic block's bullet, or a `·` another `fun` holds
            depth += (text in OPEN_CLOSE) - (text in CLOSERS)
            if text == "·" and depth == 0:
                dots.append(k)
            whole = whole and not (depth == 0 and text in (",", ":"))
        if not dots:
            return None
        names = {k: make_token(next(fresh), t[k]) for k in dots}
        body = [names.get(k, t[k]) for k in range(i + 1, close)]
        if not whole:  # `(·, 1)` is `fun x => (x, 1)`, `(· : ℕ)` is `fun x => (x : ℕ)`
            body = [t[i], *body, t[close]]
        return lam([n.text for n in names.values()], body, t[i]), close + 1

    return rewrite(t, match)


def named_arguments(x: Text) -> Tokens | None:
    """``(fun xs => e) .. (x := a) ..``: ``x`` substituted by ``a`` and left out of the binders, the other
    arguments kept in place (they fill the remaining binders in order, as in Lean)."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        close = x.partner[i] if t[i].text == "(" else None
        if close is None or i + 1 >= close or t[i + 1].text not in FUNS or not x.head(i):
            return None
        arrow = x.find(i + 2, close, ARROWS)
        params = binder_names(t[i + 2 : arrow]) if arrow is not None else None
        if arrow is None or not params:
            return None
        named: dict[str, Tokens] = {}
        kept: Tokens = []
        j = close + 1
        while (end := x.atom(j)) is not None:
            name = _named(x, j, end)
            if name is not None and name in params and name not in named:
                named[name] = list(t[j + 3 : end - 1])
            else:
                kept += t[j:end]
            j = end
        if not named:
            return None
        body = substituted(t, named, arrow + 1, close)
        if body is None:
            return None
        rest = [p for p in params if p not in named]
        return [*lam(rest, body, t[i]), *kept], j

    return rewrite(t, match)


def _named(x: Text, j: int, end: int) -> str | None:
    """The name of the named argument ``(name := value)`` at ``x.t[j:end]``, if it is one."""
    t = x.t
    if t[j].text != "(" or end - j < 5 or not is_name(t[j + 1]) or t[j + 2].text != ":=":
        return None
    return t[j + 1].text if "." not in t[j + 1].text else None
