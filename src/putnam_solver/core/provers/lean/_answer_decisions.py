"""G2 on a no-answer value where the candidate's own text puts a classical decision in force (red team 37).

Core declares ``Classical.propDecidable`` a scoped instance of low priority (leanprover/lean4
src/Init/Classical.lean, commit 0099964, line 69: ``noncomputable scoped instance (priority := low)
propDecidable (a : Prop) : Decidable a``): once ``Classical``'s scoped declarations are active, every
``if P then``, ``decide P``, ``Finset.filter P``... elaborates, whatever ``P`` is, with no name in the value to
read. "The least ``n`` with ``P``" written ``((List.range 4000).find? fun k => decide (P k)).getD 0``, with
``P`` the question's property, then leaves only a witness under the bound to prove. Round 36 refused the
decision operators by name and ``open Classical in`` inside a value; the candidate's global ``open``s in
force at the value (a header, a ``section`` enclosing the solution) stayed, since G2 lets them pass on a
profile that runs G6 (``_opens_in_force.answer_reads``) and published provers put ``open scoped
Classical`` in their header (Aristotle's). Every other way to put such an instance in force before a
solution is refused already: an ``instance``, ``attribute [instance]``/``[local instance]``, a ``section``
``variable [∀ p, Decidable p]`` still open at the solution, ``open Classical in`` before it (the pinned
declaration then differs), ``namespace Classical`` around it (renamed), ``export``; no option activates an
instance.

So where the candidate's ``open``s activate ``Classical`` (:func:`activated_namespaces`) and the statement's
own ``open``s before the solution do not (``putnam_1964_b4``, ``2016_b2`` and ``2022_a4`` open it
themselves, and their answers are read as before), a value whose text asks Lean to decide a proposition
(:func:`deciding_token`) is refused; the fix is to move the ``open`` after the solution. What a text
shows is decided: the decision syntax, the library functions that take a decision (a ``Decidable``,
``DecidablePred``, ``DecidableEq`` or ``BEq`` argument, or a ``Bool`` test a proposition is coerced to by
``decide``), and Mathlib's ``{x ∈ s | p x}`` and ``∑ x ∈ s with p x``. Left, read as before: the
operations ``Finset`` shares with ``Set`` by name or notation (``{a, b}``, ``insert``, ``∪``, ``∩``, ``\\``,
``image``; their ``DecidableEq`` is on the elements, computable for numbers), a ``Fintype`` instance of a
subtype (it counts, as ``Nat.card`` does without one), and a proposition coerced to ``Bool`` by a function
of no name below.

Inside the value, the ``classical`` tactic (src/Lean/Elab/Tactic/Classical.lean, commit 034bc26, line 21:
``Meta.addInstance ``Classical.propDecidable .local 10``) puts the instance in force as the ``open`` does, and
is read so (``by classical exact fun _ => False`` decides nothing); the ``by_cases`` tactic
(src/Init/ByCases.lean, commit 01104cc, line 20: ``open Classical in refine if $h:ident : $e then ?pos else
?neg``) is itself a classical decision, refused as ``open Classical in`` is (:func:`classical_tactic`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._brackets import bracket_partners
from putnam_solver.core.provers.lean._number_decisions import (
    Binding,
    bindings,
    condition,
    library_decides,
    solution_domains,
)
from putnam_solver.core.provers.lean._open_decl import activated_namespaces
from putnam_solver.core.provers.lean._opens_in_force import opens_before
from putnam_solver.core.provers.lean.syntax import IDENT, Command, Statement, Token, name_parts, normalize_name

CANDIDATE_CLASSICAL_RULE: Final = (
    "the candidate's own `open` (or `classical` tactic) puts `Classical` in force at the answer (its scoped "
    "instance decides any proposition by choice: a search testing the problem's own property), and the answer "
    "decides a proposition here; state the answer, or move the `open` after the solution"
)

DECIDING_PARTS: Final = frozenset(
    # the decision syntax and its functions (core's `ite`, `dite`, `decide`, `cond`/`bif`, `Or.by_cases`)
    {"if", "ite", "dite", "decide", "cond", "bif", "by_cases", "byCases", "Bool"}
    # functions of a `Decidable`/`DecidablePred`/`DecidableRel` argument or a `Bool` test: core's `List`
    # and `Array` functions, Mathlib's `Nat.count`, `Fin.find`, `Finset.filter`, `Finset.sort`, `piecewise`,
    # `Option.guard`
    | {"filter", "find", "find?", "findIdx", "findIdx?", "findFinIdx?", "findGreatest", "count", "countP"}
    | {"any", "all", "takeWhile", "dropWhile", "partition", "sort", "mergeSort", "insertionSort", "guard"}
    | {"piecewise", "toFinset", "lookup", "removeAll", "erase", "eraseDups", "dedup", "contains", "elem"}
    | {"indexOf", "idxOf", "update"}
)
"""Name parts that ask Lean for a decision (``Set.toFinset`` needs a ``Fintype`` of the set, that is its
membership decided; ``Function.update``, ``List.erase`` and ``dedup`` decide equality)."""

DECIDING_SYMBOLS: Final = frozenset({"==", "!=", "&&", "||", "^^"})
"""``==`` is ``BEq``, for a type with no other ``instBEqOfDecidableEq``; the ``Bool`` operators coerce a
proposition by ``decide``."""

_BIG_OPERATORS: Final = frozenset({"∑", "∏"})
_OTHER_WITH: Final = frozenset({"match", "cases", "rcases", "induction", "obtain", "generalizing"})


def candidate_decision(
    value: Sequence[Token], expected: Statement, opens: Sequence[Command], solution: str, tactic: bool = False
) -> int | None:
    """The index of the first token of ``value`` (the value of ``solution``) that decides a proposition where
    the candidate's text puts ``Classical`` in force: its global ``open``s in force there activate its scoped
    instances and the statement's own ``open``s before that solution do not, or (``tactic``) the value runs
    the ``classical`` tactic; None otherwise."""
    pinned = next((s.command for s in expected.solutions if s.command.name == solution), None)
    if pinned is None:
        return None
    by_open = _activates_classical(opens) and not _activates_classical(opens_before(expected, pinned))
    return deciding_token(value, solution_domains(pinned)) if by_open or tactic else None


def _activates_classical(commands: Sequence[Command]) -> bool:
    """Whether an ``open`` among ``commands`` activates a namespace named ``Classical`` (``Classical``,
    ``«Classical»``, ``_root_.Classical``; Lean resolves the written name to a namespace ending in it)."""
    return any(
        name_parts(token.text)[-1:] == ["Classical"]
        for command in commands
        if command.keyword == "open"
        for token in activated_namespaces(command.tokens, command.head)
    )


def deciding_token(value: Sequence[Token], domains: Sequence[str | None] = ()) -> int | None:
    """The index of the first token of ``value`` that asks Lean to decide a proposition no instance of the
    library's decides at default priority (:mod:`_number_decisions`), else None. ``domains``: those of the
    solution's declared type, the types of the value's leading ``fun``'s parameters."""
    last_binder = ""  # the last `∑`/`∏` or `match`-like word: which one a `with` belongs to
    partner = bracket_partners([t.text for t in value])
    found: list[Binding] | None = None
    for i, token in enumerate(value):
        text = token.text
        if text in DECIDING_SYMBOLS or _finset_filter_notation(value, i, partner):
            return i
        if text in _BIG_OPERATORS or text in _OTHER_WITH:
            last_binder = text
        if token.kind != IDENT:
            continue
        if text == "with" and last_binder in _BIG_OPERATORS:  # `∑ x ∈ s with p x, f x` filters `s`
            return i
        if text == "if" and i + 1 < len(value) and value[i + 1].text == "let":  # a pattern match, no decision
            continue
        if text in ("if", "ite", "dite"):
            found = bindings(value, partner, domains) if found is None else found
            if library_decides(value, *condition(value, i, partner), found):
                continue
            return i
        parts = name_parts(normalize_name(text))
        if any(p in DECIDING_PARTS or p.startswith(("Decidable", "decidable", "instDecidable")) for p in parts):
            return i
    return None


def _finset_filter_notation(value: Sequence[Token], i: int, partner: dict[int, int]) -> bool:
    """``{x ∈ s | p x}`` (or ``{(x : T) ∈ s | ...}``): Mathlib's notation for ``Finset.filter`` on a
    finset (``Set.sep`` on a set, the same text; ``{x | x ∈ s ∧ p x}`` spells the set)."""
    if value[i].text != "{" or i + 2 >= len(value):
        return False
    j = partner.get(i + 1, i + 1) if value[i + 1].text == "(" else i + 1
    return (value[j].kind == IDENT or j > i + 1) and j + 1 < len(value) and value[j + 1].text == "∈"


def classical_tactic(value: Sequence[Token], first_by: int) -> int | None:
    """The index of a ``classical`` or ``by_cases`` tactic after the value's first ``by`` (a bare word:
    ``h.by_cases`` is ``Or.by_cases``), else None."""
    for i in range(first_by + 1, len(value)):
        if value[i - 1].text != "." and value[i].text in ("classical", "classical!", "by_cases", "by_cases!"):
            return i
    return None
