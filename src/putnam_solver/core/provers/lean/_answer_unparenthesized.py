"""Parentheses around a trailing quantifier left out, for the restated rule's third reading (value red team
47).

The reading as written (``_answer_restated``) judges parentheses where they group (``_answer_contains``), so
parentheses that change no reading told a copy apart from its question: ``putnam_2023_b5``'s ``0 < n ∧ (∀ m
: ℤ, ..)`` restated under a premise as ``∀ j, (0 < j ∧ ∀ m : ℤ, ..) → j = n`` (the only ``j``, a proof needs no
value) passed, the normal form having turned the premise into a disjunction. A quantifier's body runs as far
as it can, so ``(∀ x, P)`` needs its parentheses only where something follows them in the same term, or where
it is an argument: where the group closes right before a closing bracket, a separator or the end, and opens
after an operator, an opening bracket or a separator, they are left out (``a ∧ (∀ x, P)`` is ``a ∧ ∀ x,
P``). Read on the value and the condition alike, in the third reading only, so it only adds refusals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_nodes import INFIX, PREFIX
from putnam_solver.core.provers.lean._brackets import bracket_partners

QUANTIFIERS: Final = frozenset({"∀", "∃", "∃!"})
ENDS: Final = frozenset({")", "}", "]", "⟩", ",", "|", "=>", "↦", "then", "else"})
"""What may follow the closing parenthesis: the quantifier's body would end there anyway."""
STARTS: Final = frozenset({"(", "{", "[", "⟨", ",", "|", "=>", "↦", ":=", "then", "else", "if"})
"""What may precede the opening parenthesis besides an operator: the group is no argument there."""


def unparenthesized(kept: Sequence[str]) -> list[str]:
    """``kept`` without the parentheses around a trailing quantifier (module doc)."""
    partner = bracket_partners(kept)
    dropped: set[int] = set()
    for i, text in enumerate(kept):
        close = partner.get(i, -1)
        if text != "(" or close <= i + 1 or kept[i + 1] not in QUANTIFIERS:
            continue
        before = kept[i - 1] if i else None
        after = kept[close + 1] if close + 1 < len(kept) else None
        opens = before is None or before in STARTS or before in INFIX or before in PREFIX
        if opens and (after is None or after in ENDS):
            dropped |= {i, close}
    return [text for k, text in enumerate(kept) if k not in dropped]
