"""Literals whose extent Lean may read otherwise than the lexer: where Lean stops inside one of our tokens, it
resumes reading commands there (red team 41).

After a parse error, Lean's command loop parses the next command from the error's position, skipping a token
at a time until one parses (leanprover/lean4 src/Lean/Parser/Module.lean, ``parseCommand``: ``pos := s.pos``
after the error, ``recovering := true``; src/Lean/Parser/Basic.lean's module doc: "Lean's top-level
``parseCommand`` loop skips tokens until the next command keyword on error"). A token is skipped whole, so an
error *between* tokens is harmless to the gates, which see every token. An error *inside* what the lexer read
as one token is not: Lean then reads the rest of that string, number or name as code, and a command written
there (``axiom``, ``instance``, any library command) runs while G2 and G3 saw a string. Each case was
measured on Lean 4.35 (the toy Lean of the test suite): the hidden ``axiom zz : False`` is declared and a
theorem proved by it reports ``depends on axioms: [zz]``.

* ``0b``, ``0o``, ``0x`` with no digit of their base after them (``0baxiom``): ``binNumberFn`` and its kin
  call ``takeDigitsFn`` with ``needDigit`` (src/Lean/Parser/Basic.lean), which fails at the first other
  character, and Lean resumes there (``axiom``), where the lexer read ``0`` and the name ``baxiom``;
* ``\\{`` in a string: ``strLitFnAux`` reads escapes with ``quotedStringFn`` (``isQuotableCharDefault``:
  ``\\ " ' r n t``, then ``x``, ``u`` and a line break); ``{`` is quotable only in an interpolated string
  (``isQuotableCharForStrInterpolant``), and only while Lean parses it as one, so it is refused in every
  string;
* a string gap (``\\`` then a line break) followed by a second line break: ``stringGapFn`` fails with
  "unexpected additional newline in string gap" and Lean resumes at that line.
* a digit separator that no digit follows (``1.5_e3axiom``, ``1_axiom``, ``0x1_``; red team 47): Lean stops
  after the ``_`` ("unexpected character") and reads ``axiom`` on as a command. The lexer reads a number as
  Lean does (:data:`NUMBER_PATTERN`: ``1.5_3`` and ``1e1_0`` whole, round 49; before it, the lexer took
  ``_`` in the integer part only and refused a glued ``_`` after a fraction or exponent), so a name that
  begins with ``_`` glued to a number is where Lean stops, and is refused;
* a name after two backquotes (````` ``axiom `````): ``doubleQuotedName`` (src/Lean/Parser/Term.lean) is ``"`"``,
  a second backquote, then ``ident``, which fails at a keyword, and Lean resumes at it, where the lexer read
  one name literal (one backquote reads any name: ``nameLitAux`` passes no token to ``identFnAux``). Which
  words a library makes keywords is not known here, so every such literal is refused (found by replaying
  random text on the toy Lean, as the others were re-found).

And every interpolated string (``s!"..{e}.."``, ``m!``, ``f!``, ``println!``), which G3 refuses
(:func:`interpolations`): Lean reads its text as a string only while its parser reads the string as one.
Where the term between braces does not parse (``s!"{1 : ℕ} axiom zz : False -- "``: ``interpolatedStrFn``
wants the ``}`` where the term stopped), Lean resumes at the error and reads the text after the braces as
code; after an earlier error in the command it skips ``s!`` and reads the string as a plain one, whose first
``"`` then closes it. Either way the quotes pair otherwise from there on, so every later string of the file
can be code to Lean. Whether a term parses is Lean's to say, not a lexer's, so G3 refuses them all; no
benchmark statement and no proof of the conformance corpora writes one (a proof has no use for text).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import compress, count
from operator import itemgetter
from typing import Final

from putnam_solver.core.provers.lean._tokens import IDENT, NAME, NUMBER, STRING, Token

_BASES: Final = frozenset("bBoOxX")
_DIGITS: Final = r"(?:_*[0-9])*"
NUMBER_PATTERN: Final = (
    rf"0[xX](?:_*[0-9a-fA-F])+|0[bB](?:_*[01])+|0[oO](?:_*[0-7])+"
    rf"|[0-9]{_DIGITS}(?:\.[0-9]{_DIGITS})?(?:[eE][+-]?[0-9]{_DIGITS})?"
)
"""A number as far as Lean reads it without error (leanprover/lean4 src/Lean/Parser/Basic.lean, read at
00c1b82722b50e9b1ae4999ccc97f932b2788b51): ``takeDigitsFn`` reads ``many (many '_' >> many1 digit)``, so a ``_``
only between digits, any run of them, and fails at the character after a ``_`` that no digit follows;
``numberFnAux`` sends ``0b``/``0o``/``0x`` to it needing a digit, any other digit to ``decimalNumberFn``, which
reads the integer part by it, then (``parseOptDot``) a ``.`` and, where a digit follows, the fraction by it, then
(``parseOptExp``) ``e``/``E``, a sign and, needing a digit, the exponent by it. So ``1_000.2_5e1_0`` is one
number to both. Where Lean fails, the lexer ends the number at its last digit and reads a name on: after
``_`` with no digit and after a base letter with no digit, a name :func:`literal_error` refuses (Lean keeps
the error and reads a fraction or exponent on, so ``1_.5axiom`` and ``1.5_e3axiom`` resume at ``axiom``:
measured on Lean 4.35); at an ``e`` with no digit Lean resumes at the ``e``, where the lexer's name begins
too. A ``.`` that no digit follows is not taken (Lean 4.35 reports "unexpected identifier after decimal
point" and resumes at the name, which the lexer reads as a token of its own)."""
_ESCAPE_ERROR: Final = re.compile(r"(?<!\\)(?:\\\\)*\\(?:\{|\r?\n[ \t\r]*\n)")
"""An escape Lean refuses in a string read as a plain one: ``\\{``, or a gap (``\\`` and a line break, then
spaces, tabs or carriage returns) that holds a second line break. An odd run of backslashes before it, so
``\\\\{`` (an escaped backslash, then a brace) is not one."""
_HINT: Final = re.compile(r"\\|``|0[bBoOxX]|[0-9]_")
_CHECKED: Final = frozenset({NUMBER, STRING, NAME})
_KIND: Final = itemgetter(0)

CONSTRUCT: Final = "interpolated string"
REASON: Final = (
    'Lean reads the text of `s!"..{e}.."` (`m!`, `f!`, `println!`) as a string only where its parser reads '
    "the whole as an interpolated string: where the term between braces does not parse, or after an earlier "
    "error, it reads the rest as code, and every later string of the file with it; write the text without "
    "`{...}` (a proof has no use for it)"
)


def literal_error(text: str, tokens: Sequence[Token]) -> tuple[str, int] | None:
    """The message and offset of the first literal Lean stops reading inside (module docstring), or ``None``;
    ``tokens`` are ``text``'s. Each case needs a backslash, two backquotes, a zero before a base letter or a
    digit before ``_`` in the text, so a text with none is not read token by token (a megabyte of brackets
    costs a search, not a pass over a million tokens)."""
    if _HINT.search(text) is None:
        return None
    for i in compress(count(), map(_CHECKED.__contains__, map(_KIND, tokens))):  # a C loop; few hits
        token = tokens[i]
        if token.kind == NUMBER:
            if token.text == "0" and i + 1 < len(tokens) and _base_without_digit(token, tokens[i + 1]):
                message = f"`0{tokens[i + 1].text[0]}` with no digit of its base after it"
                return f"{message}: Lean stops there and reads what follows as code; write the digits", token.offset
            if i + 1 < len(tokens) and _separated(token, tokens[i + 1]):
                why = "Lean stops at a digit separator that no digit follows and reads what follows as code"
                glued = f"a number glued to `{tokens[i + 1].text[:12]}`"
                return f"{glued}: {why}; write digits after each `_`", token.offset
            continue
        if token.kind == NAME:
            if token.text.startswith("``"):
                why = "Lean resolves it with `ident`, which refuses a keyword, and reads the keyword on as a command"
                return f"a name after two backquotes: {why}; write the name itself", token.offset
            continue
        if token.text[0] == "r" or "\\" not in token.text:  # a raw string has no escapes
            continue
        bad = _ESCAPE_ERROR.search(token.text)
        if bad is not None:
            what = "`\\{`" if bad.group().endswith("{") else "a string gap (`\\` at a line's end) over a blank line"
            why = "Lean refuses it in a string and reads what follows as code"
            return f"{what}: {why}; drop it", token.offset + bad.end() - 1
    return None


def _base_without_digit(zero: Token, after: Token) -> bool:
    """``0`` glued to a name that begins with a base letter: the lexer took no digit of that base after it."""
    return after.kind == IDENT and after.offset == zero.end and after.text[0] in _BASES


def _separated(number: Token, after: Token) -> bool:
    """A name beginning with ``_`` glued to ``number``: a digit separator that no digit follows, where Lean
    stops reading (:data:`NUMBER_PATTERN`)."""
    return after.offset == number.end and after.text[:1] == "_"


def interpolations(tokens: Sequence[Token]) -> list[Token]:
    """The first part of each interpolated string (the lexer's string token that ends at its first ``{``; a
    plain string holding a ``{`` is a lexing error already)."""
    strings = compress(tokens, map(STRING.__eq__, map(_KIND, tokens)))  # a C loop
    return [t for t in strings if t.text[0] == '"' and t.text.endswith("{")]
