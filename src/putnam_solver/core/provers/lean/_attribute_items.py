"""The items of an ``@[...]`` attribute list, for G2's and G3's attribute rules (``_attributes``) and Aesop's
phase word in an ``@[aesop ...]`` item (``_aesop_clauses``); it needs the tokens only, so both can use it."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from putnam_solver.core.provers.lean._tokens import DOC, Token

_OPEN: Final = frozenset({"(", "[", "{", "⟨", "@["})
_CLOSE: Final = frozenset({")", "]", "}", "⟩"})
_PLAIN: Final = re.compile(r"«([A-Za-z_][A-Za-z0-9_]*)»")


def attribute_word(text: str) -> str:
    """The attribute an item's first word names: round 50, ``«simp»`` is ``simp``. A guillemet name is no
    keyword, so Lean reads the item by the catch-all ``Lean.Parser.Attr.simple`` (``ident`` and an optional
    priority or name, leanprover/lean4 src/Lean/Parser/Attr.lean) and applies the attribute its name names
    (src/Lean/Elab/Attributes.lean, ``elabAttr``: ``attr[0].getId`` for ``Attr.simple``); any other text is
    kept as written (and refused unless listed)."""
    plain = _PLAIN.fullmatch(text)
    return plain.group(1) if plain else text


def attribute_items(tokens: Sequence[Token], start: int) -> tuple[list[list[Token]], int]:
    """The comma-separated items of the ``@[...]`` opened at ``tokens[start]`` and the index after its
    ``]`` (``len(tokens)`` and a last item ``[]`` when it never closes, which no rule allows)."""
    items: list[list[Token]] = [[]]
    depth = 0
    for j in range(start + 1, len(tokens)):
        token = tokens[j]
        if token.kind == DOC:
            continue
        if depth == 0 and token.text == "]":
            return items, j + 1
        if depth == 0 and token.text == ",":
            items.append([])
            continue
        depth += 1 if token.text in _OPEN else -1 if token.text in _CLOSE else 0
        items[-1].append(token)
    return [*items, []], len(tokens)


def each_attribute_list(tokens: Sequence[Token]) -> Iterator[tuple[int, list[list[Token]], int]]:
    """Every top-level ``@[...]`` list in order, as its ``@[`` index, its items and the index after it (a list
    inside another is read as part of that one's items); each token is read once."""
    i = 0
    while i < len(tokens):
        if tokens[i].text != "@[":
            i += 1
            continue
        items, after = attribute_items(tokens, i)
        yield i, items, after
        i = after
