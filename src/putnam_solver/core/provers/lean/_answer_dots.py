"""Generalized field notation read as the application it is, for ``_answer_order``'s normal form (red team 22).

The copy rule compared ``(k + j).choose j`` and ``Nat.choose (k + j) j``, ``s.card`` and ``Finset.card s``,
``(f n).succ`` and ``Nat.succ (f n)``, as different terms, so the question copied in the other notation
passed. Lean 4 elaborates ``e.f args``, with ``e`` of type ``T ...``, as ``T.f args`` with ``e`` put at the
first explicit argument of type ``T`` (src/Lean/Elab/App.lean, ``elabAppLValsAux`` / ``addLValArg``:
"the first explicit parameter which takes an element of type ``(C ...)`` where ``C`` is ``baseName``"):
for the functions these statements use (``Nat.choose``, ``Finset.card``, ``Nat.succ``, ``Real.sqrt``...)
the first explicit argument. Here both sides are read alike:

* ``e.f a b`` (``e`` a bracketed term, or a name whose first component is a variable: a bound variable
  ``#0``, a name in lower case or of one letter, ``s.card``, ``x.sqrt``, ``P.eval``) is ``f e a b``; a
  chain ``s.card.succ`` is ``succ (card s)``;
* an applied constant in a namespace, ``Nat.choose n k``, is read by its last component, ``choose n k``
  (a name the notation table ``_answer_order.FUNCTIONS`` knows is read as its notation first).

A projection by number (``h.1``, ``(f x).2``, ``x.2.1``) and a decimal literal (``1.5``) are no field
of a name and are left; so is a constant in a namespace that nothing is applied to (``Nat.succ``,
``Set.univ``, ``Real.pi``). Where ``f`` takes ``e`` at a later argument (``P.eval x`` is
``Polynomial.eval x P``) the explicit application of a function :data:`RECEIVER_AT` lists is read with that
argument first, as the field notation gives it (red team 23: ``Polynomial.eval 0 P = 0`` for ``P.eval 0 =
0``, ``Finset.filter p s`` for ``s.filter p`` passed); a function it does not list, or one reached through
an ``open`` by its last name alone, keeps the two readings apart, and the copy passes this rule. No reading
is merged that Lean tells apart beyond functions of one last name, and an honest value holds the question
in neither. Linear: each name is split once, each node built once.
"""

from __future__ import annotations

from typing import Final, TypeVar

from putnam_solver.core.provers.lean._idchars import all_digits, starts_letter

T = TypeVar("T")
RECEIVER_AT: Final = {
    **dict.fromkeys(("Polynomial.eval", "Polynomial.rootMultiplicity", "Polynomial.map"), 1),
    **dict.fromkeys(("Finset.filter", "List.filter", "Multiset.filter"), 1),
    **dict.fromkeys(("Finset.image", "Set.image", "Set.preimage", "Finset.map", "List.map", "Multiset.map"), 1),
    **dict.fromkeys(("List.count", "Multiset.count", "List.take", "List.drop", "Finset.powersetCard"), 1),
    **dict.fromkeys(("Set.InjOn", "Set.MapsTo", "Set.SurjOn", "Set.BijOn", "List.Pairwise", "List.Sorted"), 1),
    **dict.fromkeys(("Polynomial.eval₂", "List.foldl", "List.foldr", "Set.EqOn"), 2),
}
"""Functions whose first explicit argument of their namespace's type is not their first explicit argument
(Mathlib's signatures: ``Polynomial.eval (x : R) (p : R[X])``, ``Finset.filter (p : α → Prop) [DecidablePred
p] (s : Finset α)``, ``Set.image (f : α → β) (s : Set α)``, ``Polynomial.eval₂ (f : R →+* S) (x : S) (p :
R[X])``): the index of that argument among the explicit ones, where field notation puts its receiver."""


def receiver(text: str) -> bool:
    """A name whose first component is a variable with fields after it (module doc)."""
    head, dot, rest = text.partition(".")
    if not dot or not rest or any(not part or all_digits(part) for part in rest.split(".")):
        return False
    variable = head[:1] == "#" and all_digits(head[1:])
    return variable or (starts_letter(head) and (head[0].islower() or len(head) == 1))


def fields(text: str) -> list[str]:
    """``text`` as a receiver and the fields called on it, in order: a variable's (:func:`receiver`), or a
    constant's whose last part is no namespace (copy red team 34: ``Set.univ.InjOn f`` is ``Set.InjOn f
    Set.univ``, ``Finset.univ.filter p`` is ``Finset.filter p Finset.univ``, and each passed read as one name):
    the first part in lower case after capitalized namespaces ends the constant, as Mathlib names its
    definitions (``Set.univ``, ``Finset.univ``, ``Real.pi``); ``[text]`` for any other name."""
    if receiver(text):
        return text.split(".")
    parts = text.split(".")
    for k, part in enumerate(parts[:-1]):
        if not starts_letter(part) or all_digits(part):
            break
        if k and part[0].islower():
            rest = parts[k + 1 :]
            return [".".join(parts[: k + 1]), *rest] if all(starts_letter(p) for p in rest) else [text]
    return [text]


def constant_field(text: str) -> tuple[str, str] | None:
    """A constant with one field called on it (:func:`fields`), ``Set.univ.image``: the function Lean
    resolves the field to, in the constant's namespace (its type's, as Mathlib names them: ``Set.univ :
    Set α``), and the constant; None for any other name."""
    parts = fields(text)
    if len(parts) != 2 or receiver(text):
        return None
    return f"{parts[0].rpartition('.')[0]}.{parts[1]}", parts[0]


def placed(name: str, receiver: T, args: list[T]) -> list[T] | None:
    """The explicit arguments of ``name`` given the ``receiver`` by field notation and ``args`` after it:
    the receiver at its place (:data:`RECEIVER_AT`, else first); None where too few follow to reach it."""
    at = RECEIVER_AT.get(name, 0)
    return [*args[:at], receiver, *args[at:]] if len(args) >= at else None


def field_name(text: str) -> str | None:
    """The function a ``.name`` after a bracketed term names (``(f n).succ``), None for a projection by
    number (``.1``, ``.2.1``)."""
    name = text[1:]
    return name if text[:1] == "." and starts_letter(name) and "." not in name else None


def last_name(text: str) -> str:
    """An applied constant's name read by its last component (module doc); a variable's name as it is."""
    if "." not in text or text[:1] == "#" or receiver(text):
        return text
    last = text.rpartition(".")[2]
    return last if last and not all_digits(last) else text


def receiver_first(name: str, args: list[T]) -> list[T]:
    """The explicit arguments of ``name`` applied (its full name, as written) in the order field notation
    gives them: the receiver (:data:`RECEIVER_AT`) first, so ``Polynomial.eval x P`` reads as ``P.eval x``."""
    at = RECEIVER_AT.get(name)
    if at is None or at >= len(args):
        return args
    return [args[at], *args[:at], *args[at + 1 :]]
