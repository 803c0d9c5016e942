"""Where a structure's fields or a ``where`` clause's declarations end, whatever the word that ends them.

Lean reads a structure's fields with ``manyIndent`` and a ``where`` clause's declarations with ``sepByIndent``
(leanprover/lean4 src/Lean/Parser/Command.lean ``structFields``, src/Lean/Parser/Term.lean ``whereDecls``): both
save the first member's position, and each later member must stand at a column no less than it (``checkColGe``),
then parse as a member: a field is modifiers then a bracketed binder or a name, binders, then its signature, default
or constructor mark (``structSimpleBinder``; after a modifier, the signature at once:
``_members.field_follows``); a declaration is modifiers, a name, binders (names, ``_`` or bracketed) and then
its type, ``:=`` or match alternatives (``letRecDecl``). Where a line begins with a word that is neither more of the
member before it nor a member, the members end and Lean reads the word as the next command's keyword if some library
made it one (red team 35: ``register_grind_attr zz`` among the fields registered an attribute, ``declare_eval_bin zz
(· + ·)`` among the declarations defined a function), an error if not. The splitter cannot tell a library's keyword
from a name (``_commands.COMMAND_ONLY_KEYWORDS`` cannot be complete), so G2 refuses such a line by its shape: a
false rejection (a binder Lean would take but this reading does not, a dotted name) at worst, never a hidden
command. A word at a greater column is more of the member before it (an argument), as Lean reads it too; a tactic's
place has no shape to judge (left to the keyword list).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from putnam_solver.core.provers.lean._continuation import _CLOSERS, _OPENERS, Depth, continues
from putnam_solver.core.provers.lean._members import MEMBER_MODIFIERS, _list_end, field_follows
from putnam_solver.core.provers.lean._tokens import DOC, IDENT, Token

_DECL_SIGNS: Final = frozenset({":", ":=", "|"})
"""What follows a ``where`` declaration's binders: its type, value or match alternatives (``letRecDecl``)."""
_FIELD_SIGNS: Final = frozenset({":", ":=", "::"})
"""What follows a plain field's binders: its type, default value, or ``::`` after the constructor's name."""
_BINDERS: Final = frozenset({"(", "{", "⦃", "["})
_NOT_MEMBERS: Final = frozenset({"deriving", "where", "with", "extends", "termination_by", "decreasing_by"})
"""Words that end the members without beginning a command: the command's own trailing clauses."""
MEMBER_RULE: Final = (
    "neither a field or `where` declaration nor more of the one before: Lean ends them here, and reads a library "
    "command if the word is one; begin commands at column 0"
)


def unshaped_members(tokens: Sequence[Token], keyword: str, head: int) -> list[Token]:
    """The words of the command (``tokens``, its keyword at ``head``) that begin a line where its fields or
    ``where`` declarations stand and that Lean reads as no member: each ends them, and may begin a command."""
    found: list[Token] = []
    depth = Depth(tokens, 0)
    if keyword in ("structure", "class"):
        start = _fields_start(tokens, head)
        if start is not None:
            found += _judged(tokens, start, depth, lambda i: _field(tokens, i))
        return found
    for where in _valued_wheres(tokens, head):
        if where + 1 < len(tokens):
            found += _judged(
                tokens, where + 1, Depth(tokens, 0), lambda i: _declaration_follows(tokens, i, _DECL_SIGNS)
            )
    return found


def _judged(tokens: Sequence[Token], start: int, depth: Depth, shaped: Callable[[int], bool]) -> list[Token]:
    """The line-first words from ``start`` on (up to the end of the members' block) that Lean reads as no
    member: left of the first member's column, or at it without a member's shape (``shaped``). A line that
    begins with a doc comment or ``@[`` is judged too (by the member it begins: Lean reads the doc and
    attributes, then fails at a word that is none, and resumes a command there)."""
    column = tokens[start].col
    found: list[Token] = []
    for i in range(start + 1, len(tokens)):
        token = tokens[i]
        if token.line == tokens[i - 1].line or token.col > column or not token.col:
            continue  # not first on its line, or more of the member before it; column 0 is the splitter's
        modified = token.kind == DOC or token.text == "@["  # a member's doc or attributes first: its shape too
        if not modified and (token.kind != IDENT or token.text in _NOT_MEMBERS or continues(tokens, i, "def", depth)):
            if token.text in _NOT_MEMBERS and token.col <= column:
                break
            continue
        if token.col < column or not shaped(i):
            found.append(token)
    return found


