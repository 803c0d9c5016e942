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
* quantifiers in one form (red teams 27, 29): one-point quantifiers, binder predicates written out, the
  quantifiers of one name among a junction's operands read as one, and the set relations that unfold to a
  quantifier (``_answer_quantifiers``); ``(A → B) ∧ (B → A)`` is ``A ↔ B`` (:func:`_biconditionals`);
* membership by definition (red teams 27, 29): ``x ∈ {y | P y}`` is ``P x``, and every other collection
  whose membership unfolds (``_answer_members``); a set applied (``{x | P x} a``, ``setOf p a``,
  ``Set.Mem``) is membership;
* copy red team 30: literal arithmetic as the numeral it is (``_answer_literals``), a cast taken off where it
  changes nothing (``_answer_casts``; red team 31: kept where it decides where ``ℕ`` truncates), and an
  ``if`` with a ``True``/``False`` branch as a junction (:func:`conditional`);
* copy red team 35b: ``a / b`` as ``a * b⁻¹`` where it may be a field's (:func:`ordered`), ``cosh``/``sinh``
  as their exponentials (:data:`HYPERBOLIC`), ``Set.indicator`` of a constant as its ``if``, and an ``if`` of
  numerals equal to one of them as its condition (:func:`_decided`).

The quantifier and membership rules build their terms with these constructors (a membership read is a
junction of memberships, a substitution rebuilds its body in normal form): they are handed them
(:data:`NORMAL`) rather than importing this module, which applies them.

