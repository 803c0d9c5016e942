"""Round 50: a name that Lean reads as an ``rcases`` pattern, not where a tactic begins (``_resumed_names``).

Red team 49 refused a name after every ``|`` whose tail after its first character lexes as a command keyword,
so ``rcases h with hconst | hopen`` (a published proof's hypotheses) was refused. Lean reads that ``hopen``
whole: core's ``rcases``, ``obtain`` and ``rintro`` (leanprover/lean4 src/Init/RCases.lean) take a pattern
``rcasesPatMed := sepBy1(rcasesPat, " | ")``, whose items are ``rcasesPat.one ident``, ``"_"``, ``"-"``,
``"@" noWs rcasesPat``, ``"⟨" rcasesPatLo,* "⟩"`` and ``"(" rcasesPatLo ")"``; ``rcases`` has ``" with "
rcasesPatLo``, ``obtain`` a ``rcasesPatMed`` right after its word, ``rintro`` a list ``rintroPat+`` with ``|``
only inside brackets. Parsers are greedy (``sepBy1`` takes every ``|`` that follows an item), and the
``ident`` parser takes a name whole, so no "unknown tactic" error stands one character into it.

So a name after ``|``, ``,``, ``⟨``, ``(`` or an ``rcases``'s ``with`` is read as a pattern where the tokens
back to its tactic's word are a well-formed pattern prefix: at each bracket level items (a name, ``_``, ``-``,
a bracketed group, an ``@`` before one) alternate with ``|`` (or ``,`` inside ``⟨ ⟩``), and the outermost level
follows ``obtain``, or the ``with`` of an ``rcases`` on the same line, or (as items with no separator)
``rintro`` where the name is inside brackets; and that word surely begins a tactic, not a name in a term
(``_tactic_starts``, round 52: after ``;``, ``<;>``, ``try``, a ``case``'s ``=>`` too; ``first | exact f
obtain a | h..`` reads ``obtain a`` as arguments and the next ``|`` as ``first``'s, where a tactic begins). A
group's contents are not checked: a group Lean cannot read as a pattern is an error at a token's start, where
Lean's command loop reads names whole. Anything else, a ``:`` ascription included, is no pattern here (fail
closed: the name is judged as at a tactic's place). Measured on this rule's tests: ``first | obtain | haxiom
..`` (``obtain`` then a ``|``, no item: Lean ends the ``obtain`` and reads ``first``'s next alternative) and
``obtain h`` followed by ``first | simp | haxiom`` (two items with no ``|``: the pattern ended) stay refused.
Round 52: the first item right after an ``rcases``'s ``with`` (``rcases h with hopen | hb``) was judged as a
tactic's place (``with`` was no place before a name here); it is the pattern's first item.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._match_arms import WALK
from putnam_solver.core.provers.lean._tactic_starts import TacticStarts, opening
from putnam_solver.core.provers.lean._tokens import IDENT, Token

_ITEM: Final = "item"
_BEFORE_NAME: Final = frozenset({"|", ",", "⟨", "(", "with"})
_SEPARATORS: Final = {"⟨": frozenset({"|", ","}), "(": frozenset({"|"})}
"""What separates the items inside each pattern bracket (``rcasesPat.tuple``, ``rcasesPat.paren``)."""
_CLOSERS: Final = {")": "(", "⟩": "⟨", "]": "[", "}": "{"}
_NOT_NAMES: Final = frozenset(
    {"by", "fun", "λ", "match", "with", "at", "from", "have", "show", "if", "then", "else", "let", "do", "calc",
     "obtain", "rcases", "rintro", "rintros", "in", "decreasing_by"}
)  # fmt: skip
"""Words that are no pattern item (Lean's keywords, and the pattern tactics' own words)."""
_NOT_TARGETS: Final = frozenset(
    {"with", "by", ";", "<;>", "·", "|", "=>", ":=", "fun", "λ", "match", "do", "then", "else", "obtain", "rintro"}
)
"""Tokens no target of ``rcases`` holds at its own bracket level between ``rcases`` and ``with``."""


def read_as_pattern(code: Sequence[Token], j: int, starts: TacticStarts) -> bool:
    """Whether Lean reads the name ``code[j]`` as an item of an ``rcases``/``obtain``/``rintro`` pattern (see
    the module's text): walked back within :data:`_match_arms.WALK` tokens, else not."""
    if j == 0 or code[j - 1].text not in _BEFORE_NAME:
        return False
    kinds: list[str] = [_ITEM]  # the current level's items and separators, nearest first
    nested = False
    i = j - 1
    while i >= 0 and j - i < WALK:
        token, text = code[i], code[i].text
        if text in (")", "⟩"):
            opened = opening(code, i)
            if opened is None:
                return False
            kinds.append(_ITEM)
            i = opened
        elif text in _SEPARATORS:
            if not _alternates(kinds, _SEPARATORS[text]):
                return False
            kinds, nested = [_ITEM], True
        elif text in ("obtain", "with"):  # `obtain` or an `rcases`'s `with`; any other `with` is no pattern
            word = i if text == "obtain" else _rcases_with(code, i)
            return word is not None and _alternates(kinds, frozenset({"|"})) and starts.begins(word)
        elif text in ("rintro", "rintros"):
            return nested and all(kind == _ITEM for kind in kinds) and starts.begins(i)
        elif text == "@" and kinds[-1] == _ITEM and not code[i + 1].spaced:
            pass  # `@⟨a, b⟩`: the item after it
        elif text in ("|", ","):
            kinds.append(text)
        elif text in ("_", "-") or (token.kind == IDENT and text not in _NOT_NAMES):
            kinds.append(_ITEM)
        else:
            return False
        i -= 1
    return False


def _alternates(kinds: Sequence[str], separators: frozenset[str]) -> bool:
    """Whether ``kinds`` (nearest first) is an item, then separator and item pairs: ``sepBy1``'s shape."""
    return len(kinds) % 2 == 1 and all(
        kind == _ITEM if n % 2 == 0 else kind in separators for n, kind in enumerate(kinds)
    )


def _rcases_with(code: Sequence[Token], with_: int) -> int | None:
    """The index of the ``rcases`` whose ``with`` is at ``with_``: before it on its line, in the same
    brackets, with only targets between (no token of :data:`_NOT_TARGETS`); None if there is none."""
    depth = 0
    for i in range(with_ - 1, max(-1, with_ - WALK), -1):
        token = code[i]
        if token.line != code[with_].line:
            return None
        if token.text in _CLOSERS:
            depth += 1
        elif token.text in _CLOSERS.values():
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0 and token.text == "rcases":
            return i
        elif depth == 0 and token.text in _NOT_TARGETS:
            return None
    return None
