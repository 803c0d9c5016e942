"""Casts between number types read by what they change, for the copy rule's normal form (copy red teams 30, 31).

The normal form took every ascription off (``(n : ℤ)`` read ``n``) and kept ``↑`` as written, so a cast
made distinct terms one and hid a copy: ``(n : ℤ) - 5 ≠ 0`` (``n ≠ 5``) and ``n - 5 ≠ 0`` on ``ℕ`` (``n >
5``, truncated) read alike, and an honest answer was refused as a copy of the question; ``↑n < 7`` and ``(n
: ℤ) < 7`` read apart, and the copy passed. A cast of a natural number or an integer (``↑e``, ``(e : ℤ)``,
``(e : ℝ)``, ``Nat.cast e``, ``Int.cast e``) is now read by meaning: it is a ring map that is injective and
order-preserving (``Nat.cast_add``, ``Nat.cast_mul``, ``Nat.cast_pow``, ``Nat.cast_lt``, ``Nat.cast_inj``,
and ``Int``'s alike), so taken off under ``+ * ^``, in a relation and as an argument, where the term reads
the same; but it stays on an operand of ``-`` (``ℕ`` truncates) and ``/`` (``ℕ`` and ``ℤ`` floor, a field
does not), where the term reads otherwise (:func:`kept`). Every spelling of the cast reads as ``↑``.

A cast stays unless the operand is shown not to change there: a numeral, a statement's variable of a field
(a cast of it is the identity or a field's embedding, which commutes with ``-`` and ``/``), of ``ℤ`` under
``-``, or a term already in the wider type (:attr:`Node.lifted`: it holds a ``↑`` that stayed).

Copy red team 31: where the cast stands decides where ``ℕ``'s operations truncate, and the mark was lost.
``↑(n - 5)`` (truncated, then cast) and ``↑n - 5`` (cast, then subtracted) read alike once the parentheses
were dropped, and a cast taken off under ``+`` was forgotten when the sum stood under ``-`` (``↑n + 1 - 5``
read as ``ℕ``'s ``n + 1 - 5``). Now a cast of a term that truncates in its own type stays as ``↑(..)``
wherever it stands but in a relation with another cast or a numeral (:func:`related`: ``Nat.cast_lt``,
``Nat.cast_inj``), the mark is carried up through the arithmetic above it (:func:`carried`), and an operand
of ``-`` or ``/`` so marked is cast whole, ``↑(n + 1) - 5``, as ``Nat.cast_add`` reads every spelling of it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from putnam_solver.core.provers.lean._answer_nodes import PREFIX, Node, node
from putnam_solver.core.provers.lean._answer_types import kind
from putnam_solver.core.provers.lean._idchars import all_digits

SENSITIVE: Final = frozenset({"-", "/"})
"""The operators whose meaning a cast of an operand changes (module doc). Not ``%``: a field has none, and
a natural number's remainder cast into ``ℤ`` is the integers' (``Int.natCast_mod``), so ``a ≡ b [MOD n]``
and ``a ≡ b [ZMOD n]`` read alike for natural numbers, as they are (``Int.natCast_mod_cast``; red team 31)."""
ARITHMETIC: Final = frozenset({"+", "*", "^", "%", *SENSITIVE})
"""The operators whose operands Lean elaborates at one type (``binop%``; ``^`` its base only)."""
ORDERS: Final = frozenset({"=", "<", "≤"})
"""Relations a cast into an ordered ring preserves and reflects (``Nat.cast_inj``, ``Nat.cast_lt``,
``Nat.cast_le``; ``>``, ``≥`` and ``≠`` are read as these before)."""


def cast(arg: Node) -> Node:
    """``↑arg``: ``arg`` itself, marked as cast, which :func:`kept` puts back where it changes the term; a
    term that truncates in its own type keeps its ``↑`` (module doc)."""
    if arg.kind == "bin" and arg.text in ARITHMETIC and not arg.lifted and _truncates(arg):
        return explicit(arg)
    return replace(arg, cast=True)


def explicit(arg: Node) -> Node:
    """``↑arg`` as written: a term of the wider type."""
    made = node("pre", "↑", [replace(arg, cast=False)], PREFIX["↑"])
    made.lifted = True
    return made


def kept(op: str, operands: list[Node]) -> list[Node]:
    """The operands of ``op`` with each cast that changes the term there read as ``↑`` (module doc). Lean
    elaborates ``op``'s operands at one type, the widest of all their leaves (``binop%``: ``n - m ^ 2`` with
    ``n : ℤ`` is ``n - ↑m ^ 2``), so a leaf of a field anywhere among them, or of ``ℤ`` under ``-``, makes
    every cast there change nothing."""
    if op not in SENSITIVE or not any(term.cast for term in operands):
        return operands
    kinds = set().union(*({"ℤ"} if term.lifted else _leaves(term) for term in operands))
    if "field" in kinds or (op == "-" and "ℤ" in kinds):
        return operands
    return [explicit(term) if _changes(op, term) else term for term in operands]


def carried(op: str, made: Node, operands: list[Node]) -> Node:
    """``made``, built by the arithmetic ``op`` from ``operands``, marked as they are: cast where an operand
    is (``↑a + ↑b`` is ``↑(a + b)``), lifted where one is already in the wider type."""
    if op in ARITHMETIC and made.kind == "bin" and made.text == op:
        made.cast = made.cast or any(term.cast for term in operands)
        made.lifted = made.lifted or any(term.lifted for term in operands)
    return made


def related(op: str, left: Node, right: Node) -> tuple[Node, Node]:
    """``left op right`` with a kept ``↑`` taken off both sides where each is a cast or a numeral
    (``↑(n - 5) < 7`` is ``n - 5 < 7``: the cast is injective and order-preserving)."""
    if op not in ORDERS or not (_uncast(left) or _uncast(right)):
        return left, right
    if not all(_uncast(term) or _plain_cast(term) for term in (left, right)):
        return left, right
    return _uncast(left) or left, _uncast(right) or right


def _uncast(term: Node) -> Node | None:
    return term.kids[0] if term.kind == "pre" and term.text == "↑" and term.kids else None


def _plain_cast(term: Node) -> bool:
    """A numeral or a cast of a statement's natural number, read without its ``↑``."""
    return term.kind == "atom" and (all_digits(term.text) or (term.cast and kind(term) == {"ℕ"}))


