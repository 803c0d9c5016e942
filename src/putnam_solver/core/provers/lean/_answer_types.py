"""The number types the copy rule's normal form may rely on (red team 29): order identities that hold on
``ℕ`` or ``ℤ`` only, read where the type is visible to both sides alike.

``n ≠ 0`` is ``0 < n`` on ``ℕ`` (``Nat.pos_iff_ne_zero``) and ``a + 1 ≤ b`` is ``a < b`` on ``ℕ`` and ``ℤ``
(``Nat.lt_iff_add_one_le``, ``Int.lt_iff_add_one_le``), but neither on ``ℝ``; and red team 28's numeral step
(``_answer_bounds.stepped``: ``1 ≤ a`` as ``0 < a``) was read whatever the type, so ``x ≤ 1`` and ``x < 2``
read alike for ``x : ℝ``. The text rule knows a type only where it is written, and a type written on one
side and not the other (a binder typed in the value, inferred in the statement) would read one term two
ways, so only types both sides share are used: those of the statement's own variables (the theorem's
binders, ``(n : ℕ)``, ``∀ n : ℕ,``: :func:`declared`), which the value's parameters are renamed to before
it is compared. A bound variable of either side is read as before, its type unknown (but for a value
compared whole, :func:`abstracted`).

A term's type is read from its leaves through ``+ - * %`` and ``^``'s base (Lean's arithmetic is
homogeneous: ``n + x`` with ``x : ℝ`` is elaborated in ``ℝ``), as far as a cast the normal form takes off
cannot change it: :func:`kind`. The identities that need an integer type (:func:`integral`) ask that every
leaf be a numeral or a variable of ``ℕ``/``ℤ``; the numeral step stays as it was but where a leaf shows a
field (:func:`fractional`), so no copy it caught on ``ℕ``/``ℤ`` passes now.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Final, TypeVar

from putnam_solver.core.provers.lean._answer_nodes import Node, bound
from putnam_solver.core.provers.lean._idchars import all_digits, starts_digit, starts_letter

NAMES: Final = {
    **dict.fromkeys(("ℕ", "Nat"), "ℕ"),
    **dict.fromkeys(("ℤ", "Int"), "ℤ"),
    **dict.fromkeys(("ℝ", "Real", "ℚ", "Rat", "ℂ", "Complex", "NNReal", "ℝ≥0", "EReal"), "field"),
}
"""Type names read, and what they are to the identities: naturals, integers, or neither (``field``)."""
ARITHMETIC: Final = frozenset({"+", "-", "*", "/", "%"})
QUANTIFIERS: Final = frozenset({"∀", "∃", "∃!", "fun", "λ"})
OPENERS: Final = frozenset({"(", "{", "⦃", *QUANTIFIERS})
ENDS: Final = frozenset({")", "}", "⦄", ",", "=>", "↦", "|"})

T = TypeVar("T")
Types = tuple[tuple[str, str], ...]
TYPES: ContextVar[Types] = ContextVar("copy_rule_types", default=())
"""The statement's variables and their types, for the comparison under way (:func:`typed`)."""


@contextmanager
def holding(variable: ContextVar[T], value: T) -> Iterator[None]:
    """``variable`` reads ``value`` while the block runs: a setting of the comparison under way."""
    token = variable.set(value)
    try:
        yield
    finally:
        variable.reset(token)


def typed(types: Types) -> AbstractContextManager[None]:
    """Read terms with the statement's variables ``types`` (:func:`declared`) while the block runs."""
    return holding(TYPES, types)


SHOWN: ContextVar[Types] = ContextVar("written_types", default=())
"""The types the text writes for the comparison under way, grouped binders' too (``∃ (a b c : ℕ),``, value
red team 49), for ``_answer_algebra``'s common factors alone: the identities above read :data:`TYPES`, which
leaves them out (``a - b`` there stays a ring's, as red team 47's reading of ``2*a^m + 3*b^m - 4*c^m = 0``)."""