def _fields_start(tokens: Sequence[Token], head: int) -> int | None:
    """The first field's first token: after the ``where`` (or ``:=``) outside brackets and the constructor's
    ``name ::``, if any field follows."""
    depth = 0
    for i in range(head + 1, len(tokens) - 1):
        text = tokens[i].text
        depth += (text in _OPENERS) - (text in _CLOSERS and depth > 0)
        if depth == 0 and text in ("where", ":="):
            j = i + 1
            while j < len(tokens) and tokens[j].text in MEMBER_MODIFIERS:
                j += 1
            if j + 1 < len(tokens) and tokens[j].kind == IDENT and tokens[j + 1].text == "::":
                j += 2
            return j if j < len(tokens) else None
    return None


def _valued_wheres(tokens: Sequence[Token], head: int) -> list[int]:
    """The ``where`` outside brackets that follow the declaration's value (``:= v where``) or its alternatives
    (``| p => v where``, ``matchAltsWhereDecls``): ``whereDecls``."""
    found: list[int] = []
    depth, valued = 0, False
    for i in range(head + 1, len(tokens)):
        text = tokens[i].text
        depth += (text in _OPENERS) - (text in _CLOSERS and depth > 0)
        if depth == 0 and text in (":=", "=>"):
            valued = True
        elif depth == 0 and text == "where" and valued:
            found.append(i)
    return found


def _field(tokens: Sequence[Token], i: int) -> bool:
    """Whether a field begins at the word ``i``: after a modifier, the name must be followed at once by its
    signature (round 34's reading, ``_members.field_follows``: Lean reads the modifiers inside ``atomic``);
    a plain name may take binders first, as ``structSimpleBinder``'s ``optDeclSig`` lets it (``f x : ℕ``)."""
    if tokens[i].text in MEMBER_MODIFIERS or tokens[i].kind == DOC or tokens[i].text == "@[":
        return field_follows(tokens, i)
    return _declaration_follows(tokens, i, _FIELD_SIGNS)


def _declaration_follows(tokens: Sequence[Token], i: int, signs: frozenset[str]) -> bool:
    """Whether a member begins at ``i``: modifiers, a name, binders (plain names, ``_``, bracketed groups of
    plain names with or without a type, instance binders), then one of ``signs``; the binders may run onto
    lines further right."""
    j = i
    if tokens[j].kind == DOC:
        j += 1
    if j < len(tokens) and tokens[j].text == "@[":
        j = _list_end(tokens, j, len(tokens))
    while j < len(tokens) and tokens[j].text in MEMBER_MODIFIERS:
        j += 1
    if j >= len(tokens) or tokens[j].kind != IDENT:
        return False
    column, j = tokens[i].col, j + 1
    while j < len(tokens) and not (tokens[j].line != tokens[j - 1].line and tokens[j].col <= column):
        token = tokens[j]
        if token.text in signs:
            return True
        if token.kind == IDENT or token.text == "_":
            j += 1
        elif token.text in _BINDERS and _binder_names(tokens, j + 1):
            j = _list_end(tokens, j, len(tokens))
        else:
            return False
    return False


def _binder_names(tokens: Sequence[Token], k: int) -> bool:
    """Whether ``tokens[k:]`` (inside a binder's bracket) is one or more plain names (``_`` is one) then ``:``
    or the closing bracket; an instance binder may also be a bare type (``[Fintype α]``)."""
    if tokens[k - 1].text == "[":
        return True
    start = k
    while k < len(tokens) and (tokens[k].text == "_" or (tokens[k].kind == IDENT and "." not in tokens[k].text)):
        k += 1
    return start < k < len(tokens) and (tokens[k].text == ":" or tokens[k].text in _CLOSERS)
