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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean._answer_contains import (
    BINDERS,
    NUMBERED,
    Haystack,
    canonical_kept,
    haystacks,
    needles,
)
from putnam_solver.core.provers.lean._answer_contains import plain_name as _plain_name
from putnam_solver.core.provers.lean._answer_cover import PADDED, WIDENING, covers
from putnam_solver.core.provers.lean._answer_extremal import RESTRICTION, extremal_sides
from putnam_solver.core.provers.lean._answer_normal import definitions, normalized, normalized_texts, work_for
from putnam_solver.core.provers.lean._answer_order import TooDeep
from putnam_solver.core.provers.lean._answer_reduce import hypothesis_definitions
from putnam_solver.core.provers.lean._answer_scopes import renamed_free
from putnam_solver.core.provers.lean._answer_types import TYPES, Types, abstracted, declared, typed
from putnam_solver.core.provers.lean._answer_unwrap import readings
from putnam_solver.core.provers.lean._idchars import starts_alnum, starts_digit, starts_letter
from putnam_solver.core.provers.lean.syntax import IDENT, Statement, Token, bound_scopes, code_tokens, normalize_name

RULE = (
    "the answer is the other side of the statement's own `{}` (the question's expression or condition "
    "copied), which makes the theorem hold by its shape alone; state the answer in closed form"
)
UNREAD = (
    "the answer is too long or its wrappers nest too deep (local definitions, identities, tactic blocks) for "
    "the copy rule to read it as Lean elaborates it; state the answer more plainly"
)
RELATIONS = ("=", "↔")
OPEN_CLOSE = {"(": ")", "[": "]", "{": "}", "⟨": "⟩"}
ENDS_A_SIDE = {
    "=": frozenset({")", "]", "}", ",", ":=", "∧", "∨", "↔", "→", "->"}),
    "↔": frozenset({")", "]", "}", ",", ":="}),
}
"""Tokens after which a side of the relation has ended (``=`` binds tighter than ``∧``, ``↔`` looser)."""
STARTS_A_SIDE = {
    "=": frozenset({"(", "[", "{", ",", ":", "∧", "∨", "↔", "→", "->"}),
    "↔": frozenset({"(", "[", "{", ",", ":"}),
}
"""Tokens before which a side of the relation begins."""


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
    for params, body in readings(code):
        if _names_something(body):
            spelled = _spelled([t.text for t in body])
            sectioned, texts = _sections(spelled, params)
            variants += [(sectioned, texts), _tuple_set(texts, sectioned)]
            if sectioned != params:  # red team 19: `(· ∈ S)` is a function, and holds `S` whole as well
                variants.append((params, spelled))
    sides: dict[tuple[str, ...], list[tuple[list[str], bool]]] = {}

    def side(other: list[str]) -> list[tuple[list[str], bool]]:  # read as the value is (``_answer_normal``)
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

    def equal(copy: list[str], other: list[str], relation: str) -> bool:  # with the parentheses (``∑ j ∈ s,
        forms = _forms(copy)  # (1 + 1)`` is no ``∑ j ∈ s, 1 + 1``), in normal form and as written (module doc);
        padded = WIDENING if relation == RESTRICTION else PADDED  # padded (``_answer_cover``): a premise widened
        return any(
            forms[normal] == kept or (normal and covers(forms[True], kept, budget, padded))
            for kept, normal in side(other)
        )

    held: list[tuple[list[str], list[str], list[str], str, frozenset[str], int | None]] = []  # what to look for
    whole, name = [], normalize_name(solution)  # inside the value once no reading is the side (``_answer_contains``)
    for params, texts in variants:
        texts = normalized_texts(_spelled(_piped(texts)), unfold, budget)
        whole += [] if params else [texts]
        extra_max = MAX_ETA if _applicative(texts) else 0
        for extra in range(extra_max + 1):
            for start, end, args in _widened(
                theorem, _applications(theorem, normalize_name(solution), len(params) + extra)
            ):
                names = dict(zip(params, args, strict=False))
                renamed = _free(texts, names) + args[len(params) :]
                for relation, other in _other_sides(theorem, start, end):
                    if equal(renamed, other, relation):
                        return [Violation(code[0].line, label, RULE.format(relation))]
                    held += [] if extra else [(renamed, other, args, relation, local(start, end), None)]
        for start, end, args in _widened(theorem, _tuple_applications(theorem, normalize_name(solution))):
            if len(params) == len(args):  # `fun (b, c) => ...`, `fun ⟨b, c⟩ => ...`
                renamed = _free(texts, dict(zip(params, args, strict=True)))
            elif len(params) == 1:  # `fun p => ... p.1 ... p.2 ...`
                projections = _projections(params[0], args)
                renamed = [projections.get(t, t) for t in _glued_projections(_free(texts, {}, args))]
            else:
                continue
            for relation, other in _other_sides(theorem, start, end):
                if equal(renamed, other, relation):
                    return [Violation(code[0].line, label, RULE.format(relation))]
                held.append((renamed, other, args, relation, local(start, end), None))
    whole = [] if any(params for params, _ in variants) else whole  # a `fun` or set-builder is read above
    for texts in whole:  # red team 23: a set or function value against `C x ↔ x ∈ solution`, `solution x = e`
        applied = [(*a, False) for n in (1, 2) for a in _applications(theorem, name, n)]
        for start, end, args, tupled in [*applied, *[(*a, True) for a in _tuple_applications(theorem, name)]]:
            start, end = _widened(theorem, [(start, end, args)])[0][:2]
            if end < len(theorem) and _plain_name(theorem[end]):  # `solution a` inside `solution a b`
                continue
            for relation, other in _other_sides(theorem, start, end):
                for abstraction in _rebound(other, args, tupled):  # whole: its body binds no question
                    with typed(abstracted(args)):
                        copied = equal(texts, abstraction, relation)
                    if copied:
                        return [Violation(code[0].line, label, RULE.format(relation))]
                    held.append((texts, abstraction, args, relation, local(start, end), 0))
    indexed: list[Haystack] = []
    indexed_types: Types = ()
    for (
        renamed,
        other,
        args,
        relation,
        bound,
        depth,
    ) in held:  # an eta-reduced reading (``extra``) is compared whole only
        types = abstracted(args) if depth == 0 else TYPES.get()  # a whole value's own binding (above)
        if not indexed or indexed[0].source is not renamed or types != indexed_types:
            with typed(types):
                indexed, indexed_types = haystacks(renamed), types
        padded = WIDENING if relation == RESTRICTION else PADDED  # a premise's chain: ``_answer_chains``
        with typed(types):
            found = any(
                h.contains(needle[0], needle[1], budget, padded, needle[2])
                for h in indexed
                for kept, normal in side(other)
                if h.normal == normal
                for needle in needles(kept, args, bound, own, depth)
            )
        if found:
            return [Violation(code[0].line, label, RULE.format(relation))]
    return [Violation(code[0].line, label, UNREAD)] if budget[1] else []


