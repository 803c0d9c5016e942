"""Quantifiers in one form, for the copy rule's normal form (``_answer_commute``; red teams 27, 29).

A copy of a question that quantifies passed in another spelling of the same quantifier. Each is read as
the one form Lean proves it equal to:

* one-point quantifiers (red team 27; ``_answer_normal`` reads only an equation written first): ``∃ m, P m
  ∧ m = e``, ``∃! m, P m ∧ m = e`` (red team 32) and ``∀ m, m = e → P m`` (``∀ m, P m ∨ m ≠ e``) are ``P e``,
  the equation anywhere in the chain
  (:func:`quantified`, by :func:`substituted`);
* a binder predicate written out (red team 29): ``∀ x ∈ s, P`` is ``∀ x, x ∈ s → P``, ``∃ x > 0, P`` is ``∃
  x, 0 < x ∧ P``;
* the quantifiers of one name among a junction's operands read as one: ``(∀ x, A) ∧ (∀ y, B)`` is ``∀ x, A
  ∧ B``, ``∃``/``∨`` alike (:func:`merged`);
* the set relations that unfold to a quantifier: ``S ⊆ T``, ``S = Set.univ``, ``S = ∅`` (:func:`quantifying`),
  and ``{x | C}.Nonempty`` (:func:`every`).

A substitution rebuilds the body it substitutes in, at most the term's depth times its size
(``_answer_commute``'s module doc).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_nodes import (
    AC,
    APP,
    INFIX,
    NEUTRAL,
    PREDICATES,
    Build,
    Node,
    bound,
    component,
    is_atom,
    is_builder,
    node,
    projected,
)

MERGED: Final = {"∧": "∀", "∨": "∃"}
"""The quantifier each junction distributes over (``forall_and``, ``exists_or``)."""
FRESH: Final = 10**6
"""Bound variables a set's quantifier is read with: ``#`` and this plus the height of what it binds over, so
that one read inside another's operands never has its number (the canonical form numbers from 0)."""


def quantified(build: Build, text: str, header: list[Node], separator: Node, body: Node, level: int) -> Node:
    """The binder ``text header separator body``, a one-point quantifier read as its body (red team 27):
    ``∃ m, P m ∧ m = e`` is ``P e`` (``exists_eq_right``), ``∀ m, m = e → P m`` (read ``¬m = e ∨ P m``) is
    ``P e`` (``forall_eq``), and ``∃! m, P m ∧ m = e`` is too (red team 32: any witness is ``e``), wherever
    the equation stands among the conjuncts (disjuncts) and whichever way it is turned; ``e`` may not hold
    ``m``. The canonical form numbers each binding apart, so substituting ``e`` captures nothing."""
    header, body = _prenex(build, text, *_unbounded(build, text, header, body))
    name = header[0].text if header and header[0].kind in ("atom", "part") and bound(header[0].text) >= 0 else None
    plain = len(header) == 1 or (len(header) >= 2 and header[1].kind == "part" and header[1].text == ":")
    if text in ("∃", "∀") and name is not None and plain and (split := _components(build, body, name)) is not None:
        return quantified(build, text, split[0], separator, split[1], level)
    if text in ("∃", "∀", "∃!") and name is not None and plain:
        junction = "∨" if text == "∀" else "∧"
        operands = body.kids if body.kind == "bin" and body.text == junction else [body]
        for k, operand in enumerate(operands):
            value = _pinned(operand, name, text == "∀")
            if value is None:
                continue
            rest = [substituted(build, o, name, value) for j, o in enumerate(operands) if j != k]
            if all(r is not None for r in rest):
                return build.chain(junction, [r for r in rest if r is not None] or [node("atom", NEUTRAL[junction])])
    if text in IDEMPOTENT and _vacuous(header, body, name):
        return body
    if text in INDEXED and name is not None and plain and (element := _builder_element(body)) is not None:
        swapped = _swapped(build, body.kids[2], name, element.text)  # numbered as `{c | ∀ x, ..}` is
        if swapped is not None:
            inner = [node("part", element.text), *header[1:], separator]
            condition = quantified(build, INDEXED[text], inner[:-1], separator, swapped, 0)
            return node("group", "{", [node("atom", name), body.kids[1], condition, body.kids[3]])
    return node("binder", text, [*header, separator, body], level)


