"""What a no-answer value may not hold: the statement's side and the conditions and bodies it binds.

The copy rule (``_answer_copy``) refuses a value that CONTAINS a needle as a sub-expression
(``_answer_contains``; red team 18: ``A n ∧ True``, ``{x | x ∈ S ∧ True}``, ``Nat.card {x // C}`` held the
copy in padding that changes nothing). The needles are the other side (read with the statement's
definitions unfolded and as written) and the conditions and bodies it binds, three levels down (a
set-builder's condition, also of a set the side applies a function to, ``Set.ncard {x | C}``, and a
binder's body, ``∑ j ∈ s, B``, ``P ∧ (∀ x, Q x)``), so that ``{n | C ∧ True}``, ``∑ j ∈ s, (B + 0)``
and ``P ∧ ∀ x, Q x ∧ True`` are found too. An honest closed form never holds the question it answers;
a value that holds it and still proves the theorem is the question padded.

What counts as a needle, so that a trivial side refuses nothing:

* a question (:func:`is_question`): at least two tokens, and a name that is not one of the names the
  solution is applied to, or a bound variable (the side binds something to solve for). A side of one
  token (``h``, ``S``, ``0``), or one made only of the solution's arguments and literals (``n + 1``), is
  a closed form the statement states, and an honest answer may hold it (``(n + 1) * 2``). It must be a
  whole term: brackets balanced (an absolute value's bars are a pair, ``_abs_bars``), no ``,``/``:``/``|``
  outside a binder's header, no binder without its body (a reading of the side cut at a binder's comma,
  ``∑ j ∈ s``, would refuse every sum over ``s``);
* a body or condition must also be big enough to ask alone (:func:`asks_more`: a name of the
  challenge's own applied, three tokens with a name or binder, or :data:`UNNAMED` tokens; ``0 < x``
  under a set-builder is none); ``{f x | x > 0}``'s ``x > 0`` binds ``x`` and is no condition;
* no needle names a variable the theorem binds (``syntax.bound_names``: where Lean reads a binder,
  not every name in a bracket, red team 21; beside the solution's arguments): a value holds it only
  by binding the same name itself, where the canonical form does not know the binder (``∑' m, 1 / m
  ^ 2`` against ``∃ m, m ^ 2 = ..``). Hypotheses that define a variable are unfolded in a second
  reading of the side (``_answer_copy``), whose needles name no such variable.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_binding import Signature, marked, outside, signatures
from putnam_solver.core.provers.lean._answer_canonical import BINDERS, NUMBERED
from putnam_solver.core.provers.lean._answer_nodes import CLOSERS, INFIX, OPEN_CLOSE, bound
from putnam_solver.core.provers.lean._answer_types import PATTERN
from putnam_solver.core.provers.lean._idchars import starts_letter, starts_term

BODIES: Final = frozenset({",", "=>", "↦"})
"""What ends a binder's header: its body follows."""
SEPARATORS: Final = frozenset({",", "=>", "↦", "|", "//", ":=", ";", "<|", "|>", "$"})
KEYWORDS: Final = frozenset({"then", "else", "if", "in", "from", "do", "return", "with"})
POSTFIX: Final = frozenset({"ᶜ", "!", "⁻¹", "ᵀ", "ᴴ", "†"})
DEPTH: Final = 3
UNNAMED: Final = 12
"""How long a body of bound names, literals and operators alone must be to be a question (``0 < a ∧ 0 < b
∧ 2*a^n = 4*c^n`` is; ``0 < x``, ``x ^ 2 = 2`` and ``0 < n ∧ n % 2 = 1`` are not)."""


def atom_end(text: str) -> bool:
    return ((starts_term(text) or text[:1] == "#") and text not in KEYWORDS) or text in CLOSERS or text in POSTFIX


def is_question(kept: Sequence[str], args: Sequence[str]) -> bool:
    """Whether the side (canonical, parentheses kept) is a whole term that asks something (module doc)."""
    texts = [t for t in kept if t not in ("(", ")")]
    asks = any(
        bound(t) >= 0 or ((starts_letter(t) or t[:1] == "«") and t not in args and t not in KEYWORDS) for t in texts
    )
    if len(texts) < 2 or not asks or kept[0] in INFIX or kept[0] in SEPARATORS or not atom_end(kept[-1]):
        return False
    depth, header = 0, False
    for text in kept:
        if text in OPEN_CLOSE:
            depth += 1
        elif text in CLOSERS:
            depth -= 1
            if depth < 0:
                return False
        elif depth == 0 and text in BINDERS:
            header = True
        elif depth == 0 and header and text in BODIES:
            header = False
        elif depth == 0 and not header and (text in SEPARATORS or text in (":", ":=")):
            return False
    return depth == 0 and not header


