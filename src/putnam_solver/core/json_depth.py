"""How deep JSON nests, measured without recursion, before anything parses it.

Python's ``json`` recurses once per nesting level: a document a hundred thousand ``[`` deep ends in a
``RecursionError`` (or worse, a crashed interpreter on a small stack) long before it is found invalid.
The benchmark loader measures each record's depth here first; ``putnam_solver.bounded_json`` does the
same for the JSON others hand putnam (bundles, ledgers).
"""

from __future__ import annotations

import re
from itertools import accumulate

MAX_DEPTH = 200
"""Deeper than anything putnam writes (a verdict nests about six levels), far below Python's stack."""

_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")


def nesting_depth(text: str) -> int:
    """How deep ``[``/``{`` nest in ``text`` outside strings (a linear scan, no recursion)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0)
