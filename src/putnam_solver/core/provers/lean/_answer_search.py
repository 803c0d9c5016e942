"""Answer rules against search: a no-answer solution value may not be found by searching the environment.

Lean core's library search (``exact?``, ``apply?``, the term ``exact?%``, the old name ``library_search``,
``rw?``) indexes every constant, the current module's included; Mathlib's ``hint``, core's ``try?`` (whose
last resort is ``intros; first | ... | exact?``: src/Lean/Elab/Tactic/Try.lean, ``mkTryEvalSuggestStx``,
red team 24) and Mathlib's ``observe x : T`` (``have x : T := by exact?``, Mathlib/Tactic/Observe.lean) run
such tactics. In a value they can return a constant of the candidate's own (a helper holding the question
restated), which no name in the text shows, or a choice operator, so :func:`answer_violations
<putnam_solver.core.provers.lean._answer_value.answer_violations>` refuses them with :data:`SEARCH_RULE`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean.syntax import Token

SEARCH_WORDS: Final = frozenset({"exact?", "apply?", "library_search", "rw?", "try?"})
"""Words that search wherever they stand (none of them can name a variable)."""

SEARCH_AFTER_BY: Final = frozenset({"hint", "observe", "observe?"})
"""Words that search only as tactics: they can name a variable, so they count only after a ``by``."""

SEARCH_RULE: Final = (
    "the answer is searched for in the environment, which holds the candidate's own helpers; state the answer"
)


def searches_environment(value: Sequence[Token], i: int, first_by: int) -> bool:
    """Whether token ``i`` of a solution value runs a search of the environment; ``first_by``: the index of
    the value's first ``by`` (its length if none)."""
    text = value[i].text
    return text in SEARCH_WORDS or (text in SEARCH_AFTER_BY and i > first_by)
