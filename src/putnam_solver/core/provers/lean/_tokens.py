"""The Lean lexer's data: token kinds, :class:`Token` and :class:`LexError` (``_lexer`` makes them,
``_glue`` judges tokens glued together, the gates read them)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
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


def positions(values: Sequence[object], value: object) -> list[int]:
    """Every index at which ``value`` occurs in ``values``, in order. ``index`` does the scanning (for a
    list or tuple, a loop in C), so Python runs once per occurrence, not once per element."""
    found: list[int] = []
    i = -1
    with suppress(ValueError):  # raised when no occurrence is left
        while True:
            i = values.index(value, i + 1)
            found.append(i)
    return found
