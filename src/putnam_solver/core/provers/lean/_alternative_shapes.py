"""Where an ``inductive``'s constructors or a declaration's match alternatives end, whatever the word that ends
them (red team 35b; ``_member_shapes`` does the same for fields and ``where`` declarations).

Lean reads an ``inductive``'s constructors with ``many ctor``, each ``ctor`` beginning with ``"\\n| "``
(leanprover/lean4 src/Lean/Parser/Command.lean ``ctor``, ``«inductive»``), and a declaration's or a ``match``'s
alternatives with ``matchAlts``, ``withPosition $ many1Indent (ppLine >> matchAlt rhsParser)`` (src/Lean/Parser/
Term.lean; a declaration body by pattern matching is ``matchAltsWhereDecls``: the alternatives, then only a
termination hint and ``whereDecls``). So after the last alternative the only continuations are more of its
right-hand side (an application argument must stand right of the saved position: ``checkColGt``), the next
``| ``, a doc comment before a constructor, and the command's trailing clauses (``deriving``, computed fields'
``with``, ``termination_by``, ``decreasing_by``, ``where``). A line whose first word stands at or left of the first
``|`` and is none of those ends the command for Lean, which reads it as the next command's keyword if some library
made it one (an error if not); the splitter, not knowing every library's keywords, would read it as more of the
command. G2 refuses such a line by its shape. For constructors Lean saves no position of their own (the command's,
column 0, stands), so an identifier there is an argument to Lean unless it is a keyword: refusing it is at worst a
false rejection of a type applied on an unindented line. A word right of the first ``|`` stays more of the
alternative before it, as in ``_member_shapes`` (a keyword there is left to the keyword list).

Only the alternatives whose place is a term's are judged: a declaration's own (right after its signature) and
those of a ``match`` that is the declaration's whole value. Elsewhere a ``match`` may stand in a tactic block,
where the line after its alternatives is the next tactic. ``let rec`` needs no rule: its body term must follow
its declarations (``letrec``: ``sepBy1 letRecDecl ", " >> optSemicolon termParser``), so a word after them is
that body, never the end of the command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._commands import DECLARATION_KEYWORDS
from putnam_solver.core.provers.lean._continuation import _CLOSERS, _OPENERS, DEMANDING_SYMBOLS, Depth, continues
from putnam_solver.core.provers.lean._member_shapes import _NOT_MEMBERS
from putnam_solver.core.provers.lean._tokens import DOC, IDENT, Token

_INDUCTIVES: Final = frozenset({"inductive", "coinductive"})
_HOLDERS: Final = DECLARATION_KEYWORDS - {"structure", "class", "axiom"}
"""Declarations whose body may be alternatives (fields and ``where`` are ``_member_shapes``'s)."""
ALTERNATIVE_RULE: Final = (
    "neither a constructor or match alternative nor more of the one before: Lean ends the command here, and reads "
    "a library command if the word is one; begin commands at column 0"
)


def unshaped_alternatives(tokens: Sequence[Token], keyword: str, head: int) -> list[Token]:
    """The words of the command (``tokens``, its keyword at ``head``) that begin a line at or left of its
    constructors' or term alternatives' first ``|`` and that Lean reads as no part of them: each ends the
    command, and may begin another."""
    first = _first_bar(tokens, keyword, head) if keyword in _HOLDERS else None
    if first is None:
        return []
    if tokens[first].text != "|":  # a `match` value with no alternative: Lean fails there, and resumes there
        return [tokens[first]]
    column, depth = tokens[first].col, Depth(tokens, 0)
    found: list[Token] = []
    for i in range(first + 1, len(tokens)):
        token = tokens[i]
        if token.line == tokens[i - 1].line or token.col > column:
            continue  # not first on its line, or more of the alternative before it
        if token.text in _NOT_MEMBERS:
            break  # a trailing clause: what follows it is judged as its own (``_member_shapes`` for ``where``)
        if not token.col:
            continue  # the splitter's
        if token.kind == IDENT and not continues(tokens, i, keyword, depth):
            found.append(token)
    return found


def _first_bar(tokens: Sequence[Token], keyword: str, head: int) -> int | None:
    """The first ``|`` of the alternatives in a term's place: an inductive's first constructor (after ``where``
    or ``:=``, ``«inductive»``: ``optional (" :=" <|> " where") >> many ctor``), a declaration's
    first alternative (before any ``:=``, not where a term must follow, as in ``: |x| ≤ 1``), or the first
    alternative of a ``match`` that is the declaration's whole value."""
    depth, valued = 0, False
    for i in range(head + 1, len(tokens)):
        text = tokens[i].text
        if text in _OPENERS or text in _CLOSERS:
            depth += 1 if text in _OPENERS else -(depth > 0)
            continue
        if depth:
            continue
        if text == ":=" and keyword in _INDUCTIVES:
            continue  # `inductive T :=` then its constructors, as after `where` (``«inductive»``: `" :=" <|> " where"`)
        if text == ":=":
            if i + 1 >= len(tokens) or tokens[i + 1].text != "match":
                valued = True
                continue
            return _match_bar(tokens, i + 1)
        if text == "|" and not valued and (keyword in _INDUCTIVES or _opens_alternative(tokens, i)):
            return i
    return None


def _opens_alternative(tokens: Sequence[Token], i: int) -> bool:
    """Whether the ``|`` at ``i`` may begin a declaration's alternatives: first on its line, after no symbol
    that demands a term (an absolute value ``|x|`` in the type)."""
    before = tokens[i - 1]
    return before.line != tokens[i].line and before.kind != DOC and before.text not in DEMANDING_SYMBOLS


def _match_bar(tokens: Sequence[Token], start: int) -> int | None:
    """The first ``|`` after the ``with`` of the ``match`` at ``start``, outside brackets; where none follows,
    the first token after the ``with`` (``matchAlts`` is ``many1Indent matchAlt``, each ``"| "`` first: Lean
    fails at that token and its command loop resumes there, src/Lean/Parser/Module.lean ``parseCommand``);
    None if nothing follows the ``with``."""
    depth, after_with = 0, None
    for i in range(start + 1, len(tokens)):
        text = tokens[i].text
        if after_with is None and depth == 0 and text == "with":
            after_with = i + 1
        elif text in _OPENERS or text in _CLOSERS:
            depth += 1 if text in _OPENERS else -(depth > 0)
        elif not depth and text == "|" and after_with is not None:
            return i
    return after_with if after_with is not None and after_with < len(tokens) else None
