"""G2 on no-answer values: the set of an extremal statement copied into its answer (red team 24).

``putnam_1993_b1`` states ``IsLeast {n : ℕ | 0 < n ∧ ...} putnam_1993_b1_solution``: no ``=`` or ``↔``
stands beside the solution, so the copy rule (``_answer_copy``) had no other side to look for, and only the
names of choice and extremal operators were refused. A bounded search over the question's own set by any
other name, ``((Fin.find fun i : Fin 5000 => (i : ℕ) ∈ {n : ℕ | ...}).map Fin.val).getD 0``, ``(List.range
5000).find? (· ∈ {n | ...})``, a ``Nat.rec`` that keeps the least member, passed G2 on both profiles: the
theorem's lower bound then follows from the search's own specification (``Fin.find_min``) and only a
member below the bound remains to be shown, and the answer check can only say ``unknown``.

The rule: the set (or predicate) argument of ``IsLeast``, ``IsGreatest``, ``IsLUB``, ``IsGLB``, ``Minimal``
and ``Maximal`` written right before the solution (or its application, ``IsLeast S (solution n)``) is one
more "other side" of the solution for the copy rule, so a value that holds that set, or the condition it
binds, anywhere inside it is refused, whatever operator searches it. Likewise the function of
``Tendsto F l (𝓝 solution)`` (27 PutnamBench problems): a value holding ``F`` takes its limit by some
operator (``limUnder``, ``lim`` and kin are refused by name; this refuses the rest). No official answer
holds the set it is the extremum of, or the sequence it is the limit of
(``test_every_official_answer_is_a_valid_no_answer_value``).

Red team 26: 23 pinned statements state a condition of the solution by hand, 7 of them an extremum
(``P sol ∧ ∀ a, P a → sol.prod ≥ a.prod``, ``sol ∈ S ∧ ∀ p ∈ S, p.coeff 4 ≤ sol.coeff 4``, ``(∀ a, C a →
f a ≤ sol k) ∧ ∀ M, M < sol k → ∃ a, ..``), and the same searches of the condition passed;
:func:`handwritten_sides` gives the copy rule that condition as a side through the same
:func:`extremal_sides`. No official answer holds it either.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_terms import binder_names
from putnam_solver.core.provers.lean._idchars import starts_letter
from putnam_solver.core.provers.lean.syntax import name_parts

EXTREMAL_PREDICATES: Final = frozenset({"IsLeast", "IsGreatest", "IsLUB", "IsGLB", "Minimal", "Maximal"})
_CLOSERS: Final = {")": "(", "}": "{", "]": "[", "⟩": "⟨"}


def extremal_sides(theorem: list[str], start: int, end: int | None = None) -> list[tuple[str, list[str]]]:
    """``[(label, the set)]`` when ``theorem[:start]`` ends with ``IsLeast <set>`` (or another
    :data:`EXTREMAL_PREDICATES` word), the set one bracketed term or one name; ``[(label, the
    function)]`` when it ends with ``Tendsto <function> <filter> (𝓝`` (the solution the limit); and, given
    the end of the solution's use, the condition of an extremum stated by hand (:func:`handwritten_sides`)."""
    by_hand = handwritten_sides(theorem, start, end) if end is not None else []
    first = _argument(theorem, start)
    if first is not None and first >= 1:
        parts = name_parts(theorem[first - 1])
        if parts and parts[-1] in EXTREMAL_PREDICATES:
            return [(f"{parts[-1]} _ _", theorem[first:start]), *by_hand]
    if start >= 3 and theorem[start - 1] in ("𝓝", "nhds") and theorem[start - 2] == "(":
        filter_ = _argument(theorem, start - 2)
        function = _argument(theorem, filter_) if filter_ is not None else None
        if function is not None and function >= 1 and name_parts(theorem[function - 1])[-1:] == ["Tendsto"]:
            return [("Tendsto _ _ (𝓝 _)", theorem[function:filter_]), *by_hand]
    return by_hand


def _argument(theorem: list[str], end: int) -> int | None:
    """Where the one argument that ends right before ``theorem[end]`` begins: a bracketed term or a name."""
    if end < 1:
        return None
    last = theorem[end - 1]
    if last not in _CLOSERS:
        return end - 1 if starts_letter(last) else None
    depth = 0
    for j in range(end - 1, -1, -1):
        if theorem[j] in _CLOSERS:
            depth += 1
        elif theorem[j] in _CLOSERS.values():
            depth -= 1
            if depth == 0:
                return j if theorem[j] == _CLOSERS[last] else None
    return None


RESTRICTION: Final = "∀ _, _ → (_ ~ _)"
"""The label of a premise of an implication whose conclusion compares the solution's use with something
(``=``, ``↔``, an order): a value that holds such a premise with more beside it by ``∧``/``∩``
(``{ab | ab.1 > 0 ∧ ab.2 > 0 ∧ ab.1 = ab.2}`` under ``∀ ab, ab.1 > 0 ∧ ab.2 > 0 → (C ab ↔ ab ∈ solution)``,
``fun a b c d => a ≠ 0 ∧ ..`` under ``a ≠ 0 → (solution a b c d ↔ ..)``) is the answer restricted to the
statement's domain, an honest spelling: under the premise what it adds is what remains to be proved. Such a
side is padded only by widening (``_answer_cover.WIDENING``). Where the solution's use IS the conclusion (``P
x → x ∈ solution``), ``{x | P x ∧ 0 ≤ 1}`` proves it by shape: that premise keeps the ``∀ _, _ → _`` label and
every padding."""
_RELATIONS: Final = frozenset({"=", "↔", "≠", "≤", "<", "≥", ">"})
_WORDS: Final = frozenset({"then", "else", "with", "fun", "at", "in", "from", "by", "if", "do"})
_OPENERS: Final = frozenset(_CLOSERS.values())
_PREMISE_STARTS: Final = frozenset({",", "→", "->", ":", "↔", "=>", "↦"})
_CLAUSE_ENDS: Final = frozenset({":=", "↔"})


def handwritten_sides(theorem: list[str], start: int, end: int) -> list[tuple[str, list[str]]]:
    """The condition of an extremum stated by hand (red team 26), one more side for the copy rule: against
    ``P sol ∧ ∀ m, P m → sol ≤ m``, ``(∀ a, C a → f a ≤ sol) ∧ ∃ a, ..``, ``sol ∈ S ∧ ∀ x ∈ S, ..`` and ``∀ M
    < sol, ∃ a, ..`` (``theorem[start:end]`` the solution's use), each premise of an implication that holds
    the solution in its conclusion, abstracted over its ``∀``'s names (``{m | P m}``, ``fun a b => C a b``),
    the set ``S`` of ``sol ∈ S`` and of a bounded ``∀ x ∈ S,`` around the solution, and the clause that
    follows the solution as a premise or binder bound (``{M | ∃ a, ..}``)."""
    sides: list[tuple[str, list[str]]] = []
    if end < len(theorem) and theorem[end] in ("∈", "∉"):
        set_end = _clause_end(theorem, end + 1, frozenset({"∧", "∨", "→", "->", ",", "↔", ":="}))
        sides.append(("_ ∈ S", theorem[end + 1 : set_end]))
    if end < len(theorem) and theorem[end] in ("→", "->", ","):  # `M < sol → ∃ a, ..`, `∀ M < sol, ..`
        comma = end if theorem[end] == "," else left_at_level(theorem, start, _PREMISE_STARTS, opener=True)
        names = _binder_names(theorem, _binder_at(theorem, comma))
        clause = theorem[end + 1 : _clause_end(theorem, end + 1, _CLAUSE_ENDS)]
        if names is not None:
            sides += [("∀ _ < sol, _", side) for side in _abstracted(clause, names)]
    premise_label = RESTRICTION if _compared(theorem, start, end) else "∀ _, _ → _"
    found: int | None = start
    while found:  # outwards from the solution: each premise whose conclusion holds it
        found = left_at_level(theorem, found, frozenset({"→", "->", ","}))
        if found is None:
            break
        at = found
        if theorem[at] in ("→", "->") and _in_binder_type(theorem, at):  # `∀ m : A → B, ..`: a type
            continue
        if theorem[at] == ",":  # a binder's comma: `∀ x ∈ S, .. sol ..`
            binder = _binder_at(theorem, at)
            if binder is not None and theorem[binder] in ("∀", "∀ᵉ") and "∈" in theorem[binder:at]:
                bound = theorem.index("∈", binder, at)
                sides.append(("∀ _ ∈ S, _", theorem[bound + 1 : at]))
            continue
        premise_start = left_at_level(theorem, at, _PREMISE_STARTS, opener=True)
        premise = theorem[premise_start + 1 if premise_start is not None else 0 : at]
        if premise:
            names = _binder_names(theorem, _binder_at(theorem, premise_start))
            sides += [(premise_label, side) for side in _abstracted(premise, names)]
    return sides


_BINDER_HEADS: Final = frozenset({"∀", "∀ᵉ", "∃", "∃!", "fun", "λ", "∑", "∏", "⋃", "⋂"})
_TERM_STOPS: Final = frozenset({",", "→", "->", "|", ":=", "↔", "∧", "∨", "=", "=>", "↦"})


def _in_binder_type(theorem: list[str], arrow: int) -> bool:
    """Whether the arrow ``theorem[arrow]`` is part of a binder's type, ``∀ m : Fin 5 → ℤ,`` or ``{f : ℝ → ℝ
    | ..}``: a function type, no implication with a premise (its left, ``Fin 5``, is no condition)."""
    colon = False
    depth = 0
    for j in range(arrow - 1, -1, -1):
        text = theorem[j]
        if text in _CLOSERS:
            depth += 1
        elif text in _OPENERS:
            if depth == 0:
                return colon and text == "{"
            depth -= 1
        elif depth == 0:
            if text == ":":
                colon = True
            elif text in _BINDER_HEADS:
                return colon
            elif text in _TERM_STOPS:
                return False
    return False


def _compared(theorem: list[str], start: int, end: int) -> bool:
    """Whether the solution's use ``theorem[start:end]`` (with any more plain arguments after it, or as ``x ∈
    solution``) stands beside a relation (:data:`_RELATIONS`), not alone as a conclusion."""
    while end < len(theorem) and starts_letter(theorem[end]) and theorem[end] not in _WORDS:
        end += 1
    if start >= 2 and theorem[start - 1] in ("∈", "∉") and starts_letter(theorem[start - 2]):
        start -= 2
    return (end < len(theorem) and theorem[end] in _RELATIONS) or (start >= 1 and theorem[start - 1] in _RELATIONS)


def left_at_level(theorem: list[str], at: int, stops: frozenset[str], opener: bool = False) -> int | None:
    """The nearest ``j < at`` with ``theorem[j]`` in ``stops`` outside brackets closed before ``at``; a
    bracket left open around ``at`` is where the search stops (``opener``) or is passed (its content is
    the enclosing level)."""
    depth = 0
    for j in range(at - 1, -1, -1):
        if theorem[j] in _CLOSERS:
            depth += 1
        elif theorem[j] in _OPENERS:
            if depth == 0 and opener:
                return j
            depth = max(depth - 1, 0)
        elif depth == 0 and theorem[j] in stops:
            return j
    return None


def _clause_end(theorem: list[str], at: int, ends: frozenset[str]) -> int:
    depth = 0
    for j in range(at, len(theorem)):
        if theorem[j] in _OPENERS:
            depth += 1
        elif theorem[j] in _CLOSERS:
            depth -= 1
            if depth < 0:
                return j
        elif depth == 0 and theorem[j] in ends:
            return j
    return len(theorem)


def _binder_at(theorem: list[str], comma: int | None) -> int | None:
    """The ``∀``/``∃`` whose binder list ends at ``theorem[comma]`` (a comma), else None."""
    if comma is None or comma < 0 or theorem[comma] != ",":
        return None
    j = left_at_level(theorem, comma, frozenset({"∀", "∀ᵉ", "∃", ",", "→", "->"}))
    while j is not None and theorem[j] in ("→", "->") and _in_binder_type(theorem, j):  # `∀ m : A → B,`
        j = left_at_level(theorem, j, frozenset({"∀", "∀ᵉ", "∃", ",", "→", "->"}))
    return j if j is not None and theorem[j] in ("∀", "∀ᵉ", "∃") else None


def _binder_names(theorem: list[str], binder: int | None) -> list[str] | None:
    """The names a ``∀`` binds (``∀ a b : T,``, ``∀ (a : T) (b : U),``, ``∀ k ≥ 1,``), else None."""
    if binder is None:
        return None
    comma = _clause_end(theorem, binder + 1, frozenset({","}))
    return (binder_names(theorem[binder + 1 : comma], True) if theorem[comma : comma + 1] == [","] else None) or None


def _abstracted(condition: list[str], names: list[str] | None) -> list[list[str]]:
    """``condition`` over the binder's ``names``: ``{m | C}`` and ``fun m => C`` (``fun a b => C`` for more)."""
    if not condition:
        return []
    if not names:
        return [condition]
    one = [["{", names[0], "|", *condition, "}"]] if len(names) == 1 else []
    return [*one, ["fun", *names, "=>", *condition]]