def _changes(op: str, term: Node) -> bool:
    if not term.cast or term.lifted or (term.kind == "atom" and all_digits(term.text)):
        return False
    kinds = _leaves(term)
    return not ("field" in kinds or (op == "-" and "ℤ" in kinds))


def _truncates(term: Node) -> bool:
    """Whether ``term`` holds an operation of :data:`SENSITIVE` that its leaves do not show to be of a
    field (or of ``ℤ``, for ``-`` alone): one whose value a cast of the whole does not commute with."""
    ops: set[str] = set()
    _leaves(term, ops)
    if not ops & SENSITIVE:
        return False
    kinds = _leaves(term)
    return not ("field" in kinds or (ops & SENSITIVE == {"-"} and "ℤ" in kinds))


def _leaves(term: Node, ops: set[str] | None = None) -> set[str]:
    """The kinds (``_answer_types.kind``) of the atoms of ``term``'s arithmetic, down to its operators
    (collected in ``ops``); a lifted term reads ``ℤ`` (its ``-`` does not truncate), any other term ``?``."""
    found: set[str] = set()
    todo = [term]
    while todo:
        part = todo.pop()
        if part.lifted and part is not term:
            found.add("ℤ")
        elif part.kind == "bin" and part.text in ARITHMETIC:
            if ops is not None:
                ops.add(part.text)
            todo += part.kids[:1] if part.text == "^" else part.kids
        elif part.kind == "atom":
            found |= kind(part) - {"numeral"}
        else:
            found.add("?")
    return found
