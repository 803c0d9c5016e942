"""The readings of a no-answer value that ``_answer_copy`` compares with the statement's other side.

A copy wrapped in what elaborates to the copy itself is still the copy, and ``rfl``/``Iff.rfl`` still
proves the theorem from it (red team 13): ``id e``, ``show T from e``, a type ascription ``(e : T)``,
``by exact e``, ``let a := b; e`` (``a`` read as ``b``), ``(fun y => e) x`` (``y`` read as ``x``),
``setOf fun x => b`` (``{x | b}``) and ``fun x => x ∈ S`` (``S``). Each is taken off in one left-to-right
walk over windows of the value's tokens, with every bracket's partner, its first ascription colon and
each ``show``'s ``from`` found beforehand in one pass each: linear in the value's length.
"""

from __future__ import annotations

from collections.abc import Sequence

from putnam_solver.core.provers.lean._answer_terms import FUNS, OPEN_CLOSE, TERM_TACTICS, binder_names
from putnam_solver.core.provers.lean._answer_types import Types, written
from putnam_solver.core.provers.lean._idchars import starts_alnum
from putnam_solver.core.provers.lean.syntax import IDENT, Token

BINDING = frozenset({"∀", "∃", "∃!", "∑", "∏", "fun", "λ", "⋃", "⋂", "⨆", "⨅", "let", "show", "have"})
"""Tokens after which a ``:`` belongs to a binder (or ``show``'s type) up to its ``,``/``=>``/``from``."""
BINDING_ENDS = frozenset({",", "=>", "↦", "from", ":=", "|"})


def _plain(token: Token) -> bool:
    return token.kind == IDENT and "." not in token.text and token.text not in (*FUNS, "by", "id", "setOf")


class _Value:
    """The value's tokens with each bracket's partner, each bracket's first ascription colon and each
    ``show``'s ``from`` (one pass each)."""

    def __init__(self, tokens: Sequence[Token]) -> None:
        self.tokens = list(tokens)
        self.texts = [t.text for t in self.tokens]
        n = len(self.texts)
        self.close: list[int | None] = [None] * n
        self.colon: list[int | None] = [None] * n
        self.from_: list[int | None] = [None] * n
        opens: list[int] = [-1]  # the innermost open bracket's index, a binder pending, its pending shows
        binding: list[bool] = [False]
        shows: list[list[int]] = [[]]
        for i, text in enumerate(self.texts):
            if text in OPEN_CLOSE:
                opens.append(i)
                binding.append(False)
                shows.append([])
            elif text in OPEN_CLOSE.values():
                if len(opens) > 1:
                    self.close[opens.pop()] = i
                    binding.pop()
                    shows.pop()
            elif text in BINDING:
                binding[-1] = True
                if text == "show":
                    shows[-1].append(i)
            elif text in BINDING_ENDS:
                if text == "from" and shows[-1]:
                    self.from_[shows[-1].pop()] = i
                binding[-1] = False
            elif text == ":" and not binding[-1] and opens[-1] >= 0 and self.colon[opens[-1]] is None:
                self.colon[opens[-1]] = i

    def after_have(self, lo: int, hi: int) -> int | None:
        """Where the body of the ``have`` at ``lo`` begins: after its value's ``;``, or at the first token
        of a later line no further right than the ``have`` (outside brackets); None if it has none."""
        have = self.tokens[lo]
        assign = next((i for i in range(lo, hi) if self.texts[i] == ":="), None)
        if assign is None:
            return None
        i = assign + 1
        while i < hi:
            token = self.tokens[i]
            if token.text == ";":
                return i + 1 if i + 1 < hi else None
            if i > assign + 1 and token.line > have.line and token.col <= have.col:
                return i
            close = self.close[i]
            i = close + 1 if token.text in OPEN_CLOSE and close is not None else i + 1
        return None

    def enclosed(self, lo: int, hi: int) -> bool:
        return hi - lo >= 2 and self.texts[lo] == "(" and self.close[lo] == hi - 1

    def unwrapped(self, lo: int, hi: int, renames: dict[str, str]) -> tuple[int, int]:
        """``[lo, hi)`` without the wrappers around it that elaborate to what they wrap."""
        texts = self.texts
        while lo < hi:
            if self.enclosed(lo, hi):
                colon = self.colon[lo]
                lo, hi = lo + 1, (colon if colon is not None else hi - 1)
            elif texts[lo] == "id" and hi - lo >= 2 and _argument(texts[lo + 1]):  # not `id '' s` (red team 32)
                lo += 1
            elif texts[lo] == "by" and hi - lo >= 3 and texts[lo + 1] in TERM_TACTICS:
                lo += 2
            elif texts[lo] == "have" and (body := self.after_have(lo, hi)) is not None:
                lo = body  # `have h : P := p; e` is `e` up to a proof
            elif texts[lo] == "show" and (end := self.from_[lo]) is not None and end < hi - 1:
                lo = end + 1
            elif texts[lo] == "let" and hi - lo >= 5 and texts[lo + 2] == ":=" and _plain(self.tokens[lo + 1]):
                if not _plain(self.tokens[lo + 3]):
                    break
                renames[texts[lo + 1]] = renames.get(texts[lo + 3], texts[lo + 3])
                lo += 5 if texts[lo + 4] == ";" else 4
            else:
                break
        return lo, hi


