"""The Lean lexer's data: token kinds, :class:`Token` and :class:`LexError` (``_lexer`` makes them,
``_glue`` judges tokens glued together, the gates read them)."""

from __future__ import annotations

from typing import Final, NamedTuple

IDENT: Final = "ident"
NUMBER: Final = "number"
STRING: Final = "string"
CHAR: Final = "char"
NAME: Final = "name"
SYMBOL: Final = "symbol"
DOC: Final = "doc"
COMMENT: Final = "comment"


class LexError(ValueError):
    """The text cannot be tokenized (an unterminated comment or string, a malformed literal)."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.reason = message
        self.line = line
        self.column = column


class Token(NamedTuple):
    """One lexeme. ``line`` is 1-based, ``col`` 0-based (code points), ``offset``/``end`` index the text."""

    kind: str
    text: str
    offset: int
    end: int
    line: int
    col: int
    spaced: bool