def _read(other: list[str], unfold: dict[str, list[Token]], budget: list[int]) -> list[tuple[list[str], bool]]:
    """The statement's side ``other`` as the value is read (``_answer_normal``), in canonical form with its
    parentheses kept (:func:`_forms`)."""
    forms = _forms(_spelled(_piped(_spelled(normalized_texts(other, unfold, budget)))))
    return [(forms[True], True), (forms[False], False)]


def _forms(texts: list[str]) -> dict[bool, list[str]]:
    """``texts`` in canonical form, with parentheses: in ``_answer_order``'s normal form (``True``) and as
    written (``False``). A stretch the normal form cannot read keeps its order while the same term read
    elsewhere is reordered, so a copy is compared in both: each form with the side's in the same form."""
    return {normal: canonical_kept(texts, normal=normal)[1] for normal in (True, False)}


def _widened(theorem: list[str], found: list[tuple[int, int, list[str]]]) -> list[tuple[int, int, list[str]]]:
    """Each application with the parentheses around exactly it (``↔ (⟨a, b⟩ ∈ solution)``) taken in, so
    that the relation beside them is found."""
    out = []
    for start, end, args in found:
        while start >= 1 and end < len(theorem) and theorem[start - 1] == "(" and theorem[end] == ")":
            start, end = start - 1, end + 1
        out.append((start, end, args))
    return out


