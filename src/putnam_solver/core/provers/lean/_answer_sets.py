"""Sets in one spelling for the copy rule's normal form (red team 28): a binder predicate and a difference.

``{n ∈ Finset.range N | C n}`` for ``n < N ∧ C n`` and ``{n | C n} \\ Set.Iic 0`` for ``0 < n ∧ C n`` passed
the copy rule: neither is a set-builder of the question's chain to the reader. Read by definition:

* a set-builder with a binder predicate is the set-builder of the predicate and its condition (Mathlib's
  ``Mathlib/Data/Set/Defs.lean``: ``{x ∈ s | p x}``, ``{x ≤ a | p x}``... expand to ``{x | x ∈ s ∧ p x}``,
  ``satisfies_binder_pred%``): :func:`bounded_builder`. The canonical form (``_answer_canonical._canonical``)
  binds the name of ``{x ∈ s | ..}``, and since red team 29 of ``{x ≤ a | ..}``, ``{x ≠ a | ..}``...
  (:func:`predicated`);
* ``x ∈ s \\ t`` is ``x ∈ s ∧ ¬x ∈ t`` (``Set.mem_diff``, ``Finset.mem_sdiff``): ``_answer_commute.member``,
  and ``_answer_cover`` reads ``{x | C} \\ t`` as the set-builder ``{x | C ∧ ¬x ∈ t}``;
* ``s.filter (fun x => C)``, coerced or not, is ``{x | x ∈ s ∧ C}`` to ``_answer_cover`` (:func:`filtered`);
* copy red team 30: ``{x | C}ᶜ`` is ``{x | ¬C}`` (``Set.compl_setOf``) and ``Set.univ \\ s`` is ``sᶜ``
  (``Set.compl_eq_univ_diff``), so ``Set.univ \\ {n | ¬C n}`` and ``{n | ¬C n}ᶜ`` read as ``{n | C n}``
  (:func:`complemented`).
"""

from __future__ import annotations

from collections.abc import Sequence

from putnam_solver.core.provers.lean._answer_commute import applied, binary, chain, negated
from putnam_solver.core.provers.lean._answer_nodes import APP, PREDICATES, Node, bound, is_atom, is_builder, node
from putnam_solver.core.provers.lean._answer_quantifiers import fresh, holds
from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, is_name, make_token, rewrite


def complemented(term: Node) -> Node:
    """``termᶜ``: the set-builder of the negated condition where ``term`` is a set-builder (module doc)."""
    kids = term.kids
    if is_builder(term):
        return node("group", "{", [kids[0], kids[1], negated(kids[2]), kids[3]])
    return node("post", "ᶜ", [term])


def univ_difference(left: Node, right: Node) -> Node | None:
    """``Set.univ \\ right`` as ``rightᶜ`` (module doc); else None."""
    return complemented(right) if left.kind == "atom" and left.text == "Set.univ" else None


def bounded_builder(term: Node, written: Sequence[str]) -> Node:
    """``{x ∈ s | C}`` (any relation between ``x`` and a bound) read as ``{x | x ∈ s ∧ C}``; else ``term``.
    ``written``: the set-builder's first tokens, ``x ∈``, which name ``x`` where the header reads as no
    relation of it any more (copy red team 31: ``{n ∈ {m | P m} | Q n}``, its header read ``P n``, was left
    a set-builder of no name, and the question it restates passed)."""
    kids = term.kids
    if not is_builder(term):
        return term
    header = kids[0]
    if len(written) == 2 and written[1] in PREDICATES and bound(written[0]) >= 0 and "." not in written[0]:
        return node("group", "{", [node("atom", written[0]), kids[1], chain("∧", [header, kids[2]]), kids[3]])
    if header.kind != "bin" or len(header.kids) != 2 or header.text in ("∧", "∨", "∩", "∪", "↔", "→", "->"):
        return term
    names = [kid for kid in header.kids if kid.kind == "atom" and bound(kid.text) >= 0 and "." not in kid.text]
    if len(names) != 1:
        return term
    return node("group", "{", [names[0], kids[1], chain("∧", [header, kids[2]]), kids[3]])


def set_eta(term: Node) -> Node:
    """``{x | x ∈ S}`` read as ``S`` (``Set.setOf_mem_eq``) once its condition is in normal form, where ``S``
    does not hold ``x``; else ``term`` (copy red team 35b: ``{y | (y ∈ S)}`` and ``{x | x ∈ S ∧ True}``, whose
    condition is ``x ∈ S`` only as read, passed against ``solution = S``; ``_answer_reduce.set_builders``
    reads the written form)."""
    kids = term.kids
    if not is_builder(term) or kids[0].kind != "atom":
        return term
    cond, name = kids[2], kids[0].text
    if bound(name) < 0 or cond.kind != "bin" or cond.text != "∈" or len(cond.kids) != 2:
        return term
    element, collection = cond.kids
    return collection if is_atom(element, name) and not holds(collection, name) else term


