"""Where a doc comment, a module doc or an attribute list ends a Lean command, at any column.

Lean's whitespace reader skips ``--`` and ``/- -/`` comments but stops at ``/--`` and ``/-!``: "doc comments are
actual tokens" (leanprover/lean4 src/Lean/Parser/Basic.lean, ``whitespace``). ``/-! ... -/`` is the command
``moduleDoc`` (src/Lean/Parser/Command.lean) and no term, tactic or declaration part begins with it, so the
command before it ends there and the one after it begins right after it, whatever their columns: a library
command after a module doc in a helper's tactic block is a command of its own to Lean. Likewise ``/--`` and
``@[`` (``declModifiers``: ``optional docComment >> optional attributes``) begin no term and no tactic: where a
declaration's value or proof stands, they end the command and begin the next, whose keyword may be any
library command that takes modifiers (Mathlib's ``irreducible_def``, Batteries' ``alias``). They stay inside
a command only where its grammar takes them: a structure's or class's fields (``declModifiers true``,
where a field follows them: ``_members``), an inductive type's constructors (``optional docComment >>
"| "``, attributes after the ``|``), and the declarations of a ``where`` clause or a ``let rec``
(``letRecDecl := optional docComment >> optional attributes >> letDecl``, src/Lean/Parser/Term.lean), each
of which stands at the column of the first one (``whereDecls``' ``sepByIndent``, ``checkColEq``) or right
after the ``where``/``rec``.

Measured on every statement of the three pinned benchmarks and every Lean proof of the conformance corpora
(4313 texts): none holds a ``/--``, ``/-!`` or ``@[`` that is not first on its line in column 0, so the split
of each is unchanged. What Lean reads as more of the command and this module does not (a ``/--`` before a
second ``let rec`` declaration after a ``,``) is split off and refused: a false rejection, never an
acceptance.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from operator import itemgetter
from typing import Final

from putnam_solver.core.provers.lean._continuation import _CLOSERS, _OPENERS, TYPE_DECLARATIONS
from putnam_solver.core.provers.lean._members import field_follows
from putnam_solver.core.provers.lean._tokens import COMMENT, DOC, Token, positions

_WHERE_WALK: Final = 4096
"""How far back a ``/--`` or ``@[`` looks for the ``where`` whose declarations it may begin; past it the
command is taken to end (fail closed, and linear on a long ``where`` block of documented declarations)."""
_KIND: Final = itemgetter(0)
_TEXT: Final = itemgetter(1)


def module_doc_followers(tokens: Sequence[Token]) -> frozenset[int]:
    """The offsets of the code tokens that follow a ``/-!`` module doc (``tokens``: every token, comments
    included): each begins a command, since the module doc is one."""
    found: set[int] = set()
    pending = False
    for token in tokens:
        if token.kind == COMMENT:
            pending = pending or token.text.startswith("/-!")
        elif pending:
            found.add(token.offset)
            pending = False
    return frozenset(found)


def break_candidates(tokens: Sequence[Token], followers: frozenset[int]) -> list[int]:
    """Indices of the tokens :func:`breaks` must judge: every ``/--`` and ``@[`` not in column 0 (those in
    column 0 are the splitter's own starters) and every token after a module doc, in order."""
    docs = positions(list(map(_KIND, tokens)), DOC)
    attrs = positions(list(map(_TEXT, tokens)), "@[")
    indented = [i for i in chain(docs, attrs) if tokens[i].col]
    after_docs = [i for i, t in enumerate(tokens) if t.offset in followers] if followers else []
    return sorted({*indented, *after_docs})


def breaks(tokens: Sequence[Token], keyword: int | None, i: int, followers: frozenset[int]) -> bool:
    """Whether Lean ends the command whose keyword is at ``keyword`` (None: the command so far is all
    prefix) before ``tokens[i]``, a candidate of :func:`break_candidates`."""
    if tokens[i].offset in followers:
        return True
    if keyword is None or i <= keyword:
        return False  # a doc comment or attributes still before the keyword: the command's own prefix
    kind, previous = tokens[keyword].text, tokens[i - 1]
    is_doc = tokens[i].kind == DOC
    if kind in ("structure", "class"):
        return not field_follows(tokens, i)
    if kind in TYPE_DECLARATIONS and kind != "inductive":
        return False  # a field's modifiers
    if kind == "inductive":
        after = tokens[i + 1].text if i + 1 < len(tokens) else ""
        return after != "|" if is_doc else previous.text != "|" and previous.kind != DOC
    if not is_doc and previous.kind == DOC:
        return False  # `/-- d -/ @[simp]`: the attributes of what the doc comment begins, wherever that is
    if previous.text == "rec":
        return False
    return not _in_where_declarations(tokens, keyword, i)


def _in_where_declarations(tokens: Sequence[Token], keyword: int, i: int) -> bool:
    """Whether ``tokens[i]`` begins a declaration of the nearest ``where`` before it: right after it, or at
    the column of its first declaration (``whereDecls``' ``sepByIndent``: ``checkColEq``), and that
    ``where`` follows the declaration's value (``:= v where``). A ``where`` with no ``:=`` before it begins
    a structure instance's fields (``whereStructInst``), which take no doc comment or attributes."""
    for j in range(i - 1, max(keyword, i - _WHERE_WALK), -1):
        if tokens[j].text == "where":
            at_column = j + 1 == i or tokens[j + 1].col == tokens[i].col
            return at_column and _valued(tokens, keyword, j)
    return False


def _valued(tokens: Sequence[Token], keyword: int, where: int) -> bool:
    """Whether a ``:=`` outside brackets stands between the keyword and the ``where`` (looked for within
    :data:`_WHERE_WALK` tokens back from it)."""
    depth = 0
    for j in range(where - 1, max(keyword, where - _WHERE_WALK), -1):
        text = tokens[j].text
        if text in _CLOSERS:
            depth += 1
        elif text in _OPENERS:
            depth -= 1
        elif text == ":=" and depth == 0:
            return True
    return False