def _tuple_applications(theorem: list[str], solution: str) -> list[tuple[int, int, list[str]]]:
    """Where the theorem applies the solution to a tuple of plain names, ``solution (b, c)``, ``solution
    ⟨b, c⟩``, or asks ``(a, b) ∈ solution`` (red team 14: ``putnam_1975_a2``'s condition copied as ``fun (b,
    c) => ...`` or with ``p.1``, ``p.2``, and ``putnam_2018_a1``'s as ``{(a, b) | ...}`` or ``{p | ...}``,
    passed the text profile; the theorem is then ``Iff.rfl``, or a one-line ``simp``)."""
    found = []
    for i, text in enumerate(theorem):
        if normalize_name(text) != solution:
            continue
        if i + 1 < len(theorem) and (names := _tuple_names(theorem[i + 1 :])) is not None:
            found.append((i, i + 2 * len(names) + 2, names))
        if i >= 2 and theorem[i - 1] == "∈" and theorem[i - 2] in (")", "⟩"):
            opener = "(" if theorem[i - 2] == ")" else "⟨"
            start = next((j for j in range(i - 3, -1, -1) if theorem[j] in (opener, ")", "⟩")), None)
            if start is not None and (names := _tuple_names(theorem[start : i - 1])) is not None:
                found.append((start, i + 1, names))
    return found


def _tuple_names(texts: Sequence[str]) -> list[str] | None:
    """The names of the tuple ``(a, b, ...)`` or ``⟨a, b, ...⟩`` that ``texts`` begins with, if it is one of
    at least two plain names."""
    if not texts or texts[0] not in ("(", "⟨"):
        return None
    close = ")" if texts[0] == "(" else "⟩"
    end = next((j for j in range(1, len(texts)) if texts[j] in (close, "(", "⟨")), None)
    inner = list(texts[1:end]) if end is not None and texts[end] == close else []
    names, commas = inner[0::2], inner[1::2]
    tuple_ = len(names) >= 2 and len(inner) % 2 == 1 and all(c == "," for c in commas)
    return names if tuple_ and all(map(_plain_name, names)) else None


def _tuple_set(texts: list[str], params: tuple[str, ...]) -> tuple[tuple[str, ...], list[str]]:
    """``{(a, b) | c}`` or ``{⟨a, b⟩ | c}`` (Mathlib's pattern set-builder) as the condition ``c`` of its
    names ``a``, ``b``."""
    if params or len(texts) < 2 or texts[0] != "{" or texts[-1] != "}":
        return params, texts
    names = _tuple_names(texts[1:])
    bar = 2 * len(names) + 2 if names is not None else 0
    if names is not None and bar < len(texts) and texts[bar] == ":":  # `{(a, b) : ℤ × ℤ | c}` (red team 23)
        bar = next((i for i in range(bar, len(texts) - 1) if texts[i] == "|"), bar)
    if names is None or bar >= len(texts) - 1 or texts[bar] != "|":
        return params, texts
    return tuple(names), list(texts[bar + 1 : -1])


def _glued_projections(texts: Sequence[str]) -> list[str]:
    """``p . 1`` and ``p . 2.1`` (the lexer reads ``2.1`` as a number) as the one name ``p.1``, ``p.2.1``."""
    out: list[str] = []
    for text in texts:
        if len(out) >= 2 and out[-1] == "." and starts_digit(text) and _plain_name(out[-2].split(".")[0]):
            out[-2:] = [f"{out[-2]}.{text}"]
        else:
            out.append(text)
    return out


def _projections(param: str, args: Sequence[str]) -> dict[str, str]:
    """``p.1``, ``p.2.1``, ``p.2.2``... (and ``fst``/``snd``) of a tuple ``p`` read as the names ``args``
    (Lean's tuples nest to the right: ``(a, b, c)`` is ``(a, (b, c))``)."""
    out: dict[str, str] = {}
    for k, arg in enumerate(args):
        last = k == len(args) - 1
        for first, second in (("1", "2"), ("fst", "snd")):
            out[".".join([param, *[second] * k, *([] if last else [first])])] = arg
    return out


def _spelled(texts: Sequence[str]) -> list[str]:
    """One spelling per term: a name without escapes or ``_root_.`` (``«f»``, ``_root_.f`` and ``@f`` are
    ``f``), and without the identity (``id x``, ``f ∘ id`` and ``id ∘ f`` are ``x`` and ``f``)."""
    names = [_one_name(t) for t in texts if t != "@"]
    out: list[str] = []
    i = 0
    while i < len(names):
        after = names[i + 1] if i + 1 < len(names) else None
        if (names[i], after) in (("∘", "id"), ("id", "∘")):
            i += 2
            continue
        if names[i] != "id" or after is None or not (starts_alnum(after) or after[:1] in "(_«"):
            out.append(names[i])
        i += 1
    return out


