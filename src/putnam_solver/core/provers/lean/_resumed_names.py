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

Red team 50: after a word no tactic is (``foo haxiom``) Lean resumes one character into ``foo`` and skips each
later name whole; but after a word that takes a tactic (``classical``, ``iterate 3``, a library's ``says``),
a ``{`` (the toy Lean declares the axiom), ``(`` or a ``.`` bullet, the name begins a tactic. Which library
words take a tactic is not known here, so a name after any word counts, except in a location or among binders
(:func:`_leads`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._commands import COMBINATORS, COMMAND_ONLY_KEYWORDS, MODIFIERS
from putnam_solver.core.provers.lean._lexer import lex_code
from putnam_solver.core.provers.lean._rcases_patterns import read_as_pattern
from putnam_solver.core.provers.lean._signature_binders import signature_binder
from putnam_solver.core.provers.lean._tactic_position import SEPARATORS, TacticPlaces
from putnam_solver.core.provers.lean._tactic_starts import TacticStarts
from putnam_solver.core.provers.lean._tokens import CHAR, DOC, IDENT, NAME, NUMBER, STRING, LexError, Token
from putnam_solver.core.provers.lean._with_binders import binder_after_with

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
    places, starts = TacticPlaces(code), TacticStarts(code)
    return [
        code[j] for j in found if _leads(code, j) and places.begins_tactic(_judged(code, j)) and _hides(code, j, starts)
    ]


def _hides(code: Sequence[Token], j: int, starts: TacticStarts) -> bool:
    """Whether the name ``code[j]`` may hide a command: a guillemet name always; another one unless Lean reads
    it as an ``rcases`` pattern's item (round 50, ``_rcases_patterns``: ``rcases h with hconst | hopen``) or a
    binder name after a tactic's ``with`` (round 52, ``_with_binders``: ``cases' h with hopen hb``) or a
    declaration's binder (round 52, ``_signature_binders``: ``theorem aux`` then ``(hend : p)``)."""
    name = code[j].text
    if not _hides_command(name):
        return False
    if name.startswith("«"):
        return True
    return not (read_as_pattern(code, j, starts) or binder_after_with(code, j, starts) or signature_binder(code, j))


_LITERALS: Final = (STRING, CHAR, NAME)


def _judged(code: Sequence[Token], j: int) -> int:
    """Where ``TacticPlaces`` judges whether a tactic may begin at ``code[j]``: at a literal just before it on its
    line, an argument of the word before (Mathlib's ``success_if_fail_with_msg "m" tac`` takes a tactic after a
    string: red team 50), which it judges by that word's place as it does a number's; otherwise at ``code[j]``."""
    prev = code[j - 1] if j else None
    return j - 1 if prev is not None and prev.line == code[j].line and prev.kind in _LITERALS else j


_LOCATION_WORDS: Final = frozenset({"at", "generalizing"})
"""Words after which Lean reads names as terms to the end of the list, never a tactic: ``simp at h hlocal``
(core's ``location``, ``" at " (locationWildcard <|> locationHyp)``, src/Init/Tactics.lean), ``induction n
generalizing hopen``."""
_ALTERNATIVE_WORDS: Final = frozenset(
    {"try", "all_goals", "any_goals", "repeat", "repeat'", "repeat1", "focus", "first", "solve", "iterate",
     "classical", "with_reducible", "with_reducible_and_instances", "with_unfolding_all", "fail_if_success",
     "success_if_fail", "fail_if_no_progress", "stop", "says", "checkpoint", "show_term", "on_goal", "map_tacs"}
)  # fmt: skip
"""Tactic words of core, Batteries and Mathlib that take a tactic right after them: after ``|`` one of them
begins a tactic alternative (``first | iterate 2 tac``), not the constructor of a pattern."""


_BINDER_WORDS: Final = frozenset({"case", "case'", "next", "rename_i"})
"""Tactic words followed by binder names, not a tactic (``case inr hopen => tac``, ``rename_i hopen``)."""


def _leads(code: Sequence[Token], j: int) -> bool:
    """Where a tactic may begin as far as the words before the name on its line say (``TacticPlaces`` judges
    the rest): after any word (a library's tactic word that takes a tactic, ``classical``, ``iterate 3``,
    ``says``, is read as one: fail closed), except in a location's list (``at h hlocal``) and among binders
    (:func:`_binder`), where Lean reads a term or a binder (red team 50; red team 49 took only the first word
    of a line or after a separator, and ``{ haxiom zz : False }`` declared the axiom on the toy Lean)."""
    line, back = code[j].line, j - 1
    while (
        back >= 0
        and code[back].line == line
        and code[back].kind in (IDENT, NUMBER, *_LITERALS)
        and not _ends(code[back])
    ):
        back -= 1
    if back == j - 1:
        return True
    words = [code[k].text for k in range(back + 1, j)]
    if not _LOCATION_WORDS.isdisjoint(words) or words[0] in _BINDER_WORDS | _KEYWORDS:  # `end «A.B»`: a command's
        return False
    return not (back >= 0 and code[back].line == line and _binder(code, j, back))


def _ends(token: Token) -> bool:
    """Whether the walk back over a run of words stops at ``token``: a separator keyword (``with``, ``then``)."""
    return token.text in SEPARATORS


def _binder(code: Sequence[Token], j: int, bar: int) -> bool:
    """Whether ``code[j]`` is a binder after ``with`` or ``|`` and a word that is no tactic word of
    :data:`_ALTERNATIVE_WORDS`: ``cases' h with x hopen``, or a pattern ``| inr hopen =>`` (after ``|`` only
    where names alone stand between ``code[j]`` and a ``=>`` on its line)."""
    if code[bar].text not in ("|", "with") or code[bar + 1].text in _ALTERNATIVE_WORDS:
        return False
    if code[bar].text == "with":
        return True
    end = j + 1
    while end < len(code) and code[end].line == code[j].line and code[end].kind == IDENT:
        end += 1
    return end < len(code) and code[end].text == "=>" and code[end].line == code[j].line


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
