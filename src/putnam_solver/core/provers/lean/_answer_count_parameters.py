"""Which of a no-answer solution's parameters the statement only ever gives positive numbers (red team 43).

``fun n => {d : ℕ | d ∣ n}.ncard`` counts the divisors of ``n``, a finite set for ``n > 0`` and every number
at ``n = 0`` (where the count is a junk ``0``: :mod:`_answer_count_domains`). The junk is harmless where the
statement never asks about ``n = 0``: ``putnam_2003_a1`` states ``(n : ℕ) (hn : n > 0) : .. =
putnam_2003_a1_solution n``, so only the value at a positive ``n`` is ever proved anything of, and there the
count is of a finite set.

So a parameter (its position ``j``) is positive when every mention of the solution in the statement is in
the theorem, heading its own application there (not an argument: ``Nat.iterate sol n 0`` applies it
at ``0``), with a ``j``-th argument that is a name the theorem's signature binds once and
states positive by a hypothesis binder of its own (``(h : n > 0)``, ``(h : 0 < n)``, ``(h : n ≥ 1)``, ``(h :
1 ≤ n)``, ``(h : n ≠ 0)``, ``(h : 0 ≠ n)``; since false rejections 44 any numeral bound that implies it,
``n ≥ 2``), and no binder inside the theorem (``∀ n,``, ``fun n``, ``{n | ..}``:
:func:`_number_decisions.bindings`) rebinds that name where the solution is applied; or (false rejections
44, ``putnam_1965_a5``) a name the conclusion's own head ``∀ n > 0,`` binds, innermost where the solution
is applied (since false rejections 46 a ``∀ n > 0,`` anywhere in the conclusion). A dependent arrow ``(n : ℕ) → ..``
is a ``∀``: read as a binder of ``n`` (since false rejections 47, :func:`_number_decisions.bindings`; before, any
dependent arrow left no parameter positive, ``putnam_2023_b3``'s ``(IsZigZag : {k : ℕ} → ..)`` too). A statement whose
bindings are not read (``match``, ``let``...), a mention outside the theorem, an argument in brackets: no parameter is
positive (fail closed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._brackets import bracket_partners
from putnam_solver.core.provers.lean._number_decisions import BINDERS, Binding, bindings
from putnam_solver.core.provers.lean.syntax import IDENT, NUMBER, Statement, Token, name_parts, normalize_name

_ENDS: Final = frozenset({")", "]", "}", "⟩", "⦄", "|>.", "∘"})
"""Tokens after which a name is an argument (``f (x) sol``), a field's function or composed, not applied."""
_UNREAD: Final = frozenset({"match", "let", "have", "by", "where", "show", "calc", "do", "with"})


def positive_parameters(expected: Statement, solution: str) -> frozenset[int]:
    """The positions of the parameters of the solution named ``solution`` that every mention of it in
    ``expected`` gives a name the theorem states positive (module doc)."""
    theorem = expected.theorem
    for command in expected.commands:
        if command is not theorem and command.name != solution and any(_mentions(t, solution) for t in command.tokens):
            return frozenset()
    tokens = theorem.tokens[theorem.head + 2 : expected.proof_assign]
    texts = [t.text for t in tokens]
    partner = bracket_partners(texts)
    colon = _top_colon(texts, partner)
    if colon is None or _UNREAD.intersection(texts):
        return frozenset()
    found = bindings(tokens, partner, ())
    if not found and any(text in BINDERS or text == "{" for text in texts):
        return frozenset()  # binders the reader gave up on
    stated = _stated_positive(tokens, partner, colon)
    heads = _positive_heads(tokens, colon)
    mentions = [k for k, t in enumerate(tokens) if _mentions(t, solution)]
    positive: set[int] = set()
    if any(k > 0 and not _heads(tokens[k - 1]) for k in mentions):
        return frozenset()  # `Nat.iterate sol n 0`: given to a function, applied where the text does not say
    for j in range(max((_arity(tokens, k) for k in mentions), default=0)):
        names = [_argument(tokens, k, j) for k in mentions]
        if mentions and all(
            name is not None and _given_positive(found, stated, heads, name, k)
            for name, k in zip(names, mentions, strict=True)
        ):
            positive.add(j)
    return frozenset(positive)


