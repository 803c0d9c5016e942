"""Text helpers every prover's syntax shares: one bracket scanner, so nesting is counted one way."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Protocol


class _Token(Protocol):
    @property
    def text(self) -> str: ...


def group_end(tokens: Sequence[_Token], start: int, opening: Collection[str], closing: Collection[str]) -> int | None:
    """Index of the token that closes the group opened at ``tokens[start]``, counting nested groups, or
    None when it never closes. Which texts open and close is the prover's: its syntax knows its brackets."""
    depth = 0
    for j in range(start, len(tokens)):
        text = tokens[j].text
        if text in opening:
            depth += 1
        elif text in closing:
            depth -= 1
            if depth == 0:
                return j
    return None
