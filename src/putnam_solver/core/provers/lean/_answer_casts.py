"""Casts between number types read by what they change, for the copy rule's normal form (copy red team 30).

The normal form took every ascription off (``(n : ℤ)`` read ``n``) and kept ``↑`` as written, so a cast
made distinct terms one and hid a copy: ``(n : ℤ) - 5 ≠ 0`` (``n ≠ 5``) and ``n - 5 ≠ 0`` on ``ℕ`` (``n >
5``, truncated) read alike, and an honest answer was refused as a copy of the question; ``↑n < 7`` and ``(n
: ℤ) < 7`` read apart, and the copy passed. A cast of a natural number or an integer (``↑e``, ``(e : ℤ)``,
``(e : ℝ)``, ``Nat.cast e``, ``Int.cast e``) is now read by meaning: it is a ring map that is injective and
order-preserving (``Nat.cast_add``, ``Nat.cast_mul``, ``Nat.cast_pow``, ``Nat.cast_lt``, ``Nat.cast_inj``,
and ``Int``'s alike), so taken off under ``+ * ^``, in a relation and as an argument, where the term reads
the same; but it stays on an operand of ``-`` (``ℕ`` truncates), ``/`` and ``%`` (``ℕ`` and ``ℤ`` floor, a
field does not), where the term reads otherwise (:func:`kept`). Every spelling of the cast reads as ``↑``.

A cast stays unless the operand is shown not to change there: a statement's variable of a field (a cast of
it is the identity or a field's embedding, which commutes with ``-`` and ``/``), or of ``ℤ`` under ``-``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from putnam_solver.core.provers.lean._answer_nodes import PREFIX, Node, node
from putnam_solver.core.provers.lean._answer_types import kind

SENSITIVE: Final = frozenset({"-", "/", "%"})
"""The operators whose meaning a cast of an operand changes (module doc)."""


def cast(arg: Node) -> Node:
    """``↑arg``: ``arg`` itself, marked as cast, which :func:`kept` puts back where it changes the term."""
    return replace(arg, cast=True)


def kept(op: str, operands: list[Node]) -> list[Node]:
    """The operands of ``op`` with each cast that changes the term there read as ``↑`` (module doc)."""
    if op not in SENSITIVE:
        return operands
    return [
        node("pre", "↑", [replace(term, cast=False)], PREFIX["↑"]) if _changes(op, term) else term for term in operands
    ]


def _changes(op: str, term: Node) -> bool:
    if not term.cast:
        return False
    kinds = kind(term) if term.kind == "atom" else {"?"}
    return not (kinds == {"field"} or (op == "-" and kinds == {"ℤ"}))