def showing(types: Types) -> AbstractContextManager[None]:
    """Read :data:`SHOWN` as ``types`` while the block runs."""
    return holding(SHOWN, types)


def declared(texts: Sequence[str]) -> Types:
    """The variables ``texts`` (a theorem's tokens, ``theorem name`` first) bind with a type :data:`NAMES`
    reads, ``(a b : ℕ)`` in its signature, ``∀ x : ℝ,``, ``∃ (k : ℤ),``; an ascription ``(n : ℝ)`` in a term
    binds nothing. A name bound with two types is left out (its type is then unknown)."""
    found: dict[str, str | None] = {}
    binding, depth, opened = True, 0, [True]  # the signature binds, up to its `:`; then each binder's header
    for i, text in enumerate(texts):
        if text in ("(", "{", "⦃", "["):
            opened.append(binding)
            depth += 1
        elif text in (")", "}", "⦄", "]") and depth:
            opened.pop()
            depth -= 1
        elif text in QUANTIFIERS:
            binding = True
        elif text in (",", "=>", "↦") or (text == ":" and depth == 0 and i >= 2):
            binding = False
        if (
            text != ":"
            or not opened[-1]
            or i + 2 >= len(texts)
            or texts[i + 1] not in NAMES
            or texts[i + 2] not in ENDS
        ):
            continue
        kind_, names, j = NAMES[texts[i + 1]], [], i - 1
        while j >= 0 and starts_letter(texts[j]) and "." not in texts[j] and texts[j] not in OPENERS:
            names.append(texts[j])
            j -= 1
        if names and j >= 0 and texts[j] in OPENERS:
            for name in names:
                found[name] = kind_ if found.get(name, kind_) == kind_ else None
    return tuple(sorted((name, k) for name, k in found.items() if k is not None))


PATTERN: Final = frozenset({",", "(", ")", "⟨", "⟩"})
"""What stands between a binder's names and its ``:`` (``∀ x y : ℝ,``, ``{(a, b) : ℤ × ℤ | C}``)."""
TYPE_ENDS: Final = frozenset({")", "}", "⦄", ",", "=>", "↦", "|", "//"})


def written(texts: Sequence[str], i: int) -> str | None:
    """The kind (:data:`NAMES`) of the type a binder writes for its name at ``texts[i]`` (copy red team 32: a
    bound variable's own type, so that ``↑(x - 1)`` and ``↑x - 1`` read as ``x - 1`` for ``x : ℝ``): ``∀ x y :
    ℝ,``, ``fun (x : ℝ) =>``, ``{x : ℝ | C}``, a pattern's component, ``{(a, b) : ℤ × ℝ | C}``; None where no
    number type is written, or a type :data:`NAMES` does not read (``Fin n``, ``ℕ → ℝ``)."""
    after, j = 0, i + 1
    while j < len(texts) and (texts[j] in PATTERN or starts_letter(texts[j])) and texts[j] not in OPENERS:
        after += texts[j] != "," and texts[j] not in PATTERN
        j += 1
    if j >= len(texts) or texts[j] != ":":
        return None
    parts, k = [], j + 1
    while k < len(texts) and texts[k] not in TYPE_ENDS:
        parts.append(texts[k])
        k += 1
    components = parts[::2]
    if not components or any(p != "×" for p in parts[1::2]) or any(c not in NAMES for c in components):
        return None
    if len(components) == 1:
        return NAMES[components[0]]
    return NAMES[components[-1 - after]] if after < len(components) else None


def parameter_types(params: Sequence[str], args: Sequence[str], kinds: Types) -> Types:
    """The types in force with the value's parameters read as the statement's names ``args`` they are renamed
    to, each with the type the value's binder writes (``fun x : ℝ =>``, ``{x : ℝ | C}``; :func:`written`)
    where the statement writes none for that name (Lean has checked that the two agree)."""
    table, own = _table(TYPES.get()), dict(kinds)
    found = {arg: own[p] for p, arg in zip(params, args, strict=False) if p in own and arg not in table}
    return tuple(sorted({**table, **found}.items())) if found else TYPES.get()


