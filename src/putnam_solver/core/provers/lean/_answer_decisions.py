"""G2 on a no-answer value where an ``open`` puts a classical decision in force (red teams 37 and 38).

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

So where an ``open`` in force at the value activates ``Classical`` (:func:`activated_namespaces`: the
candidate's, or, since red team 38, the statement's own: ``putnam_1964_b4``, ``2016_b2`` and ``2022_a4`` open
it themselves, and ``if ∃ n : ℕ, P n then .. else ..`` searched there unread), a value in which Lean may be
asked to decide a proposition that no instance of the library decides at default priority
(:func:`deciding_token`) is refused; the fix is to state the answer, or move the candidate's ``open`` after
the solution. Read, by the syntax and the names that decide (an ``if``'s condition, ``decide``, the library
functions of a ``Decidable``, ``DecidablePred``, ``DecidableEq`` or ``BEq`` argument, ``∑ x ∈ s with p
x``), and since red team 38 by where the proposition stands, whatever function takes it
(:func:`_decided_place`): a predicate (the body of a ``fun`` not the value's own), an argument (a bracket
group after a function: ``and (P) true`` coerces ``P`` to ``Bool`` by ``decide``), a ``·`` section, a list
literal, a set-builder not stated as a ``Set`` (Mathlib reads ``({x | p x} : Finset α)`` as a filter). Also
``Finset``'s operations that share ``Set``'s names and notations (``{a, b}``, ``∪``/``∩``/``\\``/``∆``,
``insert``, ``image``, ``Finset.univ``, ``Fintype``: :data:`FINSET_PARTS`), whose ``DecidableEq`` on functions
or propositions decides any statement, unless the text shows a ``Set`` or (red team 39) an element type
with its own computable instance, found first (:func:`plain_type`: numerals of ``ℕ``/``ℤ``/``ℚ``, ``Fin n``,
``Bool``, since red team 40 functions between finite ones; :func:`plain_universe`, and :mod:`_finset_types`
for chains, literals and, since red team 40, ``insert``, ``image`` and a counted literal of ``Bool``s).
Left: a proposition with no symbol (``fun k => Irrational k``) or a predicate given by its name. The
library's own instances named in an ``@ite``/``@dite`` (``Real.decidableLT``) decide what the plain ``if``
decides and pass as it does (false rejections 44: :func:`_explicit_instances`).

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
from putnam_solver.core.provers.lean._finset_types import counted_literals, shared_with_set, shown_insertion
from putnam_solver.core.provers.lean._number_decisions import (
    Binding,
    bindings,
    condition,
    library_decides,
    plain_type,
    plain_universe,
    solution_domains,
)
from putnam_solver.core.provers.lean._open_decl import activated_namespaces
from putnam_solver.core.provers.lean._opens_in_force import opens_before
from putnam_solver.core.provers.lean._value_levels import Levels
from putnam_solver.core.provers.lean.syntax import IDENT, NUMBER, Command, Statement, Token, name_parts, normalize_name

CANDIDATE_CLASSICAL_RULE: Final = (
    "an `open` (the candidate's or the statement's) or the `classical` tactic puts `Classical` in force at the "
    "answer (its scoped instance decides any proposition by choice: a search testing the problem's own "
    "property), and the answer has a proposition decided here; state the answer, or move the candidate's `open` "
    "after the solution"
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
    ``Classical`` is in force: the global ``open``s in force there (the candidate's, or the statement's own
    before that solution) activate its scoped instances, or (``tactic``) the value runs the ``classical``
    tactic; None otherwise."""
    pinned = next((s.command for s in expected.solutions if s.command.name == solution), None)
    if pinned is None:
        return None
    by_open = _activates_classical(opens) or _activates_classical(opens_before(expected, pinned))
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
    solution's declared type, the types of the value's leading ``fun``'s parameters, then its codomain's
    first word (:func:`solution_domains`)."""
    last_binder = ""  # the last `∑`/`∏` or `match`-like word: which one a `with` belongs to
    typed = 0  # where the plain type of the last `Fintype.card`/`Finset.univ` read ends (its `Bool` no coercion)
    partner = bracket_partners([t.text for t in value])
    counted = counted_literals(value, partner)  # where a `Bool` is written with no proposition to coerce
    found = bindings(value, partner, domains[:-1])
    levels = Levels(value, partner)
    leading, body = leading_lambdas(value, partner)
    stated = _stated_sets(value, levels, body, list(domains[-1:]) == ["Set"])
    explicit = _explicit_instances(value, partner, found)
    placed = _decided_place(value, found, levels, leading, stated, explicit)
    for i, token in enumerate(value[: len(value) if placed is None else placed]):
        text = token.text
        if i in explicit:
            continue
        if text in DECIDING_SYMBOLS:
            return i
        if (
            i not in stated
            and shared_with_set(value, i, partner, levels, stated, found)
            and not (text == "{" and library_decides(value, i + 1, partner[i], found, terms=True))
        ):
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
            if library_decides(value, *condition(value, i, partner), found):
                continue
            return i
        parts = name_parts(normalize_name(text))
        universe = plain_universe(value, i, partner, found)
        typed = max(typed, universe or 0)
        if text == "Bool" and (i < typed or counted[i]):
            continue
        if any(p in DECIDING_PARTS or p.startswith(("Decidable", "decidable", "instDecidable")) for p in parts):
            return i
        shared = FINSET_PARTS.intersection(parts) if parts[:1] != ["Set"] and universe is None else set()
        # an `insert` or `image` alone may show its type: `Finset.univ.image f` asks a `Fintype` of its own
        shown = shared in ({"insert"}, {"image"}) and shown_insertion(value, i, partner, levels, found)
        if (shared and not shown) or _collection_of_undecided(value, i, partner, found):
            return i
    return placed


FINSET_PARTS: Final = frozenset({"insert", "image", "union", "inter", "sdiff", "symmDiff", "biUnion", "univ"}) | {
    "Fintype"
}
"""``Finset``'s operations that share ``Set``'s names and decide equality of the elements
(Mathlib/Data/Finset/Insert.lean ``instance : Insert α (Finset α)`` under ``[DecidableEq α]``,
Mathlib/Data/Finset/Image.lean ``def image [DecidableEq β]``, Mathlib/Data/Finset/Lattice/Basic.lean
``instance : Union (Finset α)``...), and what makes a ``Fintype`` of a subtype, its membership decided
(``Finset.univ``, ``Fintype.card``: Mathlib/Data/Fintype/Sets.lean ``Set.fintype... [DecidablePred]``);
``Set.insert``, ``Set.image``, ``Set.univ``... decide nothing (a name whose first part is ``Set``)."""

_NOT_APPLIED: Final = frozenset(
    {"if", "fun", "λ", "with", "in", "at", "do", "by", "let", "have", "show", "from", "return", "where", "calc"}
    | {"using", "mod"}
)
"""Words a group after them is no argument of (a branch after ``then``/``else`` and a ``match``'s
discriminant are read as arguments: a ``Bool`` may be expected there)."""
_ARGUMENT_AFTER: Final = frozenset({")", "]", "}", "⟩", "⦄", "<|", "$", "!", "|>.", "@"})
_MOST_PLACES: Final = 64
"""More propositions in deciding places than an honest answer writes: the first is refused unread."""


def _collection_of_undecided(value: Sequence[Token], i: int, partner: dict[int, int], found: Sequence[Binding]) -> bool:
    """``Finset (ℕ → ℕ)``, ``Multiset Prop``: a collection of elements whose equality only
    ``Classical.propDecidable`` decides (functions, propositions, sets), which any of its operations may ask
    for (``Finset.sup`` of singletons of functions counts the distinct ones); not of functions between plain
    finite types (``Finset (Fin 2 → Bool)``: :func:`plain_type`)."""
    if name_parts(normalize_name(value[i].text))[-1:] not in (["Finset"], ["Multiset"]) or i + 1 >= len(value):
        return False
    if value[i + 1].text == "(" and i + 1 in partner:
        if plain_type(value, i + 2, partner[i + 1], partner, found, finite=False):
            return False
        inner = value[i + 1 : partner[i + 1] + 1]
    else:
        inner = value[i + 1 : i + 2]
    return any(t.text in ("→", "->", "Prop", "Set", "Type", "Sort") for t in inner)


def _decided_place(
    value: Sequence[Token],
    found: Sequence[Binding],
    levels: Levels,
    leading: set[int],
    stated: set[int],
    explicit: frozenset[int] = frozenset(),
) -> int | None:
    """The first token of a proposition the library does not decide at default priority (:func:`library
    _decides`) standing where Lean may be asked to decide it: the body of a ``fun`` other than the value's
    own leading ones (a predicate: ``List.find? fun k => P k``, whatever function takes it), a bracket group
    given as an argument (``and (P) true``: a proposition coerced to ``Bool`` by ``decide``, whatever function
    wants the ``Bool``), a ``·`` section (``(· ∈ S)``), a list literal, what follows ``<|``, or a set-builder
    not stated as a ``Set`` (:func:`_stated_sets`): Mathlib reads ``({x | p x} : Finset α)`` as
    ``univ.filter p``, ``{x ∈ s | p x}`` as ``s.filter p`` and ``{x ≠ a | p x}`` as ``({a}ᶜ).filter p`` where a
    ``Finset`` is expected (MathlibTest/finset_builder.lean), and a ``Set`` given to a predicate's place is one
    (``Finset.subtype {k | P k}``). A set-builder's condition is read whatever symbols it shows (value red
    team 46: ``Finset.card {k : Fin 4000 | Irrational (f k)}``, a predicate by its name, passed with no
    mark of a proposition); elsewhere only a term marked as a proposition is. Only the proposition's own
    top level counts, outside
    an ``if``'s condition (:func:`deciding_token` reads those); a binder group (``(h : P)``) binds, and the
    value's top level (an answer that is a proposition or a set) is stated, not decided; so are the groups
    of a binder (``∃ᵉ (c > 0) (d > 0),``, ``fun (h : P) =>``)."""
    checked = 0
    for i in range(len(value)):
        span = _place(value, i, leading, levels, stated)
        while (
            span is not None
            and span[0] < span[1]
            and levels.ends.get(span[0]) == span[1] - 1
            and value[span[0]].text == "("
        ):
            span = (span[0] + 1, span[1] - 1, span[2] + 1)  # `fun k => (P)`: the proposition is inside
        if span is None or span[0] in explicit or not (value[i].text == "{" or levels.marked(*span)):
            continue  # a set-builder's condition is a proposition whatever it shows (`{k | Irrational k}`)
        checked += 1
        if checked > _MOST_PLACES or not library_decides(value, span[0], span[1], found):
            return i
    return None


LIBRARY_INSTANCES: Final = frozenset({"Real.decidableLT", "Real.decidableLE", "Real.decidableEq"}) | {
    "Nat.decEq",
    "Nat.decLt",
    "Nat.decLe",
}
"""Instances of the library that decide a comparison of numbers, named in an ``@ite``/``@dite``:
Mathlib/Data/Real/Basic.lean (``noncomputable instance decidableLT (a b : ℝ) : Decidable (a < b) := by
infer_instance``, likewise ``decidableLE``, ``decidableEq``) and core's src/Init/Prelude.lean (``Nat.decEq``,
``Nat.decLt``, ``Nat.decLe``): the instances the plain ``if`` of such a comparison finds first, at default
priority, beside ``open Classical`` (:mod:`_number_decisions`). Their type ``Decidable (a < b)`` fixes the
condition (the kernel checks it), so the decision is of that comparison and no other."""


def _explicit_instances(value: Sequence[Token], partner: dict[int, int], found: Sequence[Binding]) -> frozenset[int]:
    """The tokens of each instance argument ``(Real.decidableLT a b)`` of an ``@ite α c h t e`` or ``@dite``
    (false rejections 44): a name of :data:`LIBRARY_INSTANCES` applied to number terms, with a condition
    ``c`` the library decides itself (:func:`library_decides`), read as the plain ``if`` is; and each such
    ``ite``."""
    explicit: list[int] = []
    for i, token in enumerate(value):
        if token.text not in ("ite", "dite") or i == 0 or value[i - 1].text != "@":
            continue
        atoms: list[tuple[int, int]] = []
        at = i + 1
        while len(atoms) < 3 and at < len(value):
            end = partner[at] + 1 if partner.get(at, at) > at else at + 1
            atoms.append((at, end))
            at = end
        if len(atoms) < 3 or atoms[0][1] - atoms[0][0] != 1:
            continue
        (c_start, c_end), (h_start, h_end) = atoms[1], atoms[2]
        if c_end - c_start > 1:
            c_start, c_end = c_start + 1, c_end - 1
        named = h_end - h_start > 3 and value[h_start].text == "(" and value[h_start + 1].kind == IDENT
        if (
            named
            and normalize_name(value[h_start + 1].text) in LIBRARY_INSTANCES
            and library_decides(value, c_start, c_end, found)
            and library_decides(value, h_start + 2, h_end - 1, found)
        ):
            explicit += [i, *range(h_start, h_end)]
    return frozenset(explicit)


def leading_lambdas(value: Sequence[Token], partner: dict[int, int]) -> tuple[set[int], int]:
    """The value's own leading ``fun``s (``fun a => fun b =>``, or one in brackets around the whole value),
    whose body a predicate answer states, and where that body begins."""
    i = 1 if len(value) > 1 and value[0].text == "(" and partner.get(0) == len(value) - 1 else 0
    leading: set[int] = set()
    while i < len(value) and value[i].text in ("fun", "λ"):
        leading.add(i)
        i = next((j for j in range(i + 1, len(value)) if value[j].text in ("=>", "↦")), len(value)) + 1
    return leading, i


_SET_CARDS: Final = (["Set", "ncard"], ["Set", "encard"])


def _stated_sets(value: Sequence[Token], levels: Levels, body: int, set_valued: bool) -> set[int]:
    """The ``{``s of the groups the value states as ``Set``s, whose ``DecidableEq`` or membership nothing
    decides: one ascribed ``: Set``, one counted by ``Set.ncard``/``Set.encard`` (``{x | p x}.ncard``: the
    argument is a ``Set``, and these cardinalities, ``Nat.card``'s and ``ENat.card``'s, ask no decision),
    and, where the solution's codomain is a ``Set`` (``set_valued``), one at
    the top level of the value's body (``body``: after its leading ``fun``s) or of a tuple that is the body,
    not given as an argument: the value itself, an operand of its ``∪``, a branch of its ``if``."""
    stated: set[int] = set()
    top = levels.depth[body] if body < len(value) else 0
    if body in levels.ends and value[body].text in ("(", "⟨") and levels.top(body, ",") is not None:
        top += 1  # a tuple's components (`Set ℕ × Set ℕ`)
    for k, close in levels.ends.items():
        if value[k].text != "{":
            continue
        ascribed = [t.text for t in value[close + 1 : close + 3]] == [":", "Set"]
        given = _applied(value, k, close) and value[k - 1].text not in ("then", "else")
        counted = (k > 0 and name_parts(normalize_name(value[k - 1].text)) in _SET_CARDS) or (
            [t.text for t in value[close + 1 : close + 3]] in ([".", "ncard"], [".", "encard"])
        )
        if ascribed or counted or (set_valued and k >= body and levels.depth[k] == top and not given):
            stated.add(k)
    return stated


def _place(
    value: Sequence[Token], i: int, leading: set[int], levels: Levels, stated: set[int]
) -> tuple[int, int, int] | None:
    """The span (start, end, depth of its top level) of a term at ``i`` that Lean may be asked to decide
    (:func:`_decided_place`), else None."""
    text, n = value[i].text, len(value)
    if text in ("fun", "λ") and i not in leading:
        return levels.arrow[i] + 1, levels.end(i, n), levels.depth[i]
    if text in ("<|", "$"):
        return i + 1, levels.end(i, n), levels.depth[i]
    if text not in ("(", "⟨", "[", "{") or i not in levels.ends:
        return None
    close, level = levels.ends[i], levels.depth[i] + 1
    applied = _applied(value, i, close)
    if text == "{":
        bar = levels.top(i, "|")
        return (bar + 1, close, level) if i not in stated and bar is not None else None
    colon = levels.top(i, ":")
    if levels.binder[i] or (colon is not None and all(t.kind == IDENT for t in value[i + 1 : colon])):
        return None  # `(h : P)`, `(x y : T)`: a binder or a variable's ascription
    end = close if colon is None else colon
    return (i + 1, end, level) if text == "[" or applied or levels.top(i, "·") is not None else None


def _applied(value: Sequence[Token], i: int, close: int) -> bool:
    """Whether the group ``value[i:close + 1]`` is an argument (after a function or another argument) or the
    receiver of a field (``{k | P k}.toFinset``, ``(p) |>.decide``)."""
    before = value[i - 1] if i else None
    after = value[close + 1] if close + 1 < len(value) else None
    return (
        (before is not None and before.kind in (IDENT, NUMBER) and before.text not in _NOT_APPLIED)
        or (before is not None and before.text in _ARGUMENT_AFTER)
        or (after is not None and after.text in ("|>.", "|>"))
        or (after is not None and after.text == "." and after.offset == value[close].end)
    )


def classical_tactic(value: Sequence[Token], first_by: int) -> int | None:
    """The index of a ``classical`` or ``by_cases`` tactic after the value's first ``by`` (a bare word:
    ``h.by_cases`` is ``Or.by_cases``), else None."""
    for i in range(first_by + 1, len(value)):
        if value[i - 1].text != "." and value[i].text in ("classical", "classical!", "by_cases", "by_cases!"):
            return i
    return None
