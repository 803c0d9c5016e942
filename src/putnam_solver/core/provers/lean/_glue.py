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

Such a juxtaposition is a lexing error (:func:`glued_error`), except after the brackets and separators of
:data:`LITERAL_AFTER`: Lean's own syntax puts literals there (``['a', 'b']``, ``#[r"x"]``), and no token
of Lean core or Mathlib continues one of them with ``'`` or ``r``. (Mathlib continues ``[`` with capitals,
``[MOD``, ``[ZMOD``, ``[PMOD``, ``[SMOD``: see :func:`bracket_glued`, which G2 and G3 read.) Comments stay refused
there too: ``(--`` and ``[/-`` are rare, and a table token beginning ``(-`` or ``[-`` cannot be ruled out
as surely.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, count
from operator import itemgetter
from typing import Final

from putnam_solver.core.provers.lean._tokens import CHAR, COMMENT, DOC, STRING, SYMBOL, Token

_GLUED_KINDS: Final = frozenset({COMMENT, DOC, CHAR, STRING})
LITERAL_AFTER: Final = frozenset({"(", "[", "#[", "{", "⟨", ","})
"""Symbols after which Lean reads a glued character literal or raw string as the lexer does: core's
brackets (``(``, ``[``, ``#[``, ``{``, ``⟨``) and list separator. The longer tokens of Lean core and Mathlib
that hold one of them go on with symbols (``#[``, ``%[``, ``![``, ``[[``, ``,*`` for ``$[...],*``) or, after
``[``, with capitals (:data:`BRACKET_WORDS`, read by :func:`bracket_glued`); none with ``'`` or ``r``."""
BRACKET_WORDS: Final = ("MOD", "ZMOD", "PMOD", "SMOD")
"""Mathlib's tokens ``[MOD``, ``[ZMOD``, ``[PMOD``, ``[SMOD`` (``notation:50 a " ≡ " b " [MOD " n "]"`` in
Mathlib/Data/Nat/ModEq.lean, and likewise Mathlib/Data/Int/ModEq.lean, Mathlib/Algebra/ModEq.lean,
Mathlib/LinearAlgebra/SModEq.lean; global notations, tokens of every file that imports Mathlib): Lean
reads ``[MODsorry]`` as ``[MOD`` then the name ``sorry``, where the lexer reads ``[`` then ``MODsorry``."""
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
        if token.kind in (CHAR, STRING) and before.text in LITERAL_AFTER:
            continue
        what = {CHAR: "a character literal", STRING: "a raw string"}.get(token.kind, "a comment")
        message = f"{what} right after `{before.text}`: Lean may read the two as one longer token"
        return f"{message} of its library (`//-` is `//` then `-`); put a space between them", token.offset
    return None


def bracket_glued(before: Token, token: Token, known_only: bool = False) -> bool:
    """Whether Lean may read the identifier ``token`` from inside: it is glued to a ``[`` and begins with
    a capital, as the word of Mathlib's ``[MOD``-like tokens does (:data:`BRACKET_WORDS`; ``[MODsorry`` is
    ``[MOD`` then ``sorry``). G3 counts any capital (a library may declare another such token, and G3 only
    asks which forbidden words end the name: ``[Finset.sum_comm]`` passes); with ``known_only``, only a
    name that begins with one of those words and is longer (G2, whose words, ``end`` or ``def``, end
    ordinary names: ``[HAppend.hAppend]``)."""
    if before.text != "[" or token.spaced or before.end != token.offset:
        return False
    if known_only:
        return any(token.text.startswith(word) and len(token.text) > len(word) for word in BRACKET_WORDS)
    return "A" <= token.text[:1] <= "Z"
