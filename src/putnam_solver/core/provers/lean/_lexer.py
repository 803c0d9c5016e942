"""Lean 4 lexer: tokens with their kind, position and spacing, enough to compare files token by token.

Why a lexer of our own: the text gates (G2 preservation, G3 forbidden constructs) must not be fooled by
comments, strings or formatting. A word inside ``/- ... -/`` or ``"..."`` is not code; a word in code is,
however it is spaced. The lexer follows Lean 4's own tokenizer where it matters for that distinction:

* comments: ``--`` to the end of the line; ``/- -/`` nested; ``/-- -/`` doc comments are *tokens* (they are
  part of the syntax, and the theorem's docstring must be preserved); ``/-! -/`` module docs are comments.
  Block comments are scanned exactly as Lean does: the third character of the opener is skipped (so
  ``/-/- -/`` is one whole comment and ``/--/`` opens a doc comment), then ``-/`` and ``/-`` are matched
  left to right;
* strings with Lean's escapes (any other is an error, as ``"\\u00\\" x"`` is in Lean; ``_literals``: ``\\{``
  and a gap over a blank line too, where Lean stops and reads on as code) and string gaps, raw
  strings ``r"..."`` / ``r#"..."#``, and interpolated strings (``s!"..."``, ``m!"..."``, ``f!"..."``, with or
  without space or comment before the string) whose ``{...}`` parts are lexed as code; a ``{`` in any other
  string is an error (Lean interpolates after ``trace[...]``, ``throwError``, library ``interpolatedStr``);
* a comment, char literal or raw string glued to a symbol is an error (``_glue``): Lean first reads the
  longest token of its table, which imports extend (``{x : ℤ //-x = x}`` is core's ``//`` then ``-x``, no
  comment; a library token ending in ``'`` or ``r`` (``→r``) swallows their own), except a literal after a
  bracket or comma (``['a', 'b']``, ``#[r"x"]``), which no token of Lean's or Mathlib's continues;
* character literals (``'a'``, ``'\\n'``) versus the ``'`` that ends identifiers (``f'``, ``h''``) and the
  Mathlib tokens ``∑'`` / ``∏'``; a stray ``'`` is a lexing error, as in Lean;
* identifiers with Lean's classes (``isLetterLike``: Greek, ``ℝ``, Latin-1 and Latin Extended-A letters, so
  ``ér#"…"#`` is ``ér``, ``#``, a string; subscripts), ``«»`` escapes (which may span lines), ``.`` parts;
  other letters (Cyrillic ``а``) are single-character symbols, so a look-alike never equals the real name;
* characters Lean refuses outside comments and strings are lexing errors here too: tabs, a carriage
  return not followed by a line feed, and invisible characters (format controls such as zero-width
  spaces and bidirectional overrides, non-ASCII spaces), so that what is displayed is what is compared.
  ``\r\n`` is a line break, as in Lean.

Every token records whether whitespace or a comment came before it (``spaced``). Comparisons use it, so
two files compare equal only if Lean's maximal-munch tokenizer sees the same characters in both, up to the
amount and kind of whitespace.
"""

from __future__ import annotations

import gc
import re
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from itertools import compress, repeat
from operator import itemgetter, ne
from typing import Final, NamedTuple

from putnam_solver.core.candidate_cache import candidate_cache
from putnam_solver.core.provers.lean._glue import glued_error
from putnam_solver.core.provers.lean._literals import NUMBER_PATTERN, literal_error
from putnam_solver.core.provers.lean._tokens import (
    CHAR,
    COMMENT,
    DOC,
    IDENT,
    NAME,
    NUMBER,
    STRING,
    SYMBOL,
    LexError,
    Token,
)

