"""Round 52: a name right after the ``with`` of a tactic that takes binder names there, read whole by Lean.

Red team 50 read a name right after ``with`` as where a tactic begins, rightly for core's ``cases``/
``induction`` (``inductionAlts := " with" (ppSpace colGt tactic)? ..``, src/Lean/Parser/Tactic.lean: a
tactic runs on every alternative), so ``cases' h with hopen hb`` and ``set x := e with hdef`` were refused
(``hopen``, ``hdef``: a command one character in). The tactics listed here take names after ``with``, read
by the ``ident``/``binderIdent`` parser whole: core's ``injection e with a b`` (src/Init/Tactics.lean),
Mathlib's ``cases'``/``induction'`` (Mathlib/Tactic/Cases.lean, ``" with" (ppSpace colGt binderIdent)+``),
``set .. with h`` (Mathlib/Tactic/Set.lean), ``split_ifs .. with h`` (Mathlib/Tactic/SplitIfs.lean),
``wlog .. with H`` (Mathlib/Tactic/WLOG.lean), ``filter_upwards [..] with x hx`` (Mathlib/Order/Filter/
Basic.lean), ``lift .. with n hn`` (Mathlib/Tactic/Lift.lean), ``peel h with x hx`` (Mathlib/Tactic/
Peel.lean), ``gcongr with x hx`` (Mathlib/Tactic/GCongr/Core.lean), and ``rcases`` (a pattern,
``_rcases_patterns``). The ``with`` must be that tactic's: the tactic it closes (``_tactic_starts.
TacticStarts.start_before``, no word leaving a term open between) begins with such a word, and that word surely
begins a tactic; anything else stays a tactic's place (fail closed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._tactic_starts import TacticStarts
from putnam_solver.core.provers.lean._tokens import Token

_BINDER_OWNERS: Final = frozenset(
    {"injection", "cases'", "induction'", "set", "split_ifs", "wlog", "filter_upwards", "lift", "peel", "gcongr",
     "rcases"}
)  # fmt: skip
"""Tactics whose ``with`` takes names, not a tactic (see the module's text)."""


def binder_after_with(code: Sequence[Token], j: int, starts: TacticStarts) -> bool:
    """Whether the name ``code[j]`` right after a ``with`` on its line is a binder name of a tactic listed in
    :data:`_BINDER_OWNERS` that surely begins a tactic."""
    if j == 0 or code[j - 1].text != "with" or code[j - 1].line != code[j].line:
        return False
    owner = starts.start_before(j - 1)
    return owner is not None and code[owner].text in _BINDER_OWNERS and starts.begins(owner)
