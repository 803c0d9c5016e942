"""One structural pass over a no-answer value, for the classical-decision rule (:mod:`_answer_decisions`)
and the reading of ``Finset`` element types (:mod:`_finset_types`): bracket depths and groups, each group's
first top-level separators, the scopes of binders and where propositions stand."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import accumulate
from typing import Final

from putnam_solver.core.provers.lean._number_decisions import BINDERS, condition
from putnam_solver.core.provers.lean.syntax import Token

PROPOSITION_MARKS: Final = frozenset(
    {"=", "≠", "<", ">", "≤", "≥", "∈", "∉", "⊆", "⊂", "⊇", "⊃", "∣", "∧", "∨", "¬", "↔", "∀", "∃", "∃!", "≡"}
)
"""Symbols that make the term they stand in (at its top level) a proposition."""
_OPENERS: Final = frozenset({"(", "[", "{", "⟨", "⦃"})


class Levels:
    """One pass over ``value`` (and one back): each token's bracket depth and enclosing group (the value's
    top level is group ``-1``), each group's first top-level ``:``, ``|``/``//``, ``,``, ``:=`` and ``·``,
    the next ``=>``/``↦`` of a token's group, and the proposition marks by depth, outside an ``if``'s
    condition (``_answer_decisions.deciding_token`` reads those)."""

    def __init__(self, value: Sequence[Token], partner: dict[int, int]) -> None:
        n = len(value)
        inside = [0] * (n + 1)
        for i, token in enumerate(value):
            if token.text == "if":
                start, end = condition(value, i, partner)
                inside[start] += 1
                inside[max(start, end)] -= 1
        self.depth, self.group = [0] * n, [-1] * n
        self.first: dict[tuple[int, str], int] = {}
        self.marks: dict[int, list[int]] = {}
        stack, in_condition = [-1], 0
        for i, token in enumerate(value):
            in_condition += inside[i]
            if partner.get(i, i) < i and len(stack) > 1:
                stack.pop()
            self.depth[i], self.group[i] = len(stack) - 1, stack[-1]
            key = {"//": "|", "λ": "fun"}.get(token.text, token.text)
            if key in (":", "|", ",", ":=", "·", "fun"):
                self.first.setdefault((stack[-1], key), i)
            elif token.text in PROPOSITION_MARKS and in_condition == 0:
                self.marks.setdefault(len(stack) - 1, []).append(i)
            if token.text in _OPENERS and partner.get(i, i) > i:
                stack.append(i)
        self.ends = {k: v for k, v in partner.items() if v > k}
        self.arrow, comma = [n] * n, [n] * n
        nearest: dict[tuple[int, str], int] = {}
        for i in range(n - 1, -1, -1):
            if value[i].text in ("=>", "↦", ","):
                nearest[(self.group[i], value[i].text.replace("↦", "=>"))] = i
            self.arrow[i] = nearest.get((self.group[i], "=>"), n)
            comma[i] = nearest.get((self.group[i], ","), n)
            if self.ends.get(i) is not None:  # leaving, to the left, the group `i` opens
                nearest.pop((i, "=>"), None)
                nearest.pop((i, ","), None)
        regions = [0] * (n + 1)
        for i, token in enumerate(value):
            if token.text in BINDERS:
                regions[i + 1] += 1
                regions[self.arrow[i] if token.text in ("fun", "λ") else comma[i]] -= 1
        self.binder = list(accumulate(regions[:n]))
        """Whether each token stands among a binder's names and groups (before its ``,`` or ``=>``)."""

    def end(self, i: int, n: int) -> int:
        """Where the group enclosing token ``i`` ends."""
        return self.ends.get(self.group[i], n)

    def top(self, opener: int, key: str) -> int | None:
        """The first ``key`` at the top level of the group ``opener`` opens."""
        return self.first.get((opener, key))

    def marked(self, start: int, end: int, level: int) -> bool:
        row = self.marks.get(level, [])
        at = bisect_left(row, start)
        return at < len(row) and row[at] < end
