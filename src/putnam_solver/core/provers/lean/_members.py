"""Where a modifier word, a ``/--`` or an ``@[`` inside a type declaration begins one of its members (a
structure's or class's field, an inductive type's constructor) rather than the next command.

Lean's grammar (leanprover/lean4 src/Lean/Parser/Command.lean):

* a field is ``structExplicitBinder``, ``structImplicitBinder``, ``structInstBinder`` (``declModifiers true``
  then ``(``, ``{`` or ``[``, names, a signature) or ``structSimpleBinder``: ``atomic (declModifiers true >>
  ident) >> optDeclSig >> optional (binderTactic <|> binderDefault)``, where ``optDeclSig`` is ``many
  (binderIdent <|> bracketedBinder) >> optType``. The modifiers sit inside ``atomic``: where no field
  follows them, the structure ends before them and they begin the next command;
* a constructor is ``ctor``: ``atomic (optional docComment >> "\\n| ") >> declModifiers true >> rawIdent >>
  optDeclSig``. Once the ``|`` is read nothing backtracks, so every modifier between it and the
  constructor's name is the constructor's (``| private mk : T``).

The lexer cannot tell a library's command keyword from a field's name (round 34: ``/-- d -/
zz_library_command zz : T`` was read as a field), so a word after the modifiers counts as a field's name only
when its own signature follows it: bracketed binders, bare binder names, then ``:`` (or ``:=``/``::`` at
once). A bare binder's type is inferred from its uses, and Lean refuses a field one of whose bare binders
the rest of its signature never names ("failed to infer binder type"), so each must be named there
(round 35: ``f n : Fin (n + 1)`` is a field; ``zz_library_command zz : True`` stays a command). The known
command words are reported wherever they stand (``_commands.body_keywords``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._continuation import _CLOSERS, _OPENERS
from putnam_solver.core.provers.lean._tokens import DOC, IDENT, Token

MEMBER_MODIFIERS: Final = frozenset(
    {"private", "public", "protected", "meta", "noncomputable", "unsafe", "partial", "nonrec"}
)
_SIGNATURE_WALK: Final = 4096
"""How far a member's signature is read (fail closed past it: the word is taken to begin a command)."""
_NAMED_BINDERS: Final = frozenset({"(", "{", "⦃"})
"""Binders that must name their variables (``(x : T)``); ``[`` may be anonymous (``[Foo α]``)."""


def begins_member(kind: str, tokens: Sequence[Token], i: int) -> bool:
    """Whether the modifier word at ``i`` in the body of a ``kind`` declaration is one of its members'."""
    if tokens[i].text not in MEMBER_MODIFIERS:
        return False
    if kind in ("structure", "class"):
        return field_follows(tokens, i)
    return kind == "inductive" and _constructor_modifier(tokens, i)


def _constructor_modifier(tokens: Sequence[Token], i: int) -> bool:
    """Between a constructor's ``|`` (and its attributes) and its name: only modifiers, then a name."""
    j = i - 1
    while j >= 0 and tokens[j].text in MEMBER_MODIFIERS:
        j -= 1
    if j >= 0 and tokens[j].text == "]":
        j = _before_list(tokens, j)
    k = i + 1
    while k < len(tokens) and tokens[k].text in MEMBER_MODIFIERS:
        k += 1
    return j >= 0 and tokens[j].text == "|" and k < len(tokens) and tokens[k].kind == IDENT


def field_follows(tokens: Sequence[Token], i: int) -> bool:
    """Whether the ``/--``, ``@[`` or modifier at ``i`` among a structure's fields begins a field: its
    modifiers (``declModifiers true``: one doc comment, one attribute list, modifier words), then a bracketed
    binder, or a name and its signature (:func:`_signature_follows`)."""
    end = min(len(tokens), i + _SIGNATURE_WALK)
    j = i + 1 if tokens[i].kind == DOC else i
    if j < end and tokens[j].text == "@[":
        j = _list_end(tokens, j, end)
    while j < end and tokens[j].text in MEMBER_MODIFIERS:
        j += 1
    if j + 1 >= end or tokens[j].kind == DOC or tokens[j].text == "@[":
        return False
    if tokens[j].text in ("(", "{", "["):
        return True
    return tokens[j].kind == IDENT and _signature_follows(tokens, j, end)


