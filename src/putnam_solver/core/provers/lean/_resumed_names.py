"""Red team 49: a command one character into a name that stands where a tactic begins.

A name at a tactic's place that no tactic syntax takes is read by core's fallback tactic parser
``Lean.Parser.Tactic.«unknown»`` (leanprover/lean4 src/Lean/Parser/Tactic.lean: ``leading_parser
withPosition (ident >> errorAtSavedPos "unknown tactic" true)``), whose error stands one character after
the name's start (``errorAtSavedPos`` with ``delta := true``, src/Lean/Parser/Basic.lean: "reports at saved
position+1"). Lean's command loop then parses the next command from that position (src/Lean/Parser/
Module.lean, ``parseCommand``), so the name without its first character is read as a token of its own: in
``theorem t : True := by`` then ``haxiom zz : False`` (or ``xopen Classical``, ``xinstance ...``) the gates
read the name ``haxiom``, while Lean declares ``axiom zz : False``. Measured on the toy Lean (Lean 4.35):
the hidden ``axiom`` is declared. Each such name at a tactic's place is refused by G3 (a sound proof has
no use for a name Lean cannot run as a tactic); the same name in a term's or a binder's place (``hopen``,
``hdef``, hypothesis names of published proofs) is read as one by Lean and stays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._commands import COMBINATORS, COMMAND_ONLY_KEYWORDS, MODIFIERS
from putnam_solver.core.provers.lean._tactic_position import TacticPlaces
from putnam_solver.core.provers.lean._tokens import DOC, IDENT, Token

CONSTRUCT: Final = "a command one character into a tactic's name"
REASON: Final = (
    "Lean reads a name that is no tactic, where a tactic begins, as an unknown tactic whose error stands one "
    "character in, and resumes reading commands there: `haxiom zz : False` declares `axiom zz : False`; "
    "rename it"
)
_KEYWORDS: Final = COMMAND_ONLY_KEYWORDS | MODIFIERS | COMBINATORS
"""What :func:`_commands.body_keywords` reports as a command's start inside a body."""


def resumed_names(tokens: Sequence[Token]) -> list[Token]:
    """The names at a tactic's place whose text after the first character is a command keyword (one
    Python character is one code point, as Lean's ``String.next``)."""
    code = [t for t in tokens if t.kind != DOC]
    found = [j for j, t in enumerate(code) if t.kind == IDENT and t.text[1:] in _KEYWORDS]
    if not found:
        return []
    places = TacticPlaces(code)
    return [code[j] for j in found if places.begins_tactic(j)]