def _given_positive(found: Sequence[Binding], stated: set[str], heads: set[int], name: str, k: int) -> bool:
    """Whether ``name`` at the mention ``k`` is a parameter the signature states positive that no binder
    rebinds there, or a ``∀ n > 0,`` of the conclusion (its ``∀`` in ``heads``) binds it innermost."""
    inner = max((b for b in found if b.name == name and b.start < k < b.end), key=lambda b: b.start, default=None)
    return (inner is None and name in stated) or (inner is not None and inner.start in heads)


def _positive_heads(tokens: Sequence[Token], colon: int) -> set[int]:
    """Where the conclusion holds ``∀ n > 0,`` (a binder predicate, Lean's ``∀ n, n > 0 → ..``; ``≥ 1``,
    ``≠ 0`` and any numeral bound that makes it positive too, :func:`_positive_claim`): its ``∀``. At the
    conclusion's head (false rejections 44) or anywhere in it (46: ``∀ m, ∀ n > 0,``, ``True ∧ ∀ n > 0,``):
    ``∀ n, n > 0 → B n`` holds or fails by ``B`` at positive ``n`` alone, whatever stands around it."""
    texts = [t.text for t in tokens]
    return {
        k
        for k in range(colon + 1, len(tokens) - 4)
        if texts[k] == "∀"
        and texts[k + 4] == ","
        and tokens[k + 1].kind == IDENT
        and _positive_claim(texts[k + 1 : k + 4]) == texts[k + 1]
    }


def _mentions(token: Token, solution: str) -> bool:
    return token.kind == IDENT and name_parts(normalize_name(token.text))[0] == solution


def _heads(before: Token) -> bool:
    """Whether a mention after ``before`` heads its own application (not an argument of another)."""
    return before.kind not in (IDENT, NUMBER) and before.text not in _ENDS


def _top_colon(texts: Sequence[str], partner: dict[int, int]) -> int | None:
    """The ``:`` between the theorem's signature and its conclusion."""
    k = 0
    while k < len(texts):
        if texts[k] == ":":
            return k
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    return None


def _stated_positive(tokens: Sequence[Token], partner: dict[int, int], colon: int) -> set[str]:
    """The names the signature (before ``colon``) binds once and states positive by a hypothesis."""
    bound: dict[str, int] = {}
    stated: set[str] = set()
    k = 0
    while k < colon:
        close = partner.get(k, k)
        if close <= k:
            return set()  # a bare name or symbol at the signature's top level: not read
        inner = [t.text for t in tokens[k + 1 : close]]
        if ":" in inner:
            split = inner.index(":")
            for name in inner[:split]:
                bound[name] = bound.get(name, 0) + 1
            if (claimed := _positive_claim(inner[split + 1 :])) is not None:
                stated.add(claimed)
        k = close + 1
    return {name for name in stated if bound.get(name) == 1}


def _positive_claim(claim: Sequence[str]) -> str | None:
    """The name a claim of three words states positive (``n > 0``, ``0 < n``, ``n ≥ 1``, ``1 ≤ n``, ``n ≠ 0``,
    ``0 ≠ n``; since false rejections 44 any numeral bound that implies it: ``n ≥ 2``, ``n > 1``), else
    None."""
    if len(claim) != 3:
        return None
    left, relation, right = claim
    if relation in ("<", "≤") and left.isdigit():
        relation, left, right = {"<": ">", "≤": "≥"}[relation], right, left
    if relation == "≠" and left == "0":
        left, right = right, left
    if not right.isdigit() or left.isdigit():
        return None
    bound = int(right)
    positive = {">": bound >= 0, "≥": bound >= 1, "≠": bound == 0}.get(relation, False)
    return left if positive else None


def _arity(tokens: Sequence[Token], k: int) -> int:
    """How many names follow the mention at ``k`` as its arguments."""
    n = 0
    while k + 1 + n < len(tokens) and _argument(tokens, k, n) is not None:
        n += 1
    return n


def _argument(tokens: Sequence[Token], k: int, j: int) -> str | None:
    """The ``j``-th argument of the mention at ``k`` where it and all before it are plain names, else None."""
    for at in range(k + 1, k + 2 + j):
        if at >= len(tokens) or tokens[at].kind != IDENT or len(name_parts(normalize_name(tokens[at].text))) != 1:
            return None
    return tokens[k + 1 + j].text
