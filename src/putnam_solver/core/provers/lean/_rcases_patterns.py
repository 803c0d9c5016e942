"""Round 50: a name that Lean reads as an ``rcases`` pattern, not where a tactic begins (``_resumed_names``).

Red team 49 refused a name after every ``|`` whose tail after its first character lexes as a command keyword,
so ``rcases h with hconst | hopen`` (a published proof's hypotheses) was refused. Lean reads that ``hopen``
whole: core's ``rcases``, ``obtain`` and ``rintro`` (leanprover/lean4 src/Init/RCases.lean) take a pattern
``rcasesPatMed := sepBy1(rcasesPat, " | ")``, whose items are ``rcasesPat.one ident``, ``"_"``, ``"-"``,
``"@" noWs rcasesPat``, ``"⟨" rcasesPatLo,* "⟩"`` and ``"(" rcasesPatLo ")"``; ``rcases`` has ``" with "
rcasesPatLo``, ``obtain`` a ``rcasesPatMed`` right after its word, ``rintro`` a list ``rintroPat+`` with ``|``
only inside brackets. Parsers are greedy (``sepBy1`` takes every ``|`` that follows an item), and the
``ident`` parser takes a name whole, so no "unknown tactic" error stands one character into it.

So a name after ``|``, ``,``, ``⟨`` or ``(`` is read as a pattern where the tokens back to its tactic's word
are a well-formed pattern prefix: at each bracket level items (a name, ``_``, ``-``, a bracketed group,
an ``@`` before one) alternate with ``|`` (or ``,`` inside ``⟨ ⟩``), and the outermost level follows
``obtain``, or the ``with`` of an ``rcases`` on the same line, or (as items with no separator) ``rintro``
where the name is inside brackets; and that word is surely the tactic, not a name in a term
(:func:`_surely_tactic`: ``first | exact f obtain a | h..`` reads ``obtain a`` as arguments and the next
``|`` as ``first``'s, where a tactic begins). A group's contents are not checked: a group Lean cannot read as a
pattern is an error at a token's start, where Lean's command loop reads names whole. Anything else, a
``:`` ascription included, is no pattern here (fail closed: the name is judged as at a tactic's place).
Measured on this rule's tests: ``first | obtain | haxiom ..`` (``obtain`` then a ``|``, no item: Lean ends the
``obtain`` and reads ``first``'s next alternative) and ``obtain h`` followed by ``first | simp | haxiom`` (two
items with no ``|``: the pattern ended) stay refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._match_arms import WALK
from putnam_solver.core.provers.lean._tokens import IDENT, NUMBER, Token

_ITEM: Final = "item"
_BEFORE_NAME: Final = frozenset({"|", ",", "⟨", "("})
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
_OPEN_BODIES: Final = frozenset(
    {"let", "have", "show", "suffices", "fun", "λ", "calc", "do", "match", "if", "then", "else", "from",
     "=>", "↦"}
)  # fmt: skip
"""Words after which a term or tactic block may go on to the next line whatever its column."""


def read_as_pattern(code: Sequence[Token], j: int) -> bool:
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
            opened = _opening(code, i)
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
            return word is not None and _alternates(kinds, frozenset({"|"})) and _surely_tactic(code, word)
        elif text in ("rintro", "rintros"):
            return nested and all(kind == _ITEM for kind in kinds) and _surely_tactic(code, i)
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


def _opening(code: Sequence[Token], close: int) -> int | None:
    """The index of the bracket that ``code[close]`` closes, within :data:`WALK` tokens; None if not found."""
    stack = [_CLOSERS[code[close].text]]
    for i in range(close - 1, max(-1, close - WALK), -1):
        text = code[i].text
        if text in _CLOSERS:
            stack.append(_CLOSERS[text])
        elif text in _CLOSERS.values():
            if text != stack.pop():
                return None
            if not stack:
                return i
    return None


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


def _surely_tactic(code: Sequence[Token], word: int) -> bool:
    """Whether the pattern tactic's word at ``word`` is surely the tactic, not a name in a term (``first |
    exact f obtain a | h..``: there ``obtain a`` is an argument, and the next ``|`` is ``first``'s, a tactic's
    place): right after ``by`` or a bullet first on its line, or first on its line at the column of the
    nearest line before it not deeper (``sepByIndent``'s next tactic, ``checkColEq``; a bullet skipped) where
    the tactic from there is complete: it ends in a name, number or closing bracket, and no word after its
    first leaves a term open for the next line whatever its column (a ``let``'s body, a ``fun``'s)."""
    if word == 0 or code[word - 1].text == "by" or _bullet(code, word - 1):
        return True
    last, col = code[word - 1], code[word].col
    if last.line == code[word].line or not (last.kind in (IDENT, NUMBER) or last.text in (")", "]", "}", "⟩")):
        return False
    first = word - 1
    while first >= 0 and word - first < WALK:
        if first == 0 or code[first - 1].line != code[first].line:
            head = first + 1 if _bullet(code, first) and code[first + 1].line == code[first].line else first
            if code[head].col <= col:  # `· simp`: the tactic's column is the one after the bullet
                return code[head].col == col and not any(t.text in _OPEN_BODIES for t in code[head + 1 : word])
        first -= 1
    return False


def _bullet(code: Sequence[Token], k: int) -> bool:
    """Whether ``code[k]`` is a bullet (``·`` or ``.``) first on its line."""
    return code[k].text in ("·", ".") and (k == 0 or code[k - 1].line != code[k].line)