INDEXED: Final = {"⋂": "∀", "⋃": "∃"}
"""An indexed intersection (union) of set-builders is the set-builder of the ``∀`` (``∃``) over the index
(Mathlib/Data/Set/Lattice.lean: ``theorem iInter_setOf (P : ι → α → Prop) : ⋂ i, {x | P i x} = {x | ∀ i, P i x}``,
``Set.iUnion_setOf``; copy red team 35b: ``putnam_1980_b1``'s ``{c | ∀ x, C x c}`` as ``⋂ x, {c | C x c}``
passed)."""


def _builder_element(term: Node) -> Node | None:
    """The one bound name of the set-builder ``{c | P}`` ``term`` is, else None (a pattern, a typed
    element, any other term)."""
    kids = term.kids
    return kids[0] if is_builder(term) and kids[0].kind == "atom" and bound(kids[0].text) >= 0 else None


def _swapped(build: Build, term: Node, first: str, second: str) -> Node | None:
    """``term`` with the bound names ``first`` and ``second`` exchanged: the canonical form numbers binders
    as they are written, and the index written before the set-builder's element is bound after it once the
    ``⋂`` is read as the ``∀`` inside."""
    spare = fresh(term).text
    step = substituted(build, term, first, node("atom", spare))
    step = step and substituted(build, step, second, node("atom", first))
    return step and substituted(build, step, spare, node("atom", second))


