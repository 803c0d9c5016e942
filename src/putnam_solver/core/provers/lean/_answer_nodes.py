"""The terms ``_answer_order`` reads, and how they are keyed, compared and written back.

A term read by Lean's precedences is a tree of :class:`Node`; each node is keyed from its children's keys
once (linear in the whole), so that operands can be put in one order without comparing them token by token
(``_answer_commute``), and written back (:func:`render`) with the parentheses its reading needs and no
others. Kept apart from the reader (``_answer_order``) and the identities it applies
(``_answer_commute``), which both build nodes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from putnam_solver.core.provers.lean._abs_bars import ABS_CLOSE, ABS_OPEN
from putnam_solver.core.provers.lean._idchars import all_digits

OPEN_CLOSE: Final = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", ABS_OPEN: ABS_CLOSE}
CLOSERS: Final = frozenset(OPEN_CLOSE.values())
INFIX: Final = {
    **dict.fromkeys(("↔",), (20, "n")),
    **dict.fromkeys(("→", "->"), (25, "r")),
    "∨": (30, "r"),
    "∧": (35, "r"),
    **dict.fromkeys(("=", "≠", "<", ">", "≤", "≥", "∈", "∉", "⊆", "⊂", "∣"), (50, "n")),
    **dict.fromkeys(("+", "-", "∪", "++"), (65, "l")),
    "⊔": (68, "l"),
    "⊓": (69, "l"),
    **dict.fromkeys(("*", "/", "%", "∩"), (70, "l")),
    "\\": (70, "n"),
    "•": (73, "r"),
    "×₃": (74, "l"),
    "^": (75, "r"),
    "×ˢ": (82, "r"),
    **dict.fromkeys(("''", "⁻¹'"), (80, "l")),
    "∘": (90, "r"),
}
"""Lean's and Mathlib's infix operators: precedence and associativity (left, right, none); Mathlib's
``infixl:68 " ⊔ " => Sup.sup`` and ``infixl:69 " ⊓ " => Inf.inf`` (Mathlib/Order/Notation.lean), ``infixl:80
" '' " => image``, ``infixl:80 " ⁻¹' " => preimage`` (Mathlib/Data/Set/Defs.lean) and ``infixr:82 " ×ˢ "
=> SProd.sprod`` (Mathlib/Data/SProd.lean), ``scoped[Matrix] infixl:74 " ×₃ " => crossProduct``
(Mathlib/LinearAlgebra/CrossProduct.lean)."""
ASCRIBED: Final = "↑ (ascribed)"
"""What ``_answer_terms.ascription`` reads ``(e : ℤ)`` as: ``e`` elaborated at the wider type, a cast of each
of its arithmetic's leaves (``_answer_commute.elaborated``), where ``↑e`` casts ``e`` elaborated alone. No
token a candidate writes has a space in it."""
NATURAL: Final = "↑ (ascribed ℕ)"
"""``(e : ℕ)``: ``e`` elaborated at ``ℕ``, a leaf to the arithmetic an ascription around it elaborates
(``((n - 5 : ℕ) : ℤ)`` is ``↑(n - 5)``)."""
AC: Final = frozenset({"+", "*", "∧", "∨", "∪", "∩", "⊔", "⊓"})
"""Associative and commutative: a chain is read flat, its operands in one order (``_answer_commute``)."""
NEUTRAL: Final = {"+": "0", "*": "1", "∧": "True", "∨": "False", "∪": "∅", "∩": "Set.univ", "⊔": "⊥", "⊓": "⊤"}
PREFIX: Final = {"¬": 40, "-": 75, "↑": 1024, ASCRIBED: 1024, NATURAL: 1024, "⋃₀": 110}
"""Prefix operators and the precedence of their argument (Mathlib: ``prefix:110 "⋃₀ " => sUnion``)."""
PREDICATES: Final = frozenset({"∈", "∉", "<", "≤", ">", "≥", "≠", "⊆", "⊂", "⊇", "⊃"})
"""The relations of a binder predicate, ``∀ x ∈ s,``, ``∃ k > 0,``, ``{x ≤ a | ..}`` (Mathlib's ``binderPred``)."""
BODY: Final = {**dict.fromkeys(("∑", "∏", "∑'", "∏'"), 67), **dict.fromkeys(("⋃", "⋂", "⨆", "⨅", "∫", "∮"), 60)}
"""The binders that read their body at a precedence, one table for every reader (``_answer_order``,
``_answer_scopes``, ``_answer_contains``): ``∑ x ∈ s, f x + 1`` is ``(∑ x ∈ s, f x) + 1``, but ``∫ x, f x + 1``
integrates ``f x + 1``. Mathlib (leanprover-community/mathlib4):

* ``syntax (name := bigsum) "∑ " bigOpBinders ("with " term)? ", " term:67``, ``bigprod`` likewise
  (Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean; Note [operator precedence of big operators]: between
  ``*`` at 70 and ``+`` at 65); ``notation3 "∑' "(...)", "r:67:(scoped f => tsum f) => r``, ``∏'``
  (Mathlib/Topology/Algebra/InfiniteSum/Defs.lean);
* ``notation3 "⨆ "(...)", "r:60:(scoped f => iSup f) => r``, ``⨅`` (Mathlib/Order/SetNotation.lean lines 70
  and 73 at 01d4764), ``⋃``, ``⋂`` (same file, ``Set.iUnion``, ``Set.iInter``);
* ``notation3 "∫ "(...)", "r:60:(scoped f => f)" ∂"μ:70 => integral μ r`` and its ``in s``/``volume``
  forms (Mathlib/MeasureTheory/Integral/Bochner/Basic.lean, formerly Bochner.lean: "we do not set the
  binding power of ``r`` to ``0``, because then ``∫ x, f x = 0`` will be parsed incorrectly"), the interval
  integral ``∫ x in a..b, f x`` likewise; ``notation3 "∮ "(...)" in "C("c", "R")", "r:60:..`` (Mathlib/
  MeasureTheory/Integral/CircleIntegral.lean).

Every other binder (``∀``, ``∃``, ``fun``, ``λ``) reads its body as a ``term`` at precedence 0, as far as it
goes (leanprover/lean4 src/Lean/Parser/Term.lean: ``«forall» := leading_parser:leadPrec unicodeSymbol "∀"
"forall" >> .. >> ", " >> termParser``, ``basicFun := .. >> unicodeSymbol " ↦" " =>" >> termParser``;
src/Init/NotationExtra.lean: ``macro "∃" xs:explicitBinders ", " b:term : term``)."""


MAX: Final = 1024
APP: Final = 1023


@dataclass
class Node:
    """A term read: ``kind`` is atom, group (``kids``: its content's parts), app, bin, pre, post, binder
    (``kids``: its header's parts, then its body), ite, or part (a separator or a token kept as written)."""

    kind: str
    text: str
    kids: list[Node] = field(default_factory=list)
    prec: int = MAX
    key: int = 0  # the bound variables' numbers left out
    full: int = 0
    low: int = -1  # the number of its first bound variable (-1: none)
    height: int = field(default=0, compare=False)  # the longest path down to a leaf
    cast: bool = field(default=False, compare=False)  # read through a cast (``_answer_casts``)
    lifted: bool = field(default=False, compare=False)  # holds a cast kept as ``↑`` (``_answer_casts``)
    natural: bool = field(default=False, compare=False)  # ascribed ``ℕ`` (``NATURAL``)


def closers(texts: Sequence[str]) -> dict[int, int]:
    """Each opening bracket of ``texts`` (:data:`OPEN_CLOSE`) and the bracket that closes it, counted by depth
    whatever its kind, in one pass."""
    found: dict[int, int] = {}
    stack: list[int] = []
    for i, text in enumerate(texts):
        if text in OPEN_CLOSE:
            stack.append(i)
        elif text in CLOSERS and stack:
            found[stack.pop()] = i
    return found


def bound(text: str) -> int:
    """The number of a bound variable ``#n`` (or of its field, ``#n.card``), else -1."""
    head = text.partition(".")[0]
    return int(head[1:]) if len(head) > 1 and head[0] == "#" and all_digits(head[1:]) else -1


def unnumbered(text: str) -> str:
    """``text`` with a bound variable's number left out (``#3.card`` is ``#.card``); any other text as it is."""
    return "#" + text.partition(".")[1] + text.partition(".")[2] if bound(text) >= 0 else text


def node(kind: str, text: str, kids: Sequence[Node] = (), prec: int = MAX) -> Node:
    """A node, keyed from its children's keys: linear in the whole. The keys only order operands (a
    collision orders two wrongly, and a copy may pass); equality is decided on tokens (:func:`same`)."""
    made = Node(kind, text, list(kids), prec)
    number = bound(text) if kind in ("atom", "part") else -1
    erased = unnumbered(text) if kind in ("atom", "part") else text
    made.key = hash((_stable(kind), _stable(erased), *[kid.key for kid in made.kids]))
    made.full = hash((_stable(kind), _stable(text), *[kid.full for kid in made.kids]))
    made.low = number if number >= 0 else next((kid.low for kid in made.kids if kid.low >= 0), -1)
    made.height = 1 + max((kid.height for kid in made.kids), default=0)
    return made


@lru_cache(maxsize=4096)
def _stable(text: str) -> int:
    """A hash of ``text`` that is the same in every process: Python's own hash of a string changes with
    ``PYTHONHASHSEED``, and operands are sorted by keys, so the normal form (and with it whether a value
    holds a side as a run of tokens) changed from one run of the same candidate to the next. A tuple of
    ints hashes alike everywhere."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "big")


def same(one: Node, other: Node) -> bool:
    """The two terms are written alike (bound variables' numbers included)."""
    if one.full != other.full:
        return False
    first: list[str] = []
    second: list[str] = []
    render(one, first)
    render(other, second)
    return first == second


def renamed(mine: Sequence[str], theirs: Sequence[str], forward: dict[str, str], backward: dict[str, str]) -> bool:
    """Whether the tokens ``mine`` are ``theirs`` with bound variables renamed one to one (a field kept,
    ``#0.card`` for ``#2.card``), consistently with ``forward`` (mine to theirs) and ``backward``, which are
    then extended; where not, both are left as they were."""
    if len(mine) != len(theirs):
        return False
    ahead, back = dict(forward), dict(backward)
    for a, b in zip(mine, theirs, strict=True):
        if bound(a) >= 0 and bound(b) >= 0:
            (a, _, x), (b, _, y) = a.partition("."), b.partition(".")
            if x != y or ahead.setdefault(a, b) != b or back.setdefault(b, a) != a:
                return False
        elif a != b:
            return False
    forward.update(ahead)
    backward.update(back)
    return True


def unparenthesized(term: Node) -> Node:
    """``term`` without the parentheses around it (a ``(`` group of the term and its ``)``)."""
    while term.kind == "group" and term.text == "(" and len(term.kids) == 2 and term.kids[1].text == ")":
        term = term.kids[0]
    return term


def is_builder(term: Node) -> bool:
    """Whether ``term`` is a set-builder ``{x | C}`` (its kids: the header, ``|``, the condition, ``}``)."""
    return term.kind == "group" and term.text == "{" and len(term.kids) == 4 and term.kids[1].text == "|"


def tuple_parts(term: Node) -> list[Node] | None:
    """The components of a tuple ``(a, b)`` or ``⟨a, b⟩`` (at least two), else None."""
    kids = term.kids
    if term.kind != "group" or term.text not in ("(", "⟨") or len(kids) < 4 or len(kids) % 2:
        return None
    items, commas = kids[0:-1:2], kids[1:-1:2]
    if any(i.kind == "part" for i in items) or any(c.kind != "part" or c.text != "," for c in commas):
        return None
    return items


PAIR_FIELDS: Final = {"1": 0, "2": 1, "fst": 0, "snd": 1}


def component(term: Node, fields: str) -> Node | None:
    """``term.fields`` where ``term`` is a tuple that shows it (copy red team 33: a substitution's ``(m,
    k).1`` stood for ``m``): ``(a, b).1`` is ``a``, ``.2`` and ``.snd`` are ``b``, ``(a, b, c).2.1`` is
    ``b`` (a tuple nests to the right); ``⟨a, b⟩`` only for two parts (a longer one may be another
    structure's). None where the tuple does not show it."""
    for field_ in fields.split("."):
        parts = tuple_parts(term)
        index = PAIR_FIELDS.get(field_)
        if parts is None or index is None or (term.text == "⟨" and len(parts) != 2):
            return None
        rest = node("group", "(", term.kids[2:])  # `(b, c)` for `(a, b, c).2`
        term = parts[0] if index == 0 else parts[1] if len(parts) == 2 else rest
    return term


NUMBERED: Final = {"fst": "1", "snd": "2", "val": "1"}
"""Field names read as the field's number. ``val`` is the first field of every structure that has one
(``Subtype``, ``Fin``, ``Finset``, ``Units``, so ``ℕ+``, ``ℝ≥0``, ``↥s``); ``ZMod.val`` is a function, not a
field, but ``x.1`` elaborates on ``x : ZMod n`` only where ``ZMod n`` unfolds to ``Fin n`` (``n`` a successor),
and there ``ZMod.val`` is ``Fin.val`` (Mathlib/Data/ZMod/Defs.lean: ``def val : ∀ {n : ℕ}, ZMod n → ℕ | 0 =>
Int.natAbs | n + 1 => ((↑) : Fin (n + 1) → ℕ)``). Reading both alike only merges spellings: the copy rule
refuses more, never accepts more."""


def projected(term: Node, fields: str) -> Node:
    """``term.fields`` in one spelling: the component where the tuple shows it (:func:`component`), else the
    projection by number, one node for the whole path. ``.fst`` and ``.snd`` are ``.1`` and ``.2`` (the first
    and second fields of ``Prod``, ``PProd`` and ``Sigma`` alike: Lean numbers a structure's fields in
    order), and ``(t.2).1`` is ``t.2.1`` (copy red team 36: ``∃ p, P p.fst p.snd`` was no ``∃ a b, P a b``
    while ``p.1``, ``p.2`` were)."""
    if (part := component(term, fields)) is not None:
        return part
    path = ".".join(NUMBERED.get(f, f) for f in fields.split("."))
    if term.kind == "post" and term.text[:1] == "." and all(all_digits(f) for f in term.text[1:].split(".")):
        return node("post", f"{term.text}.{path}", term.kids)
    return node("post", "." + path, [term])


def is_atom(term: Node, text: str) -> bool:
    return term.kind == "atom" and term.text == text


def order(term: Node) -> tuple[int, int]:
    """What operands are sorted by: equal terms up to the names of bound variables are ordered by where
    their first bound variable is bound."""
    return term.key, term.low


def render(term: Node, out: list[str], level: int = 0) -> None:
    """``term``'s tokens appended to ``out``, in parentheses if it binds looser than ``level``."""
    wrap = term.prec < level
    if wrap:
        out.append("(")
    kind = term.kind
    if kind in ("atom", "part"):
        out.append(term.text)
    elif kind == "group":
        out.append(term.text)
        for kid in term.kids:
            render(kid, out)
    elif kind == "app":
        for kid in term.kids:
            render(kid, out, MAX)
    elif kind == "post":
        render(term.kids[0], out, MAX)
        out += [".", term.text[1:]] if term.text[:1] == "." else [term.text]
    elif kind == "pre":
        out.append(term.text)
        render(term.kids[0], out, PREFIX[term.text])
    elif kind == "binder":
        out.append(term.text)
        for kid in term.kids[:-1]:
            render(kid, out)
        render(term.kids[-1], out, term.prec)
    elif kind == "ite":
        for word, kid in zip(("if", "then", "else"), term.kids, strict=True):
            out.append(word)
            render(kid, out)
    else:
        precedence, assoc = INFIX[term.text]
        last = len(term.kids) - 1
        for i, kid in enumerate(term.kids):
            loose = (assoc == "l" and i == 0) or (assoc == "r" and i == last)
            if i:
                out.append(term.text)
            render(kid, out, precedence if loose else precedence + 1)  # a binder's prec: its body's
    if wrap:
        out.append(")")


@dataclass(frozen=True)
class Build:
    """The normal form's constructors (``_answer_commute.NORMAL``), handed to the rules of quantifiers and
    membership (``_answer_quantifiers``, ``_answer_members``) that rebuild the terms they read: those rules
    and the constructors apply each other, and the trusted package imports in no circle."""

    binary: Callable[[str, Node, Node], Node]
    chain: Callable[[str, list[Node]], Node]
    prefix: Callable[[str, Node], Node]
    negated: Callable[[Node], Node]
    applied: Callable[[Node, list[Node]], Node | None]