def filtered(term: Node) -> Node | None:
    """``s.filter (fun x => C)`` (read ``filter s (fun x => C)``), also coerced to a set (``↑``), as the
    set-builder ``{x | x ∈ s ∧ C}`` (``Finset.mem_filter``, ``Finset.mem_coe``); else None."""
    while term.kind == "pre" and term.text == "↑":
        term = term.kids[0]
    while term.kind == "group" and term.text == "(" and len(term.kids) == 2 and term.kids[1].text == ")":
        term = term.kids[0]
    kids = term.kids
    if term.kind != "app" or len(kids) != 3 or kids[0].kind != "atom" or kids[0].text != "filter":
        return None
    return separated(kids[0], kids[1:])


def separated(head: Node, args: Sequence[Node]) -> Node | None:
    """``filter s (fun x => C)`` (``Finset.filter``, its receiver first), ``sep (fun x => C) s`` (``Set.sep``,
    ``Sep.sep``) as ``{x | x ∈ s ∧ C}`` wherever they stand (copy red team 32: ``Finset.mem_filter``,
    ``Set.mem_sep_iff``; ``{x ∈ s | C}`` is read so already, :func:`bounded_builder`); else None."""
    if head.kind != "atom" or head.text not in ("filter", "sep") or len(args) != 2:
        return None
    function, collection = args[::-1] if head.text == "filter" else args
    while function.kind == "group" and function.text == "(" and len(function.kids) == 2:
        function = function.kids[0]
    parts = function.kids
    if function.kind == "binder" and function.text in ("fun", "λ") and len(parts) == 3:
        if parts[0].kind not in ("atom", "part") or bound(parts[0].text) < 0 or "." in parts[0].text:
            return None
        name, condition = node("atom", parts[0].text), parts[2]
    elif function.kind in ("atom", "app"):  # a predicate named, `s.filter (P 0)`: `P 0 x` for a fresh `x`
        name = fresh(function, collection)
        condition = applied(function, [name]) or node("app", "", [*_spine(function), name], APP)
    else:
        return None
    member = binary("∈", name, collection)
    return node("group", "{", [name, node("part", "|"), chain("∧", [member, condition]), node("part", "}")])


def _spine(function: Node) -> list[Node]:
    return function.kids if function.kind == "app" else [function]


def predicated(texts: Sequence[str]) -> frozenset[int]:
    """Where ``texts`` (parentheses dropped) has a set-builder's name with a binder predicate, ``{x ≤ a |
    C}`` (a ``|`` in the same braces): red team 29, ``{n ≤ 10 | C n}`` against ``n ≤ 10 ∧ C n ↔ n ∈
    solution`` passed, its ``n`` a free name to the canonical form, so :func:`bounded_builder` never read
    it. One pass: each brace's first ``|`` marks the name after it, if one with a predicate."""
    found, opened = set(), list[int]()
    for i, text in enumerate(texts):
        if text in ("{", "[", "(", "⟨"):
            opened.append(i)
        elif text in ("}", "]", ")", "⟩") and opened:
            opened.pop()
        elif text == "|" and opened and opened[-1] >= 0 and texts[opened[-1]] == "{" and opened[-1] + 2 < i:
            start = opened.pop()
            opened.append(-1)  # marked once: the brace's later bars are no header's end
            if texts[start + 2] in PREDICATES:
                found.add(start + 1)
    return frozenset(found)


def member_builders(x: Text) -> Tokens | None:
    """A value (or side) ``{x ∈ s | C}`` written as ``{x | x ∈ (s) ∧ (C)}`` before any reading (copy red team
    31: read whole, ``{p ∈ Set.univ | C p.1 p.2}`` met none of the readings of ``{p | C p.1 p.2}`` against a
    pair the solution is applied to, and ``putnam_1998_b4``'s question so restated passed). Inside a term
    the reader reads it so (:func:`bounded_builder`), and its condition stays a needle of its own."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        close = x.partner[i] if t[i].text == "{" and i == 0 else None  # the whole value (or side) only
        if close != len(t) - 1 or i + 3 >= close or not is_name(t[i + 1]) or t[i + 2].text != "∈":
            return None
        bar = x.find(i + 3, close, {"|"})
        if bar is None or bar == i + 3:
            return None
        name, opened, shut = t[i + 1], make_token("(", t[i]), make_token(")", t[i])
        head = [t[i], name, t[bar], name, t[i + 2], opened, *t[i + 3 : bar], shut, make_token("∧", t[i])]
        return [*head, opened, *t[bar + 1 : close], shut, t[close]], close + 1

    return rewrite(t, match)
