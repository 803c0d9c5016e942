"""Round 52: a name among the binders of a declaration's signature, read whole by Lean.

A helper written as PutnamBench writes its statements, ``theorem aux`` then ``(hend : p)`` at column 0, had
``hend`` judged where a tactic begins (red team 50's rule, ``_resumed_names``: a name after ``(`` first on its
line). A command keyword (``theorem``, ``lemma``, ``def``...) is no term and no tactic, so Lean's command loop
begins a command at it wherever it stands (src/Lean/Parser/Module.lean, ``parseCommand``); its ``declSig``
(src/Lean/Parser/Command.lean: ``many (ppSpace >> (binderIdent <|> bracketedBinder)) >> typeSpec``) reads
each ``(x y : T)``, ``{x : T}``, ``⦃x : T⦄``, ``[inst : C]`` group's names with the ``ident`` parser, whole.
So a name is a binder's where it stands right after a group's opener, or after only names there, and the
tokens back to a declaration keyword are that declaration's name (none for ``example``) and complete
bracket groups; anything else stays judged as before (fail closed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._match_arms import WALK
from putnam_solver.core.provers.lean._tactic_starts import opening
from putnam_solver.core.provers.lean._tokens import IDENT, Token

_DECLARATIONS: Final = frozenset({"theorem", "lemma", "def", "abbrev", "example", "instance"})
_NOT_NAMES: Final = _DECLARATIONS | {"by", "fun", "λ", "at", "with", "from", "then", "else", "do", "match", "let"}
"""Words no binder's name is (a keyword there is a parse error at a token's start)."""
_GROUPS: Final = frozenset({"(", "{", "⦃", "["})
_CLOSERS: Final = frozenset({")", "}", "⦄", "]"})


def signature_binder(code: Sequence[Token], j: int) -> bool:
    """Whether the name ``code[j]`` is one of the names a binder group of a declaration's signature begins with
    (see the module's text)."""
    i = j - 1
    while i >= 0 and j - i < WALK and code[i].kind == IDENT and code[i].text not in _NOT_NAMES:
        i -= 1  # `(a hend : T)`: the names before it in its group
    if i < 0 or code[i].text not in _GROUPS:
        return False
    i -= 1
    while i >= 0 and j - i < WALK and code[i].text in _CLOSERS:
        opened = opening(code, i) if code[i].text != "⦄" else None
        if opened is None:
            return False
        i = opened - 1
    if i >= 0 and code[i].text in _DECLARATIONS:
        return code[i].text in ("example", "instance")
    return i >= 1 and code[i].kind == IDENT and code[i - 1].text in _DECLARATIONS
