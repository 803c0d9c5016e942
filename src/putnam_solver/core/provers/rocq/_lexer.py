"""Rocq (Coq) lexer: tokens as Coq reads them, with whether each is glued to the one before.

The gates compare and scan candidate files token by token, so they need to know what is a comment, a
string and a sentence the way Coq does, not the way a regular expression guesses. Coq's rules that matter:

* comments ``(* ... *)`` nest, and a ``"`` inside a comment opens a string (so ``"*)"`` in a comment
  does not close it);
* strings are ``"..."`` with ``""`` standing for one quote;
* a sentence ends at a ``.`` followed by whitespace or the end of the file; any other ``.`` belongs to a
  qualified name (``Coq.Logic.Classical``) or a notation (``n.+1``, ``p.[x]``).

Tokens keep whether they were written directly after the previous token (``glued``), because Coq lexes
``[::`` or ``'C(`` differently from ``[ ::`` or ``' C(``: two texts count as the same only if their tokens
and their gluing agree. Whitespace amounts and comments never matter.

Every step is linear in the text: nesting is a counter, and the fast path (one pattern) and the character
rules give the same tokens (``bench/lexer_equivalence.py``).
"""

from __future__ import annotations

import re
from enum import StrEnum
from itertools import pairwise
from typing import Final, NamedTuple

from putnam_solver.core.provers.rocq._unicode import unknown_to_coq

BRACKETS = frozenset("()[]{}")


class Kind(StrEnum):
    """What a token is. Comments are not tokens; they only separate them."""

    WORD = "word"
    """An identifier, a qualified name or a number."""
    SYMBOL = "symbol"
    """A run of punctuation (``:=``, ``->``, ``%:R``); brackets are always one character each."""
    STRING = "string"
    END = "end"
    """The period that ends a sentence."""


class Token(NamedTuple):
    """One token (a tuple: a file has as many as it has characters, at worst, so they must be cheap)."""

    kind: Kind
    text: str
    start: int
    line: int
    glued: bool
    """Written directly after the previous token, with no whitespace or comment in between."""

    @property
    def last_segment(self) -> str:
        """``Coq.Logic.Classical_Prop.classic`` -> ``classic``; other tokens are themselves."""
        return self.text.rsplit(".", 1)[-1] if self.kind is Kind.WORD else self.text


