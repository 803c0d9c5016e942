"""Sets in one spelling for the copy rule's normal form (red team 28): a binder predicate and a difference.

``{n ∈ Finset.range N | C n}`` for ``n < N ∧ C n`` and ``{n | C n} \\ Set.Iic 0`` for ``0 < n ∧ C n`` passed
the copy rule: neither is a set-builder of the question's chain to the reader. Read by definition:

* a set-builder with a binder predicate is the set-builder of the predicate and its condition (Mathlib's
  ``Mathlib/Data/Set/Defs.lean``: ``{x ∈ s | p x}``, ``{x ≤ a | p x}``... expand to ``{x | x ∈ s ∧ p x}``,
  ``satisfies_binder_pred%``): :func:`bounded_builder`. Only ``∈`` is read so far: the canonical form
  (``_answer_contains._canonical``) binds the name of ``{x ∈ s | ..}`` but not of ``{x ≤ a | ..}``, whose
  ``x`` stays a free name on both sides alike (left: such a copy passes);
* ``x ∈ s \\ t`` is ``x ∈ s ∧ ¬x ∈ t`` (``Set.mem_diff``, ``Finset.mem_sdiff``): ``_answer_commute.member``,
  and ``_answer_cover`` reads ``{x | C} \\ t`` as the set-builder ``{x | C ∧ ¬x ∈ t}``.
"""

from __future__ import annotations

from putnam_solver.core.provers.lean._answer_commute import chain
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
