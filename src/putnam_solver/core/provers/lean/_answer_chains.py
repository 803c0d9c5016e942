"""A question that is itself a chain, found inside a longer chain of the value by its operands, in any order.

The contains rule (``_answer_contains``) looks for the statement's side as a run of the value's tokens. A
side that is a chain of ``∧``, ``∨``, ``∩`` or ``∪`` (``0 < n ∧ Nat.Prime n``) held among more operands of
the same operator (``{n | 0 < n ∧ Nat.Prime n ∧ n = 3}``) was a run only when the sorted operands (or the
written ones) happened to put the side's operands side by side: whether the value was refused depended on
the order its operands sort in, not on what it holds (honest 27's ``xfail``). The contains rule now reads
such a side by its operands, as ``_answer_cover`` reads the value whole:

* where the chain's operator may pad the side (``_answer_cover.PADDED`` for a question,
  ``_answer_cover.WIDENING`` for a premise of a compared use), the value holds the side when some chain of
  that operator in it has every operand of the side among its own, each by a different operand, in any
  order and place (:func:`held_by_operands`), bound variables renamed one to one across the operands;
* where it may not (a premise beside more by ``∧``/``∩``: the answer restricted to the statement's domain,
  an honest spelling), a run that is only part of a longer chain of that operator holds nothing
  (:func:`inside_longer`), whichever operands happen to sort beside it. So for any premise, chain or not:
  ``{n | P n ∧ 2 < n} ∩ {n | n % 4 = 1}`` was refused where ``{n | P n ∧ 2 < n ∧ n % 4 = 1}`` passed.

Each node visited and each token compared is charged to the copy rule's work budget.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_binding import anywhere
from putnam_solver.core.provers.lean._answer_needles import partner
from putnam_solver.core.provers.lean._answer_nodes import Node, bound, is_builder, renamed, render, unparenthesized
from putnam_solver.core.provers.lean._answer_order import terms

CHAINS: Final = frozenset({"∧", "∨", "∩", "∪"})
RESTRICTING: Final = frozenset({"∧", "∩"})
"""What a premise may stand beside (where they do not pad it) as the answer restricted to the domain."""


def chain_of(side_kept: Sequence[str]) -> Node | None:
    """The side read as one chain of a :data:`CHAINS` operator, or a set-builder or ``fun`` of one name
    whose body is one (``{n | A n ∧ B n}``), if it is one."""
    read = terms(side_kept)
    term = unparenthesized(read[0]) if len(read) == 1 else None
    return term if term is not None and _chain(_body(term)) else None


def _chain(term: Node | None) -> bool:
    return term is not None and term.kind == "bin" and term.text in CHAINS


def _body(term: Node) -> Node | None:
    """The chain ``term`` is, or the body of the set-builder ``{x | body}`` or ``fun x => body`` it is."""
    if is_builder(term) or (term.kind == "binder" and term.text in ("fun", "λ") and len(term.kids) == 3):
        return unparenthesized(term.kids[2])
    return term if term.kind == "bin" else None


def operator(side: Node) -> str:
    """The operator of the chain :func:`chain_of` read."""
    body = _body(side)
    return body.text if body is not None else ""


def inside_longer(kept: Sequence[str], lo: int, hi: int, ops: Collection[str]) -> bool:
    """Whether the run ``kept[lo:hi]`` (a whole term) stands beside one of ``ops``, once the parentheses
    around exactly it are taken in: an operand, or a stretch of operands, of a longer chain of it."""
    lo, hi = _outer(kept, lo, hi)
    builder = lo >= 3 and hi < len(kept) and kept[lo - 3 : lo] == ["{", kept[lo - 2], "|"] and kept[hi] == "}"
    if builder and bound(kept[lo - 2]) >= 0 and partner(kept, lo - 3) == hi:  # the whole condition of `{x | run}`:
        lo, hi = _outer(kept, lo - 3, hi + 1)  # that set beside them
    return (lo >= 1 and kept[lo - 1] in ops) or (hi < len(kept) and kept[hi] in ops)


def _outer(kept: Sequence[str], lo: int, hi: int) -> tuple[int, int]:
    """The run ``kept[lo:hi]`` with the parentheses around exactly it taken in."""
    while lo >= 1 and hi < len(kept) and kept[lo - 1] == "(" and kept[hi] == ")" and partner(kept, lo - 1) == hi:
        lo, hi = lo - 1, hi + 1
    return lo, hi


def held_by_operands(
    kept: Sequence[str], side: Node, budget: list[int], scoped: Callable[[Mapping[str, str]], bool] = anywhere
) -> bool:
    """Whether some chain of ``side``'s operator in the value ``kept`` has every operand of ``side`` among
    its own (module doc), the side's variables bound outside it renamed to ones ``scoped`` accepts."""
    chain = _body(side)
    if chain is None:
        return False
    wanted = Counter(unparenthesized(kid).key for kid in chain.kids)
    todo = list(terms(kept))
    while todo:
        term = todo.pop()
        budget[0] -= 1
        if budget[0] < 0:
            budget[1] = 1
            return False
        todo += term.kids
        if chain is not side and (
            term.kind != side.kind or term.text != side.text or len(term.kids) != 4 - (term.kind == "binder")
        ):
            continue  # a set-builder or `fun` of the chain: one of the same kind, its one name bound alike
        body = _body(term) if chain is not side else term
        if body is None or body.kind != "bin" or body.text != chain.text or len(body.kids) < len(chain.kids):
            continue
        if wanted <= Counter(unparenthesized(kid).key for kid in body.kids) and _matched(
            body.kids, chain.kids, budget, scoped
        ):
            return True
    return False


def _matched(
    operands: Sequence[Node], wanted: Sequence[Node], budget: list[int], scoped: Callable[[Mapping[str, str]], bool]
) -> bool:
    """Each of ``wanted`` written like a different one of ``operands``, bound variables renamed one to one
    across all of them (a greedy match: where it misses, the value passes as it did before this rule)."""
    ahead: dict[str, str] = {}
    back: dict[str, str] = {}  # the needle's bound variables to the value's
    free = [_tokens(op) for op in operands]
    for term in wanted:
        mine = _tokens(term)
        budget[0] -= len(mine) * len(free)
        found = next((i for i, theirs in enumerate(free) if renamed(theirs, mine, ahead, back)), None)
        if found is None:
            return False
        free.pop(found)
    return scoped(back)


def _tokens(term: Node) -> list[str]:
    out: list[str] = []
    render(unparenthesized(term), out)
    return out