def _one_name(text: str) -> str:
    if not (starts_letter(text) or text[:1] in "_«"):
        return text
    name = normalize_name(text)
    return name.removeprefix("_root_.") if name != "_root_" else name


MAX_ETA: Final = 4
"""How many of the statement's arguments an eta-reduced copy may leave off (``AliceHasWinningStrategy``
for ``fun n => AliceHasWinningStrategy n``; no solution takes more)."""


def _applicative(texts: Sequence[str]) -> bool:
    """Whether ``texts`` is a name applied to arguments (nothing but names, numbers and bracketed groups
    outside brackets): only then is ``texts a`` the application of the whole to ``a``, which an eta-reduced
    copy leaves off (``g + h`` applied to ``n`` is not ``g + h n``). A set written whole (``{x | C}``) is read
    with its parameter already, its application being membership (``_answer_commute.applied``)."""
    if texts[:1] == ["{"]:
        return False
    depth = 0
    for text in texts:
        if text in OPEN_CLOSE:
            depth += 1
        elif text in OPEN_CLOSE.values():
            depth -= 1
        elif depth == 0 and not (starts_alnum(text) or text[:1] in "_«"):
            return False
    return bool(texts) and depth == 0


def _sections(texts: list[str], params: tuple[str, ...]) -> tuple[tuple[str, ...], list[str]]:
    """``(f · b ·)`` is ``fun x y => f x b y`` (Lean's ``·`` abstracts its nearest enclosing parentheses,
    which the readings may have taken off already): the body without the parentheses, each ``·`` a
    parameter after ``params``."""
    written = texts
    if len(texts) >= 3 and texts[0] == "(" and texts[-1] == ")":
        texts = texts[1:-1]
    depth, dots = 0, []
    for i, text in enumerate(texts):
        if text in OPEN_CLOSE:
            depth += 1
        elif text in OPEN_CLOSE.values():
            depth -= 1
            if depth < 0:
                return params, written  # `(a) + (b)`: the first bracket closes before the end (red team 23)
        elif text == "·" and depth == 0:
            dots.append(i)
    if not dots:
        return params, texts
    names = {i: f"·{k}" for k, i in enumerate(dots)}
    return (*params, *names.values()), [names.get(i, t) for i, t in enumerate(texts)]


def _piped(texts: list[str]) -> list[str]:
    """The application a pipeline spells: ``x |> f |> g`` is ``g (f x)``, ``f <| x`` and ``f $ x`` are
    ``f x`` (src/Init/Prelude.lean's ``|>``, ``<|``, ``$``); read at the outer level, brackets dropped as
    ``_answer_contains.canonical_kept`` drops them."""
    depth, parts = 0, list[list[str]]()
    current: list[str] = []
    for text in texts:
        if text in OPEN_CLOSE:
            depth += 1
        elif text in OPEN_CLOSE.values():
            depth -= 1
        if depth == 0 and text == "|>":
            parts.append(current)
            current = []
        elif not (depth == 0 and text in ("<|", "$")):
            current.append(text)
    parts.append(current)
    return [t for part in reversed(parts) for t in part]


def _names_something(body: Sequence[Token]) -> bool:
    """Whether ``body`` uses a name outside a type ascription: a literal (``1``, ``(1 : ℕ)``) beside the
    solution is a statement that gives its answer away (a client's toy record), not a question copied."""
    return any(t.kind == IDENT and (i == 0 or body[i - 1].text != ":") for i, t in enumerate(body))