_ID_FIRST = (  # Lean's isIdFirst (Init/Meta/Defs.lean, isLetterLike); the 4.35 one has the Latin letters
    "A-Za-z_\u03b1-\u03ba\u03bc-\u03c9\u0391-\u039f\u03a1\u03a2\u03a4-\u03a9\u03ca-\u03fb\u1f00-\u1ffe"
    "\u2100-\u214f\U0001d49c-\U0001d59f\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f"
)
_ID_REST = _ID_FIRST + "0-9'!?\u2080-\u2089\u2090-\u209c\u1d62-\u1d6a\u2c7c"
_PART = rf"(?:[{_ID_FIRST}][{_ID_REST}]*|«[^»]*»)"
_IDENT_RE = rf"{_PART}(?:\.{_PART})*"
_SYMBOLS = (
    ":=", "=>", "->", "<-", "<;>", "<|>", "<|", "|>.", "|>", "...", "..", "::", "@[", "<=", ">=", "!=",
    "==", "&&", "||", "++", "∑'", "∏'", "''", "⁻¹'", "]'", "Σ'", "×'",
)  # fmt: skip
_LETTER_END = rf"(?![{_ID_FIRST}0-9!?\u2090-\u209c\u1d62-\u1d6a\u2c7c])"  # no name character but a prime or ₀-₉
_HASH_WORD = rf"#(?!(?![A-Za-z][\[({{])[A-Za-z]{_LETTER_END})[A-Za-z_][A-Za-z0-9_]*"
"""A ``#`` word read as one token, a command's (``#eval``, ``#check``; G3 refuses all but the read-only ones):
everything but ``#`` before a one-letter name (primes and subscript digits may follow the letter), which is
Mathlib's ``Finset.card`` notation on that name (``#s``, ``#A.powerset``, ``#s₁``; ``scoped prefix:arg "#"`` in
Mathlib/Data/Finset/Card.lean, ``Cardinal.mk``'s in Mathlib/SetTheory/Cardinal/Defs.lean). Lean reads there the
longest token of its table that prefixes the text (leanprover/lean4 src/Lean/Parser/Basic.lean, read at
00c1b82722b50e9b1ae4999ccc97f932b2788b51: ``tokenFnAux`` sends a ``#`` to ``c.tokens.matchPrefix``; ``identFnAux``
makes no name of it, as ``#`` is no ``isIdFirst`` character, and ``mkTokenAndFixPos`` takes that token), so ``#s``
is ``#`` then ``s`` unless a token ``#s...`` prefixes it, and a command token read there ends the term and begins a
command, mid-line too. Every ``#`` token of the import closure (core, Batteries, Aesop, Plausible, ProofWidgets,
LeanSearchClient, ImportGraph, Mathlib: listed in ``tests/adversarial/test_lean_falserej32.py``) has a word of two
letters or more after the ``#``, except core's vector literal ``#v[`` (Init/Data/Vector/Basic.lean): a letter glued
to a bracket after it stays whole (``#v``, which G3 refuses); a longer word stays one token whatever it is, so a
command a library may add is refused, never read as a term (``#univ`` is refused: ``#(univ)`` is the same term)."""
# "#[" is core's array literal token (leanprover/lean4 src/Init/Data/Array/Basic.lean line 20, read at
# 7a80c7fc1a332b8a7a9e48f51f902c4976465fcc: `syntax "#[" withoutPosition(sepBy(term, ", ")) "]" : term`), kept
# here as `#` then `[` with no space between (round 34): no token of the import closure begins with `#[` and
# goes on, so Lean and the lexer cut the text at the same places; a lone `#` is nothing the splitter or G3
# reads (only a `#` word is a command), every bracket reader counts the `[` (a `#[` token would have to be
# taught to each), and G2 compares spacing, so `#[1]` never equals `# [1]` (Mathlib's card of a list).
# "Σ'" and "×'" are core's PSigma and PProd tokens (leanprover/lean4 src/Init/NotationExtra.lean:
# `macro "Σ'" xs:explicitBinders ", " b:term : term`; src/Init/Notation.lean: `infixr:35 " ×' " => PProd`):
# without them `Σ' x, p x` read as `Σ` then a stray `'`, a lexing error where Lean reads a sound term.
# "]'" is core Lean's token for indexing with a bound proof, `l[i]'h` (Init/GetElem.lean:
# `syntax term noWs "[" withoutPosition(term) "]'" term:max : term`).
# One pass of one regex: every position of code matches exactly one group (the last two catch what the
# others do not), so the scan never skips a character. Comments, strings and raw strings are recognised by
# their openers here and scanned by hand; everything else becomes a token straight from its match.
_TOKEN_RE = re.compile(
    r"(?P<ws>(?:[ \n]|\r\n)+)"
    r"|(?P<block>/-)"
    r'|(?P<plainstr>"(?:[^"\\{\n]|\\(?:[\\"\'nrt]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}))*")'
    r'|(?P<str>")'
    r'|(?P<raw>r#*")'
    r"|(?P<line>--[^\n]*)"
    rf"|(?P<num>{NUMBER_PATTERN})"
    r"|(?P<char>'(?:\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[\\\x22'nrt])|[^\\'])')"
    rf"|(?P<ident>{_IDENT_RE})"
    rf"|(?P<hash>{_HASH_WORD})"
    rf"|(?P<name>``?{_IDENT_RE})"
    "|(?P<sym>" + "|".join(re.escape(s) for s in _SYMBOLS) + r"|[!-&(-~])"
    r"|(?P<other>[^'])"
    r"|(?P<stray>')",
    re.S,
)
"""``sym``: multi-character symbols and printable ASCII; ``other``: any other character (checked against
those Lean refuses); ``stray``: a ``'`` that begins no literal; ``plainstr``: a one-line string without
``{``, the one token :meth:`_Lexer.string` would make, taken inline (a line of many strings is fast)."""
_GROUP_KIND: Final[dict[str | None, str]] = {
    "num": NUMBER,
    "char": CHAR,
    "ident": IDENT,
    "hash": SYMBOL,
    "name": NAME,
    "sym": SYMBOL,
}
_FAST_RE = re.compile(
    r"([ \n]*)("
    f"{NUMBER_PATTERN}"
    r"|'(?:\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[\\\x22'nrt])|[^\\'\n])'"
    rf"|{_IDENT_RE}"
    f"|{_HASH_WORD}"
    rf"|``?{_IDENT_RE}"
    "|" + "|".join(re.escape(s) for s in _SYMBOLS) + r"|[!-&(-~]"
    r"|.|)",
    re.S,
)
"""The fast path's pattern: the whitespace before a token and the token, for ``_TOKEN_RE``'s alternatives that
can occur in a *plain* stretch (:data:`_PLAIN_STOP`), in order; the last, empty one matches only at the end."""
_PLAIN_STOP = re.compile(rf'--|/-|["«\r]|(?<![{_ID_REST}])\'\n')
"""What ends a plain stretch: a comment or string opener (raw strings contain a ``"``), a ``«`` (an escape
may span lines), a carriage return, or a ``'`` that ends no name before a line break (a character literal
may hold one, as Lean's ``charLitFnAux`` reads any character). In a plain stretch only whitespace can cross
a line boundary, so the stretch up to the start of the line holding the next such character lexes the same
on its own."""
_FIRST_KIND: dict[str, str] = {c: SYMBOL for c in map(chr, range(0x21, 0x7F)) if c not in "'`\""}
_FIRST_KIND.update({c: NUMBER for c in "0123456789"})
_FIRST_KIND.update({c: IDENT for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"})
"""A token's kind from its first character, in a plain stretch: filled in as non-ASCII characters are met
(:meth:`_Lexer.first_kind`); ``'`` and a backquote are never in it (their kind depends on the token)."""
_ID_FIRST_RE = re.compile(f"[{_ID_FIRST}]")
INTERPOLATING: Final = frozenset({"s!", "m!", "f!", "println!"})
"""Identifier-shaped keywords whose syntax rule reads the next string as ``interpolatedStr`` (leanprover/lean4:
``s!`` Init/Data/ToString/Macro.lean, ``f!`` Init/Data/Format/Macro.lean, ``m!`` src/Lean/Message.lean,
``println!`` Init/System/IO.lean). The others that interpolate (``throwError``, ``dbg_trace``, ``trace[...]``)
are not followed by ``!`` and are meta code G3 refuses by name."""
_STRING_BODY = re.compile(r'(?:[^"\\{}]|\\(?:[\\"\'nrt{]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|\r?\n))*')
_COMMENT_MARK = re.compile(r"-/|/-")
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zs", "Zl", "Zp"})
"""Unicode categories of characters Lean cannot tokenize in code (controls, formats, odd spaces)."""
_new_token = tuple.__new__
"""Builds a :class:`Token` without the Python-level ``__new__`` of a NamedTuple (the lexer's hot path)."""


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (if it runs) while the lexer allocates its tokens: the collector
    never untracks tuple *subclasses*, so each collection the allocations trigger walked every token made
    so far (a third of the lexer's time). Tokens hold only strings, integers and booleans, so they form no
    cycles; other threads' cycles wait for the first collection after the pause (allocations still count)."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


class _Lexer:
    """Single pass over the text. ``line``/``line_start`` follow the newlines passed so far, so a token's
    line and column cost nothing extra; only whitespace and multi-line tokens move them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.line_start = 0
        self.spaced = True
        self.tokens: list[Token] = []
        self.comments = 0
        """How many ``comment`` tokens were made: with none, the code tokens are all the tokens."""
        self.newline_from, self.newline_at = 0, text.find("\n")
        """The first line break at or after ``newline_from`` (-1: none), for :meth:`newline_after`."""

    def error(self, message: str, offset: int) -> LexError:
        line = self.text.count("\n", 0, offset) + 1
        return LexError(message, line, offset - (self.text.rfind("\n", 0, offset) + 1))

    def emit(self, kind: str, start: int, end: int) -> None:
        """Append a token that may span lines (comments, strings) and move past it."""
        text = self.text
        self.tokens.append(
            _new_token(Token, (kind, text[start:end], start, end, self.line, start - self.line_start, self.spaced))
        )
        newlines = text.count("\n", start, end)
        if newlines:
            self.line += newlines
            self.line_start = text.rfind("\n", start, end) + 1
        self.pos = end
        self.spaced = False

    def lex(self) -> list[Token]:
        """Lex the whole text, with Python's cyclic garbage collector paused (see :func:`_gc_paused`)."""
        with _gc_paused():
            self.run()
        return self.tokens

    def run(self, close_brace: bool = False) -> None:
        """Lex code; inside an interpolated string's ``{...}``, stop at the unmatched ``}``.

        The loop handles plain tokens inline (locals only, one tuple per token); a comment, string or
        error leaves it, is dealt with by a method, and the scan resumes after it."""
        text, size, depth = self.text, len(self.text), 0
        tokens, new, kinds = self.tokens, _new_token, _GROUP_KIND
        resume = size + 1  # inside an interpolation there is no fast path: the scan never stops early
        while self.pos < size:
            if not close_brace:
                resume = self.plain()
                if self.pos >= size:
                    break
            line, line_start, spaced = self.line, self.line_start, self.spaced
            special = None
            for match in _TOKEN_RE.finditer(text, self.pos):
                if match.start() >= resume:  # past the line that stopped the fast path: back to it
                    special = match
                    break
                group = match.lastgroup
                kind = kinds.get(group)
                if kind is not None:
                    start, end = match.span()
                    word = text[start:end]
                    if close_brace and (word == "{" or word == "}"):
                        depth += 1 if word == "{" else -1
                        if depth < 0:
                            special = match
                            break
                    tokens.append(new(Token, (kind, word, start, end, line, start - line_start, spaced)))
                    spaced = False
                    if group == "ident" or group == "name" or group == "char":
                        newlines = word.count("\n")  # only a «...» part or a char literal can span lines
                        if newlines:
                            line += newlines
                            line_start = start + word.rfind("\n") + 1
                elif group == "plainstr":
                    start, end = match.span()
                    tokens.append(new(Token, (STRING, text[start:end], start, end, line, start - line_start, spaced)))
                    spaced = False
                elif group == "ws":
                    spaced = True
                    start, end = match.span()
                    newlines = text.count("\n", start, end)
                    if newlines:
                        line += newlines
                        line_start = text.rfind("\n", start, end) + 1
                elif group == "line":
                    start, end = match.span()
                    tokens.append(new(Token, (COMMENT, text[start:end], start, end, line, start - line_start, spaced)))
                    self.comments += 1
                    spaced = True
                elif group == "other":
                    start = match.start()
                    self.line, self.line_start, self.pos = line, line_start, start
                    self.refuse(text[start], start)
                    tokens.append(new(Token, (SYMBOL, text[start], start, start + 1, line, start - line_start, spaced)))
                    spaced = False
                else:
                    special = match
                    break
            self.line, self.line_start, self.spaced = line, line_start, spaced
            if special is None:
                self.pos = size
                break
            self.pos = start = special.start()
            group = special.lastgroup
            if start >= resume:
                continue
            if group == "block":
                self.block_comment(start)
            elif group == "str":
                self.string(start, self.interpolation_prefix())
            elif group == "raw":
                self.raw_string(start, special)
            elif group == "stray":
                raise self.error("stray ' (not a character literal)", start)
            else:  # the unmatched `}` of an interpolation
                return
        if close_brace:
            raise self.error("unterminated interpolation in string", self.pos)

    def plain(self) -> int:
        """Lex the plain stretch at ``pos`` (whole lines without a :data:`_PLAIN_STOP` character) the fast
        way: one ``findall``, each token's kind from its first character. Return where the line that
        stopped it ends: the general scan lexes up to there (or past, through a comment or string)."""
        text, pos, size = self.text, self.pos, len(self.text)
        stop = _PLAIN_STOP.search(text, pos)
        if stop is None:
            end = resume = size
        else:
            end = text.rfind("\n", pos, stop.start()) + 1
            after = self.newline_after(stop.start())
            resume = size if after < 0 else after + 1
        if end <= pos:
            return resume
        tokens, new, kinds = self.tokens, _new_token, _FIRST_KIND  # `tokens.append` is specialised, not a bound method
        line, line_start, spaced = self.line, self.line_start, self.spaced
        for space, word in _FAST_RE.findall(text, pos, end):
            if space:
                spaced = True
                if "\n" in space:
                    line += space.count("\n")
                    line_start = pos + space.rfind("\n") + 1
                pos += len(space)
            if not word:  # the end of the stretch
                break
            kind = kinds.get(word[0]) or self.first_kind(word, pos)
            after = pos + len(word)
            tokens.append(new(Token, (kind, word, pos, after, line, pos - line_start, spaced)))
            pos, spaced = after, False
        self.pos, self.line, self.line_start, self.spaced = end, line, line_start, spaced
        return resume

    def newline_after(self, i: int) -> int:
        """``text.find("\\n", i)`` for an ``i`` that only grows, each line break searched for once: on a
        line of a million strings the fast path stops at every string, and searching to the line's end
        from each would make the lexer quadratic."""
        if i < self.newline_from or 0 <= self.newline_at < i:
            self.newline_from, self.newline_at = i, self.text.find("\n", i)
        return self.newline_at

    def first_kind(self, word: str, offset: int) -> str:
        """The kind of a plain-stretch token whose first character is not in :data:`_FIRST_KIND` (and
        learn it there when the character alone decides), or the lexing error the general scan raises."""
        ch = word[0]
        if ch == "'":
            if word == "'":
                raise self.error("stray ' (not a character literal)", offset)
            return SYMBOL if word == "''" else CHAR
        if ch == "`":
            return SYMBOL if word == "`" else NAME
        if _ID_FIRST_RE.match(ch):
            kind = IDENT
        else:
            self.refuse(ch, offset)
            kind = SYMBOL
        _FIRST_KIND[ch] = kind
        return kind

    def interpolation_prefix(self) -> bool:
        """Whether the string about to be lexed is interpolated: the code token before it is one of
        :data:`INTERPOLATING` (Lean allows space or a comment between). Lean also interpolates where a
        syntax rule of a library asks for ``interpolatedStr`` (``trace[...]``, ``throwError``, ``zz!``
        or any keyword it declares), which no list can hold: :meth:`string` refuses a ``{`` there."""
        previous = next((t for t in reversed(self.tokens) if t.kind != COMMENT), None)
        return previous is not None and previous.kind == IDENT and previous.text in INTERPOLATING

    def refuse(self, ch: str, offset: int) -> None:
        """Raise for a character Lean refuses in code; see the module docstring."""
        if ch == "\t":
            raise self.error("tab character (Lean does not allow tabs)", offset)
        if ch == "\r":
            raise self.error("carriage return without a line feed", offset)
        if ch == "«":
            raise self.error("unterminated identifier escape (missing »)", offset)
        if unicodedata.category(ch) in _REFUSED_CATEGORIES:
            raise self.error(f"invisible or control character U+{ord(ch):04X}", offset)

    def block_comment(self, start: int) -> None:
        """Lean's scan: skip the opener's third character, then match ``-/`` and ``/-`` left to right."""
        text, depth = self.text, 1
        marks = _COMMENT_MARK.finditer(text, min(start + 3, len(text)))
        end = None
        for mark in marks:
            depth += 1 if mark.group() == "/-" else -1
            if depth == 0:
                end = mark.end()
                break
        if end is None:
            raise self.error("unterminated comment (missing -/)", start)
        kind = DOC if text.startswith("/--", start) else COMMENT
        self.emit(kind, start, end)
        if kind == COMMENT:
            self.comments += 1
        self.spaced = True

    def string(self, start: int, interpolated: bool) -> None:
        text, i = self.text, start + 1
        while True:
            body = _STRING_BODY.match(text, i)
            i = body.end() if body else i
            if i >= len(text):
                raise self.error('unterminated string literal (missing ")', start)
            if text[i] == '"':
                self.emit(STRING, start, i + 1)
                return
            if text[i] == "\\":  # Lean's escapes only (src/Lean/Parser/Basic.lean, `quotedCharCoreFn`)
                raise self.error("invalid escape sequence (Lean's are \\\\ \\\" \\' \\n \\r \\t \\xHH \\uHHHH)", i)
            if text[i] == "{" and not interpolated:
                keywords = ", ".join(sorted(INTERPOLATING))
                why = "Lean may read code there (`trace[...]`, `throwError`, library keywords); drop the `{`"
                raise self.error(f"`{{` in a string after what is not an interpolation keyword ({keywords}): {why}", i)
            if text[i] == "{" and interpolated:
                self.emit(STRING, start, i + 1)
                self.run(close_brace=True)
                start, i = self.pos, self.pos + 1
                self.spaced = False
            else:
                i += 1

    def raw_string(self, start: int, raw: re.Match[str]) -> None:
        closing = '"' + raw.group()[1:-1]
        close = self.text.find(closing, raw.end())
        if close < 0:
            raise self.error("unterminated raw string literal", start)
        self.emit(STRING, start, close + len(closing))


def lex(text: str) -> list[Token]:
    """All tokens of ``text``, comments included (kind ``comment``). Raises :class:`LexError`."""
    return list(_lex(text).tokens)


class _Lexed(NamedTuple):
    tokens: tuple[Token, ...]
    code: tuple[Token, ...]
    """The tokens without comments: ``tokens`` itself when the text has none (most published proofs)."""


def _lex(text: str) -> _Lexed:
    """:func:`_lexed`, once per text while it is in use: the gates of one verification (G2, G3, the answer
    record) share the candidate's tokens, or its lexing error (raised afresh for each, with the cached
    position): a file that does not lex would otherwise be lexed again by every gate that reads it, each
    time up to the error, which for a 1 MiB file can be its whole length.
    Python caches a string's hash, so a hit costs a dict lookup.

    Two entries: a candidate, and its ``\\r\\n``-normalised text (G2's) if that differs. The cache is
    small on purpose: a file's tokens then die at the next verification instead of living through a
    dozen; long-lived tokens were walked by every later garbage collection and kept memory cold, which
    cost the corpus bench (``bench/corpus_gates.py``) 12 % at the median and 18 % on average.
    Statements and challenges go to :func:`parse_statement`'s own cache, not through this one.
    Verifications interleaved in threads may lex a candidate again: slower, never different."""
    outcome = _lex_outcome(text)
    if isinstance(outcome, LexError):
        raise LexError(outcome.reason, outcome.line, outcome.column)
    return outcome


@candidate_cache
def _lex_outcome(text: str) -> _Lexed | LexError:
    """:func:`_lexed`'s tokens or its error, for :func:`_lex`'s cache (which keeps no exceptions)."""
    try:
        return _lexed(text)
    except LexError as exc:
        return exc.with_traceback(None)  # its frames would keep the half-made tokens alive


def _lexed(text: str) -> _Lexed:
    """Run the lexer on ``text`` (no cache)."""
    lexer = _Lexer(text)
    tokens = tuple(lexer.lex())
    glued = glued_error(tokens) or literal_error(text, tokens)  # `_literals`: where Lean stops inside a token
    if glued is not None:
        raise lexer.error(*glued)
    if not lexer.comments:
        return _Lexed(tokens, tokens)
    return _Lexed(tokens, tuple(compress(tokens, map(ne, map(_KIND, tokens), repeat(COMMENT)))))  # a C loop


def code_tokens(tokens: Sequence[Token]) -> list[Token]:
    """The tokens Lean parses: everything but comments (doc comments are kept; they are syntax)."""
    return [t for t in tokens if t.kind != COMMENT]


def lex_code(text: str) -> tuple[Token, ...]:
    """``code_tokens(lex(text))``, once per text (the gates of one verification share it)."""
    return _lex(text).code


_KIND: Final = itemgetter(0)
"""``Token.kind`` as a function: ``map`` over it runs without a Python frame per token."""
