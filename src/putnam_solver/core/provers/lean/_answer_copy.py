"""G2 on no-answer values: an answer copied from the other side of the statement's own equation.

``putnam_2020_a2`` states ``∑ j ∈ Finset.Icc 0 k, ... = putnam_2020_a2_solution k``: the value ``fun k =>
∑ j ∈ Finset.Icc 0 k, ...`` makes the theorem ``fun k => rfl``, and every gate accepted it on the text
profile (red team 12; the answer check can only say ``unknown``). The same holds for a condition copied
into a set-builder answer against ``cond ↔ x ∈ solution`` (``putnam_1971_a2``). The rule: where the
statement applies the solution to plain names (``solution k``, ``x ∈ solution``, ``solution`` alone) on
one side of an ``=`` or ``↔``, the value's body, its parameters read as those names, may not be that
relation's other side (parentheses and the names of bound variables aside), nor CONTAIN it, or the
condition or body it binds, as a sub-expression (red team 18: ``A n ∧ True``, ``¬¬A n``, ``1 * e``, ``S ∩
Set.univ``, ``{n | C ∧ True}``, ``Nat.card {x // C}`` held the copy in padding that changes nothing;
``_answer_contains`` says which sides are questions and where a run of tokens is a sub-expression). No
official answer does: an honest closed form never holds the question it answers.

The value is read through wrappers that elaborate to what they wrap (``id``, ``show .. from``, ``(e :
T)``, ``by exact``, a ``let`` alias, a beta redex, ``setOf``, ``x ∈ {y | ..}``: ``_answer_unwrap``), and a
big operator's binder is read without its type and with ``in`` as ``∈`` (red team 13); and as the
function the copy denotes however it is abstracted (red team 14: against ``putnam_2025_a3_solution n ↔
AliceHasWinningStrategy n`` the eta-reduced ``AliceHasWinningStrategy``, the section
``(AliceHasWinningStrategy ·)`` and the pipelines ``fun m => m |> AliceHasWinningStrategy``, ``... <| m``
passed the text profile, the theorem then ``Iff.rfl``).

Before any of that, both the value and the statement's side are rewritten to the term Lean elaborates
(``_answer_normal``, red team 15): local definitions, identities, beta and eta redexes, ascriptions,
simple tactic blocks, one-case matches and the statement's own definitions, wherever they stand.

A value with no parameter at the top (a set or a function written whole) is also held against the other
side abstracted over the names the solution is applied to (red team 23: ``{P | C P} ∩ Set.univ``, ``{p |
C p.1 p.2}ᶜᶜ`` against ``C P ↔ P ∈ solution`` were compared with nothing); a pattern set-builder may carry a
type (``{(a, b) : ℤ × ℤ | C}``).

Both are then read in one normal form (``_answer_order``, red team 22): the operands of a commutative
operation in one order (``b + a``, ``B ∧ A``, ``b = a``, ``b > a`` for ``a < b``), a notation's function
form as the notation (``HAdd.hAdd a b``, ``Eq a b``, ``And A B``), padding that changes nothing taken off
at any depth (``A (n + 0)``, ``c ^ (n * 1)``, ``P ∧ True`` inside a body), and the two compared with the
parentheses that form writes (``∑ j ∈ s, (1 + 1)`` is no copy of ``∑ j ∈ s, 1 + 1``). Each is compared and
searched in that form and also as written, form with like form: a stretch the normal form cannot read
keeps its order, while the same term read elsewhere is reordered. It is still a first
line, read in tokens: a copy up to algebra beyond those identities (distributed, re-indexed) passes here,
as in Rocq's check by meaning (``provers/rocq/restated.py``); Lean's gates have
no check by meaning for it yet. An eta-reduced reading (the value leaves off the statement's trailing
arguments) is compared whole, never searched inside.

A ``Bool`` solution compared with ``true`` (``solution n = true ↔ C``) is located with the comparison, and
the value compared as ``v = true`` (copy red team 34: ``fun n => decide C`` passed).

Where the statement applies the solution and the side beside it are found by ``_answer_sides``; the
value's shapes (sections, pipelines, tuples, eta, the side abstracted) are read by ``_answer_shapes``.
"""

from __future__ import annotations

from collections.abc import Sequence

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean._answer_binders import plain_name
from putnam_solver.core.provers.lean._answer_canonical import BINDERS, NUMBERED, canonical_kept
from putnam_solver.core.provers.lean._answer_contains import Haystack, haystacks
from putnam_solver.core.provers.lean._answer_cover import PADDED, WIDENING, covers
from putnam_solver.core.provers.lean._answer_extremal import RESTRICTION
from putnam_solver.core.provers.lean._answer_needles import needles
from putnam_solver.core.provers.lean._answer_normal import definitions, normalized, normalized_texts, work_for
from putnam_solver.core.provers.lean._answer_order import TooDeep
from putnam_solver.core.provers.lean._answer_reduce import hypothesis_definitions
from putnam_solver.core.provers.lean._answer_scopes import renamed_free
from putnam_solver.core.provers.lean._answer_shapes import (
    MAX_ETA,
    applicative,
    glued_projections,
    names_something,
    piped,
    projections,
    rebound,
    sections,
    spelled,
    tuple_set,
)
from putnam_solver.core.provers.lean._answer_sides import applications, other_sides, tuple_applications, widened
from putnam_solver.core.provers.lean._answer_types import (
    Types,
    abstracted,
    declared,
    parameter_types,
    typed,
)
from putnam_solver.core.provers.lean._answer_unwrap import readings
from putnam_solver.core.provers.lean.syntax import Statement, Token, bound_scopes, code_tokens, normalize_name