Each rule is applied once per node as the reader builds it bottom-up, so the form is linear in the term but
for negation, which walks down the ``∧ ∨ ¬ ∀ ∃`` nodes under a ``¬``, and a substitution (one point,
membership), which rebuilds the body it substitutes in: each at most the term's depth (bounded by
``_answer_order.MAX_DEPTH``) times its size. Left as a text rule's limit: algebra beyond these identities
(distributivity, ``x * x`` for ``x ^ 2``; ``n ≠ 0`` is ``0 < n`` only where ``n`` is shown to be a natural
number, red team 29, ``_answer_types``), ``∪`` for
``⊔`` on sets, a bounded binder written out (``∀ x, x ∈ s → P`` for ``∀ x ∈ s, P``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Final

from putnam_solver.core.provers.lean import _answer_members as members
from putnam_solver.core.provers.lean import _answer_quantifiers as quantifiers
from putnam_solver.core.provers.lean._answer_bounds import (
    flipped_negation,
    lattice_bounds,
    positive,
    predecessor,
    stepped,
    successor,
    zero_bound,
)
from putnam_solver.core.provers.lean._answer_casts import ARITHMETIC, carried, cast, kept, related
from putnam_solver.core.provers.lean._answer_literals import folded, summed, value
from putnam_solver.core.provers.lean._answer_modeq import divided
from putnam_solver.core.provers.lean._answer_nodes import (
    AC,
    APP,
    ASCRIBED,
    INFIX,
    NATURAL,
    NEUTRAL,
    NUMBERED,
    PREFIX,
    Build,
    Node,
    is_atom,
    node,
    order,
    projected,
    same,
)
from putnam_solver.core.provers.lean._answer_types import integral

IDEMPOTENT: Final = frozenset({"∧", "∨", "∪", "∩", "⊔", "⊓"})
SYMMETRIC: Final = frozenset({"=", "↔"})
FLIPPED: Final = {">": "<", "≥": "≤"}
ABSORBING: Final = {"∧": "False", "∨": "True", "∩": "∅", "∪": "Set.univ", "⊔": "⊤", "⊓": "⊥"}
RIGHT_NEUTRAL: Final = {"-": "0", "/": "1", "^": "1"}
DUAL: Final = {"∧": "∨", "∨": "∧", "∀": "∃", "∃": "∀", "True": "False", "False": "True"}
"""What ``¬`` turns each into (module doc)."""
COMMUTATIVE: Final = frozenset({"gcd", "lcm"})
"""Functions of two arguments whose order does not matter (by their last name, ``_answer_dots.last_name``)."""
LATTICE: Final = {"max": "⊔", "min": "⊓"}
"""``max a b`` is ``a ⊔ b`` (Mathlib's ``⊔`` is notation for ``Max.max`` since the ``Sup`` class was merged
into ``Max``; ``min`` and ``⊓`` likewise): read as that chain, associative, commutative and idempotent."""
TRUTHS: Final = ("True", "False", "true", "false")
"""The truth values, propositions and Booleans: put on the right of a symmetric relation."""
HYPERBOLIC: Final = {"cosh": "+", "sinh": "-"}
"""``cosh x`` is ``(exp x + exp (-x)) / 2`` and ``sinh x`` is ``(exp x - exp (-x)) / 2``, ``Real``'s and
``Complex``'s (Mathlib/Data/Complex/Exponential.lean: ``def Complex.cosh (z : ℂ) := (exp z + exp (-z)) / 2``,
``theorem Real.cosh_eq (x : ℝ) : cosh x = (exp x + exp (-x)) / 2``; copy red team 35b: ``putnam_1980_b1``'s
left side as ``Real.cosh x`` passed)."""
NIL: Final = node("group", "[", [node("part", "]")])
"""``[]``, as the reader reads it, and ``List.nil``."""


def binary(op: str, left: Node, right: Node) -> Node:
    """``left op right`` in normal form (module doc)."""
    if op in FLIPPED:
        op, left, right = FLIPPED[op], right, left
    if op in ("≠", "∉"):
        return prefix("¬", binary("=" if op == "≠" else "∈", left, right))
    left, right = related(op, left, right)  # `↑(n - 5) < 7` is `n - 5 < 7` (``_answer_casts``)
    if op in SYMMETRIC and same(left, right):
        return node("atom", "True")
    if op == "=" and (parts := componentwise(left, right)) is not None:
        return chain("∧", [binary("=", *pair) for pair in parts])
    if op == "∈" and (read := members.member(NORMAL, left, right)) is not None:
        return read
    # `S ⊆ T`, `S = Set.univ`, `S = ∅` (``_answer_quantifiers``)
    if (read := quantifiers.quantifying(NORMAL, op, left, right)) is not None:
        return read
    if op == "=" and (read := _decided(left, right) or _decided(right, left)) is not None:
        return read
    if op in SYMMETRIC and any(is_atom(left, t) for t in TRUTHS):
        left, right = right, left
    if op in SYMMETRIC and is_atom(right, "True"):  # `P ↔ True`, `P = True`: `P` (`iff_true`, `eq_true_iff`)
        return left
    if op in SYMMETRIC and is_atom(right, "False"):  # `P ↔ False`: `¬P` (`iff_false`)
        return prefix("¬", left)
    if op == "=" and is_atom(right, "true"):  # `b = true`: `b`, as a Bool coerced to `Prop` (red team 32)
        return left
    if op == "=" and is_atom(right, "false"):  # `b = false`: `¬b` (`Bool.not_eq_true`)
        return prefix("¬", left)
    if op in AC:
        return chain(op, [left, right])
    if (bounds := lattice_bounds(op, left, right)) is not None:  # `a ≤ min b c` (``_answer_bounds``)
        return chain("∧", [binary(op, *pair) for pair in bounds])
    if (divides := divided(op, left, right)) is not None:  # `a % b = 0` is `b ∣ a` (``_answer_modeq``)
        return binary("∣", *divides)
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
    operands = _multiples(op, operands) if op in ("+", "*") else operands
    operands = [k for k in operands if not is_atom(k, NEUTRAL[op])] or [node("atom", NEUTRAL[op])]
    if op in ABSORBING and any(is_atom(k, ABSORBING[op]) for k in operands):
        return node("atom", ABSORBING[op])
    operands = quantifiers.merged(NORMAL, op, operands)
    operands = _antisymmetric(_biconditionals(operands)) if op == "∧" else operands
    if op in IDEMPOTENT:  # each term at its first place only
        operands = [group[0] for group in _grouped(operands, literals=False)]
    if len(operands) == 1:
        return operands[0]
    return carried(op, node("bin", op, sorted(operands, key=order), INFIX[op][0]), operands)


def _multiples(op: str, operands: list[Node]) -> list[Node]:
    """A sum's operand repeated ``m`` times read once as ``m * t``, a product's as ``t ^ m`` (``two_mul``,
    ``nsmul_eq_mul``, ``sq``, ``pow_succ``: in every semiring; copy red team 35: ``n = k + k`` passed beside
    the statement's ``n = 2 * k``, ``P.eval x * P.eval x`` beside ``(P.eval x)^2``). A literal repeated stays
    apart, as :func:`_answer_literals.summed` keeps it: ``n + 1 + 1`` (a definition unfolded twice in the
    statement's side) is no ``n + 2``, the honest closed form beside it."""
    groups = _grouped(operands, literals=True)
    if op == "+":
        return [g[0] if len(g) == 1 else chain("*", [node("atom", str(len(g))), g[0]]) for g in groups]
    return [g[0] if len(g) == 1 else ordered("^", [g[0], node("atom", str(len(g)))]) for g in groups]


def _grouped(operands: list[Node], literals: bool) -> list[list[Node]]:
    """``operands`` in groups of terms written alike (compared by hash, then by tokens), each group at its
    first term's place; each literal in a group of its own where ``literals``."""
    groups: list[list[Node]] = []
    seen: dict[int, list[list[Node]]] = {}
    for term in operands:
        if literals and value(term) is not None:
            groups.append([term])
            continue
        bucket = seen.setdefault(term.full, [])
        group = next((g for g in bucket if same(term, g[0])), None)
        if group is None:
            bucket.append([term])
            groups.append(bucket[-1])
        else:
            group.append(term)
    return groups


def ordered(op: str, terms: list[Node]) -> Node:
    """``t1 op t2 op ...`` for a left- or right-associative ``op`` that is not commutative: one node in the
    order written (``(a - b) - c`` is ``a - b - c``; ``a - (b - c)`` is not), a right neutral element
    taken off (``a - 0``, ``a / 1``, ``a ^ 1``; only the last operand of ``^``'s chain); an implication's
    ``True`` premises and ``False`` conclusion read (module doc)."""
    if op in ("''", "⁻¹'") and len(terms) == 2 and is_atom(terms[0], "id"):  # `id '' S`: `S` (`Set.image_id`,
        return terms[1]  # `Set.preimage_id`; red team 32)
    if op == "%" and len(terms) == 2 and is_atom(terms[0], "0"):  # `0 % b` (``_answer_modeq.divided``)
        return terms[0]
    if op == "/" and len(terms) == 2 and not _integer_division(*terms):  # `a / b` is `a * b⁻¹` (`div_eq_mul_inv`,
        return chain("*", [terms[0], node("post", "⁻¹", [terms[1]])])  # so `1 / a` is `a⁻¹`: copy red teams 35, 35b)
    neutral = RIGHT_NEUTRAL.get(op)
    terms = kept(op, terms)  # `↑n - 5` is no `n - 5` (``_answer_casts``)
    if op == "-" and len(terms) == 2 and (rest := _cancelled(*terms)) is not None:
        return rest
    if INFIX[op][1] == "l":
        first = terms[0]  # an operand ascribed `ℕ` stays whole: `((a - b : ℕ) - c : ℤ)` truncates `a - b` only
        merged = first.kind == "bin" and first.text == op and not first.natural
        operands = list(first.kids) if merged else [first]
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
    if len(operands) == 1:
        return operands[0]
    return carried(op, node("bin", op, operands, INFIX[op][0]), operands[:1] if op == "^" else operands)


def _integer_division(dividend: Node, divisor: Node) -> bool:
    """Whether ``dividend / divisor`` is shown to divide in ``ℕ`` or ``ℤ`` (its leaves there, no cast read),
    where it truncates and no ``⁻¹`` exists: ``((1 / n : ℕ) : ℚ)`` is no ``(n : ℚ)⁻¹``, ``n / 2`` on ``ℕ`` no
    ``n * 2⁻¹``."""
    shown = integral(dividend, divisor) if dividend.kind != "atom" or not is_atom(dividend, "1") else integral(divisor)
    return shown and not (dividend.cast or divisor.cast or divisor.lifted or dividend.lifted)


def _implication(operands: list[Node]) -> Node:
    """``p1 → ... → pk → c`` read as ``¬p1 ∨ ... ∨ ¬pk ∨ c`` (``imp_iff_not_or``, classical): an
    implication's premises commute, and ``True → P``, ``P → False``, ``¬(A → B)`` reach ``P``, ``¬P``,
    ``A ∧ ¬B`` by the rules of ``∨`` and ``¬``. An arrow between types reads alike on both sides, and no
    honest answer spells ``¬ℕ ∨ ℕ``."""
    *premises, conclusion = operands
    return chain("∨", [*(negated(p) for p in premises), conclusion])


def conditional(cond: Node, then: Node, other: Node) -> Node:
    """``if c then P else False`` as ``c ∧ P``, ``if c then True else Q`` as ``c ∨ Q`` and their negated
    forms (copy red team 30; a branch ``True``/``False`` makes the ``if`` a proposition, read by ``if_pos``,
    ``if_neg``); else the ``if`` itself."""
    if is_atom(then, "true") and is_atom(other, "false"):  # `if c then true else false` is `decide c`
        return cond
    if is_atom(then, "false") and is_atom(other, "true"):
        return negated(cond)
    if is_atom(other, "False"):
        return chain("∧", [cond, then])
    if is_atom(then, "True"):
        return chain("∨", [cond, other])
    if is_atom(other, "True"):
        return chain("∨", [negated(cond), then])
    if is_atom(then, "False"):
        return chain("∧", [negated(cond), other])
    return node("ite", "if", [cond, then, other], 0)


def prefix(op: str, arg: Node) -> Node:
    """``op arg`` in normal form: ``- -x`` is ``x``, and ``¬`` is pushed to the atoms (module doc)."""
    if op == "¬":
        return negated(arg)
    if op == "↑":  # taken off where it changes nothing (``_answer_casts``)
        return cast(arg)
    if op == ASCRIBED:
        return elaborated(arg)
    if op == NATURAL and arg.kind == "post" and arg.text == "⁻¹":  # no `⁻¹` on ℕ: `(1 / a : ℕ)` read before its
        kids = [node("atom", "1"), *arg.kids]  # type (it truncates)
        return replace(carried("/", node("bin", "/", kids, INFIX["/"][0]), kids), natural=True)
    if op == NATURAL:
        return replace(arg, natural=True)
    if op == "-" and arg.kind == "pre" and arg.text == op:
        return arg.kids[0]
    if op == "⋃₀" and (elements := members.listed(arg)) is not None:  # `⋃₀ {S, T}` is `S ∪ T` (copy red team 33:
        return chain("∪", elements)  # `Set.sUnion_insert`, `Set.sUnion_singleton`)
    if op == "⋃₀":
        return quantifiers.union_of(NORMAL, arg)
    return node("pre", op, [arg], PREFIX[op])


def _cancelled(left: Node, right: Node) -> Node | None:
    """``a + b - b`` as ``a`` (``add_tsub_cancel_right`` on ``ℕ``, ``add_sub_cancel_right`` in a ring; value red
    team 49: the question at ``n + 1 - 1`` passed, and with it ``(· + 1) ⁻¹' {n | C (n - 1) ∧ ..}``), where
    ``right`` is written as one operand of the sum ``left``; else None."""
    if left.kind != "bin" or left.text != "+":
        return None
    at = next((k for k, kid in enumerate(left.kids) if same(kid, right)), None)
    return None if at is None else chain("+", [kid for k, kid in enumerate(left.kids) if k != at])


def componentwise(left: Node, right: Node) -> list[tuple[Node, Node]] | None:
    """The components of two tuples ``(a, b) = (c, d)`` or two lists ``[a, b] = [c, d]`` of one length, which
    are equal exactly when each component is (``Prod.mk.injEq``, ``List.cons.injEq``; value red team 49: the
    question's equation ``x = y`` written ``(x, 0) = (y, 0)`` or ``[x] = [y]`` passed); else None."""
    if left.kind != "group" or right.kind != "group" or left.text != right.text or left.text not in ("(", "["):
        return None
    ones, others = _items(left.kids), _items(right.kids)
    if ones is None or others is None or len(ones) != len(others) or (left.text == "(" and len(ones) < 2):
        return None
    return list(zip(ones, others, strict=True))


def _items(kids: list[Node]) -> list[Node] | None:
    """The items of a bracket's parts ``a , b , c )``, if each is one term."""
    items, commas = kids[0:-1:2], kids[1:-1:2]
    if len(kids) % 2 or not kids or any(k.kind != "part" or k.text != "," for k in commas):
        return None
    return items if all(item.kind != "part" for item in items) else None


def elaborated(arg: Node) -> Node:
    """``(arg : T)`` for a number type ``T``: Lean elaborates an arithmetic term at the type it is ascribed
    (``binop%``: every leaf cast, ``(n - 1 : ℤ)`` is ``↑n - 1``, red team 31: its copy ``(n : ℤ) - 1`` passed
    ``putnam_2018_b3``), so each leaf of ``arg``'s ``+ - * / %`` and of ``^``'s base is cast; any other term
    is cast whole, and so is one ascribed ``ℕ`` itself. A term holding a kept ``↑`` is in the wider type
    already."""
    if arg.kind == "bin" and arg.text in ARITHMETIC and not arg.lifted and not arg.natural:
        kids = [elaborated(arg.kids[0]), *arg.kids[1:]] if arg.text == "^" else [elaborated(k) for k in arg.kids]
        return chain(arg.text, kids) if arg.text in AC else ordered(arg.text, kids)
    if arg.kind == "pre" and arg.text == "-" and arg.kids:
        return prefix("-", elaborated(arg.kids[0]))
    return cast(arg)


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
        kids = args[0].kids  # `{x | C}.Nonempty` is `∃ x, x ∈ {x | C}` (`Set.Nonempty`), `Nonempty {x // C}` too
        builder = [kids[0], node("part", "|"), *kids[2:]] if len(kids) == 4 and kids[1].text == "//" else kids
        return quantifiers.every(NORMAL, "∃", [], node("group", "{", builder))  # (`nonempty_subtype`)
    if head.text == "Nonempty" and len(args) == 1 and (inhabited := quantifiers.proposition(args[0])) is not None:
        return inhabited  # `Nonempty C` is `C` for a proposition (`nonempty_Prop`; copy red team 33)
    if head.text == "setOf" and len(args) == 2:  # `setOf p x`: a set applied is membership (`Set.Mem`)
        return binary("∈", args[1], node("app", "", [head, args[0]], APP))
    if head.text == "Mem" and len(args) == 2 and (sets := [a for a in args if members.a_set(a)]) and len(sets) == 1:
        return binary("∈", args[1] if sets[0] is args[0] else args[0], sets[0])  # `Set.Mem`, either order
    if head.text in COMMUTATIVE and len(args) == 2:
        return node("app", "", [head, *sorted(args, key=order)], APP)
    if head.text == "IsRoot" and len(args) == 2:  # `p.IsRoot a` is `p.eval a = 0` (`Polynomial.IsRoot`, by
        return binary("=", node("app", "", [node("atom", "eval"), *args], APP), node("atom", "0"))  # definition)
    if head.text == "ite" and len(args) in (3, 5):  # `ite c a b`, `@ite α c inst a b`: `if c then a else b`
        cond, then, other = args if len(args) == 3 else (args[1], *args[3:])
        return conditional(cond, then, other)
    if head.text == "decide" and len(args) == 1:  # a Boolean decision read as what it decides (red team 32:
        return args[0]  # `decide_eq_true_iff`; a Bool in a `Prop` is `b = true`, read as `b` in :func:`binary`)
    if head.text == "Injective" and len(args) == 1:
        return quantifiers.injective(NORMAL, args[0])
    if head.text == "InjOn" and len(args) == 2:  # `Set.InjOn f s`, its set first (``_answer_dots.receiver_first``)
        return quantifiers.injective(NORMAL, args[1], args[0])
    if head.text in ("image", "preimage") and len(args) == 2 and is_atom(args[1], "id"):  # `s.image id`: `s`
        return args[0]
    if head.text in NUMBERED and len(args) == 1:  # `Prod.fst (a, b)` is `a`, `Prod.fst p` is `p.1`
        return projected(args[0], head.text)
    if head.text == "sUnion" and len(args) == 1:  # `Set.sUnion s` is `⋃₀ s`
        return prefix("⋃₀", args[0])
    if head.text == "succ" and len(args) == 1:  # `Nat.succ n`, `n.succ` (``Nat.succ_eq_add_one``)
        return chain("+", [args[0], node("atom", "1")])
    if head.text == "indicator" and len(args) == 3 and (value := _constant(args[1])) is not None:
        cond = binary("∈", args[2], args[0])  # `Set.indicator s f x` is `if x ∈ s then f x else 0` (by definition:
        # Mathlib/Algebra/Group/Indicator.lean, `noncomputable def indicator`)
        return conditional(cond, value, node("atom", "0"))
    if head.text in HYPERBOLIC and len(args) == 1:
        exps = [node("app", "", [node("atom", "exp"), x], APP) for x in (args[0], prefix("-", args[0]))]
        return ordered("/", [binary(HYPERBOLIC[head.text], *exps), node("atom", "2")])
    return None


def _constant(function: Node) -> Node | None:
    """The value of ``fun _ => c`` (a parameter its body does not hold) and of the constant function ``0`` or
    ``1`` (``Pi.one_apply``, by definition), else None."""
    if is_atom(function, "0") or is_atom(function, "1"):
        return function
    kids = function.kids
    if function.kind != "binder" or function.text != "fun" or len(kids) != 3 or kids[1].text not in ("=>", "↦"):
        return None
    unused = kids[0].text == "_" or (kids[0].kind in ("atom", "part") and not quantifiers.holds(kids[2], kids[0].text))
    return kids[2] if unused else None


def _decided(test: Node, number: Node) -> Node | None:
    """``(if c then a else b) = d`` for numerals ``a ≠ b``, one of them ``d``: ``c`` or ``¬c`` (``ite_eq_left_iff``
    and its dual; copy red team 35b: ``Set.indicator S (fun _ => 1) n = 1`` for ``n ∈ S`` passed), else None.
    Numerals apart are apart in the number types the statements use."""
    if test.kind != "ite" or (d := value(number)) is None:
        return None
    cond, then, other = test.kids
    a, b = value(then), value(other)
    if a is None or b is None or a == b or d not in (a, b):
        return None
    return cond if d == a else negated(cond)


def _biconditionals(operands: list[Node]) -> list[Node]:
    """``(A → B) ∧ (B → A)`` (read ``(¬A ∨ B) ∧ (¬B ∨ A)``) as ``A ↔ B`` (``iff_iff_implies_and_implies``;
    red team 29): each operand ``¬X ∨ Y`` whose dual ``X ∨ ¬Y`` is another operand, found by key."""

    def split(o: Node) -> tuple[Node, Node] | None:  # `¬X ∨ Y`: `X`, `Y`
        negation = next((kid for kid in o.kids if kid.kind == "pre" and kid.text == "¬"), None)
        return None if negation is None else (negation.kids[0], o.kids[1] if o.kids[0] is negation else o.kids[0])

    def dual(o: Node) -> Node | None:
        return None if (parts := split(o)) is None else chain("∨", [parts[0], negated(parts[1])])

    def joined(o: Node) -> Node:
        premise, conclusion = split(o) or (o, o)
        return binary("↔", premise, conclusion)

    return _paired(operands, "∨", dual, joined)


NORMAL: Final = Build(binary, chain, prefix, negated, applied)
"""The constructors above, for the rules they apply that rebuild terms with them (``_answer_nodes.Build``)."""


def _antisymmetric(operands: list[Node]) -> list[Node]:
    """``a ≤ b ∧ b ≤ a`` as ``a = b`` (``le_antisymm_iff``, in every partial order; value red team 49: the
    question's equation written as two bounds passed): each ``≤`` operand whose mirror is another, by key."""
    return _paired(
        operands,
        "≤",
        lambda o: node("bin", "≤", o.kids[::-1], INFIX["≤"][0]),
        lambda o: binary("=", *o.kids),
    )


def _paired(
    operands: list[Node], op: str, dual: Callable[[Node], Node | None], joined: Callable[[Node], Node]
) -> list[Node]:
    """``operands`` (of an ``∧`` chain) with each ``op`` operand whose ``dual`` is another operand read, with
    it, as one term ``joined``, found by key (linear)."""
    by_key = {o.key: k for k, o in enumerate(operands) if o.kind == "bin" and o.text == op and len(o.kids) == 2}
    if len(by_key) < 2:
        return operands
    used: set[int] = set()
    out = []
    for k in sorted(by_key.values()):
        mirror = dual(operands[k])
        partner = by_key.get(mirror.key) if mirror is not None else None
        if mirror is None or partner is None or partner == k or {k, partner} & used:
            continue
        if same(operands[partner], mirror):
            used |= {k, partner}
            out.append(joined(operands[k]))
    return [*out, *(o for k, o in enumerate(operands) if k not in used)] if out else operands
