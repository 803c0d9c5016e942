"""G2 on a no-answer solution's value: what it may name. An answer states a value over the challenge's own
environment: not the theorem, not a constant the candidate defines, no choice operator that picks "a value
with the property" (found by what a name resolves to in the namespaces open there, not by its spelling), no
integral, series or derivative left unevaluated, no field of an unproven structure and no search of the
environment. The copy rule (``_answer_copy``) and the auxiliary-declaration rule (``_answer_aux``) are asked
from here too."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Final

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean._answer_aux import auxiliary_violations
from putnam_solver.core.provers.lean._answer_copy import copied_violations
from putnam_solver.core.provers.lean._answer_count_domains import DOMAIN_RULE, unbounded_count
from putnam_solver.core.provers.lean._answer_count_hedges import HEDGE_RULE, closed_comparison
from putnam_solver.core.provers.lean._answer_count_padding import pinned_count
from putnam_solver.core.provers.lean._answer_count_parameters import positive_parameters
from putnam_solver.core.provers.lean._answer_count_reading import read_counts
from putnam_solver.core.provers.lean._answer_count_words import WORD_RULE, unlisted_beside_count
from putnam_solver.core.provers.lean._answer_counts import COUNT_RULE, counted_search
from putnam_solver.core.provers.lean._answer_decisions import (
    CANDIDATE_CLASSICAL_RULE,
    candidate_decision,
    classical_tactic,
)
from putnam_solver.core.provers.lean._answer_fields import FIELD_RULE, Fields
from putnam_solver.core.provers.lean._answer_restated import RESTATED_RULE, restated_condition
from putnam_solver.core.provers.lean._answer_search import SEARCH_RULE, searches_environment
from putnam_solver.core.provers.lean._policy import LeanPolicy
from putnam_solver.core.provers.lean.syntax import (
    IDENT,
    NUMBER,
    SYMBOL,
    Command,
    Statement,
    Token,
    all_parts,
    glued_names,
    name_parts,
    normalize_name,
    positions,
)


def answer_violations(
    value: Sequence[Token],
    label: str,
    expected: Statement,
    policy: LeanPolicy,
    defined: frozenset[str],
    solution: str,
    opens: Sequence[Command] = (),
) -> list[Violation]:
    """A no-answer solution value must state an answer over the challenge's own environment, not point
    back at the problem or at a constant the candidate defines (a helper can hide anything), nor pick "a
    value with the property" by choice. A choice operator is found by what a name resolves to, not by
    how it is spelled: ``epsilon`` where ``Classical`` is open (the statement's header ``open``s, an
    ``open ... in`` inside the value) is ``Classical.epsilon``, and ``h.choose`` for the hypothesis of an
    ``if h : ... then`` is ``Exists.choose h``, a choice that needs no proof at all. ``solution``: the
    name of the solution the value is for (see :mod:`_answer_aux` and :mod:`_answer_copy`); ``opens``: the
    candidate's global ``open``s in force at the value, read like the statement's (:mod:`_opens_in_force`);
    where they (or the statement's own) put ``Classical`` in force, no decision (:mod:`_answer_decisions`)."""
    violations = [
        *auxiliary_violations(value, label, expected, solution),
        *copied_violations(value, label, expected, solution),
    ]
    if not violations and restated_condition(value, expected, solution):  # the question at another point
        violations.append(Violation(value[0].line if value else 0, label, RESTATED_RULE))
    opened_in = _namespaces_opened_in(value)
    in_force = (*header_namespaces(expected, opens), *opened_in)
    opened = _Opened(list(in_force))
    first_by = next((k for k, t in enumerate(value) if t.text == "by"), len(value))
    tactic = classical_tactic(value, first_by)
    if "Classical" in opened_in or (tactic is not None and value[tactic].text.startswith("by_cases")):
        violations.append(Violation(value[0].line, label, CLASSICAL_RULE))
    elif (at := candidate_decision(value, expected, opens, solution, tactic is not None)) is not None:
        violations.append(Violation(value[at].line, f"{label}: `{value[at].text}`", CANDIDATE_CLASSICAL_RULE))
    counted = read_counts(value, expected, solution, in_force)  # one reading for the three count rules
    if (at := counted_search(counted)) is not None:
        violations.append(Violation(value[at].line, f"{label}: `{value[at].text}`", COUNT_RULE))
    elif (at := unlisted_beside_count(counted)) is not None:
        violations.append(Violation(value[at].line, f"{label}: `{value[at].text}`", WORD_RULE))
    elif (at := closed_comparison(counted)) is not None or (at := pinned_count(counted.texts)) is not None:
        violations.append(Violation(value[at].line, f"{label}: `{value[at].text}`", HEDGE_RULE))
    elif counted.counts and (at := unbounded_count(counted, positive_parameters(expected, solution))) is not None:
        violations.append(Violation(value[at].line, f"{label}: `{value[at].text}`", DOMAIN_RULE))
    proofs = _dependent_if_hypotheses(value)
    fields = Fields(value)
    glued_words = defined | all_parts(policy.choice_operators)  # what a glued name may end in (`→rsInf`)
    for i, token in enumerate(value):
        name = normalize_name(token.text) if token.kind == IDENT else ""
        if name == normalize_name(expected.theorem_name):
            violations.append(Violation(token.line, label, "the answer may not mention the theorem"))
        elif shared := sorted(defined.intersection(name_parts(name))):
            rule = (
                f"the answer names `{shared[0]}`, which the candidate defines; an answer may use only what "
                "the challenge's environment provides (write it out, or rename a helper whose name it shares)"
            )
            violations.append(Violation(token.line, f"{label}: `{token.text}`", rule))
        elif hidden := [
            n
            for n in glued_names(value, i, glued_words)
            if defined.intersection(name_parts(n)) or opened.finds(n, policy.choice_operators)
        ]:  # `→rzz_answer`: a library token `→r` (Mathlib's) then `zz_answer`
            rule = f"Lean may read `{hidden[0]}` here, after a library token glued before it (Mathlib's `→r`)"
            violations.append(Violation(token.line, f"{label}: `{token.text}`", f"{rule}; put a space between them"))
        elif analysis := _analysis_operator(token, name, opened, policy):
            violations.append(Violation(token.line, f"{label}: `{token.text}`", ANALYSIS_RULE.format(analysis)))
        elif (
            token.text in _EXTREMAL_SYMBOLS
            or _choice_field(value, i, name, policy)
            or (name and not _receiver_field(value, i) and _resolves_to_choice(name, opened, policy))
            or (name and _chooses_from_proof(value, i, proofs))
            or (name and _leading_dot(value, i) and _suffix_of_choice(name, policy))
            or _choose_tactic(value, i, first_by)
        ):
            rule = "a choice operator picks a value from the problem's own statement; state the answer"
            violations.append(Violation(token.line, f"{label}: `{token.text}`", rule))
        elif fields.unproven(i):
            violations.append(Violation(token.line, f"{label}: `{token.text}`", FIELD_RULE))
        elif searches_environment(value, i, first_by):
            violations.append(Violation(token.line, f"{label}: `{token.text}`", SEARCH_RULE))
    return violations


CLASSICAL_RULE: Final = (
    "the answer opens `Classical`, whose scoped instance decides any proposition by choice (a search testing "
    "the problem's own property); state the answer"
)


def header_namespaces(expected: Statement, opens: Sequence[Command] = ()) -> list[str]:
    """The namespaces any ``open`` of the statement outside its theorem opens: a global one, wherever it
    stands (not only in the header: ``open Classical`` between a definition and the solution is in force
    at the solution), and an ``open ... in`` before a solution. More namespaces can only make more names
    resolve to a choice operator. An ``export N (x)`` counts as opening ``N``: it makes ``x`` an alias of
    ``N.x`` wherever the statement is read (red team 12: a client's record exporting
    ``Classical (epsilon)`` let the bare ``epsilon`` pass as an answer), and so does a ``namespace N`` (a
    name is resolved in the enclosing namespaces first: a solution declared inside ``namespace
    Classical`` reads ``epsilon`` as ``Classical.epsilon``); for ``namespace A.B`` both ``A.B`` and ``A``.
    ``opens``: more commands read the same way (the candidate's ``open``s in force at a solution's value)."""
    found = [
        normalize_name(t.text)
        for c in [*(c for c in expected.commands if c is not expected.theorem), *opens]
        for keyword in ("open", "export", "namespace")
        for i in positions([t.text for t in c.tokens], keyword)
        for t in _open_names_at(c.tokens, i)
    ]
    return [*found, *(".".join(name_parts(n)[:k]) for n in found for k in range(1, len(name_parts(n))))]


def _open_names_at(tokens: Sequence[Token], i: int) -> Iterator[Token]:
    """The namespace names after the ``open`` at ``i`` (up to ``in`` or the first other token); none for
    ``open scoped N``, which only activates ``N``'s scoped declarations and opens no name of it
    (leanprover/lean4 src/Lean/Elab/Open.lean, commit 02637a0, lines 83-86: ``openScoped`` calls
    ``activateScoped`` alone, no ``addOpenDecl``): ``choose`` stays ``Nat.choose`` beside ``open scoped
    Classical`` (``putnam_1974_a4``'s official answer, red team 38)."""
    if i + 1 < len(tokens) and tokens[i].text == "open" and tokens[i + 1].text == "scoped":
        return
    for token in tokens[i + 1 :]:
        if token.kind != IDENT or token.text == "in":
            return
        if token.text not in ("scoped", "hiding", "renaming"):
            yield token


def _namespaces_opened_in(value: Sequence[Token]) -> list[str]:
    """The namespaces every ``open ... in`` inside the value opens (each for a part of it: all counted)."""
    opened: list[str] = []
    for i, token in enumerate(value):
        if token.text == "open":
            for j in range(i + 1, len(value)):  # no walk over the rest per `open` (linear in the value)
                after = value[j]
                if after.kind != IDENT or after.text == "in":
                    break
                opened.append(normalize_name(after.text))
    return opened


class _Opened:
    """The namespaces open where the value is read, as the tails of their names, so that resolving a
    name in all of them costs time linear in the name, not in their number."""

    def __init__(self, opens: Sequence[str]) -> None:
        self.tails = frozenset(
            tuple(parts[len(parts) - j :])
            for parts in (tuple(name_parts(n)) for n in dict.fromkeys(opens))
            for j in range(1, min(len(parts), _TAIL) + 1)
        )

    def finds(self, name: str, operators: tuple[str, ...]) -> str | None:
        """The operator that ``name``, or a prefix of it (``Finset.max'.getD``: the operator, then a
        field), is, read as itself or inside an open namespace (``full == op`` or ``full`` ends with
        ``.op``); primes dropped: Mathlib names a variant with other arguments so
        (``Classical.inhabited_of_nonempty'``, whose ``Nonempty`` is an instance argument: red team 12
        found it accepted beside the refused unprimed name; ``Quotient.out'``), and none that is not
        the operator's kind."""
        parts = [p.rstrip("'") for p in name_parts(name)]
        for k, part in enumerate(parts, start=1):
            for op, op_parts in _operator_parts(operators).get(part, ()):
                inside = min(k, len(op_parts))
                if tuple(parts[k - inside : k]) != op_parts[len(op_parts) - inside :]:
                    continue
                rest = len(op_parts) - inside
                if rest == 0 or op_parts[:rest] in self.tails:
                    return op
        return None


_TAIL: Final = 8
"""Longer than any operator's name in parts."""


def _resolves_to_choice(name: str, opened: _Opened, policy: LeanPolicy) -> bool:
    """Whether ``name`` is one of the choice operators or a primed variant of one (:meth:`_Opened.finds`)."""
    return opened.finds(name, policy.choice_operators) is not None


@lru_cache(maxsize=8)
def _operator_parts(operators: tuple[str, ...]) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """The operators named by identifiers, with their parts (primes dropped), by their last part."""
    found: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for op in operators:
        parts = tuple(p.rstrip("'") for p in name_parts(op))
        if parts:
            found.setdefault(parts[-1], []).append((op, parts))
    return found


def _receiver_field(value: Sequence[Token], i: int) -> bool:
    """``(n - 1).choose k``: a field of a receiver, which Lean resolves in the namespace of the receiver's
    type, not in the open ones (src/Lean/Elab/App.lean, ``resolveLValAux``); :func:`_choice_field` and
    :func:`_field_without_argument` read such fields. A leading ``.`` is :func:`_leading_dot`'s."""
    return field_access(value, i) and not _leading_dot(value, i)


def _leading_dot(value: Sequence[Token], i: int) -> bool:
    """Whether the name at ``i`` follows a leading ``.`` (``(.find h : ℕ)``, ``<| .nth p 0``): Lean
    resolves it in the namespace of the expected type (``Nat.find``), which the text does not show. A
    ``.`` right after an expression (``(s).min``, ``x |>.f``) is a field access instead."""
    if i == 0 or value[i - 1].text != "." or value[i - 1].end != value[i].offset:
        return False
    if i < 2 or value[i - 2].end != value[i - 1].offset:
        return True
    before = value[i - 2]
    return before.kind == SYMBOL and before.text not in (")", "]", "}", "⟩", "⦄")


def _suffix_of_choice(name: str, policy: LeanPolicy) -> bool:
    """Whether some choice operator is ``<namespace>.<name>`` (or its primed variant): red team 12 found
    ``(.find h : ℕ)`` (``Nat.find``), ``(.nth p 0 : ℕ)`` and ``(.Subtype.ofNat s 0 : ℕ)`` accepted."""
    suffixes = _operator_suffixes(policy.choice_operators) - _NUMBER_SUFFIXES
    return name in suffixes or name.rstrip("'") in suffixes


_NUMBER_SUFFIXES: Final = frozenset({"succ"})
"""Suffixes a leading dot resolves to a number's own function: ``(.succ 180 : ℕ)`` is ``Nat.succ``. The
choice operators that end so (``WellFounded.succ``, ``Nat.Subtype.succ``: red team 41) need an expected
type of their own namespace, which no answer has (a proof of ``WellFounded``; ``Nat.Subtype`` names no
type); ``.Subtype.succ`` still reaches ``Nat.Subtype.succ`` and stays refused."""


@lru_cache(maxsize=8)
def _operator_suffixes(operators: tuple[str, ...]) -> frozenset[str]:
    """Every proper dotted suffix of every operator (``Nat.Subtype.ofNat``: ``Subtype.ofNat``, ``ofNat``)."""
    return frozenset(".".join(parts[k:]) for parts in map(name_parts, operators) for k in range(1, len(parts)))


_CHOICE_FIELDS: Final = frozenset({"choose", "some", "epsilon", "choice", "indefiniteDescription"})
_EXTREMAL_SYMBOLS: Final = frozenset({"⨅", "⨆"})
"""Mathlib's notations for ``iInf`` and ``iSup``."""


def _choice_field(value: Sequence[Token], i: int, name: str, policy: LeanPolicy) -> bool:
    """``s.min' h``, ``S.sInf``, ``(s).min``, ``f.invFun b``: dot notation reaches a choice operator
    whatever the namespace of the value's type (Lean's generalized field notation looks ``f.invFun`` up
    as ``Function.invFun f`` for a function ``f``, ``q.out`` as ``Quotient.out q``), so the name's last
    part decides. Red team 12: only the extremal operators' last parts were read so, and
    ``(fun x : ℝ => x ^ 3).invFun 8``, ``f.invFunOn s b``, ``f.extend g e b`` and ``f.partialInv b``
    passed though their full names are refused. Only a field (:func:`field_access`) or a dotted name: a
    bare name is what it resolves to (:func:`_resolves_to_choice`), and the bare ``min a b`` and ``some
    x`` are ``Min.min`` and ``Option.some``, not ``WellFounded.min`` and ``Nonempty.some``."""
    fields = _choice_field_parts(policy.choice_operators)
    parts = name_parts(name) if name else []
    for k in range(0 if field_access(value, i) else 1, len(parts)):
        # every part of a chain is a field of what precedes it: `(s).min.getD 0` hid the `min` (red team 12)
        binary = k == 1 and f"{parts[0]}.{parts[1]}" in _BINARY_NAMES  # every such name has two parts
        if (parts[k] in fields or parts[k].rstrip("'") in fields) and not binary:
            return True
    return False


@lru_cache(maxsize=8)
def _choice_field_parts(operators: tuple[str, ...]) -> frozenset[str]:
    """The last parts of the choice operators, but those a number or a proof-free receiver also has
    under that name: ``choose`` and ``some`` (``Nat.choose``, ``Option.some``: :mod:`_answer_fields`
    judges their receiver), and the parts of operators whose first explicit argument is no value of
    their namespace, so that no field reaches them (``Nat.find h``, ``Nat.nth p n``,
    ``Nat.Subtype.ofNat s n``; ``Real.mk f``, ``Real.ofCauchy c``: a Cauchy sequence is no real), while
    ``n.find``, ``(Fin 3).mk``... name data elsewhere (``Cardinal.mk``, a structure's constructor)."""
    return frozenset(op.rsplit(".", 1)[-1] for op in operators) - _NOT_FIELDS


_NOT_FIELDS: Final = frozenset(
    {"choose", "some", "find", "nth", "ofNat", "mk", "ofCauchy"}
    # `WellFounded.succ wf x` and `Nat.Subtype.succ x` (red team 41) share their last part with `Nat.succ`
    # and `Fin.succ`, which official statements and answers use as fields (`i.succ`)
    | {"succ"}
    # a decision's first explicit argument is a proposition (no namespace's value), and `Nat.decEq a b`
    # is core's computable equality
    | {"propDecidable", "dec", "decPred", "decRel", "decEq", "typeDecidableEq", "typeDecidable", "em"}
    | {"decidableInhabited"}
)


def field_access(value: Sequence[Token], i: int) -> bool:
    """Whether the name at ``i`` is a field of what precedes it: glued to a ``.`` (``(s).min``), or
    after the pipeline's ``|>.`` (``s |>.min`` is ``s.min``, src/Init/Prelude's ``e |>.f``)."""
    before = value[i - 1] if i > 0 else None
    return before is not None and (before.text == "|>." or (before.text == "." and before.end == value[i].offset))


_BINARY_NAMES: Final = frozenset(
    {"Min.min", "Nat.min", "Int.min", "Max.max", "Nat.max", "Int.max", "Option.some"}
    | {"Equiv.invFun", "Array.toList", "Option.toList"}
)
"""Full names whose last part is a choice field's but that name a binary minimum, a constructor or a
computable projection (an equivalence's inverse, an array's list)."""


ANALYSIS_RULE: Final = (
    "the answer is written with `{}`: the integral, series or derivative itself, which is what the question "
    "asks to evaluate (copied from the statement it makes the theorem `rfl`); state its value"
)


def _analysis_operator(token: Token, name: str, opened: _Opened, policy: LeanPolicy) -> str | None:
    """The integral, series or derivative operator (``policy.analysis_operators``) this token is, as
    a notation or as a name resolved in the open namespaces, or None. A name whose leading parts are
    one counts too: ``volume.real s`` is ``MeasureTheory.Measure.real volume s``."""
    if token.kind != IDENT:
        return token.text if token.text in policy.analysis_operators else None
    return opened.finds(name, policy.analysis_operators)


_CHOICE_TACTICS: Final = frozenset({"choose", "choose!", "inhabit"})
"""Mathlib's tactics that make data from a proof: ``choose`` (``Classical.choose``) and ``inhabit``, which
turns ``Nonempty α`` into an ``Inhabited α`` by ``Classical.inhabited_of_nonempty``, so that ``default``
then picks an element of ``{x // P x}`` from a proof that one exists."""


def _choose_tactic(value: Sequence[Token], i: int, first_by: int) -> bool:
    """Mathlib's ``choose x hx using h`` (or ``inhabit``) after the value's first ``by``: choice unwritten.
    Any bare ``choose`` there counts, whatever comes before it: a tactic can follow ``try``, ``first |``,
    ``(``, ``all_goals``, ``on_goal 1 =>``... (red team 12: only a line start or ``by``, ``;``, ``<;>``,
    ``·`` were read, so ``try choose x hx using h; exact x`` passed), and the text cannot tell a tactic
    from a term there. The binomial of official answers (which never hold a ``by``) is ``n.choose k``, a
    field, or ``Nat.choose n k``; a bare one in a tactic block is refused with them."""
    return value[i].text in _CHOICE_TACTICS and i > first_by and not field_access(value, i)


def _dependent_if_hypotheses(value: Sequence[Token]) -> frozenset[str]:
    """Names bound by ``if h : P then`` in the value: proofs of a proposition, from which only a choice
    operator can extract data."""
    return frozenset(
        normalize_name(value[i + 1].text)
        for i in range(len(value) - 2)
        if value[i].text == "if" and value[i + 1].kind == IDENT and value[i + 2].text == ":"
    )


def _chooses_from_proof(value: Sequence[Token], i: int, proofs: frozenset[str]) -> bool:
    """``h.choose`` (or ``(h).choose``) for a dependent-if hypothesis ``h``: ``Exists.choose h``."""
    token = value[i]
    parts = name_parts(normalize_name(token.text))
    if len(parts) > 1 and parts[0] in proofs and _CHOICE_FIELDS.intersection(parts[1:]):
        return True
    dotted = i >= 3 and value[i - 1].text == "." and value[i - 2].text == ")" and value[i - 3].text in proofs
    if dotted and _CHOICE_FIELDS.intersection(parts):
        return True
    return _field_without_argument(value, i, parts)


_ARGUMENT_STARTS: Final = frozenset({"(", "⌊", "⌈", "⟨", "[", "{", "↑", "@", "_"})


def _field_without_argument(value: Sequence[Token], i: int, parts: Sequence[str]) -> bool:
    """``(p).choose`` or ``hne.some`` with no argument after it: a field of a proof (``Exists.choose``,
    ``Nonempty.some``), whatever proof it is; the binomial ``n.choose k`` of official answers always has
    its argument (and a partially applied one can be written ``Nat.choose n``)."""
    if not parts or parts[-1] not in ("choose", "some"):
        return False
    if len(parts) == 1 and not (i and value[i - 1].text == "." and value[i - 1].end == value[i].offset):
        return False
    after = value[i + 1] if i + 1 < len(value) else None
    return after is None or not (after.kind in (IDENT, NUMBER) or after.text in _ARGUMENT_STARTS)