def signature_binder(tokens: Sequence[Token], i: int) -> bool:
    """Whether the ``[`` at ``i`` among a class's fields is a binder of a field's signature (``f [C α] : T``,
    after the field's name on its line), not a field of its own (``structInstBinder``, ``[inst : C α]``,
    whose projection the class makes an instance): the field it belongs to is a ``structSimpleBinder``,
    whose binder is the default one, so its projection is no instance."""
    line, name = tokens[i].line, i
    while name > 0 and tokens[name - 1].line == line:
        name -= 1
    while name < i and (tokens[name].kind == DOC or tokens[name].text in MEMBER_MODIFIERS):
        name += 1
    if name >= i or tokens[name].kind != IDENT:
        return False
    sign = _signature_end(tokens, name, min(len(tokens), name + _SIGNATURE_WALK))
    return sign is not None and i < sign


def _signature_follows(tokens: Sequence[Token], name: int, end: int) -> bool:
    return _signature_end(tokens, name, end) is not None


def _signature_end(tokens: Sequence[Token], name: int, end: int) -> int | None:
    """The index of the ``:``, ``:=`` or ``::`` that ends the binders after the field's name at ``name``, if
    it is a field's: ``::`` at once (``structCtor``), or binders then ``:`` or ``:=``,
    each bare binder name (not ``_``) named again after it, before the next token at or left of the name's
    column, and ``:`` after a bare one (a default alone gives its type no use to be inferred from)."""
    k, bare = name + 1, []
    while k < end and tokens[k].text not in (":", ":=", "::"):
        token = tokens[k]
        if token.kind == IDENT and token.text != "_":
            bare.append(k)
            k += 1
        elif token.text == "[" or (token.text in _NAMED_BINDERS and _binder_names(tokens, k + 1, end)):
            k = _list_end(tokens, k, end)
        else:
            return None
    if k >= end or (k > name + 1 and tokens[k].text == "::") or (bare and tokens[k].text != ":"):
        return None
    column, line = tokens[name].col, tokens[name].line
    later = {
        t.text.split(".")[0]
        for t in _until_column(tokens[name + 1 : end], column, line)
        if t.kind == IDENT and not any(t is tokens[b] for b in bare)
    }
    return k if all(tokens[b].text in later for b in bare) else None


def _until_column(tokens: Sequence[Token], column: int, line: int) -> list[Token]:
    """``tokens`` up to the first one on a later line than ``line`` at or left of ``column``."""
    for n, token in enumerate(tokens):
        if token.line > line and token.col <= column:
            return list(tokens[:n])
    return list(tokens)


def _binder_names(tokens: Sequence[Token], k: int, end: int) -> bool:
    """Whether ``tokens[k:]`` (inside a binder's bracket) is one or more names (``_`` is one) then ``:``."""
    start = k
    while k < end and tokens[k].kind == IDENT:
        k += 1
    return start < k < end and tokens[k].text == ":"


def _list_end(tokens: Sequence[Token], j: int, end: int) -> int:
    """The index after the bracket that closes the one at ``j`` (an ``@[`` attribute list, a binder); ``end``
    if none does before it or a ``/--`` or ``@[`` comes first (no attribute list or binder holds one)."""
    depth = 0
    for k in range(j + 1, end):
        token = tokens[k]
        if token.kind == DOC or token.text == "@[":
            return end
        if token.text in _OPENERS:
            depth += 1
        elif token.text in _CLOSERS:
            if not depth:
                return k + 1
            depth -= 1
    return end


def _before_list(tokens: Sequence[Token], j: int) -> int:
    """The index before the ``@[`` whose list the ``]`` at ``j`` closes; -1 if there is none."""
    depth = 0
    for k in range(j - 1, max(j - _SIGNATURE_WALK, -1), -1):
        text = tokens[k].text
        if text in _CLOSERS:
            depth += 1
        elif text in _OPENERS:
            if depth:
                depth -= 1
            else:
                return k - 1 if text == "@[" else -1
    return -1