class LexError(ValueError):
    """The text cannot be split into Coq tokens (an unterminated comment or string)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.reason = message
        self.line = line


SYMBOL_DIGITS: Final = frozenset("\u00b2\u00b3\u00b9\u2070\u2074\u2075\u2076\u2077\u2078\u2079")
"""Superscript digits: Python's ``isalnum``/``isdigit`` and ``\\w`` take them for digits, Coq 8.16's lexer
(``clib/unicode.ml``, "Exceptions from Number, other") for symbols, and the Reals load ``r \u00b2`` as a
notation. Read as Python reads them, ``R1\u00b2fix`` was one word to the gates and ``R1``, ``\u00b2``,
``fix`` to coqc (red team 16: a tactic notation taking a term then a tactic ran the ``fix`` tactic, a
proof of ``False`` through the guard bug passed G3 and was accepted on ``fast``). They are the only
characters Python reads as part of a word and Coq as a token of its own (every other ``isalnum``
character is a letter or a digit to Coq, or a character it refuses as an undefined token)."""
_SYMBOL_DIGIT_CLASS: Final = "\u00b2\u00b3\u00b9\u2070\u2074-\u2079"


def _is_ident_start(ch: str) -> bool:
    return ch == "_" or ch.isalpha()


def _is_ident_char(ch: str) -> bool:
    return ch == "_" or ch == "'" or (ch.isalnum() and ch not in SYMBOL_DIGITS)


def _is_digit(ch: str) -> bool:
    return ch.isdigit() and ch not in SYMBOL_DIGITS


_NUMBER_PATTERN: Final = (
    r"(?:0[xX][0-9a-fA-F][0-9a-fA-F_]*(?:\.[0-9a-fA-F_]+)?(?:[pP][+-]?[0-9][0-9_]*)?"
    r"|[0-9][0-9_]*(?:\.[0-9_]+)?(?:[eE][+-]?[0-9][0-9_]*)?)"
)
"""A number as coqc 8.16 reads it (measured): ``1_000``, ``1.5``, ``1._5`` (``1.5``), ``1e3``, ``1.5E-0_3``,
``0x1F``, ``0x1.fp+3``; an ``e``, ``p`` or sign not followed by a digit is not part of it (``1eidtac`` is
``1`` and ``eidtac``, ``0x_1`` is ``0`` and ``x_1``). Read as digits and dots only, ``1e3fix`` was ``1`` and
the word ``e3fix`` to the gates and ``1e3``, ``fix`` to coqc (red team 17: the ``fix`` tactic behind a
tactic notation taking a term, a proof of ``False`` accepted on ``fast``); ``1._fix`` and ``0x1idtac``
likewise."""
_NUMBER: Final = re.compile(_NUMBER_PATTERN)
_GLUED_NUMBER: Final = re.compile(r"(?<![\w'])" + _NUMBER_PATTERN + r"(?=[^\W\d])")
"""A number with a letter or ``_`` written against its end: where coqc ends a number is subtle enough
(``1._zfix`` is ``1._`` and ``zfix``) that the lexer refuses the spot rather than trust its own reading."""
_COMMENT_MARK = re.compile(r'\(\*|\*\)|"')
"""What matters inside a comment; at one position ``(*`` wins over ``*)``, as the character scan had it."""
_SPACES = re.compile(r"\s+")
"""A run of whitespace (for ``str`` patterns, ``\\s`` is exactly ``str.isspace``)."""
_IDENT_CHARS = re.compile(rf"(?:[^\W{_SYMBOL_DIGIT_CLASS}]|')*")
"""Identifier characters: ``'`` and, for ``str`` patterns, ``\\w`` (exactly ``str.isalnum`` or ``_``) but
:data:`SYMBOL_DIGITS`."""


_FAST = re.compile(
    r"(?P<ws>\s*)(?:"
    r"(?P<end>\.(?=\s|\Z))"
    rf"|(?P<word>[A-Za-z_](?:[^\W{_SYMBOL_DIGIT_CLASS}]|')*(?:\.[A-Za-z_](?:[^\W{_SYMBOL_DIGIT_CLASS}]|')*)*"
    r"|" + _NUMBER_PATTERN + ")"
    r"|(?P<bracket>\((?!\*)|[)\[\]{}])"
    rf"|(?P<sym>[!#$%&'*+,\-./:;<=>?@\\^`|~](?:(?!\.(?:\s|\Z))(?:[^\s\w'\"()\[\]{{}}]|[{_SYMBOL_DIGIT_CLASS}]))*)"
    r")?"
)
"""The lexer's fast path: the whitespace before a token (``\\s`` is exactly ``str.isspace``), then, for the
tokens whose extent ASCII decides, the token: a sentence-ending period, words starting with an ASCII
letter or digit, brackets and runs of ASCII punctuation, which stop where :meth:`_Lexer._symbol_end`
stops (``\\w`` is exactly ``str.isalnum`` or ``_``). It always matches; ``lastgroup`` names the token's
kind, or is ``ws`` where no token follows that it can decide (a comment, a string, a non-ASCII character)."""
_FAST_KIND = {"end": Kind.END, "word": Kind.WORD, "bracket": Kind.SYMBOL, "sym": Kind.SYMBOL}
_PLAIN_STOP = re.compile(r"\(\*|[^\t\n\x0b\x0c\r !#-~]")
"""What ends a plain stretch: a comment, or any character but ASCII whitespace and printable ASCII other
than ``"`` (strings, non-ASCII letters, controls). Tokens never cross a line break there, so the whole
lines before the line holding such a character lex the same on their own."""
_PLAIN = re.compile(
    r"(\s*)("
    r"\.(?=\s|\Z)"
    r"|[A-Za-z_][\w']*(?:\.[A-Za-z_][\w']*)*|" + _NUMBER_PATTERN + ""
    r"|\((?!\*)|[)\[\]{}]"
    r"|[!#$%&'*+,\-./:;<=>?@\\^`|~](?:(?!\.(?:\s|\Z))[^\s\w'\"()\[\]{}])*"
    r"|)"
)
""":data:`_FAST`'s alternatives in one group, for ``findall`` over a plain stretch: (whitespace, token)
pairs, the token's kind told by its first character (:data:`_PLAIN_KIND`); the empty alternative
matches only at the stretch's end."""
_PLAIN_KIND: Final = {chr(c): Kind.SYMBOL for c in range(0x21, 0x7F)}
_PLAIN_KIND.update({c: Kind.WORD for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789"})
_new_token = tuple.__new__
"""Build a :class:`Token` or :class:`Sentence` without the Python-level ``__new__`` of a NamedTuple
(the lexer's hot path)."""


class _Lexer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.tokens: list[Token] = []
        self.glued = False

    def _advance_to(self, end: int) -> None:
        self.line += self.text.count("\n", self.pos, end)
        self.pos = end

    def _emit(self, kind: Kind, end: int) -> None:
        start = self.pos
        self.tokens.append(Token(kind, self.text[start:end], start, self.line, self.glued))
        self._advance_to(end)
        self.glued = True

    def _string_end(self, start: int) -> int:
        """Index just past the string opened at ``start``; ``""`` inside is an escaped quote."""
        i = start + 1
        while True:
            j = self.text.find('"', i)
            if j < 0:
                raise LexError("unterminated string", self.text.count("\n", 0, start) + 1)
            if self.text.startswith('""', j):
                i = j + 2
                continue
            return j + 1

    def _comment_end(self, start: int) -> int:
        """Index just past the comment opened at ``start``. Nesting is a counter, and the scan jumps from
        one ``(*``, ``*)`` or ``"`` to the next, so it is linear however deep or long the comment is."""
        depth, i = 0, start
        while (mark := _COMMENT_MARK.search(self.text, i)) is not None:
            i = mark.end()
            if mark.group() == "(*":
                depth += 1
            elif mark.group() == "*)":
                depth -= 1
                if depth == 0:
                    return i
            else:
                i = self._string_end(mark.start())
        raise LexError("unterminated comment", self.text.count("\n", 0, start) + 1)

    def _word_end(self, i: int) -> int:
        """Index just past the word at ``i``: a number (``1_000``, ``1.5``, ``1.2.3``) or a qualified name."""
        text = self.text
        if "0" <= text[i] <= "9":
            return _NUMBER.match(text, i).end()  # type: ignore[union-attr]  # a digit always matches
        if _is_digit(text[i]):
            while True:
                while i < len(text) and (_is_digit(text[i]) or text[i] == "_"):
                    i += 1
                if i + 1 < len(text) and text[i] == "." and _is_digit(text[i + 1]):
                    i += 1
                    continue
                return i
        while True:
            i = _IDENT_CHARS.match(text, i).end()  # type: ignore[union-attr]  # it matches the empty string
            if i + 1 < len(text) and text[i] == "." and _is_ident_start(text[i + 1]):
                i += 1
                continue
            return i

    def _symbol_end(self, i: int) -> int:
        text = self.text
        if text[i] in BRACKETS:
            return i + 1
        start = i
        while i < len(text):
            ch = text[i]
            stop = ch.isspace() or ch in BRACKETS or ch == '"' or text.startswith("(*", i)
            if stop or (_is_ident_char(ch) and i > start):
                break
            if ch == "." and (i + 1 == len(text) or text[i + 1].isspace()):
                break
            i += 1
        return max(i, start + 1)

    def run(self) -> list[Token]:
        """All tokens: plain stretches of whole lines by one ``findall`` (:meth:`_plain`), the lines that
        hold a comment, a string or a non-ASCII character by :meth:`_general`; both give the same tokens."""
        size = len(self.text)
        while self.pos < size:
            self._general(self._plain())
        return self.tokens

    def _plain(self) -> int:
        """Lex the plain stretch at ``pos`` (whole lines without a :data:`_PLAIN_STOP` character) with one
        ``findall``; return where the line that stopped it ends, up to which :meth:`_general` lexes."""
        text, pos = self.text, self.pos
        stop = _PLAIN_STOP.search(text, pos)
        if stop is None:
            end = resume = len(text)
        else:
            end = text.rfind("\n", pos, stop.start()) + 1
            after = text.find("\n", stop.start())
            resume = len(text) if after < 0 else after + 1
        if end <= pos:
            return resume
        append, new, kinds, end_kind = self.tokens.append, _new_token, _PLAIN_KIND, Kind.END
        line, glued = self.line, self.glued
        for space, word in _PLAIN.findall(text, pos, end):
            if space:
                glued = False
                line += space.count("\n")
                pos += len(space)
            if not word:  # the end of the stretch
                break
            kind = kinds[word[0]]
            if word == "." and (pos + 1 == len(text) or text[pos + 1].isspace()):
                kind = end_kind
            append(new(Token, (kind, word, pos, line, glued)))
            pos += len(word)
            glued = True
        self.pos, self.line, self.glued = end, line, glued
        return resume

    def _general(self, resume: int) -> None:
        """Lex from ``pos`` to at least ``resume`` by :data:`_FAST` where it decides alone, by the character
        rules of :meth:`_step` elsewhere (comments, strings, non-ASCII letters). One match takes the
        whitespace before a token and the token; the loop keeps its position, line and gluing in locals
        and hands them to :meth:`_step` only when the pattern cannot decide."""
        text, fast, append, new, kinds = self.text, _FAST.match, self.tokens.append, _new_token, _FAST_KIND
        size = min(len(self.text), resume)
        pos, line, glued = self.pos, self.line, self.glued
        while pos < size:
            found = fast(text, pos)
            start = found.end("ws")  # type: ignore[union-attr]  # it matches the empty string
            if start > pos:
                line += text.count("\n", pos, start)
                pos, glued = start, False
            group: str = found.lastgroup  # type: ignore[union-attr,assignment]  # never None: `ws` takes part
            end = found.end()  # type: ignore[union-attr]
            if group == "ws" or (group == "word" and _word_may_go_on(text, end)):
                if pos < size:
                    self.pos, self.line, self.glued = pos, line, glued
                    self._step()
                    pos, line, glued = self.pos, self.line, self.glued
                continue
            append(new(Token, (kinds[group], text[pos:end], pos, line, glued)))
            pos, glued = end, True
        self.pos, self.line, self.glued = pos, line, glued

    def _step(self) -> None:
        """One token or gap by Coq's character rules."""
        text = self.text
        ch = text[self.pos]
        if ch.isspace():
            self._advance_to(_SPACES.match(text, self.pos).end())  # type: ignore[union-attr]
            self.glued = False
        elif text.startswith("(*", self.pos):
            if self.glued:
                raise LexError(
                    "a comment written against the text before it (put a blank before `(*`): Coq reads that "
                    "`(` as the end of a keyword when one ends there (`.(`, mathcomp's `]_(`, a tactic "
                    "notation's), and the rest as code",
                    self.line,
                )
            self._advance_to(self._comment_end(self.pos))
            self.glued = False
        elif ch == '"':
            self._emit(Kind.STRING, self._string_end(self.pos))
        elif ch == "." and (self.pos + 1 == len(text) or text[self.pos + 1].isspace()):
            self._emit(Kind.END, self.pos + 1)
        elif _is_ident_start(ch) or _is_digit(ch):
            self._emit(Kind.WORD, self._word_end(self.pos))
        else:
            self._emit(Kind.SYMBOL, self._symbol_end(self.pos))


def _word_may_go_on(text: str, end: int) -> bool:
    """Whether a word :data:`_FAST` matched up to ``end`` could be longer by the character rules: a
    non-ASCII digit after a number, or a ``.`` before a non-ASCII letter (the pattern knows ASCII only)."""
    return end < len(text) and (not text[end].isascii() or (text[end] == "." and not text[end + 1 : end + 2].isascii()))


_FOREIGN_SPACE: Final = re.compile(r"[^\S \t\n\r]")
"""Whitespace to Python that Coq does not read as a blank (its lexer's blanks are space, tab, line feed
and carriage return): a no-break space is an identifier character to Coq 8.16 (``x\u00a0`` is a name of
its own, ``Definition a\u00a0b := I.`` defines ``a b``), form feeds and the other Unicode spaces are
undefined tokens."""


def _check_gaps(lexer: _Lexer, tokens: list[Token]) -> None:
    """Raise LexError where text between tokens holds a character Coq does not read as a blank.

    The lexer takes any ``str.isspace`` character for a blank; Coq does not (``_FOREIGN_SPACE``), so a
    statement with a no-break space where the challenge has a space read the same to the gates and, to
    Coq, named another constant (``x\u00a0+ 1``: the global ``x\u00a0``, not the bound ``x``). Comments
    and strings may hold any character; only the gaps are read, and only when such a character occurs."""
    text = lexer.text
    if _FOREIGN_SPACE.search(text) is None:
        return
    ends = [0, *(t.start + len(t.text) for t in tokens)]
    starts = [*(t.start for t in tokens), len(text)]
    for i, end in zip(ends, starts, strict=True):
        while i < end:
            if text.startswith("(*", i):
                i = lexer._comment_end(i)
            elif text[i] in " \t\n\r":
                i += 1
            else:
                line = text.count("\n", 0, i) + 1
                raise LexError(f"the character U+{ord(text[i]):04X} is not a blank to Coq", line)


BOM: Final = "\ufeff"
"""The byte order mark a Windows editor writes first: Coq skips one at the start of a file (coqc 8.16 compiles
a sound proof so saved) and refuses it anywhere else; the lexer reads it so (red team round 9 of the trust
paths: G2 took it for a word of its own and refused such a proof)."""


def tokenize(text: str) -> list[Token]:
    """All tokens of ``text`` (comments dropped). Raises LexError on an unterminated comment or string, or
    a space Coq does not read as one (``_check_gaps``). One ``BOM`` at the start is a blank, as to Coq."""
    if text.startswith(BOM):
        text = " " + text[1:]  # the same length: every token keeps its offset
    lexer = _Lexer(text)
    tokens = lexer.run()
    _check_gaps(lexer, tokens)
    if not text.isascii() and unknown_to_coq(text) is not None:
        _check_names(tokens)
    if _GLUED_NUMBER.search(text) is not None:
        _check_numbers(tokens)
    return tokens


def _check_numbers(tokens: list[Token]) -> None:
    """Raise LexError where a name is written against the end of a number (``1e3fix``, ``1._fix``,
    ``0x1idtac``): see :data:`_GLUED_NUMBER`."""
    for before, tok in pairwise(tokens):
        if tok.glued and tok.kind is Kind.WORD and before.kind is Kind.WORD and "0" <= before.text[0] <= "9":
            raise LexError(
                f"a name written against the number `{before.text}` (put a blank between them): where Coq ends a "
                "number (`1e3`, `1._5`, `0x1F`) is not where it ends a name",
                tok.line,
            )


def _check_names(tokens: list[Token]) -> None:
    """Raise LexError at a word or symbol holding a character Python reads as part of a name and Coq 8.16
    does not (``_unicode``): coqc ends the identifier before it and reads the rest as other tokens (a tactic
    notation's keyword, then ``exact``), where the gates read one word. Comments and strings may hold it."""
    for tok in tokens:
        if tok.kind is not Kind.STRING and not tok.text.isascii() and (found := unknown_to_coq(tok.text)):
            raise LexError(
                f"the character U+{ord(found.group()):04X} is a letter to Unicode but unknown to Coq 8.16, which "
                "ends a name before it and reads it as a token of its own",
                tok.line,
            )


_PUNCTUATION: Final = frozenset(
    {":", ":=", ",", ")", "]", "}", ";", "->", "<-", "<->", "=", "<>", "<", ">", "<=", ">=", "+", "-", "*",
     "/", "^", "/\\", "\\/", "|"}
)  # fmt: skip
"""Symbols that, after an identifier, are their own tokens whether or not a space separates them."""
_QUOTATIONS: Final = frozenset({"ltac", "ltac2", "constr", "uconstr", "open_constr", "ident", "pattern"})
"""Identifiers that begin core keywords running into symbols (``ltac:(``, ``constr:(``...)."""


def gluing_matters(before: Token, token: Token) -> bool:
    """Whether ``before`` written directly against ``token`` can lex differently from the two spaced apart.

    Coq's lexer (coq/coq parsing/cLexer.ml, ``next_token``) reads an identifier with ``ident_tail`` up to
    the first character that cannot continue one, then ``find_keyword`` extends it only into a keyword
    that begins with that very identifier (the quotations ``ltac:(``, ``constr:(``...); the symbols that
    follow are then lexed on their own. So after an identifier that begins no such keyword, whether
    ``:``, ``,``, ``)`` or an infix operator is glued to it or not changes nothing: ``Theorem name:`` is
    ``Theorem name :``. Everywhere else (symbol then word, as in ``'C(``, ``.+1``, ``[::``; numbers) the
    gluing is compared, since a library token could span it."""
    identifier = before.kind is Kind.WORD and _is_ident_start(before.text[0]) and before.text not in _QUOTATIONS
    return not (identifier and token.kind is Kind.SYMBOL and token.text in _PUNCTUATION)