RULE = (
    "the answer is the other side of the statement's own `{}` (the question's expression or condition "
    "copied), which makes the theorem hold by its shape alone; state the answer in closed form"
)
UNREAD = (
    "the answer is too long or its wrappers nest too deep (local definitions, identities, tactic blocks) for "
    "the copy rule to read it as Lean elaborates it; state the answer more plainly"
)


def copied_violations(value: Sequence[Token], label: str, expected: Statement, solution: str) -> list[Violation]:
    """A violation when ``value`` is a side of a relation whose other side is the solution (module doc), or
    when it nests too deep to be read in normal form (``_answer_order``)."""
    theorem = [t.text for t in code_tokens(expected.theorem.tokens[: expected.proof_assign])]
    try:
        with typed(declared(theorem)):  # the statement's variables' types, both sides alike (``_answer_types``)
            return _copied(value, label, expected, solution)
    except TooDeep:
        return [Violation(value[0].line if value else 0, label, UNREAD)]


def _copied(value: Sequence[Token], label: str, expected: Statement, solution: str) -> list[Violation]:
    unfold = definitions(expected.commands, {s.command.name or "" for s in expected.solutions})
    budget = work_for(value)  # one budget for every normalization below: linear in the value
    code = normalized(code_tokens(value), unfold, budget)
    if not code:
        return []
    signature = code_tokens(expected.theorem.tokens[expected.theorem.head : expected.proof_assign])
    stated = hypothesis_definitions(signature)  # the theorem's own variables: read in its side only
    theorem_code = code_tokens(expected.theorem.tokens[: expected.proof_assign])
    theorem = [t.text for t in theorem_code]
    declared = {normalize_name(name) for name in expected.declared_names}
    scopes = [(n, at, until) for n, at, until in bound_scopes(theorem_code) if n not in declared]

    def local(start: int, end: int) -> frozenset[str]:  # names a value cannot hold unless it binds them itself:
        return frozenset(n for n, at, until in scopes if at < start and until >= end)  # bound around the use

    own = frozenset(declared)
    variants = []
    for params, body, kinds in readings(code):
        if names_something(body):
            written = spelled([t.text for t in body])
            sectioned, texts = sections(written, params)
            variants += [(sectioned, texts, kinds), (*tuple_set(texts, sectioned), kinds)]
            if sectioned != params:  # red team 19: `(· ∈ S)` is a function, and holds `S` whole as well
                variants.append((params, written, kinds))
    sides: dict[tuple[str, ...], list[tuple[list[str], bool, list[str]]]] = {}

    def side(other: list[str]) -> list[tuple[list[str], bool, list[str]]]:  # read as the value is (``_answer_normal``)
        key = tuple(other)
        if key not in sides:
            sides[key] = _read(other, unfold, budget)
            if unfold:  # the statement's definitions folded too: where the value's reading keeps one
                sides[key] += _read(other, {}, budget)
            if stated:  # a reading the candidate cannot pad: its own budget, dropped when it meets a bound
                own = work_for(())
                with_hypotheses = _read(other, {**unfold, **stated}, own)
                sides[key] += [] if own[1] else with_hypotheses
        return sides[key]

    def equal(copy: list[str], other: list[str], relation: str, types: Types) -> bool:  # with the parentheses
        with typed(types):  # (``∑ j ∈ s, (1 + 1)`` is no ``∑ j ∈ s, 1 + 1``), in normal form and as written
            forms = _forms(copy)  # (module doc); padded (``_answer_cover``): a premise widened
            padded = WIDENING if relation == RESTRICTION else PADDED
            return any(
                forms[normal] == kept or (normal and covers(forms[True], kept, budget, padded))
                for kept, normal, _ in side(other)
            )

    held: list[tuple[list[str], list[str], list[str], str, frozenset[str], int | None, Types]] = []  # to look for
    whole, name = [], normalize_name(solution)  # inside the value once no reading is the side (``_answer_contains``)
    for params, texts, kinds in variants:
        texts = normalized_texts(spelled(piped(texts)), unfold, budget)
        whole += [] if params else [texts]
        extra_max = MAX_ETA if applicative(texts) else 0
        for extra in range(extra_max + 1):
            for start, end, args in widened(
                theorem, applications(theorem, normalize_name(solution), len(params) + extra)
            ):
                names = dict(zip(params, args, strict=False))
                renamed = _free(texts, names) + args[len(params) :]
                types = parameter_types(params, args, kinds)
                for lo, hi, read in [(start, end, renamed), *_tested(theorem, start, end, renamed)]:
                    for relation, other in other_sides(theorem, lo, hi):
                        if equal(read, other, relation, types):
                            return [Violation(code[0].line, label, RULE.format(relation))]
                        held += [] if extra else [(read, other, args, relation, local(lo, hi), None, types)]
        for start, end, args in widened(theorem, tuple_applications(theorem, normalize_name(solution))):
            if len(params) == len(args):  # `fun (b, c) => ...`, `fun ⟨b, c⟩ => ...`
                renamed = _free(texts, dict(zip(params, args, strict=True)))
            elif len(params) == 1:  # `fun p => ... p.1 ... p.2 ...`
                fields = projections(params[0], args)
                renamed = [fields.get(t, t) for t in glued_projections(_free(texts, {}, args))]
            else:
                continue
            types = parameter_types(params, args, kinds)
            for relation, other in other_sides(theorem, start, end):
                if equal(renamed, other, relation, types):
                    return [Violation(code[0].line, label, RULE.format(relation))]
                held.append((renamed, other, args, relation, local(start, end), None, types))
    whole = [] if any(params for params, _, _ in variants) else whole  # a `fun` or set-builder is read above
    for texts in whole:  # red team 23: a set or function value against `C x ↔ x ∈ solution`, `solution x = e`
        applied = [(*a, False) for n in (1, 2) for a in applications(theorem, name, n)]
        for start, end, args, tupled in [*applied, *[(*a, True) for a in tuple_applications(theorem, name)]]:
            start, end = widened(theorem, [(start, end, args)])[0][:2]
            if end < len(theorem) and plain_name(theorem[end]):  # `solution a` inside `solution a b`
                continue
            for relation, other in other_sides(theorem, start, end):
                for abstraction in rebound(other, args, tupled):  # whole: its body binds no question
                    types = abstracted(args)
                    if equal(texts, abstraction, relation, types):
                        return [Violation(code[0].line, label, RULE.format(relation))]
                    held.append((texts, abstraction, args, relation, local(start, end), 0, types))
    indexed: list[Haystack] = []
    indexed_types: Types = ()
    for renamed, other, args, relation, bound, depth, types in held:  # an eta-reduced reading: compared whole
        if not indexed or indexed[0].source is not renamed or types != indexed_types:
            with typed(types):
                indexed, indexed_types = haystacks(renamed), types
        padded = WIDENING if relation == RESTRICTION else PADDED  # a premise's chain: ``_answer_chains``
        with typed(types):
            found = any(
                h.contains(needle[0], needle[1], budget, padded, needle[2])
                for h in indexed
                for kept, normal, typed_kept in side(other)
                if h.normal == normal
                for needle in needles(kept, args, bound, own, depth, typed_kept)
            )
        if found:
            return [Violation(code[0].line, label, RULE.format(relation))]
    return [Violation(code[0].line, label, UNREAD)] if budget[1] else []


