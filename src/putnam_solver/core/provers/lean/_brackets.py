"""G3, brackets that do not match inside a command (round 34).

Every reading the gates make of a command's inside assumes its brackets match: an ``aesop (add ...)`` clause
ends at its ``)``, a tactic list at its ``]``, a configuration at its ``}``, and the splitter reads a column-0
word after an open bracket as more of the command (:mod:`_continuation`). Lean cannot parse such a command:
it reports an error and resumes at the next token that begins a command, which may be a library's command
keyword no list of ours names, and it elaborates what it could parse of the broken one. A file whose
commands hold a bracket never closed, or a closer with no opener, fails to compile; the text profile
cannot see that, so it refuses the file rather than judge the text by a parse Lean does not make
(``aesop (add safe zz`` with no ``)`` passed). Honest files, which compile, never hold one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from putnam_solver.core.provers.lean._tokens import SYMBOL, Token

CONSTRUCT: Final = "unmatched bracket"
REASON: Final = (
    "every `(`, `[`, `{`, `⟨`, `@[`, `⦃`, `⟦`, `⟪` must be closed by its own closer within the command it opens "
    "in: Lean cannot parse a command whose brackets do not match, and the gates read the text as Lean does only "
    "where it parses"
)
_CLOSING: Final = {"(": ")", "[": "]", "@[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "⟦": "⟧", "⟪": "⟫"}
"""Each opener and its closer; ``]'`` (core's ``l[i]'h``, src/Init/GetElem.lean) closes a ``[`` too."""
_CLOSERS: Final = frozenset(_CLOSING.values()) | {"]'"}


def unmatched_brackets(commands: Iterable[Sequence[Token]]) -> list[Token]:
    """The first unmatched bracket of each command (given as its tokens): a closer that closes nothing or
    another bracket, or an opener still open at the command's end."""
    found: list[Token] = []
    for tokens in commands:
        stack: list[Token] = []
        for token in tokens:
            if token.kind != SYMBOL:
                continue
            if token.text in _CLOSING:
                stack.append(token)
            elif token.text in _CLOSERS and (not stack or _CLOSING[stack.pop().text] != token.text.rstrip("'")):
                found.append(token)
                break
        else:
            found += stack[:1]
    return found


def bracket_partners(texts: Sequence[str]) -> dict[int, int]:
    """Each bracket's partner, both ways, in one pass over token texts (G3 has refused any command whose
    brackets do not match, so every bracket the readings meet has one; a stray one gets none)."""
    partner: dict[int, int] = {}
    stack: list[int] = []
    for k, text in enumerate(texts):
        if text in _CLOSING:
            stack.append(k)
        elif text in _CLOSERS and stack and _CLOSING[texts[stack[-1]]] == text.rstrip("'"):
            j = stack.pop()
            partner[j], partner[k] = k, j
    return partner
