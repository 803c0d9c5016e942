"""Whether a comparison that holds a count depends on the value's own variables where they matter (value red
team 44), for ``_answer_count_hedges``.

Red team 43 refused a count compared into a closed proposition: ``{n : ℤ | {m : ℕ | |320 - ↑(m ^ 2)| ≤ 250}
.ncard = 15 ∧ n = 320}`` is ``{320}`` or empty, a hedge on whether ``320`` is within ``250`` of exactly
``15`` squares, and a proof may leave the count unevaluated. It decided "closed" by the names written, so
the member written as padding passed: ``|320 + 0 * n - ↑(m ^ 2)|``, ``15 + (n - n)``, ``n * 0``, ``if True
then 320 else n``, ``min n 0`` on ``ℕ``: each names ``n`` and is the same closed proposition.

So the comparison is read (in the copy rule's normal form, ``_answer_order``: literals folded, ``+ 0`` and
``* 1`` gone, ``≤ 250`` as ``< 251``) as a tree, and a variable of the value counts only at a place the
reader knows the term to vary with it (:func:`varies`), failing closed anywhere else:

* a variable varies; a cast, a negation or ``⁻¹`` of what varies, varies (each is injective);
* an operation of one operand that varies, beside operands that hold no variable of the value: ``+`` (``x
  + c`` is injective; not beside ``⊤``/``∞``, which absorb), ``-`` (``c - x`` not for ``c = 0``, which
  truncates to ``0`` on ``ℕ``), ``*`` (no factor ``0``, at most one factor of the count's own variables:
  ``m * (1 - m)`` is ``0`` on ``ℕ``), ``/`` and ``%`` (no divisor ``0``, no modulus ``1``), ``^`` (no
  exponent ``0``, no base ``0`` or ``1``): each is then non-constant in that operand. Two operands that
  both hold the variable may cancel (``n - n``, ``n + -n``): refused;
* a relation (``=``, ``<``, ``≤``, ``∣``, ``≠``) or a connective (``∧``, ``∨``, ``→``, ``↔``) of one side
  that varies and others that hold no variable of the value, not one that decides it whatever it is (``0
  ≤ x``, ``x < 0``, ``1 ∣ x``, ``x ∣ 0``, ``True ∨ P``, ``False ∧ P``);
* a count (``card``, ``ncard``, ``encard``) of a set-builder or subtype whose condition varies, or of an
  interval, range or divisor set (:data:`FAITHFUL`) of one argument that varies. Red team 45: not a
  set-builder whose condition pins its member (``{m | m = n ∧ Q m}``, a conjunct ``m = t`` with ``t`` free
  of ``m``): at most one element, a count of ``0`` or ``1``, the hedge ``Q n`` spelled as a count.
  Red team 48: a count by a predicate (a filter's ``card`` or ``length``, ``countP``, ``Nat.count``, ``∑ m ∈
  s, if C then 1 else 0``) as the set-builder of its condition and collection (:func:`_selection`), and a
  condition whose conjuncts that hold the variable each vary, one an upper bound of the member and none a
  lower bound (the divisors of ``n``, ``{m | m ∣ n ∧ m < n + 1}``).
  Red team 49: a set pinned through an equation of a polynomial in the member (``{m | m * m = n ∧ Q m}``,
  ``2 * m = 2 * n``, ``(m : ℤ) = n``: :func:`_rooted`), at most its degree of members.

Anything else (``if``, ``min``, ``max``, a function no list names, a binder inside, two places of the
variable) is not read, and the comparison counts as closed: refused. An honest answer states its members
or counts a set of each member plainly (red team 42's ``{n : ℤ | 0 < n ∧ {m : ℕ | |n - ↑(m ^ 2)| ≤
251}.encard = 15}``, a count compared with the member ``t = {d | d ∣ 4}.ncard - 1``): those pass.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_algebra import difference
from putnam_solver.core.provers.lean._answer_canonical import canonical_kept
from putnam_solver.core.provers.lean._answer_count_forms import counting
from putnam_solver.core.provers.lean._answer_nodes import ASCRIBED, NATURAL, Node, node
from putnam_solver.core.provers.lean._answer_order import TooDeep, terms
from putnam_solver.core.provers.lean._answer_types import NAMES

FAITHFUL: Final = frozenset(
    {"Iio", "Iic", "Ioo", "Ico", "Ioc", "Icc", "range", "divisors", "properDivisors", "primeFactors", "Fin"}
)
"""Functions whose set changes with each argument (an interval's end, ``Finset.range n``, ``n.divisors``):
counted, with one argument that varies, the count is read as varying with it."""
RELATIONS: Final = frozenset({"=", "≠", "<", "≤", "∣"})
CONNECTIVES: Final = frozenset({"∧", "∨", "→", "↔"})
UNARY: Final = frozenset({"-", "↑", ASCRIBED, NATURAL, "¬"})
FIELDS: Final = frozenset({".1", ".2", ".fst", ".snd", ".val", "⁻¹"})
DECIDING: Final = {
    ("<", 0): "0",  # `x < 0`: false on ℕ whatever `x` is
    ("≤", 1): "0",  # `0 ≤ x`: true on ℕ
    ("∣", 1): "1",  # `1 ∣ x`
    ("∣", 0): "0",  # `x ∣ 0`
}
"""The other side that decides a relation whatever its varying side (at the given place) is."""
ABSORBING: Final = {"+": ("⊤", "∞"), "∧": ("False",), "∨": ("True",), "→": ("True", "False"), "↔": ()}
"""The operands that make an operation constant beside what varies (``⊤ + x``, ``False ∧ P``, ``P → True``)."""


def depends(texts: Sequence[str], variables: Collection[str]) -> bool:
    """Whether the comparison ``texts`` varies with one of ``variables`` at a place that matters (module doc);
    False for what it cannot read."""
    try:
        parts = terms(canonical_kept(list(texts))[1])
    except TooDeep:
        return False
    names = frozenset(v.partition(".")[0] for v in variables)  # `S.card` names `S`
    return len(parts) == 1 and varies(parts[0], names)


def varies(term: Node, names: frozenset[str]) -> bool:
    """Whether ``term`` varies with one of ``names`` (module doc); False where it cannot tell."""
    kind, text, kids = term.kind, term.text, term.kids
    if kind == "atom":
        return text.partition(".")[0] in names
    if (kind == "pre" and text in UNARY) or (kind == "post" and text in FIELDS):
        return varies(kids[0], names)
    if kind == "group" and text == "|abs":
        return varies(kids[0], names)
    if kind == "group" and text == "{":
        return _builder(kids, names)
    if kind == "group" and text == "(" and len(kids) == 2:
        return varies(kids[0], names)
    if kind == "binder" and text == "∑":
        return _selection_varies(_indicator(kids), names)
    if kind == "app" and kids:
        return _applied(kids[0].text, kids[1:], names)
    if kind == "bin" and text in RELATIONS | CONNECTIVES | {"+", "-", "*", "/", "%", "^"}:
        return _operation(text, kids, names)
    return False


def _holds(term: Node, names: frozenset[str]) -> bool:
    return (term.kind == "atom" and term.text.partition(".")[0] in names) or any(_holds(k, names) for k in term.kids)


def _apart(kids: Sequence[Node], names: frozenset[str]) -> bool:
    """Two sides that each vary with their own variables, none shared (``S.card = n``: nothing cancels)."""
    held = [{n for n in names if _holds(kid, frozenset({n}))} for kid in kids]
    if not all(held) or held[0] & held[1]:
        return False
    return all(varies(kid, frozenset(h)) for kid, h in zip(kids, held, strict=True))


def _one(kids: Sequence[Node], names: frozenset[str]) -> int | None:
    """The place of the one operand that holds one of ``names`` and varies, if exactly one holds any."""
    holding = [i for i, kid in enumerate(kids) if _holds(kid, names)]
    return holding[0] if len(holding) == 1 and varies(kids[holding[0]], names) else None


def _operation(op: str, kids: Sequence[Node], names: frozenset[str]) -> bool:
    at = _one(kids, names)
    if at is None:
        return op in RELATIONS and len(kids) == 2 and _apart(kids, names)
    others = [kid for i, kid in enumerate(kids) if i != at]
    literals = {kid.text for kid in others if kid.kind == "atom"}
    if op in RELATIONS:
        return len(kids) == 2 and DECIDING.get((op, at)) != kids[1 - at].text
    if op in ABSORBING:
        return literals.isdisjoint(ABSORBING[op])
    first = kids[0].text if kids[0].kind == "atom" else None
    if op == "-":
        return at == 0 or first != "0"
    if op == "*":
        return "0" not in literals and sum(kid.low >= 0 for kid in others) <= 1
    if op in ("/", "%"):
        return len(kids) == 2 and (kids[1].text not in ("0", "1") if at == 0 else first != "0")
    return len(kids) == 2 and (kids[1].text != "0" if at == 0 else first not in ("0", "1"))  # `^`


def _applied(head: str, args: Sequence[Node], names: frozenset[str]) -> bool:
    last = head.rpartition(".")[2]
    if counting(head):
        selection = _selection(args)
        if selection is not None:
            return _selection_varies(selection, names)
        return len(args) == 1 and varies(args[0], names)
    return last in FAITHFUL and _one(args, names) is not None


Selection = tuple[Node, set[str], Node]
"""What a count by a predicate counts (value red team 48): the collection, the predicate's bound variables
(``·`` for a section) and its condition."""


def _selection(args: Sequence[Node]) -> Selection | None:
    """The collection and predicate a count's arguments select by, if they do: a filter's ``card`` or
    ``length`` (``card (filter s p)``), or a ``countP`` or ``Nat.count`` of a predicate and a collection (in
    either order: the normal form puts a field's receiver first), the predicate a ``fun``, a section ``(· =
    n)`` or ``Eq n``; for ``Nat.count p n`` the collection is the bound ``n``."""
    if len(args) == 1:
        counted = _unwrapped(args[0])
        if counted.kind != "app" or counted.kids[0].text.rpartition(".")[2] != "filter":
            return None
        args = counted.kids[1:]
    if len(args) != 2:
        return None
    for predicate, collection in (args, args[::-1]):
        read = _predicate(_unwrapped(predicate)) if predicate.kind != "atom" else None
        if read is not None:
            return collection, read[0], read[1]
    return (args[1], set(), args[0]) if all(arg.kind == "atom" for arg in args) else None


def _predicate(term: Node) -> tuple[set[str], Node] | None:
    """A predicate's bound variables and condition: ``fun m => C``, ``(· ∣ n)``, ``Eq n`` (``n = ·``)."""
    if term.kind == "binder" and term.text == "fun" and len(term.kids) >= 3 and term.kids[-2].text == "=>":
        return {kid.text for kid in term.kids[:-2] if kid.kind == "part"}, term.kids[-1]
    if term.kind == "bin" and term.text in RELATIONS and any(kid.text == "·" for kid in term.kids):
        return {"·"}, term
    if term.kind == "app" and len(term.kids) == 2 and term.kids[0].text == "Eq":
        return {"·"}, node("bin", "=", [term.kids[1], node("atom", "·")])
    return None


def _indicator(kids: Sequence[Node]) -> Selection | None:
    """A sum ``∑ m ∈ s, if C then 1 else 0`` read as the count of ``s`` by ``C``."""
    if len(kids) != 5 or kids[1].text != "∈" or kids[3].text != ",":
        return None
    body = _unwrapped(kids[4])
    if body.kind != "ite" or [kid.text for kid in body.kids[1:]] != ["1", "0"]:
        return None
    return kids[2], {kids[0].text}, body.kids[0]


def _selection_varies(selection: Selection | None, names: frozenset[str]) -> bool:
    """A count by a predicate varies as the set-builder of its condition and its collection does
    (:func:`_condition_varies`, the collection one more conjunct that bounds the member from above)."""
    if selection is None:
        return False
    collection, members, condition = selection
    if not _holds(collection, names):
        return _condition_varies(condition, members, names)
    if not _holds(condition, names):
        return varies(collection, names)
    unbounded = not _bounds(condition, members)  # the collection is its upper bound
    return unbounded and varies(collection, names) and _condition_varies(condition, members, names)


def _builder(kids: Sequence[Node], names: frozenset[str]) -> bool:
    """A set-builder ``{x | C}`` or subtype varies with ``names`` where its condition does."""
    read = _members(kids)
    return read is not None and _condition_varies(read[1], read[0], names)


def _condition_varies(condition: Node, members: set[str], names: frozenset[str]) -> bool:
    """Whether a condition on ``members`` varies with ``names``: not pinned (at most one element), and either
    it varies as a whole or (value red team 48, the divisors of ``n``: ``{m | m ∣ n ∧ m < n + 1}``) its
    conjuncts that hold ``names`` each vary, one of them an upper bound of the member and none a lower
    bound (``{m | m ≤ n ∧ n ≤ m ∧ Q m}`` pins ``m`` by its bounds)."""
    if _pinned(condition, members):
        return False
    if varies(condition, names):
        return True
    holding = [part for part in _conjuncts(condition) if _holds(part, names)]
    upper = [part for part in holding if _bound(part, members) == 0]
    return len(upper) == 1 and all(varies(part, names) for part in holding) and not _bounds(condition, members, 1)


def _conjuncts(condition: Node) -> list[Node]:
    return condition.kids if condition.kind == "bin" and condition.text == "∧" else [condition]


def _bound(part: Node, members: set[str]) -> int | None:
    """Where the member stands in a bound ``m < t`` or ``m ≤ t`` (0: bounded above; 1: below), else None."""
    if part.kind == "bin" and part.text in ("<", "≤") and len(part.kids) == 2:
        for at in (0, 1):
            if part.kids[at].kind == "atom" and part.kids[at].text in members:
                return at
    return None


def _bounds(condition: Node, members: set[str], at: int | None = None) -> bool:
    """Whether a conjunct of ``condition`` bounds the member (from the side ``at``, or either)."""
    return any((found := _bound(part, members)) is not None and at in (None, found) for part in _conjuncts(condition))


def _members(kids: Sequence[Node]) -> tuple[set[str], Node] | None:
    """The member variables and the condition of a set-builder or subtype's parts, if it is one."""
    bars = [i for i, kid in enumerate(kids) if kid.kind == "part" and kid.text in ("|", "//")]
    if len(bars) != 1 or len(kids) != bars[0] + 3:
        return None
    return {kid.text for kid in kids[: bars[0]] if kid.kind == "atom"}, kids[bars[0] + 1]


def pinned_count(texts: Sequence[str]) -> int | None:
    """The index of the first count in ``texts`` (a value) if the value counts, anywhere, a set that pins its
    member (value red team 46), else None: the normal form reads ``Finset.filter (fun m => m = n ∧ Q m) s``,
    ``s.filter (Eq n)``, ``{m ∈ s | Q m ∧ n = m}`` and ``m ∈ {n}`` alike as a set-builder (:func:`_pinned`);
    a section ``Finset.filter (· = n) s``, ``countP`` and an indicator sum (red team 48) are read here
    (:func:`_selection`). Such a set has at most one element, so its ``card``, ``#``, ``ncard`` or any count
    ``_answer_count_forms`` reads is ``0`` or ``1`` whatever ``n`` is (``n`` not of numerals alone: a closed
    count is the hedge rule's, where compared): the hedge ``Q n`` spelled as a count, which the hedge rule
    passes where the comparison names ``n``. A value too deep to read that counts is refused (fails
    closed)."""
    at = next((i for i, text in enumerate(texts) if counting(text) or text == "∑"), None)
    if at is None:
        return None
    try:
        parts = terms(canonical_kept(list(texts))[1])
    except TooDeep:
        return at
    return at if any(_pins(part) for part in parts) else None


def _pins(term: Node) -> bool:
    if term.kind == "app" and len(term.kids) == 2 and term.kids[0].kind == "atom" and counting(term.kids[0].text):
        counted = _unwrapped(term.kids[1])
        read = _members(counted.kids) if counted.kind == "group" and counted.text == "{" else None
        if read is not None and _pinned(read[1], read[0], closed=False):
            return True
    if term.kind == "app" and term.kids and term.kids[0].kind == "atom" and counting(term.kids[0].text):
        selection = _selection(term.kids[1:])
    else:
        selection = _indicator(term.kids) if term.kind == "binder" and term.text == "∑" else None
    if selection is not None and _pinned(selection[2], selection[1], closed=False):
        return True
    return any(_pins(kid) for kid in term.kids)


def _unwrapped(term: Node) -> Node:
    """``term`` without the parentheses around it."""
    while term.kind == "group" and term.text == "(" and len(term.kids) == 2:
        term = term.kids[0]
    return term


def _pinned(condition: Node, members: set[str], closed: bool = True) -> bool:
    """Whether a top-level conjunct of ``condition`` equates a member variable with a term free of it
    (``{m | m = n ∧ Q m}``): the set has at most one element, its count is ``0`` or ``1`` whatever the value's
    variables are, a hedge on ``Q n`` (value red team 45). Unless ``closed``, not a term of numerals alone
    (``{k : ℕ | k < 1}``, read ``k = 0``: a closed count, which the hedge rule reads where it is compared)."""
    parts = condition.kids if condition.kind == "bin" and condition.text == "∧" else [condition]
    for part in parts:
        if part.kind == "bin" and part.text == "=" and len(part.kids) == 2:
            for side, other in (part.kids, part.kids[::-1]):
                if _rooted(side, frozenset(members)) and not _holds(other, frozenset(members)):
                    return closed or not _numerals(other)
            if (free := _polynomial_pin(part.kids[0], part.kids[1], members)) is not None:
                return closed or free
    return False


def _polynomial_pin(left: Node, right: Node, members: set[str]) -> bool | None:
    """Whether ``left = right`` pins a member read as polynomials (``_answer_algebra.difference``): None unless
    the difference is ``P(m) - c`` with ``P`` of numeral coefficients and positive degree in one member ``m``
    (or its cast) and ``c`` free of every member, else whether ``c`` names a variable. ``m = n + 0 * m``, ``m +
    (m - m) = n`` and ``m * 1 + 0 = n`` pinned ``m`` as ``m = n`` does but passed :func:`_rooted`, which reads
    the sides as written (found after value red team 49): such ``P`` has at most its degree of roots in
    ``ℕ``, ``ℤ`` or a field, whatever ``c`` is."""
    poly = difference(left, right)
    if poly is None:
        return None
    named = {text for monomial in poly for tokens, _ in monomial for text in tokens if text in members}
    if len(named) != 1:
        return None
    pinned = [monomial for monomial in poly if any(set(tokens) & named for tokens, _ in monomial)]
    if any(set(tokens) - {"↑", *named} for monomial in pinned for tokens, _ in monomial):
        return None  # `m * n`, `f m`: a coefficient that may vanish, a function that may repeat values
    return any(monomial not in pinned for monomial in poly if monomial)


def _rooted(term: Node, members: frozenset[str]) -> bool:
    """Whether ``term`` is the member, or a polynomial in it that an equation with a term free of it pins to
    finitely many members (value red team 49: ``{m | m * m = n ∧ Q m}``, ``{m | 2 * m + 1 = n ∧ Q m}``, ``{m |
    (m : ℤ) = n ∧ Q m}`` are the hedge ``Q`` at the roots, as ``{m | m = n ∧ Q m}`` is at ``n``): built from the
    member by casts, ``+`` of numerals, ``*`` of nonzero numerals and of such terms, and ``^`` by a nonzero
    numeral, so that every coefficient of the member is positive and the polynomial less its constant is not
    zero in ``ℕ``, ``ℤ``, ``ℚ``, ``ℝ`` or ``ℂ``, where it has at most its degree of roots (``Polynomial.card_roots'``).
    No ``-`` (``m - m``, ``ℕ``'s truncation), no term free of the member but a numeral (``m * k`` with ``k = 0``)."""
    kind, text, kids = term.kind, term.text, term.kids
    if kind == "atom":
        return text in members
    if kind == "pre" and text in ("↑", ASCRIBED, NATURAL) and kids:
        return _rooted(kids[0], members)
    if kind == "group" and text == "(" and (len(kids) == 2 or (len(kids) == 4 and kids[2].text in NAMES)):
        return _rooted(kids[0], members)  # `(m)`, `(m : ℤ)` (a cast)
    if kind != "bin" or text not in ("+", "*", "^") or not _holds(term, members):
        return False
    if text == "^":
        return len(kids) == 2 and _rooted(kids[0], members) and _positive(kids[1])
    free = [kid for kid in kids if not _holds(kid, members)]
    held = [kid for kid in kids if _holds(kid, members)]
    numerals = all(_numerals(kid) for kid in free) and (text == "+" or all(_positive(kid) for kid in free))
    return numerals and all(_rooted(kid, members) for kid in held)


def _positive(term: Node) -> bool:
    return term.kind == "atom" and term.text.isdigit() and int(term.text) > 0


def _numerals(term: Node) -> bool:
    return term.text[:1].isdigit() if term.kind == "atom" else all(_numerals(kid) for kid in term.kids)
