"""Tokens glued together that Lean's tokenizer may read differently from the lexer, because Lean reads
the longest token of a table that imports extend.

How Lean reads (leanprover/lean4 ``src/Lean/Parser/Basic.lean``, read at
00c1b82722b50e9b1ae4999ccc97f932b2788b51): ``tokenFnAux`` looks at the first character of a token: ``"``
begins a string, ``'`` not followed by ``'`` a character literal (``charLitFnAux``), a digit a number,
a backquote before a name a name literal, ``r`` before ``#*"`` a raw string (``isRawStrLitStart``);
anything else is the longest token of the table that prefixes the input (``c.tokens.matchPrefix``), or
an identifier when that is longer (``identFnAux``, ``mkIdResult``). Comments are read only by
``whitespace``, which runs *after* a token ends. So a comment, character literal or raw string right
after a symbol is what the lexer says only if no token of the table continues the symbol with the
comment's ``-``/``/``, the ``'`` or the ``r``: Mathlib's ``→r`` does (``→r"x"`` is ``→r`` then a plain
string), core's ``//`` and ``\\/`` do (``//-x`` is ``//`` then ``-x``), a library token ending in ``'``
would swallow a character literal's opening quote (``⨁'"'``).

Such a juxtaposition is a lexing error (:func:`glued_error`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, count
from operator import itemgetter
from typing import Final

from putnam_solver.core.provers.lean._tokens import CHAR, COMMENT, DOC, STRING, SYMBOL, Token

_GLUED_KINDS: Final = frozenset({COMMENT, DOC, CHAR, STRING})
_KIND: Final = itemgetter(0)


def glued_error(tokens: Sequence[Token]) -> tuple[str, int] | None:
    """The message and offset of the first comment, char literal or raw string glued to the symbol before
    it that Lean may read otherwise (module docstring), or ``None``."""
    for i in compress(count(), map(_GLUED_KINDS.__contains__, map(_KIND, tokens))):  # a C loop; few hits
        if not i:
            continue
        token, before = tokens[i], tokens[i - 1]
        if token.spaced or before.kind != SYMBOL or before.end != token.offset:
            continue
        if token.kind == STRING and token.text[0] != "r":  # no token ends in `"`: a string opens there
            continue
        what = {CHAR: "a character literal", STRING: "a raw string"}.get(token.kind, "a comment")
        message = f"{what} right after `{before.text}`: Lean may read the two as one longer token"
        return f"{message} of its library (`//-` is `//` then `-`); put a space between them", token.offset
    return None