def readings(tokens: Sequence[Token]) -> list[tuple[tuple[str, ...], list[Token], Types]]:
    """The value as (parameters, body with its own names renamed, the number types its binders write for
    the parameters: ``_answer_types.written``) twice: whole and unwrapped (``S = solution`` reads all of
    ``{x | ..}``), and with every parameter layer taken off."""
    value = _Value(tokens)
    texts = value.texts
    renames: dict[str, str] = {}
    lo, hi = value.unwrapped(0, len(texts), renames)
    whole = ((), _renamed_window(value.tokens, lo, hi, dict(renames)), ())
    params: list[str] = []
    kinds: dict[str, str | None] = {}
    while lo < hi:
        start = lo
        if texts[lo] == "setOf" and hi - lo >= 2:
            lo, hi = value.unwrapped(lo + 1, hi, renames)
        if lo >= hi:
            break
        if texts[lo] in FUNS:
            arrow = next((i for i in range(lo, hi) if texts[i] in ("=>", "↦")), None)
            if arrow is None:
                break
            names = binder_names(value.tokens[lo + 1 : arrow], patterns=True)  # a tuple's components
            if names is None:
                break
            for name in names:
                renames.pop(name, None)
            params += names
            kinds |= {texts[k]: written(texts, k) for k in range(lo + 1, arrow) if texts[k] in names}
            lo, hi = value.unwrapped(arrow + 1, hi, renames)
        elif (param := _set_param(value, lo, hi)) is not None:
            renames.pop(param, None)
            params.append(param)
            kinds[param] = written(texts, lo + 1)
            lo, hi = _body_of(value, lo, hi, renames)
        elif params and hi - lo >= 3 and renames.get(texts[lo], texts[lo]) == params[-1] and texts[lo + 1] == "∈":
            # ``fun x => x ∈ S``: the set ``S`` itself, its own parameter read as ``x``
            at, until = value.unwrapped(lo + 2, hi, renames)
            inner = _set_param(value, at, until)
            if inner is None:  # `x ∈ S ∧ P`: no set alone, the body stays whole (red team 27)
                break
            renames[inner] = params[-1]
            lo, hi = _body_of(value, at, until, renames)
        elif texts[lo] == "(" and _redex(value, lo, hi):
            lo, hi = _beta(value, lo, hi, renames)
        if lo == start:
            break
    typed = tuple((name, kind) for name, kind in kinds.items() if kind and name in params)
    return [whole, (tuple(params), _renamed_window(value.tokens, lo, hi, renames), typed)]


def _argument(text: str) -> bool:
    """Whether ``text`` can begin an argument of a function (``id x``, ``id (e)``), and not an infix
    operator after the function itself (``id '' s`` is the image of ``s``, not ``'' s``)."""
    return starts_alnum(text) or text[:1] in "([{⟨_«↑¬∀∃"


def _set_param(value: _Value, lo: int, hi: int) -> str | None:
    """The bound name of a set-builder ``{y | b}`` / ``{y : T | b}`` filling ``[lo, hi)``."""
    texts = value.texts
    if texts[lo] == "{" and value.close[lo] == hi - 1 and hi - lo >= 4 and texts[lo + 2] in ("|", ":"):
        return texts[lo + 1] if _plain(value.tokens[lo + 1]) else None
    return None


def _body_of(value: _Value, lo: int, hi: int, renames: dict[str, str]) -> tuple[int, int]:
    """The condition of the set-builder ``{y | b}`` / ``{y : T | b}`` at ``[lo, hi)``."""
    bar = next((i for i in range(lo + 2, hi) if value.texts[i] == "|"), None)  # after `y` or its type
    if bar is None or value.close[lo] != hi - 1:
        return lo, hi
    return value.unwrapped(bar + 1, hi - 1, renames)


def _redex(value: _Value, lo: int, hi: int) -> bool:
    """``(fun ys => e) xs``: a ``fun`` in brackets applied to plain names up to ``hi``."""
    close = value.close[lo]
    return (
        close is not None
        and value.texts[lo + 1] in FUNS
        and close + 1 < hi
        and all(_plain(t) for t in value.tokens[close + 1 : hi])
    )


def _beta(value: _Value, lo: int, hi: int, renames: dict[str, str]) -> tuple[int, int]:
    close = value.close[lo]
    assert close is not None
    arrow = next((i for i in range(lo, close) if value.texts[i] in ("=>", "↦")), None)
    if arrow is None:
        return lo, hi
    names = binder_names(value.tokens[lo + 2 : arrow])
    args = value.texts[close + 1 : hi]
    if names is None or len(names) != len(args):
        return lo, hi
    for name, arg in zip(names, args, strict=True):
        if name != "_":  # `_` binds nothing
            renames[name] = renames.get(arg, arg)
    return value.unwrapped(arrow + 1, close, renames)


def _renamed_window(tokens: list[Token], lo: int, hi: int, renames: dict[str, str]) -> list[Token]:
    out = []
    for token in tokens[lo:hi]:
        head, dot, rest = token.text.partition(".")
        out.append(token._replace(text=renames[head] + dot + rest) if head in renames else token)
    return out