def _applications(theorem: list[str], solution: str, arity: int) -> list[tuple[int, int, list[str]]]:
    """Where the theorem applies the solution to ``arity`` plain names: ``(start, end, names)`` of each
    ``solution a b`` (``arity`` names after it) or, for one name, ``a ∈ solution``; for none, also a field
    of it (``solution.prod``, red team 26)."""
    found: list[tuple[int, int, list[str]]] = []
    for i, text in enumerate(theorem):
        if not arity and normalize_name(text).startswith(solution + "."):
            found.append((i, i + 1, []))
        if normalize_name(text) != solution:
            continue
        args = theorem[i + 1 : i + 1 + arity]
        if len(args) == arity and all(_plain_name(a) for a in args):
            found.append((i, i + 1 + arity, args))
        if arity == 1 and i >= 2 and theorem[i - 1] == "∈" and _plain_name(theorem[i - 2]):
            found.append((i - 2, i + 1, [theorem[i - 2]]))
    return found


def _other_sides(theorem: list[str], start: int, end: int) -> list[tuple[str, list[str]]]:
    """Every reading of the other side of an ``=``/``↔`` next to ``theorem[start:end]``: it may end (or
    begin) at any token that can end (begin) a side outside brackets, since a binder's comma (``∑ j ∈ s,
    f j``) is one such token inside the side."""
    sides: list[tuple[str, list[str]]] = []
    if end < len(theorem) and theorem[end] in RELATIONS:
        relation = theorem[end]
        after = theorem[end + 1 :]
        sides += [(relation, after[:k]) for k in _side_ends(after, ENDS_A_SIDE[relation], OPEN_CLOSE)]
    if start >= 1 and theorem[start - 1] in RELATIONS:
        relation = theorem[start - 1]
        before = theorem[: start - 1][::-1]
        closers = {close: open_ for open_, close in OPEN_CLOSE.items()}
        sides += [(relation, before[:k][::-1]) for k in _side_ends(before, STARTS_A_SIDE[relation], closers)]
    return sides + extremal_sides(theorem, start, end)  # `IsLeast S solution`: its set `S` (red teams 24, 26)


def _side_ends(texts: list[str], ends: frozenset[str], brackets: dict[str, str]) -> list[int]:
    """The lengths at which a side read from ``texts[0]`` on may end: before an ending token outside
    brackets, or at the end; reading stops at a bracket closed that it did not open."""
    lengths, depth = [], 0
    for k, text in enumerate(texts):
        if depth == 0 and text in ends and k:
            lengths.append(k)
        if text in brackets:
            depth += 1
        elif text in brackets.values():
            depth -= 1
            if depth < 0:
                return lengths
    return [*lengths, len(texts)] if depth == 0 else lengths


def _rebound(other: list[str], args: list[str], tupled: bool = False) -> list[list[str]]:
    """The other side abstracted over the names the solution is applied to (red team 23): against ``C P ↔ P ∈
    solution`` a value may hold the question as ``{P | C P}`` or ``fun P => C P`` inside padding that changes
    nothing (``{P | C P} ∩ Set.univ``, ``{P | C P}ᶜᶜ``, ``S ∪ S``), where ``P`` is bound by the value and
    free in ``C P``, so the side itself is never found there; its abstraction, read with ``P`` bound, is.
    Against ``(a, b) ∈ solution`` (``tupled``): ``{(a, b) | C a b}`` and ``{p | C p.1 p.2}``."""
    if not args or not all(starts_letter(a) and "." not in a for a in args):
        return []
    if not tupled:
        return [["{", args[0], "|", *other, "}"]] * (len(args) == 1) + [["fun", *args, "=>", *other]]
    pair = next(f"p{k}" for k in range(len(other) + 1) if f"p{k}" not in other)
    names = {arg: name for name, arg in _projections(pair, args).items() if ".fst" not in name and "snd" not in name}
    projected = [part for t in other for part in (names[t].partition(".") if t in names else [t])]  # `p0 . 2.1`
    pattern = ["(", *[t for arg in args for t in (",", arg)][1:], ")"]
    return [["{", *pattern, "|", *other, "}"], ["{", pair, "|", *projected, "}"], ["fun", pair, "=>", *projected]]


def _free(texts: list[str], names: dict[str, str], targets: Sequence[str] = ()) -> list[str]:
    """``texts`` with each free occurrence of a parameter read as the statement's name, also as a dotted
    name's head (``Q.eval``); a bound name of the value that is one of those names renamed so that it
    captures none of them (``_answer_scopes``: ``fun m => ∃ n, A n ∧ n > m`` is ``∃ k, A k ∧ k > n``)."""
    return renamed_free(texts, names, BINDERS | NUMBERED, _plain_name, targets)