def with_bound(kinds: Types) -> Types:
    """The types in force with the bound variables' own ``kinds`` (``#k`` and its kind: :func:`written`),
    which win over what :func:`abstracted` says of the same number."""
    return tuple(sorted({**dict(TYPES.get()), **dict(kinds)}.items())) if kinds else TYPES.get()


@lru_cache(maxsize=16)
def _table(types: Types) -> dict[str, str]:
    return dict(types)


def kind(term: Node) -> set[str]:
    """The kinds of ``term``'s leaves (module doc): ``ℕ``, ``ℤ``, ``field``, ``numeral``, or ``?`` for a
    leaf read as nothing known (an application, a bound variable). The normal form has taken ascriptions
    off (``_answer_terms.ascription``: ``(n : ℝ)`` reads ``n``), so only what keeps integers integral and
    natural numbers natural through any cast is read: ``+ * %``, ``^`` by a natural exponent, and ``-``,
    whose value a cast may make negative (a natural number's leaves read ``ℤ`` under it); ``/`` is read as
    nothing known (a field's division once a cast is taken off)."""
    if term.kind == "atom":
        if all_digits(term.text):
            return {"numeral"}
        if starts_digit(term.text):  # `1.5`, `2e3`: no integer literal
            return {"field"}
        return {_table(TYPES.get()).get(term.text) or "?"}  # a bound variable: only as :func:`abstracted` says
    if term.kind == "bin" and term.text in ("+", "*", "%"):
        return set().union(*(kind(kid) for kid in term.kids))
    if term.kind == "bin" and term.text == "-":
        return {"ℤ" if k == "ℕ" else k for kid in term.kids for k in kind(kid)}
    if term.kind == "bin" and term.text == "^" and len(term.kids) == 2:
        exponent = set().union(*(kind(kid) for kid in term.kids[1:]))
        return kind(term.kids[0]) if exponent <= {"ℕ", "numeral"} else {"?"}
    if term.kind == "pre" and term.text == "-" and term.kids:
        return {"ℤ" if k == "ℕ" else k for k in kind(term.kids[0])}
    if term.kind == "post" and term.text == "⁻¹":  # neither `ℕ` nor `ℤ` has an `Inv` (`a / b` is read `a * b⁻¹`
        return {"field"}  # where it may be a field's, ``_answer_commute.ordered``)
    return {"?"}


RELATIONS: Final = frozenset({"=", "≠", "<", "≤", ">", "≥"})
_LEAVES: Final = frozenset({"+", "-", "*", "%"})


def inferred(parts: Sequence[Node]) -> Types:
    """Kinds for the bound variables no binder types, as Lean's unification gives them (copy red team 34:
    ``∃ k, k ≠ 0 ∧ n = 2 * k`` read ``k ≠ 0`` apart from the statement's ``∃ k : ℕ, 0 < k ∧ n = 2 * k``): one
    that stands as a leaf of a relation or arithmetic (through ``+ - * %`` and ``^``'s base) beside a leaf
    of ``ℕ`` or ``ℤ`` is of that type (``binop%`` elaborates the leaves at one type, and an untyped binder's
    type is the one it is unified with), and so is one ascribed ``ℕ`` itself (``(k : ℕ)``: no other number
    type is cast into ``ℕ``; copy red team 35). Not where a leaf was read through a cast, or the leaves show
    two types; a variable two relations type apart is left unknown."""
    table, found = _table(TYPES.get()), dict[str, str | None]()
    todo = list(parts)
    while todo:
        term = todo.pop()
        todo += term.kids
        leaves: list[Node] = []
        if term.kind == "atom" and term.natural and bound(term.text) >= 0 and term.text not in table:
            found[term.text] = "ℕ" if found.get(term.text, "ℕ") == "ℕ" else None
        elif term.kind == "bin" and (term.text in RELATIONS or term.text in _LEAVES) and _leaves(term, leaves):
            kinds = {table[leaf.text] for leaf in leaves if leaf.text in table}
            untyped = [leaf.text for leaf in leaves if bound(leaf.text) >= 0 and leaf.text not in table]
            if len(kinds) == 1 and kinds <= {"ℕ", "ℤ"}:
                (known,) = kinds
                for name in untyped:
                    found[name] = known if found.get(name, known) == known else None
    return tuple(sorted((name, k) for name, k in found.items() if k is not None))


