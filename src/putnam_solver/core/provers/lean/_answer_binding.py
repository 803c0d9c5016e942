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
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_nodes import bound

Signature = tuple[str, ...]
QUANTIFIERS: Final = frozenset({"∀", "∃", "∃!"})
"""The binders that ask their body (module doc); the others bind a function's variable, one kind."""
BODIES: Final = frozenset({",", "=>", "↦", "|", "//"})
HEADER: Final = 12
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
    if any(mine.get(f"#{value}") != signature for _, value, signature in matched):
        return False
    return all(
        later[1] > earlier[1]
        for k, earlier in enumerate(matched)
        for later in matched[k + 1 :]
        if later[2][0] != earlier[2][0]
    )


def anywhere(pairs: Mapping[str, str]) -> bool:
    """No variable of the side bound outside it: every renaming is in scope."""
    return True