def _read(
    other: list[str], unfold: dict[str, list[Token]], budget: list[int]
) -> list[tuple[list[str], bool, list[str]]]:
    """The statement's side ``other`` as the value is read (``_answer_normal``), in canonical form with its
    parentheses kept (:func:`_forms`), each form with its reading with binders' types kept (where a
    quantifier's domain is read: ``_answer_binding.marked``)."""
    texts = spelled(piped(spelled(normalized_texts(other, unfold, budget))))
    forms = _forms(texts)
    return [(forms[n], n, canonical_kept(texts, types=True, normal=n)[1]) for n in (True, False)]


def _forms(texts: list[str]) -> dict[bool, list[str]]:
    """``texts`` in canonical form, with parentheses: in ``_answer_order``'s normal form (``True``) and as
    written (``False``). A stretch the normal form cannot read keeps its order while the same term read
    elsewhere is reordered, so a copy is compared in both: each form with the side's in the same form."""
    return {normal: canonical_kept(texts, normal=normal)[1] for normal in (True, False)}


def _tested(theorem: list[str], start: int, end: int, value: list[str]) -> list[tuple[int, int, list[str]]]:
    """Where the statement compares the application ``theorem[start:end]`` with ``true`` (``solution n =
    true ↔ C``, a ``Bool`` solution: copy red team 34, ``fun n => decide C`` passed), that comparison, with
    the parentheses around exactly it, and the value compared likewise (``decide C = true`` reads ``C``)."""
    if theorem[end : end + 2] == ["=", "true"]:
        span = (start, end + 2)
    elif start >= 2 and theorem[start - 2 : start] == ["true", "="]:
        span = (start - 2, end)
    else:
        return []
    lo, hi, _ = widened(theorem, [(*span, [])])[0]
    return [(lo, hi, ["(", *value, ")", "=", "true"])]


def _free(texts: list[str], names: dict[str, str], targets: Sequence[str] = ()) -> list[str]:
    """``texts`` with each free occurrence of a parameter read as the statement's name, also as a dotted
    name's head (``Q.eval``); a bound name of the value that is one of those names renamed so that it
    captures none of them (``_answer_scopes``: ``fun m => ∃ n, A n ∧ n > m`` is ``∃ k, A k ∧ k > n``)."""
    return renamed_free(texts, names, BINDERS | NUMBERED, plain_name, targets)
