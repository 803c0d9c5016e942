"""Membership by definition, for the copy rule's normal form (``_answer_commute``; red teams 27, 29).

``x ∈ {y | P y}`` restated the question ``P x`` and passed while membership was a term of its own: each
membership whose collection unfolds is read as what it unfolds to (:func:`member`): a set-builder, ``setOf
p``, ``∩``, ``∪``, ``ᶜ``, ``\\``, ``×ˢ`` (copy red team 33), an interval (``_answer_bounds``), ``Set.univ``,
``∅``, a literal ``{a, b}``, and a collection behind an ascription (``({n} : Set ℕ)``).
"""

from __future__ import annotations

from putnam_solver.core.provers.lean import _answer_quantifiers as quantifiers
from putnam_solver.core.provers.lean._answer_bounds import interval_bounds
from putnam_solver.core.provers.lean._answer_dots import last_name
from putnam_solver.core.provers.lean._answer_nodes import APP, Build, Node, bound, is_atom, node, projected, tuple_parts


def member(build: Build, element: Node, collection: Node) -> Node | None:
    """``element ∈ collection`` where the collection is read (red team 27): ``x ∈ {y | P y}`` is ``P x``
    (``Set.mem_setOf_eq``, by definition), ``x ∈ S ∩ T`` is ``x ∈ S ∧ x ∈ T``, ``∪`` likewise with ``∨``
    (``Set.mem_inter_iff``, ``Set.mem_union``), ``x ∈ Sᶜ`` is ``¬x ∈ S``, ``x ∈ Set.univ`` is ``True`` and
    ``x ∈ ∅`` is ``False``; else None."""
    kids = collection.kids
    if collection.kind == "group" and collection.text == "(" and len(kids) == 4 and kids[1].text == ":":
        return build.binary("∈", element, kids[0])  # `x ∈ ({n} : Set ℕ)`: the ascription is no term (red team 29)
    if collection.kind == "bin" and collection.text in ("∩", "∪"):
        junction = "∧" if collection.text == "∩" else "∨"
        return build.chain(junction, [build.binary("∈", element, kid) for kid in collection.kids])
    if collection.kind == "post" and collection.text == "ᶜ":
        return build.negated(build.binary("∈", element, collection.kids[0]))
    if collection.kind == "bin" and collection.text == "\\" and len(collection.kids) == 2:  # `Set.mem_diff`
        return build.chain(
            "∧",
            [
                build.binary("∈", element, collection.kids[0]),
                build.negated(build.binary("∈", element, collection.kids[1])),
            ],
        )
    if (bounds := interval_bounds(element, collection)) is not None:  # `x ∈ Set.Ici a` (``_answer_bounds``)
        return build.chain("∧", [build.binary(*b) for b in bounds])
    if (factors := _factors(collection)) is not None:  # `x ∈ S ×ˢ T` is `x.1 ∈ S ∧ x.2 ∈ T` (`Set.mem_prod`)
        parts = [projected(element, f) for f in ("1", "2")]
        return build.chain("∧", [build.binary("∈", part, factor) for part, factor in zip(parts, factors, strict=True)])
    if is_atom(collection, "Set.univ") or is_atom(collection, "∅"):
        return node("atom", "True" if collection.text == "Set.univ" else "False")
    if collection.kind == "app" and is_atom(collection.kids[0], "setOf") and len(collection.kids) == 2:
        return _applied_to(build, collection.kids[1], element)  # `x ∈ setOf p` is `p x`
    if (elements := listed(collection)) is not None:  # `x ∈ {a, b}` is `x = a ∨ x = b` (`Set.mem_insert_iff`)
        return build.chain("∨", [build.binary("=", element, e) for e in elements])
    if collection.kind == "group" and collection.text == "{" and len(kids) == 4 and kids[1].text == "|":
        name = kids[0].text if kids[0].kind in ("atom", "part") else ""
        if bound(name) >= 0 and kids[1].kind == "part" and not quantifiers.holds(element, name):
            return quantifiers.substituted(build, kids[2], name, element)
        return _matched(build, element, kids[0], kids[2])
    return None


def _matched(build: Build, element: Node, pattern: Node, condition: Node) -> Node | None:
    """``(a, b) ∈ {(x, y) | C}`` as ``C`` with ``a`` for ``x`` and ``b`` for ``y`` (copy red team 32: the
    pattern set-builder is ``{p | match p with | (x, y) => C}``, by definition); else None."""
    names, parts = tuple_parts(pattern), tuple_parts(element)
    if names is None or parts is None or len(names) != len(parts):
        return None
    if any(n.kind not in ("atom", "part") or bound(n.text) < 0 or "." in n.text for n in names):
        return None
    if any(quantifiers.holds(part, n.text) for part in parts for n in names):
        return None
    read: Node | None = condition
    for name, part in zip(names, parts, strict=True):
        read = quantifiers.substituted(build, read, name.text, part) if read is not None else None
    return read


def _factors(collection: Node) -> tuple[Node, Node] | None:
    """``S`` and ``T`` where ``collection`` is ``S ×ˢ T`` or ``Set.prod S T`` (read ``prod S T``; a longer
    ``×ˢ`` chain nests to the right), else None."""
    kids = collection.kids
    if collection.kind == "bin" and collection.text == "×ˢ" and len(kids) >= 2:
        return kids[0], kids[1] if len(kids) == 2 else node("bin", "×ˢ", kids[1:], collection.prec)
    if collection.kind == "app" and len(kids) == 3 and is_atom(kids[0], "prod"):
        return kids[1], kids[2]
    return None


def _applied_to(build: Build, function: Node, argument: Node) -> Node | None:
    """``function argument``: a ``fun`` of one bound name read by substitution, a name by its last
    component (as the reader reads a name applied, ``_answer_dots.last_name``), an application extended."""
    kids = function.kids
    if function.kind == "binder" and function.text in ("fun", "λ") and len(kids) == 3 and bound(kids[0].text) >= 0:
        if kids[0].kind not in ("atom", "part"):
            return None
        return quantifiers.substituted(build, kids[2], kids[0].text, argument)
    if function.kind == "atom":
        head = node("atom", last_name(function.text))
        return build.applied(head, [argument]) or node("app", "", [head, argument], APP)
    if function.kind == "app":
        return build.applied(kids[0], [*kids[1:], argument]) or node("app", "", [*kids, argument], APP)
    return None


def listed(collection: Node) -> list[Node] | None:
    """The elements of a set literal ``{a, b, c}`` (``{a}``: ``Set.mem_singleton_iff``), else None."""
    kids = collection.kids
    if collection.kind != "group" or collection.text != "{" or len(kids) % 2 or kids[-1].text != "}":
        return None
    elements, commas = kids[0:-1:2], kids[1:-1:2]
    if any(e.kind == "part" for e in elements) or any(c.kind != "part" or c.text != "," for c in commas):
        return None
    return elements


def a_set(term: Node) -> bool:
    """Whether ``term`` is written as a set: a set-builder or literal, or ``setOf p``."""
    return (term.kind == "group" and term.text == "{") or (term.kind == "app" and is_atom(term.kids[0], "setOf"))
