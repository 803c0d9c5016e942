"""The identities the copy rule's normal form applies to a term read (``_answer_order``): one term, one form.

The copy rule (``_answer_copy``) refuses a no-answer value that is, or holds, the other side of the
statement's ``=``/``↔``. Compared in tokens, a copy in another spelling of the same proposition passed
every gate (the answer check then says ``unknown``, which does not block acceptance), so the comparison
is made in a normal form that both the value and the statement's side are put in: a class of rewrites,
not a list of examples. Each rule below replaces a term by one Lean proves equal (most by definition,
the rest by a one-line ``simp``/``propext`` lemma), so an honest closed form never becomes the question
it answers, and a copy reaches the same form as the question whatever spelling it takes:

* commutative and associative operators (red team 22): the operands of ``+ * ∧ ∨ ∪ ∩ ⊔ ⊓`` read flat and
  in one order, and of ``= ↔``; ``a > b`` is ``b < a``, ``a ≥ b`` is ``b ≤ a`` (``GT.gt a b := LT.lt b
  a``); ``a ≠ b`` is ``¬a = b``, ``a ∉ s`` is ``¬a ∈ s``;
* neutral elements anywhere: ``x + 0``, ``0 + x``, ``x * 1``, ``x - 0``, ``x / 1``, ``x ^ 1``, ``P ∧
  True``, ``P ∨ False``, ``S ∪ ∅``, ``S ∩ Set.univ``, ``a ⊔ ⊥``, ``a ⊓ ⊤``; red team 27: ``P ↔ True`` and
  ``P = True`` are ``P`` (``iff_true``, ``eq_true_iff``), ``P ↔ False`` is ``¬P``, and the absorbing
  elements, ``P ∨ True`` (``True``), ``P ∧ False``, ``S ∩ ∅``, ``S ∪ Set.univ``;
* implication (red team 27): ``p → q`` is ``¬p ∨ q`` (``imp_iff_not_or``, classical), so an implication's
  premises commute with each other and with the conclusion's negation, and ``True → P``, ``P → False``
  (``Not P`` is ``P → False``), ``¬(A → B)`` reach ``P``, ``¬P``, ``A ∧ ¬B``. An arrow between types is
  read alike on both sides, and no honest answer spells ``¬ℕ ∨ ℕ``;
* negation in one place (red team 27): ``¬`` is pushed to the atoms through ``∧``, ``∨``, ``∀``, ``∃``,
  ``True`` and ``False`` (De Morgan and its quantifier form, classical: ``not_and_or``, ``not_forall``;
  ``¬∀ x > 0, P`` is ``∃ x > 0, ¬P``), and ``¬¬P`` is ``P``. Red team 28: ``¬(a < b)`` is ``b ≤ a``, a
  weak bound by a numeral the strict one, an interval's membership its bounds (``_answer_bounds``);
* idempotence (red team 27): an operand of ``∧ ∨ ∪ ∩ ⊔ ⊓`` repeated is read once (``A ∧ B ∧ A``);
* commutative functions (red team 27): ``max a b`` and ``min a b`` are ``a ⊔ b`` and ``a ⊓ b`` (so
  ``max (max a b) c`` is ``max a (max c b)`` and ``max e e`` is ``e``), ``gcd a b`` and ``lcm a b`` (any
  namespace, ``Nat.gcd``, ``(a).gcd b``: ``_answer_dots`` reads both as ``gcd a b``) have their two
  arguments in one order (``Nat.gcd_comm``...);
* ``List.nil`` (``@List.nil T``) is ``[]``;
* one-point quantifiers (red team 27; ``_answer_normal`` reads only an equation written first): ``∃ m, P m
  ∧ m = e`` and ``∀ m, m = e → P m`` (``∀ m, P m ∨ m ≠ e``) are ``P e``, the equation anywhere in the chain;
* membership by definition (red team 27): ``x ∈ {y | P y}`` and ``x ∈ setOf P`` are ``P x``, ``x ∈ S ∩
  T`` is ``x ∈ S ∧ x ∈ T``, ``x ∈ S ∪ T`` is ``x ∈ S ∨ x ∈ T``, ``x ∈ Sᶜ`` is ``¬x ∈ S``, ``x ∈ Set.univ``
  and ``x ∈ ∅`` are ``True`` and ``False`` (``∅``, ``⊥``, ``⊤``, ``∞`` are terms to the reader now).
* quantifiers in one form (red team 29): a binder predicate written out (``∀ x ∈ s, P`` is ``∀ x, x ∈ s →
  P``, ``∃ x > 0, P`` is ``∃ x, 0 < x ∧ P``), the quantifiers of one name among a junction's operands read
  as one (``(∀ x, A) ∧ (∀ y, B)`` is ``∀ x, A ∧ B``, ``∃``/``∨`` alike), ``(A → B) ∧ (B → A)`` as ``A ↔ B``,
  and the set relations that unfold to a quantifier (``S ⊆ T``, ``S = Set.univ``, ``S = ∅``,
  ``{x | C}.Nonempty``); membership also of a set applied (``{x | P x} a``, ``setOf p a``, ``Set.Mem``), of
  a literal (``x ∈ {a, b}`` is ``x = a ∨ x = b``) and through an ascription;
* copy red team 30: literal arithmetic as the numeral it is (``_answer_literals``), a cast taken off where it
  changes nothing (``_answer_casts``), and an ``if`` with a ``True``/``False`` branch as a junction
  (:func:`conditional`);

Each rule is applied once per node as the reader builds it bottom-up, so the form is linear in the term but
for negation, which walks down the ``∧ ∨ ¬ ∀ ∃`` nodes under a ``¬``, and a substitution (one point,
membership), which rebuilds the body it substitutes in: each at most the term's depth (bounded by
``_answer_order.MAX_DEPTH``) times its size. Left as a text rule's limit: algebra beyond these identities
(distributivity, ``x * x`` for ``x ^ 2``; ``n ≠ 0`` is ``0 < n`` only where ``n`` is shown to be a natural
number, red team 29, ``_answer_types``), ``∪`` for
``⊔`` on sets, a bounded binder written out (``∀ x, x ∈ s → P`` for ``∀ x ∈ s, P``).
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_bounds import (
    flipped_negation,
    interval_bounds,
    positive,
    predecessor,
    stepped,
    successor,
    zero_bound,
)
from putnam_solver.core.provers.lean._answer_casts import cast, kept
from putnam_solver.core.provers.lean._answer_dots import last_name
from putnam_solver.core.provers.lean._answer_literals import folded, summed
from putnam_solver.core.provers.lean._answer_nodes import APP, INFIX, PREFIX, Node, bound, is_atom, node, order, same

AC: Final = frozenset({"+", "*", "∧", "∨", "∪", "∩", "⊔", "⊓"})
"""Associative and commutative: a chain is read flat, its operands in one order."""
IDEMPOTENT: Final = frozenset({"∧", "∨", "∪", "∩", "⊔", "⊓"})
SYMMETRIC: Final = frozenset({"=", "↔"})
FLIPPED: Final = {">": "<", "≥": "≤"}
NEUTRAL: Final = {"+": "0", "*": "1", "∧": "True", "∨": "False", "∪": "∅", "∩": "Set.univ", "⊔": "⊥", "⊓": "⊤"}
ABSORBING: Final = {"∧": "False", "∨": "True", "∩": "∅", "∪": "Set.univ", "⊔": "⊤", "⊓": "⊥"}
RIGHT_NEUTRAL: Final = {"-": "0", "/": "1", "^": "1"}
DUAL: Final = {"∧": "∨", "∨": "∧", "∀": "∃", "∃": "∀", "True": "False", "False": "True"}
"""What ``¬`` turns each into (module doc)."""
COMMUTATIVE: Final = frozenset({"gcd", "lcm"})
"""Functions of two arguments whose order does not matter (by their last name, ``_answer_dots.last_name``)."""
LATTICE: Final = {"max": "⊔", "min": "⊓"}
"""``max a b`` is ``a ⊔ b`` (Mathlib's ``⊔`` is notation for ``Max.max`` since the ``Sup`` class was merged
into ``Max``; ``min`` and ``⊓`` likewise): read as that chain, associative, commutative and idempotent."""
NIL: Final = node("group", "[", [node("part", "]")])
"""``[]``, as the reader reads it, and ``List.nil``."""


def binary(op: str, left: Node, right: Node) -> Node:
    """``left op right`` in normal form (module doc)."""
    if op in FLIPPED:
        op, left, right = FLIPPED[op], right, left
    if op in ("≠", "∉"):
        return prefix("¬", binary("=" if op == "≠" else "∈", left, right))
    if op in SYMMETRIC and same(left, right):
        return node("atom", "True")
    if op == "∈" and (read := member(left, right)) is not None:
        return read
    if (read := quantifying(op, left, right)) is not None:  # `S ⊆ T`, `S = Set.univ`, `S = ∅` (below)
        return read
    if op in SYMMETRIC and (is_atom(left, "True") or is_atom(left, "False")):
        left, right = right, left
    if op in SYMMETRIC and is_atom(right, "True"):  # `P ↔ True`, `P = True`: `P` (`iff_true`, `eq_true_iff`)
        return left
    if op in SYMMETRIC and is_atom(right, "False"):  # `P ↔ False`: `¬P` (`iff_false`)
        return prefix("¬", left)
    if op in AC:
        return chain(op, [left, right])
    if INFIX[op][1] != "n":
        return ordered(op, [left, right])
    if (turned := successor(op, left, right)) is not None:  # `a + 1 ≤ b` is `a < b` on ℤ (``_answer_bounds``)
        return binary(*turned)
    if (turned := predecessor(op, left, right)) is not None:  # `a ≤ b - 1` is `a < b` (``_answer_bounds``)
        return binary(*turned)
    if (step := stepped(op, left, right)) is not None:  # `1 ≤ a` is `0 < a` (``_answer_bounds``)
        op, (left, right) = "<", step
    if (turned := zero_bound(op, left, right)) is not None:  # `n < 1` is `n = 0` on ℕ
        return binary(*turned)
    pair = sorted((left, right), key=order) if op in SYMMETRIC else [left, right]
    return node("bin", op, pair, INFIX[op][0])


def chain(op: str, terms: list[Node]) -> Node:
    """``t1 op t2 op ...`` for an associative and commutative ``op``: flat, without its neutral element and,
    where ``op`` is idempotent, without a repeated operand, in one order (each operand's own chain is flat
    already: linear)."""
    operands = [k for term in terms for k in (term.kids if term.kind == "bin" and term.text == op else [term])]
    operands = summed(op, operands) if op in ("+", "*") else operands  # `2 + 3` is `5` (``_answer_literals``)
    operands = [k for k in operands if not is_atom(k, NEUTRAL[op])] or [node("atom", NEUTRAL[op])]
    if op in ABSORBING and any(is_atom(k, ABSORBING[op]) for k in operands):
        return node("atom", ABSORBING[op])
    operands = _biconditionals(_merged(op, operands)) if op == "∧" else _merged(op, operands)
    if op in IDEMPOTENT:
        operands = _once(operands)
    if len(operands) == 1:
        return operands[0]
    return node("bin", op, sorted(operands, key=order), INFIX[op][0])


def _once(operands: list[Node]) -> list[Node]:
    """``operands`` with each term kept at its first place only (compared by hash, then by tokens)."""
    seen: dict[int, list[Node]] = {}
    out = []
    for term in operands:
        alike = seen.setdefault(term.full, [])
        if not any(same(term, other) for other in alike):
            alike.append(term)
            out.append(term)
    return out


def ordered(op: str, terms: list[Node]) -> Node:
    """``t1 op t2 op ...`` for a left- or right-associative ``op`` that is not commutative: one node in the
    order written (``(a - b) - c`` is ``a - b - c``; ``a - (b - c)`` is not), a right neutral element
    taken off (``a - 0``, ``a / 1``, ``a ^ 1``; only the last operand of ``^``'s chain); an implication's
    ``True`` premises and ``False`` conclusion read (module doc)."""
    neutral = RIGHT_NEUTRAL.get(op)
    terms = kept(op, terms)  # `↑n - 5` is no `n - 5` (``_answer_casts``)
    if INFIX[op][1] == "l":
        first = terms[0]
        operands = list(first.kids) if first.kind == "bin" and first.text == op else [first]
        operands += [k for k in terms[1:] if neutral is None or not is_atom(k, neutral)]
    else:
        last = terms[-1]
        operands = [*terms[:-1], *(last.kids if last.kind == "bin" and last.text == op else [last])]
        while len(operands) > 1 and neutral is not None and is_atom(operands[-1], neutral):
            operands.pop()
    if op in ("→", "->"):
        return _implication(operands)
    if (number := folded(op, operands)) is not None:  # `10^100 - 1` is a numeral (``_answer_literals``)
        return number
    return operands[0] if len(operands) == 1 else node("bin", op, operands, INFIX[op][0])


def _implication(operands: list[Node]) -> Node:
    """``p1 → ... → pk → c`` read as ``¬p1 ∨ ... ∨ ¬pk ∨ c`` (``imp_iff_not_or``, classical): an
    implication's premises commute, and ``True → P``, ``P → False``, ``¬(A → B)`` reach ``P``, ``¬P``,
    ``A ∧ ¬B`` by the rules of ``∨`` and ``¬``. An arrow between types reads alike on both sides, and no
    honest answer spells ``¬ℕ ∨ ℕ``."""
    *premises, conclusion = operands
    return chain("∨", [*(negated(p) for p in premises), conclusion])


def conditional(cond: Node, then: Node, other: Node) -> Node | None:
    """``if c then P else False`` as ``c ∧ P``, ``if c then True else Q`` as ``c ∨ Q`` and their negated
    forms (copy red team 30; a branch ``True``/``False`` makes the ``if`` a proposition, read by ``if_pos``,
    ``if_neg``); else None."""
    if is_atom(other, "False"):
        return chain("∧", [cond, then])
    if is_atom(then, "True"):
        return chain("∨", [cond, other])
    if is_atom(other, "True"):
        return chain("∨", [negated(cond), then])
    if is_atom(then, "False"):
        return chain("∧", [negated(cond), other])
    return None


def prefix(op: str, arg: Node) -> Node:
    """``op arg`` in normal form: ``- -x`` is ``x``, and ``¬`` is pushed to the atoms (module doc)."""
    if op == "¬":
        return negated(arg)
    if op == "↑":  # taken off where it changes nothing (``_answer_casts``)
        return cast(arg)
    if op == "-" and arg.kind == "pre" and arg.text == op:
        return arg.kids[0]
    return node("pre", op, [arg], PREFIX[op])


def negated(arg: Node) -> Node:
    """``¬arg`` with the negation pushed through ``∧ ∨ → ∀ ∃ True False`` and ``¬¬`` taken off."""
    if arg.kind == "pre" and arg.text == "¬":
        return arg.kids[0]
    if arg.kind == "atom" and arg.text in ("True", "False"):
        return node("atom", DUAL[arg.text])
    if arg.kind == "bin" and arg.text in ("∧", "∨"):
        return chain(DUAL[arg.text], [negated(k) for k in arg.kids])
    if (bound_ := flipped_negation(arg)) is not None:  # `¬a < b` is `b ≤ a` (``_answer_bounds``)
        return binary(*bound_)
    if arg.kind == "binder" and arg.text in ("∀", "∃") and arg.kids:
        return node("binder", DUAL[arg.text], [*arg.kids[:-1], negated(arg.kids[-1])], arg.prec)
    if (read := positive(arg)) is not None:  # `n ≠ 0` is `0 < n` on ℕ (``_answer_bounds``)
        return binary(*read)
    return node("pre", "¬", [arg], PREFIX["¬"])


def applied(head: Node, args: list[Node]) -> Node | None:
    """``head args`` in normal form where a rule of the module doc reads it (``head`` by its last name),
    else None."""
    if same(head, NIL) and len(args) <= 1:  # `@List.nil T`: the `@` is left off before
        return NIL
    if head.kind == "group" and head.text == "{" and len(args) == 1:  # `{x | P x} a`: a set applied is
        return binary("∈", args[0], head)  # membership (`Set.Mem`, by definition; red team 29)
    if head.kind != "atom":
        return None
    if head.text in LATTICE and len(args) == 2:
        return chain(LATTICE[head.text], args)
    if head.text == "Nonempty" and len(args) == 1 and args[0].kind == "group" and args[0].text == "{":
        return _every("∃", [], args[0])  # `{x | C}.Nonempty` is `∃ x, x ∈ {x | C}` (`Set.Nonempty`)
    if head.text == "setOf" and len(args) == 2:  # `setOf p x`: a set applied is membership (`Set.Mem`)
        return binary("∈", args[1], node("app", "", [head, args[0]], APP))
    if head.text == "Mem" and len(args) == 2 and (sets := [a for a in args if _a_set(a)]) and len(sets) == 1:
        return binary("∈", args[1] if sets[0] is args[0] else args[0], sets[0])  # `Set.Mem`, either order
    if head.text in COMMUTATIVE and len(args) == 2:
        return node("app", "", [head, *sorted(args, key=order)], APP)
    return None


def quantified(text: str, header: list[Node], separator: Node, body: Node, level: int) -> Node:
    """The binder ``text header separator body``, a one-point quantifier read as its body (red team 27):
    ``∃ m, P m ∧ m = e`` is ``P e`` (``exists_eq_right``), ``∀ m, m = e → P m`` (read ``¬m = e ∨ P m``) is
    ``P e`` (``forall_eq``), wherever the equation stands among the conjuncts (disjuncts) and whichever
    way it is turned; ``e`` may not hold ``m``. The canonical form numbers each binding apart, so
    substituting ``e`` captures nothing."""
    header, body = _unbounded(text, header, body)
    name = header[0].text if header and header[0].kind in ("atom", "part") and bound(header[0].text) >= 0 else None
    plain = len(header) == 1 or (len(header) >= 2 and header[1].kind == "part" and header[1].text == ":")
    if text in ("∃", "∀") and name is not None and plain:
        junction = "∧" if text == "∃" else "∨"
        operands = body.kids if body.kind == "bin" and body.text == junction else [body]
        for k, operand in enumerate(operands):
            value = _pinned(operand, name, text == "∀")
            if value is None:
                continue
            rest = [substituted(o, name, value) for j, o in enumerate(operands) if j != k]
            if all(r is not None for r in rest):
                return chain(junction, [r for r in rest if r is not None] or [node("atom", NEUTRAL[junction])])
    return node("binder", text, [*header, separator, body], level)


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
        if mine.kind == "atom" and mine.text == name and not _holds(other, name):
            return other
    return None


def _holds(term: Node, name: str) -> bool:
    if term.kind in ("atom", "part"):
        return term.text.partition(".")[0] == name
    return any(_holds(kid, name) for kid in term.kids)


def substituted(term: Node, name: str, value: Node) -> Node | None:
    """``term`` with the bound variable ``name`` replaced by ``value``, rebuilt in normal form; None where
    it stands as the head of a field (``#1.card``) in a stretch read as written and ``value`` is no atom."""
    if term.kind in ("atom", "part"):
        head, dot, rest = term.text.partition(".")
        if head != name:
            return term
        if not dot:
            return value if term.kind == "atom" or value.kind == "atom" else None
        return node(term.kind, value.text + dot + rest) if value.kind == "atom" else None
    kids = [substituted(kid, name, value) for kid in term.kids]
    if any(kid is None for kid in kids):
        return None
    made = [kid for kid in kids if kid is not None]
    if term.kind == "bin" and term.text in AC:
        return chain(term.text, made)
    if term.kind == "bin" and len(made) == 2 and INFIX[term.text][1] == "n":
        return binary(term.text, made[0], made[1])
    if term.kind == "pre":
        return prefix(term.text, made[0])
    if term.kind == "app":
        return applied(made[0], made[1:]) or node("app", "", made, APP)
    return node(term.kind, term.text, made, term.prec)


def member(element: Node, collection: Node) -> Node | None:
    """``element ∈ collection`` where the collection is read (red team 27): ``x ∈ {y | P y}`` is ``P x``
    (``Set.mem_setOf_eq``, by definition), ``x ∈ S ∩ T`` is ``x ∈ S ∧ x ∈ T``, ``∪`` likewise with ``∨``
    (``Set.mem_inter_iff``, ``Set.mem_union``), ``x ∈ Sᶜ`` is ``¬x ∈ S``, ``x ∈ Set.univ`` is ``True`` and
    ``x ∈ ∅`` is ``False``; else None."""
    kids = collection.kids
    if collection.kind == "group" and collection.text == "(" and len(kids) == 4 and kids[1].text == ":":
        return binary("∈", element, kids[0])  # `x ∈ ({n} : Set ℕ)`: the ascription is no term (red team 29)
    if collection.kind == "bin" and collection.text in ("∩", "∪"):
        junction = "∧" if collection.text == "∩" else "∨"
        return chain(junction, [binary("∈", element, kid) for kid in collection.kids])
    if collection.kind == "post" and collection.text == "ᶜ":
        return negated(binary("∈", element, collection.kids[0]))
    if collection.kind == "bin" and collection.text == "\\" and len(collection.kids) == 2:  # `Set.mem_diff`
        return chain("∧", [binary("∈", element, collection.kids[0]), negated(binary("∈", element, collection.kids[1]))])
    if (bounds := interval_bounds(element, collection)) is not None:  # `x ∈ Set.Ici a` (``_answer_bounds``)
        return chain("∧", [binary(*b) for b in bounds])
    if is_atom(collection, "Set.univ") or is_atom(collection, "∅"):
        return node("atom", "True" if collection.text == "Set.univ" else "False")
    if collection.kind == "app" and is_atom(collection.kids[0], "setOf") and len(collection.kids) == 2:
        return _applied_to(collection.kids[1], element)  # `x ∈ setOf p` is `p x`
    kids = collection.kids
    if (elements := _listed(collection)) is not None:  # `x ∈ {a, b}` is `x = a ∨ x = b` (`Set.mem_insert_iff`)
        return chain("∨", [binary("=", element, e) for e in elements])
    if collection.kind == "group" and collection.text == "{" and len(kids) == 4 and kids[1].text == "|":
        name = kids[0].text if kids[0].kind in ("atom", "part") else ""
        if bound(name) >= 0 and kids[1].kind == "part" and not _holds(element, name):
            return substituted(kids[2], name, element)
    return None


def _applied_to(function: Node, argument: Node) -> Node | None:
    """``function argument``: a ``fun`` of one bound name read by substitution, a name by its last
    component (as the reader reads a name applied, ``_answer_dots.last_name``), an application extended."""
    kids = function.kids
    if function.kind == "binder" and function.text in ("fun", "λ") and len(kids) == 3 and bound(kids[0].text) >= 0:
        return substituted(kids[2], kids[0].text, argument) if kids[0].kind in ("atom", "part") else None
    if function.kind == "atom":
        head = node("atom", last_name(function.text))
        return applied(head, [argument]) or node("app", "", [head, argument], APP)
    if function.kind == "app":
        return applied(kids[0], [*kids[1:], argument]) or node("app", "", [*kids, argument], APP)
    return None


def _listed(collection: Node) -> list[Node] | None:
    """The elements of a set literal ``{a, b, c}`` (``{a}``: ``Set.mem_singleton_iff``), else None."""
    kids = collection.kids
    if collection.kind != "group" or collection.text != "{" or len(kids) % 2 or kids[-1].text != "}":
        return None
    elements, commas = kids[0:-1:2], kids[1:-1:2]
    if any(e.kind == "part" for e in elements) or any(c.kind != "part" or c.text != "," for c in commas):
        return None
    return elements


BOUNDED: Final = frozenset({"∈", "∉", "<", "≤", ">", "≥", "≠", "⊆", "⊂"})
"""The relations of a binder predicate, ``∀ x ∈ s,``, ``∃ k > 0,`` (Mathlib's ``binderPred``)."""
MERGED: Final = {"∧": "∀", "∨": "∃"}
"""The quantifier each junction distributes over (``forall_and``, ``exists_or``)."""
FRESH: Final = 10**6
"""Bound variables a set's quantifier is read with: ``#`` and this plus the height of what it binds over, so
that one read inside another's operands never has its number (the canonical form numbers from 0)."""


def _unbounded(text: str, header: list[Node], body: Node) -> tuple[list[Node], Node]:
    """``∀ x ∈ s, P`` as ``∀ x, x ∈ s → P`` and ``∃ x > 0, P`` as ``∃ x, 0 < x ∧ P`` (binder predicates
    expand so, ``binderPred``; red team 29: a copy with the bound written out passed, and ``∀ x, x ∈ s →
    P`` for ``∀ x ∈ s, P`` was left by red team 27), for each name of the header; else as given."""
    at = next((k for k, h in enumerate(header) if h.kind == "part" and h.text in BOUNDED), None)
    if text not in ("∀", "∃") or at is None or not at or len(header) != at + 2:
        return header, body
    names = header[:at]
    if not all(n.kind in ("atom", "part") and bound(n.text) >= 0 and "." not in n.text for n in names):
        return header, body
    conditions = [binary(header[at].text, node("atom", n.text), header[-1]) for n in names]
    if text == "∀":
        return names, chain("∨", [*(negated(c) for c in conditions), body])
    return names, chain("∧", [*conditions, body])


def _merged(op: str, operands: list[Node]) -> list[Node]:
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
        read = substituted(other[2], other[0].text, node("atom", first.kids[0].text))
        if read is None or "." in other[0].text:
            return operands
        bodies.append(read)
    whole = quantified(first.text, [first.kids[0]], first.kids[1], chain(op, bodies), first.prec)
    return [whole, *(o for k, o in enumerate(operands) if k not in merging)]


def quantifying(op: str, left: Node, right: Node) -> Node | None:
    """A relation between sets read as the quantifier it unfolds to (red team 29): ``S ⊆ T`` is ``∀ x, x ∈ S
    → x ∈ T`` (``Set.Subset``, by definition), ``S = Set.univ`` is ``∀ x, x ∈ S`` (``Set.eq_univ_iff_forall``)
    and ``S = ∅`` is ``∀ x, ¬x ∈ S`` (``Set.eq_empty_iff_forall_not_mem``, so ``S ≠ ∅`` is ``∃ x, x ∈ S``, as
    ``S.Nonempty`` is): ``{k | A k} = Set.univ`` passed for ``∀ k, A k``; else None."""
    if op == "⊆":
        return _every("∀", [negated(binary("∈", _fresh(left, right), left))], right)
    if op != "=":
        return None
    for one, other in ((left, right), (right, left)):
        if is_atom(other, "Set.univ") or is_atom(other, "Finset.univ"):
            return _every("∀", [], one)
        if is_atom(other, "∅"):
            return negated(_every("∃", [], one))
    return None


def _every(text: str, premises: list[Node], collection: Node) -> Node:
    """``text x, premises ∨ x ∈ collection`` for a fresh bound ``x`` (:data:`FRESH`)."""
    name = _fresh(collection, *(p for p in premises))
    body = chain("∨", [*premises, binary("∈", name, collection)]) if premises else binary("∈", name, collection)
    return quantified(text, [node("part", name.text)], node("part", ","), body, 0)


def _fresh(*over: Node) -> Node:
    return node("atom", f"#{FRESH + max(term.height for term in over)}")


def _biconditionals(operands: list[Node]) -> list[Node]:
    """``(A → B) ∧ (B → A)`` (read ``(¬A ∨ B) ∧ (¬B ∨ A)``) as ``A ↔ B`` (``iff_iff_implies_and_implies``;
    red team 29): each operand ``¬X ∨ Y`` whose dual ``X ∨ ¬Y`` is another operand, found by key."""
    by_key = {o.key: k for k, o in enumerate(operands) if o.kind == "bin" and o.text == "∨" and len(o.kids) == 2}
    if len(by_key) < 2:
        return operands
    used: set[int] = set()
    out = []
    for k in sorted(by_key.values()):
        kids = operands[k].kids
        negation = next((kid for kid in kids if kid.kind == "pre" and kid.text == "¬"), None)
        if k in used or negation is None:
            continue
        other = kids[1] if kids[0] is negation else kids[0]
        dual = chain("∨", [negation.kids[0], negated(other)])
        partner = by_key.get(dual.key)
        if partner is not None and partner != k and partner not in used and same(operands[partner], dual):
            used |= {k, partner}
            out.append(binary("↔", negation.kids[0], other))
    return [*out, *(o for k, o in enumerate(operands) if k not in used)] if out else operands


def _a_set(term: Node) -> bool:
    """Whether ``term`` is written as a set: a set-builder or literal, or ``setOf p``."""
    return (term.kind == "group" and term.text == "{") or (term.kind == "app" and is_atom(term.kids[0], "setOf"))
