"""Which binder binds each variable of a canonical term, so that a needle's variable bound outside it is
matched only by one the value binds alike (copy red team 30).

The contains rule (``_answer_contains``) looks for the statement's side and the bodies it binds inside the
value, bound variables matched up to renaming. A body's variable is bound OUTSIDE the body (``∃ k, B k``'s
body ``B k``), and any variable of the value matched it, whatever bound that: ``∀ k, B k`` (for ``∃ k, B
k``), ``∃! k, B k``, ``{k | B k}.ncard = 2``, ``∑ k ∈ s, if B k then 1 else 0`` and ``∃ k, ∀ j, C j k``
(for ``∀ j, ∃ k, C j k``) were refused as copies of a question they answer. A needle's variable bound
outside it now stands for its binder (:func:`signatures`): a quantifier's (``∀``, ``∃``, ``∃!``, with its
header) asks its body through that quantifier, and the value's variable must be bound by the same one;
every other binder is a function's (``{x | C}`` is ``setOf fun x => C``, ``∑ x ∈ s, b`` is ``Finset.sum s
fun x => b``), whose body is the question's condition or summand whatever consumes it (red team 18: the
summand in a product, over another range, is refused), so any of those matches it. Variables of binders of
different kinds nest in the same order (:func:`in_scope`). A variable bound inside the needle is bound
inside the run that matched it, binder and all, already.

False rejections 47: a quantifier's domain (its type, which the canonical form leaves out) counts in one
case. Against ``putnam_1991_a3``'s ``∃ r, .. ∧ (∀ i : Fin n, p.eval (r i) = 0) ∧ ..`` the honest ``∃ r : ℕ →
ℝ, r 0 ≠ r 1 ∧ ∀ i : Fin 2, p.eval (r i) = 0`` held the body ``p.eval (r i) = 0`` with ``i`` bound by ``∀``
alike, and was refused. A value's quantifier over a closed domain written with a numeral (``Fin 2``,
:data:`POINT`) asks its body at one instance of a statement's quantifier whose domain names a variable
(``Fin n``, :data:`OPEN`), never the question: the two do not match (:func:`marked`, :func:`in_scope`). A
domain left unwritten on either side, or written alike, matches as before; a copy at a point of a whole
condition is still a needle of its own, its quantifiers inside it (types left out there).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_nodes import bound
from putnam_solver.core.provers.lean._idchars import all_digits, starts_letter

Signature = tuple[str, ...]
QUANTIFIERS: Final = frozenset({"∀", "∃", "∃!"})
"""The binders that ask their body (module doc); the others bind a function's variable, one kind."""
BODIES: Final = frozenset({",", "=>", "↦", "|", "//"})
HEADER: Final = 12
POINT: Final = "@point"
"""The mark of a quantifier's variable whose written domain is closed and holds a numeral (``Fin 2``)."""
OPEN: Final = "@open"
"""The mark of a quantifier's variable whose written domain names a variable (``Fin n``, ``Fin (n - 1)``)."""
_TYPE_WORDS: Final = frozenset({"Fin", "ZMod", "ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "Nat", "Int", "Rat", "Real", "Complex", "Bool"})
_TYPE_GLUE: Final = frozenset({"+", "-", "*", "^", "/", "%", "×", "→", "->"})
"""How many tokens of a header a signature keeps (a longer header is compared by its start)."""


def head(text: str) -> str:
    """A bound variable's own token: ``#3`` of ``#3.card``."""
    return text.partition(".")[0]


def signatures(plain: Sequence[str], binders: Collection[str]) -> dict[str, Signature]:
    """Each bound variable of ``plain`` (canonical tokens, no parentheses) and the binder that binds it: its
    kind and its header after the names, bound variables' numbers left out (a type, ``: T``, left out too,
    as the canonical form leaves it out unless it reads types)."""
    out: dict[str, Signature] = {}
    for i, text in enumerate(plain):
        if text not in binders and text != "{":
            continue
        j, names = i + 1, list[str]()
        while j < len(plain) and (bound(plain[j]) >= 0 or (text == "{" and plain[j] == "," and names)):
            names += [plain[j]] if plain[j] != "," else []
            j += 1
        end = next((k for k in range(j, min(len(plain), j + HEADER)) if plain[k] in BODIES), None)
        if not names or end is None or (text == "{" and plain[end] not in ("|", "//")):
            continue  # `{#0, #1}` is a set of two terms, not a set-builder
        header = [("#" if bound(t) >= 0 else t) for t in plain[j:end]] if text in QUANTIFIERS else []
        header = header[: header.index(":")] if ":" in header else header
        for name in names:
            out.setdefault(head(name), (text if text in QUANTIFIERS else "λ", *header))
    return out


def marked(sites: dict[str, Signature], typed: Sequence[str]) -> dict[str, Signature]:
    """``sites`` (:func:`signatures` of a canonical term) with each quantifier's variable marked :data:`POINT`
    or :data:`OPEN` by the domain its binder writes in ``typed``, the same term read with binders' types kept
    (module doc); ``sites`` as they are where the two readings number their variables differently (a binder
    inside a type)."""
    if {head(t) for t in typed if bound(t) >= 0} != set(sites):
        return sites
    out = dict(sites)
    for i, text in enumerate(typed):
        if text not in QUANTIFIERS:
            continue
        j = i + 1
        while j < len(typed) and bound(typed[j]) >= 0:
            j += 1
        if j == i + 1 or j >= len(typed) or typed[j] != ":":
            continue
        end = next((k for k in range(j + 1, min(len(typed), j + HEADER)) if typed[k] in BODIES), None)
        mark = _domain(typed[j + 1 : end]) if end is not None else None
        if mark is None:
            continue
        for name in typed[i + 1 : j]:
            if out.get(head(name), ("",))[0] == text:
                out[head(name)] = (*out[head(name)], mark)
    return out


def _domain(words: Sequence[str]) -> str | None:
    """:data:`POINT`, :data:`OPEN` or None for a quantifier's written domain ``words``."""
    if any(bound(w) >= 0 or (starts_letter(w) and w not in _TYPE_WORDS) for w in words):
        return OPEN
    closed = all(all_digits(w) or w in _TYPE_WORDS or w in _TYPE_GLUE for w in words)
    return POINT if closed and any(all_digits(w) for w in words) else None


def outside(needle: Sequence[str], side: Mapping[str, Signature], binders: Collection[str]) -> dict[str, Signature]:
    """The bound variables of ``needle`` whose binder is outside it, each with that binder's signature in the
    side it was taken from (``side``: :func:`signatures` of the whole side)."""
    inside = signatures(needle, binders)
    return {head(t): side[head(t)] for t in needle if bound(t) >= 0 and head(t) not in inside and head(t) in side}


def in_scope(pairs: Mapping[str, str], free: Mapping[str, Signature], mine: Mapping[str, Signature]) -> bool:
    """Whether each needle variable bound outside it (``free``) is matched (``pairs``: needle's to value's)
    by a value variable bound alike (``mine``), variables of binders of different kinds in the same nesting
    order (numbers follow the order of binding)."""
    matched = sorted((bound(theirs), bound(pairs[theirs]), free[theirs]) for theirs in pairs if theirs in free)
    if any(not _alike(mine.get(f"#{value}"), signature) for _, value, signature in matched):
        return False
    return all(
        later[1] > earlier[1]
        for k, earlier in enumerate(matched)
        for later in matched[k + 1 :]
        if later[2][0] != earlier[2][0]
    )


def _alike(mine: Signature | None, theirs: Signature) -> bool:
    """Whether a value's variable bound as ``mine`` matches a needle's bound as ``theirs``: the same binder and
    header, domain marks aside, unless the value's domain is a point and the needle's names a variable."""
    if mine is None or _unmarked(mine) != _unmarked(theirs):
        return False
    return not (POINT in mine and OPEN in theirs)


def _unmarked(signature: Signature) -> Signature:
    return tuple(t for t in signature if t not in (POINT, OPEN))


def anywhere(pairs: Mapping[str, str]) -> bool:
    """No variable of the side bound outside it: every renaming is in scope."""
    return True