def _leaves(term: Node, out: list[Node]) -> bool:
    """The leaves of ``term``'s relation and arithmetic (an application is one), into ``out``; False where one
    was read through a cast (its type is then not the others')."""
    if term.cast or term.lifted:
        return False
    if term.kind == "bin" and (term.text in RELATIONS or term.text in _LEAVES):
        return all(_leaves(kid, out) for kid in term.kids)
    if (term.kind == "bin" and term.text == "^" and term.kids) or (term.kind == "pre" and term.text == "-"):
        return _leaves(term.kids[0], out)
    out.append(term)
    return True


def fractional(*terms: Node) -> bool:
    """Whether a leaf of ``terms`` is shown to be of a field (``x`` of a statement's ``x : ℝ``, ``1.5``)."""
    return any("field" in kind(term) for term in terms)


def integral(*terms: Node) -> bool:
    """Whether ``terms`` are shown to be integers: each leaf a numeral or a variable of ``ℕ``/``ℤ``, and
    some leaf such a variable."""
    kinds = set().union(*(kind(term) for term in terms))
    return kinds <= {"ℕ", "ℤ", "numeral"} and bool(kinds & {"ℕ", "ℤ"})


def integers(*terms: Node) -> bool:
    """Whether ``terms`` are shown to be of ``ℤ`` itself, where a natural number's ``-`` would truncate: each
    leaf a numeral or a variable of ``ℤ`` under ``+ - *`` and ``^`` by a numeral, and some leaf such a
    variable (:func:`kind` reads a natural number under ``-`` as ``ℤ``, for a cast it cannot see)."""
    table = _table(TYPES.get())
    leaves: list[str] = []
    todo = list(terms)
    while todo:
        term = todo.pop()
        if term.kind == "atom":
            leaves.append("numeral" if all_digits(term.text) else table.get(term.text) or "?")
        elif (term.kind == "bin" and term.text in ("+", "-", "*")) or (term.kind == "pre" and term.text == "-"):
            todo += term.kids
        elif term.kind == "bin" and term.text == "^" and all(_numeral(k) for k in term.kids[1:]):
            todo.append(term.kids[0])
        else:
            return False
    return set(leaves) <= {"ℤ", "numeral"} and "ℤ" in leaves


def _numeral(term: Node) -> bool:
    return term.kind == "atom" and all_digits(term.text)


def natural(term: Node) -> bool:
    """Whether ``term`` is shown to be a natural number: each leaf a numeral or a variable of ``ℕ``."""
    kinds = kind(term)
    return kinds <= {"ℕ", "numeral"} and "ℕ" in kinds


def abstracted(args: Sequence[str]) -> Types:
    """The types in force with the first bound variable (``#0``) of the type of the one name in ``args``: a
    value written whole (``{n | C n} \\ {0}``) is compared with the statement's side abstracted over the name
    the solution is applied to (``{n | 0 < n ∧ C n}``), whose first binding both number ``#0``."""
    types = TYPES.get()
    known = _table(types).get(args[0]) if len(args) == 1 else None
    return tuple(sorted({*types, ("#0", known)})) if known else types