IDEMPOTENT: Final = frozenset({"∃", "∀", "⋃", "⋂"})
"""Binders whose body, when it does not hold the bound name, is their value over an inhabited type (not ``∑``:
``∑ _ : Fin 2, c`` is ``2 • c``)."""
INHABITED: Final = frozenset({"Unit", "PUnit", "ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "Nat", "Int", "Rat", "Real", "Complex"})


def _vacuous(header: list[Node], body: Node, name: str | None) -> bool:
    """Whether the binder of ``header`` over ``body`` binds one name (or ``_``) that ``body`` does not
    hold, over no type or an inhabited one (red team 32: ``∃ _ : Unit, P`` restated ``P``): it is then its
    body. Not over a type that may be a proposition, ``∃ _ : A n, True``, whose meaning is in the type (a
    reading without types has none; no honest answer quantifies over an empty type to say ``True``)."""
    if not header or header[0].kind not in ("atom", "part") or (name is None and header[0].text != "_"):
        return False
    typed = len(header) == 3 and header[1].text == ":" and header[2].kind == "atom" and header[2].text in INHABITED
    return (len(header) == 1 or typed) and (name is None or not holds(body, name))


def proposition(term: Node) -> Node | None:
    """``term`` where it may be a proposition, through ``PLift``/``ULift`` (``Nonempty (PLift C)`` is ``C``:
    ``nonempty_plift``); None for a number type or a set-builder (``S.Nonempty`` is no proposition
    inhabited)."""
    if term.kind == "app" and len(term.kids) == 2 and term.kids[0].text in ("PLift", "ULift"):
        return proposition(term.kids[1])
    if (term.kind == "atom" and term.text in INHABITED) or (term.kind == "group" and term.text in ("{", "⟨")):
        return None
    return term


def _pinned(operand: Node, name: str, negative: bool) -> Node | None:
    """``e`` where ``operand`` is ``name = e`` or ``e = name`` (``¬(..)`` if ``negative``) and ``e`` does
    not hold ``name``."""
    if negative:
        if operand.kind != "pre" or operand.text != "¬":
            return None
        operand = operand.kids[0]
    if operand.kind != "bin" or operand.text != "=" or len(operand.kids) != 2:
        return None
    for mine, other in (operand.kids, operand.kids[::-1]):
        if mine.kind == "atom" and mine.text == name and not holds(other, name):
            return other
    return None


def holds(term: Node, name: str) -> bool:
    if term.kind in ("atom", "part"):
        return term.text.partition(".")[0] == name
    return any(holds(kid, name) for kid in term.kids)


def substituted(build: Build, term: Node, name: str, value: Node) -> Node | None:
    """``term`` with the bound variable ``name`` replaced by ``value``, rebuilt in normal form; None where
    it stands as the head of a field (``#1.card``) in a stretch read as written and ``value`` is no atom."""
    if term.kind in ("atom", "part"):
        head, dot, rest = term.text.partition(".")
        if head != name:
            return term
        if not dot:
            return value if term.kind == "atom" or value.kind == "atom" else None
        if value.kind != "atom":  # `p.2.1` with `(a, b, c)` for `p` is `b`
            return component(value, rest)
        return node(term.kind, value.text + dot + rest)
    kids = [substituted(build, kid, name, value) for kid in term.kids]
    if any(kid is None for kid in kids):
        return None
    made = [kid for kid in kids if kid is not None]
    if term.kind == "bin" and term.text in AC:
        return build.chain(term.text, made)
    if term.kind == "bin" and len(made) == 2 and INFIX[term.text][1] == "n":
        return build.binary(term.text, made[0], made[1])
    if term.kind == "pre":
        return build.prefix(term.text, made[0])
    if term.kind == "post" and term.text[:1] == ".":
        return projected(made[0], term.text[1:])  # `p.1` with `(a, b)` for `p` is `a`
    if term.kind == "app":
        return build.applied(made[0], made[1:]) or node("app", "", made, APP)
    return node(term.kind, term.text, made, term.prec)


def _components(build: Build, body: Node, name: str) -> tuple[list[Node], Node] | None:
    """A bound tuple ``t`` that ``body`` uses only by its components, each of them (``t.1``, ``t.2.1``,
    ``t.2.2``), as the names of its components bound in its place: ``∃ t : α × β × γ, P t.1 t.2.1 t.2.2`` is
    ``∃ a b c, P a b c`` (``Prod.exists``, ``Prod.forall``; copy red team 35b: ``putnam_2019_a1``'s set over
    ``A B C`` as the image of a set of triples passed). The components take ``t``'s number and the next ones,
    the names ``body`` binds moved up to make room (copy red team 36: ``∃ p, .. ∃ n ∈ s, p.1.coeff n ≠ 0``
    numbered ``n`` where ``p.2`` was to be); None where ``t`` stands whole, by another field, or not every component is
    used (a component left out may range over an empty type)."""
    paths: set[str] = set()
    todo = [body]
    while todo:
        term = todo.pop()
        if term.kind == "post" and term.text[:1] == "." and len(term.kids) == 1 and is_atom(term.kids[0], name):
            paths.add(term.text[1:])
        elif term.kind in ("atom", "part") and term.text.partition(".")[0] == name:
            paths.add(term.text.partition(".")[2])  # `t` whole (no field), or a field read as written
        else:
            todo += term.kids
    size = next((k for k in range(2, 5) if paths == set(_tuple_paths(k))), None)
    first = bound(name)
    if size is None:
        return None
    body = _shifted(body, first, size - 1)
    names = [node("atom", f"#{first + k}") for k in range(size)]
    kids = [part for k, n in enumerate(names) for part in ([n] if not k else [node("part", ","), n])]
    tuple_ = node("group", "(", [*kids, node("part", ")")])
    read = substituted(build, body, name, tuple_)
    return ([node("part", n.text) for n in names], read) if read is not None else None


def _shifted(term: Node, first: int, by: int) -> Node:
    """``term`` with each bound number after ``first`` moved up ``by``, as the canonical form numbers them once
    ``first`` binds ``by + 1`` names (in binding order, so operands keep their order)."""
    number = bound(term.text) if term.kind in ("atom", "part") else -1
    text = f"#{number + by}.{term.text.partition('.')[2]}".rstrip(".") if number > first else term.text
    made = node(term.kind, text, [_shifted(kid, first, by) for kid in term.kids], term.prec)
    made.cast, made.lifted, made.natural = term.cast, term.lifted, term.natural
    return made


def _tuple_paths(size: int) -> list[str]:
    """The fields of each component of a ``size``-tuple, which nests to the right: ``1``, ``2.1``, ``2.2``."""
    return [".".join(["2"] * k + ["1"]) for k in range(size - 1)] + [".".join(["2"] * (size - 1))]


def _unbounded(build: Build, text: str, header: list[Node], body: Node) -> tuple[list[Node], Node]:
    """``∀ x ∈ s, P`` as ``∀ x, x ∈ s → P`` and ``∃ x > 0, P`` as ``∃ x, 0 < x ∧ P`` (binder predicates
    expand so, ``binderPred``; red team 29: a copy with the bound written out passed, and ``∀ x, x ∈ s →
    P`` for ``∀ x ∈ s, P`` was left by red team 27), for each name of the header; else as given."""
    at = next((k for k, h in enumerate(header) if h.kind == "part" and h.text in PREDICATES), None)
    if text not in ("∀", "∃") or at is None or not at or len(header) != at + 2:
        return header, body
    names = header[:at]
    if not _names(names):
        return header, body
    conditions = [build.binary(header[at].text, node("atom", n.text), header[-1]) for n in names]
    if text == "∀":
        return names, build.chain("∨", [*(build.negated(c) for c in conditions), body])
    return names, build.chain("∧", [*conditions, body])


def _prenex(build: Build, text: str, header: list[Node], body: Node) -> tuple[list[Node], Node]:
    """``∀ a, P → ∀ b, Q`` (read ``∀ a, ¬P ∨ ∀ b, Q``) as ``∀ a b, ¬P ∨ Q`` (``forall_or_left``), ``∃ a, P ∧
    ∃ b, Q`` as ``∃ a b, P ∧ Q`` (``exists_and_left``), and ``∀ a, ∀ b, Q`` as ``∀ a b, Q``, the binder
    each operand of its body's junction that is the same quantifier over names (copy red team 34: Mathlib's
    ``Set.InjOn f s``, ``∀ ⦃a⦄, a ∈ s → ∀ ⦃b⦄, b ∈ s → f a = f b → a = b``, written out on ``Set.univ`` read
    as a ``∀`` in a ``∀`` and passed for ``Function.Injective f``). The text reading merges the binders
    written next to each other (``_answer_binders``); this, those a premise read away brings together."""
    if text not in ("∀", "∃") or not _names(header):
        return header, body
    junction = "∨" if text == "∀" else "∧"
    while True:
        operands = body.kids if body.kind == "bin" and body.text == junction else [body]
        inner = [k for k, o in enumerate(operands) if o.kind == "binder" and o.text == text and _names(o.kids[:-2])]
        if len(inner) != 1:
            return header, body
        quantifier, rest = operands[inner[0]], [o for k, o in enumerate(operands) if k != inner[0]]
        names = quantifier.kids[:-2]
        if any(holds(o, n.text) for o in rest for n in names):  # numbered apart: never, but for a stretch as written
            return header, body
        header, body = (
            [*header, *names],
            build.chain(junction, [*rest, quantifier.kids[-1]]) if rest else quantifier.kids[-1],
        )


def _names(header: Sequence[Node]) -> bool:
    """Whether a binder's ``header`` is bound names alone."""
    return bool(header) and all(h.kind in ("atom", "part") and bound(h.text) >= 0 and "." not in h.text for h in header)


def merged(build: Build, op: str, operands: list[Node]) -> list[Node]:
    """``(∀ x, A x) ∧ (∀ y, B y)`` as ``∀ x, A x ∧ B x`` (``forall_and``), ``∃`` with ``∨`` likewise
    (``exists_or``): the quantifiers of one name among a junction's operands read as one (red team 29)."""
    quantifier = MERGED.get(op)
    merging = [
        k
        for k, o in enumerate(operands)
        if o.kind == "binder" and o.text == quantifier and len(o.kids) == 3 and bound(o.kids[0].text) >= 0
    ]
    if len(merging) < 2:
        return operands
    first = operands[merging[0]]
    bodies = [first.kids[2]]
    for k in merging[1:]:
        other = operands[k].kids
        read = substituted(build, other[2], other[0].text, node("atom", first.kids[0].text))
        if read is None or "." in other[0].text:
            return operands
        bodies.append(read)
    whole = quantified(build, first.text, [first.kids[0]], first.kids[1], build.chain(op, bodies), first.prec)
    return [whole, *(o for k, o in enumerate(operands) if k not in merging)]


def quantifying(build: Build, op: str, left: Node, right: Node) -> Node | None:
    """A relation between sets read as the quantifier it unfolds to (red team 29): ``S ⊆ T`` is ``∀ x, x ∈ S
    → x ∈ T`` (``Set.Subset``, by definition), ``S = Set.univ`` is ``∀ x, x ∈ S`` (``Set.eq_univ_iff_forall``)
    and ``S = ∅`` is ``∀ x, ¬x ∈ S`` (``Set.eq_empty_iff_forall_not_mem``, so ``S ≠ ∅`` is ``∃ x, x ∈ S``, as
    ``S.Nonempty`` is): ``{k | A k} = Set.univ`` passed for ``∀ k, A k``; else None."""
    if op == "⊆":  # the premise's variable is the one bound (it was numbered apart from it before red team 32)
        name = fresh(left, right)
        return every(build, "∀", [build.negated(build.binary("∈", name, left))], right, name)
    if op != "=":
        return None
    for one, other in ((left, right), (right, left)):
        if is_atom(other, "Set.univ") or is_atom(other, "Finset.univ"):
            return every(build, "∀", [], one)
        if is_atom(other, "∅"):
            return build.negated(every(build, "∃", [], one))
    return None


def every(build: Build, text: str, premises: list[Node], collection: Node, name: Node | None = None) -> Node:
    """``text x, premises ∨ x ∈ collection`` for a fresh bound ``x`` (:data:`FRESH`), or ``name`` where the
    premises hold it already."""
    name = name or fresh(collection, *(p for p in premises))
    body = (
        build.chain("∨", [*premises, build.binary("∈", name, collection)])
        if premises
        else build.binary("∈", name, collection)
    )
    return quantified(build, text, [node("part", name.text)], node("part", ","), body, 0)


def injective(build: Build, function: Node, domain: Node | None = None) -> Node:
    """``Function.Injective f`` unfolded, ``∀ a b, f a = f b → a = b`` (by definition; copy red team 32: the
    question's ``Injective f`` written out passed), for fresh bound ``a``, ``b``; ``Set.InjOn f s`` (the
    ``domain`` ``s``) is ``∀ a b, a ∈ s → b ∈ s → f a = f b → a = b`` (copy red team 33: ``Set.InjOn f
    Set.univ`` is ``Injective f``, whose premises ``a ∈ Set.univ`` read ``True``)."""
    first = fresh(function, *([domain] if domain else []))
    second = node("atom", f"#{bound(first.text) + 1}")
    images = [build.applied(function, [x]) or node("app", "", [function, x], APP) for x in (first, second)]
    premises = [build.negated(build.binary("∈", x, domain)) for x in (first, second)] if domain else []
    equal = [build.negated(build.binary("=", *images)), build.binary("=", first, second)]
    body = build.chain("∨", [*premises, *equal])
    return node("binder", "∀", [node("part", first.text), node("part", second.text), node("part", ","), body], 0)


def union_of(build: Build, sets: Node) -> Node:
    """``⋃₀ S`` for a set of sets not written out (one written out is the ``∪`` of its elements): ``{x | ∃ t,
    t ∈ S ∧ x ∈ t}``, as Mathlib defines ``Set.sUnion`` (copy red team 34: ``⋃₀ {T | T = {n | C n}}`` passed
    for ``{n | C n}``; read so, the one-point ``∃`` gives ``C x``), for fresh bound ``x``, ``t``."""
    element = fresh(sets)
    member = node("atom", f"#{bound(element.text) + 1}")
    held = build.chain("∧", [build.binary("∈", member, sets), build.binary("∈", element, member)])
    condition = quantified(build, "∃", [node("part", member.text)], node("part", ","), held, 0)
    return node("group", "{", [element, node("part", "|"), condition, node("part", "}")])


def fresh(*over: Node) -> Node:
    return node("atom", f"#{FRESH + max(term.height for term in over)}")
