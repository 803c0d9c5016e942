"""The ``open ... in`` prefix of a command, read by Lean's grammar of ``open``.

Lean's ``open`` takes one of five forms (leanprover/lean4 src/Lean/Parser/Command.lean, ``openDecl``):

* ``openHiding``: ``open N hiding a b``;
* ``openRenaming``: ``open N renaming a → x, b -> y`` (items separated by ``,``);
* ``openOnly``: ``open N (a b)``;
* ``openSimple``: ``open N M ...``;
* ``openScoped``: ``open scoped N M ...``;

and ``open DECL in CMD`` (the ``in`` combinator) runs one command with it. Red team 25: G2 read only the
forms made of names, so ``open Finset (range) in`` or ``open Real renaming sqrt → s in`` before a helper
(harmless: it acts on that helper only) was refused as a word not permitted before a helper, and before
the theorem as a changed statement instead of being left to G6 like ``open N in``. Whatever the form, an
``open ... in`` before the theorem is one that only G6 can judge, so reading every form changes no
refusal into an acceptance on the text profile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean.syntax import IDENT, Token

_ARROWS: Final = frozenset({"→", "->"})


def _name(tokens: Sequence[Token], j: int) -> bool:
    return j < len(tokens) and tokens[j].kind == IDENT and tokens[j].text != "in"


def _names(tokens: Sequence[Token], j: int) -> int:
    """Index after the run of names at ``j`` (``j`` itself when there is none)."""
    while _name(tokens, j):
        j += 1
    return j


def _renamings(tokens: Sequence[Token], j: int) -> int | None:
    """Index after ``a → x, b -> y`` at ``j``, or None when no item stands there."""
    while _name(tokens, j) and j + 2 < len(tokens) and tokens[j + 1].text in _ARROWS and _name(tokens, j + 2):
        j += 3
        if not (j < len(tokens) and tokens[j].text == ","):
            return j
        j += 1
    return None


def open_decl_end(tokens: Sequence[Token], i: int) -> int | None:
    """Index after the declaration of the ``open`` at ``i`` (one of Lean's five forms), else None."""
    j = i + 1
    if not _name(tokens, j):
        return None
    after_first = j + 1
    keyword = tokens[after_first].text if after_first < len(tokens) else ""
    if tokens[j].text == "scoped" or keyword == "hiding":
        start = j + 1 if tokens[j].text == "scoped" else after_first + 1
        end = _names(tokens, start)
        return end if end > start else None
    if keyword == "renaming":
        return _renamings(tokens, after_first + 1)
    if keyword == "(":
        end = _names(tokens, after_first + 1)
        return end + 1 if end > after_first + 1 and end < len(tokens) and tokens[end].text == ")" else None
    return _names(tokens, j)


def open_in_end(tokens: Sequence[Token], i: int) -> int | None:
    """Index after the ``in`` of ``open DECL in`` at ``i``, else None."""
    end = open_decl_end(tokens, i)
    return end + 1 if end is not None and end < len(tokens) and tokens[end].text == "in" else None


def activated_namespaces(tokens: Sequence[Token], i: int) -> list[Token]:
    """The namespaces whose scoped declarations (instances, notations) the ``open`` at ``i`` activates.
    leanprover/lean4 src/Lean/Elab/Open.lean (commit 02637a0), ``elabOpenDecl``: ``openSimple`` (line 79),
    ``openScoped`` (line 83) and ``openHiding`` (line 93) call ``activateScoped`` on each namespace;
    ``openOnly`` (``open N (a b)``, lines 84-90) and ``openRenaming`` (lines 100-) only add aliases."""
    j = i + 1
    if not _name(tokens, j):
        return []
    if tokens[j].text == "scoped":
        return list(tokens[j + 1 : _names(tokens, j + 1)])
    keyword = tokens[j + 1].text if j + 1 < len(tokens) else ""
    if keyword == "hiding":
        return [tokens[j]]
    if keyword in ("(", "renaming"):
        return []
    return list(tokens[j : _names(tokens, j)])
