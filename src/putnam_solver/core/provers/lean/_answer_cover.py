"""A copy padded inside a chain of ``∧``, ``∨``, ``∩`` or ``∪``: the question's operands all held, and more.

The copy rule compares a value with the statement's side in one normal form (``_answer_order``), in which
a chain of an associative and commutative operator is read flat and its operands sorted. A copy padded with
one more operand, ``{n | 0 < n ∧ Q n ∧ 0 ≤ n}`` against ``0 < n ∧ Q n ↔ n ∈ solution``, ``Q n ∨ n < 0``,
``S ∩ {n | 0 ≤ n}``, ``∀ f, 0 ≤ 0 → C f → P f → f = 0`` (``→`` is read as ``¬ ∨``), or the set split in
two, ``{n | 0 < n} ∩ {n | Q n}``, was neither equal to the side nor holding it as a run of tokens: the
padding sorts in between the question's operands. Each was accepted, the theorem then following from a
fact about the padding alone, and the answer check can say no more than ``unknown``. Red team 27 (found
at merge) closes the class by meaning of the chains: a value COVERS the side when it is the side, or a
chain of one of these operators whose operands cover every operand of the side's chain of the same
operator (or the side itself, when the side is no such chain), each by a different operand, or a term
built like the side whose parts cover the side's parts in place; a ``∩``/``∪`` of set-builders with one
header is read as the one set-builder it is, an interval beside them as the set-builder of its bounds, and
``{x | C} \\ t`` as ``{x | C ∧ ¬x ∈ t}`` (red team 28, ``_answer_bounds``, ``_answer_sets``).
An honest closed form never holds every operand of the
question it answers.

Operands are matched by their keys (``_answer_nodes``: bound variables' numbers left out, since padding
with a binder renumbers those bound after it). Each node visited is charged to the copy rule's work budget
(``_answer_normal.work_for``), whose exhaustion refuses the value unread, as every other reading does.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from putnam_solver.core.provers.lean._answer_bounds import INTERVALS
from putnam_solver.core.provers.lean._answer_commute import NORMAL, binary, chain, negated
from putnam_solver.core.provers.lean._answer_nodes import (
    Node,
    bound,
    is_builder,
    node,
    renamed,
    render,
    unparenthesized,
)
from putnam_solver.core.provers.lean._answer_order import terms
from putnam_solver.core.provers.lean._answer_quantifiers import substituted
from putnam_solver.core.provers.lean._answer_sets import filtered
from putnam_solver.core.provers.lean._answer_types import TYPES, Types
from putnam_solver.core.provers.lean._idchars import starts_letter

PADDED: Final = frozenset({"∧", "∨", "∩", "∪"})
"""The operators a copy can be padded in: associative, commutative, and with a unit or absorbing element
that a closed fact reaches (``True``, ``False``, ``Set.univ``, ``∅``)."""
SET_OF: Final = {"∩": "∧", "∪": "∨"}
"""``{x | P} ∩ {x | Q}`` is ``{x | P ∧ Q}`` (Mathlib's ``Set.setOf_and``), ``∪`` likewise with ``∨``
(``Set.setOf_or``): a question's set split in two is the question."""
WIDENING: Final = frozenset({"∨", "∪"})
"""The padding that still copies a PREMISE of the solution's use (``_answer_extremal.PREMISES``): against
``∀ x, P x → solution x``, ``fun x => P x ∨ R x`` makes the theorem hold by its shape. A premise with more
beside it by ``∧``/``∩``, ``{ab | ab.1 > 0 ∧ ab.2 > 0 ∧ ab.1 = ab.2}``, is the answer restricted to the
statement's domain (an honest spelling): what it adds is what remains to be proved."""


def covers(copy: Sequence[str], side: Sequence[str], budget: list[int], padded: frozenset[str] = PADDED) -> bool:
    """Whether the value ``copy`` covers the statement's ``side`` (module doc); both in normal form, with
    their parentheses. ``padded``: the operators whose chains may pad it (:data:`WIDENING` for a premise)."""
    if not _words(tuple(side)) <= _words(tuple(copy)):  # a word of the side the copy lacks: no operand can match it
        return False
    held, wanted = _one_term(tuple(copy), TYPES.get()), _one_term(tuple(side), TYPES.get())
    return held is not None and wanted is not None and _covers(held, wanted, budget, padded, Renaming())


@lru_cache(maxsize=16)
def _words(texts: Sequence[str]) -> frozenset[str]:
    """The names that keys keep (no bound variables): a ``∩`` of set-builders covers a ``∧`` (:data:`SET_OF`)
    and an interval its bounds (``_answer_bounds``), so operators and numerals are no such words."""
    return frozenset(t for t in texts if starts_letter(t) and bound(t) < 0 and t not in INTERVALS)


@lru_cache(maxsize=16)
def _one_term(texts: tuple[str, ...], types: Types) -> Node | None:
    """The copy rule compares one value with several readings of the side: each is read once (per
    statement's ``types``, which the identities read: ``_answer_types``)."""
    read = terms(texts)
    return unparenthesized(read[0]) if len(read) == 1 else None


def _covers(held: Node, wanted: Node, budget: list[int], padded: frozenset[str], names: Renaming) -> bool:
    """Whether ``held`` covers ``wanted`` with their bound variables renamed one to one, consistently with
    ``names`` (which it extends on success only)."""
    budget[0] -= 1
    if budget[0] < 0:
        budget[1] = 1
        return False
    held, wanted = _one_set(unparenthesized(held)), unparenthesized(wanted)
    if held.key == wanted.key and names.extend(held, wanted, budget):
        return True
    if held.kind == "bin" and held.text in padded:
        operands = wanted.kids if wanted.kind == "bin" and wanted.text == held.text else [wanted]
        return _each_held(held.kids, operands, budget, padded, names)
    if held.kind != wanted.kind or held.text != wanted.text or len(held.kids) != len(wanted.kids) or not held.kids:
        return False
    trial = names.copy()
    if all(_covers(h, w, budget, padded, trial) for h, w in zip(held.kids, wanted.kids, strict=True)):
        names.update(trial)
        return True
    return False


class Renaming:
    """The value's bound variables read as the side's, one to one (copy red team 30: keys leave the numbers
    out, so ``∀ k, ∃ j, C j k`` covered ``∀ j, ∃ k, C j k``, each operand's variables matched apart)."""

    def __init__(self) -> None:
        self.forward: dict[str, str] = {}
        self.backward: dict[str, str] = {}

    def copy(self) -> Renaming:
        made = Renaming()
        made.update(self)
        return made

    def update(self, other: Renaming) -> None:
        self.forward.update(other.forward)
        self.backward.update(other.backward)

    def extend(self, held: Node, wanted: Node, budget: list[int]) -> bool:
        """Whether ``held`` is ``wanted`` written alike with bound variables renamed consistently with the
        renaming so far, which is then extended (tokens charged to ``budget``)."""
        mine: list[str] = []
        theirs: list[str] = []
        render(held, mine)
        render(wanted, theirs)
        budget[0] -= len(mine)
        return renamed(mine, theirs, self.forward, self.backward)


def _one_set(term: Node) -> Node:
    """A ``∩``/``∪`` of set-builders with one header read as the one set-builder it is (:data:`SET_OF`)."""
    if (builder := filtered(term)) is not None:  # `↑(s.filter fun x => C)` is `{x | x ∈ s ∧ C}`
        return builder
    if term.kind == "bin" and term.text == "\\" and len(term.kids) == 2 and is_builder(unparenthesized(term.kids[0])):
        header, bar, condition, close = unparenthesized(term.kids[0]).kids  # `{x | C} \ t` is `{x | C ∧ ¬x ∈ t}`
        if header.kind != "atom" or bound(header.text) < 0:  # (``_answer_sets``)
            return term
        body = chain("∧", [condition, negated(binary("∈", header, term.kids[1]))])
        return node("group", "{", [header, bar, body, close])
    if term.kind != "bin" or term.text not in SET_OF:
        return term
    parts = [unparenthesized(kid) for kid in term.kids]
    builders = [part for part in parts if is_builder(part)]
    if not builders or len({part.kids[0].key for part in builders}) != 1:
        return term
    header, bar, _, close = builders[0].kids
    if header.kind != "atom" or bound(header.text) < 0:
        return term  # beside them an interval is the set-builder of its bounds (``_answer_bounds``), any set
    bodies = [_condition(part, header) if is_builder(part) else binary("∈", header, part) for part in parts]
    return node("group", "{", [header, bar, chain(SET_OF[term.text], bodies), close])


def _condition(builder: Node, header: Node) -> Node:
    """The condition of the set-builder ``builder`` on the variable ``header`` (each set-builder binds its
    own: ``{#0 | C #0} ∩ {#1 | D #1}`` is ``{#0 | C #0 ∧ D #0}``)."""
    name = builder.kids[0]
    if name.kind != "atom" or name.text == header.text:
        return builder.kids[2]
    return substituted(NORMAL, builder.kids[2], name.text, header) or builder.kids[2]


def _each_held(
    operands: Sequence[Node], wanted: Sequence[Node], budget: list[int], padded: frozenset[str], names: Renaming
) -> bool:
    """Each of ``wanted`` covered by a different one of ``operands``: equal keys first, then the rest in
    order (a greedy match: where it misses, the copy passes as it did before this rule), one renaming of
    bound variables across them all."""
    if len(wanted) > len(operands):
        return False
    free = list(operands)
    trial = names.copy()
    rest = []
    for term in wanted:
        key = unparenthesized(term).key
        same = next(
            (i for i, op in enumerate(free) if unparenthesized(op).key == key and _tried(op, term, budget, trial)), None
        )
        if same is None:
            rest.append(term)
        else:
            free.pop(same)
    for term in rest:
        found = next((i for i, op in enumerate(free) if _covers(op, term, budget, padded, trial)), None)
        if found is None:
            return False
        free.pop(found)
    names.update(trial)
    return True


def _tried(held: Node, wanted: Node, budget: list[int], names: Renaming) -> bool:
    return names.extend(unparenthesized(held), unparenthesized(wanted), budget)
