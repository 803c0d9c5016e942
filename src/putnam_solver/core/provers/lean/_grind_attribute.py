"""G2 and G3, core's ``grind`` attribute on a declaration of the candidate's own (red team 27).

``@[grind]`` (leanprover/lean4 src/Init/Grind/Attr.lean, ``syntax (name := grind) "grind" (ppSpace
grindMod)? : attr``, and its kin ``grind!``, ``grind?``, ``grind!?``) adds the declaration to the theorems
the ``grind`` tactic instantiates, with a modifier that says how (``=``, ``=_``, ``_=_``, ``←``, ``→``,
``⇐``, ``⇒``, ``.``, ``cases``, ``cases eager``, ``intro``, ``ext``, ``inj``, ``funCC``, ``norm``, ``unfold``,
``usr``, ``gen``, ``symbol prio``). Like ``simp``, it is read by a tactic only, which builds proofs
(proof-irrelevant), and the statement names no helper: it cannot change what the statement means. Lean
4.27 proofs tag helper lemmas so (``@[grind =] theorem ...``); they were refused as an attribute not
permitted. An ``instance`` and a pinned answer's auxiliary definitions still keep only ``simp``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean.syntax import NUMBER, Token

GRIND_ATTRIBUTES: Final = ("grind", "grind!", "grind?", "grind!?")
_MODIFIERS: Final = frozenset(
    {"=", "_", "←", "<-", "→", "->", "⇐", "<=", "⇒", "=>", ".", "·", "↓", "↑", "gen", "usr", "cases", "eager",
     "intro", "ext", "inj", "funCC", "norm", "unfold", "symbol", "default", "low", "mid", "high"}
)  # fmt: skip
"""The tokens of ``grindMod`` (Attr.lean) and of a ``symbol``'s priority."""


def grind_arguments(arguments: Sequence[Token]) -> bool:
    """Whether ``arguments`` (after the attribute's name) are made of ``grind``'s modifiers only."""
    return all(t.kind == NUMBER or t.text in _MODIFIERS for t in arguments)
