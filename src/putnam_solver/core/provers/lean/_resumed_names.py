"""Red team 49: a command one character into a name that stands where a tactic begins.

A name at a tactic's place that no tactic syntax takes is read by core's fallback tactic parser
``Lean.Parser.Tactic.«unknown»`` (leanprover/lean4 src/Lean/Parser/Tactic.lean: ``leading_parser
withPosition (ident >> errorAtSavedPos "unknown tactic" true)``), whose error stands one character after
the name's start (``errorAtSavedPos`` with ``delta := true``, src/Lean/Parser/Basic.lean: "reports at saved
position+1"). Lean's command loop then parses the next command from that position (src/Lean/Parser/
Module.lean, ``parseCommand``), so the name without its first character is read as a token of its own: in
``theorem t : True := by`` then ``haxiom zz : False`` (or ``xopen Classical``, ``xinstance ...``) the gates
read the name ``haxiom``, while Lean declares ``axiom zz : False``; a guillemet name holds any text, so
``«axiom zz : False»`` there declares the axiom too (Lean reads on after the ``«``). Measured on the toy
Lean (Lean 4.35): the hidden ``axiom`` is declared in both. So the text after a name's first character at a
tactic's place is lexed again as Lean reads it from there: a command keyword or ``#`` word among its
tokens, or a text the lexer refuses that holds a keyword (``h0baxiom``: ``0b`` with no digit,
``_literals``), is refused by G3, and so is every guillemet name there
(a sound proof has no use for a name Lean cannot run as a tactic); the same name in a term's or a
binder's place (``hopen``, ``hdef``, hypothesis names of published proofs) is read whole by Lean and stays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._commands import COMBINATORS, COMMAND_ONLY_KEYWORDS, MODIFIERS
from putnam_solver.core.provers.lean._lexer import lex_code
from putnam_solver.core.provers.lean._rcases_patterns import read_as_pattern
from putnam_solver.core.provers.lean._tactic_position import SEPARATORS, TacticPlaces
from putnam_solver.core.provers.lean._tokens import DOC, IDENT, LexError, Token

CONSTRUCT: Final = "a command one character into a tactic's name"
REASON: Final = (
    "Lean reads a name that is no tactic, where a tactic begins, as an unknown tactic whose error stands one "
    "character in, and resumes reading commands there: `haxiom zz : False` declares `axiom zz : False`; "
    "rename it"
)
_KEYWORDS: Final = COMMAND_ONLY_KEYWORDS | MODIFIERS | COMBINATORS
"""What :func:`_commands.body_keywords` reports as a command's start inside a body."""


def resumed_names(tokens: Sequence[Token]) -> list[Token]:
    """The names at a tactic's place whose text after the first character (one Python character is one code
    point, as Lean's ``String.next``) Lean may read as a command (:func:`_hides_command`)."""
    code = [t for t in tokens if t.kind != DOC]
    found = [j for j, t in enumerate(code) if t.kind == IDENT and _may_hide(t.text)]
    if not found:
        return []
    places = TacticPlaces(code)
    return [code[j] for j in found if _leads(code, j) and places.begins_tactic(j) and _hides(code, j)]


def _hides(code: Sequence[Token], j: int) -> bool:
    """Whether the name ``code[j]`` may hide a command: a guillemet name always; another one unless Lean reads
    it as an ``rcases`` pattern's item (round 50, ``_rcases_patterns``: ``rcases h with hconst | hopen``)."""
    name = code[j].text
    return _hides_command(name) and (name.startswith("«") or not read_as_pattern(code, j))


_COMBINATORS: Final = frozenset({"try", "all_goals", "any_goals", "repeat", "focus", "first", "iterate"})


def _leads(code: Sequence[Token], j: int) -> bool:
    """Where a tactic surely begins: first on its line, or after a separator (``by``, ``;``, ``<;>``, ``·``,
    ``|``...) or a combinator word. ``TacticPlaces`` alone also takes the words after an unknown tactic word
    (``ring_nf at hlocal``: a published proof's hypothesis), where Lean reads a term."""
    return j == 0 or code[j - 1].line != code[j].line or code[j - 1].text in SEPARATORS | _COMBINATORS


def _may_hide(text: str) -> bool:
    """A cheap first test: a keyword after the first character, a guillemet name, or an ASCII digit second
    (where Lean reads a number on, which may stop inside the name)."""
    return text[1:] in _KEYWORDS or text.startswith("«") or "0" <= text[1:2] <= "9"


def _hides_command(name: str) -> bool:
    """Whether Lean may read a command after the first character of ``name``: always for a guillemet name
    (its text is any text, and Lean's reading of it may run on past its ``»`` into what the lexer reads as a
    string or comment: fail closed); otherwise where the rest lexed alone holds a command keyword or ``#``
    word, or is unreadable with a keyword's text in it (``0baxiom``: Lean stops at ``a`` and reads on)."""
    if name.startswith("«"):
        return True
    tail = name[1:]
    try:
        return any(t.text in _KEYWORDS or t.text.startswith("#") for t in lex_code(tail))
    except LexError:
        return any(word in tail for word in _KEYWORDS)
