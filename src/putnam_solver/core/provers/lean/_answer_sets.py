"""Sets in one spelling for the copy rule's normal form (red team 28): a binder predicate and a difference.

``{n ∈ Finset.range N | C n}`` for ``n < N ∧ C n`` and ``{n | C n} \\ Set.Iic 0`` for ``0 < n ∧ C n`` passed
the copy rule: neither is a set-builder of the question's chain to the reader. Read by definition:

* a set-builder with a binder predicate is the set-builder of the predicate and its condition (Mathlib's
  ``Mathlib/Data/Set/Defs.lean``: ``{x ∈ s | p x}``, ``{x ≤ a | p x}``... expand to ``{x | x ∈ s ∧ p x}``,
  ``satisfies_binder_pred%``): :func:`bounded_builder`. Only ``∈`` is read so far: the canonical form
  (``_answer_contains._canonical``) binds the name of ``{x ∈ s | ..}`` but not of ``{x ≤ a | ..}``, whose
  ``x`` stays a free name on both sides alike (left: such a copy passes);
* ``x ∈ s \\ t`` is ``x ∈ s ∧ ¬x ∈ t`` (``Set.mem_diff``, ``Finset.mem_sdiff``): ``_answer_commute.member``,
  and ``_answer_cover`` reads ``{x | C} \\ t`` as the set-builder ``{x | C ∧ ¬x ∈ t}``;
* ``s.filter (fun x => C)``, coerced or not, is ``{x | x ∈ s ∧ C}`` to ``_answer_cover`` (:func:`filtered`).
"""

from __future__ import annotations

from putnam_solver.core.provers.lean._answer_commute import binary, chain
from putnam_solver.core.provers.lean._answer_nodes import Node, bound, node


def bounded_builder(term: Node) -> Node:
    """``{x ∈ s | C}`` (any relation between ``x`` and a bound) read as ``{x | x ∈ s ∧ C}``; else ``term``."""
    kids = term.kids
    if term.kind != "group" or term.text != "{" or len(kids) != 4 or kids[1].kind != "part" or kids[1].text != "|":
        return term
    header = kids[0]
    if header.kind != "bin" or len(header.kids) != 2 or header.text in ("∧", "∨", "∩", "∪", "↔", "→", "->"):
        return term
    names = [kid for kid in header.kids if kid.kind == "atom" and bound(kid.text) >= 0 and "." not in kid.text]
    if len(names) != 1:
        return term
    return node("group", "{", [names[0], kids[1], chain("∧", [header, kids[2]]), kids[3]])


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
    function = kids[2]
    while function.kind == "group" and function.text == "(" and len(function.kids) == 2:
        function = function.kids[0]
    parts = function.kids
    if function.kind != "binder" or function.text not in ("fun", "λ") or len(parts) != 3:
        return None
    if parts[0].kind not in ("atom", "part") or bound(parts[0].text) < 0 or "." in parts[0].text:
        return None
    name = node("atom", parts[0].text)
    member = binary("∈", name, kids[1])
    return node("group", "{", [name, node("part", "|"), chain("∧", [member, parts[2]]), node("part", "}")])