def needles(
    kept: Sequence[str],
    args: Sequence[str],
    local: frozenset[str] = frozenset(),
    own: frozenset[str] = frozenset(),
    depth: int | None = None,
    typed: Sequence[str] = (),
) -> list[tuple[list[str], list[str], dict[str, Signature]]]:
    """What the value may not hold (plain and with parentheses): the side itself, if it is a question, and
    the condition or body it binds, if that is one and names something or binds something itself: a
    set-builder's condition (``{x | C}``, ``{x // C}``, also as an argument, ``Set.ncard {x | C}``) and a
    leading binder's body (``∑ j ∈ s, B``, ``∀ x, B``), down to :data:`DEPTH` levels. A value that holds the
    condition under its own binder, ``{n | C ∧ True}``, is the question re-bound. ``depth`` 0: the side alone.
    Each with its variables bound outside it and their binders (``_answer_binding.outside``), a quantifier's
    domain marked by ``typed``, the side read with binders' types kept (``_answer_binding.marked``)."""
    found: list[tuple[list[str], list[str], dict[str, Signature]]] = []
    sites = signatures([t for t in kept if t not in ("(", ")")], BINDERS | NUMBERED)
    sites = marked(sites, [t for t in typed if t not in ("(", ")")]) if typed else sites
    todo = [(list(kept), 0)]
    while todo:
        part, level = todo.pop()
        part = unwrapped(part)
        whole = is_question(part, args)
        named = {t.partition(".")[0] for t in part if bound(t) < 0} & local
        if whole and (level == 0 or asks_more(part, args, own)) and named <= set(args):
            plain = [t for t in part if t not in ("(", ")")]
            found.append((plain, part, outside(plain, sites, BINDERS | NUMBERED)))
        if (whole or level) and level < (
            DEPTH if depth is None else depth
        ):  # a reading of the side that is no whole term: nothing in it
            todo += [(body, level + 1) for body in _bodies(part)]
    return found


def unwrapped(kept: list[str]) -> list[str]:
    while len(kept) >= 2 and kept[0] == "(" and partner(kept, 0) == len(kept) - 1:
        kept = kept[1:-1]
    return kept


def asks_more(kept: Sequence[str], args: Sequence[str], own: frozenset[str]) -> bool:
    """A body big enough to be a question alone: a name of the challenge's own (``own``) applied (``A x``
    under ``{x | A x}``), three tokens or more with a name or a binder (``f x = 0``, ``Nat.choose (k + j)
    j``, ``0 < n ∧ ∃ a, ..``), or :data:`UNNAMED` tokens of bound names, literals and operators. Below
    that a body is a fragment (``P x``, ``0 < x``) an honest condition may repeat."""
    texts = [t for t in kept if t not in ("(", ")")]
    if len(texts) >= 2 and not own.isdisjoint(texts):
        return True
    named = any(
        t in BINDERS or ((starts_letter(t) or t[:1] == "«") and t not in args and t not in KEYWORDS) for t in texts
    )
    return len(texts) >= (3 if named else UNNAMED)


def _bodies(kept: list[str], nested: int = 0) -> list[list[str]]:
    """The conditions of the set-builders outside brackets (or that the side is) before the first binder
    outside brackets, and that binder's body (to the side's end); also of the terms in parentheses there
    (``P ∧ (∀ x, Q x)``), which are no needles themselves."""
    out = []
    depth = 0
    for i, text in enumerate(kept):
        if text in BINDERS and depth == 0 and (sep := _find(kept, i, len(kept), BODIES)) is not None:
            out.append(kept[sep + 1 :])  # the body runs to the side's end
            break
        if text == "(" and depth == 0 and nested < DEPTH and (close := partner(kept, i)) is not None:
            out += _bodies(kept[i + 1 : close], nested + 1)
        if text == "{" and depth == 0 and (close := partner(kept, i)) is not None:
            bar = _find(kept, i + 1, close, {"|", "//"})
            head = kept[i + 1 : bar if bar is None or kept[i + 2] not in ("∈", "∉") else i + 2]
            binder = bar is not None and all(bound(t) >= 0 or t in PATTERN for t in head)
            if binder and bar is not None:  # not `{f x | x > 0}`, whose `x > 0` binds `x`
                out.append(kept[bar + 1 : close])
        depth += (text in OPEN_CLOSE) - (text in CLOSERS)
    return out


def _find(kept: Sequence[str], lo: int, hi: int, wanted: Collection[str]) -> int | None:
    """The first of ``wanted`` in ``kept[lo:hi]`` outside the brackets opened there."""
    depth = 0
    for j in range(lo, hi):
        if depth == 0 and kept[j] in wanted:
            return j
        depth += (kept[j] in OPEN_CLOSE) - (kept[j] in CLOSERS)
    return None


def partner(kept: Sequence[str], i: int) -> int | None:
    depth = 0
    for j in range(i, len(kept)):
        depth += (kept[j] in OPEN_CLOSE) - (kept[j] in CLOSERS)
        if depth == 0:
            return j
    return None
